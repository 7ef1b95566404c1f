//! Coupling rules: dependencies on the environment that no signature shows.

pub(super) mod env_everywhere;
pub(super) mod hardcoded_path;
pub(super) mod mutable_global;
