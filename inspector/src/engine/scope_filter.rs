//! Which repository-relative paths a scope covers.

use super::context::ContextError;
use super::diff::Changes;
use crate::spec::Specs;
use globset::{Glob, GlobSetBuilder};
use protocol::Scope;
use std::collections::BTreeSet;

/// The paths a scope accepts.
pub(super) enum ScopeFilter {
    /// Everything.
    All,
    /// Files matching `--paths` globs.
    Globs(globset::GlobSet),
    /// Declared spec paths: files, or folders whose files all count.
    Paths(Vec<String>),
    /// Exactly these files (a session's changed files).
    Files(BTreeSet<String>),
}

impl ScopeFilter {
    /// The filter of `scope`; a session's changed files come from `changes`.
    pub(super) fn new(
        scope: &Scope,
        specs: &Specs,
        changes: Option<&Changes>,
    ) -> Result<ScopeFilter, ContextError> {
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
            Scope::Session { .. } => Ok(ScopeFilter::Files(
                changes
                    .map(|c| c.files.keys().cloned().collect())
                    .unwrap_or_default(),
            )),
            other => Ok(ScopeFilter::Paths(specs.scope_paths(other)?)),
        }
    }

    /// The only folders (repository-relative) a walk needs to enter, when the scope names its
    /// files one by one: a session's changed files are found without walking the rest of the
    /// tree. `None`: every folder may hold a file in scope.
    pub(super) fn folders(&self) -> Option<BTreeSet<String>> {
        let ScopeFilter::Files(files) = self else {
            return None;
        };
        let mut folders = BTreeSet::new();
        for file in files {
            let mut rest = file.as_str();
            while let Some((parent, _)) = rest.rsplit_once('/') {
                if !folders.insert(parent.to_string()) {
                    break;
                }
                rest = parent;
            }
        }
        Some(folders)
    }

    /// Whether the scope covers `rel`.
    pub(super) fn accepts(&self, rel: &str) -> bool {
        match self {
            ScopeFilter::All => true,
            ScopeFilter::Globs(set) => set.is_match(rel),
            ScopeFilter::Files(files) => files.contains(rel),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_files_need_only_their_folders_walked() {
        let files = ["a/b/c.rs", "a/b/d.rs", "a/e.rs", "top.rs", "x/y.rs"].map(String::from);
        let filter = ScopeFilter::Files(files.into());
        let folders: Vec<String> = filter.folders().expect("folders").into_iter().collect();
        assert_eq!(folders, vec!["a", "a/b", "x"]);
        assert!(ScopeFilter::All.folders().is_none());
    }
}
