//! Which files a spec-based scope covers, and which features a review's rules should check.

use super::{Feature, SpecError, Specs};
use crate::engine::Context;
use protocol::Scope;

impl Specs {
    /// The repository-relative files and folders a spec-based scope covers: for a feature, its
    /// declared paths (spec.yaml files, tasks' files, design Components), or only the listed
    /// tasks' files; for a cross-check every feature's; for a wave, every feature with
    /// `roadmap.wave <= N` (a feature without a wave is unscheduled, so it is included).
    /// Session and module scopes are not spec-based: empty.
    pub fn scope_paths(&self, scope: &Scope) -> Result<Vec<String>, SpecError> {
        let mut paths: Vec<String> = match scope {
            Scope::Feature { feature, tasks } => {
                let found = self.feature(feature).ok_or_else(|| SpecError::NotFound {
                    feature: feature.clone(),
                })?;
                if tasks.is_empty() {
                    found.declared_paths()
                } else {
                    found.task_paths(tasks)?
                }
            }
            Scope::CrossCheck | Scope::WaveCrossCheck { .. } => self
                .features()
                .iter()
                .filter(|f| in_wave(f, scope))
                .flat_map(Feature::declared_paths)
                .collect(),
            Scope::Session { .. } | Scope::Module { .. } => Vec::new(),
        };
        paths.sort();
        paths.dedup();
        Ok(paths)
    }
}

fn in_wave(feature: &Feature, scope: &Scope) -> bool {
    match scope {
        Scope::WaveCrossCheck { wave } => feature.wave().is_none_or(|w| w <= *wave),
        _ => true,
    }
}

/// The features a review's spec-aware rules check: the named feature; every feature (cross-check,
/// the whole repository); the wave's features; or, for path and session scopes, the features
/// with at least one declared path among the reviewed files.
pub fn features_for(ctx: &Context) -> Vec<&Feature> {
    let all = ctx.specs.features().iter();
    match &ctx.scope {
        Scope::Feature { feature, .. } => all.filter(|f| &f.name == feature).collect(),
        Scope::CrossCheck | Scope::WaveCrossCheck { .. } => {
            all.filter(|f| in_wave(f, &ctx.scope)).collect()
        }
        Scope::Module { globs } if globs.is_empty() => all.collect(),
        Scope::Module { .. } | Scope::Session { .. } => all
            .filter(|f| {
                f.declared_paths().iter().any(|p| {
                    let p = p.trim_end_matches('/');
                    ctx.files.iter().any(|file| {
                        file.rel_path == p
                            || file
                                .rel_path
                                .strip_prefix(p)
                                .is_some_and(|rest| rest.starts_with('/'))
                    })
                })
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SourceFile;
    use std::path::Path;

    fn specs() -> Specs {
        let a = Feature::from_texts(
            "a",
            Some("roadmap: {wave: 1}\nfiles: [src/a.rs]\n"),
            Some("tasks:\n  - id: 1\n    files: [src/a_task.rs]\n  - id: 2\n    files: [src/a2.rs]\n"),
            Some("| C | Files |\n|---|---|\n| x | `src/a_comp.rs` |\n"),
        )
        .expect("a");
        let b = Feature::from_texts(
            "b",
            Some("roadmap: {wave: 2}\nfiles: [src/b/]\n"),
            None,
            None,
        )
        .expect("b");
        let c = Feature::from_texts("c", Some("files: [src/c.rs]\n"), None, None).expect("c");
        Specs::from_features(vec![a, b, c], None)
    }

    #[test]
    fn feature_scope_is_its_declared_paths_or_its_tasks() {
        let s = specs();
        let all = Scope::Feature {
            feature: "a".into(),
            tasks: vec![],
        };
        assert_eq!(
            s.scope_paths(&all).expect("a"),
            vec!["src/a.rs", "src/a2.rs", "src/a_comp.rs", "src/a_task.rs"]
        );
        let one = Scope::Feature {
            feature: "a".into(),
            tasks: vec!["1".into()],
        };
        assert_eq!(s.scope_paths(&one).expect("task 1"), vec!["src/a_task.rs"]);
        let missing = Scope::Feature {
            feature: "zzz".into(),
            tasks: vec![],
        };
        assert!(matches!(
            s.scope_paths(&missing),
            Err(SpecError::NotFound { .. })
        ));
    }

    #[test]
    fn cross_check_and_waves() {
        let s = specs();
        assert_eq!(s.scope_paths(&Scope::CrossCheck).expect("all").len(), 6);
        assert_eq!(
            s.scope_paths(&Scope::WaveCrossCheck { wave: 1 })
                .expect("wave 1"),
            vec![
                "src/a.rs",
                "src/a2.rs",
                "src/a_comp.rs",
                "src/a_task.rs",
                "src/c.rs"
            ]
        );
        assert!(s
            .scope_paths(&Scope::repository())
            .expect("module")
            .is_empty());
    }

    #[test]
    fn features_for_a_path_scope_are_those_with_reviewed_files() {
        let mut ctx = Context::from_files(
            Path::new("/repo"),
            vec![SourceFile::new("src/b/x.rs", "")],
            specs(),
        );
        let names = |ctx: &Context| -> Vec<String> {
            features_for(ctx).iter().map(|f| f.name.clone()).collect()
        };
        assert_eq!(names(&ctx), vec!["a", "b", "c"]);
        ctx.scope = Scope::Module {
            globs: vec!["src/b/**".into()],
        };
        assert_eq!(names(&ctx), vec!["b"]);
        ctx.scope = Scope::WaveCrossCheck { wave: 1 };
        assert_eq!(names(&ctx), vec!["a", "c"]);
        ctx.scope = Scope::Feature {
            feature: "c".into(),
            tasks: vec![],
        };
        assert_eq!(names(&ctx), vec!["c"]);
    }
}
