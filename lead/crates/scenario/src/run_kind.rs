//! Run scenarios: `run = { repo, range, args }` instead of `review = …` drives a plan with
//! `retake run` (the team loop, its Implementers and the review round) on a copy of `repo`,
//! and `lead_crash = { after_event, after_ms }` kills that Lead on a trigger and finishes the
//! run with `retake resume` (the supervision spec's Lead row). This module reads and checks those keys;
//! `run_exec` runs them, `run_check` checks what they left behind.

use super::expect::Expect;
use super::file_error::{EventPatternError, ScenarioFileError as E};
use serde::Deserialize;
use std::path::PathBuf;

/// `retake run` arguments the runner passes itself, beyond the review's.
const RESERVED_RUN_ARGS: [&str; 1] = ["--dry-run"];

/// The `run = { … }` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRun {
    repo: PathBuf,
    #[serde(default = "all")]
    range: String,
    #[serde(default)]
    args: Vec<String>,
}

/// The `lead_crash = { … }` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLeadCrash {
    after_event: Option<String>,
    after_ms: Option<u64>,
}

fn all() -> String {
    "all".into()
}

/// A run scenario: what `retake run` gets beyond the arguments, and the Lead's crash, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSpec {
    /// The range (`all`, `"auth to users"`), one argument.
    pub range: String,
    /// Kill the Lead on a trigger, then `retake resume`.
    pub lead_crash: Option<LeadCrash>,
}

/// When the runner kills the Lead of a run (SIGKILL to the `retake run` process only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeadCrash {
    /// The first timeline event matching this (`TYPE[:TASK[:ACTOR]]`); none: the start.
    pub after_event: Option<String>,
    /// Milliseconds after the event (or after the start).
    pub after_ms: u64,
}

/// What a scenario file says to run: a review or a run, its repository and arguments.
#[derive(Debug)]
pub struct Target {
    /// The repository as written, relative to the scenario file.
    pub repo: PathBuf,
    /// Extra arguments.
    pub args: Vec<String>,
    /// A run's range and crash; none for a review.
    pub run: Option<RunSpec>,
}

impl Target {
    /// The file's key: `review` or `run`.
    pub fn key(&self) -> &'static str {
        if self.run.is_some() {
            "run"
        } else {
            "review"
        }
    }

    /// Whether `flag` is one the runner sets for this kind (beyond the review's).
    pub fn reserved(&self, flag: &str) -> bool {
        self.run.is_some() && RESERVED_RUN_ARGS.contains(&flag)
    }
}

/// The target of a file with `review` (repository and arguments), `run` and `lead_crash`.
pub fn target(
    review: Option<(PathBuf, Vec<String>)>,
    run: Option<RawRun>,
    lead_crash: Option<RawLeadCrash>,
) -> Result<Target, E> {
    let (repo, args, run) = match (review, run) {
        (Some(_), Some(_)) => return Err(E::ReviewAndRun),
        (None, None) => return Err(E::NoTarget),
        (Some((repo, args)), None) => {
            if lead_crash.is_some() {
                return Err(E::CrashOfReview);
            }
            (repo, args, None)
        }
        (None, Some(raw)) => {
            if raw.range.trim().is_empty() {
                return Err(E::EmptyRange);
            }
            let lead_crash = lead_crash.map(crash).transpose()?;
            let spec = RunSpec {
                range: raw.range,
                lead_crash,
            };
            (raw.repo, raw.args, Some(spec))
        }
    };
    Ok(Target { repo, args, run })
}

fn crash(raw: RawLeadCrash) -> Result<LeadCrash, E> {
    if raw.after_event.is_none() && raw.after_ms.is_none() {
        return Err(E::CrashWithoutTrigger);
    }
    if let Some(event) = &raw.after_event {
        event_pattern(event).map_err(|source| E::CrashEvent {
            event: event.clone(),
            source,
        })?;
    }
    Ok(LeadCrash {
        after_event: raw.after_event,
        after_ms: raw.after_ms.unwrap_or(0),
    })
}

/// Checks `TYPE[:TASK[:ACTOR]]`: an upper-case event type, a task number or nothing, an actor.
pub fn event_pattern(text: &str) -> Result<(), EventPatternError> {
    let mut parts = text.splitn(3, ':');
    let kind = parts.next().unwrap_or_default();
    if kind.is_empty() || !kind.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
        return Err(EventPatternError::NoType);
    }
    match parts.next() {
        Some(task) if !task.is_empty() && task.parse::<u32>().is_err() => {
            Err(EventPatternError::NotATask {
                task: task.to_string(),
            })
        }
        _ => Ok(()),
    }
}

/// The `[expect]` keys of the other kind are refused: a run has no JSON notes or
/// qualifiers, a review no tasks, commits, timeline or state file.
pub fn check_expect(e: &Expect, run: bool) -> Result<(), E> {
    let review_only = [
        ("notes", !e.notes.is_empty()),
        ("absent_notes", !e.absent_notes.is_empty()),
        ("qualifier", e.qualifier.is_some()),
    ];
    let run_only = [
        ("tasks_done", e.tasks_done.is_some()),
        ("commits", e.commits.is_some()),
        ("events", !e.events.is_empty()),
        ("report", !e.report.is_empty()),
        ("state_file", e.state_file.is_some()),
    ];
    let (wrong, kind) = if run {
        (&review_only[..], "a review's (review = …)")
    } else {
        (&run_only[..], "a run's (run = …)")
    };
    if let Some((key, _)) = wrong.iter().find(|(_, given)| *given) {
        return Err(E::OtherKindExpect { key, kind });
    }
    if run {
        if let Some(actor) = e.restarts.keys().find(|a| !a.starts_with("implementer-")) {
            return Err(E::RunRestarts {
                actor: actor.clone(),
            });
        }
        for (i, event) in e.events.iter().enumerate() {
            event_pattern(event).map_err(|source| E::ExpectEvent {
                index: i,
                event: event.clone(),
                source,
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::file::parse;
    use crate::testing::config_check;
    use std::path::Path;

    fn parse_in(dir: &Path, text: &str) -> Result<crate::Scenario, String> {
        parse(text, &dir.join("s.toml"), config_check).map_err(|e| e.to_string())
    }

    #[test]
    fn a_run_scenario_reads_its_range_crash_and_expectations() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("repo")).expect("mkdir");
        let s = parse_in(
            dir.path(),
            r#"name = "lead-crash"
run = { repo = "repo", args = ["--yes", "--no-discuss"] }
lead_crash = { after_event = "TASK_CLAIMED:2", after_ms = 300 }
faults = ["implementer-1#1:crash-at=execute"]
[expect]
exit_code = 0
tasks_done = 2
commits = 1
events = ["TASK_RELEASED:2", "TASK_COMPLETED:2:implementer-1"]
report = ["retake run complete"]
restarts = { implementer-1 = 0 }
state_file = false
"#,
        )
        .expect("valid");
        let run = s.run.expect("a run");
        assert_eq!(run.range, "all");
        assert_eq!(
            run.lead_crash,
            Some(super::LeadCrash {
                after_event: Some("TASK_CLAIMED:2".into()),
                after_ms: 300
            })
        );
        assert_eq!(s.args, vec!["--yes", "--no-discuss"]);
        assert_eq!((s.expect.tasks_done, s.expect.commits), (Some(2), Some(1)));
        assert_eq!(s.expect.state_file, Some(false));
    }

    #[test]
    fn mistakes_of_a_run_scenario_name_the_key() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("repo")).expect("mkdir");
        let run = "name = \"x\"\nrun = { repo = \"repo\" }\n";
        let review = "name = \"x\"\nreview = { repo = \"repo\" }\n";
        let cases = [
            (
                format!("{run}[expect]\nnotes = [\"PARTIAL:\"]\n"),
                "expect.notes: an expectation of a review's",
            ),
            (
                format!("{review}[expect]\ncommits = 1\n"),
                "expect.commits: an expectation of a run's",
            ),
            (
                format!("{run}[expect]\nrestarts = {{ auditor = 1 }}\n"),
                "expect.restarts.auditor: a run counts",
            ),
            (
                format!("{run}[expect]\nevents = [\"TASK_DONE:one\"]\n"),
                "expect.events[0] = 'TASK_DONE:one': 'one' is not a task number",
            ),
            (
                format!("{run}lead_crash = {{}}\n"),
                "lead_crash: give after_event",
            ),
            (
                format!("{run}lead_crash = {{ after_event = \"claimed\" }}\n"),
                "lead_crash.after_event = 'claimed': expected an event type",
            ),
            (
                format!("{review}lead_crash = {{ after_ms = 5 }}\n"),
                "lead_crash: only a run scenario",
            ),
            (
                "name = \"x\"\nrun = { repo = \"repo\", args = [\"--dry-run\"] }\n".into(),
                "run.args: '--dry-run' is set by the runner",
            ),
            (
                "name = \"x\"\nrun = { repo = \"nope\" }\n".into(),
                "run.repo = '",
            ),
            (
                format!("{run}review = {{ repo = \"repo\" }}\n"),
                "review and run: a scenario does one of them",
            ),
            (
                "name = \"x\"\n".into(),
                "expected review = { repo = … } (a review) or run",
            ),
        ];
        for (text, wanted) in cases {
            let err = parse_in(dir.path(), &text).expect_err(&text);
            assert!(err.contains(wanted), "{text}: {err}");
        }
    }
}
