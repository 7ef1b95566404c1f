//! Test support for the spec-aware rules: a repository written to a temp dir, its review
//! context, and one project rule run over it the way the engine runs it.

use crate::engine::{Context, Rule, Sink};
use protocol::message::InspectOptions;
use protocol::Scope;

/// Writes `files` (path, text) under a fresh temp dir.
pub(crate) fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (rel, body) in files {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, body).expect("write");
    }
    dir
}

/// The context of a review of `dir` over `scope` with `options`.
pub(crate) fn context_with(
    dir: &tempfile::TempDir,
    scope: Scope,
    options: InspectOptions,
) -> Context {
    Context::build(dir.path(), &scope, &options).expect("context")
}

/// The context of a whole-repository review of `dir` that runs nothing.
pub(crate) fn context(dir: &tempfile::TempDir) -> Context {
    let options = InspectOptions {
        no_exec: true,
        ..InspectOptions::default()
    };
    context_with(dir, Scope::repository(), options)
}

/// What `rule`'s project check reports over `ctx`.
pub(crate) fn project(rule: &dyn Rule, ctx: &Context) -> Sink {
    let mut sink = Sink::default();
    rule.check_project(ctx, &mut sink);
    sink
}

/// The hits of a sink as (location text, description) pairs.
pub(crate) fn described(sink: &Sink) -> Vec<(String, String)> {
    sink.hits
        .iter()
        .map(|h| (h.location.to_string(), h.description.clone()))
        .collect()
}
