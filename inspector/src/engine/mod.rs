//! The rule engine: rules with fixed metadata, run over a scope that is walked once.
//!
//! A rule says which files it wants with a cheap pre-filter ([`Rule::wants`]); only those files
//! are handed to [`Rule::check_file`]. The file pass spreads files over worker threads; a Rust
//! file's syntax tree is built at most once per process however many rules read it
//! ([`SourceFile::rust_ast`]) and dropped with its file, so memory stays bounded. Project-level
//! checks (specs, test runs, cross-module comparisons) use [`Rule::check_project`], reading
//! the facts their `check_file` kept ([`Sink::keep`]) rather than parsing files again. Every
//! report then goes through [`finish`]: suppressions marked, a session's `--filter` applied,
//! findings grouped by the requested dimensions — whichever backend found them.

mod cache;
mod context;
pub mod decisions;
pub mod diff;
pub(crate) mod file_pass;
pub mod git;
#[cfg(test)]
mod hostile_tests;
pub mod limits;
mod memo;
pub(crate) mod process;
mod progress;
pub(crate) mod run;
mod scope_filter;
mod skeleton;
mod source;
mod step_aside;
mod suppress;
#[cfg(test)]
pub(crate) mod testing;
mod triage;
mod unread;
pub(crate) mod walk;

pub use context::{Context, ContextError, HANDOVER_PATH, REPO_CONFIG_PATH, REPO_FILES};
pub use decisions::{Decisions, DecisionsError, DECISIONS_PATH};
pub use diff::{Changes, FileChange};
pub use git::{
    default_session_base, file_at_revision, file_at_revision_or_shipped, files_at_revision,
    GitError,
};
pub use memo::Memo;
pub use progress::Progress;
pub use run::inspect;
pub(crate) use source::{is_fixture_path, is_test_data_path};
pub use source::{is_test_path, Language, SourceFile};
pub(crate) use step_aside::step_aside;
pub use step_aside::StandIn;
pub use suppress::{is_suppressed, mark_suppressed, suppression_reason, ADDED_BY_CHANGE, IN_CODE};
pub use triage::finish;
pub use unread::{UnreadChange, IGNORED};
pub use walk::{walk, walk_within, Walked};

use protocol::{Category, Claim, Dimension, Location, Severity};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Everything `retake rules` lists about a rule; fixed at compile time.
#[derive(Debug)]
pub struct RuleMeta {
    /// `inspector-kind/name`, e.g. `quality/todo-marker`.
    pub id: &'static str,
    /// The finding category ([`Category::DeadCode`]).
    pub category: Category,
    /// Default severity.
    pub severity: Severity,
    /// Languages it applies to; empty means it is not tied to source files (spec or project rules).
    pub languages: &'static [Language],
    /// Review dimensions.
    pub dimensions: &'static [Dimension],
    /// One-line explanation.
    pub explanation: &'static str,
}

/// One place a rule fired, before it becomes a [`protocol::Finding`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    /// Where.
    pub location: Location,
    /// What is wrong, specifically.
    pub description: String,
    /// The snippet or symbol the fingerprint is computed from (never the line number).
    pub key: String,
    /// How to fix it.
    pub suggestion: Option<String>,
    /// Replaces the rule's default severity for this hit (e.g. partial vs missing).
    pub severity: Option<Severity>,
    /// Replaces the rule's category for this hit: an analyzer's lint that says what another
    /// Inspector's rule says takes that rule's category, so the Auditor's dedup (same place,
    /// same category) makes the two one finding.
    pub category: Option<String>,
    /// Why the code itself says this is deliberate (a match arm that names the cases it refuses
    /// and says why, a test named for what it compares): the finding is reported suppressed
    /// with this reason — unless the change under review wrote the line, since an excuse the
    /// change can write itself never silences the gate on it (`suppress::IN_CODE`).
    pub excuse: Option<String>,
}

impl Hit {
    /// A hit at `location` with `description`, fingerprinted by `key`.
    pub fn new(location: Location, description: impl Into<String>, key: impl Into<String>) -> Hit {
        Hit {
            location,
            description: description.into(),
            key: key.into(),
            suggestion: None,
            severity: None,
            category: None,
            excuse: None,
        }
    }

    /// Adds a suggestion.
    pub fn suggest(mut self, suggestion: impl Into<String>) -> Hit {
        self.suggestion = Some(suggestion.into());
        self
    }

    /// Overrides the rule's category.
    pub fn with_category(mut self, category: Category) -> Hit {
        self.category = Some(category.into());
        self
    }

    /// Says why the code declares this deliberate (see [`Hit::excuse`]).
    pub fn excused(mut self, why: impl Into<String>) -> Hit {
        self.excuse = Some(why.into());
        self
    }

    /// Overrides the rule's default severity.
    pub fn with_severity(mut self, severity: Severity) -> Hit {
        self.severity = Some(severity);
        self
    }
}

/// What a rule produces: hits, plus notes and claims for the report, and the facts its
/// [`Rule::check_file`] keeps for its [`Rule::check_project`].
#[derive(Debug, Default)]
pub struct Sink {
    /// Findings-to-be.
    pub hits: Vec<Hit>,
    /// Advisory notes (CPF note form).
    pub notes: Vec<String>,
    /// Structured claims for the Auditor.
    pub claims: Vec<Claim>,
    /// Commands `--no-exec` kept from running (`cargo check`), said once per Inspector.
    pub not_run: Vec<String>,
    /// Other rules' hits this rule's hits replace (see [`Sink::stand_in`]).
    pub stand_ins: Vec<StandIn>,
    kept: Kept,
    file_pass_done: bool,
}

/// Facts kept by [`Sink::keep`], of any serializable type the rule chooses: each one encoded
/// when kept and tagged with its type's name, so that a file's results can go into the
/// per-file result cache (`cache.rs`) and come back as they were.
#[derive(Default, Clone, Serialize, Deserialize)]
struct Kept(Vec<Fact>);

/// One kept fact: its type's name and its encoding.
#[derive(Clone, Serialize, Deserialize)]
struct Fact {
    tag: String,
    #[serde(with = "cache::bytes")]
    bytes: Vec<u8>,
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kept({} facts)", self.0.len())
    }
}

impl Sink {
    /// Records a hit.
    pub fn hit(&mut self, hit: Hit) {
        self.hits.push(hit);
    }

    /// Records a note.
    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    /// Records a command that `--no-exec` kept from running (`the test command`, `cargo
    /// check`); the engine turns all of an Inspector's into one note.
    pub fn not_run(&mut self, what: impl Into<String>) {
        self.not_run.push(what.into());
    }

    /// Says that this rule's hit on `path`, lines `first..=last`, says what `rule` says there:
    /// `rule`'s hits on those lines step aside for it (`engine::step_aside`), so the problem is
    /// reported once, by the more precise of the two.
    pub fn stand_in(&mut self, rule: &'static str, path: &str, first: u32, last: u32) {
        self.stand_ins.push(StandIn {
            rule,
            path: path.to_string(),
            lines: (first, last.max(first)),
        });
    }

    /// Keeps a fact about the file being checked for this rule's [`Rule::check_project`]. Rules
    /// that compare files take what they need from each file's syntax tree here, in the
    /// (parallel) file pass where the tree is at hand, instead of parsing every file again in
    /// `check_project`: no tree outlives its file. Facts are plain serializable data.
    pub fn keep<T: Serialize + 'static>(&mut self, fact: T) {
        match protocol::wire::encode_cached(&fact) {
            Ok(bytes) => self.kept.0.push(Fact {
                tag: std::any::type_name::<T>().to_string(),
                bytes,
            }),
            // bincode encodes any derived plain-data value; a failure is a bug in the fact's
            // type, said loudly rather than silently losing findings.
            Err(e) => tracing::error!(fact = std::any::type_name::<T>(), "cannot keep: {e}"),
        }
    }

    /// The facts of type `T` that `rule`'s [`Rule::check_file`] kept, in file order (taken out
    /// of the sink). When the engine's file pass has not run on this sink — `check_project`
    /// called on its own, as a rule's unit test does — it runs `rule`'s file pass over `ctx`
    /// first, on this thread, so the rule sees the same facts either way.
    pub fn kept<T: DeserializeOwned + 'static>(
        &mut self,
        ctx: &Context,
        rule: &dyn Rule,
    ) -> Vec<T> {
        if !self.file_pass_done {
            for file in &ctx.files {
                if sees(rule, file) {
                    rule.check_file(file, self);
                }
            }
            self.file_pass_done = true;
        }
        let tag = std::any::type_name::<T>();
        let (mine, others): (Vec<_>, Vec<_>) = std::mem::take(&mut self.kept.0)
            .into_iter()
            .partition(|fact| fact.tag == tag);
        self.kept.0 = others;
        mine.into_iter()
            .filter_map(|fact| protocol::wire::decode_cached::<T>(&fact.bytes).ok())
            .collect()
    }

    /// [`Sink::kept`] for facts kept as `(repository-relative path, fact)` pairs, by path.
    pub fn kept_by_path<T: DeserializeOwned + 'static>(
        &mut self,
        ctx: &Context,
        rule: &dyn Rule,
    ) -> HashMap<String, T> {
        self.kept::<(String, T)>(ctx, rule).into_iter().collect()
    }

    /// Whether the sink holds nothing at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.hits.is_empty()
            && self.notes.is_empty()
            && self.claims.is_empty()
            && self.not_run.is_empty()
            && self.stand_ins.is_empty()
            && self.kept.0.is_empty()
    }

    /// Appends everything `other` holds after what this sink holds.
    pub(crate) fn append(&mut self, mut other: Sink) {
        self.hits.append(&mut other.hits);
        self.notes.append(&mut other.notes);
        self.claims.append(&mut other.claims);
        self.not_run.append(&mut other.not_run);
        self.stand_ins.append(&mut other.stand_ins);
        self.kept.0.append(&mut other.kept.0);
    }

    /// Marks the engine's file pass as done, so [`Sink::kept`] does not run it again.
    pub(crate) fn file_pass_done(&mut self) {
        self.file_pass_done = true;
    }
}

/// How much of a Rust file's syntax tree a rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeUse {
    /// Statements and expressions: the full tree ([`SourceFile::rust_ast`]).
    Full,
    /// Items only — imports, type definitions, signatures, attributes: the item-level tree
    /// ([`SourceFile::rust_items`]) is enough, and the rule calls nothing else.
    Items,
}

/// Whether `rule` checks `file`: the file's role must be one the rule's dimensions are about,
/// and the rule's own pre-filter ([`Rule::wants`]) must accept it. A performance rule judges
/// what code costs where it runs for users — in a library or a program; a test, an example, a
/// benchmark or documentation runs by hand or in CI, where that cost is nobody's, and its
/// shape (a demo's detached worker threads, a test's clones) is chosen for clarity. Test data
/// is no code at all: no rule reads it.
pub(crate) fn sees(rule: &dyn Rule, file: &SourceFile) -> bool {
    if file.role == protocol::project::FileRole::TestData {
        return false;
    }
    let runs_for_users = matches!(
        file.role,
        protocol::project::FileRole::Library | protocol::project::FileRole::Program
    );
    (runs_for_users || !rule.meta().dimensions.contains(&Dimension::Performance))
        && rule.wants(file)
}

/// A rule of the catalog.
pub trait Rule: Send + Sync {
    /// The rule's fixed metadata.
    fn meta(&self) -> &'static RuleMeta;

    /// How much of a Rust file's tree the rule reads. When every rule that wants a file reads
    /// items only, the file pass lets [`SourceFile::rust_items`] build the cheaper item-level
    /// tree; otherwise the full tree is built once and serves both.
    fn tree_use(&self) -> TreeUse {
        TreeUse::Full
    }

    /// Cheap pre-filter: whether [`Rule::check_file`] should see this file at all. The default
    /// accepts files in one of the rule's languages; rules override it with a substring test so
    /// that files which cannot match are never parsed.
    fn wants(&self, file: &SourceFile) -> bool {
        file.language
            .is_some_and(|lang| self.meta().languages.contains(&lang))
    }

    /// Checks one file.
    fn check_file(&self, _file: &SourceFile, _out: &mut Sink) {}

    /// Checks the scope as a whole (specs, test runs, comparisons across modules).
    fn check_project(&self, _ctx: &Context, _out: &mut Sink) {}
}
