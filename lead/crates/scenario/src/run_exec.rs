//! Running a run scenario for real: copy the repository, make the copy a git work tree with one
//! commit (a shipped fixture is kept git-less), start `retake run RANGE --runtime R [--chaos
//! --fault F…] ARGS` in it with the scenario's tag — killing its Lead on the scenario's trigger
//! and finishing with `retake resume COPY` (`lead_crash`) — then read what the run left behind
//! (`run_check`) and look for processes that outlived it.

use super::history::{commits_since, work_tree};
use super::lead_crash::{self, Watch, HOLD_ENV};
use super::leftovers;
use super::observed::Observed;
use super::run_check::{self, RunFacts};
use super::run_kind::RunSpec;
use super::runner::{fresh_copy, journal_listing, tagged, Execution};
use super::{io, Scenario, ScenarioError};
use host::Runtime;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long processes get to vanish after the run (or the resume) exits.
const LEFTOVER_GRACE: Duration = Duration::from_millis(300);

/// How one command ended.
struct Ended {
    code: Option<i32>,
    timed_out: bool,
    /// Killed by the scenario's trigger (the Lead crash), not by the time bound.
    triggered: bool,
    stdout: String,
    stderr: String,
}

/// The flags of the scenario's `retake run`: its runtime, its faults, its own arguments.
fn run_flags(scenario: &Scenario) -> Vec<String> {
    let mut flags = vec![
        "--runtime".to_string(),
        Runtime::name(scenario.runtime).to_string(),
    ];
    if !scenario.faults.is_empty() {
        flags.push("--chaos".into());
        for fault in &scenario.faults {
            flags.extend(["--fault".to_string(), fault.clone()]);
        }
    }
    flags.extend(scenario.args.iter().cloned());
    flags
}

/// Runs `scenario` (a run) with `exe` and observes the outcome.
pub fn execute(
    scenario: &Scenario,
    run: &RunSpec,
    exe: &Path,
    keep: bool,
) -> Result<Execution, ScenarioError> {
    let (tmp, copy, tag) = fresh_copy(scenario)?;
    let base = work_tree(&copy)?;
    let hold = tmp.path().join("hold");
    let program = exe.display().to_string();
    let command = |args: &[&str]| -> Vec<String> {
        std::iter::once(program.clone())
            .chain(args.iter().map(|a| a.to_string()))
            .collect()
    };
    let mut first = command(&["run", &run.range]);
    first.extend(run_flags(scenario));
    let extra = tagged(scenario, &tag, &[(HOLD_ENV, hold.as_path())]);
    let go = |argv: Vec<String>, until: Instant, trigger: &mut dyn FnMut() -> bool| {
        run_until(&argv, &copy, &extra, until, trigger)
    };
    let started = Instant::now();
    let until = started + Duration::from_secs_f64(scenario.expect.max_seconds() * 2.0);
    let mut problems = Vec::new();
    let mut killed_with = None;
    let ended = match &run.lead_crash {
        None => go(first, until, &mut || false)?,
        Some(crash) => {
            lead_crash::hold(&hold).map_err(io("cannot write the hold file"))?;
            let mut watch = Watch::new(crash, &copy, started);
            let ended = go(first, until, &mut || {
                let due = watch.due(Instant::now());
                if due {
                    killed_with = Some(leftovers::tagged(&tag).len());
                }
                due
            })?;
            if ended.triggered {
                problems.extend(lead_crash::orphans(&tag, scenario.expect.no_leftovers));
                // Only now: an executor that outlived its Lead must not go on meanwhile.
                let _gone = std::fs::remove_file(&hold);
                let copy_arg = copy.display().to_string();
                go(command(&["resume", &copy_arg]), until, &mut || false)?
            } else {
                problems.push(if ended.timed_out {
                    format!(
                        "its Lead was never killed: {} did not come",
                        watch.describe()
                    )
                } else {
                    format!(
                        "the run ended ({}) before its Lead was to be killed ({})",
                        status_text(ended.code),
                        watch.describe()
                    )
                });
                ended
            }
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let left = leftovers::wait_gone(&tag, LEFTOVER_GRACE);
    leftovers::kill(&left);
    let facts = RunFacts {
        timeline: read(&copy.join(".retake/state/timeline.jsonl")),
        tasks: read(&copy.join(".retake/state/tasks.json")),
        commits: commits_since(&copy, &base),
        state_file: copy.join(".retake/state/active.json").is_file(),
        report: ended.stdout,
        killed_with,
    };
    let observed = Observed {
        exit_code: if ended.timed_out { None } else { ended.code },
        timed_out: ended.timed_out,
        json: Some(run_check::summary(&facts)),
        journal: journal_listing(&copy, None),
        seconds,
        leftovers: left,
        stderr_tail: ended
            .stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
            .to_string(),
        problems,
    };
    let kept = keep.then(|| tmp.keep());
    Ok(Execution { observed, kept })
}

/// Runs `argv` in `cwd` until it exits; past `until` its whole process group is killed
/// (`timed_out`); when `trigger` says so first, its own process alone is (`triggered`): the Lead
/// of a run, whose executors are then looked for.
fn run_until(
    argv: &[String],
    cwd: &Path,
    extra: &protocol::exec::Extra,
    until: Instant,
    trigger: &mut dyn FnMut() -> bool,
) -> Result<Ended, ScenarioError> {
    let limit = until.saturating_duration_since(Instant::now());
    let ended = protocol::exec::run_watched(argv, cwd, limit, extra, trigger)
        .map_err(io("cannot run retake"))?;
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    Ok(Ended {
        code: ended.finished.code,
        timed_out: ended.timed_out,
        triggered: ended.stopped,
        stdout: text(ended.finished.stdout),
        stderr: text(ended.finished.stderr),
    })
}

fn status_text(code: Option<i32>) -> String {
    match code {
        Some(code) => format!("exit {code}"),
        None => "killed by a signal".into(),
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}
