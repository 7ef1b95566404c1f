//! The rule engine: rules with fixed metadata, run over a scope that is walked and parsed once.
//!
//! A rule says which files it wants with a cheap pre-filter ([`Rule::wants`]); only those files
//! are handed to [`Rule::check_file`], and a Rust file's syntax tree is built at most once per
//! process however many rules read it ([`SourceFile::rust_ast`]). Project-level checks (specs,
//! test runs, cross-module comparisons) use [`Rule::check_project`]. Every report then goes
//! through [`finish`]: suppressions marked, a session's `--filter` applied, findings grouped by
//! the requested dimensions — whichever backend found them.

mod context;
pub mod decisions;
pub mod diff;
pub mod git;
pub(crate) mod process;
pub(crate) mod run;
mod scope_filter;
mod source;
mod suppress;
#[cfg(test)]
pub(crate) mod testing;
mod triage;
mod walk;

pub use context::{Context, ContextError};
pub use decisions::{Decisions, DecisionsError};
pub use diff::{Changes, FileChange};
pub use git::{default_session_base, GitError};
pub use run::inspect;
pub use source::{is_test_path, Language, SourceFile};
pub use suppress::{is_suppressed, mark_suppressed, suppression_reason};
pub use triage::finish;
pub use walk::{walk, Walked};

use protocol::{Claim, Dimension, Location, Severity};

/// Everything `retake rules` lists about a rule; fixed at compile time.
#[derive(Debug)]
pub struct RuleMeta {
    /// `inspector-kind/name`, e.g. `quality/todo-marker`.
    pub id: &'static str,
    /// The finding category (`dead-code`).
    pub category: &'static str,
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
#[derive(Debug, Clone, PartialEq, Eq)]
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
        }
    }

    /// Adds a suggestion.
    pub fn suggest(mut self, suggestion: impl Into<String>) -> Hit {
        self.suggestion = Some(suggestion.into());
        self
    }

    /// Overrides the rule's default severity.
    pub fn with_severity(mut self, severity: Severity) -> Hit {
        self.severity = Some(severity);
        self
    }
}

/// What a rule produces: hits, plus notes and claims for the report.
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
}

/// A rule of the catalog.
pub trait Rule: Send + Sync {
    /// The rule's fixed metadata.
    fn meta(&self) -> &'static RuleMeta;

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

/// TEMP profiling.
#[macro_export]
#[doc(hidden)]
macro_rules! prof {
    ($msg:expr; $($k:ident = $v:expr),*) => {
        if std::env::var_os("RETAKE_PROFILE").is_some() {
            let mut s = String::from($msg);
            $( s.push_str(&format!(" {}={}", stringify!($k), $v)); )*
            eprintln!("{s}");
        }
    };
}
pub(crate) use prof;
