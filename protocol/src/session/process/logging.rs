//! Logging for every retake binary: `tracing` events on standard error, human-readable or one
//! JSON object per line, filtered by `RUST_LOG` (default: warnings and errors).

/// The log output format (`--log-format`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// The filter used when `RUST_LOG` is unset or invalid.
const DEFAULT_FILTER: &str = "warn";

/// Installs the global subscriber: `format` on standard error, filtered by `RUST_LOG`. Call it
/// once, first thing in `main`; a second call leaves the first subscriber in place.
pub fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_FILTER));
    let ansi = colored(
        std::io::IsTerminal::is_terminal(&std::io::stderr()),
        std::env::var_os("NO_COLOR").is_some(),
    );
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(std::io::stderr);
    // `try_init` fails only when a subscriber is already installed, which is then kept.
    let _kept = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

/// Whether log lines carry colour: only on a terminal, and never under `NO_COLOR` — a CI log or a
/// file gets plain text.
fn colored(stderr_is_terminal: bool, no_color: bool) -> bool {
    stderr_is_terminal && !no_color
}

#[cfg(test)]
mod tests {
    use super::colored;

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        assert!(colored(true, false));
        assert!(!colored(false, false), "a file or pipe gets plain text");
        assert!(!colored(true, true), "NO_COLOR wins on a terminal");
    }
}
