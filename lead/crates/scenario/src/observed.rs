//! What a run left behind (exit code, the JSON object, the journal listing, the time, leftover
//! processes), as the checks (`check`, `run_check`) and the summaries read it.

use super::leftovers::Leftover;
use serde_json::Value;

/// What one run of `retake review` left behind.
#[derive(Debug, Clone, Default)]
pub struct Observed {
    /// The exit code; none when it was killed or died of a signal.
    pub exit_code: Option<i32>,
    /// It ran past twice its time bound and was killed.
    pub timed_out: bool,
    /// Its `--format json` output, when it printed one.
    pub json: Option<Value>,
    /// The report names journaled under `.retake/runs/<run_id>/reports/` (file stems).
    pub journal: Vec<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Processes carrying the run's tag after it ended.
    pub leftovers: Vec<Leftover>,
    /// The last line it wrote to standard error (its error, when it failed).
    pub stderr_tail: String,
    /// What went wrong around the review rather than in it (a container scenario's stack did
    /// not start or heal, an action could not be done); each is a failed check.
    pub problems: Vec<String>,
}

impl Observed {
    /// The JSON `notes`.
    pub fn notes(&self) -> Vec<&str> {
        self.strings("notes")
    }

    /// The JSON `qualifiers`.
    pub fn qualifiers(&self) -> Vec<&str> {
        self.strings("qualifiers")
    }

    /// A string field of the JSON object (`verdict`, `decision`, `run_id`).
    pub fn field(&self, key: &str) -> Option<&str> {
        self.json.as_ref()?.get(key)?.as_str()
    }

    /// Re-spawns of a logical actor in the JSON `restarts` object (absent counts 0).
    pub fn restarts_of(&self, actor: &str) -> u32 {
        self.json
            .as_ref()
            .and_then(|j| j.get("restarts")?.get(actor)?.as_u64())
            .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Every nonzero restart count, `actor=n`.
    pub fn nonzero_restarts(&self) -> Vec<String> {
        let Some(map) = self
            .json
            .as_ref()
            .and_then(|j| j.get("restarts")?.as_object())
        else {
            return Vec::new();
        };
        map.iter()
            .filter_map(|(k, v)| v.as_u64().filter(|n| *n > 0).map(|n| format!("{k}={n}")))
            .collect()
    }

    /// Coverage status per agent (`ok`, `unavailable`) from the JSON `coverage` object.
    pub fn coverage(&self) -> Vec<(&str, &str)> {
        let Some(map) = self
            .json
            .as_ref()
            .and_then(|j| j.get("coverage")?.as_object())
        else {
            return Vec::new();
        };
        map.iter()
            .map(|(k, v)| {
                (
                    k.as_str(),
                    v.get("status").and_then(Value::as_str).unwrap_or(""),
                )
            })
            .collect()
    }

    fn strings(&self, key: &str) -> Vec<&str> {
        self.json
            .as_ref()
            .and_then(|j| j.get(key)?.as_array())
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    /// How the run ended, for messages: `exit 2 (retake: error: …)`.
    pub fn ending(&self) -> String {
        match (self.timed_out, self.exit_code) {
            (true, _) => "killed after its time bound".to_string(),
            (false, None) => "killed by a signal".to_string(),
            (false, Some(code)) if self.stderr_tail.is_empty() || self.json.is_some() => {
                format!("exit {code}")
            }
            (false, Some(code)) => format!("exit {code} ({})", self.stderr_tail),
        }
    }
}
