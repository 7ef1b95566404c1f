//! `retake rules`: the rule catalog, one rule per line.

use outputs::ExitCode;
use std::io::Write;

/// Prints every rule: id, category, severity (with its cap in the default profile), profile,
/// languages, dimensions, explanation.
pub fn run() -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<36} {:<28} {:<4} {:<9} {:<34} {:<30} EXPLANATION",
        "RULE", "CATEGORY", "SEV", "PROFILE", "LANGUAGES", "DIMENSIONS"
    )?;
    let profile = inspector::rules::profile::profile_of;
    let cap = |id: &str| {
        inspector::rules::profile::severity_cap(id, protocol::message::RuleProfile::Default)
    };
    for (_, meta) in inspector::rules::catalog() {
        let langs: Vec<&str> = meta.languages.iter().map(|l| l.as_str()).collect();
        let dims: Vec<&str> = meta.dimensions.iter().map(|d| d.as_str()).collect();
        let langs = if langs.is_empty() {
            "spec/project".to_string()
        } else {
            langs.join(",")
        };
        // `H>M`: High, capped at Medium in the default profile.
        let severity = match cap(meta.id) {
            Some(c) if c < meta.severity => format!("{}>{}", meta.severity.letter(), c.letter()),
            _ => meta.severity.letter().to_string(),
        };
        writeln!(
            out,
            "{:<36} {:<28} {:<4} {:<9} {:<34} {:<30} {}",
            meta.id,
            meta.category.as_str(),
            severity,
            profile(meta.id).as_str(),
            langs,
            dims.join(","),
            meta.explanation
        )?;
    }
    Ok(ExitCode::Success)
}
