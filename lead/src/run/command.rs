//! The commands the Lead itself runs in a `retake run` besides git (`work_tree`): Phase C's
//! integration verification and the fix pipeline's test gate. Each goes through the one process
//! runner, `protocol::exec`: its own process group under the guard (the group dies with the
//! Lead), killed as a group at its time limit, no secret in its environment, and in its sandbox
//! (`protocol::exec::sandbox`: build output under `.retake/build/`, a lock file it creates
//! removed after), so the tree holds only what the run's work changed.

use std::path::Path;
use std::time::Duration;

/// How a command ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ran {
    /// Exit code; `None` when a signal ended it or it timed out.
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Whether the time limit killed it.
    pub timed_out: bool,
}

impl Ran {
    /// Exit 0.
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }

    /// The last non-empty line of its error output (or its output), for a one-line message.
    pub fn last_line(&self) -> String {
        let pick = |t: &str| {
            t.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| l.trim().to_string())
        };
        pick(&self.stderr)
            .or_else(|| pick(&self.stdout))
            .unwrap_or_default()
    }
}

/// Runs `argv` in `cwd` with `env` added, killing its process group after `timeout`, through
/// the workspace's one process runner ([`protocol::exec::run`]).
pub fn run(
    argv: &[String],
    cwd: &Path,
    env: &[(&str, &str)],
    timeout: Duration,
) -> std::io::Result<Ran> {
    let mut all = protocol::exec::sandbox::build_env(cwd);
    all.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let extra = protocol::exec::Extra {
        stdin: None,
        env: all,
    };
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    let locks = protocol::exec::sandbox::LockGuard::before(cwd);
    let ran = protocol::exec::run(argv, cwd, timeout, &extra);
    locks.restore();
    match ran {
        Ok(done) => Ok(Ran {
            code: done.code,
            stdout: text(done.stdout),
            stderr: text(done.stderr),
            timed_out: false,
        }),
        Err(protocol::exec::RunError::TimedOut) => Ok(Ran {
            code: None,
            stdout: String::new(),
            stderr: String::new(),
            timed_out: true,
        }),
        Err(protocol::exec::RunError::Spawn(e)) => Err(e),
    }
}

/// Total (passed, run) of a test command's output, when it says (the `test result:` lines of
/// `cargo test`, or any other runner's summary the test Inspector reads): the workspace's one
/// reading of test output, [`inspector::rules::summarise`].
pub fn cargo_test_counts(output: &str) -> Option<(u32, u32)> {
    let summary = inspector::rules::summarise(output);
    summary
        .summarised
        .then_some((summary.passed, summary.passed + summary.failed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_runs_and_a_slow_one_is_killed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let argv = |s: &str| vec!["sh".to_string(), "-c".into(), s.into()];
        let ran = run(
            &argv("echo out; echo err >&2; exit 3"),
            dir.path(),
            &[],
            Duration::from_secs(10),
        )
        .expect("ran");
        assert_eq!(
            (ran.code, ran.stdout.as_str(), ran.last_line().as_str()),
            (Some(3), "out\n", "err")
        );
        let slow = run(
            &argv("sleep 5"),
            dir.path(),
            &[],
            Duration::from_millis(100),
        )
        .expect("ran");
        assert!(slow.timed_out && !slow.ok());
    }

    #[test]
    fn cargo_counts_add_up_over_test_binaries() {
        let out = "running 2 tests\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\
                   test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n";
        assert_eq!(cargo_test_counts(out), Some((5, 6)));
        assert_eq!(cargo_test_counts("no tests here"), None);
    }
}
