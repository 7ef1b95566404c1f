//! One feature folder, `specs/<name>/`, with whichever of its three files exist.

use super::{read_optional, Design, SpecError, SpecYaml, TaskList};
use std::path::Path;

/// A feature's spec files, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature {
    /// The folder name under `specs/`.
    pub name: String,
    /// spec.yaml, when present.
    pub spec: Option<SpecYaml>,
    /// tasks.yaml, when present.
    pub tasks: Option<TaskList>,
    /// design.md, when present.
    pub design: Option<Design>,
}

impl Feature {
    /// Reads `specs/<name>/`; `None` when the folder holds none of the three spec files.
    pub fn read(root: &Path, name: &str) -> Result<Option<Feature>, SpecError> {
        let dir = format!("specs/{name}");
        let spec = read_optional(root, &format!("{dir}/spec.yaml"))?;
        let tasks = read_optional(root, &format!("{dir}/tasks.yaml"))?;
        let design = read_optional(root, &format!("{dir}/design.md"))?;
        if spec.is_none() && tasks.is_none() && design.is_none() {
            return Ok(None);
        }
        Feature::from_texts(name, spec.as_deref(), tasks.as_deref(), design.as_deref()).map(Some)
    }

    /// A feature from the texts of its files (tests, fixtures).
    pub fn from_texts(
        name: &str,
        spec: Option<&str>,
        tasks: Option<&str>,
        design: Option<&str>,
    ) -> Result<Feature, SpecError> {
        let path = |file: &str| format!("specs/{name}/{file}");
        Ok(Feature {
            name: name.to_string(),
            spec: spec
                .map(|t| SpecYaml::parse(t, &path("spec.yaml")))
                .transpose()?,
            tasks: tasks
                .map(|t| TaskList::parse(t, &path("tasks.yaml")))
                .transpose()?,
            design: design.map(Design::parse),
        })
    }

    /// The repository-relative path of one of its files: `specs/<name>/<file>`.
    pub fn path_of(&self, file: &str) -> String {
        format!("specs/{}/{file}", self.name)
    }

    /// `roadmap.wave`, when spec.yaml sets it.
    pub fn wave(&self) -> Option<u32> {
        self.spec.as_ref().and_then(|s| s.wave)
    }

    /// The implementation paths it declares: spec.yaml `files`, every task's `files` and the
    /// design's Components files; sorted, without duplicates.
    pub fn declared_paths(&self) -> Vec<String> {
        let mut paths: Vec<String> = Vec::new();
        if let Some(spec) = &self.spec {
            paths.extend(spec.files.iter().map(|f| f.path.clone()));
        }
        if let Some(tasks) = &self.tasks {
            paths.extend(tasks.tasks.iter().flat_map(|t| t.files.iter().cloned()));
        }
        if let Some(design) = &self.design {
            paths.extend(design.components.iter().map(|c| c.path.clone()));
        }
        paths.sort();
        paths.dedup();
        paths
    }

    /// The files of the tasks with these ids; an id tasks.yaml lacks is an error.
    pub fn task_paths(&self, ids: &[String]) -> Result<Vec<String>, SpecError> {
        let empty = TaskList::default();
        let tasks = self.tasks.as_ref().unwrap_or(&empty);
        let mut paths = Vec::new();
        for id in ids {
            let id = id.trim();
            let task = tasks.task(id).ok_or_else(|| SpecError::UnknownTask {
                feature: self.name.clone(),
                id: id.to_string(),
                known: tasks
                    .tasks
                    .iter()
                    .map(|t| t.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
            paths.extend(task.files.iter().cloned());
        }
        paths.sort();
        paths.dedup();
        Ok(paths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature() -> Feature {
        Feature::from_texts(
            "users",
            Some("phase: tasks-generated\nroadmap: {wave: 3}\nfiles: [src/user.rs, src/db/]\n"),
            Some(
                "tasks:\n  - id: 1\n    files: [src/user.rs]\n  - id: 2\n    files: [src/api.rs]\n",
            ),
            Some("## Components\n| Name | Files |\n|---|---|\n| Routes | `src/routes.rs` |\n"),
        )
        .expect("feature")
    }

    #[test]
    fn declares_the_union_of_its_paths() {
        let f = feature();
        assert_eq!(
            f.declared_paths(),
            vec!["src/api.rs", "src/db/", "src/routes.rs", "src/user.rs"]
        );
        assert_eq!(f.wave(), Some(3));
        assert_eq!(f.path_of("tasks.yaml"), "specs/users/tasks.yaml");
    }

    #[test]
    fn task_paths_are_limited_to_known_ids() {
        let f = feature();
        assert_eq!(
            f.task_paths(&["2".to_string()]).expect("task 2"),
            vec!["src/api.rs"]
        );
        let err = f.task_paths(&["9".to_string()]).expect_err("unknown");
        assert_eq!(
            err.to_string(),
            "Task '9' not found in specs/users/tasks.yaml. Its tasks are: 1, 2."
        );
    }
}
