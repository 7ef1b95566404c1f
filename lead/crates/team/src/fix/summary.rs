//! A fix session's end: `fix-summary.md` (counts, the stage timeline, what was fixed with which
//! commit, what failed and why) and its entry appended to `fix-history.json`
//! (`{"sessions": [...]}`, every session of the review), from which `--resume` learns which
//! fixes earlier sessions committed.

use super::batching::FixFinding;
use super::execution::GroupState;
use super::planning::FixPlan;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// What became of one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixResult {
    /// Fixed and committed.
    Fixed {
        /// The commit (short hash).
        commit: String,
    },
    /// Its group failed every attempt.
    Failed {
        /// Attempts made.
        attempts: u32,
        /// The last failure.
        reason: String,
    },
    /// Never attempted (the session stopped first).
    Skipped,
}

/// One finding's line of the summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixOutcome {
    /// `FIX-001`.
    pub fix_id: String,
    /// `src/a.rs:3`.
    pub location: String,
    /// Its group.
    pub group: String,
    /// The result.
    pub result: FixResult,
}

/// The session's identity and timing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionInfo<'a> {
    /// `fix-YYYYMMDD-HHMMSS`.
    pub fix_session_id: &'a str,
    /// The review folder it fixed (`.retake/reviews/<id>`).
    pub review_dir: &'a str,
    /// RFC 3339.
    pub started_at: &'a str,
    /// RFC 3339.
    pub completed_at: &'a str,
}

/// Each planned finding's outcome, in plan order: its group committed (with `commit_of` the
/// group's commit), failed, or not finished.
pub fn outcomes(
    plan: &FixPlan,
    entries: &[FixFinding],
    state_of: &dyn Fn(&str) -> GroupState,
    commit_of: &dyn Fn(&str) -> Option<String>,
) -> Vec<FixOutcome> {
    let mut out = Vec::new();
    for g in &plan.groups {
        let state = state_of(&g.id);
        for id in &g.fix_ids {
            let location = entries
                .iter()
                .find(|e| &e.id == id)
                .map(|e| e.finding.location.to_string())
                .unwrap_or_default();
            let result = match &state {
                GroupState::Committed { .. } => FixResult::Fixed {
                    commit: commit_of(&g.id).unwrap_or_default(),
                },
                GroupState::Failed { attempts, reason } => FixResult::Failed {
                    attempts: *attempts,
                    reason: reason.clone(),
                },
                _ => FixResult::Skipped,
            };
            out.push(FixOutcome {
                fix_id: id.clone(),
                location,
                group: g.id.clone(),
                result,
            });
        }
    }
    out
}

fn counts(outcomes: &[FixOutcome]) -> (usize, usize, usize) {
    let fixed = outcomes
        .iter()
        .filter(|o| matches!(o.result, FixResult::Fixed { .. }))
        .count();
    let failed = outcomes
        .iter()
        .filter(|o| matches!(o.result, FixResult::Failed { .. }))
        .count();
    (fixed, failed, outcomes.len() - fixed - failed)
}

/// `fix-summary.md`; `left_out` are the review's findings that were no task (repository-wide,
/// outside the repository), one line each, listed so the summary accounts for every finding.
pub fn fix_summary_md(
    info: &SessionInfo<'_>,
    plan: &FixPlan,
    outcomes: &[FixOutcome],
    left_out: &[String],
) -> String {
    let (fixed, failed, skipped) = counts(outcomes);
    let mut out = format!(
        "# Fix summary — {}\n\n- Review: {}\n- Started: {}\n- Completed: {}\n\
         - Findings: {} — fixed {fixed}, failed {failed}, skipped {skipped}\n\n## Timeline\n\n\
         | Stage | Groups |\n|-------|--------|\n",
        info.fix_session_id,
        info.review_dir,
        info.started_at,
        info.completed_at,
        outcomes.len()
    );
    for s in &plan.timeline {
        out.push_str(&format!("| {} | {} |\n", s.stage, s.groups.join(", ")));
    }
    out.push_str("\n## Fixed\n\n");
    let fixed_rows: Vec<String> = outcomes
        .iter()
        .filter_map(|o| match &o.result {
            FixResult::Fixed { commit } => Some(format!(
                "| {} | {} | {} | {commit} |\n",
                o.fix_id, o.location, o.group
            )),
            _ => None,
        })
        .collect();
    if fixed_rows.is_empty() {
        out.push_str("(none)\n");
    } else {
        out.push_str("| Fix | Location | Group | Commit |\n|-----|----------|-------|--------|\n");
        out.extend(fixed_rows);
    }
    out.push_str("\n## Not fixed\n\n");
    let open_rows: Vec<String> = outcomes
        .iter()
        .filter_map(|o| match &o.result {
            FixResult::Failed { attempts, reason } => Some(format!(
                "| {} | {} | {} | failed after {attempts} attempt{}: {} |\n",
                o.fix_id,
                o.location,
                o.group,
                if *attempts == 1 { "" } else { "s" },
                reason.replace('|', "\\|").replace('\n', " ")
            )),
            FixResult::Skipped => Some(format!(
                "| {} | {} | {} | skipped |\n",
                o.fix_id, o.location, o.group
            )),
            FixResult::Fixed { .. } => None,
        })
        .collect();
    if open_rows.is_empty() {
        out.push_str("(none)\n");
    } else {
        out.push_str("| Fix | Location | Group | Result |\n|-----|----------|-------|--------|\n");
        out.extend(open_rows);
    }
    if !left_out.is_empty() {
        out.push_str("\n## Not tasks\n\n");
        for note in left_out {
            out.push_str(&format!("- {note}\n"));
        }
    }
    out
}

/// The session's `fix-history.json` entry.
pub fn history_entry(info: &SessionInfo<'_>, outcomes: &[FixOutcome]) -> Value {
    let (fixed, failed, skipped) = counts(outcomes);
    let commits: Vec<&str> = outcomes
        .iter()
        .filter_map(|o| match &o.result {
            FixResult::Fixed { commit } => Some(commit.as_str()),
            _ => None,
        })
        .collect();
    let fixes: Vec<Value> = outcomes
        .iter()
        .map(|o| match &o.result {
            FixResult::Fixed { commit } => {
                json!({"id": o.fix_id, "group": o.group, "result": "fixed", "commit": commit})
            }
            FixResult::Failed { attempts, reason } => {
                json!({"id": o.fix_id, "group": o.group, "result": "failed", "attempts": attempts, "reason": reason})
            }
            FixResult::Skipped => json!({"id": o.fix_id, "group": o.group, "result": "skipped"}),
        })
        .collect();
    let mut unique: Vec<&str> = Vec::new();
    for c in commits {
        if !unique.contains(&c) {
            unique.push(c);
        }
    }
    json!({
        "fix_session_id": info.fix_session_id,
        "review_dir": info.review_dir,
        "started_at": info.started_at,
        "completed_at": info.completed_at,
        "findings": outcomes.len(),
        "fixed": fixed,
        "failed": failed,
        "skipped": skipped,
        "commits": unique,
        "fixes": fixes,
    })
}

/// The fixes earlier sessions committed, fix id → commit, from fix-history.json's text.
pub fn committed_fixes(history: &str) -> Result<BTreeMap<String, String>, serde_json::Error> {
    let doc: Value = serde_json::from_str(history)?;
    let mut out = BTreeMap::new();
    let sessions = doc.get("sessions").and_then(Value::as_array);
    for fix in sessions
        .into_iter()
        .flatten()
        .filter_map(|s| s.get("fixes").and_then(Value::as_array))
        .flatten()
    {
        if let (Some("fixed"), Some(id), Some(commit)) = (
            fix.get("result").and_then(Value::as_str),
            fix.get("id").and_then(Value::as_str),
            fix.get("commit").and_then(Value::as_str),
        ) {
            out.insert(id.to_string(), commit.to_string());
        }
    }
    Ok(out)
}

/// fix-history.json's text with `entry` appended; `existing` is the file's current text.
pub fn append_history(existing: Option<&str>, entry: Value) -> Result<String, serde_json::Error> {
    let mut doc: Value = match existing.map(str::trim).filter(|t| !t.is_empty()) {
        Some(text) => serde_json::from_str(text)?,
        None => json!({"sessions": []}),
    };
    if !doc.get("sessions").is_some_and(Value::is_array) {
        doc = json!({"sessions": []});
    }
    if let Some(sessions) = doc.get_mut("sessions").and_then(Value::as_array_mut) {
        sessions.push(entry);
    }
    Ok(serde_json::to_string_pretty(&doc)? + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::planning::{FixGroup, Stage};

    fn info() -> SessionInfo<'static> {
        SessionInfo {
            fix_session_id: "fix-20260222-143000",
            review_dir: ".retake/reviews/r1",
            started_at: "2026-02-22T14:30:00Z",
            completed_at: "2026-02-22T14:41:00Z",
        }
    }

    fn outcomes() -> Vec<FixOutcome> {
        vec![
            FixOutcome {
                fix_id: "FIX-001".into(),
                location: "src/a.rs:3".into(),
                group: "G1".into(),
                result: FixResult::Fixed {
                    commit: "abc1234".into(),
                },
            },
            FixOutcome {
                fix_id: "FIX-002".into(),
                location: "src/b.rs:9".into(),
                group: "G2".into(),
                result: FixResult::Failed {
                    attempts: 3,
                    reason: "test login | failed".into(),
                },
            },
            FixOutcome {
                fix_id: "FIX-003".into(),
                location: "src/c.rs:1".into(),
                group: "G3".into(),
                result: FixResult::Skipped,
            },
        ]
    }

    #[test]
    fn the_summary_lists_counts_stages_fixed_and_open() {
        let plan = FixPlan {
            groups: vec![FixGroup {
                id: "G1".into(),
                batch: 1,
                files: vec![],
                fix_ids: vec![],
            }],
            timeline: vec![
                Stage {
                    stage: 1,
                    groups: vec!["G1".into(), "G2".into()],
                },
                Stage {
                    stage: 2,
                    groups: vec!["G3".into()],
                },
            ],
        };
        assert_eq!(
            fix_summary_md(&info(), &plan, &outcomes(), &[]),
            "# Fix summary — fix-20260222-143000\n\n- Review: .retake/reviews/r1\n\
             - Started: 2026-02-22T14:30:00Z\n- Completed: 2026-02-22T14:41:00Z\n\
             - Findings: 3 — fixed 1, failed 1, skipped 1\n\n## Timeline\n\n\
             | Stage | Groups |\n|-------|--------|\n| 1 | G1, G2 |\n| 2 | G3 |\n\n## Fixed\n\n\
             | Fix | Location | Group | Commit |\n|-----|----------|-------|--------|\n\
             | FIX-001 | src/a.rs:3 | G1 | abc1234 |\n\n## Not fixed\n\n\
             | Fix | Location | Group | Result |\n|-----|----------|-------|--------|\n\
             | FIX-002 | src/b.rs:9 | G2 | failed after 3 attempts: test login \\| failed |\n\
             | FIX-003 | src/c.rs:1 | G3 | skipped |\n"
        );
    }

    #[test]
    fn repository_wide_findings_are_listed_as_not_tasks() {
        let plan = FixPlan {
            groups: Vec::new(),
            timeline: Vec::new(),
        };
        let md = fix_summary_md(
            &info(),
            &plan,
            &[],
            &["test/missing-integration-tests (no integration tests) is repository-wide: no file to fix".into()],
        );
        assert!(
            md.contains("- Findings: 0 — fixed 0, failed 0, skipped 0\n"),
            "{md}"
        );
        assert!(md.ends_with(
            "\n## Not tasks\n\n- test/missing-integration-tests (no integration tests) is repository-wide: no file to fix\n"
        ), "{md}");
    }

    #[test]
    fn history_appends_one_entry_per_session() {
        let entry = history_entry(&info(), &outcomes());
        assert_eq!(
            entry,
            json!({"fix_session_id": "fix-20260222-143000", "review_dir": ".retake/reviews/r1",
                   "started_at": "2026-02-22T14:30:00Z", "completed_at": "2026-02-22T14:41:00Z",
                   "findings": 3, "fixed": 1, "failed": 1, "skipped": 1, "commits": ["abc1234"],
                   "fixes": [
                       {"id": "FIX-001", "group": "G1", "result": "fixed", "commit": "abc1234"},
                       {"id": "FIX-002", "group": "G2", "result": "failed", "attempts": 3, "reason": "test login | failed"},
                       {"id": "FIX-003", "group": "G3", "result": "skipped"}]})
        );
        let first = append_history(None, entry.clone()).unwrap();
        let second = append_history(Some(&first), entry).unwrap();
        let v: Value = serde_json::from_str(&second).unwrap();
        assert_eq!(v["sessions"].as_array().map(Vec::len), Some(2));
        assert!(append_history(Some("{broken"), json!({})).is_err());
        let committed = committed_fixes(&second).unwrap();
        assert_eq!(
            committed.into_iter().collect::<Vec<_>>(),
            vec![("FIX-001".to_string(), "abc1234".to_string())]
        );
        assert!(committed_fixes("[").is_err());
        assert!(committed_fixes("{}").unwrap().is_empty());
    }

    #[test]
    fn outcomes_follow_the_group_states() {
        use crate::fix::planning::FixGroup;
        use crate::testing::finding;
        use protocol::Severity;
        let entries: Vec<FixFinding> = [("FIX-001", "a.rs"), ("FIX-002", "b.rs")]
            .iter()
            .zip(1..)
            .map(|((id, path), line)| FixFinding {
                id: id.to_string(),
                finding: finding(path, line, Severity::Low, "c", "x", true),
            })
            .collect();
        let group = |id: &str, fix: &str| FixGroup {
            id: id.into(),
            batch: 1,
            files: vec![],
            fix_ids: vec![fix.into()],
        };
        let plan = FixPlan {
            groups: vec![group("G1", "FIX-001"), group("G2", "FIX-002")],
            timeline: vec![],
        };
        let state_of = |g: &str| match g {
            "G1" => GroupState::Committed { attempt: 1 },
            _ => GroupState::Failed {
                attempts: 2,
                reason: "tests failed".into(),
            },
        };
        let commit_of = |g: &str| (g == "G1").then(|| "abc1234".to_string());
        let got = super::outcomes(&plan, &entries, &state_of, &commit_of);
        assert_eq!(
            got,
            vec![
                FixOutcome {
                    fix_id: "FIX-001".into(),
                    location: "a.rs:1".into(),
                    group: "G1".into(),
                    result: FixResult::Fixed {
                        commit: "abc1234".into()
                    }
                },
                FixOutcome {
                    fix_id: "FIX-002".into(),
                    location: "b.rs:2".into(),
                    group: "G2".into(),
                    result: FixResult::Failed {
                        attempts: 2,
                        reason: "tests failed".into()
                    }
                },
            ]
        );
    }
}
