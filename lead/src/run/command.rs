//! The commands the Lead itself runs in a `retake run`: git (argv, never a shell) and Phase C's
//! integration verification. Each runs in its own process group under the Implementers' process
//! guard (the group dies with the Lead) and is killed as a group at its time limit, like every
//! command an actor runs.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

/// Runs `argv` in `cwd` with `env` added, killing its process group after `timeout`.
pub fn run(
    argv: &[String],
    cwd: &Path,
    env: &[(&str, &str)],
    timeout: Duration,
) -> std::io::Result<Ran> {
    let Some((program, args)) = argv.split_first() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "empty command",
        ));
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(cwd)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Its own process group under a guard: what it starts (cargo's rustc and test binaries)
    // dies with the Lead too.
    protocol::exec::guard::guard(&mut cmd);
    let mut child = cmd.spawn()?;
    let out = child.stdout.take().map(drain);
    let err = child.stderr.take().map(drain);
    let deadline = Instant::now() + timeout;
    let (code, timed_out) = loop {
        if let Some(status) = child.try_wait()? {
            break (status.code(), false);
        }
        if Instant::now() >= deadline {
            kill_group(child.id());
            let _reaped = child.wait();
            break (None, true);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // Whatever the command left running in its group goes too.
    kill_group(child.id());
    let collect = |h: Option<std::thread::JoinHandle<String>>| {
        h.and_then(|h| h.join().ok()).unwrap_or_default()
    };
    Ok(Ran {
        code,
        stdout: collect(out),
        stderr: collect(err),
        timed_out,
    })
}

fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _partial = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

fn kill_group(pid: u32) {
    if let Ok(pgid) = i32::try_from(pid) {
        if pgid > 0 {
            // SAFETY: kill(2) on a process group; no memory effects.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
}

/// Total (passed, run) of the `test result:` lines of `cargo test` output, when there are any.
pub fn cargo_test_counts(output: &str) -> Option<(u32, u32)> {
    let mut found = None;
    for line in output.lines() {
        let Some(rest) = line.trim().strip_prefix("test result: ") else {
            continue;
        };
        let number = |word: &str| {
            rest.split(';')
                .find_map(|part| {
                    part.trim()
                        .strip_suffix(word)?
                        .trim()
                        .rsplit(' ')
                        .next()?
                        .parse::<u32>()
                        .ok()
                })
                .unwrap_or(0)
        };
        let (passed, failed) = (number(" passed"), number(" failed"));
        let (p, t) = found.unwrap_or((0, 0));
        found = Some((p + passed, t + passed + failed));
    }
    found
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
