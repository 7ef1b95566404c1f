//! Where a repository's plan is: `Plans.md` at the root, else every `specs/<feature>/tasks.yaml`
//! (features sorted by name). A Plans.md without tasks gives way to tasks.yaml files when there
//! are any. The only file reading of the plan module.

use super::{parse_plans_md, parse_tasks_yaml, FeatureTasks, Plan, PlanError};
use std::path::Path;

/// The Plans.md file name at the repository root.
pub const PLANS_MD: &str = "Plans.md";

/// Reads and parses the repository's plan.
pub fn load(repo: &Path) -> Result<Plan, PlanError> {
    let plans_md = repo.join(PLANS_MD);
    let markdown = if plans_md.is_file() {
        Some(read(&plans_md, PLANS_MD)?)
    } else {
        None
    };
    let features = tasks_yaml_files(repo)?;
    match markdown {
        Some(text) => match parse_plans_md(&text, PLANS_MD) {
            Err(PlanError::Empty { .. }) if !features.is_empty() => parse_tasks_yaml(&features),
            other => other,
        },
        None if features.is_empty() => Err(PlanError::NoPlan),
        None => parse_tasks_yaml(&features),
    }
}

fn tasks_yaml_files(repo: &Path) -> Result<Vec<FeatureTasks>, PlanError> {
    let specs = repo.join("specs");
    let Ok(entries) = std::fs::read_dir(&specs) else {
        return Ok(Vec::new());
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|name| specs.join(name).join("tasks.yaml").is_file())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|feature| {
            let rel = format!("specs/{feature}/tasks.yaml");
            let text = read(&repo.join(&rel), &rel)?;
            Ok(FeatureTasks { feature, text })
        })
        .collect()
}

fn read(path: &Path, rel: &str) -> Result<String, PlanError> {
    std::fs::read_to_string(path).map_err(|e| PlanError::Unreadable {
        file: rel.to_string(),
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::PlanFormat;

    #[test]
    fn plans_md_first_then_tasks_yaml_then_nothing() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()), Err(PlanError::NoPlan));
        std::fs::create_dir_all(dir.path().join("specs/auth")).unwrap();
        std::fs::write(
            dir.path().join("specs/auth/tasks.yaml"),
            "- id: 1\n  title: Login\n",
        )
        .unwrap();
        assert_eq!(load(dir.path()).unwrap().format, PlanFormat::TasksYaml);
        std::fs::write(dir.path().join("Plans.md"), "# Notes only\n").unwrap();
        assert_eq!(load(dir.path()).unwrap().format, PlanFormat::TasksYaml);
        std::fs::write(dir.path().join("Plans.md"), "- 1 A cc:TODO\n").unwrap();
        assert_eq!(load(dir.path()).unwrap().format, PlanFormat::PlansMd);
    }
}
