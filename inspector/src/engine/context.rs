//! The review context an Inspector works on: the scope's files (walked once), the skipped files,
//! the spec layout, and the options.

use super::source::SourceFile;
use super::walk::walk;
use crate::spec::{SpecError, Specs};
use globset::{Glob, GlobSetBuilder};
use protocol::message::InspectOptions;
use protocol::{Scope, Skipped};
use std::path::{Path, PathBuf};

/// Why a context could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ContextError {
    /// A `--paths` glob does not compile.
    #[error("invalid glob '{glob}': {reason}")]
    BadGlob {
        /// The glob.
        glob: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The spec layout is unreadable or the phase gate refused.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The scope kind is not available in this build.
    #[error("scope '{0}' is not yet available")]
    Unsupported(String),
}

/// What every rule sees.
#[derive(Debug)]
pub struct Context {
    /// Repository root.
    pub root: PathBuf,
    /// The review scope.
    pub scope: Scope,
    /// How to run.
    pub options: InspectOptions,
    /// Files in scope, sorted by path.
    pub files: Vec<SourceFile>,
    /// Files in scope that were not reviewed, with reasons.
    pub skipped: Vec<Skipped>,
    /// The spec layout (empty when the repository has none).
    pub specs: Specs,
}

impl Context {
    /// Loads the specs, resolves the scope to files and reads them.
    pub fn build(
        root: &Path,
        scope: &Scope,
        options: &InspectOptions,
    ) -> Result<Context, ContextError> {
        let specs = Specs::load(root)?;
        let filter = ScopeFilter::new(scope, &specs)?;
        let walked = walk(root, options.max_file_bytes, &|p| filter.accepts(p));
        Ok(Context {
            root: root.to_path_buf(),
            scope: scope.clone(),
            options: options.clone(),
            files: walked.files,
            skipped: walked.skipped,
            specs,
        })
    }

    /// A context over files given in memory (tests, fixtures).
    pub fn from_files(root: &Path, files: Vec<SourceFile>, specs: Specs) -> Context {
        Context {
            root: root.to_path_buf(),
            scope: Scope::repository(),
            options: InspectOptions::default(),
            files,
            skipped: Vec::new(),
            specs,
        }
    }

    /// The file at a repository-relative path, when it is in scope.
    pub fn file(&self, rel_path: &str) -> Option<&SourceFile> {
        self.files
            .binary_search_by(|f| f.rel_path.as_str().cmp(rel_path))
            .ok()
            .and_then(|i| self.files.get(i))
    }
}

/// Which repository-relative paths a scope covers.
enum ScopeFilter {
    All,
    Globs(globset::GlobSet),
    Paths(Vec<String>),
}

impl ScopeFilter {
    fn new(scope: &Scope, specs: &Specs) -> Result<ScopeFilter, ContextError> {
        match scope {
            Scope::Module { globs } if globs.is_empty() => Ok(ScopeFilter::All),
            Scope::Module { globs } => {
                let mut set = GlobSetBuilder::new();
                for g in globs {
                    let glob = Glob::new(g).map_err(|e| ContextError::BadGlob {
                        glob: g.clone(),
                        reason: e.kind().to_string(),
                    })?;
                    set.add(glob);
                }
                set.build()
                    .map(ScopeFilter::Globs)
                    .map_err(|e| ContextError::BadGlob {
                        glob: globs.join(" "),
                        reason: e.to_string(),
                    })
            }
            Scope::Session { .. } => Err(ContextError::Unsupported("session (--base)".into())),
            other => Ok(ScopeFilter::Paths(specs.scope_paths(other)?)),
        }
    }

    fn accepts(&self, rel: &str) -> bool {
        match self {
            ScopeFilter::All => true,
            ScopeFilter::Globs(set) => set.is_match(rel),
            ScopeFilter::Paths(paths) => paths.iter().any(|p| {
                let p = p.trim_end_matches('/');
                rel == p
                    || rel
                        .strip_prefix(p)
                        .is_some_and(|rest| rest.starts_with('/'))
            }),
        }
    }
}
