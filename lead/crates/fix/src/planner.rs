//! Planning: one planner per batch, up to ten at once (a wave runs on scoped threads), each
//! writing `partial-plan-<batch>.json`; then the aggregation into `fix-plan.json`.
//!
//! The planner is the built-in one (a group per file) unless `[executor] kind = "agent"`: the
//! agent that fixes also plans, prompted with the batch and asked for a JSON plan. Its answer
//! is checked (`team::fix::agent_plan`); a batch whose agent fails or answers badly is planned
//! by the built-in planner instead, and its partial plan says why.

use super::FixError;
use host::journal::write_atomic;
use implementer::executor::{AgentExecutor, ExecRequest, Executor};
use protocol::{Task, TaskOrigin, TaskStatus};
use serde_json::json;
use std::path::Path;
use std::time::Duration;
use team::fix::agent_plan::{parse_agent_plan, planner_prompt};
use team::fix::planning::{fix_plan_json, partial_plan_json};
use team::fix::{aggregate, builtin_partial_plan, planner_waves, Batch, FixPlan};
use team::fix::{PartialPlan, Stage};

/// Who plans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Planner {
    /// A group per file.
    Builtin,
    /// The configured agent command.
    Agent {
        /// Its argv.
        command: Vec<String>,
        /// Its time limit per batch.
        timeout: Duration,
        /// The prompt templates (`fix-planner.md`).
        templates: protocol::prompt::Templates,
    },
}

impl Planner {
    /// `builtin` or `agent-based`, as plan.json records it.
    pub fn mode(&self) -> &'static str {
        match self {
            Planner::Builtin => "builtin",
            Planner::Agent { .. } => "agent-based",
        }
    }

    /// One batch's partial plan and which planner made it.
    fn plan(&self, repo: &Path, batch: &Batch) -> (PartialPlan, String) {
        let Planner::Agent {
            command,
            timeout,
            templates,
        } = self
        else {
            return (builtin_partial_plan(batch), "builtin".to_string());
        };
        let prompt = planner_prompt(templates, batch);
        let task = Task {
            id: batch.id,
            subject: format!("Plan the fixes of batch {}", batch.id),
            description: prompt.clone(),
            owns: Vec::new(),
            blocked_by: Vec::new(),
            status: TaskStatus::Pending,
            attempts: 0,
            origin: TaskOrigin::Fix,
            active_form: format!("Planning batch {}", batch.id),
        };
        let request = ExecRequest {
            repo,
            task: &task,
            prompt: &prompt,
            iteration: 1,
            modification: None,
        };
        let outcome = AgentExecutor::new(command.clone(), *timeout).execute(&request);
        let fallback = |why: String| {
            (
                builtin_partial_plan(batch),
                format!("builtin (the agent planner {why})"),
            )
        };
        if let Some(problem) = outcome.transient_problem() {
            return fallback(format!("failed: {problem}"));
        }
        let stdout = String::from_utf8_lossy(outcome.stdout()).into_owned();
        match parse_agent_plan(batch, &stdout) {
            Ok(plan) => (plan, "agent".to_string()),
            Err(e) => fallback(format!("was not used: {e}")),
        }
    }
}

/// Plans every batch (in waves of parallel planners), writes the partial plans and
/// `fix-plan.json` into `dir`, and returns the aggregated plan.
pub fn plan_all(
    repo: &Path,
    dir: &Path,
    batches: &[Batch],
    planner: &Planner,
    fix_session_id: &str,
    created_at: &str,
) -> Result<FixPlan, FixError> {
    let mut partials: Vec<PartialPlan> = Vec::new();
    for wave in planner_waves(batches) {
        let members: Vec<&Batch> = batches.iter().filter(|b| wave.contains(&b.id)).collect();
        let planned: Vec<(PartialPlan, String)> = std::thread::scope(|scope| {
            let handles: Vec<_> = members
                .iter()
                .map(|b| scope.spawn(move || planner.plan(repo, b)))
                .collect();
            handles
                .into_iter()
                .zip(&members)
                .map(|(h, b)| {
                    // A planner thread that panicked is planned again by the built-in planner.
                    h.join().unwrap_or_else(|_| {
                        (
                            builtin_partial_plan(b),
                            "builtin (the planner thread failed)".to_string(),
                        )
                    })
                })
                .collect()
        });
        for (partial, by) in planned {
            let mut doc = partial_plan_json(&partial, created_at);
            doc["planner"] = json!(by);
            write_json(
                &dir.join(format!("partial-plan-{}.json", partial.batch_id)),
                &doc,
            )?;
            partials.push(partial);
        }
    }
    let plan = aggregate(&partials);
    write_json(
        &dir.join("fix-plan.json"),
        &fix_plan_json(&plan, fix_session_id, created_at),
    )?;
    Ok(plan)
}

/// The stages as one line each, for the terminal.
pub fn describe(timeline: &[Stage], plan: &FixPlan) -> Vec<String> {
    timeline
        .iter()
        .map(|s| {
            let groups: Vec<String> = s
                .groups
                .iter()
                .map(|id| {
                    let files = plan
                        .groups
                        .iter()
                        .find(|g| &g.id == id)
                        .map(|g| g.files.join(", "))
                        .unwrap_or_default();
                    format!("{id} ({files})")
                })
                .collect();
            format!("stage {}: {}", s.stage, groups.join(", "))
        })
        .collect()
}

/// Writes pretty JSON atomically.
pub fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), FixError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| FixError::Io {
        context: format!("cannot encode {}", path.display()),
        source: std::io::Error::other(e),
    })? + "\n";
    write_atomic(path, text.as_bytes()).map_err(|source| FixError::Io {
        context: format!("cannot write {}", path.display()),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::Severity;
    use team::fix::batches;
    use team::testing::finding;

    fn three_batches() -> Vec<Batch> {
        let fs: Vec<_> = ["a.rs", "b.rs", "c.rs"]
            .iter()
            .map(|p| finding(p, 1, Severity::Low, "c", "x", true))
            .collect();
        batches(&fs, 1)
    }

    #[test]
    fn builtin_planning_writes_partial_plans_and_the_fix_plan() {
        let dir = tempfile::tempdir().unwrap();
        let plan = plan_all(
            dir.path(),
            dir.path(),
            &three_batches(),
            &Planner::Builtin,
            "fix-1",
            "t",
        )
        .unwrap();
        assert_eq!(plan.groups.len(), 3);
        assert_eq!(plan.timeline.len(), 1);
        let p2: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join("partial-plan-2.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(p2["planner"], "builtin");
        assert_eq!(p2["groups"][0]["files"], json!(["b.rs"]));
        let fp: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join("fix-plan.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(fp["metadata"]["groups_count"], 3);
        assert_eq!(
            describe(&plan.timeline, &plan),
            vec!["stage 1: G1 (a.rs), G2 (b.rs), G3 (c.rs)"]
        );
    }

    #[test]
    fn an_agent_planner_is_used_when_its_answer_checks_out_and_replaced_when_not() {
        let dir = tempfile::tempdir().unwrap();
        // Answers for batch 1 only; the other batches get an answer naming the wrong id.
        let script = "read -r first; case \"$first\" in *'batch 1'*) \
            echo '{\"groups\": [{\"files\": [\"a.rs\", \"z.rs\"], \"findings\": [\"FIX-001\"]}]}';; \
            *) echo '{\"groups\": [{\"findings\": [\"FIX-001\"]}]}';; esac";
        let planner = Planner::Agent {
            command: vec!["sh".into(), "-c".into(), script.into()],
            timeout: Duration::from_secs(30),
            templates: Default::default(),
        };
        assert_eq!(planner.mode(), "agent-based");
        let plan = plan_all(
            dir.path(),
            dir.path(),
            &three_batches(),
            &planner,
            "fix-1",
            "t",
        )
        .unwrap();
        assert_eq!(plan.groups[0].files, vec!["a.rs", "z.rs"]);
        let read = |n: u32| -> serde_json::Value {
            serde_json::from_str(
                &std::fs::read_to_string(dir.path().join(format!("partial-plan-{n}.json")))
                    .unwrap(),
            )
            .unwrap()
        };
        assert_eq!(read(1)["planner"], "agent");
        assert_eq!(
            read(2)["planner"],
            "builtin (the agent planner was not used: the planner named FIX-001, which is not in this batch)"
        );
        assert_eq!(plan.groups[1].files, vec!["b.rs"]);
    }
}
