//! The phase gate of a feature review: design.md and tasks.yaml exist, and spec.yaml's phase is
//! `implementation-complete` (the Inspectors spec; the caller exits 2 on refusal).

use super::{Feature, Phase, SpecError};
use std::path::{Component, Path};

/// Refuses a `--feature` review of `feature` unless its spec folder exists, design.md and
/// tasks.yaml exist, and its phase is `implementation-complete`.
pub fn phase_gate(root: &Path, feature: &str) -> Result<(), SpecError> {
    let not_found = || SpecError::NotFound {
        feature: feature.to_string(),
    };
    // A feature name is one folder name: never let `../x` or `/etc` reach the filesystem.
    let mut parts = Path::new(feature).components();
    if !matches!(
        (parts.next(), parts.next()),
        (Some(Component::Normal(_)), None)
    ) {
        return Err(not_found());
    }
    if !root.join("specs").join(feature).is_dir() {
        return Err(not_found());
    }
    let loaded = Feature::read(root, feature)?.ok_or_else(|| SpecError::DesignRequired {
        feature: feature.to_string(),
        missing: "design.md and tasks.yaml".to_string(),
    })?;
    check_gate(&loaded)
}

/// The phase gate over an already loaded feature.
pub fn check_gate(feature: &Feature) -> Result<(), SpecError> {
    let missing: Vec<&str> = [
        ("design.md", feature.design.is_none()),
        ("tasks.yaml", feature.tasks.is_none()),
    ]
    .into_iter()
    .filter_map(|(file, absent)| absent.then_some(file))
    .collect();
    if !missing.is_empty() {
        return Err(SpecError::DesignRequired {
            feature: feature.name.clone(),
            missing: missing.join(" and "),
        });
    }
    let spec = feature.spec.as_ref();
    match spec.and_then(|s| s.phase.as_ref()) {
        Some(Phase::ImplementationComplete) => Ok(()),
        Some(Phase::Blocked) => Err(SpecError::Blocked {
            feature: feature.name.clone(),
            blocked_by: spec
                .and_then(|s| s.blocked_by.clone())
                .unwrap_or_else(|| "an unnamed dependency".to_string()),
        }),
        other => Err(SpecError::WrongPhase {
            feature: feature.name.clone(),
            phase: other.map_or("unset", Phase::as_str).to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for (rel, body) in files {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, body).expect("write");
        }
        std::fs::create_dir_all(dir.path().join("specs")).expect("specs");
        dir
    }

    const DESIGN: (&str, &str) = ("specs/auth/design.md", "# Design\n");
    const TASKS: (&str, &str) = ("specs/auth/tasks.yaml", "tasks: []\n");

    #[test]
    fn missing_feature_folder() {
        let dir = repo(&[]);
        let err = phase_gate(dir.path(), "auth").expect_err("not found");
        assert_eq!(
            err.to_string(),
            "Spec 'auth' not found. There is no folder specs/auth/; run `ls specs/` to see the features."
        );
        assert!(matches!(
            phase_gate(dir.path(), "../etc"),
            Err(SpecError::NotFound { .. })
        ));
    }

    #[test]
    fn missing_design_or_tasks_says_which() {
        let dir = repo(&[TASKS]);
        let err = phase_gate(dir.path(), "auth").expect_err("no design");
        assert_eq!(
            err.to_string(),
            "Design required. specs/auth/design.md is missing; write the design and the tasks before reviewing the implementation."
        );
        let dir = repo(&[DESIGN]);
        let err = phase_gate(dir.path(), "auth").expect_err("no tasks");
        assert!(err
            .to_string()
            .starts_with("Design required. specs/auth/tasks.yaml is missing;"));
        let dir = repo(&[("specs/auth/notes.txt", "x")]);
        let err = phase_gate(dir.path(), "auth").expect_err("neither");
        assert!(err
            .to_string()
            .starts_with("Design required. specs/auth/design.md and tasks.yaml are missing;"));
    }

    #[test]
    fn wrong_phase_names_the_phase() {
        let dir = repo(&[
            DESIGN,
            TASKS,
            ("specs/auth/spec.yaml", "phase: tasks-generated\n"),
        ]);
        let err = phase_gate(dir.path(), "auth").expect_err("phase");
        assert_eq!(
            err.to_string(),
            "Phase is 'tasks-generated'. The phase in specs/auth/spec.yaml must be 'implementation-complete' for a feature review."
        );
        let dir = repo(&[DESIGN, TASKS]);
        let err = phase_gate(dir.path(), "auth").expect_err("no spec.yaml");
        assert!(err.to_string().starts_with("Phase is 'unset'. "));
    }

    #[test]
    fn blocked_names_the_blocker() {
        let dir = repo(&[
            DESIGN,
            TASKS,
            (
                "specs/auth/spec.yaml",
                "phase: blocked\nblocked_info:\n  blocked_by: billing\n",
            ),
        ]);
        let err = phase_gate(dir.path(), "auth").expect_err("blocked");
        assert_eq!(err.to_string(), "auth is blocked by billing.");
    }

    #[test]
    fn implementation_complete_passes() {
        let dir = repo(&[
            DESIGN,
            TASKS,
            ("specs/auth/spec.yaml", "phase: implementation-complete\n"),
        ]);
        assert!(phase_gate(dir.path(), "auth").is_ok());
    }
}
