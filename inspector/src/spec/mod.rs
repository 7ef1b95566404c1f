//! The spec layout of chapter 02 (`specs/<feature>/spec.yaml`, `tasks.yaml`, `design.md`, `steering/`).

use protocol::Scope;
use std::path::Path;

/// The specs of a repository; empty when it has no `specs/` folder.
#[derive(Debug, Default)]
pub struct Specs {}

/// A spec layout that cannot be read, or a phase gate that refuses.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// A spec file is malformed.
    #[error("{path}: {reason}")]
    Malformed {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

impl Specs {
    /// Reads the spec layout under `root`.
    pub fn load(_root: &Path) -> Result<Specs, SpecError> {
        Ok(Specs {})
    }

    /// The repository-relative files and folders a spec-based scope covers.
    pub fn scope_paths(&self, _scope: &Scope) -> Result<Vec<String>, SpecError> {
        Ok(Vec::new())
    }
}
