//! The report of a run whose tasks the Implementers could not finish (pattern C ending with the
//! user): each escalated task with the reason and the judge's unresolved issues, then the
//! retake history of the reviews so far, in the shape of the review escalation report.

use super::board::Escalated;
use protocol::Task;
use team::escalation::{cell, history_and_next_step, RetakeRound};

/// The escalation report for tasks the team gave up on.
pub fn task_escalation_report(
    escalated: &[&Escalated],
    tasks: &[Task],
    history: &[RetakeRound],
) -> String {
    let n = escalated.len();
    let mut out = format!(
        "⚠ retake: {n} task{} could not be finished by the team and {} escalated to you\n\n## Escalated tasks\n\n",
        if n == 1 { "" } else { "s" },
        if n == 1 { "is" } else { "are" },
    );
    out.push_str(
        "| Task | Subject | Attempts | Reason |\n|------|---------|----------|--------|\n",
    );
    for e in escalated {
        let subject = tasks
            .iter()
            .find(|t| t.id == e.task)
            .map_or("", |t| t.subject.as_str());
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            e.task,
            cell(subject),
            e.attempts,
            cell(&e.reason)
        ));
    }
    out.push_str("\n## Unresolved issues\n\n");
    let issues: Vec<(u32, &String)> = escalated
        .iter()
        .flat_map(|e| e.unresolved.iter().map(move |i| (e.task, i)))
        .collect();
    if issues.is_empty() {
        out.push_str("(none recorded)\n");
    } else {
        out.push_str("| # | Task | Issue |\n|---|------|-------|\n");
        for (i, (task, issue)) in issues.iter().enumerate() {
            out.push_str(&format!("| {} | {task} | {} |\n", i + 1, cell(issue)));
        }
    }
    history_and_next_step(&mut out, history);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Decision, Grade};
    use team::registration::register;
    use team::testing::task;

    #[test]
    fn the_report_names_tasks_issues_and_history() {
        let tasks = register(&[task("1", "Add subtraction", &["src/sub.rs"], &[])]).tasks;
        let e = Escalated {
            task: 1,
            reason: "not judged PASS within 3 iterations; last failed: Q2, Q6".into(),
            attempts: 1,
            unresolved: vec!["incomplete src/sub.rs:4: TODO | left".into()],
        };
        let history = [RetakeRound {
            round: 1,
            decision: Decision::RequestChanges,
            grade: Grade::C,
            findings: 2,
        }];
        assert_eq!(
            task_escalation_report(&[&e], &tasks, &history),
            "⚠ retake: 1 task could not be finished by the team and is escalated to you\n\n\
             ## Escalated tasks\n\n\
             | Task | Subject | Attempts | Reason |\n|------|---------|----------|--------|\n\
             | 1 | 1 Add subtraction | 1 | not judged PASS within 3 iterations; last failed: Q2, Q6 |\n\n\
             ## Unresolved issues\n\n| # | Task | Issue |\n|---|------|-------|\n\
             | 1 | 1 | incomplete src/sub.rs:4: TODO \\| left |\n\n\
             ## Retake history\n\n\
             | Round | Decision | Grade | Findings |\n|-------|----------|-------|----------|\n\
             | 1 | REQUEST_CHANGES | C | 2 |\n\n\
             Fix these by hand, then continue with `retake resume`.\n"
        );
    }
}
