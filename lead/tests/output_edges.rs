//! Output edges every command shares: a closed standard output ends any command quietly with
//! 141 (like a Unix tool killed by SIGPIPE), and a file name that is not UTF-8 is reported
//! byte-exactly — escaped in JSON with `path_escaped`, readable on the terminal.

use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::io::FromRawFd as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `retake ARGS` in `cwd` with its standard output a pipe whose reader is already gone.
fn with_closed_stdout(cwd: &Path, args: &[&str]) -> Output {
    let mut fds = [0; 2];
    // SAFETY: pipe writes two descriptors into the array this frame owns.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe");
    // SAFETY: both descriptors were just created and are owned here only.
    let (reader, writer) = unsafe {
        (
            std::fs::File::from_raw_fd(fds[0]),
            std::fs::File::from_raw_fd(fds[1]),
        )
    };
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .current_dir(cwd)
        .args(args)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("run retake")
}

fn repo(root: &Path) {
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"menu\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .expect("write");
    std::fs::write(root.join("src/lib.rs"), "//! Menu.\n").expect("write");
    // Latin-1 "café.rs": not UTF-8.
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.rs");
    std::fs::write(
        root.join("src").join(name),
        "/// Price.\npub fn price(v: Option<u32>) -> u32 {\n    // TODO: currency\n    v.unwrap()\n}\n",
    )
    .expect("write");
}

#[test]
fn every_command_ends_quietly_with_141_on_a_closed_output() {
    let dir = tempfile::tempdir().expect("tempdir");
    repo(dir.path());
    let repo = dir.path().to_str().expect("utf-8 temp path");
    let init = tempfile::tempdir().expect("tempdir");
    for (cwd, args) in [
        (dir.path(), vec!["rules"]),
        (dir.path(), vec!["--help"]),
        (dir.path(), vec!["review", "--help"]),
        (dir.path(), vec!["config", "show", repo]),
        (dir.path(), vec!["status", repo]),
        (
            dir.path(),
            vec!["review", repo, "--runtime", "inproc", "--no-exec"],
        ),
        (
            dir.path(),
            vec![
                "review",
                repo,
                "--runtime",
                "inproc",
                "--no-exec",
                "--format",
                "json",
            ],
        ),
        (init.path(), vec!["init"]),
    ] {
        let out = with_closed_stdout(cwd, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("error"),
            "{args:?} is quiet: {stderr}"
        );
    }
    assert!(
        init.path().join("retake.toml").is_file(),
        "init wrote its files before its (unread) list"
    );
}

#[test]
fn a_file_name_that_is_not_utf8_is_reported_byte_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    repo(dir.path());
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(dir.path())
        .args(["--runtime", "inproc", "--no-exec", "--format", "json"])
        // The file's findings (its TODO, its unwrap) come from pedantic rules.
        .args(["--profile", "pedantic"])
        .output()
        .expect("run retake");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let findings = json["findings"].as_array().expect("findings");
    let cafe: Vec<&serde_json::Value> = findings
        .iter()
        .filter(|f| f["path"] == "src/caf\\xE9.rs")
        .collect();
    assert!(!cafe.is_empty(), "{findings:#?}");
    for f in &cafe {
        assert_eq!(f["path_escaped"], true, "{f}");
    }
    assert!(
        findings
            .iter()
            .filter(|f| f["path"] != "src/caf\\xE9.rs")
            .all(|f| f.get("path_escaped").is_none()),
        "only escaped paths carry the flag"
    );
    let back = protocol::path_from_text("src/caf\\xE9.rs").expect("decodes");
    assert_eq!(
        std::fs::read(dir.path().join(back)).expect("the very file"),
        b"/// Price.\npub fn price(v: Option<u32>) -> u32 {\n    // TODO: currency\n    v.unwrap()\n}\n"
    );
    let terminal = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(dir.path())
        .args(["--runtime", "inproc", "--no-exec", "--profile", "pedantic"])
        .env("NO_COLOR", "1")
        .output()
        .expect("run retake");
    let text = String::from_utf8_lossy(&terminal.stdout);
    assert!(text.contains("src/caf\\xE9.rs"), "{text}");
    assert!(!text.contains('\u{FFFD}'), "nothing lossy: {text}");
}
