//! `--resume`: an interrupted session (its `active-fix-session.json`) continues with its own
//! plan — a group it was working on is found committed by its commit trailer, or rolled back
//! and started over — and without one, a new session fixes what `fix-history.json` does not
//! record as fixed, with the same fix ids.

use super::session::{ActiveSession, ACTIVE_FILE};
use super::FixError;
use protocol::exec::git::work_tree;
use std::collections::BTreeMap;
use std::path::Path;
use team::fix::summary::committed_fixes;
use team::fix::{Batch, GroupState};

/// The batches left after the fixes `dir`'s fix-history.json records; bad input without one.
pub fn after_history(
    dir: &Path,
    batches: Vec<Batch>,
    log: &mut dyn FnMut(String),
) -> Result<Vec<Batch>, FixError> {
    let history = dir.join("fix-history.json");
    let text = std::fs::read_to_string(&history).map_err(|_| {
        FixError::BadInput(format!(
            "nothing to resume in {}: no {ACTIVE_FILE} and no fix-history.json (run without --resume)",
            dir.display()
        ))
    })?;
    let done = committed_fixes(&text)
        .map_err(|e| FixError::BadInput(format!("malformed {}: {e}", history.display())))?;
    log(format!(
        "resuming after fix-history.json: {} finding(s) already fixed",
        done.len()
    ));
    Ok(without(batches, &done))
}

/// The batches without the findings earlier sessions committed (empty batches dropped); the
/// fix ids stay those of the full batching.
pub fn without(batches: Vec<Batch>, done: &BTreeMap<String, String>) -> Vec<Batch> {
    batches
        .into_iter()
        .map(|mut b| {
            b.findings.retain(|e| !done.contains_key(&e.id));
            b
        })
        .filter(|b| !b.findings.is_empty())
        .collect()
}

/// An interrupted session's unfinished groups: committed just before the interruption (found
/// by the commit trailer), or rolled back to `HEAD` and started over.
pub fn reconcile(
    repo: &Path,
    session: &mut ActiveSession,
    log: &mut dyn FnMut(String),
) -> Result<(), FixError> {
    let unfinished: Vec<(String, Vec<String>, GroupState)> = session
        .plan
        .groups
        .iter()
        .map(|g| (g.id.clone(), g.files.clone(), session.state_of(&g.id)))
        .filter(|(_, _, s)| !s.is_final())
        .collect();
    for (id, files, state) in unfinished {
        if state == GroupState::Pending {
            continue;
        }
        let trailer = team::fix::export::fix_trailer(&session.fix_session_id, &id);
        if let Some(hash) = work_tree::commit_with(repo, &trailer).map_err(FixError::Git)? {
            let attempt = match state {
                GroupState::Fixing { attempt } | GroupState::Testing { attempt } => attempt,
                _ => 1,
            };
            log(format!("{id}: committed as {hash} before the interruption"));
            session.set(&id, GroupState::Committed { attempt }, Some(hash));
            continue;
        }
        let tracked = work_tree::tracked(repo, &files).map_err(FixError::Git)?;
        work_tree::restore(repo, &tracked).map_err(FixError::Git)?;
        log(format!("{id}: interrupted, rolled back and started over"));
        session.set(&id, GroupState::Pending, None);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::Severity;
    use team::fix::batches;
    use team::testing::finding;

    #[test]
    fn an_interrupted_group_is_found_committed_or_rolled_back() {
        use protocol::exec::git::git;
        use team::fix::{FixGroup, FixPlan, Stage};
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path();
        for args in [
            &["init", "-q"][..],
            &["config", "user.name", "t"],
            &["config", "user.email", "t@example.com"],
        ] {
            git(repo, args).unwrap();
        }
        std::fs::write(repo.join("a.rs"), "a\n").unwrap();
        std::fs::write(repo.join("b.rs"), "b\n").unwrap();
        git(repo, &["add", "."]).unwrap();
        git(repo, &["commit", "-q", "-m", "init"]).unwrap();
        std::fs::write(repo.join("a.rs"), "a fixed\n").unwrap();
        let hash =
            work_tree::commit_paths(repo, &["a.rs".into()], "fix: a\n\nRetake-Fix: fix-1/G1\n")
                .unwrap();
        std::fs::write(repo.join("b.rs"), "b half-fixed\n").unwrap();
        let group = |id: &str, file: &str| FixGroup {
            id: id.into(),
            batch: 1,
            files: vec![file.into()],
            fix_ids: vec![],
        };
        let mut session = ActiveSession {
            fix_session_id: "fix-1".into(),
            started_at: "t".into(),
            planning_mode: "builtin".into(),
            batch_size: 5,
            max_attempts: 3,
            plan: FixPlan {
                groups: vec![
                    group("G1", "a.rs"),
                    group("G2", "b.rs"),
                    group("G3", "c.rs"),
                ],
                timeline: vec![Stage {
                    stage: 1,
                    groups: vec!["G1".into(), "G2".into(), "G3".into()],
                }],
            },
            groups: Default::default(),
        };
        session.set("G1", GroupState::Testing { attempt: 2 }, None);
        session.set("G2", GroupState::Fixing { attempt: 1 }, None);
        let mut lines = Vec::new();
        reconcile(repo, &mut session, &mut |l| lines.push(l)).unwrap();
        assert_eq!(session.state_of("G1"), GroupState::Committed { attempt: 2 });
        assert_eq!(session.commit_of("G1"), Some(hash.clone()));
        assert_eq!(session.state_of("G2"), GroupState::Pending);
        assert_eq!(session.state_of("G3"), GroupState::Pending);
        assert_eq!(std::fs::read_to_string(repo.join("b.rs")).unwrap(), "b\n");
        assert_eq!(
            lines,
            vec![
                format!("G1: committed as {hash} before the interruption"),
                "G2: interrupted, rolled back and started over".to_string()
            ]
        );
    }

    #[test]
    fn history_removes_fixed_findings_and_keeps_the_ids() {
        let fs: Vec<_> = ["a.rs", "b.rs", "c.rs"]
            .iter()
            .map(|p| finding(p, 1, Severity::Low, "c", "x", true))
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let mut log = |_: String| {};
        assert!(after_history(dir.path(), batches(&fs, 2), &mut log)
            .unwrap_err()
            .to_string()
            .starts_with("nothing to resume in "));
        std::fs::write(
            dir.path().join("fix-history.json"),
            r#"{"sessions": [{"fixes": [{"id": "FIX-001", "result": "fixed", "commit": "abc"},
                {"id": "FIX-002", "result": "failed"}]},
                {"fixes": [{"id": "FIX-003", "result": "fixed", "commit": "def"}]}]}"#,
        )
        .unwrap();
        let left = after_history(dir.path(), batches(&fs, 2), &mut log).unwrap();
        let ids: Vec<(u32, Vec<String>)> = left
            .iter()
            .map(|b| (b.id, b.findings.iter().map(|e| e.id.clone()).collect()))
            .collect();
        assert_eq!(ids, vec![(1, vec!["FIX-002".to_string()])]);
        std::fs::write(dir.path().join("fix-history.json"), "[").unwrap();
        assert!(after_history(dir.path(), batches(&fs, 2), &mut log)
            .unwrap_err()
            .to_string()
            .starts_with("malformed "));
    }
}
