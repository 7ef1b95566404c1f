//! Suppressions: an inline `retake-ignore: RULE-ID reason` on the finding's line or the line
//! before, and `.retake/decisions.yaml` entries (fingerprint + reason). Suppressed findings are
//! kept and marked, never dropped here: the Auditor lists them as REMOVED with the reason, and
//! SARIF shows them as suppressed.

use super::decisions::Decisions;
use super::Context;
use protocol::Finding;

const MARKER: &str = "retake-ignore:";

/// How a suppression reads when the session under review added the `retake-ignore` comment
/// itself: still applied, but the Lead counts these in the report's header ("N findings
/// suppressed by this change"), so a change cannot quietly silence the gate on its own lines.
pub const ADDED_BY_CHANGE: &str = "retake-ignore added by this change:";

/// How a suppression reads when the code itself declares the finding deliberate (a rule's
/// [`super::Hit::excuse`]). Trusted only on lines the change under review did not write: on an
/// added line (or in a new file) the excuse is dropped and the finding gates like any other,
/// saying which excuse it had — a change cannot silence the gate by writing the excuse itself.
pub const IN_CODE: &str = "declared deliberate in the code:";

/// Whether `rule_id` is suppressed at 1-based `line` of `text`.
pub fn is_suppressed(text: &str, line: u32, rule_id: &str) -> bool {
    suppression_reason(text, line, rule_id).is_some()
}

/// The reason of the inline `retake-ignore` naming `rule_id` on `line` or the line before
/// (empty when the comment gives none); `None` when the rule is not suppressed there.
pub fn suppression_reason(text: &str, line: u32, rule_id: &str) -> Option<String> {
    marker_line_and_reason(text, line, rule_id).map(|(_, reason)| reason)
}

/// As [`suppression_reason`], with the 1-based line the comment is on.
fn marker_line_and_reason(text: &str, line: u32, rule_id: &str) -> Option<(u32, String)> {
    if line == 0 {
        return None;
    }
    let first = line.saturating_sub(2);
    let window = if line == 1 { 1 } else { 2 };
    let lines: Vec<&str> = text.lines().skip(first as usize).take(window).collect();
    // The finding's own line wins over the line before it.
    lines
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, l)| reason_on(l, rule_id).map(|r| (first + i as u32 + 1, r)))
}

fn reason_on(line: &str, rule_id: &str) -> Option<String> {
    let mut rest = line;
    while let Some(at) = rest.find(MARKER) {
        rest = &rest[at + MARKER.len()..];
        let trimmed = rest.trim_start();
        let ids = trimmed.split_whitespace().next().unwrap_or_default();
        if ids.split(',').any(|id| id == rule_id) {
            let after = &trimmed[ids.len()..];
            // The reason runs to the end of the line, or to the next marker on it.
            let reason = after.split(MARKER).next().unwrap_or_default();
            return Some(clean_reason(reason));
        }
    }
    None
}

/// Drops the comment closers a reason may run into (`*/`, `-->`) and surrounding space.
fn clean_reason(reason: &str) -> String {
    let r = reason.trim();
    let r = r.strip_suffix("*/").unwrap_or(r);
    let r = r.strip_suffix("-->").unwrap_or(r);
    r.trim().to_string()
}

/// Marks every finding an inline comment or a decisions entry suppresses:
/// `suppression = "retake-ignore: <reason>"` or `"decisions.yaml: <reason>"`. An inline comment
/// wins when both apply, since it sits next to the code.
pub fn mark_suppressed(ctx: &Context, findings: &mut [Finding]) {
    for finding in findings.iter_mut() {
        distrust_excuse_written_by_change(ctx, finding);
    }
    for finding in findings.iter_mut().filter(|f| f.suppression.is_none()) {
        finding.suppression = inline(ctx, finding).or_else(|| decided(&ctx.decisions, finding));
    }
}

/// Drops the in-code excuse of a finding on a line the change under review added (or in a file
/// it created), keeping what the excuse said in the description.
fn distrust_excuse_written_by_change(ctx: &Context, finding: &mut Finding) {
    let Some(excuse) = finding
        .suppression
        .as_deref()
        .and_then(|s| s.strip_prefix(IN_CODE))
    else {
        return;
    };
    let written = ctx
        .changes
        .as_ref()
        .and_then(|c| c.files.get(&finding.location.path))
        .is_some_and(|change| {
            change.new_file || finding.location.line.is_some_and(|l| change.is_added(l))
        });
    if written {
        finding.description = format!(
            "{} (not excused: this change wrote the line that would excuse it —{excuse})",
            finding.description
        );
        finding.suppression = None;
    }
}

fn inline(ctx: &Context, finding: &Finding) -> Option<String> {
    let line = finding.location.line?;
    let file = ctx.file(&finding.location.path)?;
    let (at, reason) = marker_line_and_reason(&file.text, line, &finding.rule)?;
    let added = ctx
        .changes
        .as_ref()
        .and_then(|c| c.files.get(&finding.location.path))
        .is_some_and(|change| change.is_added(at));
    let marker = if added { ADDED_BY_CHANGE } else { MARKER };
    let reason = if reason.is_empty() {
        "(no reason given)"
    } else {
        &reason
    };
    Some(format!("{marker} {reason}"))
}

fn decided(decisions: &Decisions, finding: &Finding) -> Option<String> {
    decisions
        .reason_for(&finding.fingerprint)
        .map(|reason| format!("decisions.yaml: {reason}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "fn a() {}\n// retake-ignore: quality/todo-marker tracked in #12\n// TODO: later\nlet x = 1; // retake-ignore: holistic/panic,quality/x ok */\n";

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

    #[test]
    fn the_reason_is_the_rest_of_the_comment() {
        assert_eq!(
            suppression_reason(TEXT, 3, "quality/todo-marker").as_deref(),
            Some("tracked in #12")
        );
        assert_eq!(
            suppression_reason(TEXT, 4, "holistic/panic").as_deref(),
            Some("ok")
        );
        assert_eq!(
            suppression_reason("x // retake-ignore: a/b\n", 1, "a/b").as_deref(),
            Some("")
        );
    }
}
