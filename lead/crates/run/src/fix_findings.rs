//! `.retake/state/fix-findings.json`: for each fix task of the run, the findings it was made
//! for, so that the Implementer that claims it — now or after `retake resume` — can have its
//! judge run their rules again (`implementer::recheck`) and pass the task only when they are
//! gone. Written atomically by the Lead when it makes fix tasks; read when it assigns one.
//! Keyed by the run's session, so a later run's task 4 never inherits an earlier run's.

use host::journal::write_atomic;
use protocol::{Finding, Task, TaskOrigin};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use team::fix_tasks::findings_for;

/// The file's name in the run's state folder.
pub const FILE: &str = "fix-findings.json";

#[derive(Debug, Default, Serialize, Deserialize)]
struct Store {
    session_id: String,
    tasks: BTreeMap<u32, Vec<Finding>>,
}

fn read(state_dir: &Path, session_id: &str) -> Store {
    std::fs::read_to_string(state_dir.join(FILE))
        .ok()
        .and_then(|t| serde_json::from_str::<Store>(&t).ok())
        .filter(|s| s.session_id == session_id)
        .unwrap_or_else(|| Store {
            session_id: session_id.to_string(),
            tasks: BTreeMap::new(),
        })
}

/// Records the findings of each new fix task in `fixes`, taken from the review's `findings`.
pub fn record(
    state_dir: &Path,
    session_id: &str,
    fixes: &[Task],
    findings: &[Finding],
) -> std::io::Result<()> {
    let mut store = read(state_dir, session_id);
    for task in fixes.iter().filter(|t| t.origin == TaskOrigin::Fix) {
        store.tasks.insert(task.id, findings_for(task, findings));
    }
    let text = serde_json::to_vec_pretty(&store).map_err(std::io::Error::other)?;
    std::fs::create_dir_all(state_dir)?;
    write_atomic(&state_dir.join(FILE), &text)
}

/// The findings recorded for `task` in this session (none for a plan task).
pub fn of(state_dir: &Path, session_id: &str, task: &Task) -> Vec<Finding> {
    read(state_dir, session_id)
        .tasks
        .remove(&task.id)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::Severity;
    use team::fix_tasks::{fix_tasks, to_tasks};
    use team::testing::finding;

    #[test]
    fn each_fix_task_gets_its_findings_in_its_session_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let findings = [
            finding("src/a.rs", 3, Severity::High, "unwrap", "unwrap", false),
            finding("src/b.rs", 9, Severity::Low, "naming", "name", false),
        ];
        let tasks = to_tasks(&fix_tasks(&findings), 4);
        record(dir.path(), "s1", &tasks, &findings).expect("record");
        let got = of(dir.path(), "s1", &tasks[0]);
        assert_eq!(got, [findings[0].clone()]);
        assert_eq!(of(dir.path(), "s1", &tasks[1]), [findings[1].clone()]);
        assert!(of(dir.path(), "s2", &tasks[0]).is_empty());
        record(dir.path(), "s2", &tasks[1..], &findings).expect("record");
        assert!(of(dir.path(), "s1", &tasks[1]).is_empty());
        assert_eq!(of(dir.path(), "s2", &tasks[1]), [findings[1].clone()]);
    }
}
