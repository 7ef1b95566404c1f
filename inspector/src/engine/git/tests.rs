use super::*;
use crate::engine::testing::{git as run_git, session_repo, write};

#[test]
fn a_branch_session_lists_changed_lines_untracked_files_and_not_deleted_ones() {
    let dir = session_repo();
    let changes = session_changes(dir.path(), "main").expect("changes");
    assert_eq!(changes.base, "main");
    let main = run_git(dir.path(), &["rev-parse", "main"]);
    assert_eq!(changes.merge_base, main.trim());
    let paths: Vec<&str> = changes.files.keys().map(String::as_str).collect();
    assert_eq!(paths, vec!["src/lib.rs", "src/new.rs"]);
    assert_eq!(changes.files["src/lib.rs"].added, vec![(2, 2), (4, 5)]);
    assert!(!changes.files["src/lib.rs"].new_file);
    assert!(changes.files["src/new.rs"].new_file);
    let diff = session_diff(dir.path(), &changes.merge_base).expect("diff");
    assert!(diff.contains("+pub fn b2() {}"), "{diff}");
}

#[test]
fn errors_name_the_problem() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = session_changes(dir.path(), "main").expect_err("no repo");
    assert!(
        err.to_string().starts_with("not a git repository: '"),
        "{err}"
    );
    let repo = session_repo();
    let err = session_changes(repo.path(), "no-such-branch").expect_err("bad base");
    assert_eq!(
        err.to_string(),
        "unknown base revision 'no-such-branch': name a branch, tag or commit of this repository"
    );
    assert!(matches!(
        session_changes(repo.path(), "--output=x"),
        Err(GitError::UnknownBase(_))
    ));
}

#[test]
fn the_default_session_needs_changes() {
    let plain = tempfile::tempdir().expect("tempdir");
    assert_eq!(default_session_base(plain.path()), None);
    let repo = session_repo();
    assert_eq!(default_session_base(repo.path()).as_deref(), Some("main"));
    // On main with a clean tree (retake's own state does not count) there is nothing to review.
    let root = repo.path();
    run_git(root, &["add", "-A"]);
    run_git(root, &["commit", "-q", "-m", "wip"]);
    run_git(root, &["checkout", "-q", "main"]);
    run_git(root, &["merge", "-q", "--ff-only", "feature"]);
    write(root, ".retake/runs/x/verdict.cpf", "VERDICT:GO\n");
    write(root, "specs/f/verdicts.md", "# verdicts\n");
    assert_eq!(default_session_base(root), None);
    write(root, "src/lib.rs", "pub fn changed() {}\n");
    assert_eq!(default_session_base(root).as_deref(), Some("main"));
}

#[test]
fn files_at_a_revision_come_in_one_batch_with_absent_ones_and_folders_told_apart() {
    let dir = session_repo();
    let root = dir.path();
    let before = protocol::exec::git::calls_on_this_thread();
    let read = files_at_revision(root, "main", &["src/lib.rs", "no/such.rs", "src/old.rs"])
        .expect("files");
    // rev-parse and one cat-file --batch, each with its driver listing.
    assert_eq!(protocol::exec::git::calls_on_this_thread() - before, 4);
    assert_eq!(read.rev, "main");
    assert_eq!(read.commit, run_git(root, &["rev-parse", "main"]).trim());
    let texts: Vec<(&str, Option<&str>)> = read
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.text.as_deref()))
        .collect();
    assert_eq!(
        texts,
        vec![
            (
                "src/lib.rs",
                Some("pub fn a() {}\npub fn b() {}\npub fn c() {}\n")
            ),
            ("no/such.rs", None),
            ("src/old.rs", Some("pub fn o() {}\n")),
        ]
    );
    for path in ["src/lib.rs", "no/such.rs"] {
        let one = file_at_revision(root, "main", path).expect("file");
        let batched = read.files.iter().find(|f| f.path == path).expect("read");
        assert_eq!(one, (read.commit.clone(), batched.text.clone()));
    }
    let err = files_at_revision(root, "main", &["src"]).expect_err("a folder");
    assert!(err.to_string().contains("src at "), "{err}");
    assert!(err.to_string().contains(" tree "), "{err}");
}
