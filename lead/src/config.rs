//! Configuration: `~/.config/retake/retake.toml`, the repository's `retake.toml` (as committed
//! at the review's base or HEAD: `source.rs`), environment variables `RETAKE__SECTION__KEY`,
//! then command-line flags. Unknown keys and wrong types are errors that name the key and the
//! file.

mod agent;
mod chaos;
pub mod choice;
mod hosting;
mod linters;
mod load;
pub mod origin;
mod review;
mod run;
mod source;
mod team;

pub use agent::{AgentSettings, KindSettings};
pub use chaos::{ChaosSettings, FaultEntry};
pub use load::{explain, load, load_repo, ConfigError, FileLayer, Loaded};
pub use source::{Trust, UNTRUSTED_KEYS};
pub use team::{ExecutorSettings, LoopSettings};

use choice::key;
use protocol::message::{RuleProfile, TestFailurePolicy};
use serde::{Deserialize, Serialize};

/// The whole configuration. Every key is documented in `deploy/retake.toml`.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    /// `[review]`
    pub review: ReviewSettings,
    /// `[wire]`
    pub wire: WireSettings,
    /// `[supervision]`
    pub supervision: SupervisionSettings,
    /// `[test]`
    pub test: TestSettings,
    /// `[audit]`
    pub audit: AuditSettings,
    /// `[inspector]`
    pub inspector: InspectorSettings,
    /// `[rules]`
    pub rules: RuleSettings,
    /// `[agent]`: the agent backend of the kinds whose backend is `agent` or `both`.
    pub agent: AgentSettings,
    /// `[chaos]`: fault injection, off unless enabled.
    pub chaos: ChaosSettings,
    /// `[executor]`: what carries a `retake run` task out.
    pub executor: ExecutorSettings,
    /// `[loop]`: the team loop's gate and limits, the task runner's iterations.
    #[serde(rename = "loop")]
    pub team_loop: LoopSettings,
    /// `[serve]`: how `retake serve` treats its jobs' repositories.
    pub serve: ServeSettings,
}

/// `[serve]`; read only from the service's own configuration.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServeSettings {
    /// Let a job's repository file set keys that run commands or send code or credentials
    /// (`[test] command`, `[executor]`, `[agent]` url/command/api_key_env, linters); off: they
    /// are ignored with a note naming them.
    pub trust_repo_config: bool,
    /// The folder jobs' repositories must be in (`--repos-root` wins).
    pub repos_root: Option<std::path::PathBuf>,
    /// A file holding the API's bearer token (instead of `RETAKE_API_TOKEN`).
    pub api_token_file: Option<std::path::PathBuf>,
    /// The URL schemes a job may clone its repository from (`"clone": URL`).
    pub clone_schemes: Vec<String>,
}

impl Default for ServeSettings {
    fn default() -> Self {
        ServeSettings {
            trust_repo_config: false,
            repos_root: None,
            api_token_file: None,
            clone_schemes: vec!["https".into()],
        }
    }
}

key!(review_runtime, host::Runtime, "review.runtime");
key!(audit_test_failure, TestFailurePolicy, "audit.test_failure");
key!(rules_profile, RuleProfile, "rules.profile");

/// `[review]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReviewSettings {
    /// `local`, `inproc` or `remote`.
    #[serde(with = "review_runtime")]
    pub runtime: host::Runtime,
    /// Where the remote runtime's workers connect (host:port).
    pub listen: String,
    /// Deadline for a whole review, in seconds.
    pub timeout_secs: u64,
    /// Run only the rules of these dimensions (`--dimensions`); empty means all.
    pub dimensions: Vec<protocol::Dimension>,
    /// How long an agent Inspector's question to the author waits for its answer, in seconds;
    /// 0: the agents are not invited to ask.
    pub question_timeout_secs: u64,
}

impl Default for ReviewSettings {
    fn default() -> Self {
        ReviewSettings {
            runtime: host::Runtime::Local,
            listen: "0.0.0.0:7700".into(),
            timeout_secs: 900,
            dimensions: Vec::new(),
            question_timeout_secs: 60,
        }
    }
}

/// `[wire]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WireSettings {
    /// Largest frame accepted, bytes.
    pub max_frame_bytes: usize,
    /// Handshake deadline, milliseconds.
    pub handshake_timeout_ms: u64,
    /// Shared secret (hex) for remote actors; the local runtime generates one per run.
    pub secret: Option<String>,
}

impl Default for WireSettings {
    fn default() -> Self {
        WireSettings {
            max_frame_bytes: 8 * 1024 * 1024,
            handshake_timeout_ms: 5000,
            secret: None,
        }
    }
}

impl WireSettings {
    /// The limits and deadlines a connection opened under these settings gets.
    pub fn wire_config(&self) -> protocol::wire::WireConfig {
        protocol::wire::WireConfig {
            max_frame: self.max_frame_bytes,
            handshake_timeout: std::time::Duration::from_millis(self.handshake_timeout_ms),
        }
    }
}

/// `[supervision]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SupervisionSettings {
    /// Heartbeat interval, milliseconds.
    pub heartbeat_interval_ms: u64,
    /// An actor silent for this many intervals is unresponsive.
    pub suspect_after: u32,
    /// How long spawned actors have to connect, milliseconds.
    pub connect_timeout_ms: u64,
    /// Grace period of `Shutdown`, milliseconds.
    pub shutdown_grace_ms: u64,
    /// Heartbeat interval of the local and inproc runtimes, milliseconds (faster detection on
    /// one machine than `heartbeat_interval_ms`, which remote actors use).
    pub local_heartbeat_interval_ms: u64,
    /// How long a static Inspector has for its report, seconds (the test Inspector also gets
    /// `test.timeout_secs`), counted again from each heartbeat whose progress moved.
    pub inspect_deadline_secs: u64,
    /// How long the Auditor has for its verdict after every report is in, milliseconds.
    pub audit_deadline_ms: u64,
    /// How long the Auditor has after `OutputVerdictNow`, milliseconds.
    pub nudge_timeout_ms: u64,
    /// Re-spawns allowed per role within `restart_window_secs`.
    pub max_restarts: u32,
    /// The window of `max_restarts`, seconds.
    pub restart_window_secs: u64,
}

impl Default for SupervisionSettings {
    fn default() -> Self {
        SupervisionSettings {
            heartbeat_interval_ms: 1000,
            suspect_after: 3,
            connect_timeout_ms: 10_000,
            shutdown_grace_ms: 5000,
            local_heartbeat_interval_ms: 500,
            inspect_deadline_secs: 20,
            audit_deadline_ms: 10_000,
            nudge_timeout_ms: 3000,
            max_restarts: 3,
            restart_window_secs: 60,
        }
    }
}

/// `[test]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TestSettings {
    /// The test command as argv; unset means steering/tech.md, then detection.
    pub command: Option<Vec<String>>,
    /// Timeout of the test command, seconds.
    pub timeout_secs: u64,
    /// A coverage command (argv) whose percentage the test Inspector reports; unset: none.
    pub coverage_command: Option<Vec<String>>,
}

impl Default for TestSettings {
    fn default() -> Self {
        TestSettings {
            command: None,
            timeout_secs: 300,
            coverage_command: None,
        }
    }
}

/// `[audit]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AuditSettings {
    /// `no-go` (default) or `conditional`.
    #[serde(with = "audit_test_failure")]
    pub test_failure: TestFailurePolicy,
    /// Audit budget, milliseconds.
    pub budget_ms: u64,
}

impl Default for AuditSettings {
    fn default() -> Self {
        AuditSettings {
            test_failure: TestFailurePolicy::default(),
            budget_ms: 60_000,
        }
    }
}

/// `[inspector]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InspectorSettings {
    /// Files larger than this are skipped and listed.
    pub max_file_bytes: u64,
    /// The analyzers the quality Inspector runs unless `--no-exec`: `auto` (default: those of
    /// the languages present), named ones (`clippy`, `ruff`, `eslint`, `go-vet`), or none
    /// (`[]`, `"off"`); see `config::linters`.
    #[serde(deserialize_with = "linters::deserialize")]
    pub linters: Vec<String>,
    /// Reuse per-file rule results from `.retake/cache/` (`--no-cache` turns it off for a run).
    pub cache: bool,
    /// `[inspector.rulebase]`
    #[serde(deserialize_with = "agent::kinds::rulebase")]
    pub rulebase: KindSettings,
    /// `[inspector.interface]`
    #[serde(deserialize_with = "agent::kinds::interface")]
    pub interface: KindSettings,
    /// `[inspector.test]`
    #[serde(deserialize_with = "agent::kinds::test")]
    pub test: KindSettings,
    /// `[inspector.quality]`
    #[serde(deserialize_with = "agent::kinds::quality")]
    pub quality: KindSettings,
    /// `[inspector.consistency]`
    #[serde(deserialize_with = "agent::kinds::consistency")]
    pub consistency: KindSettings,
    /// `[inspector.holistic]`
    #[serde(deserialize_with = "agent::kinds::holistic")]
    pub holistic: KindSettings,
}

impl Default for InspectorSettings {
    fn default() -> Self {
        InspectorSettings {
            max_file_bytes: 1024 * 1024,
            linters: linters::default_linters(),
            cache: true,
            rulebase: KindSettings::default(),
            interface: KindSettings::default(),
            test: KindSettings::default(),
            quality: KindSettings::default(),
            consistency: KindSettings::default(),
            holistic: KindSettings::default(),
        }
    }
}

/// `[rules]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RuleSettings {
    /// Rule ids to disable.
    pub disable: Vec<String>,
    /// Rule id → replacement severity letter (C/H/M/L).
    pub severity: std::collections::BTreeMap<String, String>,
    /// Which rules run by default: `default` (the precise ones) or `pedantic` (every rule at
    /// its own severity); `--profile` overrides it.
    #[serde(with = "rules_profile")]
    pub profile: RuleProfile,
}

impl Default for RuleSettings {
    fn default() -> Self {
        RuleSettings {
            disable: Vec::new(),
            severity: std::collections::BTreeMap::new(),
            profile: RuleProfile::Default,
        }
    }
}

impl Settings {
    /// Checks the values the types allow but retake does not (names, severities, positives).
    fn validate(&self) -> Result<(), String> {
        self.validate_backends()?;
        self.validate_team()?;
        linters::check(&self.inspector.linters)?;
        for (rule, sev) in &self.rules.severity {
            sev.parse::<protocol::Severity>()
                .map_err(|e| format!("rules.severity.\"{rule}\": {e}"))?;
        }
        // A misspelt id would otherwise disable or re-rate nothing, silently.
        let catalog = inspector::rules::catalog();
        let known = |id: &str| catalog.iter().any(|(_, meta)| meta.id == id);
        let listed = self.rules.disable.iter().map(|id| ("rules.disable", id));
        let rated = self.rules.severity.keys().map(|id| ("rules.severity", id));
        if let Some((key, id)) = listed.chain(rated).find(|(_, id)| !known(id)) {
            return Err(format!(
                "{key}: no rule '{id}' (`retake rules` lists the rule ids)"
            ));
        }
        if self.supervision.heartbeat_interval_ms == 0 || self.supervision.suspect_after == 0 {
            return Err(
                "supervision.heartbeat_interval_ms and suspect_after must be positive".into(),
            );
        }
        Ok(())
    }

    /// The rule overrides the Inspectors receive.
    pub fn rule_overrides(&self) -> Vec<protocol::message::RuleOverride> {
        let mut ids: Vec<&String> = self
            .rules
            .disable
            .iter()
            .chain(self.rules.severity.keys())
            .collect();
        ids.sort();
        ids.dedup();
        ids.into_iter()
            .map(|id| protocol::message::RuleOverride {
                rule: id.clone(),
                enabled: !self.rules.disable.contains(id),
                severity: self.rules.severity.get(id).and_then(|s| s.parse().ok()),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_shipped_deploy_file_documents_valid_keys_with_their_defaults() {
        let dir = tempfile::tempdir().expect("tempdir");
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/retake.toml");
        std::fs::copy(shipped, dir.path().join("retake.toml")).expect("copy");
        let s = load(dir.path()).expect("deploy/retake.toml is a valid configuration");
        let d = Settings::default();
        assert_eq!(s.review.runtime, d.review.runtime);
        assert_eq!(s.wire.max_frame_bytes, d.wire.max_frame_bytes);
        assert_eq!(
            s.supervision.heartbeat_interval_ms,
            d.supervision.heartbeat_interval_ms
        );
        assert_eq!(s.test.timeout_secs, d.test.timeout_secs);
        assert_eq!(s.rules.profile, d.rules.profile);
        assert_eq!(s.audit.test_failure, d.audit.test_failure);
        assert_eq!(s.inspector.max_file_bytes, d.inspector.max_file_bytes);
        assert_eq!(s.inspector.linters, d.inspector.linters);
        assert_eq!(s.executor.timeout_secs, d.executor.timeout_secs);
        assert_eq!(s.executor.kind, None);
        assert_eq!(
            (s.team_loop.gate, s.team_loop.max_iterations),
            (d.team_loop.gate, d.team_loop.max_iterations)
        );
        assert_eq!(
            s.team_loop.early_termination_patterns,
            d.team_loop.early_termination_patterns
        );
        assert_eq!(s.team_loop.omission_patterns, d.team_loop.omission_patterns);
    }

    #[test]
    fn unknown_keys_and_bad_values_are_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("retake.toml"),
            "[review]\nruntim = \"local\"\n",
        )
        .expect("write");
        let err = load(dir.path()).expect_err("unknown key").to_string();
        assert!(
            err.contains("runtim") && err.contains("retake.toml"),
            "{err}"
        );
        std::fs::write(
            dir.path().join("retake.toml"),
            "[review]\nruntime = \"cloud\"\n",
        )
        .expect("write");
        let err = load(dir.path()).expect_err("bad runtime").to_string();
        // Said once, with the key first (not again as the config crate's "for key …").
        assert!(
            err.ends_with(": review.runtime = 'cloud' (expected local, inproc or remote)"),
            "{err}"
        );
        std::fs::write(
            dir.path().join("retake.toml"),
            "[rules]\ndisable = [\"quality/todo-marker\"]\nseverity = { \"holistic/panic-in-library\" = \"L\" }\n",
        )
        .expect("write");
        let s = load(dir.path()).expect("valid");
        assert_eq!(s.rules.profile, RuleProfile::Default);
        let o = s.rule_overrides();
        assert_eq!(o.len(), 2);
        assert_eq!(
            (o[0].rule.as_str(), o[0].severity),
            ("holistic/panic-in-library", Some(protocol::Severity::Low))
        );
        assert!(!o[1].enabled);
        for (toml, named) in [
            (
                "[rules]\ndisable = [\"quality/todo-markers\"]\n",
                "rules.disable: no rule 'quality/todo-markers'",
            ),
            (
                "[rules]\nseverity = { \"panic-in-library\" = \"L\" }\n",
                "rules.severity: no rule 'panic-in-library'",
            ),
            (
                "[rules]\nprofile = \"strict\"\n",
                "rules.profile = 'strict' (expected default or pedantic)",
            ),
        ] {
            std::fs::write(dir.path().join("retake.toml"), toml).expect("write");
            let err = load(dir.path()).expect_err("unknown rule").to_string();
            assert!(err.contains(named), "{err}");
        }
        std::fs::write(
            dir.path().join("retake.toml"),
            "[rules]\nprofile = \"pedantic\"\n",
        )
        .expect("write");
        let s = load(dir.path()).expect("valid");
        assert_eq!(s.rules.profile, RuleProfile::Pedantic);
    }
}
