//! The handover's Steering Exceptions: a Markdown table the user keeps under
//! `## Steering Exceptions`, one rule suspended per row —
//!
//! | Feature | Rule | Where | Decided by | Why |
//! |---|---|---|---|---|
//! | orders | quality/unwrap-in-library | src/orders/ | alice | prototype, replaced in task 5 |
//!
//! Feature is a feature name (`specs/<feature>/`) or `*`; Rule a rule id or a finding
//! category; Where a path, a folder ending with `/`, or blank for anywhere. A row without a
//! Feature, Rule, Decided by or Why is never applied — it is reported instead, so an
//! unfinished row cannot suspend more than its author meant.

use super::section_body;
use protocol::message::SteeringException;

/// The section's heading text.
pub const HEADING: &str = "Steering Exceptions";

/// The exceptions a handover's table holds, and what is wrong with the rows left out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parsed {
    /// The complete rows, in table order.
    pub exceptions: Vec<SteeringException>,
    /// One line per row not applied, naming it and what it lacks.
    pub problems: Vec<String>,
}

/// The Steering Exceptions of a handover's text (none when it has no such section).
pub fn parse(text: &str) -> Parsed {
    let mut out = Parsed::default();
    let Some(body) = section_body(text, HEADING) else {
        return out;
    };
    let mut columns: Option<Columns> = None;
    let mut row_number = 0;
    for line in table_lines(&body) {
        let cells = cells(line);
        let Some(cols) = &columns else {
            columns = Some(Columns::of(&cells));
            continue;
        };
        if is_rule_line(&cells) || cells.iter().all(|c| c.is_empty()) {
            continue;
        }
        row_number += 1;
        match cols.exception(&cells) {
            Ok(e) => out.exceptions.push(e),
            Err(missing) => out.problems.push(format!(
                "Steering Exceptions row {row_number} ({}) is not applied: {} missing",
                line.trim(),
                missing.join(", ")
            )),
        }
    }
    out
}

/// The exceptions that hold for a review of `features`: those for `*` and for one of them.
pub fn for_features(
    exceptions: Vec<SteeringException>,
    features: &[&str],
) -> Vec<SteeringException> {
    exceptions
        .into_iter()
        .filter(|e| e.feature == "*" || features.contains(&e.feature.as_str()))
        .collect()
}

/// Where each column sits, read from the header row (by name, so the user may reorder them).
struct Columns {
    feature: Option<usize>,
    rule: Option<usize>,
    place: Option<usize>,
    decided_by: Option<usize>,
    why: Option<usize>,
}

impl Columns {
    fn of(header: &[String]) -> Columns {
        let find = |names: &[&str]| {
            header
                .iter()
                .position(|h| names.contains(&h.to_lowercase().as_str()))
        };
        Columns {
            feature: find(&["feature"]),
            rule: find(&["rule"]),
            place: find(&["where", "path"]),
            decided_by: find(&["decided by", "decided_by", "who"]),
            why: find(&["why", "reason"]),
        }
    }

    /// The row as an exception, or the names of the required cells it leaves blank.
    fn exception(&self, cells: &[String]) -> Result<SteeringException, Vec<&'static str>> {
        let cell = |at: Option<usize>| {
            at.and_then(|i| cells.get(i))
                .map(|c| c.trim_matches('`').trim().to_string())
                .unwrap_or_default()
        };
        let (feature, rule, decided_by, reason) = (
            cell(self.feature),
            cell(self.rule),
            cell(self.decided_by),
            cell(self.why),
        );
        let missing: Vec<&'static str> = [
            ("Feature", &feature),
            ("Rule", &rule),
            ("Decided by", &decided_by),
            ("Why", &reason),
        ]
        .into_iter()
        .filter(|(_, v)| v.is_empty())
        .map(|(name, _)| name)
        .collect();
        if !missing.is_empty() {
            return Err(missing);
        }
        let place = cell(self.place);
        Ok(SteeringException {
            feature,
            rule,
            path: (!place.is_empty()).then_some(place),
            decided_by,
            reason,
        })
    }
}

/// The lines of `body` that are table rows, outside HTML comments and fenced blocks.
fn table_lines(body: &str) -> Vec<&str> {
    let (mut in_comment, mut in_fence) = (false, false);
    let mut rows = Vec::new();
    for line in body.lines() {
        let t = line.trim();
        if in_comment {
            in_comment = !t.contains("-->");
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if t.starts_with("<!--") {
            in_comment = !t.contains("-->");
            continue;
        }
        if t.starts_with('|') {
            rows.push(line);
        }
    }
    rows
}

/// A row's cells, trimmed; `\|` is a pipe inside a cell.
fn cells(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t
        .strip_suffix('|')
        .filter(|r| !r.ends_with('\\'))
        .unwrap_or(t);
    let (mut cells, mut cell) = (Vec::new(), String::new());
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                cell.push('|');
            }
            '|' => cells.push(std::mem::take(&mut cell)),
            c => cell.push(c),
        }
    }
    cells.push(cell);
    cells.into_iter().map(|c| c.trim().to_string()).collect()
}

/// Whether the cells are the header's rule line (`|---|:--:|`).
fn is_rule_line(cells: &[String]) -> bool {
    cells
        .iter()
        .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':')))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "# Session handover\n\n## Notes\n\n| not | a | table | we | read |\n\n## Steering Exceptions\n\n<!-- Feature: a feature or *.\n| Feature | inside | a | comment | ignored |\n-->\n\n| Feature | Rule | Where | Decided by | Why |\n|---|---|---|---|---|\n| orders | `quality/unwrap-in-library` | src/orders/ | alice | prototype, replaced in task 5 |\n| * | todo-marker |  | bob | tracked in \\| #12 |\n| billing |  | src/b.rs | carol | later |\n| * | dead-code | | | |\n|  |  |  |  |  |\n\n## Other\n| x | dead-code | | dave | not in the section |\n";

    #[test]
    fn complete_rows_are_exceptions_and_blank_cells_are_reported() {
        let parsed = parse(TABLE);
        assert_eq!(
            parsed.exceptions,
            vec![
                SteeringException {
                    feature: "orders".into(),
                    rule: "quality/unwrap-in-library".into(),
                    path: Some("src/orders/".into()),
                    decided_by: "alice".into(),
                    reason: "prototype, replaced in task 5".into(),
                },
                SteeringException {
                    feature: "*".into(),
                    rule: "todo-marker".into(),
                    path: None,
                    decided_by: "bob".into(),
                    reason: "tracked in | #12".into(),
                },
            ]
        );
        assert_eq!(
            parsed.problems,
            vec![
                "Steering Exceptions row 3 (| billing |  | src/b.rs | carol | later |) is not applied: Rule missing",
                "Steering Exceptions row 4 (| * | dead-code | | | |) is not applied: Decided by, Why missing",
            ]
        );
    }

    #[test]
    fn columns_are_found_by_name() {
        let text = "## Steering Exceptions\n| Why | Rule | Feature | Decided by |\n|--|--|--|--|\n| demo | dead-code | * | eve |\n";
        let parsed = parse(text);
        assert_eq!(parsed.problems, Vec::<String>::new());
        assert_eq!(parsed.exceptions.len(), 1);
        assert_eq!(parsed.exceptions[0].rule, "dead-code");
        assert_eq!(parsed.exceptions[0].reason, "demo");
        assert_eq!(parsed.exceptions[0].path, None);
    }

    #[test]
    fn no_section_or_an_empty_table_holds_nothing() {
        assert_eq!(
            parse("# Session handover\n\n## Notes\nhi\n"),
            Parsed::default()
        );
        let empty = "## Steering Exceptions\n\n| Feature | Rule | Where | Decided by | Why |\n|---|---|---|---|---|\n";
        assert_eq!(parse(empty), Parsed::default());
    }

    #[test]
    fn a_review_keeps_the_exceptions_of_its_features_and_every_feature() {
        let parsed = parse(TABLE);
        let kept = for_features(parsed.exceptions.clone(), &["billing"]);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].feature, "*");
        let kept = for_features(parsed.exceptions, &["orders", "billing"]);
        assert_eq!(kept.len(), 2);
    }
}
