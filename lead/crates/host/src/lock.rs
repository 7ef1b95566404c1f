//! One Lead per repository: `.retake/lock`.
//!
//! The lock file appears whole or not at all: its content — `pid start-time hostname boot-id` —
//! is written to a temporary file that is then linked to `lock` (fails if one exists) or,
//! taking over a stale lock, renamed over it. Its owner holds an exclusive `flock` on it from
//! before it appears until the file is removed, so a reader never sees a half-written lock and
//! never mistakes a live owner for a dead one.
//!
//! A lock is stale only when its owner is provably gone: its `flock` is free (the kernel drops it
//! with the owner's last descriptor) and, when the owner ran in this container since this boot
//! (same hostname and boot id), its pid is dead, reused or a zombie. A lock written on another
//! kernel (another boot id, another hostname) proves nothing about its owner — a volume shared
//! between machines may not share `flock` — and is respected. Taking over is serialised by the
//! `flock` of the stale file itself: only the process holding it renames its own lock over it,
//! after checking the path still names that file.

use std::fs::File;
use std::os::unix::fs::MetadataExt as _;
use std::os::unix::io::AsRawFd as _;
use std::path::{Path, PathBuf};

/// A held lock; released (the file removed) when dropped.
#[derive(Debug)]
pub struct RepoLock {
    path: PathBuf,
    /// The open lock file: holds the `flock` for as long as the lock is held.
    file: File,
}

/// The lock could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another Lead is running on this repository.
    #[error("another retake (pid {pid} on {host}) is running on this repository; wait for it or stop it (lock: {path})")]
    Held {
        /// Its pid.
        pid: u32,
        /// Its hostname (`?` when the lock does not say).
        host: String,
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

/// What a lock file says about its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Owner {
    pid: u32,
    /// Clock ticks since boot (0: unknown).
    started: u64,
    /// `None` in a lock written before hostnames were recorded (same host assumed).
    host: Option<String>,
    boot: Option<String>,
}

impl Owner {
    fn me() -> Owner {
        let pid = std::process::id();
        Owner {
            pid,
            started: start_time(pid).unwrap_or(0),
            host: Some(this_host()),
            boot: Some(this_boot()),
        }
    }

    fn parse(text: &str) -> Option<Owner> {
        let mut parts = text.split_whitespace();
        let pid = parts.next()?.parse().ok()?;
        let started = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        Some(Owner {
            pid,
            started,
            host: parts.next().map(str::to_string),
            boot: parts.next().map(str::to_string),
        })
    }

    fn line(&self) -> String {
        format!(
            "{} {} {} {}\n",
            self.pid,
            self.started,
            self.host.as_deref().unwrap_or("?"),
            self.boot.as_deref().unwrap_or("?")
        )
    }

    /// Whether the owner is provably gone, given that its `flock` is free.
    fn gone_when_unlocked(&self) -> bool {
        let same_host = self.host.as_deref().is_none_or(|h| h == this_host());
        let same_boot = self.boot.as_deref().is_none_or(|b| b == this_boot());
        match (same_host, same_boot) {
            // Our own pid namespace since this boot: the pid must be dead too.
            (true, true) => {
                start_time(self.pid).is_none_or(|now| self.started != 0 && now != self.started)
            }
            // This host before a reboot: every process of that boot is gone.
            (true, false) => true,
            // Another container on this kernel: its free flock is the proof.
            (false, true) => true,
            // Another kernel: nothing here proves it gone.
            (false, false) => false,
        }
    }

    fn held(&self, path: &Path) -> LockError {
        LockError::Held {
            pid: self.pid,
            host: self.host.clone().unwrap_or_else(|| "?".into()),
            path: path.display().to_string(),
        }
    }
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
        let me = Owner::me().line();
        // A few rounds: a lock released or replaced while we looked at it is looked at again.
        for _ in 0..8 {
            let mine = prepared(state_dir, &me).map_err(io)?;
            let mine = match mine.persist_noclobber(&path) {
                Ok(file) => return Ok(RepoLock { path, file }),
                Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => e.file,
                Err(e) => return Err(io(e.error)),
            };
            let theirs = match File::open(&path) {
                Ok(f) => f,
                // Released between our link and our open: try again.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io(e)),
            };
            let owner = Owner::parse(&std::fs::read_to_string(&path).unwrap_or_default());
            if !try_flock(&theirs, libc::LOCK_EX) {
                // Held by its owner, or by another Lead taking it over right now.
                return Err(match owner {
                    Some(o) => o.held(&path),
                    None => LockError::Held {
                        pid: 0,
                        host: "?".into(),
                        path: path.display().to_string(),
                    },
                });
            }
            if !same_file(&theirs, &path) {
                // Released (or taken over) while we locked it: look again.
                continue;
            }
            // Read under the flock: this is the content of the file we hold.
            let owner = Owner::parse(&std::fs::read_to_string(&path).unwrap_or_default());
            if let Some(o) = owner.as_ref().filter(|o| !o.gone_when_unlocked()) {
                return Err(o.held(&path));
            }
            tracing::warn!(lock = %path.display(), owner = ?owner, "taking over a stale lock");
            // We hold the stale file's flock and the path still names it: nobody else may
            // replace it now, so the rename swaps exactly that file for ours.
            let file = mine.persist(&path).map_err(|e| io(e.error))?;
            drop(theirs);
            return Ok(RepoLock { path, file });
        }
        let owner = Owner::parse(&std::fs::read_to_string(&path).unwrap_or_default());
        Err(owner.map_or_else(
            || LockError::Held {
                pid: 0,
                host: "?".into(),
                path: path.display().to_string(),
            },
            |o| o.held(&path),
        ))
    }
}

/// Our lock's content in a temporary file of `dir`, flocked before it can appear as the lock.
fn prepared(dir: &Path, line: &str) -> std::io::Result<tempfile::NamedTempFile> {
    use std::io::Write as _;
    let mut tmp = tempfile::Builder::new()
        .prefix(".lock.")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    if !try_flock(tmp.as_file(), libc::LOCK_EX) {
        return Err(std::io::Error::other("cannot flock a new temporary file"));
    }
    tmp.write_all(line.as_bytes())?;
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

impl Drop for RepoLock {
    fn drop(&mut self) {
        // Only our own file: if the path names another (it never should), it is not ours to
        // remove. The flock goes with the descriptor, after the file is gone. Best effort: a lock
        // left behind is stale once this process is gone.
        if same_file(&self.file, &self.path) {
            let _removed = std::fs::remove_file(&self.path);
        }
    }
}

/// The pid of the live Lead holding `state_dir/lock`, if one does (`retake status`). Reads
/// only: a shared `flock` probe does not change the file.
pub fn holder(state_dir: &Path) -> Option<u32> {
    let path = state_dir.join("lock");
    let file = File::open(&path).ok()?;
    let owner = Owner::parse(&std::fs::read_to_string(&path).ok()?)?;
    if try_flock(&file, libc::LOCK_SH) && owner.gone_when_unlocked() {
        return None;
    }
    Some(owner.pid)
}

/// Takes `flock(op)` without waiting; true when taken.
fn try_flock(file: &File, op: libc::c_int) -> bool {
    // SAFETY: flock takes a descriptor this `File` owns for the duration of the call.
    unsafe { libc::flock(file.as_raw_fd(), op | libc::LOCK_NB) == 0 }
}

/// Whether `path` still names the open `file` (same device and inode).
fn same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// This container's hostname (its UTS namespace's, not `$HOSTNAME`, which anyone can set).
fn this_host() -> String {
    token(std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default())
}

/// This kernel's boot id: another value means another machine or another boot.
fn this_boot() -> String {
    token(std::fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap_or_default())
}

/// One whitespace-free token of the lock line (`?` when unknown).
fn token(text: String) -> String {
    let t: String = text.trim().chars().filter(|c| !c.is_whitespace()).collect();
    if t.is_empty() {
        "?".into()
    } else {
        t
    }
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
mod tests;
