//! Operations rules: what makes code fail in production rather than in review.

pub(super) mod client_without_timeout;
pub(super) mod exit_in_library;
pub(super) mod hardcoded_endpoint;
pub(super) mod retry_without_backoff;
