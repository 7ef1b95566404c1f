//! No input kills an Inspector: random bytes and generated pathological sources (deep brackets,
//! long lines, token floods, long expression chains, deep indentation) in every language, walked
//! from disk and reviewed by all six Inspector kinds — file pass and project rules — on a thread
//! with the actor's review stack. Nothing may panic or overflow, and a file beyond the limits is
//! skipped with its reason and reported once, as `quality/unreviewed-file`.

use super::{inspect, Context};
use proptest::prelude::*;
use protocol::message::InspectOptions;
use protocol::{InspectorKind, InspectorReport, Scope};
use std::time::{Duration, Instant};

/// The actor's review thread stack (`actor.rs`), so project rules run as in production.
const REVIEW_STACK_BYTES: usize = 256 * 1024 * 1024;

/// A hang detector, not a speed target: a debug build reviews each case in well under a second.
const HANG: Duration = Duration::from_secs(120);

const EXTENSIONS: [&str; 6] = ["rs", "py", "ts", "js", "go", "json"];

/// Reviews `files` (path, text) with every Inspector kind, statically, as a real review would:
/// walked from disk into a context, on a thread with the review stack.
fn review_all(files: &[(String, String)]) -> Vec<InspectorReport> {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, text) in files {
        crate::engine::testing::write(dir.path(), path, text);
    }
    let root = dir.path().to_path_buf();
    let started = Instant::now();
    let reports = std::thread::Builder::new()
        .stack_size(REVIEW_STACK_BYTES)
        .spawn(move || {
            let options = InspectOptions {
                no_exec: true,
                cache: false,
                ..InspectOptions::default()
            };
            let mut ctx = Context::build(&root, &Scope::repository(), &options).expect("context");
            InspectorKind::ALL
                .into_iter()
                .map(|kind| inspect(kind, &mut ctx, kind.as_str(), "hostile"))
                .collect::<Vec<_>>()
        })
        .expect("review thread")
        .join()
        .expect("no rule panics");
    assert!(
        started.elapsed() < HANG,
        "review took {:?}",
        started.elapsed()
    );
    reports
}

/// The `quality/unreviewed-file` findings of all reports, as (path, reporting kind).
fn unreviewed(reports: &[InspectorReport]) -> Vec<(String, String)> {
    reports
        .iter()
        .flat_map(|r| r.findings.iter().map(move |f| (r, f)))
        .filter(|(_, f)| f.rule == "quality/unreviewed-file")
        .map(|(r, f)| (f.location.path.clone(), r.inspector.clone()))
        .collect()
}

/// A generated source that stresses one dimension, for a file of extension `ext`.
fn shaped(shape: u8, n: usize, ext: &str) -> String {
    let open = match n % 3 {
        0 => '{',
        1 => '(',
        _ => '[',
    };
    let close = match open {
        '{' => '}',
        '(' => ')',
        _ => ']',
    };
    let head = match ext {
        "rs" => "pub fn table() ",
        "py" => "def table():\n    return ",
        "go" => "package p\nfunc table() ",
        "json" => "",
        _ => "function table() ",
    };
    match shape % 9 {
        // Deep brackets, balanced or left open.
        0 => format!(
            "{head}{}{}\n",
            open.to_string().repeat(n),
            close.to_string().repeat(n)
        ),
        1 => format!("{head}{}\n", open.to_string().repeat(n)),
        // A very long line.
        2 => format!("{head}{{ let x = {}; }}\n", "a".repeat(n * 40)),
        // A token flood that is one long left-nested expression (`a + a + …`).
        3 => format!("{head}{{ x = {}a; }}\n", "a + ".repeat(n * 8)),
        // Long chains that nest without brackets: unary operators, method calls, else-if.
        4 => format!("{head}{{ x = {}y; }}\n", "!-".repeat(n * 2)),
        5 => format!("{head}{{ x{}; }}\n", ".f()".repeat(n * 2)),
        6 => format!(
            "{head}{{ if a {{ b }} {} }}\n",
            "else if a { b } ".repeat(n)
        ),
        // Deep indentation (Python blocks, nested ifs elsewhere).
        7 => (0..n.min(1500))
            .map(|d| format!("{}if x{d}:\n", " ".repeat(d)))
            .collect::<String>(),
        // Generic types nested without brackets the limits count.
        _ => format!("pub type T = {}u8{};\n", "Vec<".repeat(n), ">".repeat(n)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_bytes_in_every_language_kill_no_inspector(
        bytes in proptest::collection::vec(any::<u8>(), 0..4096),
        ext in 0..EXTENSIONS.len(),
    ) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let reports = review_all(&[(format!("src/x.{}", EXTENSIONS[ext]), text)]);
        prop_assert_eq!(reports.len(), 6);
    }

    #[test]
    fn pathological_shapes_kill_no_inspector_and_hide_no_other_file(
        shape in 0u8..9,
        n in 1usize..6000,
        ext in 0..EXTENSIONS.len(),
    ) {
        let ext = EXTENSIONS[ext];
        let hostile = format!("src/hostile.{ext}");
        let reports = review_all(&[
            (hostile.clone(), shaped(shape, n, ext)),
            ("src/other.rs".to_string(), "pub fn a() {\n    todo!()\n}\n".to_string()),
        ]);
        for r in &reports {
            let skipped = r.coverage.skipped.iter().any(|s| s.path == hostile);
            prop_assert_eq!(r.coverage.files_reviewed, if skipped { 1 } else { 2 });
        }
        // The other file's Critical stays, whatever happened to the hostile one.
        let todo = reports.iter().flat_map(|r| &r.findings).filter(|f| {
            f.rule == "holistic/todo-macro" && f.location.path == "src/other.rs"
        });
        prop_assert_eq!(todo.count(), 1);
        // A file the Inspectors skipped as not analysable is reported once, by quality — a
        // source file as a finding, a data file (JSON) in the quality Inspector's note; it is
        // never called broken.
        let skipped_as_unanalysable = reports[0]
            .coverage
            .skipped
            .iter()
            .any(|s| s.path == hostile && s.reason.starts_with("not analysable: "));
        let data = ext == "json";
        let expected: Vec<(String, String)> = if skipped_as_unanalysable && !data {
            vec![(hostile.clone(), "quality".to_string())]
        } else {
            vec![]
        };
        prop_assert_eq!(unreviewed(&reports), expected);
        let noted = reports.iter().any(|r| {
            r.notes
                .iter()
                .any(|n| n.starts_with("quality/unreviewed-file:") && n.contains(&hostile))
        });
        prop_assert_eq!(noted, skipped_as_unanalysable && data);
        let broken = reports.iter().flat_map(|r| &r.findings).any(|f| {
            f.rule == "quality/incomplete-syntax" && f.location.path == hostile
        });
        prop_assert!(!(broken && skipped_as_unanalysable));
    }
}

#[test]
fn the_issue_s_fifty_thousand_braces_are_unreviewed_and_the_todo_stays() {
    let deep = format!(
        "pub fn table() {}{}\n",
        "{".repeat(50_000),
        "}".repeat(50_000)
    );
    let reports = review_all(&[
        ("src/table.rs".to_string(), deep),
        (
            "src/lib.rs".to_string(),
            "pub fn a() {\n    todo!()\n}\n".to_string(),
        ),
    ]);
    for r in &reports {
        assert_eq!(r.coverage.files_reviewed, 1, "{}", r.inspector);
        assert_eq!(
            r.coverage
                .skipped
                .iter()
                .map(|s| (s.path.as_str(), s.reason.as_str()))
                .collect::<Vec<_>>(),
            vec![(
                "src/table.rs",
                "not analysable: brackets nested deeper than 256 at line 1"
            )]
        );
    }
    assert_eq!(
        unreviewed(&reports),
        vec![("src/table.rs".to_string(), "quality".to_string())]
    );
    let todo: Vec<(String, Option<u32>)> = reports
        .iter()
        .flat_map(|r| &r.findings)
        .filter(|f| f.rule == "holistic/todo-macro")
        .map(|f| (f.location.path.clone(), f.location.line))
        .collect();
    assert_eq!(todo, vec![("src/lib.rs".to_string(), Some(2))]);
}

#[test]
fn nesting_right_at_the_limit_is_reviewed_by_every_rule() {
    // 255 blocks inside the function's own: depth 256, the deepest the limits let through.
    let deepest = format!(
        "pub fn table() {{ {}{} }}\n",
        "{ ".repeat(255),
        "} ".repeat(255)
    );
    let reports = review_all(&[("src/table.rs".to_string(), deepest)]);
    for r in &reports {
        assert_eq!(r.coverage.files_reviewed, 1, "{}", r.inspector);
        assert!(r.coverage.skipped.is_empty(), "{}", r.inspector);
    }
    assert!(reports
        .iter()
        .flat_map(|r| &r.findings)
        .all(|f| f.rule != "quality/incomplete-syntax"));
}

#[test]
fn every_shape_at_its_largest_in_every_language_kills_no_inspector() {
    for shape in 0..9 {
        for ext in EXTENSIONS {
            // The largest size the property draws, in each bracket kind.
            for n in [5997, 5998, 5999] {
                let reports = review_all(&[(format!("src/x.{ext}"), shaped(shape, n, ext))]);
                assert_eq!(reports.len(), 6, "shape {shape}, .{ext}, n {n}");
            }
        }
    }
}

/// Chains of one construct that nest without brackets, each unit `tokens` tokens long, with
/// about `budget` tokens in all: one line per unit, so no line limit interferes.
fn chains(budget: usize) -> Vec<(&'static str, String)> {
    let chain = |unit: &str, tokens: usize, wrap: &dyn Fn(String) -> String| {
        wrap(format!("{unit}\n").repeat(budget / tokens))
    };
    let body = |s: String| format!("pub fn t() {{ x = {s}y; }}\n");
    vec![
        ("binary", chain("a +", 2, &body)),
        ("unary", chain("!", 1, &body)),
        ("reference", chain("&", 1, &body)),
        ("closure", chain("||", 2, &body)),
        ("range", chain("..", 2, &body)),
        (
            "method",
            chain(".f()", 4, &|s| format!("pub fn t() {{ x{s}; }}\n")),
        ),
        (
            "method-args",
            chain(".f(a, b)", 7, &|s| format!("pub fn t() {{ x{s}; }}\n")),
        ),
        (
            "try",
            chain("?", 1, &|s| format!("pub fn t() {{ x = y{s}; }}\n")),
        ),
        (
            "cast",
            chain("as u8", 2, &|s| format!("pub fn t() {{ x = y {s}; }}\n")),
        ),
        (
            "return",
            chain("return", 1, &|s| format!("pub fn t() {{ {s}y; }}\n")),
        ),
        (
            "pointer",
            chain("*const", 2, &|s| format!("pub type T = {s}u8;\n")),
        ),
        (
            "else-if",
            chain("else if a { b }", 6, &|s| {
                format!("pub fn t() {{ if a {{ b }} {s} }}\n")
            }),
        ),
    ]
}

#[test]
fn chains_just_inside_the_limits_are_reviewed_and_chains_beyond_them_skipped() {
    let inside = crate::engine::limits::MAX_STATEMENT_TOKENS - 50;
    for (name, text) in chains(inside) {
        let reports = review_all(&[("src/x.rs".to_string(), text)]);
        for r in &reports {
            assert_eq!(r.coverage.files_reviewed, 1, "{name}: {:?}", r.coverage);
        }
    }
    for (name, text) in chains(2 * crate::engine::limits::MAX_STATEMENT_TOKENS) {
        if matches!(name, "else-if" | "method-args") {
            continue; // blocks and commas end runs: bounded by the total token count
        }
        let reports = review_all(&[("src/x.rs".to_string(), text)]);
        assert_eq!(reports[0].coverage.files_reviewed, 0, "{name}");
        assert_eq!(unreviewed(&reports).len(), 1, "{name}");
    }
}
