//! Template evaluators: extra criteria a task's template adds to Q1–Q6, looked up by template id
//! in a registry. A task without a template runs none (no overhead); an evaluator that errors,
//! or reports `passed` while one of its criteria failed, counts as a failure (fail closed).

mod goal_drift;

pub use goal_drift::GoalDriftGuard;

use crate::change::ChangeSet;
use crate::criteria::CriterionResult;
use protocol::domain::Task;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What an evaluator judges: the executor's output, the task and the change it made.
#[derive(Debug, Clone, Copy)]
pub struct EvaluatorInput<'a> {
    /// The executor's standard output.
    pub output: &'a str,
    /// The task being carried out.
    pub task: &'a Task,
    /// What changed in the repository since the loop began.
    pub change: &'a ChangeSet,
}

/// One violation an evaluator found, for the modification prompt's template section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructuredReason {
    /// The criterion (`GD1`).
    pub criteria_id: String,
    /// A short kind (`deferral`).
    pub violation_type: String,
    /// What is wrong.
    pub description: String,
    /// Quotes that show it (`output:4: "for now"`).
    pub evidence: Vec<String>,
}

/// An evaluator's verdict on one iteration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvaluatorResult {
    /// Whether every criterion passed.
    pub passed: bool,
    /// One result per criterion (`GD1` … `GD5`).
    pub criteria_results: Vec<CriterionResult>,
    /// The violations, for the modification prompt.
    pub reasons: Vec<StructuredReason>,
    /// What to do about them (the template section's fix requirements).
    pub instructions: String,
}

/// An evaluator could not judge; the runner treats this as a REJECT.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EvaluatorError(pub String);

/// A template's evaluator.
pub trait TemplateEvaluator: Send + Sync {
    /// The template id that selects it (`goal_drift_guard`).
    fn template_id(&self) -> &str;
    /// A readable name (`Goal Drift Guard Evaluator`).
    fn name(&self) -> &str;
    /// Text added to the executor prompt so the executor knows the template's rules, from
    /// `templates` (`evaluator.md`).
    fn prompt_instructions(
        &self,
        _task: &Task,
        _templates: &protocol::prompt::Templates,
    ) -> Option<String> {
        None
    }
    /// Judges one iteration.
    fn evaluate(&self, input: &EvaluatorInput<'_>) -> Result<EvaluatorResult, EvaluatorError>;
}

/// Evaluators by template id.
#[derive(Default)]
pub struct EvaluatorRegistry {
    evaluators: BTreeMap<String, Box<dyn TemplateEvaluator>>,
}

impl std::fmt::Debug for EvaluatorRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.evaluators.keys()).finish()
    }
}

impl EvaluatorRegistry {
    /// An empty registry.
    pub fn new() -> EvaluatorRegistry {
        EvaluatorRegistry::default()
    }

    /// A registry holding the built-in evaluators (`goal_drift_guard`).
    pub fn with_builtins() -> EvaluatorRegistry {
        let mut registry = EvaluatorRegistry::new();
        registry.register(Box::new(GoalDriftGuard));
        registry
    }

    /// Adds `evaluator` under its template id, returning the one it replaces.
    pub fn register(
        &mut self,
        evaluator: Box<dyn TemplateEvaluator>,
    ) -> Option<Box<dyn TemplateEvaluator>> {
        self.evaluators
            .insert(evaluator.template_id().to_string(), evaluator)
    }

    /// The evaluator for `template_id`.
    pub fn get(&self, template_id: &str) -> Option<&dyn TemplateEvaluator> {
        self.evaluators.get(template_id).map(|e| e.as_ref())
    }

    /// The registered template ids, sorted.
    pub fn template_ids(&self) -> Vec<&str> {
        self.evaluators.keys().map(String::as_str).collect()
    }
}

/// What the judge keeps of a template evaluator's run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateOutcome {
    /// The template id.
    pub template_id: String,
    /// The evaluator's name.
    pub name: String,
    /// Its result, or the error that made it a failure.
    pub result: Result<EvaluatorResult, String>,
}

impl TemplateOutcome {
    /// Runs `evaluator`, failing closed: an error fails, and so does `passed` with a failed
    /// criterion.
    pub fn run(evaluator: &dyn TemplateEvaluator, input: &EvaluatorInput<'_>) -> TemplateOutcome {
        let result = match evaluator.evaluate(input) {
            Ok(mut r) => {
                r.passed = r.passed && r.criteria_results.iter().all(|c| c.passed);
                Ok(r)
            }
            Err(e) => Err(e.0),
        };
        TemplateOutcome {
            template_id: evaluator.template_id().to_string(),
            name: evaluator.name().to_string(),
            result,
        }
    }

    /// Whether the template's criteria all passed.
    pub fn passed(&self) -> bool {
        self.result.as_ref().is_ok_and(|r| r.passed)
    }

    /// The criterion results; an error is one failed result named by the template id.
    pub fn criteria_results(&self) -> Vec<CriterionResult> {
        match &self.result {
            Ok(r) => r.criteria_results.clone(),
            Err(e) => vec![CriterionResult::fail(
                self.template_id.clone(),
                format!("evaluator error: {e}"),
            )],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Broken;

    impl TemplateEvaluator for Broken {
        fn template_id(&self) -> &str {
            "broken"
        }
        fn name(&self) -> &str {
            "Broken Evaluator"
        }
        fn evaluate(&self, _: &EvaluatorInput<'_>) -> Result<EvaluatorResult, EvaluatorError> {
            Err(EvaluatorError("model unavailable".into()))
        }
    }

    struct Liar;

    impl TemplateEvaluator for Liar {
        fn template_id(&self) -> &str {
            "liar"
        }
        fn name(&self) -> &str {
            "Liar"
        }
        fn evaluate(&self, _: &EvaluatorInput<'_>) -> Result<EvaluatorResult, EvaluatorError> {
            Ok(EvaluatorResult {
                passed: true,
                criteria_results: vec![CriterionResult::fail("L1", "failed")],
                reasons: Vec::new(),
                instructions: String::new(),
            })
        }
    }

    #[test]
    fn registry_finds_evaluators_by_template_id() {
        let mut registry = EvaluatorRegistry::with_builtins();
        assert_eq!(registry.template_ids(), ["goal_drift_guard"]);
        assert!(registry.register(Box::new(Broken)).is_none());
        assert_eq!(registry.template_ids(), ["broken", "goal_drift_guard"]);
        assert_eq!(
            registry.get("goal_drift_guard").map(|e| e.name()),
            Some("Goal Drift Guard Evaluator")
        );
        assert!(registry.get("other_template").is_none());
    }

    #[test]
    fn errors_and_inconsistent_passes_fail_closed() {
        let task = crate::testing::task("Add it");
        let change = ChangeSet::default();
        let input = EvaluatorInput {
            output: "COMPLETE: all 1 requirements fulfilled",
            task: &task,
            change: &change,
        };
        let broken = TemplateOutcome::run(&Broken, &input);
        assert!(!broken.passed());
        assert_eq!(
            broken.criteria_results(),
            [CriterionResult::fail(
                "broken",
                "evaluator error: model unavailable"
            )]
        );
        assert!(!TemplateOutcome::run(&Liar, &input).passed());
    }
}
