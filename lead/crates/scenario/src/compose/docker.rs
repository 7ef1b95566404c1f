//! The Compose and Docker command lines a container scenario drives: one project per scenario
//! (`-p NAME`), brought up, acted on container by container, and taken down with its volumes;
//! then whatever still carries the project's label is a leftover.

use crate::leftovers::Leftover;
use protocol::exec::{Extra, RunError};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a Compose or docker command may run (a `compose up --wait` starts a whole stack).
const LIMIT: Duration = Duration::from_secs(600);

/// How long a probe for the Compose command may take.
const PROBE: Duration = Duration::from_secs(30);

/// The environment variable that names the Compose command (`docker compose`, `docker-compose`);
/// unset, `docker compose` when the plugin answers, else `docker-compose`.
pub const COMPOSE_ENV: &str = "RETAKE_COMPOSE";

/// No Compose command answers on this machine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "container scenarios need Docker Compose: neither `docker compose` nor `docker-compose` \
     answers (or set {})",
    COMPOSE_ENV
)]
pub struct ComposeMissing;

/// Why a Compose or docker command did not do its work; each names the command as it is shown
/// (the program and the arguments given, without a project's `-p` and `-f`).
#[derive(Debug, thiserror::Error)]
pub enum DockerError {
    /// It could not be started (the program is not installed, not executable).
    #[error("{command}: cannot run it: {source}")]
    NotRun {
        /// The command.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// It ran past its time limit; its process group was killed.
    #[error("{command}: still running after {} s", limit.as_secs())]
    TimedOut {
        /// The command.
        command: String,
        /// The limit.
        limit: Duration,
    },
    /// It ended with an exit status other than 0, or by a signal.
    #[error(
        "{command}: {} ({})",
        stderr.join(" / "),
        code.map_or_else(|| "ended by a signal".to_string(), |c| format!("exit status: {c}"))
    )]
    Failed {
        /// The command.
        command: String,
        /// The last (at most three) non-blank lines of its standard error.
        stderr: Vec<String>,
        /// Its exit code; none when a signal ended it.
        code: Option<i32>,
    },
}

/// The Compose command line to use, or why there is none.
pub fn compose_program() -> Result<Vec<String>, ComposeMissing> {
    if let Some(text) = std::env::var(COMPOSE_ENV)
        .ok()
        .filter(|t| !t.trim().is_empty())
    {
        return Ok(text.split_whitespace().map(str::to_string).collect());
    }
    for candidate in [&["docker", "compose"][..], &["docker-compose"][..]] {
        let argv: Vec<String> = candidate
            .iter()
            .chain(&["version"])
            .map(|s| s.to_string())
            .collect();
        let answered = protocol::exec::run(&argv, Path::new("."), PROBE, &Extra::default())
            .is_ok_and(|done| done.code == Some(0));
        if answered {
            return Ok(candidate.iter().map(|s| s.to_string()).collect());
        }
    }
    Err(ComposeMissing)
}

/// One Compose project: its command, name, files and the variables its files read.
#[derive(Debug, Clone)]
pub struct Compose {
    /// `docker compose` or `docker-compose`.
    pub program: Vec<String>,
    /// The project name (containers, networks and volumes carry it).
    pub project: String,
    /// `-f` files, the base first.
    pub files: Vec<PathBuf>,
    /// Variables for the files' `${…}` (`RETAKE_REPO`, `RETAKE_SECRET`, …).
    pub env: Vec<(String, String)>,
}

/// The label Compose puts on everything of a project.
const PROJECT_LABEL: &str = "com.docker.compose.project";

impl Compose {
    /// Runs `compose -p P -f F… ARGS`; its standard output, or its standard error's last lines.
    pub fn run(&self, args: &[&str]) -> Result<String, DockerError> {
        let mut argv: Vec<String> = self.program.clone();
        argv.extend(["-p".to_string(), self.project.clone()]);
        for file in &self.files {
            argv.extend(["-f".to_string(), file.display().to_string()]);
        }
        argv.extend(args.iter().map(|a| a.to_string()));
        output(
            &argv,
            self.env.clone(),
            &format!("{} {}", self.program.join(" "), args.join(" ")),
        )
        .map(|(stdout, _)| stdout)
    }

    /// `compose run --rm -T SERVICE` (a one-shot container beside the stack): its exit code
    /// and standard error, whatever the code.
    pub fn run_once(&self, service: &str) -> Result<(Option<i32>, String), DockerError> {
        let mut argv: Vec<String> = self.program.clone();
        argv.extend(["-p".to_string(), self.project.clone()]);
        for file in &self.files {
            argv.extend(["-f".to_string(), file.display().to_string()]);
        }
        argv.extend(["run", "--rm", "-T", service].map(String::from));
        let what = format!("{} run --rm -T {service}", self.program.join(" "));
        let done = finished(&argv, self.env.clone(), &what)?;
        Ok((
            done.code,
            String::from_utf8_lossy(&done.stderr).into_owned(),
        ))
    }

    /// `up -d` with the replicas of `scale`.
    pub fn up(&self, scale: &[(String, u32)]) -> Result<(), DockerError> {
        let mut args: Vec<String> = vec!["up".into(), "-d".into()];
        for (service, n) in scale {
            args.push("--scale".into());
            args.push(format!("{service}={n}"));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        self.run(&args).map(drop)
    }

    /// The running containers of `service` (full ids), or of every service when `None`.
    pub fn containers(&self, service: Option<&str>) -> Result<Vec<String>, DockerError> {
        let mut args = vec!["ps", "-q"];
        args.extend(service);
        Ok(self
            .run(&args)?
            .split_whitespace()
            .map(str::to_string)
            .collect())
    }

    /// `down` with the project's volumes and orphans, containers given `grace_secs` to stop.
    pub fn down(&self, grace_secs: u32) -> Result<(), DockerError> {
        let grace = grace_secs.to_string();
        self.run(&["down", "-v", "--remove-orphans", "-t", &grace])
            .map(drop)
    }

    /// The name Compose gives the project's network `key`.
    pub fn network(&self, key: &str) -> String {
        format!("{}_{key}", self.project)
    }

    /// Containers, networks and volumes still labelled with the project.
    pub fn leftovers(&self) -> Vec<Leftover> {
        let filter = format!("label={PROJECT_LABEL}={}", self.project);
        let mut left = Vec::new();
        for (kind, args) in [
            ("container", vec!["ps", "-aq", "--filter", &filter]),
            ("network", vec!["network", "ls", "-q", "--filter", &filter]),
            ("volume", vec!["volume", "ls", "-q", "--filter", &filter]),
        ] {
            // A listing that fails (the daemon went away) shows nothing: the CI script's own
            // sweep still removes what the project left.
            for id in docker(&args).unwrap_or_default().split_whitespace() {
                left.push(Leftover::Docker {
                    kind,
                    id: id.to_string(),
                });
            }
        }
        left
    }
}

/// Runs `docker ARGS`; its standard output, or its standard error's last lines.
pub(super) fn docker(args: &[&str]) -> Result<String, DockerError> {
    let argv: Vec<String> = std::iter::once("docker")
        .chain(args.iter().copied())
        .map(str::to_string)
        .collect();
    output(&argv, Vec::new(), &format!("docker {}", args.join(" "))).map(|(stdout, _)| stdout)
}

/// Everything a container wrote (`docker logs`: its standard output, then its standard error,
/// where the Lead's tracing goes).
pub(super) fn logs(container: &str) -> Result<String, DockerError> {
    let argv = ["docker", "logs", container].map(str::to_string);
    let (stdout, stderr) = output(&argv, Vec::new(), &format!("docker logs {container}"))?;
    Ok(stdout + &stderr)
}

/// Removes leftovers by force (containers first: they hold the networks and volumes).
pub(super) fn remove(leftovers: &[Leftover]) {
    for kind in ["container", "network", "volume"] {
        let ids: Vec<&str> = leftovers
            .iter()
            .filter_map(|l| match l {
                Leftover::Docker { kind: k, id } if *k == kind => Some(id.as_str()),
                _ => None,
            })
            .collect();
        if ids.is_empty() {
            continue;
        }
        let mut args = match kind {
            "container" => vec!["rm", "-f", "-v"],
            "network" => vec!["network", "rm"],
            _ => vec!["volume", "rm", "-f"],
        };
        args.extend(ids);
        // Best effort: what cannot be removed was already reported as left over.
        let _removed = docker(&args);
    }
}

/// Runs `argv` to its end (see [`output`]), whatever its exit code.
fn finished(
    argv: &[String],
    env: Vec<(String, String)>,
    what: &str,
) -> Result<protocol::exec::Finished, DockerError> {
    let extra = Extra { stdin: None, env };
    match protocol::exec::run(argv, Path::new("."), LIMIT, &extra) {
        Ok(done) => Ok(done),
        Err(RunError::TimedOut) => Err(DockerError::TimedOut {
            command: what.to_string(),
            limit: LIMIT,
        }),
        Err(RunError::Spawn(source)) => Err(DockerError::NotRun {
            command: what.to_string(),
            source,
        }),
    }
}

/// Runs `argv` through the workspace's one process runner (its own process group under the
/// guard, killed as a group at [`LIMIT`]): its standard output and error, or its standard
/// error's last lines.
fn output(
    argv: &[String],
    env: Vec<(String, String)>,
    what: &str,
) -> Result<(String, String), DockerError> {
    let done = finished(argv, env, what)?;
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    if done.code == Some(0) {
        return Ok((text(&done.stdout), text(&done.stderr)));
    }
    let stderr = text(&done.stderr);
    let tail: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.trim().is_empty())
        .rev()
        .take(3)
        .collect();
    Err(DockerError::Failed {
        command: what.to_string(),
        stderr: tail.into_iter().rev().map(str::to_string).collect(),
        code: done.code,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Result<(String, String), DockerError> {
        let argv = ["sh", "-c", script].map(str::to_string);
        output(&argv, Vec::new(), "docker ps")
    }

    #[test]
    fn a_failed_command_shows_its_last_error_lines_and_its_status() {
        let e = sh("echo one >&2; echo >&2; echo two >&2; echo three >&2; echo four >&2; exit 3")
            .expect_err("exit 3");
        match &e {
            DockerError::Failed {
                command,
                stderr,
                code,
            } => {
                assert_eq!(command, "docker ps");
                assert_eq!(stderr, &["two", "three", "four"]);
                assert_eq!(*code, Some(3));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            e.to_string(),
            "docker ps: two / three / four (exit status: 3)"
        );
        let e = sh("echo gone >&2; kill -9 $$").expect_err("killed");
        assert_eq!(e.to_string(), "docker ps: gone (ended by a signal)");
        assert_eq!(sh("echo out; echo err >&2").expect("ran").0, "out\n");
    }

    #[test]
    fn a_command_that_cannot_start_says_so() {
        let argv = ["/nonexistent/docker".to_string()];
        let e = output(&argv, Vec::new(), "docker ps").expect_err("no such program");
        assert!(matches!(e, DockerError::NotRun { .. }), "{e:?}");
        assert!(
            e.to_string().starts_with("docker ps: cannot run it: "),
            "{e}"
        );
    }
}
