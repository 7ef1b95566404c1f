//! The reviewed repository is untrusted input, through the real `retake` binary: its
//! `.git/config` names an fsmonitor and a hooks folder, its retake.toml an executor, each a
//! script that appends to a file when started. `--no-exec` must start none of them (and refuse
//! `--fix`, which would run the executor); a test command that reads every process's
//! environment must find no wire secret.

mod support;
use support::{git, write};

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A shell script at `path` that appends `name` to `log` and succeeds.
fn tripwire(path: &Path, name: &str, log: &Path) -> String {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(
        path,
        format!("#!/bin/sh\necho {name} >> '{}'\nexit 0\n", log.display()),
    )
    .expect("write");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path.display().to_string()
}

fn retake(repo: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(args)
        .current_dir(repo)
        .env("HOME", repo.parent().expect("parent"))
        .output()
        .expect("run retake")
}

/// A committed repository with a `todo!()` to find, an executor, an fsmonitor and a
/// pre-commit hook that all record their start in `ran`; returns (repo, ran).
fn hostile_repo(root: &Path) -> (PathBuf, PathBuf) {
    let repo = root.join("repo");
    let ran = root.join("ran");
    write(&repo, "src/lib.rs", "pub fn a() {\n    todo!(\"a\")\n}\n");
    let executor = tripwire(&root.join("tools/executor.sh"), "executor", &ran);
    write(
        &repo,
        "retake.toml",
        &format!("[executor]\nkind = \"script\"\ncommand = [\"sh\", \"{executor}\"]\n"),
    );
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "base"]);
    let fsmonitor = tripwire(&root.join("tools/fsmonitor.sh"), "fsmonitor", &ran);
    tripwire(&root.join("hooks/pre-commit"), "pre-commit", &ran);
    tripwire(&root.join("hooks/post-checkout"), "post-checkout", &ran);
    let hooks = root.join("hooks").display().to_string();
    git(&repo, &["config", "core.fsmonitor", &fsmonitor]);
    git(&repo, &["config", "core.hooksPath", &hooks]);
    (repo, ran)
}

fn ran_log(ran: &Path) -> String {
    std::fs::read_to_string(ran).unwrap_or_default()
}

#[test]
fn no_exec_starts_none_of_the_repositorys_programs_and_refuses_fix() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (repo, ran) = hostile_repo(tmp.path());
    // An uncommitted change makes the default scope a session (git status, diff, ls-files).
    write(&repo, "src/new.rs", "pub fn n() {\n    todo!(\"n\")\n}\n");

    let review = retake(&repo, &["review", "--no-exec"]);
    let stdout = String::from_utf8_lossy(&review.stdout);
    assert_eq!(review.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("src/new.rs"), "{stdout}");
    assert_eq!(ran_log(&ran), "", "programs started by `review --no-exec`");

    let fix = retake(&repo, &["review", "--no-exec", "--fix"]);
    let stderr = String::from_utf8_lossy(&fix.stderr);
    assert_eq!(fix.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim(),
        "retake: error: --fix runs the repository's executor and tests, which --no-exec forbids: drop one of them"
    );
    assert_eq!(
        ran_log(&ran),
        "",
        "programs started by `review --no-exec --fix`"
    );

    // The control: the fixture's tripwires are live for plain git.
    git(&repo, &["status", "--porcelain"]);
    assert!(ran_log(&ran).contains("fsmonitor"), "{}", ran_log(&ran));
}

/// The review's test command reads every process's environment. The Lead was started with a
/// `RETAKE_SECRET` of its own (so the scan provably finds what is there): the Lead's process is
/// the only one that shows it — no actor, no sibling, not the test command itself.
#[test]
fn the_code_under_review_finds_no_secret_in_any_process_environment() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let repo = tmp.path().join("repo");
    let found = tmp.path().join("found");
    write(&repo, "src/lib.rs", "pub fn a() {}\n");
    write(
        &repo,
        "scan.sh",
        &format!(
            "#!/bin/sh\n: > '{out}'\nfor f in /proc/[0-9]*/environ; do\n  \
             if tr '\\0' '\\n' < \"$f\" 2>/dev/null | grep -Eq '^RETAKE_(SECRET|_WIRE__SECRET)='; then\n    \
             pid=${{f#/proc/}}; echo \"${{pid%/environ}}\" >> '{out}'\n  fi\ndone\necho scanned >> '{out}.done'\n",
            out = found.display()
        ),
    );
    write(
        &repo,
        "retake.toml",
        "[test]\ncommand = [\"sh\", \"scan.sh\"]\n",
    );
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "base"]);
    let lead = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(["review", "--paths", "src/**"])
        .current_dir(&repo)
        .env("HOME", tmp.path())
        .env(
            "RETAKE_SECRET",
            "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
        )
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run retake");
    let pid = lead.id();
    let out = lead.wait_with_output().expect("wait");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.code().is_some_and(|c| c <= 1), "{stdout}");
    let scanned = std::fs::read_to_string(format!("{}.done", found.display()));
    assert_eq!(
        scanned.ok().as_deref(),
        Some("scanned\n"),
        "the test command ran once"
    );
    assert_eq!(
        std::fs::read_to_string(&found).expect("scan result"),
        format!("{pid}\n"),
        "only the Lead's own environment holds a secret"
    );
}
