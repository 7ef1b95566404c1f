//! `retake rules`: the rule catalog, one rule per line.

use std::io::Write;

/// Prints every rule: id, category, severity, languages, dimensions, explanation.
pub fn run() -> anyhow::Result<u8> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<36} {:<28} {:<3} {:<34} {:<30} EXPLANATION",
        "RULE", "CATEGORY", "SEV", "LANGUAGES", "DIMENSIONS"
    )?;
    for (_, meta) in inspector::rules::catalog() {
        let langs: Vec<&str> = meta.languages.iter().map(|l| l.as_str()).collect();
        let dims: Vec<&str> = meta.dimensions.iter().map(|d| d.as_str()).collect();
        let langs = if langs.is_empty() {
            "spec/project".to_string()
        } else {
            langs.join(",")
        };
        writeln!(
            out,
            "{:<36} {:<28} {:<3} {:<34} {:<30} {}",
            meta.id,
            meta.category,
            meta.severity.letter(),
            langs,
            dims.join(","),
            meta.explanation
        )?;
    }
    Ok(0)
}
