//! The files a fix session leaves in the review folder, apart from the plans and the session
//! file: the export (`.task/FIX-<seq>.json` per finding, `plan.json`), the closing
//! `fix-summary.md` and `fix-history.json`, and the removal of a previous session's per-session
//! files before a new session writes its own.

use super::planner::write_json;
use super::FixError;
use host::journal::write_atomic;
use std::path::Path;
use team::fix::export::{fix_task_json, plan_json};
use team::fix::summary::{append_history, fix_summary_md, history_entry};
use team::fix::summary::{FixOutcome, SessionInfo};
use team::fix::{FixFinding, FixPlan};

/// Removes the per-session files a new session replaces (`.task/FIX-*.json`, `plan.json`,
/// `fix-plan.json`, `partial-plan-*.json`, `fix-progress-*.json`); the history stays.
pub fn clear_previous(dir: &Path) -> Result<(), FixError> {
    let remove = |path: &Path| match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(FixError::Io {
            context: format!("cannot remove {}", path.display()),
            source,
        }),
    };
    for name in ["plan.json", "fix-plan.json"] {
        remove(&dir.join(name))?;
    }
    for (folder, prefix) in [
        (dir.to_path_buf(), "partial-plan-"),
        (dir.to_path_buf(), "fix-progress-"),
        (dir.join(".task"), "FIX-"),
    ] {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(prefix) && name.ends_with(".json") {
                remove(&entry.path())?;
            }
        }
    }
    Ok(())
}

/// Writes one `.task/FIX-<seq>.json` per planned finding and `plan.json` (none without tasks);
/// the number of task files.
pub fn export(
    dir: &Path,
    plan: &FixPlan,
    entries: &[FixFinding],
    fix_session_id: &str,
    planning_mode: &str,
    review_summary: &str,
    timestamp: &str,
) -> Result<usize, FixError> {
    let planned: Vec<FixFinding> = entries
        .iter()
        .filter(|e| plan.groups.iter().any(|g| g.fix_ids.contains(&e.id)))
        .cloned()
        .collect();
    for e in &planned {
        write_json(
            &dir.join(".task").join(format!("{}.json", e.id)),
            &fix_task_json(e, fix_session_id),
        )?;
    }
    if let Some(doc) = plan_json(&planned, review_summary, planning_mode, timestamp) {
        write_json(&dir.join("plan.json"), &doc)?;
    }
    Ok(planned.len())
}

/// Writes `fix-summary.md` and appends the session to `fix-history.json`.
pub fn finish(
    dir: &Path,
    info: &SessionInfo<'_>,
    plan: &FixPlan,
    outcomes: &[FixOutcome],
    left_out: &[String],
) -> Result<(), FixError> {
    let summary = dir.join("fix-summary.md");
    write_atomic(
        &summary,
        fix_summary_md(info, plan, outcomes, left_out).as_bytes(),
    )
    .map_err(|source| FixError::Io {
        context: format!("cannot write {}", summary.display()),
        source,
    })?;
    let history = dir.join("fix-history.json");
    let existing = match std::fs::read_to_string(&history) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(FixError::Io {
                context: format!("cannot read {}", history.display()),
                source,
            })
        }
    };
    let text = append_history(existing.as_deref(), history_entry(info, outcomes)).map_err(|e| {
        FixError::BadInput(format!(
            "malformed {}: {e} (move it aside to record new sessions)",
            history.display()
        ))
    })?;
    write_atomic(&history, text.as_bytes()).map_err(|source| FixError::Io {
        context: format!("cannot write {}", history.display()),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::Severity;
    use team::fix::{aggregate, batches, builtin_partial_plan};
    use team::testing::finding;

    #[test]
    fn export_writes_a_task_per_planned_finding_and_clear_removes_them() {
        let dir = tempfile::tempdir().unwrap();
        let fs = vec![
            finding("a.rs", 1, Severity::Low, "c", "x", true),
            finding("b.rs", 2, Severity::High, "c", "y", false),
            finding("c.rs", 3, Severity::Low, "c", "z", false),
        ];
        let b = batches(&fs, 5);
        let entries: Vec<FixFinding> = b.iter().flat_map(|b| b.findings.clone()).collect();
        let mut partial = builtin_partial_plan(&b[0]);
        partial.groups.retain(|g| g.files != ["c.rs"]);
        let plan = aggregate(&[partial]);
        let n = export(
            dir.path(),
            &plan,
            &entries,
            "fix-1",
            "builtin",
            "3 findings",
            "t",
        )
        .unwrap();
        assert_eq!(n, 2);
        let mut names: Vec<String> = std::fs::read_dir(dir.path().join(".task"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, vec!["FIX-001.json", "FIX-002.json"]);
        let plan_doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("plan.json")).unwrap())
                .unwrap();
        assert_eq!(plan_doc["task_count"], 2);
        assert_eq!(plan_doc["fix_context"]["severity"], "High");
        std::fs::write(dir.path().join("fix-progress-1.json"), "{}").unwrap();
        std::fs::write(dir.path().join("fix-history.json"), "{}").unwrap();
        clear_previous(dir.path()).unwrap();
        assert!(!dir.path().join("plan.json").exists());
        assert!(!dir.path().join("fix-progress-1.json").exists());
        assert!(!dir.path().join(".task/FIX-001.json").exists());
        assert!(
            dir.path().join("fix-history.json").exists(),
            "history stays"
        );
    }
}
