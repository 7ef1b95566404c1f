//! Planning: each batch gets a partial plan (`partial-plan-<batch>.json`: groups of findings and
//! a local stage timeline) from a planner — up to 10 run at once — and the partial plans are
//! aggregated into `fix-plan.json`: groups renumbered G1, G2, … across batches, each with its
//! `fix-progress-<n>.json`, and one stage timeline in which groups whose files are disjoint share
//! a stage and a group touching a file of an earlier group runs in a later stage.
//!
//! The built-in planner makes one group per file of the batch; an agent planner may group
//! differently, and the aggregation treats both alike.

use super::batching::Batch;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Planners run at once.
pub const MAX_PARALLEL_PLANNERS: usize = 10;

/// A group of findings fixed, tested and committed together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixGroup {
    /// `G1` (local to a partial plan, global in the fix plan).
    pub id: String,
    /// The batch it came from.
    pub batch: u32,
    /// Files it changes.
    pub files: Vec<String>,
    /// Its findings' fix ids.
    pub fix_ids: Vec<String>,
}

/// Groups whose files are disjoint, so that their order does not matter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stage {
    /// 1-based.
    pub stage: u32,
    /// Group ids.
    pub groups: Vec<String>,
}

/// One planner's result for one batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialPlan {
    /// The batch.
    pub batch_id: u32,
    /// Its groups, local ids.
    pub groups: Vec<FixGroup>,
    /// Its local stages.
    pub timeline: Vec<Stage>,
}

/// The aggregated plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixPlan {
    /// Every group, global ids.
    pub groups: Vec<FixGroup>,
    /// The stages, in order.
    pub timeline: Vec<Stage>,
}

/// Batch ids in waves of at most [`MAX_PARALLEL_PLANNERS`].
pub fn planner_waves(batches: &[Batch]) -> Vec<Vec<u32>> {
    batches
        .chunks(MAX_PARALLEL_PLANNERS)
        .map(|c| c.iter().map(|b| b.id).collect())
        .collect()
}

/// The built-in planner: one group per set of files a fix owns (`targets::fix_files`), in the
/// batch's order.
pub fn builtin_partial_plan(batch: &Batch) -> PartialPlan {
    let mut groups: Vec<FixGroup> = Vec::new();
    for f in &batch.findings {
        // The files its fix owns: its own, or the test file a missing-test finding asks for.
        let files = super::targets::fix_files(&f.finding);
        match groups.iter_mut().find(|g| g.files == files) {
            Some(g) => g.fix_ids.push(f.id.clone()),
            None => groups.push(FixGroup {
                id: format!("G{}", groups.len() + 1),
                batch: batch.id,
                files,
                fix_ids: vec![f.id.clone()],
            }),
        }
    }
    let timeline = stages(&groups);
    PartialPlan {
        batch_id: batch.id,
        groups,
        timeline,
    }
}

/// Stages for groups in order: each goes one stage after the latest earlier group it shares a
/// file with, or into stage 1.
pub fn stages(groups: &[FixGroup]) -> Vec<Stage> {
    let mut stage_of: Vec<u32> = Vec::with_capacity(groups.len());
    for (i, g) in groups.iter().enumerate() {
        let after = groups[..i]
            .iter()
            .zip(&stage_of)
            .filter(|(earlier, _)| earlier.files.iter().any(|f| g.files.contains(f)))
            .map(|(_, s)| *s)
            .max()
            .unwrap_or(0);
        stage_of.push(after + 1);
    }
    let last = stage_of.iter().copied().max().unwrap_or(0);
    (1..=last)
        .map(|stage| Stage {
            stage,
            groups: groups
                .iter()
                .zip(&stage_of)
                .filter(|(_, s)| **s == stage)
                .map(|(g, _)| g.id.clone())
                .collect(),
        })
        .collect()
}

/// Aggregates partial plans (in batch order) into the fix plan.
pub fn aggregate(partials: &[PartialPlan]) -> FixPlan {
    let mut sorted: Vec<&PartialPlan> = partials.iter().collect();
    sorted.sort_by_key(|p| p.batch_id);
    let groups: Vec<FixGroup> = sorted
        .iter()
        .flat_map(|p| p.groups.iter())
        .zip(1..)
        .map(|(g, n)| FixGroup {
            id: format!("G{n}"),
            ..g.clone()
        })
        .collect();
    let timeline = stages(&groups);
    FixPlan { groups, timeline }
}

/// `partial-plan-<batch>.json`.
pub fn partial_plan_json(p: &PartialPlan, created_at: &str) -> Value {
    json!({
        "batch_id": p.batch_id,
        "groups": p.groups.iter().map(group_json).collect::<Vec<_>>(),
        "timeline": p.timeline.iter().map(stage_json).collect::<Vec<_>>(),
        "metadata": {
            "findings_count": p.groups.iter().map(|g| g.fix_ids.len()).sum::<usize>(),
            "groups_count": p.groups.len(),
            "created_at": created_at,
        },
    })
}

/// `fix-plan.json`.
pub fn fix_plan_json(plan: &FixPlan, fix_session_id: &str, created_at: &str) -> Value {
    let groups: Vec<Value> = plan
        .groups
        .iter()
        .zip(1..)
        .map(|(g, n)| {
            let mut v = group_json(g);
            v["progress_file"] = json!(format!("fix-progress-{n}.json"));
            v
        })
        .collect();
    json!({
        "fix_session_id": fix_session_id,
        "groups": groups,
        "timeline": plan.timeline.iter().map(stage_json).collect::<Vec<_>>(),
        "metadata": {
            "findings_count": plan.groups.iter().map(|g| g.fix_ids.len()).sum::<usize>(),
            "groups_count": plan.groups.len(),
            "stages_count": plan.timeline.len(),
            "created_at": created_at,
        },
    })
}

fn group_json(g: &FixGroup) -> Value {
    json!({"group_id": g.id, "batch_id": g.batch, "files": g.files, "findings": g.fix_ids})
}

fn stage_json(s: &Stage) -> Value {
    let mode = if s.groups.len() > 1 {
        "parallel"
    } else {
        "serial"
    };
    json!({"stage_id": s.stage, "groups": s.groups, "execution_mode": mode})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::batching::batches;
    use crate::testing::finding;
    use protocol::Severity;

    fn group(id: &str, files: &[&str]) -> FixGroup {
        FixGroup {
            id: id.into(),
            batch: 1,
            files: files.iter().map(|f| f.to_string()).collect(),
            fix_ids: vec![],
        }
    }

    #[test]
    fn disjoint_groups_share_a_stage_and_shared_files_wait() {
        let s = stages(&[
            group("G1", &["a.rs"]),
            group("G2", &["b.rs"]),
            group("G3", &["a.rs", "c.rs"]),
            group("G4", &["c.rs"]),
            group("G5", &["d.rs"]),
        ]);
        let shape: Vec<(u32, Vec<String>)> = s.into_iter().map(|s| (s.stage, s.groups)).collect();
        assert_eq!(
            shape,
            vec![
                (1, vec!["G1".into(), "G2".into(), "G5".into()]),
                (2, vec!["G3".into()]),
                (3, vec!["G4".into()])
            ]
        );
    }

    #[test]
    fn builtin_plans_aggregate_into_global_groups_and_json() {
        let fs: Vec<_> = ["a.rs", "b.rs", "a.rs", "c.rs"]
            .iter()
            .zip(1..)
            .map(|(p, l)| finding(p, l, Severity::High, "c", "x", false))
            .collect();
        let b = batches(&fs, 2);
        assert_eq!(planner_waves(&b), vec![vec![1, 2]]);
        let partials: Vec<PartialPlan> = b.iter().map(builtin_partial_plan).collect();
        assert_eq!(partials[0].groups[0].fix_ids, vec!["FIX-001", "FIX-002"]);
        let plan = aggregate(&[partials[1].clone(), partials[0].clone()]);
        let ids: Vec<(&str, &[String])> = plan
            .groups
            .iter()
            .map(|g| (g.id.as_str(), g.files.as_slice()))
            .collect();
        assert_eq!(ids.len(), 3);
        assert_eq!((ids[0].0, ids[1].0, ids[2].0), ("G1", "G2", "G3"));
        assert_eq!(plan.timeline.len(), 1, "a.rs, b.rs and c.rs are disjoint");
        let v = fix_plan_json(&plan, "fix-20260222-143000", "2026-02-22T14:30:00Z");
        assert_eq!(
            v["groups"][0],
            json!({"group_id": "G1", "batch_id": 1, "files": ["a.rs"], "findings": ["FIX-001", "FIX-002"], "progress_file": "fix-progress-1.json"})
        );
        assert_eq!(
            v["timeline"][0],
            json!({"stage_id": 1, "groups": ["G1", "G2", "G3"], "execution_mode": "parallel"})
        );
        assert_eq!(v["metadata"]["findings_count"], 4);
        let p = partial_plan_json(&partials[1], "t");
        assert_eq!(p["batch_id"], 2);
        assert_eq!(
            p["metadata"],
            json!({"findings_count": 2, "groups_count": 2, "created_at": "t"})
        );
    }

    #[test]
    fn waves_hold_at_most_ten_planners() {
        let fs: Vec<_> = (1..=23)
            .map(|l| finding(&format!("f{l:02}.rs"), 1, Severity::Low, "c", "x", false))
            .collect();
        let waves = planner_waves(&batches(&fs, 1));
        let sizes: Vec<usize> = waves.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![10, 10, 3]);
    }
}
