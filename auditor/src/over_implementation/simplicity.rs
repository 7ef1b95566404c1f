//! The simplicity bias of step 8: an Inspector's suggestion that would *add* one of the six
//! patterns (a retry, a fallback, a trait, a helper, a config option, extra validation) is asked
//! "does the design specify this?" like code is. When the design uses none of the pattern's
//! words, the suggestion is dropped — the finding stays, only the advice to grow the code goes —
//! and a note keeps what was dropped:
//!
//! `SIMPLICITY|{location}|{category}|dropped the suggestion "{text}": {pattern}, the design has none`
//!
//! Without a design text nothing is judged.

use super::patterns::{first_phrase, Pattern};
use crate::context::AuditContext;
use protocol::Finding;

/// The findings with unrequested suggestions dropped, and a note per dropped suggestion.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Simplicity {
    /// The findings, in input order.
    pub findings: Vec<Finding>,
    /// One `SIMPLICITY|…` note per suggestion dropped.
    pub notes: Vec<String>,
}

/// Applies the simplicity check to every finding's suggestion.
pub fn simplicity(mut findings: Vec<Finding>, ctx: &AuditContext) -> Simplicity {
    let mut notes = Vec::new();
    if ctx.design_text.trim().is_empty() {
        return Simplicity { findings, notes };
    }
    for f in &mut findings {
        let Some(suggestion) = f.suggestion.as_deref() else {
            continue;
        };
        let Some(pattern) = unrequested_addition(suggestion, ctx) else {
            continue;
        };
        notes.push(format!(
            "SIMPLICITY|{}|{}|dropped the suggestion \"{suggestion}\": {}, the design has none",
            f.location,
            f.category,
            pattern.words()
        ));
        f.suggestion = None;
    }
    Simplicity { findings, notes }
}

/// The pattern a suggestion would add that the design does not mention, if any.
fn unrequested_addition(suggestion: &str, ctx: &AuditContext) -> Option<Pattern> {
    Pattern::ALL.into_iter().find(|p| {
        first_phrase(suggestion, p.additions()).is_some()
            && !p.design_words().iter().any(|w| ctx.design_mentions(w))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::finding;
    use protocol::Severity;

    fn suggesting(category: &str, suggestion: &str) -> Finding {
        let mut f = finding("holistic", category, Severity::Medium, "src/net.rs", 14);
        f.suggestion = Some(suggestion.into());
        f
    }

    fn design(text: &str) -> AuditContext {
        AuditContext {
            design_text: text.into(),
            ..AuditContext::default()
        }
    }

    #[test]
    fn a_suggestion_adding_what_the_design_lacks_is_dropped_with_a_note() {
        let findings = vec![
            suggesting("operational-risk", "Wrap the call in a retry with backoff"),
            suggesting(
                "implicit-coupling",
                "Make it configurable through an environment variable",
            ),
            suggesting("error-handling-drift", "Return the error to the caller"),
        ];
        let out = simplicity(
            findings,
            &design("The client sends one request and reports errors."),
        );
        let kept: Vec<Option<&str>> = out
            .findings
            .iter()
            .map(|f| f.suggestion.as_deref())
            .collect();
        assert_eq!(
            kept,
            vec![None, None, Some("Return the error to the caller")]
        );
        assert_eq!(
            out.notes,
            vec![
                "SIMPLICITY|src/net.rs:14|operational-risk|dropped the suggestion \"Wrap the call in a retry with backoff\": phantom resilience, the design has none",
                "SIMPLICITY|src/net.rs:14|implicit-coupling|dropped the suggestion \"Make it configurable through an environment variable\": config externalization, the design has none",
            ]
        );
    }

    #[test]
    fn a_suggestion_the_design_asks_for_stays() {
        let f = suggesting("operational-risk", "add a retry with a bound");
        let out = simplicity(
            vec![f.clone()],
            &design("Failed uploads are retried three times."),
        );
        assert_eq!(out.findings, vec![f]);
        assert!(out.notes.is_empty());
    }

    #[test]
    fn without_a_design_nothing_is_judged() {
        let f = suggesting("operational-risk", "add a fallback server");
        let out = simplicity(vec![f.clone()], &AuditContext::EMPTY);
        assert_eq!(out.findings, vec![f]);
        assert!(out.notes.is_empty());
    }
}
