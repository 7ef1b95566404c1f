//! The discussion for people (the rounds, the refined plan, the recommendation, the open
//! points) and as JSON for `--dry-run --format json`.

use super::Discussion;
use serde_json::{json, Value};

/// The discussion as text, one block.
pub(super) fn terminal(d: &Discussion) -> String {
    let mut out = String::from(if d.agent {
        "Phase 0 — planning discussion (built-in Planner and Critic, and the configured agent)\n"
    } else {
        "Phase 0 — planning discussion (built-in Planner and Critic)\n"
    });
    for r in &d.rounds {
        out.push_str(&format!("  Round {}\n", r.round));
        for m in &r.planner {
            out.push_str(&format!("    Planner: {m}\n"));
        }
        if r.critic.is_empty() {
            out.push_str("    Critic: no objection\n");
        }
        for f in &r.critic {
            out.push_str(&format!("    Critic: {}\n", f.message()));
        }
        for n in &r.notes {
            out.push_str(&format!("    Note: {n}\n"));
        }
    }
    out.push_str("  Refined plan (Phase A validates it again):\n");
    for t in &d.proposal.tasks {
        let mut facts = Vec::new();
        if !t.owns.is_empty() {
            let estimated = d.proposal.estimated_owns.contains_key(&t.id);
            facts.push(format!(
                "owns: {}{}",
                t.owns.join(", "),
                if estimated { " (estimated)" } else { "" }
            ));
        }
        if !t.depends.is_empty() {
            facts.push(format!("after: {}", t.depends.join(", ")));
        }
        let facts = if facts.is_empty() {
            String::new()
        } else {
            format!(" · {}", facts.join(" · "))
        };
        out.push_str(&format!("    {}{facts}\n", t.subject()));
    }
    let n = d.planner_max_parallel;
    let why = match &d.planner_reason {
        Some(why) => format!(" ({why})"),
        None => " (the task graph's width only: the team-size table sizes the team)".into(),
    };
    out.push_str(&format!(
        "  Planner's recommendation: at most {n} Implementer{} in parallel{why}\n",
        if n == 1 { "" } else { "s" }
    ));
    for f in &d.open {
        out.push_str(&format!("  Open: {}\n", f.message()));
    }
    out
}

/// The discussion as one JSON object.
pub(super) fn json(d: &Discussion) -> Value {
    json!({
        "backend": if d.agent { "agent" } else { "builtin" },
        "rounds": d.rounds,
        "planner_max_parallel": d.planner_max_parallel,
        "planner_reason": d.planner_reason,
        "estimated_owns": d.proposal.estimated_owns,
        "added_dependencies": d.proposal.added,
        "open": d.open,
    })
}
