//! What a run scenario left behind, as one JSON object (the `Observed::json` of a run: the last
//! review round's verdict and decision, the Implementers' re-spawns, tasks done, commits, the
//! state file, the timeline's events, the report), and the run expectations checked against
//! it. Pure: `run_exec` reads the files and the processes.

use super::expect::Expect;
use super::observed::Observed;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// What a run left in its repository and on its standard output.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunFacts {
    /// `.retake/state/timeline.jsonl`.
    pub timeline: String,
    /// `.retake/state/tasks.json` (empty when there is none).
    pub tasks: String,
    /// Commits on top of the repository's first commit.
    pub commits: u32,
    /// Whether `.retake/state/active.json` is still there.
    pub state_file: bool,
    /// The report the run (or the resume) printed.
    pub report: String,
    /// The processes of the run when its Lead was killed; none when it was not.
    pub killed_with: Option<usize>,
}

/// One timeline event as the checks match it: `TYPE:TASK:ACTOR`, empty parts dropped at the
/// end (`TASK_COMPLETED:1:implementer-1`, `SIGNAL`, `IMPLEMENTER_RESPAWNED::implementer-1-r1`).
fn event_line(event: &Value) -> Option<String> {
    let kind = event.get("event_type")?.as_str()?;
    let content = event.get("content");
    let task = content
        .and_then(|c| c.get("task")?.as_u64())
        .map(|t| t.to_string())
        .unwrap_or_default();
    let actor = content
        .and_then(|c| c.get("actor")?.as_str())
        .unwrap_or_default();
    let line = format!("{kind}:{task}:{actor}");
    Some(line.trim_end_matches(':').to_string())
}

/// The summary-level events of a timeline (a torn or foreign line is skipped), as lines.
fn events(timeline: &str) -> Vec<(String, Value)> {
    timeline
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
        .filter(|e| e.get("visibility").and_then(Value::as_str) != Some("full"))
        .filter_map(|e| Some((event_line(&e)?, e)))
        .collect()
}

/// Whether `line` (`TYPE:TASK:ACTOR`) matches `pattern` (`TYPE[:TASK[:ACTOR]]`; an empty part
/// matches anything).
pub fn matches(pattern: &str, line: &str) -> bool {
    let mut have = line.splitn(3, ':');
    pattern.splitn(3, ':').all(|want| {
        let part = have.next().unwrap_or_default();
        want.is_empty() || part == want
    })
}

/// Whether an event of `timeline` matches `pattern` yet.
pub fn happened(timeline: &str, pattern: &str) -> bool {
    events(timeline)
        .iter()
        .any(|(line, _)| matches(pattern, line))
}

/// The run's summary object.
pub fn summary(facts: &RunFacts) -> Value {
    let events = events(&facts.timeline);
    let mut restarts: BTreeMap<String, u32> = BTreeMap::new();
    let mut review = None;
    for (_, e) in &events {
        let content = &e["content"];
        match e["event_type"].as_str() {
            Some("IMPLEMENTER_RESPAWNED") => {
                if let Some(slot) = content["slot"].as_str() {
                    *restarts.entry(slot.to_string()).or_default() += 1;
                }
            }
            Some("REVIEW_COMPLETED") => review = Some(content),
            _ => {}
        }
    }
    let tasks: Vec<Value> = serde_json::from_str::<Value>(&facts.tasks)
        .ok()
        .and_then(|t| t.get("tasks")?.as_array().cloned())
        .unwrap_or_default();
    let done = tasks.iter().filter(|t| t["status"] == "completed").count();
    let mut out = Map::new();
    if let Some(r) = review {
        out.insert("verdict".into(), r["verdict"].clone());
        out.insert("decision".into(), r["decision"].clone());
    }
    out.insert("restarts".into(), json!(restarts));
    out.insert("tasks".into(), json!(tasks.len()));
    out.insert("tasks_done".into(), json!(done));
    out.insert("commits".into(), json!(facts.commits));
    out.insert("state_file".into(), json!(facts.state_file));
    let lines: Vec<&String> = events.iter().map(|(l, _)| l).collect();
    out.insert("events".into(), json!(lines));
    out.insert("report".into(), json!(facts.report));
    if let Some(n) = facts.killed_with {
        out.insert("lead_killed_with".into(), json!(n));
    }
    Value::Object(out)
}

fn number(got: &Observed, key: &str) -> Option<u64> {
    got.json.as_ref()?.get(key)?.as_u64()
}

/// Every failed run expectation, in the order of the `[expect]` keys.
pub fn check(e: &Expect, got: &Observed) -> Vec<String> {
    let mut failed = Vec::new();
    for (key, wanted) in [("tasks_done", e.tasks_done), ("commits", e.commits)] {
        if let Some(wanted) = wanted {
            let actual = number(got, key);
            if actual != Some(u64::from(wanted)) {
                let actual = actual.map_or_else(|| "none".to_string(), |n| n.to_string());
                failed.push(format!("{key}: expected {wanted}, got {actual}"));
            }
        }
    }
    let lines: Vec<&str> = got
        .json
        .as_ref()
        .and_then(|j| j.get("events")?.as_array())
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut rest = lines.iter();
    for wanted in &e.events {
        if !rest.any(|l| matches(wanted, l)) {
            let team: Vec<&str> = lines
                .iter()
                .copied()
                .filter(|l| l.starts_with("TASK_") || l.starts_with("IMPLEMENTER_"))
                .collect();
            failed.push(format!(
                "event {wanted} missing, in order (team events: {})",
                team.join(", ")
            ));
            break;
        }
    }
    let report = got.field("report").unwrap_or_default();
    for wanted in &e.report {
        if !report.contains(wanted.as_str()) {
            let first = report.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            failed.push(format!("report lacks '{wanted}' (it begins: {first})"));
        }
    }
    if let Some(wanted) = e.state_file {
        let actual = got
            .json
            .as_ref()
            .and_then(|j| j.get("state_file")?.as_bool());
        if actual != Some(wanted) {
            failed.push(if wanted {
                "the state file is gone: nothing is left to resume".to_string()
            } else {
                "the state file .retake/state/active.json is still there".to_string()
            });
        }
    }
    failed
}

/// The run's part of the table's "expected" column: `done:2 commits:1`.
pub fn expected_parts(e: &Expect) -> Vec<String> {
    let mut parts = Vec::new();
    parts.extend(e.tasks_done.map(|n| format!("done:{n}")));
    parts.extend(e.commits.map(|n| format!("commits:{n}")));
    parts
}

/// The run's part of the table's "got" column: `done:2/2 commits:1`, and the processes a
/// killed Lead had.
pub fn got_parts(got: &Observed) -> Vec<String> {
    let (Some(done), Some(tasks)) = (number(got, "tasks_done"), number(got, "tasks")) else {
        return Vec::new();
    };
    let mut parts = vec![format!("done:{done}/{tasks}")];
    parts.extend(number(got, "commits").map(|n| format!("commits:{n}")));
    parts.extend(number(got, "lead_killed_with").map(|n| format!("lead-killed({n} procs)")));
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMELINE: &str = concat!(
        r#"{"event_type":"TASK_CLAIMED","visibility":"summary","content":{"task":1,"actor":"implementer-1"}}"#,
        "\n",
        r#"{"event_type":"REVIEW_ITERATION_START","visibility":"full","content":{"task":1}}"#,
        "\n",
        r#"{"event_type":"TASK_RELEASED","visibility":"summary","content":{"task":1,"actor":"implementer-1"}}"#,
        "\n",
        r#"{"event_type":"IMPLEMENTER_RESPAWNED","visibility":"summary","content":{"actor":"implementer-1-r1","slot":"implementer-1","spawn":2}}"#,
        "\n",
        r#"{"event_type":"TASK_COMPLETED","visibility":"summary","content":{"task":1,"actor":"implementer-1-r1"}}"#,
        "\n",
        r#"{"event_type":"REVIEW_COMPLETED","visibility":"summary","content":{"actor":"auditor","verdict":"GO","decision":"APPROVE"}}"#,
        "\n",
        r#"{"event_type":"TASK_CLAI"#,
    );

    fn observed() -> Observed {
        let facts = RunFacts {
            timeline: TIMELINE.into(),
            tasks: r#"{"tasks":[{"status":"completed"},{"status":"in_progress","claimer":"x"}]}"#
                .into(),
            commits: 1,
            state_file: false,
            report: "retake run complete\n\n## Summary\n".into(),
            killed_with: Some(4),
        };
        Observed {
            exit_code: Some(0),
            json: Some(summary(&facts)),
            ..Observed::default()
        }
    }

    #[test]
    fn the_summary_reads_restarts_review_tasks_and_summary_events() {
        let got = observed();
        assert_eq!(got.field("verdict"), Some("GO"));
        assert_eq!(got.field("decision"), Some("APPROVE"));
        assert_eq!(got.restarts_of("implementer-1"), 1);
        assert_eq!(
            got.json.as_ref().map(|j| j["events"].clone()),
            Some(json!([
                "TASK_CLAIMED:1:implementer-1",
                "TASK_RELEASED:1:implementer-1",
                "IMPLEMENTER_RESPAWNED::implementer-1-r1",
                "TASK_COMPLETED:1:implementer-1-r1",
                "REVIEW_COMPLETED::auditor"
            ]))
        );
        assert_eq!(
            got_parts(&got),
            ["done:1/2", "commits:1", "lead-killed(4 procs)"]
        );
        assert!(happened(TIMELINE, "TASK_RELEASED:1"));
        assert!(!happened(TIMELINE, "TASK_RELEASED:2"));
    }

    #[test]
    fn patterns_match_by_part() {
        assert!(matches("TASK_COMPLETED", "TASK_COMPLETED:1:implementer-1"));
        assert!(matches(
            "TASK_COMPLETED:1",
            "TASK_COMPLETED:1:implementer-1"
        ));
        assert!(matches(
            "TASK_COMPLETED::implementer-1",
            "TASK_COMPLETED:1:implementer-1"
        ));
        assert!(!matches(
            "TASK_COMPLETED:2",
            "TASK_COMPLETED:1:implementer-1"
        ));
        assert!(!matches(
            "TASK_COMPLETED:1:implementer-1",
            "TASK_COMPLETED:1:implementer-1-r1"
        ));
        assert!(!matches("TASK_COMPLETE", "TASK_COMPLETED:1"));
    }

    #[test]
    fn a_run_passes_its_expectations_or_names_each_failed_one() {
        let got = observed();
        let pass = Expect {
            tasks_done: Some(1),
            commits: Some(1),
            events: vec![
                "TASK_CLAIMED:1".into(),
                "TASK_COMPLETED:1:implementer-1-r1".into(),
            ],
            report: vec!["retake run complete".into()],
            state_file: Some(false),
            ..Expect::default()
        };
        assert_eq!(check(&pass, &got), Vec::<String>::new());
        let fail = Expect {
            tasks_done: Some(2),
            commits: Some(0),
            events: vec!["TASK_COMPLETED:1".into(), "TASK_RELEASED:1".into()],
            report: vec!["escalated to you".into()],
            state_file: Some(true),
            ..Expect::default()
        };
        assert_eq!(
            check(&fail, &got),
            vec![
                "tasks_done: expected 2, got 1".to_string(),
                "commits: expected 0, got 1".into(),
                "event TASK_RELEASED:1 missing, in order (team events: TASK_CLAIMED:1:implementer-1, TASK_RELEASED:1:implementer-1, IMPLEMENTER_RESPAWNED::implementer-1-r1, TASK_COMPLETED:1:implementer-1-r1)".into(),
                "report lacks 'escalated to you' (it begins: retake run complete)".into(),
                "the state file is gone: nothing is left to resume".into(),
            ]
        );
        assert_eq!(expected_parts(&fail), ["done:2", "commits:0"]);
    }
}
