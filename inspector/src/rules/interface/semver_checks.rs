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
/// now and the line is the change's, else at the file (or the manifest when the file is gone).
pub(super) fn hit(ctx: &Context, v: &Violation, dir: &str, manifest: &str, tail: &str) -> Hit {
    let path = v.file.as_deref().map(|f| {
        let root = format!("{}/", ctx.root.display());
        let f = f.strip_prefix(&root).unwrap_or(f);
        if std::path::Path::new(f).is_absolute() || f.starts_with(dir) {
            f.to_string()
        } else {
            format!("{dir}{f}")
        }
    });
    let location = match (path, v.line) {
        (Some(p), Some(line)) if !v.previously && ctx.root.join(&p).is_file() => {
            Location::at(&p, line)
        }
        (Some(p), _) if ctx.root.join(&p).is_file() => Location::file(&p),
        _ => Location::file(manifest),
    };
    // The fingerprint leaves the line out: an edit above the item is not a new break.
    let key = without_place(&v.message);
    Hit::new(
        location,
        format!("{}: {} — {TOOL} {} {tail}", v.name, v.message, v.lint),
        format!("{manifest}:{}:{key}", v.lint),
    )
    .suggest("keep the old item beside the new one (deprecated), or bump the major version")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What version 0.51 prints for a crate that removed a function, added a parameter and
    /// added a variant to an exhaustive enum (the format of its `check_release.rs`).
    const STDOUT: &str = "
--- failure enum_variant_added: enum variant added on exhaustive enum ---

Description:
A publicly-visible enum without #[non_exhaustive] has a new variant.
        ref: https://doc.rust-lang.org/cargo/reference/semver.html#enum-variant-new
       impl: https://github.com/obi1kenobi/cargo-semver-checks/tree/v0.51.0/src/lints/enum_variant_added.ron

Failed in:
  variant Op:Mul in src/lib.rs:8

--- failure function_missing: pub fn removed or renamed ---

Description:
A publicly-visible function cannot be imported by its prior path.
        ref: https://doc.rust-lang.org/cargo/reference/semver.html#item-remove
       impl: https://github.com/obi1kenobi/cargo-semver-checks/tree/v0.51.0/src/lints/function_missing.ron

Failed in:
  function calc::sub, previously in file src/lib.rs:5

--- failure function_parameter_count_changed: pub fn parameter count changed ---

Description:
A publicly-visible function now takes a different number of parameters.
       impl: https://github.com/obi1kenobi/cargo-semver-checks/tree/v0.51.0/src/lints/function_parameter_count_changed.ron

Failed in:
  calc::add now takes 3 parameters instead of 2, in /work/repo/src/lib.rs:2
note: downstream code similar to the following would break:
calc::add(...);

--- failure enum_must_use_added: enum #[must_use] added ---

Description:
An enum has been marked with #[must_use].

Failed in:
  enum calc::Op in src/lib.rs:7

--- warning trait_method_added: pub trait method added ---

Description:
A trait got a method.

Failed in:
  trait method calc::Op::name in src/lib.rs:20
";

    const STDERR: &str = "     Parsing calc v0.1.0 (current)
      Parsed [   0.5s] (current)
    Starting 3 checks, 0 unnecessary
        FAIL [   0.001s]       major        enum_variant_added
        FAIL [   0.001s]       major        function_missing
        FAIL [   0.001s]       major        function_parameter_count_changed
        FAIL [   0.001s]       minor        enum_must_use_added
     Checked [   0.003s] 4 checks: 0 pass, 4 fail, 0 warn, 0 skip
     Summary semver requires new major version: 3 major and 1 minor checks failed
";

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
        assert_eq!(
            rows,
            [
                (
                    "enum_variant_added",
                    Some("src/lib.rs"),
                    Some(8),
                    true,
                    false
                ),
                ("function_missing", Some("src/lib.rs"), Some(5), true, true),
                (
                    "function_parameter_count_changed",
                    Some("/work/repo/src/lib.rs"),
                    Some(2),
                    true,
                    false
                ),
                (
                    "enum_must_use_added",
                    Some("src/lib.rs"),
                    Some(7),
                    false,
                    false
                ),
            ]
        );
        assert_eq!(without_place(&found[1].message), "function calc::sub");
        assert_eq!(
            without_place(&found[2].message),
            "calc::add now takes 3 parameters instead of 2"
        );
        assert_eq!(found[1].name, "pub fn removed or renamed");
        assert_eq!(
            found[1].message,
            "function calc::sub, previously in file src/lib.rs:5"
        );
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
