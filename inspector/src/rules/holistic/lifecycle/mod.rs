//! Lifecycle rules: work and memory that nothing ever reclaims.

pub(super) mod detached_spawn;
pub(super) mod loops;
pub(super) mod unbounded_channel;
pub(super) mod unbounded_growth;
