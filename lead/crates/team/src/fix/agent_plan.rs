//! The agent planner's two pure halves: the prompt that asks an agent to group one batch's
//! findings, and the check of its answer. The answer is trusted only as far as it is checked:
//! every finding of the batch exactly once, no finding from elsewhere, no path that leaves the
//! repository, and each group's files include its findings' files (added when missing, since a
//! group's rollback must cover every file its fixer may touch). An answer that fails the check
//! is an error; the shell then plans that batch with the built-in planner.

use super::batching::Batch;
use super::planning::{stages, FixGroup, PartialPlan};
use protocol::prompt::{Role, Templates};
use serde::Deserialize;
use std::collections::BTreeSet;

/// Why an agent's plan was not used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgentPlanError {
    /// The output holds no JSON object.
    #[error("the planner printed no JSON object")]
    NoJson,
    /// The JSON does not have the asked-for shape.
    #[error("the planner's JSON is not a plan: {0}")]
    Shape(String),
    /// A finding id that is not in the batch.
    #[error("the planner named {0}, which is not in this batch")]
    Unknown(String),
    /// A finding placed in two groups.
    #[error("the planner put {0} in more than one group")]
    Duplicate(String),
    /// Findings left out.
    #[error("the planner left out {0}")]
    Missing(String),
    /// A group without findings.
    #[error("the planner made a group without findings")]
    EmptyGroup,
    /// An absolute path or one that climbs out of the repository.
    #[error("the planner named the path '{0}', which leaves the repository")]
    UnsafePath(String),
}

#[derive(Debug, Deserialize)]
struct Answer {
    groups: Vec<AnswerGroup>,
}

#[derive(Debug, Deserialize)]
struct AnswerGroup {
    #[serde(default)]
    files: Vec<String>,
    findings: Vec<String>,
}

/// The format of a fix planner's answer (retake parses it).
const FIX_PLAN_ANSWER: &str = "Answer with one JSON object and nothing else:\n\
    {\"groups\": [{\"files\": [\"src/a.rs\"], \"findings\": [\"FIX-001\", \"FIX-002\"]}]}\n\
    Name every finding id above exactly once; `files` lists every repository-relative file the \
    group's fix changes. Change no file now: this is planning only.\n";

/// The prompt for one batch, from `templates`.
pub fn planner_prompt(templates: &Templates, batch: &Batch) -> String {
    let mut findings = String::new();
    for e in &batch.findings {
        let f = &e.finding;
        let auto = if f.auto_fixable { ", auto-fixable" } else { "" };
        findings.push_str(&format!(
            "- {} {} [{}, {}{auto}] {}",
            e.id,
            f.location,
            f.severity.word(),
            f.rule,
            f.description
        ));
        if let Some(s) = &f.suggestion {
            findings.push_str(&format!(" → {s}"));
        }
        findings.push('\n');
    }
    templates.render(
        Role::FixPlanner,
        &[
            ("{{batch}}", &batch.id.to_string()),
            ("{{findings}}", findings.trim_end()),
        ],
        FIX_PLAN_ANSWER,
    )
}

/// The agent's answer for `batch` as a partial plan.
pub fn parse_agent_plan(batch: &Batch, stdout: &str) -> Result<PartialPlan, AgentPlanError> {
    let text = json_object(stdout).ok_or(AgentPlanError::NoJson)?;
    let answer: Answer =
        serde_json::from_str(text).map_err(|e| AgentPlanError::Shape(e.to_string()))?;
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut groups = Vec::new();
    for g in &answer.groups {
        if g.findings.is_empty() {
            return Err(AgentPlanError::EmptyGroup);
        }
        let mut files: Vec<String> = Vec::new();
        for path in &g.files {
            let path = path.trim_start_matches("./").to_string();
            if !safe_path(&path) {
                return Err(AgentPlanError::UnsafePath(path));
            }
            if !files.contains(&path) {
                files.push(path);
            }
        }
        for id in &g.findings {
            let entry = batch
                .findings
                .iter()
                .find(|e| &e.id == id)
                .ok_or_else(|| AgentPlanError::Unknown(id.clone()))?;
            if !seen.insert(entry.id.as_str()) {
                return Err(AgentPlanError::Duplicate(id.clone()));
            }
            for own in super::targets::fix_files(&entry.finding) {
                if !files.contains(&own) {
                    files.push(own);
                }
            }
        }
        groups.push(FixGroup {
            id: format!("G{}", groups.len() + 1),
            batch: batch.id,
            files,
            fix_ids: g.findings.clone(),
        });
    }
    let missing: Vec<&str> = batch
        .findings
        .iter()
        .map(|e| e.id.as_str())
        .filter(|id| !seen.contains(id))
        .collect();
    if !missing.is_empty() {
        return Err(AgentPlanError::Missing(missing.join(", ")));
    }
    let timeline = stages(&groups);
    Ok(PartialPlan {
        batch_id: batch.id,
        groups,
        timeline,
    })
}

/// The whole output when it is one object, else the span from the first `{` to the last `}`
/// (agents like to wrap JSON in prose or a code fence).
fn json_object(stdout: &str) -> Option<&str> {
    let start = stdout.find('{')?;
    let end = stdout.rfind('}')?;
    (end > start).then(|| &stdout[start..=end])
}

/// A relative path that stays inside the repository.
fn safe_path(path: &str) -> bool {
    !path.is_empty()
        && protocol::Location::file(path)
            .resolve(std::path::Path::new(""))
            .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::batching::batches;
    use crate::testing::finding;
    use protocol::Severity;

    fn batch() -> Batch {
        let fs = vec![
            finding("src/a.rs", 3, Severity::High, "c", "first", false),
            finding("src/a.rs", 9, Severity::Low, "c", "second", true),
            finding("src/b.rs", 1, Severity::Medium, "c", "third", false),
        ];
        batches(&fs, 5).remove(0)
    }

    #[test]
    fn the_prompt_lists_every_finding_with_its_id() {
        let p = planner_prompt(&Templates::default(), &batch());
        assert!(p.starts_with("# Fix planning, batch 1\n"));
        assert!(p.contains("- FIX-001 src/a.rs:3 [High, quality/c] first\n"));
        assert!(p.contains("- FIX-002 src/a.rs:9 [Low, quality/c, auto-fixable] second\n"));
        assert!(p.contains("- FIX-003 src/b.rs:1 [Medium, quality/c] third\n"));
    }

    #[test]
    fn a_checked_answer_becomes_a_partial_plan_with_stages() {
        let out = "Here is the plan:\n```json\n{\"groups\": [\
            {\"files\": [\"./src/b.rs\", \"src/a.rs\"], \"findings\": [\"FIX-003\", \"FIX-001\"]},\
            {\"findings\": [\"FIX-002\"]}]}\n```\n";
        let plan = parse_agent_plan(&batch(), out).expect("valid");
        let shape: Vec<(&str, Vec<&str>, Vec<&str>)> = plan
            .groups
            .iter()
            .map(|g| {
                (
                    g.id.as_str(),
                    g.files.iter().map(String::as_str).collect(),
                    g.fix_ids.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                (
                    "G1",
                    vec!["src/b.rs", "src/a.rs"],
                    vec!["FIX-003", "FIX-001"]
                ),
                ("G2", vec!["src/a.rs"], vec!["FIX-002"]),
            ]
        );
        assert_eq!(plan.timeline.len(), 2, "both groups touch src/a.rs");
    }

    #[test]
    fn answers_that_fail_the_check_are_errors() {
        let b = batch();
        let cases = [
            ("no json here", AgentPlanError::NoJson),
            (
                "{\"groups\": [{\"findings\": [\"FIX-001\", \"FIX-002\", \"FIX-009\"]}]}",
                AgentPlanError::Unknown("FIX-009".into()),
            ),
            (
                "{\"groups\": [{\"findings\": [\"FIX-001\", \"FIX-002\"]}, {\"findings\": [\"FIX-002\", \"FIX-003\"]}]}",
                AgentPlanError::Duplicate("FIX-002".into()),
            ),
            (
                "{\"groups\": [{\"findings\": [\"FIX-001\"]}]}",
                AgentPlanError::Missing("FIX-002, FIX-003".into()),
            ),
            (
                "{\"groups\": [{\"findings\": []}]}",
                AgentPlanError::EmptyGroup,
            ),
            (
                "{\"groups\": [{\"files\": [\"../x.rs\"], \"findings\": [\"FIX-001\", \"FIX-002\", \"FIX-003\"]}]}",
                AgentPlanError::UnsafePath("../x.rs".into()),
            ),
            (
                "{\"groups\": [{\"files\": [\"/etc/passwd\"], \"findings\": [\"FIX-001\", \"FIX-002\", \"FIX-003\"]}]}",
                AgentPlanError::UnsafePath("/etc/passwd".into()),
            ),
        ];
        for (out, want) in cases {
            assert_eq!(parse_agent_plan(&b, out).err(), Some(want), "{out}");
        }
        assert!(matches!(
            parse_agent_plan(&b, "{\"plan\": 1}"),
            Err(AgentPlanError::Shape(_))
        ));
    }
}
