use super::*;
use protocol::{Location, Severity};

fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
    std::fs::write(full, text).expect("write");
}

/// What the real review reports for `rule` on the repository as it is: the findings a fix
/// task is made from (under the pedantic profile, which runs every rule).
fn review(root: &Path, rule: &str) -> Vec<Finding> {
    let options = InspectOptions {
        profile: RuleProfile::Pedantic,
        ..InspectOptions::default()
    };
    let mut ctx = Context::build(root, &Scope::repository(), &options).expect("context");
    let kind = inspector::rules::catalog()
        .into_iter()
        .find(|(_, m)| m.id == rule)
        .map(|(k, _)| k)
        .expect("rule in catalog");
    inspector::inspect(kind, &mut ctx, "inspector", "review")
        .findings
        .into_iter()
        .filter(|f| f.rule == rule)
        .collect()
}

fn no_shift(_: &str) -> i64 {
    0
}

const TODO_PY: &str = "def area(r):\n    # TODO: use pi\n    return 3 * r * r\n";

#[test]
fn a_removed_marker_is_gone_and_a_kept_one_remains() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "geo/shapes.py", TODO_PY);
    let found = review(dir.path(), "quality/todo-marker");
    assert_eq!(found.len(), 1);
    let kept = recheck(dir.path(), &found, &no_shift);
    assert_eq!(
        kept.findings[0].status,
        Status::Remains {
            line: Some(2),
            suppressed: None
        }
    );
    assert!(!kept.all_gone());
    write(
        dir.path(),
        "geo/shapes.py",
        "import math\n\n\ndef area(r):\n    return math.pi * r * r\n",
    );
    let fixed = recheck(dir.path(), &found, &no_shift);
    assert_eq!(fixed.findings[0].status, Status::Gone);
    assert_eq!(fixed.gone().count(), 1);
}

#[test]
fn a_reworded_marker_on_a_shifted_line_is_the_same_finding() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "geo/shapes.py", TODO_PY);
    let found = review(dir.path(), "quality/todo-marker");
    // Two lines added above and the marker's text changed: the key (and so the fingerprint)
    // differs, the place does not.
    write(
        dir.path(),
        "geo/shapes.py",
        "import math\n\ndef area(r):\n    # TODO: use math.pi here\n    return 3 * r * r\n",
    );
    let shifted = |p: &str| if p == "geo/shapes.py" { 2 } else { 0 };
    let again = recheck(dir.path(), &found, &shifted);
    assert_eq!(
        again.findings[0].status,
        Status::Remains {
            line: Some(4),
            suppressed: None
        }
    );
}

#[test]
fn a_suppressed_finding_remains_and_says_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "geo/shapes.py", TODO_PY);
    let found = review(dir.path(), "quality/todo-marker");
    write(
        dir.path(),
        "geo/shapes.py",
        "def area(r):\n    # TODO: use pi  # retake-ignore: quality/todo-marker\n    return 3 * r * r\n",
    );
    let again = recheck(dir.path(), &found, &no_shift);
    assert!(
        matches!(
            &again.findings[0].status,
            Status::Remains {
                suppressed: Some(_),
                ..
            }
        ),
        "{:?}",
        again.findings[0].status
    );
}

#[test]
fn a_written_test_file_clears_missing_test_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "pkg/prices.py",
        "def total(xs):\n    return sum(xs)\n",
    );
    // A module nothing imports is not judged: the package's entry point uses it.
    write(
        dir.path(),
        "pkg/__init__.py",
        "from pkg.prices import total\n",
    );
    let found = review(dir.path(), "test/missing-test-file");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(matches!(
        recheck(dir.path(), &found, &no_shift).findings[0].status,
        Status::Remains { .. }
    ));
    write(
        dir.path(),
        "pkg/test_prices.py",
        "from pkg.prices import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n",
    );
    assert_eq!(
        recheck(dir.path(), &found, &no_shift).findings[0].status,
        Status::Gone
    );
}

#[test]
fn what_cannot_run_again_is_not_checked() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "a.py", "x = 1\n");
    let foreign = Finding::new(
        "agent",
        "cpf/security",
        "security",
        Severity::High,
        Location::at("a.py", 1),
        "looks unsafe",
        "x = 1",
    );
    let mut gone_file = Finding::new(
        "inspector",
        "quality/todo-marker",
        "incomplete",
        Severity::Medium,
        Location::at("deleted.py", 3),
        "TODO",
        "TODO",
    );
    gone_file.suggestion = None;
    let result = recheck(dir.path(), &[foreign, gone_file], &no_shift);
    assert_eq!(
        result.findings[0].status,
        Status::NotChecked(
            "rule cpf/security is not in the catalog, so it cannot run again".into()
        )
    );
    assert_eq!(
        result.findings[1].status,
        Status::NotChecked("deleted.py: it no longer exists".into())
    );
    assert!(!result.all_gone());
}

#[test]
fn an_analyzer_s_finding_is_rechecked_by_running_the_analyzer_again() {
    let clippy = std::process::Command::new("cargo")
        .args(["clippy", "--version"])
        .output();
    if !clippy.is_ok_and(|o| o.status.success()) {
        eprintln!("cargo clippy is not installed here: nothing to check");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest =
        "[package]\nname = \"geo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n";
    write(dir.path(), "Cargo.toml", manifest);
    let lib = "pub fn double(x: u32) -> u32 {\n    return x * 2;\n}\n";
    write(dir.path(), "src/lib.rs", lib);
    let options = InspectOptions {
        linters: vec!["auto".to_string()],
        ..InspectOptions::default()
    };
    let mut ctx = Context::build(dir.path(), &Scope::repository(), &options).expect("context");
    let found: Vec<Finding> = inspector::inspect(InspectorKind::Quality, &mut ctx, "i", "r")
        .findings
        .into_iter()
        .filter(|f| f.rule == "quality/linter-finding")
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    let kept = recheck(dir.path(), &found, &no_shift);
    assert_eq!(
        kept.findings[0].status,
        Status::Remains {
            line: Some(2),
            suppressed: None
        }
    );
    write(
        dir.path(),
        "src/lib.rs",
        "pub fn double(x: u32) -> u32 {\n    x * 2\n}\n",
    );
    let fixed = recheck(dir.path(), &found, &no_shift);
    // The build folder of the retake cache is not needed again; a user's own `CARGO_TARGET_DIR`
    // (where this very test may have been built) is theirs and stays.
    let target = protocol::exec::sandbox::analyzer_target_dir(dir.path());
    if target
        .parent()
        .is_some_and(|p| p.ends_with("retake/target"))
    {
        std::fs::remove_dir_all(target).ok();
    }
    assert_eq!(fixed.findings[0].status, Status::Gone);
}
