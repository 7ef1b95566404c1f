//! Test support for rule tests: run one rule over one in-memory file the way the engine does.

use crate::engine::{sees, Hit, Rule, Sink, SourceFile};

/// The sink of `rule` over a file at `path` holding `text`, honouring the rule's pre-filter and
/// the roles it checks ([`sees`]).
pub(crate) fn check(rule: &dyn Rule, path: &str, text: &str) -> Sink {
    let file = SourceFile::new(path, text);
    let mut sink = Sink::default();
    if sees(rule, &file) {
        rule.check_file(&file, &mut sink);
    }
    sink
}

/// The hits of `rule` over one file that the code does not excuse — what a review of the
/// whole repository reports as findings — as (line, description) pairs.
pub(crate) fn hits(rule: &dyn Rule, path: &str, text: &str) -> Vec<(u32, String)> {
    check(rule, path, text)
        .hits
        .into_iter()
        .filter(|h| h.excuse.is_none())
        .map(|h: Hit| (h.location.line.unwrap_or(0), h.description))
        .collect()
}

/// The hits of `rule` over one file that the code excuses ([`Hit::excuse`]), as (line,
/// excuse) pairs: suppressed unless the change under review wrote the line.
pub(crate) fn excused(rule: &dyn Rule, path: &str, text: &str) -> Vec<(u32, String)> {
    check(rule, path, text)
        .hits
        .into_iter()
        .filter_map(|h: Hit| Some((h.location.line.unwrap_or(0), h.excuse?)))
        .collect()
}
