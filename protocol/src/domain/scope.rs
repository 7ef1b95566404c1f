//! What a review covers.

use serde::{Deserialize, Serialize};

/// How findings are limited to a session's changes (`--filter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum DiffFilter {
    /// The findings the change introduced gate (on added or rewritten lines, about a new file,
    /// a test run's result); the rest of the changed files' findings are kept apart as
    /// `InspectorReport::preexisting` ("already there"), never gating (default).
    #[default]
    Added,
    /// Changed lines and their context.
    DiffContext,
    /// Anything in a changed file.
    File,
    /// Everything.
    NoFilter,
}

/// The review scope (the Inspectors spec's table).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Scope {
    /// One feature's spec files, optionally only some of its tasks.
    Feature {
        /// The feature (folder name under `specs/`).
        feature: String,
        /// Task ids to limit to; empty means every task.
        tasks: Vec<String>,
    },
    /// Every spec's files.
    CrossCheck,
    /// Every spec with `roadmap.wave <= wave`.
    WaveCrossCheck {
        /// The highest wave included.
        wave: u32,
    },
    /// Files changed against a base revision.
    Session {
        /// The base revision.
        base: String,
        /// How findings are limited to the changes.
        filter: DiffFilter,
    },
    /// Files matching path globs; no globs means the whole repository.
    Module {
        /// The globs, relative to the repository root.
        globs: Vec<String>,
    },
}

impl Scope {
    /// The whole repository.
    pub fn repository() -> Scope {
        Scope::Module { globs: Vec::new() }
    }

    /// The CPF `SCOPE:` text: the feature name, `cross-check`, `wave-1..N`, `session:BASE`,
    /// `module:GLOB,GLOB` or `repository`.
    pub fn label(&self) -> String {
        match self {
            Scope::Feature { feature, tasks } if tasks.is_empty() => feature.clone(),
            Scope::Feature { feature, tasks } => format!("{feature} tasks:{}", tasks.join(",")),
            Scope::CrossCheck => "cross-check".to_string(),
            Scope::WaveCrossCheck { wave } => format!("wave-1..{wave}"),
            Scope::Session { base, .. } => format!("session:{base}"),
            Scope::Module { globs } if globs.is_empty() => "repository".to_string(),
            Scope::Module { globs } => format!("module:{}", globs.join(",")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_cpf_scope_forms() {
        assert_eq!(Scope::CrossCheck.label(), "cross-check");
        assert_eq!(Scope::WaveCrossCheck { wave: 3 }.label(), "wave-1..3");
        assert_eq!(Scope::repository().label(), "repository");
        let f = Scope::Feature {
            feature: "auth".into(),
            tasks: vec![],
        };
        assert_eq!(f.label(), "auth");
    }
}
