//! `specs/<feature>/tasks.yaml`: the feature's tasks, their completion and their files.
//!
//! serde_yaml keeps no positions, so each task's line is found afterwards by scanning the text
//! for its `id:` entry, in order, so that findings can point at the task itself.

use super::spec_yaml::scalar_text;
use super::{clean_path, SpecError};
use serde::Deserialize;
use serde_yaml::Value;

/// One task of tasks.yaml.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecTask {
    /// `id`, as text (numbers and strings both allowed).
    pub id: String,
    /// `title`.
    pub title: String,
    /// `done`.
    pub done: bool,
    /// `files`.
    pub files: Vec<String>,
    /// `depends_on`, as text ids.
    pub depends_on: Vec<String>,
    /// 1-based line of the task's `id:` entry.
    pub line: u32,
}

/// A parsed tasks.yaml.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskList {
    /// The tasks, in file order.
    pub tasks: Vec<SpecTask>,
}

#[derive(Deserialize, Default)]
struct RawFile {
    #[serde(default)]
    tasks: Vec<RawTask>,
}

#[derive(Deserialize)]
struct RawTask {
    id: Value,
    #[serde(default)]
    title: String,
    #[serde(default)]
    done: bool,
    #[serde(default)]
    files: Vec<String>,
    #[serde(default)]
    depends_on: Vec<Value>,
}

impl TaskList {
    /// Parses tasks.yaml's text (`tasks: [...]`, or a bare list); `path` names the file in errors.
    pub fn parse(text: &str, path: &str) -> Result<TaskList, SpecError> {
        let malformed = |reason: String| SpecError::Malformed {
            path: path.to_string(),
            reason,
        };
        let value: Value = if text.trim().is_empty() {
            Value::Null
        } else {
            serde_yaml::from_str(text).map_err(|e| malformed(e.to_string()))?
        };
        let raw: Vec<RawTask> = match value {
            Value::Null => Ok(Vec::new()),
            Value::Sequence(_) => serde_yaml::from_value(value),
            _ => serde_yaml::from_value::<RawFile>(value).map(|f| f.tasks),
        }
        .map_err(|e| malformed(e.to_string()))?;
        let lines: Vec<&str> = text.lines().collect();
        let mut cursor = 0usize;
        let mut tasks = Vec::with_capacity(raw.len());
        for (i, t) in raw.into_iter().enumerate() {
            let id = scalar_text(&t.id)
                .ok_or_else(|| malformed(format!("task {} has no usable id", i + 1)))?;
            let line = match find_id_line(&lines, cursor, &id) {
                Some(found) => {
                    cursor = found + 1;
                    found as u32 + 1
                }
                None => cursor as u32 + 1,
            };
            tasks.push(SpecTask {
                id,
                title: t.title.trim().to_string(),
                done: t.done,
                files: t.files.iter().map(|f| clean_path(f)).collect(),
                depends_on: t.depends_on.iter().filter_map(scalar_text).collect(),
                line,
            });
        }
        Ok(TaskList { tasks })
    }

    /// The task with this id.
    pub fn task(&self, id: &str) -> Option<&SpecTask> {
        self.tasks.iter().find(|t| t.id == id)
    }

    /// How many tasks are done, and how many there are.
    pub fn completion(&self) -> (u32, u32) {
        let done = self.tasks.iter().filter(|t| t.done).count() as u32;
        (done, self.tasks.len() as u32)
    }
}

/// The 0-based index of the first line at or after `from` whose `id:` entry has the value `id`.
fn find_id_line(lines: &[&str], from: usize, id: &str) -> Option<usize> {
    (from..lines.len()).find(|&i| {
        let line = lines[i];
        let mut rest = line;
        while let Some(at) = rest.find("id:") {
            let before = &rest[..at];
            let starts_key = before
                .chars()
                .last()
                .is_none_or(|c| c.is_whitespace() || matches!(c, '-' | '{' | ','));
            let value = rest[at + 3..]
                .split([',', '}', '#'])
                .next()
                .unwrap_or_default()
                .trim()
                .trim_matches(['"', '\'']);
            if starts_key && value == id {
                return true;
            }
            rest = &rest[at + 3..];
        }
        false
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TASKS: &str = "\
tasks:
  - id: 1
    title: Create the user model
    done: true
    files: [src/user.rs]
  - id: \"2\"
    title: Wire the API
    done: false
    files:
      - ./src/api.rs
    depends_on: [1]
  - {id: 2.1, title: Docs, depends_on: [\"2\"]}
  - title: Error mapping
    id: e3
";

    #[test]
    fn parses_tasks_with_lines_and_mixed_ids() {
        let list = TaskList::parse(TASKS, "specs/a/tasks.yaml").expect("parse");
        let ids: Vec<(&str, u32, bool)> = list
            .tasks
            .iter()
            .map(|t| (t.id.as_str(), t.line, t.done))
            .collect();
        assert_eq!(
            ids,
            vec![
                ("1", 2, true),
                ("2", 6, false),
                ("2.1", 12, false),
                ("e3", 14, false)
            ]
        );
        let api = list.task("2").expect("task 2");
        assert_eq!(api.files, vec!["src/api.rs".to_string()]);
        assert_eq!(api.depends_on, vec!["1".to_string()]);
        assert_eq!(api.title, "Wire the API");
        assert_eq!(list.completion(), (1, 4));
    }

    #[test]
    fn bare_lists_empty_files_and_errors() {
        let list = TaskList::parse("- id: a\n  done: true\n", "t").expect("bare list");
        assert_eq!(list.completion(), (1, 1));
        assert_eq!(
            TaskList::parse("", "t").expect("empty"),
            TaskList::default()
        );
        let err =
            TaskList::parse("tasks:\n  - title: no id\n", "specs/a/tasks.yaml").expect_err("no id");
        assert!(err.to_string().starts_with("specs/a/tasks.yaml: "), "{err}");
        let err = TaskList::parse("tasks:\n  - id: [1]\n", "t").expect_err("list id");
        assert_eq!(err.to_string(), "t: task 1 has no usable id");
        assert!(TaskList::parse("tasks: [\n", "t").is_err());
    }
}
