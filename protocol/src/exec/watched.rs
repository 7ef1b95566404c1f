//! A command run under a watcher: like [`super::run`] (argv, no shell, secrets scrubbed, its own
//! process group under the guard, output captured and capped), but the caller looks at the run
//! while it goes on and may end it — the scenario runner kills a `retake run`'s Lead when its
//! trigger fires, then checks what outlived it — and a run past its time is reported with what
//! it printed so far instead of as an error.

use super::{kill_group, Extra, Finished, RunError, Running};
use std::path::Path;
use std::time::{Duration, Instant};

/// How often the watcher is asked.
const LOOK_EVERY: Duration = Duration::from_millis(10);

/// How a watched command ended.
#[derive(Debug)]
pub struct Watched {
    /// Its exit code (`None` when a signal ended it: a timeout, the watcher's kill) and what it
    /// printed, also when it was killed.
    pub finished: Finished,
    /// It ran past the timeout: its whole process group was killed.
    pub timed_out: bool,
    /// The watcher asked for its end: the command's own process was killed, and only it — what
    /// it started is left for the caller to find.
    pub stopped: bool,
}

/// Runs `argv` in `cwd` with `extra` until it exits; every 10 ms `stop` is asked whether to
/// kill the command's own process now (`Watched::stopped`); past `timeout` its whole process
/// group is killed (`Watched::timed_out`). Fails only when it cannot be started or waited for.
pub fn run_watched(
    argv: &[String],
    cwd: &Path,
    timeout: Duration,
    extra: &Extra,
    mut stop: impl FnMut() -> bool,
) -> Result<Watched, std::io::Error> {
    let mut running = Running::start(argv, cwd, extra).map_err(|e| match e {
        RunError::Spawn(e) => e,
        RunError::TimedOut => std::io::Error::other("timed out before it started"),
    })?;
    let deadline = Instant::now() + timeout;
    let (mut timed_out, mut stopped) = (false, false);
    let status = loop {
        if let Some(status) = running.child.try_wait()? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            timed_out = true;
            kill_group(&mut running.child);
            break None;
        }
        if stop() {
            stopped = true;
            // Not reaped yet, so the pid is still the child's; a child that exited meanwhile
            // is reaped below all the same.
            super::child::kill_process(running.child.id() as i32).ok();
            break Some(running.child.wait()?);
        }
        std::thread::sleep(LOOK_EVERY);
    };
    let [stdout, stderr] = running.output();
    Ok(Watched {
        finished: Finished {
            code: status.and_then(|s| s.code()),
            stdout,
            stderr,
        },
        timed_out,
        stopped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn a_watched_command_ends_by_itself_by_the_watcher_or_by_its_time() {
        let dir = tempfile::tempdir().expect("tempdir");
        let extra = Extra::default();
        let done = run_watched(
            &argv(&["sh", "-c", "echo out; echo err >&2; exit 4"]),
            dir.path(),
            Duration::from_secs(10),
            &extra,
            || false,
        )
        .expect("ran");
        assert_eq!(
            (
                done.finished.code,
                done.finished.stdout,
                done.finished.stderr,
                done.timed_out,
                done.stopped
            ),
            (Some(4), b"out\n".to_vec(), b"err\n".to_vec(), false, false)
        );
        let mut looks = 0;
        let stopped = run_watched(
            &argv(&["sh", "-c", "echo started; exec sleep 30"]),
            dir.path(),
            Duration::from_secs(10),
            &extra,
            || {
                looks += 1;
                looks == 20
            },
        )
        .expect("ran");
        assert_eq!(
            (
                stopped.finished.code,
                stopped.finished.stdout,
                stopped.stopped,
                stopped.timed_out
            ),
            (None, b"started\n".to_vec(), true, false)
        );
        let late = run_watched(
            &argv(&["sh", "-c", "echo partial; exec sleep 30"]),
            dir.path(),
            Duration::from_millis(300),
            &extra,
            || false,
        )
        .expect("ran");
        assert_eq!(
            (
                late.finished.code,
                late.finished.stdout,
                late.timed_out,
                late.stopped
            ),
            (None, b"partial\n".to_vec(), true, false)
        );
    }
}
