//! The compatibility dimension through the real binary: a published library crate whose change
//! removes a public function, adds a parameter to another and a variant to an exhaustive public
//! enum is reviewed against its base (`--base main`): three `interface/breaking-change` findings
//! at High while the version stays; after a major bump the same change is a note and no finding;
//! a change that only adds public items, or changes a `publish = false` crate, has none. The
//! rule runs under `--profile pedantic` until the precision corpus has judged it.

mod support;
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use support::{git, write};

const BASE_LIB: &str = "//! Calculator.\n\npub mod ops;\n\n/// Adds.\npub fn add(a: i64) -> i64 {\n    a\n}\n\n/// Gone later.\npub fn legacy() {}\n";
const BASE_OPS: &str =
    "//! Operations.\n\n/// An operation.\npub enum Op {\n    Add,\n    Sub,\n}\n";

/// A crate `calc` at `version` (publishable unless `private`), committed on `main`; then
/// branch `change` with `lib` and `ops` as the change, committed too.
fn repo(root: &Path, version: (&str, &str), private: bool, lib: &str, ops: &str) {
    let manifest = |v: &str| {
        format!(
            "[package]\nname = \"calc\"\nversion = \"{v}\"\nedition = \"2021\"\n{}\n[workspace]\n",
            if private { "publish = false\n" } else { "" }
        )
    };
    git(root, &["init", "-q", "-b", "main"]);
    write(root, "Cargo.toml", &manifest(version.0));
    write(root, "src/lib.rs", BASE_LIB);
    write(root, "src/ops.rs", BASE_OPS);
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "base"]);
    git(root, &["checkout", "-q", "-b", "change"]);
    write(root, "Cargo.toml", &manifest(version.1));
    write(root, "src/lib.rs", lib);
    write(root, "src/ops.rs", ops);
    git(root, &["commit", "-q", "-am", "change"]);
}

/// The breaking change: `legacy` removed, `add` takes a second parameter, `Op` gains `Mul`.
fn breaking(root: &Path, version: (&str, &str), private: bool) {
    let lib = "//! Calculator.\n\npub mod ops;\n\n/// Adds.\npub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n";
    let ops =
        "//! Operations.\n\n/// An operation.\npub enum Op {\n    Add,\n    Sub,\n    Mul,\n}\n";
    repo(root, version, private, lib, ops);
}

/// `retake review --base main --no-exec --profile pedantic` of `repo` with `format`.
fn run(repo: &Path, format: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .args(["--base", "main", "--no-exec", "--format", format])
        // Off by default until the precision corpus has judged it (rules/profile.rs).
        .args(["--profile", "pedantic"])
        .output()
        .expect("run retake")
}

/// `(severity, path, line)` of each of `found`.
fn places(found: &[(String, String, u64, String)]) -> Vec<(&str, &str, u64)> {
    found
        .iter()
        .map(|(s, p, l, _)| (s.as_str(), p.as_str(), *l))
        .collect()
}

/// The review's exit code and JSON report.
fn review(repo: &Path) -> (i32, Value) {
    let out = run(repo, "json");
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().expect("exit code"), json)
}

/// `(severity, path, line, description)` of every breaking-change finding.
fn breaks(json: &Value) -> Vec<(String, String, u64, String)> {
    let mut out: Vec<_> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "interface/breaking-change")
        .map(|f| {
            (
                f["severity"].as_str().unwrap_or_default().to_string(),
                f["path"].as_str().unwrap_or_default().to_string(),
                f["line"].as_u64().unwrap_or(0),
                f["description"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn three_breaks_without_a_major_bump_are_high_findings() {
    let dir = tempfile::tempdir().expect("tempdir");
    breaking(dir.path(), ("1.4.0", "1.5.0"), false);
    let (_, json) = review(dir.path());
    let found = breaks(&json);
    let summary = places(&found);
    // The file-level finding (line 0: what is gone has no line) sorts first.
    assert_eq!(
        summary,
        [
            ("H", "src/lib.rs", 0),
            ("H", "src/lib.rs", 6),
            ("H", "src/ops.rs", 4)
        ],
        "{found:#?}"
    );
    assert!(
        found[0].3.starts_with("`pub fn legacy` is gone"),
        "{}",
        found[0].3
    );
    assert!(
        found[1]
            .3
            .contains("parameter types went from (`i64`) to (`i64`, `i64`)"),
        "{}",
        found[1].3
    );
    assert!(found[2]
        .3
        .contains("variant `Mul` added to an exhaustive enum"));
    assert!(found[2]
        .3
        .ends_with("(crate `calc`: its version went 1.4.0 → 1.5.0, not a major bump)"));
}

#[test]
fn after_a_major_bump_the_breaks_are_a_note() {
    let dir = tempfile::tempdir().expect("tempdir");
    breaking(dir.path(), ("1.4.0", "2.0.0"), false);
    let (_, json) = review(dir.path());
    assert_eq!(breaks(&json), []);
    // The Inspectors' notes are in the human reports.
    let text = String::from_utf8_lossy(&run(dir.path(), "terminal").stdout).into_owned();
    for note in [
        "2 breaking change(s) in src/lib.rs of `calc` come with its major version bump 1.4.0 → 2.0.0",
        "1 breaking change(s) in src/ops.rs of `calc` come with its major version bump 1.4.0 → 2.0.0",
    ] {
        assert!(text.contains(note), "{note}\n{text}");
    }
}

#[test]
fn new_public_items_and_private_crates_break_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lib =
        format!("{BASE_LIB}\n/// New.\npub fn sub(a: i64, b: i64) -> i64 {{\n    a - b\n}}\n");
    repo(dir.path(), ("1.4.0", "1.4.0"), false, &lib, BASE_OPS);
    let (_, json) = review(dir.path());
    assert_eq!(breaks(&json), []);

    let dir = tempfile::tempdir().expect("tempdir");
    breaking(dir.path(), ("1.4.0", "1.4.0"), true);
    let (_, json) = review(dir.path());
    assert_eq!(breaks(&json), [], "publish = false: no dependents to break");
}

/// A repository with `base` files committed on `main` and `change` files committed on top, on
/// branch `change`.
fn commits(root: &Path, base: &[(&str, &str)], change: &[(&str, &str)]) {
    git(root, &["init", "-q", "-b", "main"]);
    for (path, text) in base {
        write(root, path, text);
    }
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "base"]);
    git(root, &["checkout", "-q", "-b", "change"]);
    for (path, text) in change {
        write(root, path, text);
    }
    git(root, &["commit", "-q", "-am", "change"]);
}

/// The breaking-change findings of a review of `repo` as `SEV path:line description`.
fn lines(repo: &Path) -> Vec<String> {
    let (_, json) = review(repo);
    breaks(&json)
        .into_iter()
        .map(|(s, p, l, d)| format!("{s} {p}:{l} {d}"))
        .collect()
}

#[test]
fn python_and_typescript_modules_break_the_same_way() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pyproject = |v: &str| format!("[project]\nname = \"calc\"\nversion = \"{v}\"\n");
    commits(
        dir.path(),
        &[
            ("pyproject.toml", &pyproject("1.4.0")),
            (
                "calc/__init__.py",
                "def add(a, b=0):\n    return a + b\n\n\ndef legacy():\n    return None\n",
            ),
        ],
        &[
            ("pyproject.toml", &pyproject("1.5.0")),
            (
                "calc/__init__.py",
                "def add(a, b, c):\n    return a + b + c\n",
            ),
        ],
    );
    let found = lines(dir.path());
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].starts_with("H calc/__init__.py:0 `def legacy` is gone"),
        "{found:#?}"
    );
    assert!(found[1].starts_with("H calc/__init__.py:1 `def add`: its parameter `b` lost its default; `def add`: it takes a new required parameter `c`"), "{found:#?}");

    let dir = tempfile::tempdir().expect("tempdir");
    let package = |v: &str| {
        format!("{{\"name\": \"calc\", \"version\": \"{v}\", \"main\": \"dist/index.js\"}}\n")
    };
    commits(
        dir.path(),
        &[
            ("package.json", &package("0.4.1")),
            ("src/index.ts", "export function add(a: number): number {\n  return a;\n}\n\nexport const VERSION = 1;\n"),
        ],
        &[
            ("package.json", &package("0.4.2")),
            ("src/index.ts", "export function add(a: number, b: number): number {\n  return a + b;\n}\n"),
        ],
    );
    let found = lines(dir.path());
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].starts_with("H src/index.ts:0 `export const VERSION` is gone"),
        "{found:#?}"
    );
    assert!(found[1].starts_with(
        "H src/index.ts:1 `export function add`: it requires 2 argument(s) where it required 1"
    ));
    assert!(
        found[1].ends_with("(package `calc`: its version went 0.4.1 → 0.4.2, not a major bump)")
    );
}

/// A `cargo-semver-checks` first on the PATH: it logs its arguments and prints `stdout` and
/// `stderr` (what the real tool prints for [`breaking`], its format as of version 0.51).
fn fake_semver_checks(tools: &Path, stdout: &str, stderr: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(tools.join("out.txt"), stdout).expect("write");
    std::fs::write(tools.join("err.txt"), stderr).expect("write");
    let script = format!(
        "#!/bin/sh\necho \"$@\" >> '{0}/args.txt'\ncat '{0}/out.txt'\ncat '{0}/err.txt' >&2\nexit 1\n",
        tools.display()
    );
    let path = tools.join("cargo-semver-checks");
    std::fs::write(&path, script).expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// `retake review --base main --profile pedantic` with commands allowed and `tools` first on
/// the PATH: its JSON report (written to a folder) and its terminal report.
fn review_with_tools(repo: &Path, tools: &Path) -> (Value, String) {
    let path = format!(
        "{}:{}",
        tools.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let reports = tempfile::tempdir().expect("reports");
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .args([
            "--base",
            "main",
            "--profile",
            "pedantic",
            "--format",
            "json",
        ])
        .arg("--output")
        .arg(reports.path())
        .env("PATH", path)
        .output()
        .expect("run retake");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = std::fs::read_to_string(reports.path().join("retake.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| panic!("no JSON: {text}\n{}", String::from_utf8_lossy(&out.stderr)));
    (json, text)
}

/// What `cargo-semver-checks` 0.51 printed for [`breaking`] (its PASS lines left out), with the
/// repository, its build folder and the base commit as placeholders.
const SEMVER_STDOUT: &str = r#"
--- failure enum_variant_added: enum variant added on exhaustive enum ---

Description:
A publicly-visible enum without #[non_exhaustive] has a new variant.
        ref: https://doc.rust-lang.org/cargo/reference/semver.html#enum-variant-new
       impl: https://github.com/obi1kenobi/cargo-semver-checks/tree/v0.51.0/src/lints/enum_variant_added.ron

Failed in:
  variant Op:Mul in {root}/src/ops.rs:7

--- failure function_missing: pub fn removed or renamed ---

Description:
A publicly-visible function cannot be imported by its prior path. A `pub use` may have been removed, or the function itself may have been renamed or removed entirely.
        ref: https://doc.rust-lang.org/cargo/reference/semver.html#item-remove
       impl: https://github.com/obi1kenobi/cargo-semver-checks/tree/v0.51.0/src/lints/function_missing.ron

Failed in:
  function calc::legacy, previously in file {target}/semver-checks/git-{base}/c2a971b93f67e6b4f05a643fd8fc2ed1ddabb9df/src/lib.rs:11

--- failure function_parameter_count_changed: pub fn parameter count changed ---

Description:
A publicly-visible function now takes a different number of parameters.
        ref: https://doc.rust-lang.org/cargo/reference/semver.html#fn-change-arity
       impl: https://github.com/obi1kenobi/cargo-semver-checks/tree/v0.51.0/src/lints/function_parameter_count_changed.ron

Failed in:
  calc::add now takes 2 parameters instead of 1, in {root}/src/lib.rs:6
"#;

const SEMVER_STDERR: &str = r#"     Cloning {base}
     Locking 1 package to latest compatible version
    Building calc v1.5.0 (current)
 Documenting calc v1.5.0 ({root})
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.46s
       Built [   1.585s] (current)
     Parsing calc v1.5.0 (current)
      Parsed [   0.003s] (current)
     Locking 1 package to latest compatible version
    Building calc v1.4.0 (baseline)
 Documenting calc v1.4.0 ({target}/semver-checks/git-{base}/c2a971b93f67e6b4f05a643fd8fc2ed1ddabb9df)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.24s
       Built [   1.355s] (baseline)
     Parsing calc v1.4.0 (baseline)
      Parsed [   0.004s] (baseline)
    Checking calc v1.4.0 -> v1.5.0 (minor change)
    Starting 202 checks, 58 unnecessary on 2 threads
        FAIL [   0.000s]       major        enum_variant_added
        FAIL [   0.000s]       major        function_missing
        FAIL [   0.003s]       major        function_parameter_count_changed
     Checked [   0.074s] 202 checks: 199 pass, 3 fail, 0 warn, 58 skip

     Summary semver requires new major version: 3 major and 0 minor checks failed
    Finished [   3.646s] calc
"#;

/// The recorded output for the repository at `root` (canonical) whose base is `base`.
fn recorded(text: &str, root: &Path, base: &str) -> String {
    text.replace("{root}", &root.display().to_string())
        .replace("{target}", "/tmp/retake-analyzers/calc")
        .replace("{base}", base)
}

#[test]
fn cargo_semver_checks_stands_in_for_the_comparison_when_it_is_installed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tools = tempfile::tempdir().expect("tools");
    breaking(dir.path(), ("1.4.0", "1.5.0"), false);
    let root = dir.path().canonicalize().expect("canonical");
    let base = support::git(dir.path(), &["rev-parse", "main"]);
    let base = base.trim();
    fake_semver_checks(
        tools.path(),
        &recorded(SEMVER_STDOUT, &root, base),
        &recorded(SEMVER_STDERR, &root, base),
    );
    let (json, _) = review_with_tools(dir.path(), tools.path());
    let found = breaks(&json);
    let summary = places(&found);
    // `legacy` is gone: its place is the base's, so the finding is the file's.
    assert_eq!(
        summary,
        [
            ("H", "src/lib.rs", 0),
            ("H", "src/lib.rs", 6),
            ("H", "src/ops.rs", 7)
        ],
        "{found:#?}"
    );
    assert!(
        found[0].3.starts_with(
            "pub fn removed or renamed: function calc::legacy, previously in file src/lib.rs:11 — cargo-semver-checks function_missing"
        ),
        "{}",
        found[0].3
    );
    assert!(found[2]
        .3
        .ends_with("(crate `calc`: its version did not get the major bump this needs)"));
    let args = std::fs::read_to_string(tools.path().join("args.txt")).expect("it ran");
    assert_eq!(
        args.trim(),
        format!(
            "semver-checks check-release --manifest-path {} --baseline-rev {base} --color never --verbose",
            root.join("Cargo.toml").display(),
        )
    );
}

#[test]
fn a_crate_cargo_semver_checks_cannot_check_keeps_the_comparison() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tools = tempfile::tempdir().expect("tools");
    breaking(dir.path(), ("1.4.0", "1.5.0"), false);
    fake_semver_checks(
        tools.path(),
        "",
        "error: rustdoc JSON format version 99 is not supported\n",
    );
    let (json, text) = review_with_tools(dir.path(), tools.path());
    assert!(
        text.contains("cargo-semver-checks could not check it (error: rustdoc JSON format version 99 is not supported) for crate `calc`; the built-in comparison stands"),
        "{text}"
    );
    let lines: Vec<(String, u64)> = breaks(&json)
        .into_iter()
        .map(|(_, p, l, _)| (p, l))
        .collect();
    assert_eq!(
        lines,
        [
            ("src/lib.rs".to_string(), 0),
            ("src/lib.rs".to_string(), 6),
            ("src/ops.rs".to_string(), 4)
        ]
    );
}

#[test]
fn a_go_module_breaks_until_its_path_takes_the_next_major_version() {
    let base = [
        ("go.mod", "module example.com/calc\n\ngo 1.21\n"),
        (
            "calc.go",
            "package calc\n\n// Add adds.\nfunc Add(a int) int {\n\treturn a\n}\n\n// Legacy is gone later.\nfunc Legacy() {}\n",
        ),
        ("cmd/calc/main.go", "package main\n\nfunc main() {}\n"),
    ];
    let change = |module: &str| {
        vec![
            ("go.mod", format!("module {module}\n\ngo 1.21\n")),
            (
                "calc.go",
                "package calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
                    .to_string(),
            ),
            // A program's exports are nobody's API.
            (
                "cmd/calc/main.go",
                "package main\n\nfunc main() {}\n\nfunc Helper() {}\n".to_string(),
            ),
        ]
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let same = change("example.com/calc");
    let same: Vec<(&str, &str)> = same.iter().map(|(p, t)| (*p, t.as_str())).collect();
    commits(dir.path(), &base, &same);
    let found = lines(dir.path());
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].starts_with("H calc.go:0 `func Legacy` is gone"),
        "{found:#?}"
    );
    assert!(
        found[1].starts_with(
            "H calc.go:4 `func Add`: its parameter types went from (`int`) to (`int`, `int`)"
        ) && found[1].ends_with("(module `example.com/calc`: its version stays v1)"),
        "{found:#?}"
    );

    let dir = tempfile::tempdir().expect("tempdir");
    let next = change("example.com/calc/v2");
    let next: Vec<(&str, &str)> = next.iter().map(|(p, t)| (*p, t.as_str())).collect();
    commits(dir.path(), &base, &next);
    assert_eq!(lines(dir.path()), Vec::<String>::new());
}
