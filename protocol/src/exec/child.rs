//! Long-lived children the caller supervises itself — the local runtime's actor processes —
//! set up here so that every process the workspace starts is set up in `exec/`: no secret of the
//! parent in its environment, a process group of its own (killed as a group with
//! [`kill_group`]), the parent-death signal (it dies with the process that started it, even
//! killed with SIGKILL), no core files (a crash-only actor that aborts on purpose must not leave
//! one in the reviewed repository), and a refusal to run when the parent died before the
//! parent-death signal was set.

use std::path::Path;

/// A command for a long-lived child of `program`: the caller adds its arguments and streams,
/// spawns it, waits for it, and ends it with [`kill_group`].
pub fn supervised(program: &Path) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(program);
    // The parent's own secret variables (a configured `RETAKE__WIRE__SECRET`) stay with it.
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(super::is_secret_variable) {
            cmd.env_remove(name);
        }
    }
    cmd.kill_on_drop(true).process_group(0);
    // SAFETY: the closure runs in the child between fork and exec and only calls the
    // async-signal-safe functions prctl, setrlimit and getppid.
    unsafe {
        cmd.pre_exec(|| {
            #[cfg(target_os = "linux")]
            {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                let no_core = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: 0,
                };
                if libc::setrlimit(libc::RLIMIT_CORE, &no_core) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The parent may have died between fork and prctl: then nobody would kill us.
                if libc::getppid() == 1 {
                    return Err(std::io::Error::other("the parent is gone"));
                }
            }
            Ok(())
        });
    }
    cmd
}

/// Kills the process group `pgid` (a [`supervised`] child's pid) with SIGKILL; nothing for 0.
pub fn kill_group(pgid: i32) {
    if pgid > 0 {
        // SAFETY: kill(2) with a negative pid signals a process group; it has no memory effects.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Kills the process `pid` alone with SIGKILL (what it started lives on). The caller must know
/// the number still names the process it means: a child it has not reaped, a pid it just read.
pub fn kill_process(pid: i32) -> std::io::Result<()> {
    if pid <= 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("no process {pid}"),
        ));
    }
    // SAFETY: kill(2) takes plain integers and touches no memory of ours.
    if unsafe { libc::kill(pid, libc::SIGKILL) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_supervised_child_leads_its_group_and_dies_with_it() {
        let mut child = supervised(Path::new("sleep"))
            .arg("30")
            .spawn()
            .expect("spawn sleep");
        let pid = child.id().expect("running") as i32;
        // SAFETY: getpgid(2) reads a process's group id; no memory of ours is touched.
        let pgid = unsafe { libc::getpgid(pid) };
        assert_eq!(pgid, pid, "its own process group");
        kill_group(pid);
        let status = child.wait().await.expect("waited");
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(9)
        );
    }
}
