//! `cargo-semver-checks` as the compatibility dimension's Rust analyzer: when it is installed
//! and commands may run, it compares each changed publishable crate with the session's base
//! (`check-release --baseline-rev`, rustdoc's view: types, traits, re-exports, auto traits),
//! and its failed checks stand in for `interface/breaking-change`'s own comparison of that
//! crate. It prints text only, read here: each `--- failure ID: NAME ---` block, its
//! "Failed in:" lines (`… in file PATH:LINE`), and from `--verbose` whether the check asks for a
//! major or a minor version. A crate it could not check keeps the built-in comparison, with a
//! note saying why. Its build goes to the analyzers' target folder outside the tree.

use crate::engine::{Context, Hit};
use crate::rules::quality::linters::run_tool;
use protocol::exec::sandbox::{analyzer_target_dir, mark_analyzer_target_used, STALE_AFTER};
use protocol::Location;

/// The tool's executable.
const TOOL: &str = "cargo-semver-checks";

/// One failed check at one place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Violation {
    /// The lint id (`function_missing`).
    pub lint: String,
    /// Its name (`pub fn removed or renamed`).
    pub name: String,
    /// What it says about this place (`function calc::sub, previously in file src/lib.rs:5`).
    pub message: String,
    /// The file it names, as printed.
    pub file: Option<String>,
    /// The line it names.
    pub line: Option<u32>,
    /// Whether the check asks for a major version (else a minor one).
    pub major: bool,
    /// Whether the place is in the base revision (the item is gone).
    pub previously: bool,
}

/// Whether the tool is on the PATH.
pub(super) fn installed() -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(TOOL).is_file()))
}

/// Runs the tool on the crate of `manifest` (repository-relative) against `base`: its
/// violations, or why it could not check the crate.
pub(super) fn check(ctx: &Context, manifest: &str, base: &str) -> Result<Vec<Violation>, String> {
    let target = analyzer_target_dir(&ctx.root);
    mark_analyzer_target_used(&target, STALE_AFTER);
    let manifest_path = ctx.root.join(manifest).to_string_lossy().into_owned();
    let argv = [
        "cargo",
        "semver-checks",
        "check-release",
        "--manifest-path",
        manifest_path.as_str(),
        "--baseline-rev",
        base,
        "--color",
        "never",
        "--verbose",
    ];
    let env = vec![(
        "CARGO_TARGET_DIR".to_string(),
        target.to_string_lossy().into_owned(),
    )];
    let done = run_tool(ctx, TOOL, &argv, env)?;
    if !done
        .stderr
        .lines()
        .any(|l| l.trim_start().starts_with("Checked"))
    {
        let why = done
            .stderr
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with("error"))
            .or_else(|| done.stderr.lines().map(str::trim).find(|l| !l.is_empty()))
            .unwrap_or("no output");
        return Err(format!("{TOOL} could not check it ({why})"));
    }
    Ok(parse(&done.stdout, &done.stderr))
}

/// The failed checks of a run's standard output, with their major/minor requirement from the
/// verbose status lines on standard error (a check it names nowhere counts as major).
pub(super) fn parse(stdout: &str, stderr: &str) -> Vec<Violation> {
    let minor: Vec<&str> = stderr
        .lines()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            match words.as_slice() {
                ["FAIL", .., "minor", id] => Some(*id),
                _ => None,
            }
        })
        .collect();
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    let mut failed_in = false;
    for line in stdout.lines() {
        if let Some(header) = line
            .trim()
            .strip_prefix("--- failure ")
            .and_then(|h| h.strip_suffix(" ---"))
        {
            current = header
                .split_once(": ")
                .map(|(id, name)| (id.to_string(), name.to_string()));
            failed_in = false;
            continue;
        }
        if line.trim_start().starts_with("--- warning ") {
            current = None;
            continue;
        }
        if line.trim() == "Failed in:" {
            failed_in = true;
            continue;
        }
        let Some((lint, name)) = &current else {
            continue;
        };
        let Some(message) = line.strip_prefix("  ").filter(|_| failed_in) else {
            if !line.trim().is_empty() && !line.starts_with(' ') {
                failed_in = false;
            }
            continue;
        };
        let message = message.trim().to_string();
        if message.is_empty() || message.starts_with("note:") {
            continue;
        }
        let (file, line_no, previously) = place(&message);
        out.push(Violation {
            major: !minor.contains(&lint.as_str()),
            lint: lint.clone(),
            name: name.clone(),
            message,
            file,
            line: line_no,
            previously,
        });
    }
    out
}

/// The file and line a message ends with (`… in src/lib.rs:12`, `…, previously in file
/// src/lib.rs:5`), and whether it is where the item was (`previously in file`).
fn place(message: &str) -> (Option<String>, Option<u32>, bool) {
    let previously = message.contains("previously in file ");
    let Some(at) = message.rfind(" in ") else {
        return (None, None, previously);
    };
    let spot = message[at + " in ".len()..].trim();
    let spot = spot.strip_prefix("file ").unwrap_or(spot).trim();
    if spot.is_empty() || spot.contains(char::is_whitespace) {
        return (None, None, previously);
    }
    match spot.rsplit_once(':') {
        Some((file, line)) if line.parse::<u32>().is_ok() => {
            (Some(file.to_string()), line.parse().ok(), previously)
        }
        _ => (Some(spot.to_string()), None, previously),
    }
}

/// A message without its place: what stays when lines move.
fn without_place(message: &str) -> &str {
    let head = message.rfind(" in ").map_or(message, |at| &message[..at]);
    head.trim_end_matches(" previously").trim_end_matches(',')
}

/// A violation as a finding of `interface/breaking-change` in the crate whose manifest folder is
/// `dir` (repository-relative, empty or ending with `/`): at its line when the file is there
/// now and the line is the change's, else at the file (or the manifest when the file is gone),
/// its place written repository-relative.
pub(super) fn hit(ctx: &Context, v: &Violation, dir: &str, manifest: &str, tail: &str) -> Hit {
    let rel = v.file.as_deref().and_then(|f| relative(ctx, f, dir));
    let location = match (&rel, v.line) {
        (Some(p), Some(line)) if !v.previously && ctx.root.join(p).is_file() => {
            Location::at(p, line)
        }
        (Some(p), _) if ctx.root.join(p).is_file() => Location::file(p),
        _ => Location::file(manifest),
    };
    let message = match (&v.file, &rel) {
        (Some(printed), Some(rel)) => v.message.replace(printed.as_str(), rel),
        _ => v.message.clone(),
    };
    // The fingerprint leaves the place out: an edit above the item is not a new break.
    let key = without_place(&v.message);
    Hit::new(
        location,
        format!("{}: {message} — {TOOL} {} {tail}", v.name, v.lint),
        format!("{manifest}:{}:{key}", v.lint),
    )
    .suggest("keep the old item beside the new one (deprecated), or bump the major version")
}

/// A printed file as a repository-relative path: under the repository (the change's files),
/// under the tool's copy of the base (`…/semver-checks/git-REV/TREE/…`, the repository as it
/// was), or relative to the crate's folder `dir`; `None` for anything else.
fn relative(ctx: &Context, file: &str, dir: &str) -> Option<String> {
    let root = format!("{}/", ctx.root.display());
    if let Some(rel) = file.strip_prefix(&root) {
        return Some(rel.to_string());
    }
    if let Some(at) = file.find("/semver-checks/git-") {
        let mut rest = file[at + 1..].splitn(4, '/');
        let (_, _, _, rel) = (rest.next(), rest.next(), rest.next(), rest.next()?);
        return Some(rel.to_string());
    }
    if std::path::Path::new(file).is_absolute() {
        return None;
    }
    Some(if file.starts_with(dir) {
        file.to_string()
    } else {
        format!("{dir}{file}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What version 0.51 printed for the crate of `lead/tests/breaking_change.rs` (a function
    /// removed, a parameter added, a variant added to an exhaustive enum; its repository in
    /// `/tmp/calc`, the tool's build in `/tmp/calc-target`), its PASS lines left out; then one
    /// minor check and one warning of the format its `check_release.rs` writes.
    const STDOUT: &str = r#"
--- failure enum_variant_added: enum variant added on exhaustive enum ---

Description:
A publicly-visible enum without #[non_exhaustive] has a new variant.
        ref: https://doc.rust-lang.org/cargo/reference/semver.html#enum-variant-new
       impl: https://github.com/obi1kenobi/cargo-semver-checks/tree/v0.51.0/src/lints/enum_variant_added.ron

Failed in:
  variant Op:Mul in /tmp/calc/src/ops.rs:7

--- failure function_missing: pub fn removed or renamed ---

Description:
A publicly-visible function cannot be imported by its prior path. A `pub use` may have been removed, or the function itself may have been renamed or removed entirely.
        ref: https://doc.rust-lang.org/cargo/reference/semver.html#item-remove
       impl: https://github.com/obi1kenobi/cargo-semver-checks/tree/v0.51.0/src/lints/function_missing.ron

Failed in:
  function calc::legacy, previously in file /tmp/calc-target/semver-checks/git-a6dac7577b59fc365f4d0c5d30632d87fbdc0793/c2a971b93f67e6b4f05a643fd8fc2ed1ddabb9df/src/lib.rs:11

--- failure function_parameter_count_changed: pub fn parameter count changed ---

Description:
A publicly-visible function now takes a different number of parameters.
        ref: https://doc.rust-lang.org/cargo/reference/semver.html#fn-change-arity
       impl: https://github.com/obi1kenobi/cargo-semver-checks/tree/v0.51.0/src/lints/function_parameter_count_changed.ron

Failed in:
  calc::add now takes 2 parameters instead of 1, in /tmp/calc/src/lib.rs:6

--- failure enum_must_use_added: enum #[must_use] added ---

Description:
An enum has been marked with #[must_use].

Failed in:
  enum calc::Op in /tmp/calc/src/ops.rs:4

--- warning trait_method_added: pub trait method added ---

Description:
A trait got a method.

Failed in:
  trait method calc::Op::name in src/lib.rs:20
"#;

    const STDERR: &str = r#"     Cloning a6dac7577b59fc365f4d0c5d30632d87fbdc0793
     Locking 1 package to latest compatible version
    Building calc v1.5.0 (current)
 Documenting calc v1.5.0 (/tmp/calc)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.46s
       Built [   1.585s] (current)
     Parsing calc v1.5.0 (current)
      Parsed [   0.003s] (current)
     Locking 1 package to latest compatible version
    Building calc v1.4.0 (baseline)
 Documenting calc v1.4.0 (/tmp/calc-target/semver-checks/git-a6dac7577b59fc365f4d0c5d30632d87fbdc0793/c2a971b93f67e6b4f05a643fd8fc2ed1ddabb9df)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.24s
       Built [   1.355s] (baseline)
     Parsing calc v1.4.0 (baseline)
      Parsed [   0.004s] (baseline)
    Checking calc v1.4.0 -> v1.5.0 (minor change)
    Starting 202 checks, 58 unnecessary on 2 threads
        FAIL [   0.000s]       major        enum_variant_added
        FAIL [   0.000s]       major        function_missing
        FAIL [   0.003s]       major        function_parameter_count_changed
        FAIL [   0.000s]       minor        enum_must_use_added
     Checked [   0.074s] 202 checks: 198 pass, 4 fail, 0 warn, 58 skip

     Summary semver requires new major version: 3 major and 0 minor checks failed
    Finished [   3.646s] calc
"#;

    #[test]
    fn failures_are_read_with_their_place_and_requirement_and_warnings_are_not() {
        let found = parse(STDOUT, STDERR);
        type Row<'a> = (&'a str, Option<&'a str>, Option<u32>, bool, bool);
        let rows: Vec<Row<'_>> = found
            .iter()
            .map(|v| {
                (
                    v.lint.as_str(),
                    v.file.as_deref(),
                    v.line,
                    v.major,
                    v.previously,
                )
            })
            .collect();
        let base = "/tmp/calc-target/semver-checks/git-a6dac7577b59fc365f4d0c5d30632d87fbdc0793/c2a971b93f67e6b4f05a643fd8fc2ed1ddabb9df/src/lib.rs";
        assert_eq!(
            rows,
            [
                (
                    "enum_variant_added",
                    Some("/tmp/calc/src/ops.rs"),
                    Some(7),
                    true,
                    false
                ),
                ("function_missing", Some(base), Some(11), true, true),
                (
                    "function_parameter_count_changed",
                    Some("/tmp/calc/src/lib.rs"),
                    Some(6),
                    true,
                    false
                ),
                (
                    "enum_must_use_added",
                    Some("/tmp/calc/src/ops.rs"),
                    Some(4),
                    false,
                    false
                ),
            ]
        );
        assert_eq!(without_place(&found[1].message), "function calc::legacy");
        assert_eq!(
            without_place(&found[2].message),
            "calc::add now takes 2 parameters instead of 1"
        );
        assert_eq!(found[1].name, "pub fn removed or renamed");
    }

    #[test]
    fn printed_files_become_repository_paths() {
        let ctx = Context::from_files(
            std::path::Path::new("/tmp/calc"),
            Vec::new(),
            crate::spec::Specs::default(),
        );
        let base = "/tmp/t/semver-checks/git-a6dac75/c2a971b/crates/calc/src/lib.rs";
        assert_eq!(
            relative(&ctx, "/tmp/calc/crates/calc/src/ops.rs", "crates/calc/"),
            Some("crates/calc/src/ops.rs".into())
        );
        assert_eq!(
            relative(&ctx, base, "crates/calc/"),
            Some("crates/calc/src/lib.rs".into())
        );
        assert_eq!(
            relative(&ctx, "src/lib.rs", "crates/calc/"),
            Some("crates/calc/src/lib.rs".into())
        );
        assert_eq!(relative(&ctx, "/elsewhere/lib.rs", ""), None);
    }

    #[test]
    fn a_place_without_a_line_is_the_file() {
        assert_eq!(
            place("struct calc::Pair in file src/pair.rs"),
            (Some("src/pair.rs".into()), None, false)
        );
        assert_eq!(
            place("field Pair.b in src/pair.rs:3"),
            (Some("src/pair.rs".into()), Some(3), false)
        );
        assert_eq!(place("no place at all"), (None, None, false));
    }
}
