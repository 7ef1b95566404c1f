//! The wire's limits and deadlines, set from configuration by the runtime that opens sockets.

use std::time::Duration;

/// The default largest frame, 8 MiB: far above any real report, far below memory trouble.
pub const DEFAULT_MAX_FRAME: usize = 8 * 1024 * 1024;

/// The default deadline for a whole handshake.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);

/// Limits and deadlines of one connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireConfig {
    /// The largest frame accepted or sent, in bytes (default 8 MiB). Payloads are decoded under
    /// this limit rounded down to a power of two, so keep it a power of two (at least 1 KiB).
    pub max_frame: usize,
    /// The deadline for the whole handshake, on each side (default 5 s).
    pub handshake_timeout: Duration,
}

impl Default for WireConfig {
    fn default() -> Self {
        WireConfig {
            max_frame: DEFAULT_MAX_FRAME,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
        }
    }
}
