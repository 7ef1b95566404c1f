//! `retake serve` as a child process, with the addresses its first line on standard error
//! names; killed when dropped.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running `retake serve`.
pub struct Serve {
    child: Child,
    /// Where workers connect (`host:port`).
    pub workers: String,
    /// The API's base URL (`http://host:port`).
    pub api: String,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _kill = self.child.kill();
        let _reaped = self.child.wait();
    }
}

impl Serve {
    /// The wire secret the service and its workers share.
    pub const SECRET: &'static str =
        "abababababababababababababababababababababababababababababababab";

    /// `retake serve` on loopback ports, its jobs in `jobs`, repositories under `root`, the
    /// wire secret [`Serve::SECRET`], with `args` and `env` added.
    pub fn start(jobs: &Path, root: &Path, args: &[&str], env: &[(&str, &str)]) -> Serve {
        let mut command = Command::new(env!("CARGO_BIN_EXE_retake"));
        command
            .args(["serve", "--listen", "127.0.0.1:0", "--api", "127.0.0.1:0"])
            .arg("--jobs-dir")
            .arg(jobs)
            .arg("--repos-root")
            .arg(root)
            .args(args)
            .env_remove("RETAKE_API_TOKEN")
            .env("RETAKE__WIRE__SECRET", Self::SECRET)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let mut reader = BufReader::new(stderr);
        let mut line = String::new();
        reader.read_line(&mut line).expect("line");
        // The rest is the service's log: drained, so that a full pipe never blocks it.
        std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
        // retake serve: workers connect to A; API on http://B; job reports in DIR; …
        let field = |after: &str| {
            line.split(after)
                .nth(1)
                .and_then(|r| r.split(';').next())
                .unwrap_or_else(|| panic!("{line}"))
                .to_string()
        };
        Serve {
            workers: field("workers connect to "),
            api: field("API on "),
            child,
        }
    }
}
