//! The export of a fix plan: one `.task/FIX-<seq>.json` per finding and the `plan.json`
//! overview (plan type `fix`, schema version `2.0`) — none when there are no tasks — and a
//! passing group's commit message: `fix(<scope>): <title> [FIX-001]` for one fix, the fixes
//! listed in the body for several, and a `Retake-Fix: <session>/<group>` trailer by which a
//! resumed session recognises a group committed just before an interruption.

use super::batching::FixFinding;
use protocol::{Finding, Severity};
use serde_json::{json, Value};

/// `low`, `medium`, `high`, `critical`.
pub fn priority(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical => "critical",
        Severity::High => "high",
        Severity::Medium => "medium",
        Severity::Low => "low",
    }
}

/// The finding's scope: its first dimension, else its category.
pub fn scope(f: &Finding) -> String {
    f.dimensions
        .first()
        .map_or_else(|| f.category.clone(), |d| d.as_str().to_string())
}

/// The fix task's title.
pub fn title(f: &Finding) -> String {
    format!("Fix {} at {}", f.rule, f.location)
}

/// One `.task/FIX-<seq>.json`.
pub fn fix_task_json(entry: &FixFinding, session_id: &str) -> Value {
    let f = &entry.finding;
    let mut description = f.description.clone();
    if let Some(s) = &f.suggestion {
        description.push_str(&format!("\n\nSuggested fix: {s}"));
    }
    let change = f.suggestion.clone().unwrap_or_else(|| {
        format!(
            "Change the code so that this no longer holds: {}",
            f.description
        )
    });
    json!({
        "id": entry.id,
        "title": title(f),
        "description": description,
        "files": [{"path": f.location.path, "action": "modify"}],
        "priority": priority(f.severity),
        "scope": scope(f),
        "convergence": {
            "criteria": [
                change,
                format!("a re-review no longer reports {} at {}", f.rule, f.location.path),
            ],
            "verification": "the test command passes, and `retake review` does not report this finding's fingerprint",
        },
        "implementation": [
            format!("Read {} and the code around it", f.location),
            change,
            "Run the tests".to_string(),
        ],
        "source": {
            "tool": "retake",
            "session_id": session_id,
            "rule": f.rule,
            "fingerprint": f.fingerprint,
            "auto_fixable": f.auto_fixable,
        },
    })
}

/// `plan.json`, or none when there are no tasks. `planning_mode`: `builtin` or `agent-based`.
pub fn plan_json(
    entries: &[FixFinding],
    review_summary: &str,
    planning_mode: &str,
    timestamp: &str,
) -> Option<Value> {
    if entries.is_empty() {
        return None;
    }
    let mut ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    ids.sort_unstable();
    let n = ids.len();
    let complexity = if n > 5 {
        "High"
    } else if n > 2 {
        "Medium"
    } else {
        "Low"
    };
    let worst = entries
        .iter()
        .map(|e| e.finding.severity)
        .max()
        .unwrap_or(Severity::Low);
    let risk = match worst {
        Severity::Critical | Severity::High => "high",
        Severity::Medium => "medium",
        Severity::Low => "low",
    };
    Some(json!({
        "summary": format!("Fix plan from review cycle: {review_summary}"),
        "approach": "Review-driven fix pipeline",
        "task_ids": ids,
        "task_count": n,
        "complexity": complexity,
        "fix_context": {
            "root_cause": "Multiple review findings",
            "strategy": "comprehensive_fix",
            "severity": worst.word(),
            "risk_level": risk,
        },
        "test_strategy": {
            "scope": "unit",
            "specific_tests": [],
            "manual_verification": ["Verify all review findings addressed"],
        },
        "_metadata": {
            "timestamp": timestamp,
            "source": "retake",
            "planning_mode": planning_mode,
            "plan_type": "fix",
            "schema_version": "2.0",
        },
    }))
}

/// The commit message of one passing fix.
pub fn fix_commit_message(entry: &FixFinding) -> String {
    format!(
        "fix({}): {} [{}]",
        scope(&entry.finding),
        title(&entry.finding),
        entry.id
    )
}

/// The trailer that marks a group's commit.
pub fn fix_trailer(fix_session_id: &str, group: &str) -> String {
    format!("Retake-Fix: {fix_session_id}/{group}")
}

/// A passing group's commit message (Conventional Commits, header at most 72 characters).
pub fn group_commit_message(entries: &[&FixFinding], fix_session_id: &str, group: &str) -> String {
    let trailer = fix_trailer(fix_session_id, group);
    let header = match entries {
        [one] => fix_commit_message(one),
        many => {
            let scopes = distinct(many.iter().map(|e| scope(&e.finding)));
            let scope = match scopes.as_slice() {
                [one] => format!("({one})"),
                _ => String::new(),
            };
            let files = distinct(many.iter().map(|e| e.finding.location.path.clone()));
            let place = match files.as_slice() {
                [one] => format!(" in {one}"),
                _ => String::new(),
            };
            let ids = match (many.first(), many.last()) {
                (Some(first), Some(last)) => format!(" [{}..{}]", first.id, last.id),
                _ => String::new(),
            };
            let full = format!("fix{scope}: fix {} findings{place}{ids}", many.len());
            if full.chars().count() <= crate::commit_message::MAX_HEADER {
                full
            } else {
                format!("fix{scope}: fix {} review findings{ids}", many.len())
            }
        }
    };
    let mut body = String::new();
    if entries.len() > 1 {
        for e in entries {
            body.push_str(&format!("- {} {}\n", e.id, title(&e.finding)));
        }
        body.push('\n');
    }
    format!("{header}\n\n{body}{trailer}\n")
}

fn distinct(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::finding;

    fn entry(id: &str, sev: Severity) -> FixFinding {
        let mut f = finding(
            "src/auth/login.rs",
            15,
            sev,
            "unwrap",
            "unwrap() in library code",
            true,
        );
        f.suggestion = Some("return the error with ?".into());
        FixFinding {
            id: id.into(),
            finding: f,
        }
    }

    #[test]
    fn a_fix_task_file_has_the_task_schema_fields() {
        let e = entry("FIX-001", Severity::High);
        let v = fix_task_json(&e, "fix-20260222-143000");
        assert_eq!(
            v,
            json!({
                "id": "FIX-001",
                "title": "Fix quality/unwrap at src/auth/login.rs:15",
                "description": "unwrap() in library code\n\nSuggested fix: return the error with ?",
                "files": [{"path": "src/auth/login.rs", "action": "modify"}],
                "priority": "high",
                "scope": "quality",
                "convergence": {
                    "criteria": ["return the error with ?", "a re-review no longer reports quality/unwrap at src/auth/login.rs"],
                    "verification": "the test command passes, and `retake review` does not report this finding's fingerprint",
                },
                "implementation": ["Read src/auth/login.rs:15 and the code around it", "return the error with ?", "Run the tests"],
                "source": {
                    "tool": "retake",
                    "session_id": "fix-20260222-143000",
                    "rule": "quality/unwrap",
                    "fingerprint": e.finding.fingerprint,
                    "auto_fixable": true,
                },
            })
        );
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "id",
                "title",
                "description",
                "files",
                "priority",
                "scope",
                "convergence",
                "implementation",
                "source"
            ]
        );
        assert_eq!(
            fix_commit_message(&e),
            "fix(quality): Fix quality/unwrap at src/auth/login.rs:15 [FIX-001]"
        );
    }

    #[test]
    fn a_group_commit_names_its_fixes_and_carries_the_trailer() {
        let one = entry("FIX-001", Severity::High);
        assert_eq!(
            group_commit_message(&[&one], "fix-20260222-143000", "G1"),
            "fix(quality): Fix quality/unwrap at src/auth/login.rs:15 [FIX-001]\n\n\
             Retake-Fix: fix-20260222-143000/G1\n"
        );
        let two = entry("FIX-002", Severity::Low);
        assert_eq!(
            group_commit_message(&[&one, &two], "fix-1", "G3"),
            "fix(quality): fix 2 findings in src/auth/login.rs [FIX-001..FIX-002]\n\n\
             - FIX-001 Fix quality/unwrap at src/auth/login.rs:15\n\
             - FIX-002 Fix quality/unwrap at src/auth/login.rs:15\n\n\
             Retake-Fix: fix-1/G3\n"
        );
    }

    #[test]
    fn plan_json_complexity_and_risk_follow_the_counts() {
        assert_eq!(plan_json(&[], "none", "builtin", "t"), None);
        let two = [
            entry("FIX-002", Severity::Low),
            entry("FIX-001", Severity::Medium),
        ];
        let v = plan_json(&two, "2 findings", "builtin", "2026-02-22T14:30:00Z").unwrap();
        assert_eq!(v["task_ids"], json!(["FIX-001", "FIX-002"]));
        assert_eq!(
            (v["task_count"].clone(), v["complexity"].clone()),
            (json!(2), json!("Low"))
        );
        assert_eq!(
            v["fix_context"],
            json!({"root_cause": "Multiple review findings", "strategy": "comprehensive_fix", "severity": "Medium", "risk_level": "medium"})
        );
        assert_eq!(v["_metadata"]["plan_type"], "fix");
        assert_eq!(v["_metadata"]["schema_version"], "2.0");
        assert_eq!(v["summary"], "Fix plan from review cycle: 2 findings");
        let three: Vec<FixFinding> = (1..=3)
            .map(|i| entry(&format!("FIX-00{i}"), Severity::Low))
            .collect();
        assert_eq!(
            plan_json(&three, "s", "builtin", "t").unwrap()["complexity"],
            "Medium"
        );
        let six: Vec<FixFinding> = (1..=6)
            .map(|i| entry(&format!("FIX-00{i}"), Severity::Critical))
            .collect();
        let v = plan_json(&six, "s", "agent-based", "t").unwrap();
        assert_eq!(
            (
                v["complexity"].clone(),
                v["fix_context"]["risk_level"].clone()
            ),
            (json!("High"), json!("high"))
        );
    }
}
