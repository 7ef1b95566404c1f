//! One Lead per repository: `.retake/lock` holds the owner's pid and process start time. A lock
//! whose owner is gone (or whose pid now belongs to another process) is stale and taken over; a
//! live Lead's lock is respected.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A held lock; released (the file removed) when dropped.
#[derive(Debug)]
pub struct RepoLock {
    path: PathBuf,
}

/// The lock could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another Lead is running on this repository.
    #[error("another retake (pid {pid}) is running on this repository; wait for it or stop it (lock: {path})")]
    Held {
        /// Its pid.
        pid: u32,
        /// The lock file.
        path: String,
    },
    /// The lock file could not be created or read.
    #[error("cannot use the lock file {path}: {source}")]
    Io {
        /// The lock file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}

impl RepoLock {
    /// Takes `state_dir/lock`, taking over a stale one.
    pub fn acquire(state_dir: &Path) -> Result<RepoLock, LockError> {
        let path = state_dir.join("lock");
        let io = |source| LockError::Io {
            path: path.display().to_string(),
            source,
        };
        std::fs::create_dir_all(state_dir).map_err(io)?;
        let me = format!(
            "{} {}\n",
            std::process::id(),
            start_time(std::process::id()).unwrap_or(0)
        );
        for _ in 0..2 {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    f.write_all(me.as_bytes())
                        .and_then(|()| f.sync_all())
                        .map_err(io)?;
                    return Ok(RepoLock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    if let Some(pid) = live_owner(&text) {
                        return Err(LockError::Held {
                            pid,
                            path: path.display().to_string(),
                        });
                    }
                    tracing::warn!(lock = %path.display(), "taking over a stale lock");
                    match std::fs::remove_file(&path) {
                        Ok(()) => {}
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                        Err(e) => return Err(io(e)),
                    }
                }
                Err(e) => return Err(io(e)),
            }
        }
        let pid = live_owner(&std::fs::read_to_string(&path).unwrap_or_default()).unwrap_or(0);
        Err(LockError::Held {
            pid,
            path: path.display().to_string(),
        })
    }
}

impl Drop for RepoLock {
    fn drop(&mut self) {
        // Best effort: a lock left behind is detected as stale by the next Lead.
        let _removed = std::fs::remove_file(&self.path);
    }
}

/// The pid of the live Lead holding `state_dir/lock`, if one does (`retake status`).
pub fn holder(state_dir: &Path) -> Option<u32> {
    live_owner(&std::fs::read_to_string(state_dir.join("lock")).ok()?)
}

/// The owner's pid when the lock's owner is still the same live process.
fn live_owner(text: &str) -> Option<u32> {
    let mut parts = text.split_whitespace();
    let pid: u32 = parts.next()?.parse().ok()?;
    let started: u64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let now_started = start_time(pid)?;
    (started == 0 || now_started == started).then_some(pid)
}

/// A live process's start time (clock ticks since boot, field 22 of /proc/PID/stat), which
/// tells a live owner from a reused pid. A zombie (a Lead killed but not yet reaped by its
/// parent) has none: it holds nothing.
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may contain spaces and parentheses; fields resume after the last ')'.
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    if matches!(fields.next()?, "Z" | "X" | "x") {
        return None;
    }
    fields.nth(18)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_lock_is_respected_and_a_stale_one_taken_over() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(holder(dir.path()), None, "no lock file");
        let held = RepoLock::acquire(dir.path()).expect("first");
        assert_eq!(holder(dir.path()), Some(std::process::id()));
        let err = RepoLock::acquire(dir.path()).expect_err("second");
        assert!(
            matches!(err, LockError::Held { pid, .. } if pid == std::process::id()),
            "{err}"
        );
        drop(held);
        assert!(!dir.path().join("lock").exists(), "released on drop");
        // A dead owner: pid 0 never names a user process; a reused pid has another start time.
        std::fs::write(
            dir.path().join("lock"),
            format!("{} 1\n", std::process::id()),
        )
        .expect("write");
        assert_eq!(holder(dir.path()), None, "a reused pid holds nothing");
        let taken = RepoLock::acquire(dir.path()).expect("the pid was reused: stale");
        drop(taken);
        std::fs::write(dir.path().join("lock"), "4194999 0\n").expect("write");
        RepoLock::acquire(dir.path()).expect("dead pid: stale");
    }

    #[test]
    fn a_killed_lead_not_yet_reaped_holds_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut child = std::process::Command::new("true").spawn().expect("spawn");
        let stat = format!("/proc/{}/stat", child.id());
        // Not waited for: once it exits it stays a zombie of this process.
        let zombie = (0..500).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            std::fs::read_to_string(&stat).is_ok_and(|s| s.contains(") Z "))
        });
        assert!(zombie, "the child became a zombie");
        std::fs::write(dir.path().join("lock"), format!("{} 0\n", child.id())).expect("write");
        assert_eq!(holder(dir.path()), None);
        RepoLock::acquire(dir.path()).expect("a zombie's lock is stale");
        child.wait().expect("reap");
    }
}
