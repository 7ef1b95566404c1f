//! Performance rules (dimension `performance`): blocking calls in async code, allocations in
//! nested loops, queries in loops.

pub(super) mod blocking_in_async;
pub(super) mod clone_in_hot_loop;
pub(super) mod query_in_loop;
