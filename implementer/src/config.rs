//! The task runner's settings (the seed's `review-loop.json`) and the commands behind Q7–Q9.

use serde::{Deserialize, Serialize};

/// How the task runner iterates and what its judge looks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoopConfig {
    /// Iterations before giving up (at least 1).
    pub max_iterations: u32,
    /// Pause before a RETRY re-runs the same prompt.
    pub retry_delay_ms: u64,
    /// At the limit: escalate (awaiting response) instead of ending INCOMPLETE.
    pub escalate_on_max: bool,
    /// RETRYs allowed for timeouts and executor errors; the next one is a REJECT.
    pub max_retries: u32,
    /// Omission markers (Q3). A pattern with a comment marker matches anywhere in a line; a bare
    /// one (`...`) only as a whole line or the whole or trailing text of a comment.
    pub omission_patterns: Vec<String>,
    /// Early termination claims (Q6), matched case-sensitively in the output outside code blocks.
    pub early_termination_patterns: Vec<String>,
}

impl Default for LoopConfig {
    fn default() -> Self {
        LoopConfig {
            max_iterations: 3,
            retry_delay_ms: 1000,
            escalate_on_max: true,
            max_retries: 2,
            omission_patterns: words(&[
                "...",
                "// 残り省略",
                "// etc.",
                "// 以下同様",
                "/* 省略 */",
                "// ...",
                "// remaining",
                "// and so on",
            ]),
            early_termination_patterns: words(&[
                "これで完了です",
                "以上です",
                "完了しました",
                "This completes",
                "Done.",
                "That's all",
            ]),
        }
    }
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| (*w).to_string()).collect()
}

/// The commands that decide the optional criteria, each an argv run in the repository; a
/// criterion is judged exactly when its command is given.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CheckCommands {
    /// Q7: the test command (`["cargo", "test"]`).
    pub test: Option<Vec<String>>,
    /// Q8: the lint command (`["cargo", "clippy", "--", "-D", "warnings"]`).
    pub lint: Option<Vec<String>>,
    /// Q9: the type-check or build command (`["cargo", "check"]`).
    pub typecheck: Option<Vec<String>>,
    /// Time limit per command; 0 means the default of 600 seconds.
    pub timeout_secs: u64,
}

impl CheckCommands {
    /// The time limit per command.
    pub fn timeout(&self) -> std::time::Duration {
        let secs = if self.timeout_secs == 0 {
            600
        } else {
            self.timeout_secs
        };
        std::time::Duration::from_secs(secs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_seeds_and_keys_can_be_overridden() {
        let d = LoopConfig::default();
        assert_eq!(
            (d.max_iterations, d.retry_delay_ms, d.max_retries),
            (3, 1000, 2)
        );
        assert!(d.escalate_on_max);
        assert_eq!(d.early_termination_patterns.len(), 6);
        assert_eq!(d.omission_patterns[0], "...");
        let c: LoopConfig =
            toml::from_str("max_iterations = 5\nescalate_on_max = false").expect("toml");
        assert_eq!((c.max_iterations, c.escalate_on_max), (5, false));
        assert_eq!(c.retry_delay_ms, 1000);
        assert!(toml::from_str::<LoopConfig>("max_iteration = 5").is_err());
        assert_eq!(CheckCommands::default().timeout().as_secs(), 600);
    }
}
