//! The spec layout of the Inspectors spec (`specs/<feature>/spec.yaml`, `tasks.yaml`, `design.md`, `steering/`).
//!
//! Everything here is read once per review by [`Specs::load`] and then consulted by the
//! spec-aware rules as plain data; nothing in this module writes to the repository. Line numbers
//! are kept beside every declared path and task so findings can point at the spec line itself.

mod design;
mod error;
mod feature;
mod gate;
mod scope;
mod spec_yaml;
mod steering;
mod tasks;
#[cfg(test)]
pub(crate) mod testing;

pub use design::{CodeBlock, Criterion, Design, Section, SpecSection};
pub use error::SpecError;
pub use feature::Feature;
pub use gate::{check_gate, phase_gate};
pub use scope::features_for;
pub use spec_yaml::{Phase, SpecYaml};
pub use steering::test_command_in;
pub use tasks::{SpecTask, TaskList};

use std::path::Path;

/// The steering file whose "Common Commands" give the test command.
pub const TECH_MD: &str = "steering/tech.md";

/// A path a spec file declares, with the 1-based line that declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredPath {
    /// Repository-relative path as written (a leading `./` removed).
    pub path: String,
    /// Line in the declaring file.
    pub line: u32,
}

/// The specs of a repository; empty when it has no `specs/` folder.
#[derive(Debug, Default)]
pub struct Specs {
    features: Vec<Feature>,
    test_command: Option<Vec<String>>,
}

impl Specs {
    /// Reads the spec layout under `root`: every `specs/<feature>/` folder holding a spec.yaml,
    /// tasks.yaml or design.md, and `steering/tech.md`. No `specs/` folder is an empty layout.
    pub fn load(root: &Path) -> Result<Specs, SpecError> {
        let test_command = match read_optional(root, "steering/tech.md")? {
            Some(text) => test_command_in(&text),
            None => None,
        };
        let specs_dir = root.join("specs");
        if !specs_dir.is_dir() {
            return Ok(Specs {
                features: Vec::new(),
                test_command,
            });
        }
        let entries = std::fs::read_dir(&specs_dir).map_err(|e| SpecError::Unreadable {
            path: "specs".to_string(),
            reason: e.to_string(),
        })?;
        let mut names: Vec<String> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .collect();
        names.sort();
        let mut features = Vec::new();
        for name in names {
            if let Some(feature) = Feature::read(root, &name)? {
                features.push(feature);
            }
        }
        Ok(Specs {
            features,
            test_command,
        })
    }

    /// A layout built in memory (tests, fixtures).
    pub fn from_features(features: Vec<Feature>, test_command: Option<Vec<String>>) -> Specs {
        Specs {
            features,
            test_command,
        }
    }

    /// Whether the repository has no feature specs at all.
    pub fn is_empty(&self) -> bool {
        self.features.is_empty()
    }

    /// Every feature, sorted by folder name.
    pub fn features(&self) -> &[Feature] {
        &self.features
    }

    /// The feature in `specs/<name>/`.
    pub fn feature(&self, name: &str) -> Option<&Feature> {
        self.features.iter().find(|f| f.name == name)
    }

    /// The test command `steering/tech.md`'s "Common Commands" give, split into argv.
    pub fn test_command(&self) -> Option<Vec<String>> {
        self.test_command.clone()
    }

    /// Takes the test command from [`TECH_MD`] as committed at `rev` instead of the work
    /// tree's: a command is configuration, and the change under review does not configure its
    /// own gate.
    /// `shipped`: the file as the Lead read it there, when it did.
    pub fn use_test_command_at(
        &mut self,
        root: &Path,
        rev: &str,
        shipped: Option<&protocol::RevisionFiles>,
    ) -> Result<(), SpecError> {
        let (_, text) = crate::engine::file_at_revision_or_shipped(shipped, root, rev, TECH_MD)
            .map_err(|e| SpecError::Unreadable {
                path: format!("{TECH_MD} at {rev}"),
                reason: e.to_string(),
            })?;
        self.test_command = text.as_deref().and_then(test_command_in);
        Ok(())
    }
}

/// Reads `rel` under `root`, `None` when it does not exist.
pub(crate) fn read_optional(root: &Path, rel: &str) -> Result<Option<String>, SpecError> {
    let path = root.join(rel);
    if !path.is_file() {
        return Ok(None);
    }
    std::fs::read_to_string(&path)
        .map(Some)
        .map_err(|e| SpecError::Unreadable {
            path: rel.to_string(),
            reason: e.to_string(),
        })
}

/// A declared path in its canonical written form: trimmed, without a leading `./`.
pub(crate) fn clean_path(path: &str) -> String {
    let p = path.trim();
    p.strip_prefix("./").unwrap_or(p).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, body: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, body).expect("write");
    }

    #[test]
    fn no_specs_folder_is_an_empty_layout() {
        let dir = tempfile::tempdir().expect("tempdir");
        let specs = Specs::load(dir.path()).expect("load");
        assert!(specs.is_empty());
        assert!(specs.features().is_empty());
        assert_eq!(specs.test_command(), None);
    }

    #[test]
    fn loads_every_feature_folder_and_the_steering_test_command() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        write(
            root,
            "specs/auth/spec.yaml",
            "feature: auth\nphase: tasks-generated\nfiles: [src/auth.rs]\n",
        );
        write(
            root,
            "specs/billing/tasks.yaml",
            "tasks:\n  - id: 1\n    title: Bill\n",
        );
        write(root, "specs/empty/notes.txt", "nothing here\n");
        write(
            root,
            "steering/tech.md",
            "# Tech\n## Common Commands\n```bash\ncargo build\ncargo test --workspace\n```\n",
        );
        let specs = Specs::load(root).expect("load");
        let names: Vec<&str> = specs.features().iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, vec!["auth", "billing"]);
        assert!(!specs.is_empty());
        assert_eq!(
            specs.test_command(),
            Some(vec![
                "cargo".to_string(),
                "test".to_string(),
                "--workspace".to_string()
            ])
        );
        assert!(specs.feature("auth").is_some_and(|f| f.tasks.is_none()));
    }

    #[test]
    fn malformed_yaml_names_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "specs/auth/spec.yaml", "phase: [unclosed\n");
        let err = Specs::load(dir.path()).expect_err("malformed");
        assert!(
            matches!(&err, SpecError::Malformed { path, .. } if path == "specs/auth/spec.yaml"),
            "{err}"
        );
        assert!(err.to_string().starts_with("specs/auth/spec.yaml: "));
    }
}
