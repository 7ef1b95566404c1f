//! Reading one row: N trimmed, unescaped fields, and the field kinds shared by reports and
//! verdicts (severity, agents, a field that must not be empty).

use super::document::Line;
use super::escape::{split_raw, unescape};
use super::CpfError;
use crate::domain::Severity;

/// The `N` fields of a row, trimmed and unescaped; fewer than `N` is an error, more are kept in
/// the last field.
pub(super) fn split_row<const N: usize>(line: Line<'_>) -> Result<[String; N], CpfError> {
    let raw = split_raw(line.text, N);
    if raw.len() < N {
        let mut problem = format!("expected {N} fields separated by '|', found {}", raw.len());
        if line.text.starts_with("VERDICT:") || line.text.starts_with("SCOPE:") {
            problem.push_str(" (VERDICT: and SCOPE: must come before the first section header)");
        }
        return Err(CpfError::new(line.number, problem));
    }
    Ok(std::array::from_fn(|i| {
        raw.get(i).map(|f| unescape(f.trim())).unwrap_or_default()
    }))
}

/// `value`, or an error when it is empty (`what` names the field, `index` is 1-based).
pub(super) fn required(
    line: Line<'_>,
    value: String,
    what: &str,
    index: usize,
    of: usize,
) -> Result<String, CpfError> {
    if value.is_empty() {
        return Err(CpfError::new(
            line.number,
            format!("empty {what}: field {index} of {of} must not be empty"),
        ));
    }
    Ok(value)
}

/// A severity letter: C, H, M or L.
pub(super) fn severity(line: Line<'_>, value: &str) -> Result<Severity, CpfError> {
    value
        .parse::<Severity>()
        .map_err(|e| CpfError::new(line.number, e.to_string()))
}

/// Agent names joined with `+`; none of them may be empty.
pub(super) fn agents(line: Line<'_>, value: &str) -> Result<Vec<String>, CpfError> {
    if value.is_empty() {
        return Err(CpfError::new(
            line.number,
            "empty agents: field 1 must name the agents, joined with '+'",
        ));
    }
    let names: Vec<String> = value.split('+').map(|a| a.trim().to_string()).collect();
    if names.iter().any(String::is_empty) {
        return Err(CpfError::new(
            line.number,
            format!("empty agent name in '{value}' (agents are joined with '+')"),
        ));
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line<'_> {
        Line { number: 7, text }
    }

    #[test]
    fn fields_are_trimmed_and_unescaped() {
        let [a, b, c] = split_row::<3>(line(" a\\|x | \\\\b\\n |  c | d ")).unwrap();
        assert_eq!(
            (a.as_str(), b.as_str(), c.as_str()),
            ("a|x", "\\b\n", "c | d")
        );
        let [a, b] = split_row::<2>(line("x||")).unwrap();
        assert_eq!((a.as_str(), b.as_str()), ("x", "|"));
    }

    #[test]
    fn too_few_fields_name_the_line_and_count() {
        let err = split_row::<4>(line("H|cat")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 7: expected 4 fields separated by '|', found 2"
        );
        let err = split_row::<4>(line("VERDICT:GO")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 7: expected 4 fields separated by '|', found 1 (VERDICT: and SCOPE: must come before the first section header)"
        );
    }

    #[test]
    fn severities_are_the_four_letters_only() {
        assert_eq!(severity(line("C"), "C"), Ok(Severity::Critical));
        assert_eq!(
            severity(line("X"), "X").unwrap_err().to_string(),
            "line 7: unknown severity 'X' (expected C, H, M or L)"
        );
        assert!(severity(line("h"), "h").is_err());
        assert!(severity(line("High"), "High").is_err());
    }

    #[test]
    fn agents_split_on_plus_and_must_not_be_empty() {
        assert_eq!(
            agents(line(""), "quality + test").unwrap(),
            vec!["quality".to_string(), "test".to_string()]
        );
        assert_eq!(
            agents(line(""), "a++b").unwrap_err().to_string(),
            "line 7: empty agent name in 'a++b' (agents are joined with '+')"
        );
        assert_eq!(
            agents(line(""), "").unwrap_err().to_string(),
            "line 7: empty agents: field 1 must name the agents, joined with '+'"
        );
    }

    #[test]
    fn required_fields_reject_empty_values() {
        assert_eq!(
            required(line(""), "x".into(), "category", 2, 4),
            Ok("x".into())
        );
        assert_eq!(
            required(line(""), String::new(), "category", 2, 4)
                .unwrap_err()
                .to_string(),
            "line 7: empty category: field 2 of 4 must not be empty"
        );
    }
}
