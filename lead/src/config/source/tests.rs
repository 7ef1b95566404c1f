use super::*;
use std::process::Command;

fn git(root: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(root)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}");
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

const COMMITTED: &str = "[test]\ncommand = [\"make\", \"check\"]\n";
const EDITED: &str = "[rules]\ndisable = [\"quality/todo-marker\"]\n[test]\ncommand = [\"sh\", \"-c\", \"curl evil\"]\n";

/// A repository with `COMMITTED` as retake.toml on main, and `EDITED` in the work tree.
fn edited_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    git(dir.path(), &["init", "-q"]);
    write(dir.path(), "retake.toml", COMMITTED);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    write(dir.path(), "retake.toml", EDITED);
    dir
}

#[test]
fn a_review_reads_the_committed_file_and_notes_the_ignored_edit() {
    let dir = edited_repo();
    let layer = repo_layer(dir.path(), None, Trust::default()).expect("layer");
    let file = layer.file.expect("committed file");
    assert_eq!(file.text, COMMITTED);
    assert!(
        file.label.contains("retake.toml at HEAD ("),
        "{}",
        file.label
    );
    assert_eq!(layer.commit.as_deref().map(str::len), Some(40));
    assert_eq!(
        layer.notes,
        ["retake.toml: uncommitted edits ignored — the review uses the file as committed at HEAD (--trust-repo-config uses the work tree's)"]
    );
    let with_base = repo_layer(dir.path(), Some("main"), Trust::default()).expect("layer");
    assert_eq!(with_base.file.expect("file").text, COMMITTED);
    assert_eq!(
        with_base.notes,
        ["retake.toml: the change's edits are not applied — the review uses the file as it is at main"]
    );
    write(
        dir.path(),
        "steering/tech.md",
        "## Allowed patterns\n- anything\n",
    );
    let layer = repo_layer(dir.path(), None, Trust::default()).expect("layer");
    assert_eq!(
        layer.notes.last().map(String::as_str),
        Some("steering/tech.md: uncommitted edits ignored — the review uses the file as committed at HEAD (--trust-repo-config uses the work tree's)")
    );
    let err = repo_layer(dir.path(), Some("nope"), Trust::default()).expect_err("bad base");
    assert_eq!(
        err,
        SourceError::UnknownBase(
            "unknown base revision 'nope': name a branch, tag or commit of this repository".into()
        )
    );
}

#[test]
fn trust_repo_config_takes_the_work_tree_as_it_is() {
    let dir = edited_repo();
    let trusted = Trust {
        work_tree: true,
        commands: true,
    };
    let layer = repo_layer(dir.path(), None, trusted).expect("layer");
    assert_eq!(layer.file.expect("file").text, EDITED);
    assert_eq!((layer.commit, layer.notes.len()), (None, 0));
}

#[test]
fn an_untrusting_service_drops_the_keys_that_run_or_send_and_names_them() {
    let dir = edited_repo();
    git(dir.path(), &["commit", "-qam", "edit"]);
    let serve = Trust {
        work_tree: false,
        commands: false,
    };
    let layer = repo_layer(dir.path(), None, serve).expect("layer");
    let text = layer.file.expect("file").text;
    assert!(
        text.contains("quality/todo-marker") && !text.contains("curl"),
        "{text}"
    );
    assert_eq!(
        layer.notes,
        ["retake.toml: ignored test.command — a repository's file may not run commands or send code or credentials when this service trusts no repository's file ([serve] trust_repo_config = false)"]
    );
}

#[test]
fn without_history_the_work_tree_is_used_without_command_keys() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "retake.toml",
        "[inspector]\nmax_file_bytes = 10\n[agent]\nkind = \"http\"\nurl = \"http://x\"\napi_key_env = \"CI_TOKEN\"\n",
    );
    let layer = repo_layer(dir.path(), None, Trust::default()).expect("layer");
    let text = layer.file.expect("file").text;
    assert!(
        text.contains("max_file_bytes = 10") && !text.contains("CI_TOKEN"),
        "{text}"
    );
    assert_eq!(
        layer.notes,
        ["retake.toml: ignored agent.kind, agent.url, agent.api_key_env — a repository's file may not run commands or send code or credentials when there is no committed history (not a git repository); --trust-repo-config applies them"]
    );
    // A repository without a commit has no history either.
    git(dir.path(), &["init", "-q"]);
    let layer = repo_layer(dir.path(), None, Trust::default()).expect("layer");
    assert!(
        layer.notes[0].contains("(no commit yet)"),
        "{:?}",
        layer.notes
    );
}

const HANDOVER_TEXT: &str = "# Session handover\n\n## Last command\n\n- `retake review`\n\n## Steering Exceptions\n\n| Feature | Rule | Where | Decided by | Why |\n|---|---|---|---|---|\n| * | dead-code | | alice | demo |\n| * | todo-marker | | bob | |\n";

#[test]
fn only_a_change_to_the_steering_exceptions_of_the_handover_is_noted() {
    let dir = tempfile::tempdir().expect("tempdir");
    git(dir.path(), &["init", "-q"]);
    write(dir.path(), HANDOVER_PATH, HANDOVER_TEXT);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    let bad_row = ".retake/handover/session.md: Steering Exceptions row 2 (| * | todo-marker | | bob | |) is not applied: Why missing";
    // retake redrafted the other sections: the exceptions are the same, nothing but the bad row.
    let redrafted = HANDOVER_TEXT.replace("- `retake review`", "- `retake run`");
    write(dir.path(), HANDOVER_PATH, &redrafted);
    let layer = repo_layer(dir.path(), None, Trust::default()).expect("layer");
    assert_eq!(layer.notes, [bad_row]);
    // A row added in the work tree is not applied, and the note says so.
    let added =
        format!("{redrafted}| orders | quality/unwrap-in-library | src/ | carol | prototype |\n");
    write(dir.path(), HANDOVER_PATH, &added);
    let layer = repo_layer(dir.path(), None, Trust::default()).expect("layer");
    assert_eq!(
        layer.notes,
        [
            ".retake/handover/session.md: Steering Exceptions not committed are not applied — the review uses them as committed at HEAD (--trust-repo-config uses the work tree's)",
            bad_row
        ]
    );
}
