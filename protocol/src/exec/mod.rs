//! Running external commands — the test command, git, linters, executors, agent backends — for
//! every actor and the Lead: an argv (no shell) in a directory with optional stdin bytes and
//! extra environment, stdout and stderr captured, the child in its own process group under a
//! guard ([`guard`]: the group dies with this process), and the whole group killed on timeout.
//!
//! Pipes are drained by threads of their own (stdin is fed by a third) while the calling
//! thread polls the child, so a chatty command can never fill a pipe and deadlock.

pub mod child;
pub mod git;
pub mod guard;
pub mod sandbox;
mod watched;

pub use watched::{run_watched, Watched};

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Output kept per stream; the rest is read and dropped so the child never blocks.
const MAX_CAPTURE: usize = 8 * 1024 * 1024;

/// The first pause between two looks at a running command, doubled after each look up to
/// [`LAST_POLL`]: a git call of a few milliseconds (a session review makes dozens) is seen to
/// end within about its own run time, where a fixed 20 ms pause cost 20 ms each.
const FIRST_POLL: Duration = Duration::from_millis(1);
/// The longest pause: a long test run is still looked at only every 20 ms.
const LAST_POLL: Duration = Duration::from_millis(20);

/// How long to wait for the pipes after the command exited (a daemon it started may hold them).
const PIPE_GRACE: Duration = Duration::from_secs(5);

/// A command that ran to completion.
#[derive(Debug)]
pub struct Finished {
    /// Its exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// Its standard output (capped).
    pub stdout: Vec<u8>,
    /// Its standard error (capped).
    pub stderr: Vec<u8>,
}

/// A command that did not run to completion.
#[derive(Debug)]
pub enum RunError {
    /// It could not be started (not found, not executable, empty argv).
    Spawn(std::io::Error),
    /// It ran past the timeout; its process group was killed.
    TimedOut,
}

/// What a command gets besides its argv.
#[derive(Debug, Default)]
pub struct Extra {
    /// Written to stdin on a thread of its own, then stdin is closed; `None` closes it at once.
    pub stdin: Option<Vec<u8>>,
    /// Added to the inherited environment.
    pub env: Vec<(String, String)>,
}

/// Runs `argv` in `cwd` with `extra`, killing its process group after `timeout`. A relative
/// program path with a `/` is taken relative to `cwd` (the repository), not to our own
/// working directory.
pub fn run(
    argv: &[String],
    cwd: &Path,
    timeout: Duration,
    extra: &Extra,
) -> Result<Finished, RunError> {
    let mut running = Running::start(argv, cwd, extra)?;
    let deadline = Instant::now() + timeout;
    let mut pause = FIRST_POLL;
    let status = loop {
        match running.child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {
                let now = Instant::now();
                if now >= deadline {
                    kill_group(&mut running.child);
                    return Err(RunError::TimedOut);
                }
                std::thread::sleep((deadline - now).min(pause));
                pause = (pause * 2).min(LAST_POLL);
            }
            Err(e) => {
                kill_group(&mut running.child);
                return Err(RunError::Spawn(e));
            }
        }
    };
    let [stdout, stderr] = running.output();
    Ok(Finished {
        code: status.code(),
        stdout,
        stderr,
    })
}

/// A started command whose pipes are being drained.
pub(crate) struct Running {
    pub(crate) child: Child,
    output: mpsc::Receiver<(usize, Vec<u8>)>,
    readers: usize,
}

impl Running {
    /// Starts `argv` in `cwd` with `extra` (see [`run`]): secrets scrubbed, its own process
    /// group under the guard, stdin fed and stdout/stderr drained by threads of their own.
    pub(crate) fn start(argv: &[String], cwd: &Path, extra: &Extra) -> Result<Running, RunError> {
        let Some((program, args)) = argv.split_first() else {
            return Err(RunError::Spawn(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "empty command",
            )));
        };
        let program = if program.contains('/') && Path::new(program).is_relative() {
            cwd.join(program)
        } else {
            PathBuf::from(program)
        };
        let mut command = Command::new(program);
        scrub_secrets(&mut command);
        command
            .args(args)
            .envs(extra.env.iter().map(|(k, v)| (k, v)))
            .current_dir(cwd)
            .stdin(if extra.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        isolate(&mut command);
        let mut child = command.spawn().map_err(RunError::Spawn)?;
        if let (Some(input), Some(mut pipe)) = (extra.stdin.clone(), child.stdin.take()) {
            std::thread::spawn(move || {
                // A command that exits without reading its input closes the pipe: nothing to do.
                pipe.write_all(&input).ok();
            });
        }
        let (tx, output) = mpsc::channel::<(usize, Vec<u8>)>();
        let mut readers = 0;
        if let Some(out) = child.stdout.take() {
            drain(out, 0, tx.clone());
            readers += 1;
        }
        if let Some(err) = child.stderr.take() {
            drain(err, 1, tx.clone());
            readers += 1;
        }
        Ok(Running {
            child,
            output,
            readers,
        })
    }

    /// What the command wrote to stdout and stderr (capped), once it has exited: the pipes get
    /// [`PIPE_GRACE`] to close (a daemon it started may hold them).
    pub(crate) fn output(self) -> [Vec<u8>; 2] {
        let mut streams = [Vec::new(), Vec::new()];
        let grace_end = Instant::now() + PIPE_GRACE;
        for _ in 0..self.readers {
            match self
                .output
                .recv_timeout(grace_end.saturating_duration_since(Instant::now()))
            {
                Ok((i, bytes)) => streams[i] = bytes,
                Err(_) => break,
            }
        }
        streams
    }
}

/// Whether `program` can be started from `root` (checked before a run, to name the setting to
/// fix): a path (relative to the repository) that exists, or a name found on `PATH`.
pub fn program_found(program: &str, root: &Path) -> bool {
    if program.contains('/') {
        let path = Path::new(program);
        return if path.is_absolute() {
            path.is_file()
        } else {
            root.join(path).is_file()
        };
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Whether an environment variable carries one of retake's secrets (`RETAKE_SECRET`, the
/// layered `RETAKE__WIRE__SECRET`, …): what a remote worker got from its environment.
pub fn is_secret_variable(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.starts_with("RETAKE_") && upper.contains("SECRET")
}

/// Keeps retake's secrets out of what the command inherits: the code under review (a test, an
/// agent, an executor) runs with the actor's environment otherwise, and could then authenticate
/// to the Lead as anyone.
fn scrub_secrets(command: &mut Command) {
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(is_secret_variable) {
            command.env_remove(name);
        }
    }
}

/// Reads a pipe to its end on a thread of its own and sends what it kept.
fn drain(mut pipe: impl Read + Send + 'static, index: usize, tx: mpsc::Sender<(usize, Vec<u8>)>) {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 16 * 1024];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = MAX_CAPTURE.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        // The receiver is gone only when the run was abandoned; the output is not wanted then.
        tx.send((index, kept)).ok();
    });
}

/// Puts the child in a process group of its own (so a timeout kills everything it started)
/// under a guard that kills that group if this process dies first ([`guard`]).
#[cfg(unix)]
fn isolate(command: &mut Command) {
    guard::guard(command);
}

#[cfg(not(unix))]
fn isolate(_command: &mut Command) {}

/// Kills the child's whole process group, then reaps the child.
pub(crate) fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        // The child leads its own group (`process_group(0)`) and has not been reaped yet, so
        // its pid is the group id and cannot have been reused.
        let pgid = child.id() as libc::pid_t;
        // SAFETY: kill(2) takes plain integers and touches no memory of ours.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    {
        // Already exited is the only failure, and then there is nothing to kill.
        child.kill().ok();
    }
    // Reaping fails only if the child was already reaped, which `run` never does before.
    child.wait().ok();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn feeds_stdin_adds_the_environment_and_captures_both_streams() {
        let dir = tempfile::tempdir().expect("tempdir");
        let extra = Extra {
            stdin: Some(b"prompt\n".to_vec()),
            env: vec![("RETAKE_IMPL_TEST".into(), "seen".into())],
        };
        let done = run(
            &argv(&[
                "sh",
                "-c",
                "cat; echo \"$RETAKE_IMPL_TEST\"; echo err >&2; exit 3",
            ]),
            dir.path(),
            Duration::from_secs(10),
            &extra,
        )
        .expect("ran");
        assert_eq!(
            (done.code, done.stdout, done.stderr),
            (Some(3), b"prompt\nseen\n".to_vec(), b"err\n".to_vec())
        );
    }

    #[test]
    fn secret_variables_are_recognised_and_others_pass() {
        assert!(is_secret_variable("RETAKE_SECRET"));
        assert!(is_secret_variable("RETAKE__WIRE__SECRET"));
        assert!(is_secret_variable("retake_secret_fd"));
        assert!(!is_secret_variable("RETAKE_IMPL_TEST"));
        assert!(!is_secret_variable("MY_SECRET"));
    }

    #[cfg(unix)]
    #[test]
    fn a_relative_program_path_is_taken_from_the_working_directory() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("bin")).expect("mkdir");
        let tool = dir.path().join("bin/tool");
        std::fs::write(&tool, "#!/bin/sh\necho from-the-repo\n").expect("write");
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let limit = Duration::from_secs(10);
        let done = run(&argv(&["bin/tool"]), dir.path(), limit, &Extra::default()).expect("ran");
        assert_eq!(done.stdout, b"from-the-repo\n");
        let err = run(
            &argv(&["bin/missing"]),
            dir.path(),
            limit,
            &Extra::default(),
        );
        assert!(matches!(err, Err(RunError::Spawn(e)) if e.kind() == std::io::ErrorKind::NotFound));
        assert!(matches!(
            run(&[], dir.path(), limit, &Extra::default()),
            Err(RunError::Spawn(_))
        ));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_timeout_kills_the_whole_group() {
        let dir = tempfile::tempdir().expect("tempdir");
        let started = Instant::now();
        let err = run(
            &argv(&["sh", "-c", "sleep 30 & echo $! > grandchild; wait"]),
            dir.path(),
            Duration::from_millis(300),
            &Extra::default(),
        );
        assert!(matches!(err, Err(RunError::TimedOut)));
        assert!(started.elapsed() < Duration::from_secs(3));
        let pid = std::fs::read_to_string(dir.path().join("grandchild")).expect("pid file");
        let pid = pid.trim().to_string();
        // Dead once gone from /proc or a zombie (a container's init may never reap it).
        let alive = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
        };
        let gone = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            !alive()
        });
        assert!(gone, "grandchild {pid} survived the group kill");
    }
}
