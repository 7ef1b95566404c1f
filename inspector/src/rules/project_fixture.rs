//! Test support for project-level rules: run one rule's project pass over in-memory files, the
//! way the consistency and cross-file holistic rules are tested.

use crate::engine::{Context, Rule, Sink, SourceFile};
use std::path::Path;

/// The sink of `rule`'s project pass over `files` (path, text) in a repository at `/r`.
pub(crate) fn project_sink(rule: &dyn Rule, files: &[(&str, &str)]) -> Sink {
    let ctx = Context::from_files(
        Path::new("/r"),
        files.iter().map(|(p, t)| SourceFile::new(*p, *t)).collect(),
        crate::spec::Specs::default(),
    );
    let mut sink = Sink::default();
    rule.check_project(&ctx, &mut sink);
    sink
}

/// The hits of `rule`'s project pass that the code does not excuse — what a review of the
/// whole repository reports as findings — as (path, line or 0, description).
pub(crate) fn project_hits(rule: &dyn Rule, files: &[(&str, &str)]) -> Vec<(String, u32, String)> {
    project_sink(rule, files)
        .hits
        .into_iter()
        .filter(|h| h.excuse.is_none())
        .map(|h| (h.location.path, h.location.line.unwrap_or(0), h.description))
        .collect()
}

/// The sink of `rule` over `files` (path, text) written to a temporary repository: the file pass
/// on every file the rule sees ([`crate::engine::sees`]), then the project pass — hits the code
/// excuses included.
pub(crate) fn sink_on_disk(rule: &dyn Rule, files: &[(&str, &str)]) -> Sink {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, text) in files {
        let at = dir.path().join(path);
        std::fs::create_dir_all(at.parent().expect("parent")).expect("mkdir");
        std::fs::write(at, text).expect("write");
    }
    let ctx = Context::from_files(
        dir.path(),
        files.iter().map(|(p, t)| SourceFile::new(*p, *t)).collect(),
        crate::spec::Specs::default(),
    );
    let mut sink = Sink::default();
    for file in ctx.files.iter().filter(|f| crate::engine::sees(rule, f)) {
        rule.check_file(file, &mut sink);
    }
    sink.file_pass_done();
    rule.check_project(&ctx, &mut sink);
    sink
}

/// The hits of [`sink_on_disk`], as (path, line or 0), sorted.
pub(crate) fn hits_on_disk(rule: &dyn Rule, files: &[(&str, &str)]) -> Vec<(String, u32)> {
    let mut found: Vec<(String, u32)> = sink_on_disk(rule, files)
        .hits
        .into_iter()
        .map(|h| (h.location.path, h.location.line.unwrap_or(0)))
        .collect();
    found.sort();
    found
}

/// Each hit of `sink` as (path, whether the code excuses it), in the sink's order.
pub(crate) fn excused_by_path(sink: &Sink) -> Vec<(&str, bool)> {
    sink.hits
        .iter()
        .map(|h| (h.location.path.as_str(), h.excuse.is_some()))
        .collect()
}
