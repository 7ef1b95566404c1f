//! What the dashboard tests share: a command that serves a dashboard (stopped when dropped)
//! and the URL it printed, and a repository history of three batches.

#![allow(dead_code)] // each test target uses its own part

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A process serving a dashboard, killed when dropped.
pub struct Serving {
    pub child: Child,
    /// What it wrote on stderr after the URL line (read once it ended).
    stderr: Option<BufReader<std::process::ChildStderr>>,
}

impl Serving {
    /// Waits for the process to end; its exit code and the rest of its stderr.
    pub fn wait(mut self) -> (Option<i32>, String) {
        let mut rest = String::new();
        if let Some(mut stderr) = self.stderr.take() {
            let _ = stderr.read_to_string(&mut rest);
        }
        let status = self.child.wait().expect("wait");
        (status.code(), rest)
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `command` (stderr piped here) and reads its stderr up to the dashboard's URL line.
pub fn serve(mut command: Command) -> (Serving, String) {
    command.stderr(Stdio::piped()).stdout(Stdio::null());
    let mut serving = Serving {
        child: command.spawn().expect("start retake"),
        stderr: None,
    };
    let mut stderr = BufReader::new(serving.child.stderr.take().expect("stderr"));
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        let n = stderr.read_line(&mut line).expect("a line");
        assert!(n > 0, "no dashboard URL on stderr:\n{seen}");
        if let Some(rest) = line.strip_prefix("retake dashboard: ") {
            let url = rest.split_whitespace().next().expect("a URL").to_string();
            serving.stderr = Some(stderr);
            return (serving, url);
        }
        seen.push_str(&line);
    }
}

/// Three batches in `repo/.retake/verdicts.md`, through `retake consensus`: a TODO tracked,
/// resolved, and back as a REGRESSION.
pub fn three_batches(repo: &Path) {
    let md = repo.join(".retake/verdicts.md");
    std::fs::create_dir_all(md.parent().expect("parent")).expect("mkdir");
    let with = "VERDICT:CONDITIONAL\nVERIFIED:\ninspector-quality|M|incomplete|src/a.rs:3|TODO <marker> left\n";
    let without = "VERDICT:CONDITIONAL\nVERIFIED:\ninspector-quality|L|naming-violation|src/b.rs:5|camelCase\n";
    for body in [with, without, with] {
        let file = repo.join("v.cpf");
        std::fs::write(&file, body).expect("write");
        let out = Command::new(env!("CARGO_BIN_EXE_retake"))
            .arg("consensus")
            .args([&file, &file, &file])
            .arg("--verdicts")
            .arg(&md)
            .output()
            .expect("run retake consensus");
        assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    }
}
