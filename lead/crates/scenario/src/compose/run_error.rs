//! Why a step of a container scenario failed: the stack not whole, an action not done, the
//! journal not read. The runner reports each as a problem of the scenario (its message after
//! what was being done), not as an error of the run.

use super::api::ApiError;
use super::docker::DockerError;
use std::time::Duration;

/// Why the stack is not whole (the Lead answering, every worker idle in its pool).
#[derive(Debug, thiserror::Error)]
pub(super) enum WholeError {
    /// Its containers could not be listed.
    #[error(transparent)]
    Docker(#[from] DockerError),
    /// It did not become whole in time.
    #[error("not whole after {} s: {last}", within.as_secs())]
    NotWhole {
        /// The time it had.
        within: Duration,
        /// What was seen last.
        last: NotYet,
    },
}

/// What was seen last of a stack that is not whole yet.
#[derive(Debug, thiserror::Error)]
pub(super) enum NotYet {
    /// The Lead's API never answered its health check.
    #[error("the Lead's API never answered")]
    NoAnswer,
    /// Fewer workers are idle in the pool than there are worker containers.
    #[error("{idle} of {workers} workers registered")]
    Registering {
        /// Idle registered workers.
        idle: u32,
        /// Worker containers.
        workers: usize,
    },
    /// The Lead's metrics could not be read (boxed: the HTTP client's error is large).
    #[error(transparent)]
    Metrics(Box<ApiError>),
}

/// Why an action was not done to its container, or its one-shot container ended otherwise than
/// the scenario expects.
#[derive(Debug, thiserror::Error)]
pub(super) enum ActionError {
    /// A Compose or docker command failed.
    #[error(transparent)]
    Docker(#[from] DockerError),
    /// The service runs several containers and none serves the claimed worker.
    #[error(
        "{running} running containers and none serves the claimed worker {}",
        worker.as_deref().unwrap_or("(no claim trigger)")
    )]
    NoTarget {
        /// The service's running containers.
        running: usize,
        /// The claimed worker; none when the action has no claim trigger.
        worker: Option<String>,
    },
    /// A `run` action was to be done to a running container.
    #[error("a one-shot container has no running container to act on")]
    OneShot,
    /// Docker reports no first process of the container to crash.
    #[error("{container} has no running process (pid '{pid}')")]
    NoProcess {
        /// The container.
        container: String,
        /// What `docker inspect` reported as its pid.
        pid: String,
    },
    /// The container's first process could not be signalled.
    #[error("cannot signal pid {pid} of {container}: {source}")]
    Signal {
        /// The process.
        pid: i32,
        /// The container.
        container: String,
        /// Why.
        source: std::io::Error,
    },
    /// The one-shot container ended with another exit code than the action's `exit_code`.
    #[error("exit {code:?}, expected {wanted}: {last}")]
    ExitCode {
        /// Its exit code; none when a signal ended it.
        code: Option<i32>,
        /// The action's `exit_code`.
        wanted: i32,
        /// Its standard error's telling line (retake's error line, else the last).
        last: String,
    },
    /// The one-shot container's standard error lacks the action's `stderr`.
    #[error("its standard error lacks '{text}': {last}")]
    Stderr {
        /// The action's `stderr`.
        text: String,
        /// Its standard error's telling line (retake's error line, else the last).
        last: String,
    },
}

/// Why the reports journaled in the Lead's state volume could not be listed.
#[derive(Debug, thiserror::Error)]
pub(super) enum JournalError {
    /// No local folder to copy them to.
    #[error(transparent)]
    Scratch(std::io::Error),
    /// `docker cp` failed.
    #[error(transparent)]
    Copy(#[from] DockerError),
    /// The copied folder could not be listed.
    #[error(transparent)]
    Listing(std::io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stack_not_whole_says_what_was_seen_last() {
        let e = WholeError::NotWhole {
            within: Duration::from_secs(60),
            last: NotYet::Registering {
                idle: 3,
                workers: 8,
            },
        };
        assert_eq!(
            e.to_string(),
            "not whole after 60 s: 3 of 8 workers registered"
        );
        let e = ActionError::NoTarget {
            running: 2,
            worker: None,
        };
        assert_eq!(
            e.to_string(),
            "2 running containers and none serves the claimed worker (no claim trigger)"
        );
        let e = ActionError::ExitCode {
            code: None,
            wanted: 2,
            last: "retake: error: x".into(),
        };
        assert_eq!(e.to_string(), "exit None, expected 2: retake: error: x");
    }
}
