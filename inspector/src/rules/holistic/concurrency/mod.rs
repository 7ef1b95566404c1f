//! Concurrency rules beyond locks: races on the file system.

pub(super) mod check_then_act;
