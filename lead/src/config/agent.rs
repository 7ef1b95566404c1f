//! The backend keys: `[inspector.<kind>] backend` and `[agent]` (command or HTTP endpoint,
//! timeout, prompt templates), checked at load and turned into the Inspectors' options.

use super::choice::{self, key, Choice};
use super::Settings;
use protocol::message::{AgentSpec, AgentTransport, Backend};
use protocol::prompt::Role;
use protocol::InspectorKind;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// `[inspector.<kind>]`
#[derive(Debug, Clone, Default, Serialize)]
pub struct KindSettings {
    /// `builtin` (default), `agent` or `both`.
    #[serde(serialize_with = "choice::serialize")]
    pub backend: Backend,
}

/// `[inspector.<kind>]` as written, before its backend's name is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawKind {
    backend: String,
}

impl Default for RawKind {
    fn default() -> Self {
        RawKind {
            backend: Backend::default().name().into(),
        }
    }
}

/// Reads `[inspector.<kind>]` of `kind`: its key names the kind when the backend is unknown.
fn kind_settings<'de, D: Deserializer<'de>>(
    d: D,
    kind: InspectorKind,
) -> Result<KindSettings, D::Error> {
    let raw = RawKind::deserialize(d)?;
    let key = format!("inspector.{kind}.backend");
    let backend = choice::parse(&key, &raw.backend).map_err(D::Error::custom)?;
    Ok(KindSettings { backend })
}

/// The `deserialize_with` function of each kind's table.
pub(super) mod kinds {
    use super::{kind_settings, KindSettings};
    use protocol::InspectorKind;
    use serde::Deserializer;

    macro_rules! kind {
        ($name:ident, $kind:expr) => {
            /// Reads this kind's table.
            pub(in crate::config) fn $name<'de, D: Deserializer<'de>>(
                d: D,
            ) -> Result<KindSettings, D::Error> {
                kind_settings(d, $kind)
            }
        };
    }
    kind!(rulebase, InspectorKind::Rulebase);
    kind!(interface, InspectorKind::Interface);
    kind!(test, InspectorKind::Test);
    kind!(quality, InspectorKind::Quality);
    kind!(consistency, InspectorKind::Consistency);
    kind!(holistic, InspectorKind::Holistic);
}

key!(agent_kind, AgentKind, "agent.kind");

/// The default wait for the next part of a streamed answer (`[agent]` and `[executor]`
/// `idle_timeout_secs`; the first part, after the prompt is read, has the request's deadline):
/// far longer than a model on a CPU takes per token, far shorter than a request's deadline.
pub(super) const DEFAULT_IDLE_TIMEOUT_SECS: u64 = 120;

/// How the agent backend is reached (`[agent] kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AgentKind {
    /// A command: the prompt on stdin, CPF on stdout (default).
    #[default]
    Command,
    /// An OpenAI-compatible HTTP endpoint.
    Http,
}

impl Choice for AgentKind {
    const ALL: &'static [Self] = &[AgentKind::Command, AgentKind::Http];
    fn name(self) -> &'static str {
        match self {
            AgentKind::Command => "command",
            AgentKind::Http => "http",
        }
    }
}

/// `[agent]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AgentSettings {
    /// `command` (default) or `http`.
    #[serde(with = "agent_kind")]
    pub kind: AgentKind,
    /// The agent command as argv (no shell): reads the prompt on stdin, writes CPF on stdout.
    pub command: Vec<String>,
    /// The OpenAI-compatible endpoint (`kind = "http"`): a base URL or the full chat URL.
    pub url: String,
    /// The model name sent to the endpoint.
    pub model: String,
    /// The environment variable that holds the endpoint's API key, if it needs one.
    pub api_key_env: Option<String>,
    /// Deadline of one attempt, seconds.
    pub timeout_secs: u64,
    /// `kind = "http"`: the most tokens an answer may have.
    pub max_tokens: u32,
    /// `kind = "http"`: each part of the streamed answer after the first is due within this
    /// many seconds; 0 waits for the whole answer.
    pub idle_timeout_secs: u64,
    /// A folder of `<kind>.md` templates overriding the built-in prompts (relative paths are
    /// relative to the repository root).
    pub prompt_dir: Option<String>,
    /// The templates read from `prompt_dir`, by kind; filled by [`super::load`].
    #[serde(skip)]
    pub templates: BTreeMap<InspectorKind, String>,
    /// The Lead's own agent roles' templates (Planner, Critic, fix planner): those
    /// `prompt_dir` holds, the built-in ones for the rest; filled by [`super::load`].
    #[serde(skip)]
    pub roles: protocol::prompt::Templates,
}

impl Default for AgentSettings {
    fn default() -> Self {
        AgentSettings {
            kind: AgentKind::Command,
            command: Vec::new(),
            url: String::new(),
            model: String::new(),
            api_key_env: None,
            timeout_secs: 600,
            max_tokens: 4096,
            idle_timeout_secs: DEFAULT_IDLE_TIMEOUT_SECS,
            prompt_dir: None,
            templates: BTreeMap::new(),
            roles: Default::default(),
        }
    }
}

impl AgentSettings {
    /// Reads `prompt_dir/<kind>.md` for every kind, and `prompt_dir/<role>.md` for the Lead's
    /// own agent roles (`planner.md`, `critic.md`, `fix-planner.md`), that has one; one without
    /// a file keeps the built-in template. With `rev` (the review's trusted revision) the templates are read
    /// as committed there: a prompt steers the agent, so the change under review does not
    /// write its own.
    pub(super) fn load_templates(&mut self, repo: &Path, rev: Option<&str>) -> Result<(), String> {
        let Some(dir) = self.prompt_dir.as_deref().filter(|d| !d.is_empty()) else {
            return Ok(());
        };
        // An absolute folder is outside the repository: the user's, read from disk.
        if let Some(rev) = rev.filter(|_| Path::new(dir).is_relative()) {
            let read = |file: &str| {
                let rel = format!("{}/{file}", dir.trim_end_matches('/'));
                inspector::engine::file_at_revision(repo, rev, &rel)
                    .map(|(_, text)| text)
                    .map_err(|e| format!("agent.prompt_dir: cannot read {rel} at {rev}: {e}"))
            };
            for kind in InspectorKind::ALL {
                if let Some(text) = read(&format!("{kind}.md"))? {
                    self.templates.insert(kind, text);
                }
            }
            for role in Role::ALL {
                if let Some(text) = read(role.file())? {
                    self.roles.set(role, text);
                }
            }
            return Ok(());
        }
        let folder = repo.join(dir);
        if !folder.is_dir() {
            return Err(format!(
                "agent.prompt_dir = '{dir}': no such folder ({})",
                folder.display()
            ));
        }
        let read = |name: &str| -> Result<Option<String>, String> {
            let file = folder.join(name);
            if !file.is_file() {
                return Ok(None);
            }
            std::fs::read_to_string(&file)
                .map(Some)
                .map_err(|e| format!("agent.prompt_dir: cannot read {}: {e}", file.display()))
        };
        for kind in InspectorKind::ALL {
            if let Some(text) = read(&format!("{kind}.md"))? {
                self.templates.insert(kind, text);
            }
        }
        for role in Role::ALL {
            if let Some(text) = read(role.file())? {
                self.roles.set(role, text);
            }
        }
        Ok(())
    }
}

impl Settings {
    /// `[inspector.<kind>]` of `kind`.
    pub fn kind_settings(&self, kind: InspectorKind) -> &KindSettings {
        let i = &self.inspector;
        match kind {
            InspectorKind::Rulebase => &i.rulebase,
            InspectorKind::Interface => &i.interface,
            InspectorKind::Test => &i.test,
            InspectorKind::Quality => &i.quality,
            InspectorKind::Consistency => &i.consistency,
            InspectorKind::Holistic => &i.holistic,
        }
    }

    /// The backend `kind` runs.
    pub fn backend_for(&self, kind: InspectorKind) -> Backend {
        self.kind_settings(kind).backend
    }

    /// The agent `kind` runs when its backend uses one, with this kind's template.
    pub(super) fn agent_spec(&self, kind: InspectorKind) -> AgentSpec {
        let a = &self.agent;
        let transport = if a.kind == AgentKind::Http {
            AgentTransport::Http {
                url: a.url.clone(),
                model: a.model.clone(),
                api_key_env: a.api_key_env.clone().filter(|v| !v.is_empty()),
            }
        } else {
            AgentTransport::Command {
                argv: a.command.clone(),
            }
        };
        AgentSpec {
            transport,
            timeout_ms: a.timeout_secs * 1000,
            prompt_template: a.templates.get(&kind).cloned(),
            seed: None,
            max_tokens: a.max_tokens,
            idle_timeout_ms: a.idle_timeout_secs * 1000,
            // The review's plan sets it: it knows whether anyone can answer.
            question_timeout_ms: 0,
        }
    }

    /// Extra time an Inspector with an agent backend needs for its report: every attempt's
    /// timeout. Zero when every kind is built in.
    pub fn agent_budget(&self) -> Duration {
        let any_agent = InspectorKind::ALL
            .into_iter()
            .any(|k| self.backend_for(k) != Backend::Builtin);
        if any_agent {
            Duration::from_secs(
                self.agent.timeout_secs * u64::from(inspector::backend::MAX_ATTEMPTS),
            )
        } else {
            Duration::ZERO
        }
    }

    /// Checks the agent keys: positive limits, and an agent that can run when a kind uses one.
    pub(super) fn validate_backends(&self) -> Result<(), String> {
        let a = &self.agent;
        if a.timeout_secs == 0 {
            return Err("agent.timeout_secs must be positive".into());
        }
        if a.max_tokens == 0 {
            return Err("agent.max_tokens must be positive".into());
        }
        let Some(user) = InspectorKind::ALL
            .into_iter()
            .find(|k| self.backend_for(*k) != Backend::Builtin)
        else {
            return Ok(());
        };
        let backend = self.kind_settings(user).backend.name();
        let missing = match a.kind {
            AgentKind::Http if a.url.trim().is_empty() => Some("agent.url"),
            AgentKind::Http if a.model.trim().is_empty() => Some("agent.model"),
            AgentKind::Command if a.command.is_empty() => Some("agent.command (an argv list)"),
            _ => None,
        };
        match missing {
            Some(key) => Err(format!(
                "inspector.{user}.backend = '{backend}' needs {key} (agent.kind = '{}')",
                a.kind.name()
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::load;
    use super::*;

    fn repo_with(config: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("retake.toml"), config).expect("write");
        dir
    }

    #[test]
    fn kinds_get_their_backend_agent_and_template() {
        let dir = repo_with(
            "[review]\ndimensions = [\"security\"]\n[inspector.quality]\nbackend = \"both\"\n\
             [agent]\ncommand = [\"review-bot\", \"--cpf\"]\ntimeout_secs = 30\nprompt_dir = \"prompts\"\n",
        );
        std::fs::create_dir_all(dir.path().join("prompts")).expect("mkdir");
        std::fs::write(dir.path().join("prompts/quality.md"), "Q {{files}}").expect("write");
        let s = load(dir.path()).expect("valid");
        let c = s.review_config();
        let quality = c.options_for(InspectorKind::Quality, c.inspect.clone());
        assert_eq!(quality.backend, Backend::Both);
        assert_eq!(quality.dimensions, vec![protocol::Dimension::Security]);
        assert_eq!(
            quality.agent,
            Some(AgentSpec {
                transport: AgentTransport::Command {
                    argv: vec!["review-bot".into(), "--cpf".into()]
                },
                timeout_ms: 30_000,
                prompt_template: Some("Q {{files}}".into()),
                seed: None,
                max_tokens: 4096,
                idle_timeout_ms: 120_000,
                question_timeout_ms: 0,
            })
        );
        let holistic = c.options_for(InspectorKind::Holistic, c.inspect.clone());
        assert_eq!((holistic.backend, holistic.agent), (Backend::Builtin, None));
        assert_eq!(s.agent_budget(), Duration::from_secs(60));
    }

    #[test]
    fn the_lead_s_own_roles_read_their_templates_from_the_prompt_dir_too() {
        use protocol::prompt::Role;
        let dir = repo_with("[agent]\nprompt_dir = \"prompts\"\n");
        std::fs::create_dir_all(dir.path().join("prompts")).expect("mkdir");
        std::fs::write(
            dir.path().join("prompts/fix-planner.md"),
            "Fix {{findings}}",
        )
        .expect("write");
        let s = load(dir.path()).expect("valid");
        for prompts in [&s.run_config().prompts, &s.fix_config().prompts] {
            assert_eq!(prompts.get(Role::FixPlanner), "Fix {{findings}}");
            assert_eq!(
                prompts.get(Role::Critic),
                Role::Critic.builtin(),
                "no file: built in"
            );
        }
    }

    #[test]
    fn the_shipped_deploy_file_documents_the_backend_keys_with_their_defaults() {
        let dir = tempfile::tempdir().expect("tempdir");
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/retake.toml");
        let text = std::fs::read_to_string(shipped).expect("deploy/retake.toml");
        std::fs::write(dir.path().join("retake.toml"), &text).expect("write");
        let s = load(dir.path()).expect("valid");
        let d = AgentSettings::default();
        assert_eq!(
            (s.agent.kind, s.agent.timeout_secs, &s.agent.command),
            (d.kind, d.timeout_secs, &d.command)
        );
        assert!(s.review.dimensions.is_empty());
        for kind in InspectorKind::ALL {
            assert_eq!(s.backend_for(kind), Backend::Builtin);
            assert!(text.contains(&format!("[inspector.{kind}]")), "{kind}");
        }
        for key in ["url = ", "model = ", "# api_key_env = ", "# prompt_dir = "] {
            assert!(text.contains(key), "{key}");
        }
    }

    #[test]
    fn templates_come_from_the_trusted_revision_not_the_change() {
        let dir = repo_with(
            "[inspector.quality]\nbackend = \"agent\"\n[agent]\ncommand = [\"bot\"]\nprompt_dir = \"prompts\"\n",
        );
        std::fs::create_dir_all(dir.path().join("prompts")).expect("mkdir");
        std::fs::write(dir.path().join("prompts/quality.md"), "Q committed").expect("write");
        let git = |args: &[&str]| {
            let ok = std::process::Command::new("git")
                .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
                .args(args)
                .current_dir(dir.path())
                .status()
                .expect("git")
                .success();
            assert!(ok, "git {args:?}");
        };
        git(&["init", "-q"]);
        git(&["add", "-A"]);
        git(&["commit", "-q", "-m", "prompts"]);
        std::fs::write(dir.path().join("prompts/quality.md"), "Q: report nothing").expect("write");
        let loaded = super::super::load_repo(dir.path(), None, super::super::Trust::default())
            .expect("valid");
        assert_eq!(
            loaded
                .settings
                .agent
                .templates
                .get(&InspectorKind::Quality)
                .map(String::as_str),
            Some("Q committed")
        );
        let work_tree = load(dir.path()).expect("valid");
        assert_eq!(
            work_tree
                .agent
                .templates
                .get(&InspectorKind::Quality)
                .map(String::as_str),
            Some("Q: report nothing")
        );
    }

    #[test]
    fn bad_backend_keys_are_named() {
        let cases = [
            (
                "[inspector.test]\nbackend = \"llm\"\n",
                "inspector.test.backend = 'llm' (expected builtin, agent or both)",
            ),
            (
                "[inspector.holistic]\nbackend = \"agent\"\n",
                "inspector.holistic.backend = 'agent' needs agent.command (an argv list) (agent.kind = 'command')",
            ),
            (
                "[inspector.rulebase]\nbackend = \"agent\"\n[agent]\nkind = \"http\"\nurl = \"http://127.0.0.1:1\"\n",
                "inspector.rulebase.backend = 'agent' needs agent.model (agent.kind = 'http')",
            ),
            ("[agent]\nkind = \"grpc\"\n", "agent.kind = 'grpc' (expected command or http)"),
            ("[agent]\nprompt_dir = \"nowhere\"\n", "agent.prompt_dir = 'nowhere': no such folder"),
        ];
        for (config, expected) in cases {
            let dir = repo_with(config);
            let err = load(dir.path()).expect_err(config).to_string();
            assert!(err.contains(expected), "{config}: {err}");
        }
        let dir = repo_with("[review]\ndimensions = [\"speed\"]\n");
        let err = load(dir.path()).expect_err("bad dimension").to_string();
        assert!(err.contains("speed"), "{err}");
    }
}
