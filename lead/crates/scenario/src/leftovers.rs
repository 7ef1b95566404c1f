//! Leftover processes: every process a scenario starts inherits a unique tag in its environment
//! (children inherit it from the review, grandchildren from them), so "no process left over"
//! means no process whose `/proc/<pid>/environ` carries the tag. A container scenario's
//! leftovers are the Docker objects still labelled with its Compose project.

use std::fmt;
use std::time::{Duration, Instant};

/// The environment variable that carries a run's tag.
pub const TAG_ENV: &str = "RETAKE_SCENARIO_TAG";

/// Something that outlived its run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Leftover {
    /// A process carrying the run's tag.
    Process {
        /// Its process id.
        pid: u32,
        /// Its command line, for the message.
        command: String,
    },
    /// A container, network or volume of the run's Compose project.
    Docker {
        /// `container`, `network` or `volume`.
        kind: &'static str,
        /// Its id.
        id: String,
    },
}

impl fmt::Display for Leftover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Leftover::Process { pid, command } => write!(f, "pid {pid} ({command})"),
            Leftover::Docker { kind, id } => write!(f, "{kind} {id}"),
        }
    }
}

/// Whether an environment block (`/proc/<pid>/environ`: NUL-separated `KEY=VALUE`) carries `tag`.
pub fn carries(environ: &[u8], tag: &str) -> bool {
    let wanted = format!("{TAG_ENV}={tag}");
    environ
        .split(|b| *b == 0)
        .any(|entry| entry == wanted.as_bytes())
}

/// The live processes carrying `tag` (zombies are dead: their environment reads empty).
pub fn tagged(tag: &str) -> Vec<Leftover> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        // Other users' processes and ones that exit meanwhile cannot be read: not ours anyway.
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if carries(&environ, tag) {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let command = cmdline
                .split(|b| *b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect::<Vec<_>>()
                .join(" ");
            found.push(Leftover::Process { pid, command });
        }
    }
    found.sort_by_key(|l| match l {
        Leftover::Process { pid, .. } => *pid,
        Leftover::Docker { .. } => 0,
    });
    found
}

/// The processes still carrying `tag` after giving them `within` to exit.
pub fn wait_gone(tag: &str, within: Duration) -> Vec<Leftover> {
    let until = Instant::now() + within;
    loop {
        let left = tagged(tag);
        if left.is_empty() || Instant::now() >= until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// Kills leftover processes so one failing scenario does not burden the next.
pub fn kill(leftovers: &[Leftover]) {
    for l in leftovers {
        let Leftover::Process { pid, .. } = l else {
            continue;
        };
        let Ok(pid) = i32::try_from(*pid) else {
            continue;
        };
        // The pid was just read from /proc and carries this run's tag, so it is a process this
        // run started (or its descendant); one that is gone meanwhile needs no kill.
        protocol::exec::child::kill_process(pid).ok();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tag_matches_whole_entries_only() {
        let env = b"PATH=/bin\0RETAKE_SCENARIO_TAG=abc\0HOME=/h\0";
        assert!(carries(env, "abc"));
        assert!(!carries(env, "ab"));
        assert!(!carries(b"RETAKE_SCENARIO_TAG=abcd\0", "abc"));
        assert!(!carries(b"", "abc"));
    }

    #[test]
    fn a_tagged_child_is_found_until_it_is_killed() {
        let tag = format!("t{}", std::process::id());
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .env(TAG_ENV, &tag)
            .spawn()
            .expect("spawn sleep");
        // Until the child has exec'd, /proc shows the parent's environment: poll briefly.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        let mut found = tagged(&tag);
        while found.is_empty() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
            found = tagged(&tag);
        }
        assert_eq!(
            found,
            vec![Leftover::Process {
                pid: child.id(),
                command: "sleep 30".into()
            }]
        );
        kill(&found);
        child.wait().expect("reap");
        assert_eq!(wait_gone(&tag, Duration::from_millis(300)), Vec::new());
    }
}
