//! Which analyzer lints say what a built-in rule says, so that the problem is reported once.
//! A quality rule's hit on the same lines steps aside (`engine::step_aside`) and the finding
//! carries the analyzer's lint name — the analyzer knows types, `cfg(test)` and targets. Another
//! Inspector's rule is another process's finding: the analyzer's hit takes that rule's category,
//! and the Auditor's dedup (same place, same category) merges the two into one finding that two
//! agents confirm (its rule is the first reported, its severity the higher).
//!
//! The table pairs only lints whose subject is the built-in rule's own subject. Most of them
//! are not in their analyzer's default set (clippy's `unwrap_used`, ruff's `ERA001`, eslint's
//! `no-warning-comments`): they fire only where a project turned them on, which is exactly
//! where the project's own analyzer should speak for it. Of the defaults: rustc's naming lints
//! (reported in clippy's run), ruff's `E722` (bare `except`) and eslint's recommended
//! `no-empty` (an empty `catch` block). Left out on purpose: print lints (clippy
//! `print_stdout`, ruff `T201`, eslint `no-console`), since `quality/logging-violation` also
//! reports a secret reaching a print, which the analyzer does not; no default go vet analyzer
//! says what a quality rule says; clippy's default `await_holding_lock` is
//! `holistic/lock-across-await`'s subject.

use super::Linter;
use protocol::Category;

/// (analyzer, lint code as the analyzer reports it, built-in rule that steps aside for it).
const TABLE: [(Linter, &str, &str); 42] = [
    (
        Linter::Clippy,
        "clippy::unwrap_used",
        "quality/unwrap-in-library",
    ),
    (
        Linter::Clippy,
        "clippy::expect_used",
        "quality/unwrap-in-library",
    ),
    (Linter::Clippy, "non_snake_case", "quality/naming-violation"),
    (
        Linter::Clippy,
        "non_camel_case_types",
        "quality/naming-violation",
    ),
    (
        Linter::Clippy,
        "non_upper_case_globals",
        "quality/naming-violation",
    ),
    (
        Linter::Clippy,
        "clippy::too_many_lines",
        "quality/long-function",
    ),
    (
        Linter::Clippy,
        "clippy::excessive_nesting",
        "quality/deep-nesting",
    ),
    (
        Linter::Clippy,
        "clippy::await_holding_lock",
        "holistic/lock-across-await",
    ),
    (Linter::Clippy, "clippy::todo", "holistic/todo-macro"),
    (
        Linter::Clippy,
        "clippy::unimplemented",
        "holistic/todo-macro",
    ),
    (Linter::Clippy, "clippy::panic", "holistic/panic-in-library"),
    (Linter::Clippy, "clippy::exit", "holistic/exit-in-library"),
    (
        Linter::Clippy,
        "clippy::undocumented_unsafe_blocks",
        "holistic/unsafe-without-safety",
    ),
    (Linter::Ruff, "E722", "quality/swallowed-error"),
    (Linter::Ruff, "S105", "holistic/hardcoded-credential"),
    (Linter::Ruff, "S106", "holistic/hardcoded-credential"),
    (Linter::Ruff, "S113", "holistic/client-without-timeout"),
    (Linter::Ruff, "S501", "holistic/tls-verification-disabled"),
    (Linter::Ruff, "S602", "holistic/shell-injection"),
    (Linter::Ruff, "S608", "holistic/sql-injection"),
    (Linter::Ruff, "S110", "quality/swallowed-error"),
    (Linter::Ruff, "S112", "quality/swallowed-error"),
    (Linter::Ruff, "SIM105", "quality/swallowed-error"),
    (Linter::Ruff, "ERA001", "quality/commented-out-code"),
    (Linter::Ruff, "FIX001", "quality/todo-marker"),
    (Linter::Ruff, "FIX002", "quality/todo-marker"),
    (Linter::Ruff, "FIX003", "quality/todo-marker"),
    (Linter::Ruff, "FIX004", "quality/todo-marker"),
    (Linter::Ruff, "N801", "quality/naming-violation"),
    (Linter::Ruff, "N802", "quality/naming-violation"),
    (Linter::Ruff, "N803", "quality/naming-violation"),
    (Linter::Ruff, "N806", "quality/naming-violation"),
    (Linter::Ruff, "N815", "quality/naming-violation"),
    (Linter::Ruff, "N816", "quality/naming-violation"),
    (Linter::Ruff, "PLR0915", "quality/long-function"),
    (Linter::Ruff, "PLR1702", "quality/deep-nesting"),
    (Linter::Eslint, "no-empty", "quality/swallowed-error"),
    (Linter::Eslint, "no-warning-comments", "quality/todo-marker"),
    (Linter::Eslint, "camelcase", "quality/naming-violation"),
    (
        Linter::Eslint,
        "@typescript-eslint/naming-convention",
        "quality/naming-violation",
    ),
    (
        Linter::Eslint,
        "max-lines-per-function",
        "quality/long-function",
    ),
    (Linter::Eslint, "max-depth", "quality/deep-nesting"),
];

/// The built-in rule a lint of `linter` stands in for, if any.
pub(crate) fn stands_in_for(linter: Linter, code: &str) -> Option<&'static str> {
    TABLE
        .iter()
        .find(|(l, c, _)| *l == linter && *c == code)
        .map(|(_, _, rule)| *rule)
}

/// The category of the rule `rule` (from the catalog), which a standing-in hit takes.
pub(crate) fn category_of(rule: &str) -> Option<Category> {
    crate::rules::catalog()
        .into_iter()
        .find(|(_, meta)| meta.id == rule)
        .map(|(_, meta)| meta.category)
}

/// Whether the lint is one of rustc's (not clippy's) that clippy's run reports and the table
/// names: taken from clippy's output beside the `clippy::` lints.
pub(crate) fn is_tabled_rustc_lint(code: &str) -> bool {
    !code.starts_with("clippy::") && stands_in_for(Linter::Clippy, code).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lints_map_to_the_rule_that_says_the_same() {
        assert_eq!(
            stands_in_for(Linter::Clippy, "clippy::unwrap_used"),
            Some("quality/unwrap-in-library")
        );
        assert_eq!(
            stands_in_for(Linter::Ruff, "E722"),
            Some("quality/swallowed-error")
        );
        // The same code of another analyzer, and lints with no built-in twin, map to nothing.
        assert_eq!(stands_in_for(Linter::Eslint, "E722"), None);
        assert_eq!(
            stands_in_for(Linter::Clippy, "clippy::needless_return"),
            None
        );
        assert_eq!(
            stands_in_for(Linter::Clippy, "clippy::await_holding_lock"),
            Some("holistic/lock-across-await")
        );
        assert_eq!(
            category_of("holistic/lock-across-await").map(Category::as_str),
            Some("race-condition")
        );
        assert!(is_tabled_rustc_lint("non_snake_case"));
        assert!(!is_tabled_rustc_lint("clippy::unwrap_used") && !is_tabled_rustc_lint("dead_code"));
        let rules: Vec<&str> = crate::rules::catalog()
            .iter()
            .map(|(_, meta)| meta.id)
            .collect();
        for (_, code, rule) in TABLE {
            assert!(rules.contains(&rule), "{code} names no rule: {rule}");
        }
    }
}
