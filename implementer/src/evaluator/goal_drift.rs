//! The `goal_drift_guard` template evaluator (GD1–GD5): an executor that drifts from the goal
//! says so in its own words — it defers work, shrinks or simplifies it, leaves placeholders —
//! or fails to state that every requirement is fulfilled.
//!
//! GD1 deferral ("for now"), GD2 reduced scope ("basic implementation"), GD3 simplification
//! ("simplified version"), GD4 placeholder ("placeholder", "stub"): a phrase fires unless a
//! negation ("no", "not", "without", "never") stands within the three words before it.
//! GD5: the output lacks `COMPLETE: all N requirements fulfilled`, with N the number of list
//! items in the task description when it has any.

use super::{EvaluatorError, EvaluatorInput, EvaluatorResult, StructuredReason, TemplateEvaluator};
use crate::criteria::CriterionResult;
use protocol::domain::Task;

/// The drift criteria GD1–GD4: id, violation type, phrases (lower case).
const DRIFT: [(&str, &str, &[&str]); 4] = [
    (
        "GD1",
        "deferral",
        &[
            "for now",
            "for the time being",
            "left for later",
            "will be added later",
            "in a future",
            "as a follow-up",
            "とりあえず",
            "一旦",
            "後で実装",
        ],
    ),
    (
        "GD2",
        "scope_reduction",
        &[
            "basic implementation",
            "minimal implementation",
            "initial implementation",
            "partial implementation",
            "基本的な実装",
            "最低限の実装",
        ],
    ),
    (
        "GD3",
        "simplification",
        &[
            "simplified version",
            "simplified implementation",
            "simplified approach",
            "simpler version",
            "簡易版",
            "簡略化",
        ],
    ),
    (
        "GD4",
        "placeholder",
        &[
            "placeholder",
            "stub",
            "dummy implementation",
            "mock implementation",
            "仮実装",
            "ダミー",
        ],
    ),
];

const NEGATIONS: [&str; 5] = ["no", "not", "without", "never", "none"];

/// The built-in `goal_drift_guard` evaluator.
#[derive(Debug, Clone, Copy, Default)]
pub struct GoalDriftGuard;

impl TemplateEvaluator for GoalDriftGuard {
    fn template_id(&self) -> &str {
        "goal_drift_guard"
    }

    fn name(&self) -> &str {
        "Goal Drift Guard Evaluator"
    }

    fn prompt_instructions(
        &self,
        task: &Task,
        templates: &protocol::prompt::Templates,
    ) -> Option<String> {
        let n = match requirement_count(&task.description) {
            0 => "N".to_string(),
            n => n.to_string(),
        };
        Some(templates.render(
            protocol::prompt::Role::Evaluator,
            &[("{{requirements}}", &n)],
            "",
        ))
    }

    fn evaluate(&self, input: &EvaluatorInput<'_>) -> Result<EvaluatorResult, EvaluatorError> {
        let mut results = Vec::new();
        let mut reasons = Vec::new();
        for (id, kind, phrases) in DRIFT {
            let evidence = drift_evidence(input.output, phrases);
            if evidence.is_empty() {
                results.push(CriterionResult::pass(id));
            } else {
                results.push(CriterionResult::fail(id, evidence.join("; ")));
                reasons.push(StructuredReason {
                    criteria_id: id.to_string(),
                    violation_type: kind.to_string(),
                    description: format!("the output signals goal drift ({kind})"),
                    evidence,
                });
            }
        }
        let wanted = requirement_count(&input.task.description);
        match completion_problem(input.output, wanted) {
            None => results.push(CriterionResult::pass("GD5")),
            Some(problem) => {
                results.push(CriterionResult::fail("GD5", problem.clone()));
                reasons.push(StructuredReason {
                    criteria_id: "GD5".into(),
                    violation_type: "missing_completion_statement".into(),
                    description: problem,
                    evidence: Vec::new(),
                });
            }
        }
        let expected = match wanted {
            0 => "N".to_string(),
            n => n.to_string(),
        };
        Ok(EvaluatorResult {
            passed: reasons.is_empty(),
            criteria_results: results,
            reasons,
            instructions: format!(
                "Implement the complete goal without deferral, reduced scope, simplification or \
                 placeholders, and end with `COMPLETE: all {expected} requirements fulfilled` \
                 only when that is true."
            ),
        })
    }
}

/// The number of list items (`- `, `* `, `1. `, `1) `) in a task description.
pub(crate) fn requirement_count(description: &str) -> usize {
    description
        .lines()
        .map(str::trim_start)
        .filter(|l| {
            l.starts_with("- ") || l.starts_with("* ") || {
                let digits = l.chars().take_while(char::is_ascii_digit).count();
                digits > 0 && (l[digits..].starts_with(". ") || l[digits..].starts_with(") "))
            }
        })
        .count()
}

/// Quotes of every un-negated drift phrase in `output` (`output:3: "for now"`).
fn drift_evidence(output: &str, phrases: &[&str]) -> Vec<String> {
    let mut evidence = Vec::new();
    for (i, line) in output.lines().enumerate() {
        let lower = line.to_lowercase();
        for phrase in phrases {
            let fired = lower
                .match_indices(phrase)
                .any(|(at, _)| whole_phrase(&lower, at, phrase) && !negated(&lower[..at]));
            if fired {
                evidence.push(format!("output:{}: \"{phrase}\"", i + 1));
            }
        }
    }
    evidence
}

/// Whether the phrase at `at` stands alone: no word character before it and none after it
/// (an `s` or `es` plural allowed). Phrases in scripts without spaces match anywhere.
fn whole_phrase(line: &str, at: usize, phrase: &str) -> bool {
    if !phrase.is_ascii() {
        return true;
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let rest = &line[at + phrase.len()..];
    let rest = rest
        .strip_prefix("es")
        .or_else(|| rest.strip_prefix('s'))
        .unwrap_or(rest);
    !line[..at].chars().next_back().is_some_and(word) && !rest.chars().next().is_some_and(word)
}

fn negated(before: &str) -> bool {
    before
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .rev()
        .take(3)
        .any(|w| NEGATIONS.contains(&w) || w.ends_with("n't"))
}

/// Why the completion statement is missing or wrong; `None` when it is right.
fn completion_problem(output: &str, wanted: usize) -> Option<String> {
    let mut seen = Vec::new();
    for line in output.lines() {
        let Some(rest) = line.trim().strip_prefix("COMPLETE: all ") else {
            continue;
        };
        let Some(n) = rest.strip_suffix(" requirements fulfilled") else {
            continue;
        };
        match n.parse::<usize>() {
            Ok(n) if n > 0 && (wanted == 0 || n == wanted) => return None,
            Ok(n) => seen.push(n),
            Err(_) => {}
        }
    }
    Some(match (seen.first(), wanted) {
        (Some(n), w) if w > 0 => {
            format!("the completion statement counts {n} requirements; the task has {w}")
        }
        _ => "the output lacks the completion statement `COMPLETE: all N requirements fulfilled`"
            .to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::ChangeSet;
    use crate::testing::task;

    fn failed(output: &str, description: &str) -> Vec<String> {
        let mut t = task("Add the parser");
        t.description = description.to_string();
        let change = ChangeSet::default();
        let input = EvaluatorInput {
            output,
            task: &t,
            change: &change,
        };
        let result = GoalDriftGuard.evaluate(&input).expect("evaluates");
        assert_eq!(result.criteria_results.len(), 5);
        assert_eq!(result.passed, result.reasons.is_empty());
        result
            .criteria_results
            .into_iter()
            .filter(|c| !c.passed)
            .map(|c| c.criteria_id)
            .collect()
    }

    const DONE: &str = "COMPLETE: all 2 requirements fulfilled";
    const TWO: &str = "Do this:\n- parse\n- print\n";

    #[test]
    fn each_drift_criterion_fires_on_its_phrase() {
        let out = |s: &str| format!("{s}\n{DONE}");
        assert_eq!(failed(&out("Errors are ignored for now."), TWO), ["GD1"]);
        assert_eq!(
            failed(&out("This is a basic implementation."), TWO),
            ["GD2"]
        );
        assert_eq!(failed(&out("I wrote a Simplified Version."), TWO), ["GD3"]);
        assert_eq!(failed(&out("Left two placeholders in main."), TWO), ["GD4"]);
        assert_eq!(failed(&out("とりあえず簡易版です"), TWO), ["GD1", "GD3"]);
    }

    #[test]
    fn the_completion_statement_is_required_with_the_right_count() {
        assert_eq!(failed("Parser and printer added.", TWO), ["GD5"]);
        assert_eq!(
            failed("COMPLETE: all 1 requirements fulfilled", TWO),
            ["GD5"]
        );
        assert_eq!(
            failed("COMPLETE: all 0 requirements fulfilled", ""),
            ["GD5"]
        );
        assert!(failed("COMPLETE: all 4 requirements fulfilled", "no list").is_empty());
    }

    #[test]
    fn quiet_on_complete_work_and_negated_or_embedded_phrases() {
        let out = format!(
            "Implemented both.\nNo placeholders or stubs remain; I did not simplify it.\n\
             The stubborn bug is fixed; for nowhere else.\n{DONE}"
        );
        assert!(failed(&out, TWO).is_empty());
    }

    #[test]
    fn instructions_name_the_requirement_count() {
        let mut t = task("Add the parser");
        t.description = TWO.to_string();
        let text = GoalDriftGuard
            .prompt_instructions(&t, &Default::default())
            .expect("instructions");
        assert!(
            text.ends_with("`COMPLETE: all 2 requirements fulfilled`."),
            "{text}"
        );
        assert_eq!(requirement_count("1. a\n2) b\n* c\n-no\n"), 3);
    }
}
