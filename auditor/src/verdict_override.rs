//! Step 10, last part: the Auditor may override the verdict table, but only with a written
//! justification, and the override is always visible in NOTES:
//!
//! - `OVERRIDE|{table verdict} → {verdict}|{justification}` when applied;
//! - `OVERRIDE_REFUSED|{verdict} requested without a written justification; {table verdict} stands`
//!   when the justification is blank — an unexplained override is exactly what the rule forbids.
//!
//! An override equal to the table's verdict changes nothing and notes nothing.

use protocol::Verdict;

/// A configured override of the verdict table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerdictOverride {
    /// The verdict to give instead of the table's.
    pub verdict: Verdict,
    /// Why; must not be blank.
    pub justification: String,
}

/// The final verdict and the note that explains an override, when there is one.
pub fn apply_override(table: Verdict, over: Option<&VerdictOverride>) -> (Verdict, Option<String>) {
    let Some(over) = over else {
        return (table, None);
    };
    if over.verdict == table {
        return (table, None);
    }
    let justification = over.justification.trim();
    if justification.is_empty() {
        return (
            table,
            Some(format!(
                "OVERRIDE_REFUSED|{} requested without a written justification; {table} stands",
                over.verdict
            )),
        );
    }
    (
        over.verdict,
        Some(format!(
            "OVERRIDE|{table} → {}|{justification}",
            over.verdict
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn over(verdict: Verdict, justification: &str) -> VerdictOverride {
        VerdictOverride {
            verdict,
            justification: justification.into(),
        }
    }

    #[test]
    fn a_justified_override_replaces_the_verdict_and_is_noted() {
        let o = over(Verdict::Go, " flaky network test, tracked in #41 ");
        assert_eq!(
            apply_override(Verdict::NoGo, Some(&o)),
            (
                Verdict::Go,
                Some("OVERRIDE|NO-GO → GO|flaky network test, tracked in #41".into())
            )
        );
    }

    #[test]
    fn an_unjustified_override_is_refused() {
        let o = over(Verdict::Go, "   ");
        assert_eq!(
            apply_override(Verdict::Conditional, Some(&o)),
            (
                Verdict::Conditional,
                Some(
                    "OVERRIDE_REFUSED|GO requested without a written justification; CONDITIONAL stands"
                        .into()
                )
            )
        );
    }

    #[test]
    fn no_override_or_the_same_verdict_changes_nothing() {
        assert_eq!(apply_override(Verdict::Go, None), (Verdict::Go, None));
        let same = over(Verdict::Go, "why not");
        assert_eq!(
            apply_override(Verdict::Go, Some(&same)),
            (Verdict::Go, None)
        );
    }
}
