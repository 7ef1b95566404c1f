//! Why a scenario file is refused: one variant per mistake, each message naming the key as the
//! file spells it (`expect.verdict = 'MERGE': …`), so a typo is one line a user can act on.
//! [`crate::ScenarioError::Invalid`] puts the file's path in front.

use std::path::PathBuf;

/// What is wrong with a scenario file (its text, its keys, or what they point to).
#[derive(Debug, thiserror::Error)]
pub enum ScenarioFileError {
    /// The file could not be read.
    #[error("cannot read it: {source}")]
    Unreadable {
        /// The error.
        source: std::io::Error,
    },
    /// The text is not TOML, or a key is unknown or of the wrong type.
    #[error("{}{}", line.map(|l| format!("line {l}: ")).unwrap_or_default(), source.message().trim())]
    Syntax {
        /// The line of the mistake, when toml tells where it is.
        line: Option<usize>,
        /// toml's error (only its message is shown: its own rendering spans several lines).
        source: toml::de::Error,
    },
    /// `name` is blank.
    #[error("name: must not be empty")]
    EmptyName,
    /// `runtime` is none of the scenario runtimes.
    #[error("runtime = '{runtime}': expected local, inproc or compose")]
    UnknownRuntime {
        /// The runtime as written.
        runtime: String,
    },
    /// `runtime = "compose"` without a `[compose]` table.
    #[error("runtime = 'compose' needs a [compose] table (files, scale, actions)")]
    ComposeWithoutStack,
    /// A `[compose]` table in a scenario of another runtime.
    #[error("[compose]: only a runtime = 'compose' scenario has a stack, not '{runtime}'")]
    StackWithoutCompose {
        /// The scenario's runtime.
        runtime: String,
    },
    /// `faults` in a container scenario, whose remote Lead refuses fault plans.
    #[error(
        "faults: the Lead of the remote runtime refuses fault plans; put `--fault` on a \
         worker's command in a compose override file"
    )]
    FaultsInCompose,
    /// Both `review` and `run`.
    #[error("review and run: a scenario does one of them, not both")]
    ReviewAndRun,
    /// Neither `review` nor `run`.
    #[error("expected review = {{ repo = … }} (a review) or run = {{ repo = … }} (a run)")]
    NoTarget,
    /// `run` in a container scenario, which runs a review.
    #[error("run: a container scenario runs a review")]
    RunInCompose,
    /// `lead_crash` in a review scenario.
    #[error("lead_crash: only a run scenario (run = …) kills its Lead")]
    CrashOfReview,
    /// `run.range` is blank.
    #[error("run.range: must not be empty (all, a keyword, \"A to B\")")]
    EmptyRange,
    /// `lead_crash` with neither trigger.
    #[error(
        "lead_crash: give after_event (a timeline event, TYPE[:TASK[:ACTOR]]) and/or after_ms"
    )]
    CrashWithoutTrigger,
    /// `lead_crash.after_event` is not an event pattern.
    #[error("lead_crash.after_event = '{event}': {source}")]
    CrashEvent {
        /// The pattern as written.
        event: String,
        /// What is wrong with it.
        source: EventPatternError,
    },
    /// `review.repo` or `run.repo` is not a directory.
    #[error("{key}.repo = '{}': no such directory", path.display())]
    NoRepo {
        /// `review` or `run`.
        key: &'static str,
        /// The path looked for (relative to the scenario's folder).
        path: PathBuf,
    },
    /// `review.added` is not a file inside the repository.
    #[error(
        "review.added = '{}': not a file of the repository (a relative path inside it)",
        added.display()
    )]
    AddedOutside {
        /// The path as written.
        added: PathBuf,
    },
    /// An argument the runner passes itself.
    #[error("{key}.args: '{arg}' is set by the runner (runtime = …, faults = […])")]
    ReservedArg {
        /// `review` or `run`.
        key: &'static str,
        /// The argument as written.
        arg: String,
    },
    /// A fault spec that does not parse.
    #[error("faults[{index}] = '{fault}': {source}")]
    Fault {
        /// Its index in `faults`.
        index: usize,
        /// The spec as written.
        fault: String,
        /// What is wrong with it.
        source: protocol::chaos::ChaosParseError,
    },
    /// A `config` key that is not `SECTION.KEY`.
    #[error("config.\"{key}\": expected SECTION.KEY, e.g. supervision.inspect_deadline_secs")]
    ConfigKey {
        /// The key, dotted.
        key: String,
    },
    /// A `config` key the application's configuration refuses ([`crate::ConfigCheck`]).
    #[error("config.\"{key}\": {message}")]
    ConfigRefused {
        /// The key, dotted.
        key: String,
        /// The configuration's own message.
        message: String,
    },
    /// A `config` value that is a table, which no environment variable can carry.
    #[error("config.\"{key}\": a table cannot be passed as a variable")]
    ConfigTable {
        /// The key, dotted.
        key: String,
    },
    /// `expect.verdict` is not a verdict.
    #[error("expect.verdict = '{verdict}': expected GO, CONDITIONAL, NO-GO or SPEC-UPDATE-NEEDED")]
    Verdict {
        /// The verdict as written.
        verdict: String,
    },
    /// `expect.decision` is not a decision.
    #[error("expect.decision = '{decision}': expected APPROVE, REQUEST_CHANGES, REJECT or STOP")]
    Decision {
        /// The decision as written.
        decision: String,
    },
    /// `expect.max_seconds` is not a positive, finite number.
    #[error("expect.max_seconds = {seconds}: expected a positive number of seconds")]
    MaxSeconds {
        /// The number as written.
        seconds: f64,
    },
    /// An `[expect]` key of the other kind of scenario (a review's in a run's, or the reverse).
    #[error("expect.{key}: an expectation of {kind}")]
    OtherKindExpect {
        /// The key.
        key: &'static str,
        /// Whose key it is: `a review's (review = …)` or `a run's (run = …)`.
        kind: &'static str,
    },
    /// `expect.restarts` of a run names an actor other than an Implementer.
    #[error("expect.restarts.{actor}: a run counts its Implementers' re-spawns (implementer-N)")]
    RunRestarts {
        /// The actor as written.
        actor: String,
    },
    /// An `expect.events` entry that is not an event pattern.
    #[error("expect.events[{index}] = '{event}': {source}")]
    ExpectEvent {
        /// Its index in `expect.events`.
        index: usize,
        /// The pattern as written.
        event: String,
        /// What is wrong with it.
        source: EventPatternError,
    },
    /// `compose.files` is empty.
    #[error("compose.files: name at least the base compose file")]
    NoComposeFiles,
    /// A `compose.files` entry that is not a file.
    #[error("compose.files[{index}] = '{}': no such file", path.display())]
    NoComposeFile {
        /// Its index in `compose.files`.
        index: usize,
        /// The path looked for (relative to the scenario's folder).
        path: PathBuf,
    },
    /// `compose.scale` gives a service no replica.
    #[error("compose.scale.{service} = 0: a scenario's service runs at least once")]
    ZeroScale {
        /// The service.
        service: String,
    },
    /// A `compose.actions` entry's `do` is not an action.
    #[error(
        "compose.actions[{index}].do = '{verb}': expected kill, crash, pause, unpause, \
         disconnect, connect, restart or run"
    )]
    UnknownAction {
        /// Its index in `compose.actions`.
        index: usize,
        /// The action as written.
        verb: String,
    },
    /// A `compose.actions` entry's `when` is not a trigger.
    #[error(
        "compose.actions[{index}].when = '{when}': expected idle, submitted or \
         claimed:INSTANCE (claimed:inspector-quality)"
    )]
    UnknownTrigger {
        /// Its index in `compose.actions`.
        index: usize,
        /// The trigger as written.
        when: String,
    },
    /// A `compose.actions` entry's `service` is blank.
    #[error("compose.actions[{index}].service: must name a compose service")]
    NoService {
        /// Its index in `compose.actions`.
        index: usize,
    },
    /// An `idle` action after one of another trigger.
    #[error(
        "compose.actions[{index}].when = 'idle': idle actions come first (they are done before \
         the job)"
    )]
    LateIdle {
        /// Its index in `compose.actions`.
        index: usize,
    },
    /// `exit_code` or `stderr` on an action other than `run`.
    #[error(
        "compose.actions[{index}]: exit_code and stderr check a `run` action's one-shot container"
    )]
    RunChecksElsewhere {
        /// Its index in `compose.actions`.
        index: usize,
    },
}

/// Why a timeline event pattern (`TYPE[:TASK[:ACTOR]]`) is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventPatternError {
    /// The type is empty or not upper case.
    #[error("expected an event type such as TASK_COMPLETED, then :TASK and :ACTOR")]
    NoType,
    /// The task is not a number.
    #[error("'{task}' is not a task number")]
    NotATask {
        /// The task as written.
        task: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::config_check;
    use crate::ScenarioError;
    use protocol::chaos::ChaosParseError;

    /// The typed refusal of a scenario of the folder `dir` whose text is `text`.
    fn refusal(dir: &std::path::Path, text: &str) -> ScenarioFileError {
        let file = dir.join("s.toml");
        match crate::file::parse(text, &file, config_check).expect_err(text) {
            ScenarioError::Invalid { file: named, error } => {
                assert_eq!(named, file);
                *error
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_refused_file_is_a_typed_error_with_the_key_in_its_message() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("repo")).expect("mkdir");
        let review = "name = \"x\"\nreview = { repo = \"repo\" }\n";
        let run = "name = \"x\"\nrun = { repo = \"repo\" }\n";

        let e = refusal(dir.path(), &format!("{review}[expect]\nverdit = \"GO\"\n"));
        assert!(
            matches!(e, ScenarioFileError::Syntax { line: Some(4), .. }),
            "{e:?}"
        );
        assert!(
            e.to_string().starts_with("line 4: unknown field `verdit`"),
            "{e}"
        );

        let e = refusal(
            dir.path(),
            &format!("{review}faults = [\"auditor:explode\"]\n"),
        );
        match &e {
            ScenarioFileError::Fault {
                index: 0,
                fault,
                source: ChaosParseError::UnknownFault(name),
            } => assert_eq!(
                (fault.as_str(), name.as_str()),
                ("auditor:explode", "explode")
            ),
            other => panic!("{other:?}"),
        }
        assert!(e
            .to_string()
            .starts_with("faults[0] = 'auditor:explode': unknown fault 'explode'"));

        let e = refusal(
            dir.path(),
            &format!("{run}[expect]\nevents = [\"TASK_DONE:one\"]\n"),
        );
        match &e {
            ScenarioFileError::ExpectEvent {
                index: 0,
                source: EventPatternError::NotATask { task },
                ..
            } => assert_eq!(task, "one"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            e.to_string(),
            "expect.events[0] = 'TASK_DONE:one': 'one' is not a task number"
        );

        let e = refusal(
            dir.path(),
            &format!("{run}lead_crash = {{ after_event = \"x\" }}\n"),
        );
        assert!(
            matches!(
                &e,
                ScenarioFileError::CrashEvent {
                    source: EventPatternError::NoType,
                    ..
                }
            ),
            "{e:?}"
        );

        let e = refusal(
            dir.path(),
            &format!("{review}config = {{ \"test.cmd\" = 1 }}\n"),
        );
        match &e {
            ScenarioFileError::ConfigRefused { key, message } => {
                assert_eq!(
                    (key.as_str(), message.as_str()),
                    ("test.cmd", "unknown field `cmd`")
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(e.to_string(), "config.\"test.cmd\": unknown field `cmd`");

        let e = refusal(
            dir.path(),
            &format!("{review}[expect]\nmax_seconds = -1.5\n"),
        );
        assert!(matches!(e, ScenarioFileError::MaxSeconds { seconds } if seconds == -1.5));
        assert_eq!(
            e.to_string(),
            "expect.max_seconds = -1.5: expected a positive number of seconds"
        );

        let e = refusal(dir.path(), "name = \"x\"\nreview = { repo = \"nope\" }\n");
        assert!(
            matches!(e, ScenarioFileError::NoRepo { key: "review", .. }),
            "{e:?}"
        );
        let missing = dir.path().join("nope");
        assert_eq!(
            e.to_string(),
            format!("review.repo = '{}': no such directory", missing.display())
        );
    }

    #[test]
    fn an_unreadable_file_names_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("absent.toml");
        let e = crate::load(&file, config_check).expect_err("absent");
        assert!(
            matches!(&e, ScenarioError::Invalid { error, .. }
                if matches!(**error, ScenarioFileError::Unreadable { .. })),
            "{e:?}"
        );
        let wanted = format!("{}: cannot read it: ", file.display());
        assert!(e.to_string().starts_with(&wanted), "{e}");
    }
}
