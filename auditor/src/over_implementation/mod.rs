//! Step 8 of the audit, over-implementation: code the design does not ask for, in the six
//! patterns of [`Pattern`], and the same question — "does the design specify this?" — put to the
//! Inspectors' own suggestions ([`simplicity`]).
//!
//! The Auditor judges from the Inspectors' evidence and the design context, never from code:
//! - **Reported directly**: a finding whose category is a pattern name (`phantom-resilience`) or
//!   `over-implementation` stands, unless the design names a symbol it cites in backticks — then
//!   the design specifies it and the finding is REMOVED.
//! - **Scope creep** (needs design files): a `file-unexpected` finding becomes an
//!   `over-implementation` finding (same agents, now Medium); a changed source file the design
//!   does not name raises one, signed `auditor`.
//! - **Told by words** (needs a design text): a finding whose description or rule carries a
//!   pattern's evidence phrase ("retry", "used once", …) raises an `over-implementation` finding
//!   beside it, signed `auditor` — the evidence finding is another problem ("no backoff") and
//!   stays. Phantom resilience and config externalization count as specified when the design uses
//!   the pattern's words at all; the other three only when the design names a symbol the finding
//!   cites (a finding citing none cannot be asked about and raises nothing).
//!
//! Without a design nothing is judged: over-implementation is relative to a design.

mod patterns;
mod simplicity;

pub use patterns::Pattern;
pub use simplicity::{simplicity, Simplicity};

use crate::category::Category;
use crate::context::AuditContext;
use crate::evidence::{backticked, issue_text, raise};
use crate::false_positives::is_generated_or_vendored;
use crate::place::normalise_path;
use crate::severity_table::is_test_code;
use patterns::first_phrase;
use protocol::{Finding, Location, Removed, Severity};

/// The severity of an over-implementation the Auditor raises or re-labels: it works, so it is not
/// High, but it is a cost someone has to carry, so a clean review it is not either.
pub const OVER_IMPLEMENTATION_SEVERITY: Severity = Severity::Medium;

/// The findings after step 8 and the findings it dropped.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OverImplementation {
    /// Kept and re-labelled findings in input order, then the raised ones.
    pub findings: Vec<Finding>,
    /// Pattern findings the design turns out to specify.
    pub removed: Vec<Removed>,
}

/// Detects the six patterns in the findings against the design context.
pub fn over_implementation(findings: Vec<Finding>, ctx: &AuditContext) -> OverImplementation {
    let has_design = !ctx.design_text.trim().is_empty();
    let mut out = OverImplementation::default();
    let mut raised = Vec::new();
    for f in findings {
        if is_pattern_category(&f.category) {
            match specified_symbol(&f, ctx) {
                Some(sym) => out.removed.push(Removed {
                    agent: f.agents_joined(),
                    reason: format!("the design specifies `{sym}`: not over-implementation"),
                    original: issue_text(&f),
                }),
                None => out.findings.push(f),
            }
            continue;
        }
        if f.category_is(Category::FileUnexpected) && outside_design(&f.location.path, ctx) {
            out.findings.push(scope_creep(f));
            continue;
        }
        if has_design {
            raised.extend(told_by_words(&f, ctx));
        }
        out.findings.push(f);
    }
    for path in &ctx.changed_files {
        let path = normalise_path(path);
        let flagged = |f: &Finding| {
            f.category_is(Category::OverImplementation) && normalise_path(&f.location.path) == path
        };
        if is_source(&path)
            && outside_design(&path, ctx)
            && !out.findings.iter().chain(&raised).any(flagged)
        {
            raised.push(raise(
                Pattern::ScopeCreep.as_str(),
                Category::OverImplementation,
                OVER_IMPLEMENTATION_SEVERITY,
                Location::file(path.clone()),
                format!("scope creep: {path} changes, but the design names no such file"),
                &path,
            ));
        }
    }
    out.findings.extend(raised);
    out
}

fn is_pattern_category(category: &str) -> bool {
    Category::OverImplementation.is(category) || Pattern::from_category(category).is_some()
}

/// A symbol the finding cites that the design names.
fn specified_symbol<'a>(f: &'a Finding, ctx: &AuditContext) -> Option<&'a str> {
    backticked(&f.description)
        .into_iter()
        .find(|s| ctx.design_mentions(s))
}

/// Whether a path is one the design could have named and did not; false without design files.
fn outside_design(path: &str, ctx: &AuditContext) -> bool {
    let path = normalise_path(path);
    !ctx.design_files.is_empty()
        && !path.is_empty()
        && !is_test_code(&path)
        && !is_generated_or_vendored(&path)
        && !ctx.design_files.iter().any(|d| normalise_path(d) == path)
}

/// Source files by extension: the files a design's Components table would name.
fn is_source(path: &str) -> bool {
    const EXTENSIONS: [&str; 16] = [
        "rs", "py", "ts", "tsx", "js", "jsx", "mjs", "go", "java", "kt", "c", "cc", "cpp", "h",
        "rb", "cs",
    ];
    path.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && !stem.ends_with('/') && EXTENSIONS.contains(&ext)
    })
}

fn scope_creep(mut f: Finding) -> Finding {
    f.description = format!(
        "scope creep: {} is not in the design ({})",
        f.location.path, f.description
    );
    f.category = Category::OverImplementation.into();
    f.rule = format!("auditor/{}", Pattern::ScopeCreep.as_str());
    f.severity = OVER_IMPLEMENTATION_SEVERITY;
    f.suggestion = Some("remove it, or add it to the design if it is wanted".into());
    f
}

/// The over-implementation a finding's words reveal, when the design does not specify it.
fn told_by_words(f: &Finding, ctx: &AuditContext) -> Option<Finding> {
    let text = format!("{} {}", f.description, f.rule);
    let (pattern, phrase) = Pattern::ALL
        .into_iter()
        .find_map(|p| first_phrase(&text, p.evidence()).map(|phrase| (p, phrase)))?;
    let specified = if pattern.judged_by_symbol() {
        let symbols = backticked(&f.description);
        symbols.is_empty() || symbols.iter().any(|s| ctx.design_mentions(s))
    } else {
        pattern
            .design_words()
            .iter()
            .any(|w| ctx.design_mentions(w))
    };
    if specified {
        return None;
    }
    let mut raised = raise(
        pattern.as_str(),
        Category::OverImplementation,
        OVER_IMPLEMENTATION_SEVERITY,
        f.location.clone(),
        format!(
            "{}: {} (\"{phrase}\": {})",
            pattern.words(),
            pattern.meaning(),
            f.description
        ),
        &f.fingerprint,
    );
    raised.suggestion = Some("remove it, or add it to the design if it is wanted".into());
    Some(raised)
}

#[cfg(test)]
mod tests;
