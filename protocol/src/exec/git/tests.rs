use super::*;
use std::os::unix::fs::PermissionsExt;

/// Plain git for building fixtures (the hostile settings are written by it, not obeyed).
fn setup(repo: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args([
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "core.fsmonitor=false",
        ])
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "{args:?}: {out:?}");
}

fn script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).expect("write");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// A repository whose configuration names a program at every hook point git offers; each
/// appends its name to `ran` when started.
fn hostile_repo() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("repo");
    std::fs::create_dir(&repo).expect("mkdir");
    let ran = dir.path().join("ran");
    setup(&repo, &["init", "-q"]);
    std::fs::write(repo.join("a.txt"), "a\n").expect("write");
    std::fs::write(repo.join(".gitattributes"), "*.txt filter=evil diff=evil\n").expect("write");
    setup(&repo, &["add", "-A"]);
    setup(&repo, &["commit", "-q", "-m", "init"]);
    let hooks = dir.path().join("hooks");
    std::fs::create_dir(&hooks).expect("mkdir");
    let log = ran.display().to_string();
    for hook in [
        "pre-commit",
        "commit-msg",
        "post-commit",
        "post-checkout",
        "pre-auto-gc",
    ] {
        script(&hooks.join(hook), &format!("echo {hook} >> {log}"));
    }
    let tool = |name: &str| {
        let path = dir.path().join(name);
        script(&path, &format!("echo {name} >> {log}; cat"));
        path.display().to_string()
    };
    let settings = [
        ("core.fsmonitor", tool("fsmonitor")),
        ("core.hooksPath", hooks.display().to_string()),
        ("diff.external", tool("extdiff")),
        ("filter.evil.clean", tool("clean")),
        ("filter.evil.smudge", tool("smudge")),
        ("filter.evil.required", "true".to_string()),
        ("diff.evil.textconv", tool("textconv")),
        ("core.pager", tool("pager")),
        ("commit.gpgSign", "true".to_string()),
        ("gpg.program", tool("gpg")),
    ];
    for (key, value) in settings {
        setup(&repo, &["config", key, &value]);
    }
    (dir, ran)
}

#[test]
fn no_program_of_the_repository_runs_whatever_its_configuration_says() {
    let (dir, ran) = hostile_repo();
    let repo = dir.path().join("repo");
    std::fs::write(repo.join("a.txt"), "changed\n").expect("write");
    std::fs::write(repo.join("b.txt"), "new\n").expect("write");
    let status = git(&repo, &["status", "--porcelain"]).expect("status");
    assert_eq!(status, " M a.txt\n?? b.txt\n");
    let diff = git(&repo, &["diff", "--no-ext-diff", "HEAD", "--", "a.txt"]).expect("diff");
    assert!(diff.ends_with("-a\n+changed\n"), "{diff}");
    let external = git(&repo, &["diff", "HEAD"]).expect_err("an external diff fails closed");
    assert!(
        external.reason().contains("external diff died"),
        "{external}"
    );
    git(&repo, &["log", "-p", "-1"]).expect("log");
    git(&repo, &["blame", "--porcelain", "--", "a.txt"]).expect("blame");
    git(&repo, &["add", "-A"]).expect("add");
    let env = [
        ("GIT_AUTHOR_NAME", "t"),
        ("GIT_AUTHOR_EMAIL", "t@example.invalid"),
    ];
    let committer = [
        env[0],
        env[1],
        ("GIT_COMMITTER_NAME", "t"),
        ("GIT_COMMITTER_EMAIL", "t@example.invalid"),
    ];
    git_with(&repo, &["commit", "-q", "-m", "two"], &committer).expect("commit");
    git(&repo, &["checkout", "HEAD~1", "--", "a.txt"]).expect("checkout");
    assert_eq!(
        std::fs::read_to_string(repo.join("a.txt")).expect("read"),
        "a\n",
        "no smudge filter touched the checked-out file"
    );
    assert!(
        !ran.exists(),
        "the repository's programs ran: {}",
        std::fs::read_to_string(&ran).unwrap_or_default()
    );
    // The control: plain git obeys the hostile configuration.
    std::process::Command::new("git")
        .args(["status", "--porcelain"])
        .current_dir(&repo)
        .output()
        .expect("git runs");
    let log = std::fs::read_to_string(&ran).expect("plain git ran the fsmonitor");
    assert!(log.contains("fsmonitor"), "{log}");
}

#[test]
fn a_failure_names_the_command_and_gits_first_error_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = git(dir.path(), &["rev-parse", "HEAD"]).expect_err("no repository");
    let text = err.to_string();
    assert!(
        text.starts_with("git rev-parse HEAD failed: fatal: not a git repository"),
        "{text}"
    );
}

/// The user's global configuration is trusted: its filter (git-lfs's, say) still applies,
/// while the repository's own filter of the same kind never runs.
#[test]
fn the_users_global_filters_stay_and_the_repositorys_are_neutralised() {
    let (dir, ran) = hostile_repo();
    let repo = dir.path().join("repo");
    let home = dir.path().join("home");
    std::fs::create_dir(&home).expect("mkdir");
    std::fs::write(
        home.join(".gitconfig"),
        "[filter \"upper\"]\n\tclean = tr a-z A-Z\n",
    )
    .expect("write");
    std::fs::write(
        repo.join(".gitattributes"),
        "*.up filter=upper\n*.txt filter=evil\n",
    )
    .expect("write");
    std::fs::write(repo.join("x.up"), "shout\n").expect("write");
    std::fs::write(repo.join("a.txt"), "quiet\n").expect("write");
    let home_text = home.display().to_string();
    let env = [("HOME", home_text.as_str()), ("GIT_CONFIG_NOSYSTEM", "1")];
    git_with(&repo, &["add", "-A"], &env).expect("add");
    let staged = |path: &str| git(&repo, &["cat-file", "blob", &format!(":{path}")]).expect("blob");
    assert_eq!(staged("x.up"), "SHOUT\n", "the user's filter applied");
    assert_eq!(
        staged("a.txt"),
        "quiet\n",
        "the repository's filter did not"
    );
    assert!(
        !ran.exists(),
        "{}",
        std::fs::read_to_string(&ran).unwrap_or_default()
    );
}

#[test]
fn head_commit_is_the_commit_or_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert_eq!(head_commit(dir.path()), None, "not a work tree");
    setup(dir.path(), &["init", "-q"]);
    assert_eq!(head_commit(dir.path()), None, "no commit yet");
    std::fs::write(dir.path().join("a.txt"), "a\n").expect("write");
    setup(dir.path(), &["add", "a.txt"]);
    setup(dir.path(), &["commit", "-q", "-m", "a"]);
    let head = head_commit(dir.path()).expect("a commit");
    assert_eq!(head.len(), 40, "{head}");
    assert!(head.bytes().all(|b| b.is_ascii_hexdigit()), "{head}");
}
