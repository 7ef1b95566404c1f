//! `retake run --dry-run`: Phase A's plan shown, nothing started, nothing written. As JSON it
//! is one object with `tasks`, `independent_tasks` and `implementers` (plus the range, the plan
//! files, the team, validation problems, environment warnings and — when Phase 0 ran — the
//! planning discussion with the planner's recommendation).

use super::discussion::Discussion;
use super::prepare::Prepared;
use serde_json::{json, Value};

/// The review pipeline a run starts beside its Implementers.
const REVIEW_PIPELINE: &str = "6 Inspectors + Auditor";

/// The dry run as one JSON object; `warnings` are the environment check's, `discussion` Phase
/// 0's when it ran (`null` with `--no-discuss`).
pub fn to_json(p: &Prepared, warnings: &[String], discussion: Option<&Discussion>) -> Value {
    let tasks: Vec<Value> = p
        .registration
        .tasks
        .iter()
        .zip(&p.selection)
        .map(|(t, plan)| {
            json!({
                "id": t.id,
                "plan_id": plan.id,
                "subject": t.subject,
                "status": plan.marker,
                "owns": t.owns,
                "blocked_by": t.blocked_by,
                "active_form": t.active_form,
            })
        })
        .collect();
    json!({
        "dry_run": true,
        "range": p.range.to_string(),
        "plan": p.plan_files,
        "tasks": tasks,
        "independent_tasks": p.independent_tasks,
        "implementers": p.implementers,
        "parallel": p.parallelism.parallel,
        "planner_max_parallel": p.parallelism.planner_max_parallel,
        "team": {
            "lead": 1,
            "implementers": p.implementers,
            "review_pipeline": REVIEW_PIPELINE,
        },
        "validation": p.problems,
        "warnings": warnings,
        "discussion": discussion.map(Discussion::to_json),
    })
}

/// The dry run for people, with Phase 0's discussion when it ran.
pub fn render_terminal(
    p: &Prepared,
    warnings: &[String],
    discussion: Option<&Discussion>,
) -> String {
    let n = p.registration.tasks.len();
    let mut out = format!(
        "retake run — dry run\nRange: {} · plan: {}\n\nTasks ({n}):\n",
        p.range,
        p.plan_files.join(", ")
    );
    for (t, plan) in p.registration.tasks.iter().zip(&p.selection) {
        out.push_str(&format!(
            "  #{:<3} {} ({})\n",
            t.id,
            t.subject,
            plan.marker.as_str()
        ));
        let mut facts = Vec::new();
        if !t.owns.is_empty() {
            facts.push(format!("owns: {}", t.owns.join(", ")));
        }
        if !t.blocked_by.is_empty() {
            let ids: Vec<String> = t.blocked_by.iter().map(|b| format!("#{b}")).collect();
            facts.push(format!("blocked by: {}", ids.join(", ")));
        }
        if !facts.is_empty() {
            out.push_str(&format!("        {}\n", facts.join(" · ")));
        }
    }
    if !p.problems.is_empty() {
        out.push_str("\nValidation:\n");
        for problem in &p.problems {
            let level = serde_json::to_value(problem.level)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            out.push_str(&format!(
                "  {:?} {level}: {}\n",
                problem.check, problem.message
            ));
        }
    }
    if let Some(d) = discussion {
        out.push('\n');
        out.push_str(&d.render());
    }
    out.push_str(&format!(
        "\nTeam: Lead (coordinates only), {} Implementer{}, review pipeline ({REVIEW_PIPELINE})\n\
         {n} task{} ({} independent) with {} Implementer{} in parallel.\n",
        p.implementers,
        plural(p.implementers as usize),
        plural(n),
        p.independent_tasks,
        p.implementers,
        plural(p.implementers as usize),
    ));
    if !warnings.is_empty() {
        out.push_str("\nWarnings:\n");
        for w in warnings {
            out.push_str(&format!("  ⚠ {w}\n"));
        }
    }
    out.push_str("\nDry run: nothing was started and no state was written.\n");
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::granularity::Limits;
    use crate::plan::{parse_plans_md, Range};
    use crate::prepare::{prepare, Parallelism};

    const PLAN: &str = "- 4.1 Add login cc:TODO owns: `src/auth/login.rs`\n\
                        - 4.2 Add logout cc:WIP owns: `src/auth/login.rs`\n\
                        - 4.3 Add header cc:TODO\n";

    fn prepared() -> Prepared {
        let plan = parse_plans_md(PLAN, "Plans.md").unwrap();
        prepare(
            &plan,
            &Range::All,
            Parallelism {
                parallel: Some(4),
                planner_max_parallel: None,
            },
            &Limits::default(),
        )
        .unwrap()
    }

    #[test]
    fn json_has_tasks_independent_tasks_and_implementers() {
        let v = to_json(&prepared(), &["not a git work tree".to_string()], None);
        assert_eq!(v["independent_tasks"], 2);
        assert_eq!(v["implementers"], 2);
        assert_eq!(v["parallel"], 4);
        assert_eq!(v["planner_max_parallel"], Value::Null);
        assert_eq!(
            v["tasks"][1],
            json!({"id": 2, "plan_id": "4.2", "subject": "4.2 Add logout", "status": "cc:WIP",
                   "owns": ["src/auth/login.rs"], "blocked_by": [1], "active_form": "Adding logout"})
        );
        assert_eq!(v["validation"][0]["check"], "V2");
        assert_eq!(v["validation"][1]["level"], "repaired");
        assert_eq!(v["warnings"], json!(["not a git work tree"]));
        assert_eq!(v["team"]["implementers"], 2);
        assert_eq!(v["discussion"], Value::Null, "--no-discuss");
    }

    #[test]
    fn the_discussion_shows_the_planners_recommendation() {
        let plan = parse_plans_md(PLAN, "Plans.md").unwrap();
        let d = crate::discussion::discuss(&plan.tasks, &[], &Limits::default(), None);
        let p = prepare(
            &d.reference(&plan),
            &Range::All,
            Parallelism {
                parallel: None,
                planner_max_parallel: d.bound(),
            },
            &Limits::default(),
        )
        .unwrap();
        let v = to_json(&p, &[], Some(&d));
        // 4.1 then 4.2 (one file), and 4.3 with no owns beside 4.1: two at most — the graph's
        // width, no reason of its own, so no bound: the table gives min(2 independent, 3).
        assert_eq!(v["planner_max_parallel"], Value::Null);
        assert_eq!(v["discussion"]["planner_reason"], Value::Null);
        assert_eq!(v["discussion"]["planner_max_parallel"], 2);
        assert_eq!(v["implementers"], 2);
        assert_eq!(
            v["discussion"]["open"],
            json!([{"kind": "no-owns", "task": "4.3"}])
        );
        let text = render_terminal(&p, &[], Some(&d));
        assert!(
            text.contains("  Planner's recommendation: at most 2 Implementers in parallel (the task graph's width only: the team-size table sizes the team)\n"),
            "{text}"
        );
    }

    #[test]
    fn the_terminal_view_lists_tasks_problems_and_team() {
        assert_eq!(
            render_terminal(&prepared(), &[], None),
            "retake run — dry run\nRange: all · plan: Plans.md\n\nTasks (3):\n\
             \x20 #1   4.1 Add login (cc:TODO)\n        owns: src/auth/login.rs\n\
             \x20 #2   4.2 Add logout (cc:WIP)\n        owns: src/auth/login.rs · blocked by: #1\n\
             \x20 #3   4.3 Add header (cc:TODO)\n\nValidation:\n\
             \x20 V2 warning: task 4.3 declares no owns: Implementers cannot be kept off each other's files; add owns: `path`\n\
             \x20 V5 repaired: tasks 4.1 and 4.2 both own src/auth/login.rs: 4.2 now waits for 4.1 (blocked_by added)\n\n\
             Team: Lead (coordinates only), 2 Implementers, review pipeline (6 Inspectors + Auditor)\n\
             3 tasks (2 independent) with 2 Implementers in parallel.\n\n\
             Dry run: nothing was started and no state was written.\n"
        );
    }
}
