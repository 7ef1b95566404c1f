//! The process guard: whatever a command starts dies with the process that started the
//! command.
//!
//! The parent-death signal reaches a direct child only: an agent script killed with its
//! Implementer leaves its own children (a compiler, a test binary, a `sleep`) running, orphaned.
//! So a guarded command runs under a guard process: the forked child leads a process group of
//! its own and forks once more before exec — that second child execs the command, in the
//! guard's group — while the guard stays behind, waiting for signals. When the process that
//! started it dies the guard gets its parent-death signal (SIGTERM) and kills its whole group;
//! when the command ends the guard ends the same way (same exit code, or the same signal). The
//! starter's `Child` is the guard: its pid is the group id, its status the command's.

use std::process::Command;

/// Runs `command` in a process group of its own under a guard (on Linux; elsewhere in its own
/// process group only). Killing the group (`kill(-pid, …)`) still ends everything.
pub fn guard(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
    #[cfg(target_os = "linux")]
    {
        let starter = std::process::id() as libc::pid_t;
        // SAFETY: the closure runs in the forked child between fork and exec; `linux::split`
        // makes only async-signal-safe calls (sigprocmask, sigaction, prctl, getpid, getppid,
        // fork, close, sigtimedwait, waitpid, kill, _exit), takes no locks and allocates
        // nothing.
        unsafe {
            command.pre_exec(move || linux::split(starter));
        }
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::io::Error;

    /// The guard's parent-death signal (blocked, so it is waited for, not acted on).
    const PARENT_DIED: libc::c_int = libc::SIGTERM;

    fn check(ret: libc::c_int) -> std::io::Result<()> {
        if ret == -1 {
            Err(Error::last_os_error())
        } else {
            Ok(())
        }
    }

    /// In the forked child: becomes the guard, and returns only in the command's process
    /// (which then execs).
    pub(super) fn split(starter: libc::pid_t) -> std::io::Result<()> {
        // SAFETY: plain system calls on local values.
        unsafe {
            let mut watched: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut watched);
            libc::sigaddset(&mut watched, libc::SIGCHLD);
            libc::sigaddset(&mut watched, PARENT_DIED);
            check(libc::sigprocmask(
                libc::SIG_BLOCK,
                &watched,
                std::ptr::null_mut(),
            ))?;
            // An inherited SIG_IGN would discard SIGCHLD (and auto-reap the command).
            libc::signal(libc::SIGCHLD, libc::SIG_DFL);
            check(libc::prctl(
                libc::PR_SET_PDEATHSIG,
                PARENT_DIED as libc::c_ulong,
                0,
                0,
                0,
            ))?;
            // The starter may have died between fork and prctl; no signal would come then.
            if libc::getppid() != starter {
                return Err(Error::from_raw_os_error(libc::ESRCH));
            }
            let guard = libc::getpid();
            let command = libc::fork();
            if command == -1 {
                return Err(Error::last_os_error());
            }
            if command == 0 {
                let mut none: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut none);
                check(libc::sigprocmask(
                    libc::SIG_SETMASK,
                    &none,
                    std::ptr::null_mut(),
                ))?;
                check(libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0,
                    0,
                    0,
                ))?;
                if libc::getppid() != guard {
                    return Err(Error::from_raw_os_error(libc::ESRCH));
                }
                return Ok(());
            }
            watch(command, &watched)
        }
    }

    /// The guard's life: it holds no descriptor (the starter sees the command's output end
    /// and its exec succeed as if there were no guard), waits, and mirrors the command's end.
    unsafe fn watch(command: libc::pid_t, watched: &libc::sigset_t) -> ! {
        close_all();
        let tick = libc::timespec {
            tv_sec: 1,
            tv_nsec: 0,
        };
        loop {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            if libc::sigtimedwait(watched, &mut info, &tick) == PARENT_DIED {
                // Our own group: the command and everything it started, and this guard.
                libc::kill(0, libc::SIGKILL);
                libc::_exit(128 + libc::SIGKILL);
            }
            // A SIGCHLD, a tick or an interruption: has the command ended?
            let mut status = 0;
            if libc::waitpid(command, &mut status, libc::WNOHANG) != command {
                continue;
            }
            if libc::WIFEXITED(status) {
                libc::_exit(libc::WEXITSTATUS(status));
            }
            if libc::WIFSIGNALED(status) {
                let signal = libc::WTERMSIG(status);
                let mut only: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut only);
                libc::sigaddset(&mut only, signal);
                libc::signal(signal, libc::SIG_DFL);
                libc::sigprocmask(libc::SIG_UNBLOCK, &only, std::ptr::null_mut());
                libc::kill(libc::getpid(), signal);
                libc::_exit(128 + signal);
            }
        }
    }

    /// Closes every descriptor: `close_range` where the kernel has it, else one by one.
    unsafe fn close_all() {
        if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) == 0 {
            return;
        }
        let mut limit: libc::rlimit = std::mem::zeroed();
        let max = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur.min(65_536) as libc::c_int
        } else {
            1024
        };
        for fd in 0..max {
            libc::close(fd);
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        guard(&mut c);
        c
    }

    /// Whether `pid` is gone or a zombie (it ended; its parent did not reap it yet).
    fn ended(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        })
    }

    #[test]
    fn the_command_s_exit_code_signal_and_output_come_through() {
        let out = sh("echo out; echo err >&2; exit 7").output().expect("ran");
        assert_eq!(
            (out.status.code(), out.stdout, out.stderr),
            (Some(7), b"out\n".to_vec(), b"err\n".to_vec())
        );
        let out = sh("kill -TERM $$").output().expect("ran");
        assert_eq!((out.status.code(), out.status.signal()), (None, Some(15)));
        let mut missing = Command::new("/no/such/program");
        guard(&mut missing);
        let err = missing.spawn().expect_err("not found");
        assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    }

    #[test]
    fn a_grandchild_dies_when_the_starting_thread_does() {
        // The parent-death signal follows the thread that spawned: a thread that starts the
        // command and ends stands for an Implementer killed mid-command.
        let (mut guard, grandchild) = std::thread::spawn(|| {
            let mut child = sh("sleep 60 & echo $!; wait")
                .stdout(Stdio::piped())
                .spawn()
                .expect("spawn");
            let mut line = [0u8; 16];
            let n = child
                .stdout
                .take()
                .expect("stdout")
                .read(&mut line)
                .expect("read");
            let pid = String::from_utf8_lossy(&line[..n]).trim().to_string();
            (child, pid)
        })
        .join()
        .expect("thread");
        assert!(grandchild.parse::<u32>().is_ok(), "{grandchild}");
        let started = Instant::now();
        while !ended(&grandchild) {
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "the sleep outlived the thread that started its parent"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let status = guard.wait().expect("reap the guard");
        assert_eq!(
            status.signal(),
            Some(libc::SIGKILL),
            "it killed its own group"
        );
    }
}
