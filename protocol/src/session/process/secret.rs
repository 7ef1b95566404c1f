//! How an actor process receives the wire secret. A local child gets it on its standard input
//! (the Lead writes it into a pipe and closes it; [`SECRET_STDIN_ENV`] says so): read once at
//! start, then stdin is pointed at `/dev/null`, so no `/proc/<pid>/environ` and no inherited
//! descriptor of the actor holds it for the code under review to read. A remote worker gets it
//! from its environment (`RETAKE_SECRET`, as compose or Kubernetes configure it); the variable
//! is removed once read, and every command an actor starts runs without any `RETAKE_*SECRET*`
//! variable (`crate::exec` scrubs them). Removing the variable does not change the process's
//! initial environment block, which `/proc/<pid>/environ` keeps showing, so a worker that read
//! its secret from the environment also makes itself non-dumpable: only a process with
//! `CAP_SYS_PTRACE` (not the commands it runs in a container) can read that block then. A local
//! child, whose secret never was in its environment, stays dumpable (the scenario runner finds
//! leftover processes by reading their `/proc/<pid>/environ`).

use crate::wire::{Secret, WireError};
use std::io::Read;

/// Set (to `1`) by the Lead on a local child whose secret comes on standard input.
pub const SECRET_STDIN_ENV: &str = "RETAKE_SECRET_STDIN";

/// The longest secret text read from standard input (hex of a secret far above 32 bytes).
const MAX_SECRET_TEXT: u64 = 4096;

/// Takes the secret this process was handed — from standard input when [`SECRET_STDIN_ENV`] is
/// set, else from the environment — and leaves no copy of it behind but the returned value.
/// Call it at startup, before other threads exist.
pub fn take_secret() -> Result<Secret, WireError> {
    if std::env::var_os(SECRET_STDIN_ENV).is_none() {
        let secret = Secret::from_env()?;
        hide_initial_environment();
        return Ok(secret);
    }
    std::env::remove_var(SECRET_STDIN_ENV);
    let mut text = String::new();
    let read = std::io::stdin()
        .lock()
        .take(MAX_SECRET_TEXT)
        .read_to_string(&mut text);
    detach_stdin();
    read.map_err(|e| {
        WireError::InvalidSecret(format!("cannot read the secret from standard input: {e}"))
    })?;
    Secret::from_hex(&text)
}

/// Makes this process non-dumpable, so that `/proc/<pid>/environ` (which still holds the
/// secret the process was started with) is readable only with `CAP_SYS_PTRACE`.
fn hide_initial_environment() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_DUMPABLE, 0) only changes this process's own dumpable flag.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
}

/// Points standard input at `/dev/null`: the pipe the secret came through is closed.
fn detach_stdin() {
    #[cfg(unix)]
    if let Ok(null) = std::fs::File::open("/dev/null") {
        use std::os::fd::AsRawFd;
        // SAFETY: dup2 on two descriptors this process owns; `null` stays open until after.
        unsafe {
            libc::dup2(null.as_raw_fd(), libc::STDIN_FILENO);
        }
    }
}
