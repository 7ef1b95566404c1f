//! The prompt an agent backend receives: a template per Inspector kind (the mandate in chapter
//! 02's words, then placeholders), the user's override when configured, filled from the
//! review context. Every part is capped so a large scope cannot make an unbounded prompt.

use crate::engine::git::session_diff;
use crate::engine::Context;
use crate::spec::features_for;
use protocol::message::{AgentSpec, AgentTransport};
use protocol::InspectorKind;

/// The placeholders a template may use; any other `{{…}}` text stays as written.
pub const PLACEHOLDERS: [&str; 7] = [
    "{{scope}}",
    "{{dimensions}}",
    "{{files}}",
    "{{diff}}",
    "{{design}}",
    "{{sources}}",
    "{{format}}",
];

const MAX_FILES_LISTED: usize = 5000;
const MAX_DIFF_BYTES: usize = 200 * 1024;
const MAX_DESIGN_BYTES: usize = 64 * 1024;
const MAX_SOURCE_BYTES: usize = 256 * 1024;

/// What the reply must look like; the same for every kind.
const FORMAT: &str = "\
Answer with a report in CPF and nothing else:
VERDICT:GO | CONDITIONAL | NO-GO
ISSUES:
<severity>|<category>|<path>:<line>|<what is wrong, specifically>
NOTES:
<one advisory observation per line>

<severity> is one letter: C (critical), H (high), M (medium), L (low). <path> is relative to the
repository root. Write `\\|` for a pipe inside a field. With no issues, write VERDICT:GO and omit ISSUES.";

/// The built-in template of `kind` (shipped as `deploy/prompts/<kind>.md`).
pub fn default_template(kind: InspectorKind) -> &'static str {
    match kind {
        InspectorKind::Rulebase => include_str!("../../../deploy/prompts/rulebase.md"),
        InspectorKind::Interface => include_str!("../../../deploy/prompts/interface.md"),
        InspectorKind::Test => include_str!("../../../deploy/prompts/test.md"),
        InspectorKind::Quality => include_str!("../../../deploy/prompts/quality.md"),
        InspectorKind::Consistency => include_str!("../../../deploy/prompts/consistency.md"),
        InspectorKind::Holistic => include_str!("../../../deploy/prompts/holistic.md"),
    }
}

/// The prompt for `kind` over `ctx`: the configured template (else the built-in one) with its
/// placeholders filled.
pub fn render_prompt(kind: InspectorKind, ctx: &Context, spec: &AgentSpec) -> String {
    let template = spec
        .prompt_template
        .as_deref()
        .unwrap_or_else(|| default_template(kind));
    let reads_files = matches!(spec.transport, AgentTransport::Command { .. });
    // An endpoint is asked for a JSON object (`structured`); a command answers in CPF.
    let format = if !reads_files {
        super::structured::FORMAT.to_string()
    } else if spec.question_timeout_ms > 0 {
        // Someone answers questions in this review: the agent may ask instead of guessing.
        format!("{FORMAT}{}", super::questions::INVITATION)
    } else {
        FORMAT.to_string()
    };
    let fill = |placeholder: &str| match placeholder {
        "{{scope}}" => ctx.scope.label(),
        "{{dimensions}}" => dimensions(ctx),
        "{{files}}" => files(ctx),
        "{{diff}}" => diff(ctx),
        "{{design}}" => design(ctx),
        "{{sources}}" => sources(ctx, reads_files),
        _ => format.clone(),
    };
    // Only what the template asks for is computed (a diff is not read for a template without
    // `{{diff}}`); one pass, so text filled in is never expanded again.
    let values: Vec<(&str, String)> = PLACEHOLDERS
        .iter()
        .filter(|p| template.contains(**p))
        .map(|p| (*p, fill(p)))
        .collect();
    let values: Vec<(&str, &str)> = values.iter().map(|(p, v)| (*p, v.as_str())).collect();
    protocol::prompt::fill(template, &values)
}

fn dimensions(ctx: &Context) -> String {
    if ctx.options.dimensions.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = ctx.options.dimensions.iter().map(|d| d.as_str()).collect();
    format!(
        "Report only findings in these review dimensions: {}.",
        names.join(", ")
    )
}

fn files(ctx: &Context) -> String {
    if ctx.files.is_empty() {
        return "(no files in scope)".to_string();
    }
    let mut list: Vec<String> = ctx
        .files
        .iter()
        .take(MAX_FILES_LISTED)
        .map(|f| format!("- {}", f.rel_path))
        .collect();
    if ctx.files.len() > MAX_FILES_LISTED {
        list.push(format!(
            "- … and {} more",
            ctx.files.len() - MAX_FILES_LISTED
        ));
    }
    list.join("\n")
}

fn diff(ctx: &Context) -> String {
    let Some(changes) = &ctx.changes else {
        return "(not a session review: the whole scope is under review)".to_string();
    };
    let mut text = match session_diff(&ctx.root, &changes.merge_base) {
        Ok(diff) => capped(&diff, MAX_DIFF_BYTES),
        Err(e) => format!("(the diff is unavailable: {e})"),
    };
    let new: Vec<&str> = changes
        .files
        .iter()
        .filter(|(_, c)| c.new_file)
        .map(|(p, _)| p.as_str())
        .collect();
    if !new.is_empty() {
        text.push_str("\nNew files (every line added): ");
        text.push_str(&new.join(", "));
    }
    format!(
        "Against {} (merge base {}):\n```diff\n{}\n```",
        changes.base, changes.merge_base, text
    )
}

fn design(ctx: &Context) -> String {
    let mut out = String::new();
    for feature in features_for(ctx) {
        let path = feature.path_of("design.md");
        let Ok(text) = std::fs::read_to_string(ctx.root.join(&path)) else {
            continue;
        };
        let room = MAX_DESIGN_BYTES.saturating_sub(out.len());
        if room == 0 {
            out.push_str("\n(further design documents omitted)");
            break;
        }
        out.push_str(&format!("--- {path}\n{}\n", capped(&text, room)));
    }
    if out.is_empty() {
        "(no design document covers this scope)".to_string()
    } else {
        out
    }
}

/// The sources themselves for an endpoint, which cannot read the repository; a pointer to the
/// working directory for a command, which can.
fn sources(ctx: &Context, reads_files: bool) -> String {
    if reads_files {
        return "Your working directory is the repository root: read the files listed above."
            .to_string();
    }
    let mut out = String::from("Sources:\n");
    let mut omitted = 0;
    for file in &ctx.files {
        let block = format!("--- {}\n{}\n", file.rel_path, file.text);
        if out.len() + block.len() > MAX_SOURCE_BYTES {
            omitted += 1;
            continue;
        }
        out.push_str(&block);
    }
    if omitted > 0 {
        out.push_str(&format!(
            "({omitted} file(s) omitted: the prompt's size limit)\n"
        ));
    }
    out
}

/// At most `max` bytes of `text`, cut at a character boundary and marked when cut.
fn capped(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n(cut at {max} bytes)", &text[..end])
}
