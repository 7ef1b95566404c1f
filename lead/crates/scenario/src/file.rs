//! A scenario file (TOML): the review to run, the faults to inject, and the outcome it must have.
//! Loading checks everything that can be checked without running — unknown keys, fault specs,
//! configuration keys, the repository — so a typo is one error line naming the file and the key.

use super::expect::Expect;
use super::file_error::ScenarioFileError as E;
use super::ScenarioError;
use host::Runtime;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Arguments the runner passes itself; a scenario may not override them.
const RESERVED_ARGS: [&str; 5] = ["--format", "--runtime", "--chaos", "--fault", "--output"];

/// A scenario, checked and ready to run.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// Its name, as the table and the JUnit file show it.
    pub name: String,
    /// The file it was read from.
    pub file: PathBuf,
    /// Where the actors run.
    pub runtime: Runtime,
    /// The repository to review (absolute); the runner reviews a copy.
    pub repo: PathBuf,
    /// Extra `retake review` arguments.
    pub args: Vec<String>,
    /// `review.added`: the copy becomes a git work tree of two commits, the second adding this
    /// file (relative to the repository), so `--base HEAD~1` reviews that change.
    pub added: Option<PathBuf>,
    /// Fault specs in their text form (`inspector-quality#1:crash-at=inspect`).
    pub faults: Vec<String>,
    /// Configuration as `RETAKE__SECTION__KEY` environment variables (of the Lead's service
    /// in a container scenario).
    pub env: Vec<(String, String)>,
    /// The Compose stack of a container scenario (`runtime = "compose"`).
    pub compose: Option<super::compose::Stack>,
    /// A run scenario's range and Lead crash (`run = …`: `retake run`, not `retake review`).
    pub run: Option<super::run_kind::RunSpec>,
    /// What must come out.
    pub expect: Expect,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    name: String,
    #[serde(default = "local")]
    runtime: String,
    review: Option<RawReview>,
    run: Option<super::run_kind::RawRun>,
    lead_crash: Option<super::run_kind::RawLeadCrash>,
    #[serde(default)]
    faults: Vec<String>,
    #[serde(default)]
    config: toml::Table,
    compose: Option<super::compose::RawStack>,
    #[serde(default)]
    expect: Expect,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReview {
    repo: PathBuf,
    #[serde(default)]
    args: Vec<String>,
    added: Option<PathBuf>,
}

fn local() -> String {
    "local".into()
}

/// The check of one configuration key, given as a table `{ SECTION = { KEY = value } }`: the
/// message when the configuration would refuse it (an unknown key, a value of the wrong type).
/// The Lead supplies it, built on its configuration, which this crate does not know.
///
/// The error stays a `String`: it is the application's own configuration message, which this
/// crate neither knows the kinds of nor acts on — it only shows it after the key, verbatim, as
/// [`ScenarioFileError::ConfigRefused`](crate::ScenarioFileError::ConfigRefused). A typed error
/// here would be the application's type, or a wrapper around the same text.
pub type ConfigCheck = fn(&toml::Table) -> Result<(), String>;

/// Reads and checks one scenario file; `config` checks each key of its `config` table.
pub fn load(file: &Path, config: ConfigCheck) -> Result<Scenario, ScenarioError> {
    let text = std::fs::read_to_string(file).map_err(|source| ScenarioError::Invalid {
        file: file.to_path_buf(),
        error: Box::new(E::Unreadable { source }),
    })?;
    parse(&text, file, config)
}

/// Checks a scenario's text; `file` names it in errors and anchors the relative repository path,
/// `config` checks each key of its `config` table.
pub fn parse(text: &str, file: &Path, config: ConfigCheck) -> Result<Scenario, ScenarioError> {
    check(text, file, config).map_err(|error| ScenarioError::Invalid {
        file: file.to_path_buf(),
        error: Box::new(error),
    })
}

/// [`parse`], its refusal without the file's name.
fn check(text: &str, file: &Path, config: ConfigCheck) -> Result<Scenario, E> {
    let raw: Raw = toml::from_str(text).map_err(|source| syntax(text, source))?;
    if raw.name.trim().is_empty() {
        return Err(E::EmptyName);
    }
    let base = file.parent().unwrap_or_else(|| Path::new("."));
    // `compose`: the review is a job of `retake serve` in a Compose stack (the remote runtime).
    let (runtime, compose) = match (raw.runtime.as_str(), raw.compose) {
        ("compose", Some(stack)) => (Runtime::Remote, Some(super::compose::stack(stack, base)?)),
        ("compose", None) => return Err(E::ComposeWithoutStack),
        ("local", None) => (Runtime::Local, None),
        ("inproc", None) => (Runtime::Inproc, None),
        ("local" | "inproc", Some(_)) => {
            return Err(E::StackWithoutCompose {
                runtime: raw.runtime,
            })
        }
        (other, _) => {
            return Err(E::UnknownRuntime {
                runtime: other.to_string(),
            })
        }
    };
    if compose.is_some() && !raw.faults.is_empty() {
        return Err(E::FaultsInCompose);
    }
    // `review = …`, or `run = …` for a `retake run` of the team loop (`run_kind`).
    let added = raw.review.as_ref().and_then(|r| r.added.clone());
    let review = raw.review.map(|r| (r.repo, r.args));
    let target = super::run_kind::target(review, raw.run, raw.lead_crash)?;
    if compose.is_some() && target.run.is_some() {
        return Err(E::RunInCompose);
    }
    let key = target.key();
    let repo = base.join(&target.repo);
    let repo = std::fs::canonicalize(&repo)
        .ok()
        .filter(|p| p.is_dir())
        .ok_or_else(|| E::NoRepo {
            key,
            path: repo.clone(),
        })?;
    if let Some(added) = &added {
        let inside = added
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !inside || !repo.join(added).is_file() {
            return Err(E::AddedOutside {
                added: added.clone(),
            });
        }
    }
    for arg in &target.args {
        let flag = arg.split('=').next().unwrap_or(arg);
        if RESERVED_ARGS.contains(&flag) || target.reserved(flag) {
            return Err(E::ReservedArg {
                key,
                arg: arg.clone(),
            });
        }
    }
    for (i, fault) in raw.faults.iter().enumerate() {
        fault
            .parse::<protocol::chaos::FaultSpec>()
            .map_err(|source| E::Fault {
                index: i,
                fault: fault.clone(),
                source,
            })?;
    }
    let env = config_env(&raw.config, config)?;
    check_expect(&raw.expect)?;
    super::run_kind::check_expect(&raw.expect, target.run.is_some())?;
    Ok(Scenario {
        name: raw.name,
        file: file.to_path_buf(),
        runtime,
        repo,
        args: target.args,
        added,
        faults: raw.faults,
        env,
        compose,
        run: target.run,
        expect: raw.expect,
    })
}

fn check_expect(e: &Expect) -> Result<(), E> {
    if let Some(v) = &e.verdict {
        v.parse::<protocol::Verdict>()
            .map_err(|_| E::Verdict { verdict: v.clone() })?;
    }
    if let Some(d) = &e.decision {
        use protocol::Decision::*;
        if ![Approve, RequestChanges, Reject, Stop]
            .iter()
            .any(|x| x.as_str() == d)
        {
            return Err(E::Decision {
                decision: d.clone(),
            });
        }
    }
    match e.max_seconds {
        Some(seconds) if !(seconds > 0.0 && seconds.is_finite()) => Err(E::MaxSeconds { seconds }),
        _ => Ok(()),
    }
}

/// `config` as environment variables, each key checked against the real configuration (`check`)
/// so that a misspelt key fails here and not as an unexplained exit 2 of the review.
fn config_env(config: &toml::Table, check: ConfigCheck) -> Result<Vec<(String, String)>, E> {
    let mut flat = Vec::new();
    flatten("", config, &mut flat);
    let mut env = Vec::new();
    for (key, value) in flat {
        let Some((section, name)) = key.split_once('.').filter(|(_, n)| !n.contains('.')) else {
            return Err(E::ConfigKey { key });
        };
        let mut inner = toml::Table::new();
        inner.insert(name.to_string(), value.clone());
        let mut outer = toml::Table::new();
        outer.insert(section.to_string(), toml::Value::Table(inner));
        check(&outer).map_err(|message| E::ConfigRefused {
            key: key.clone(),
            message,
        })?;
        let Some(text) = env_text(&value) else {
            return Err(E::ConfigTable { key });
        };
        env.push((
            format!(
                "RETAKE__{}__{}",
                section.to_uppercase(),
                name.to_uppercase()
            ),
            text,
        ));
    }
    Ok(env)
}

fn flatten(prefix: &str, table: &toml::Table, out: &mut Vec<(String, toml::Value)>) {
    for (k, v) in table {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(t) => flatten(&key, t, out),
            other => out.push((key, other.clone())),
        }
    }
}

/// The variable's text: lists are space separated, as the configuration reads them.
fn env_text(value: &toml::Value) -> Option<String> {
    Some(match value {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::Array(items) => items
            .iter()
            .map(env_text)
            .collect::<Option<Vec<_>>>()?
            .join(" "),
        toml::Value::Table(_) => return None,
    })
}

/// toml's refusal of `text`, with the line it points at: shown as one line, `line N: message`
/// (toml's own rendering spans several lines with a caret).
fn syntax(text: &str, source: toml::de::Error) -> E {
    let line = source
        .span()
        .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1);
    E::Syntax { line, source }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::config_check;

    fn parse_in(dir: &Path, text: &str) -> Result<Scenario, String> {
        parse(text, &dir.join("s.toml"), config_check).map_err(|e| e.to_string())
    }

    #[test]
    fn a_full_scenario_reads_with_defaults_and_config_as_environment() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("repo")).expect("mkdir");
        let s = parse_in(
            dir.path(),
            r#"name = "q-hang"
review = { repo = "repo", args = ["--no-exec"] }
faults = ["inspector-quality:hang-at=inspect", "auditor#1:stall-output"]
config = { "supervision.inspect_deadline_secs" = 3, "test.command" = ["sleep", "5"] }
[expect]
verdict = "GO"
notes = ["PARTIAL:inspector-quality"]
restarts = { inspector-quality = 1 }
max_seconds = 20
"#,
        )
        .expect("valid");
        assert_eq!(s.runtime, Runtime::Local);
        assert_eq!(s.args, vec!["--no-exec"]);
        assert_eq!(s.faults.len(), 2);
        assert_eq!(
            s.env,
            vec![
                (
                    "RETAKE__SUPERVISION__INSPECT_DEADLINE_SECS".to_string(),
                    "3".to_string()
                ),
                ("RETAKE__TEST__COMMAND".to_string(), "sleep 5".to_string()),
            ]
        );
        assert_eq!(s.expect.restarts.get("inspector-quality"), Some(&1));
        assert!(s.expect.no_leftovers);
        assert_eq!(s.expect.max_seconds(), 20.0);
    }

    #[test]
    fn mistakes_name_the_key() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("repo")).expect("mkdir");
        let head = "name = \"x\"\nreview = { repo = \"repo\" }\n";
        let cases = [
            (
                "[expect]\nverdit = \"GO\"\n",
                "line 4: unknown field `verdit`",
            ),
            (
                "faults = [\"inspector-qualty:stall-output\"]\n",
                "faults[0] = 'inspector-qualty:stall-output': unknown actor",
            ),
            (
                "config = { \"supervision.inspect_deadline\" = 3 }\n",
                "config.\"supervision.inspect_deadline\": unknown field `inspect_deadline`",
            ),
            (
                "config = { deadline = 3 }\n",
                "config.\"deadline\": expected SECTION.KEY",
            ),
            ("runtime = \"cloud\"\n", "runtime = 'cloud'"),
            (
                "runtime = \"remote\"\n",
                "expected local, inproc or compose",
            ),
            (
                "runtime = \"compose\"\n",
                "runtime = 'compose' needs a [compose] table",
            ),
            (
                "[expect]\ndecision = \"MERGE\"\n",
                "expect.decision = 'MERGE'",
            ),
        ];
        for (tail, wanted) in cases {
            let err = parse_in(dir.path(), &format!("{head}{tail}")).expect_err(tail);
            assert!(
                err.contains("s.toml") && err.contains(wanted),
                "{tail}: {err}"
            );
        }
        let err =
            parse_in(dir.path(), "name = \"x\"\nreview = { repo = \"nope\" }\n").expect_err("repo");
        assert!(err.contains("review.repo"), "{err}");
        let err = parse_in(
            dir.path(),
            &head.replace("repo\" }", "repo\", args = [\"--format=sarif\"] }"),
        )
        .expect_err("reserved");
        assert!(err.contains("review.args: '--format=sarif'"), "{err}");
        for added in ["../s.toml", "/etc/passwd", "no-such-file"] {
            let err = parse_in(
                dir.path(),
                &head.replace("repo\" }", &format!("repo\", added = \"{added}\" }}")),
            )
            .expect_err(added);
            assert!(
                err.contains(&format!(
                    "review.added = '{added}': not a file of the repository (a relative path inside it)"
                )),
                "{err}"
            );
        }
    }
}
