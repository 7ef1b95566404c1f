//! The test command runs through the engine's process runner (argv, own process group,
//! parent-death signal, timeout that kills the group); this path is kept for the test rules.

pub(super) use crate::engine::process::{run, Finished, RunError};
