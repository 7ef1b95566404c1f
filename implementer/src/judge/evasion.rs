//! Changes that make a check quiet instead of doing the work: an attempt whose whole change is
//! suppressions (`retake-ignore` comments, `.retake/decisions.yaml` entries), and an attempt
//! that deletes or weakens tests (a test file or test function removed, a test marked
//! ignored or skipped). Either would let a re-review come back clean with the problem still
//! there, so the judge never counts them as evidence of completion.

use crate::change::{ChangeKind, ChangeSet, ChangedFile};

/// The accepted-false-positive file a suppression can also be written to.
pub const DECISIONS_FILE: &str = ".retake/decisions.yaml";

/// Markers that switch a test off, matched in added lines of any file.
const SKIP_MARKERS: [&str; 12] = [
    "#[ignore",
    "@pytest.mark.skip",
    "@pytest.mark.xfail",
    "@unittest.skip",
    "pytest.skip(",
    "t.Skip(",
    "t.SkipNow(",
    "it.skip(",
    "test.skip(",
    "describe.skip(",
    "xit(",
    "xdescribe(",
];

/// One evasive change: where and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evasion {
    /// `path` or `path:line`.
    pub location: String,
    /// What the change does, in words.
    pub what: String,
}

/// Whether `path` is test code by its name (the Inspectors' convention).
fn is_test_file(path: &str) -> bool {
    inspector::engine::is_test_path(path)
}

/// How many test definitions `text` holds (Rust `#[test]`, pytest `def test_`, Go
/// `func Test`, JS/TS `it(` / `test(`).
fn test_count(text: &str) -> usize {
    text.lines()
        .map(str::trim_start)
        .filter(|l| {
            l.starts_with("#[test]")
                || l.starts_with("#[tokio::test")
                || l.starts_with("def test_")
                || l.starts_with("async def test_")
                || l.starts_with("func Test")
                || l.starts_with("it(")
                || l.starts_with("test(")
        })
        .count()
}

/// Whether a line is a suppression and nothing else worth judging.
fn is_suppression(line: &str) -> bool {
    line.contains("retake-ignore")
}

/// The lines a change removed from a file (as a multiset), the mirror of `added_lines`.
fn removed_lines(file: &ChangedFile) -> Vec<String> {
    let reversed = ChangedFile {
        path: file.path.clone(),
        kind: file.kind,
        before: file.after.clone().or(Some(String::new())),
        after: file.before.clone(),
    };
    reversed
        .added_lines()
        .into_iter()
        .map(|(_, l)| l.to_string())
        .collect()
}

/// Whether a file's change is suppressions and nothing else: every added line is one (or
/// blank), and every removed line survives inside an added one (a suppression appended to
/// the flagged line).
fn only_suppressions(file: &ChangedFile) -> bool {
    if file.kind == ChangeKind::Deleted {
        return false;
    }
    let added = file.added_lines();
    added
        .iter()
        .all(|(_, l)| is_suppression(l) || l.trim().is_empty())
        && removed_lines(file).iter().all(|r| {
            added
                .iter()
                .any(|(_, l)| is_suppression(l) && l.contains(r.trim()))
        })
}

/// The evasive parts of `change`: test weakening always, suppressions when they are all the
/// change holds.
pub fn evasions(change: &ChangeSet) -> Vec<Evasion> {
    let mut found = Vec::new();
    for file in &change.files {
        if file.kind == ChangeKind::Deleted && is_test_file(&file.path) {
            found.push(Evasion {
                location: file.path.clone(),
                what: "deletes a test file".to_string(),
            });
            continue;
        }
        if let (Some(before), Some(after)) = (&file.before, &file.after) {
            let (was, is) = (test_count(before), test_count(after));
            if is < was {
                found.push(Evasion {
                    location: file.path.clone(),
                    what: format!("removes {} test function(s) ({was} → {is})", was - is),
                });
            }
        }
        for (n, line) in file.added_lines() {
            if let Some(marker) = SKIP_MARKERS.iter().find(|m| line.contains(*m)) {
                found.push(Evasion {
                    location: format!("{}:{n}", file.path),
                    what: format!(
                        "switches a test off with `{}`",
                        marker.trim_end_matches('(')
                    ),
                });
            }
        }
    }
    let suppression_only = !change.is_empty()
        && change
            .files
            .iter()
            .all(|f| f.path == DECISIONS_FILE || only_suppressions(f));
    if suppression_only {
        let places: Vec<&str> = change.files.iter().map(|f| f.path.as_str()).collect();
        found.push(Evasion {
            location: places.join(", "),
            what: "only adds suppressions (retake-ignore comments or decisions.yaml entries); a suppression hides a finding, it does not fix it".to_string(),
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::Snapshot;

    fn change(before: &[(&str, &str)], after: &[(&str, &str)]) -> ChangeSet {
        Snapshot::from_texts(after.iter().copied())
            .changes_since(&Snapshot::from_texts(before.iter().copied()))
    }

    const LIB: &str = "pub fn f() -> u8 {\n    1\n}\n";

    #[test]
    fn suppressions_alone_are_evasion_beside_a_real_change_they_are_not() {
        let only = change(
            &[("src/a.rs", LIB), (DECISIONS_FILE, "accepted: []\n")],
            &[
                (
                    "src/a.rs",
                    "// retake-ignore: quality/x\npub fn f() -> u8 {\n    1\n}\n",
                ),
                (DECISIONS_FILE, "accepted:\n  - rule: quality/y\n"),
            ],
        );
        let found = evasions(&only);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].location, ".retake/decisions.yaml, src/a.rs");
        assert!(found[0].what.starts_with("only adds suppressions"));
        let appended = change(
            &[("app/calc.py", "def f():\n    # TODO: pi\n    return 3\n")],
            &[(
                "app/calc.py",
                "def f():\n    # TODO: pi  # retake-ignore: quality/todo-marker\n    return 3\n",
            )],
        );
        assert_eq!(evasions(&appended).len(), 1);
        let mixed = change(
            &[("src/a.rs", LIB)],
            &[(
                "src/a.rs",
                "// retake-ignore: quality/x\npub fn f() -> u8 {\n    2\n}\n",
            )],
        );
        assert_eq!(evasions(&mixed), Vec::new());
    }

    #[test]
    fn deleted_removed_and_skipped_tests_are_each_named() {
        let tests_py =
            "def test_a():\n    assert f() == 1\n\n\ndef test_b():\n    assert g() == 2\n";
        let found = evasions(&change(
            &[
                ("tests/test_api.py", tests_py),
                ("pkg/test_db.py", tests_py),
                ("src/a.rs", "#[test]\nfn t() {}\n"),
            ],
            &[
                ("tests/test_api.py", "def test_a():\n    assert f() == 1\n"),
                ("src/a.rs", "#[test]\n#[ignore]\nfn t() {}\n"),
            ],
        ));
        let got: Vec<(&str, &str)> = found
            .iter()
            .map(|e| (e.location.as_str(), e.what.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("pkg/test_db.py", "deletes a test file"),
                ("src/a.rs:2", "switches a test off with `#[ignore`"),
                ("tests/test_api.py", "removes 1 test function(s) (2 → 1)"),
            ]
        );
    }
}
