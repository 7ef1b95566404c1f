//! Inline suppression: `retake-ignore: RULE-ID reason` on the finding's line or the line before.

/// Whether `rule_id` is suppressed at 1-based `line` of `text`.
pub fn is_suppressed(text: &str, line: u32, rule_id: &str) -> bool {
    if line == 0 {
        return false;
    }
    let first = line.saturating_sub(2) as usize;
    text.lines()
        .skip(first)
        .take(if line == 1 { 1 } else { 2 })
        .any(|l| names_rule(l, rule_id))
}

fn names_rule(line: &str, rule_id: &str) -> bool {
    let mut rest = line;
    while let Some(at) = rest.find("retake-ignore:") {
        rest = &rest[at + "retake-ignore:".len()..];
        let ids = rest.split_whitespace().next().unwrap_or_default();
        if ids.split(',').any(|id| id == rule_id) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "fn a() {}\n// retake-ignore: quality/todo-marker tracked in #12\n// TODO: later\nlet x = 1; // retake-ignore: holistic/panic,quality/x ok\n";

    #[test]
    fn same_or_previous_line_suppresses_only_the_named_rule() {
        assert!(is_suppressed(TEXT, 3, "quality/todo-marker"));
        assert!(is_suppressed(TEXT, 2, "quality/todo-marker"));
        assert!(!is_suppressed(TEXT, 1, "quality/todo-marker"));
        assert!(!is_suppressed(TEXT, 3, "quality/fixme"));
        assert!(is_suppressed(TEXT, 4, "holistic/panic"));
        assert!(is_suppressed(TEXT, 4, "quality/x"));
        assert!(!is_suppressed(TEXT, 4, "holistic/pan"));
        assert!(!is_suppressed(TEXT, 0, "quality/todo-marker"));
    }
}
