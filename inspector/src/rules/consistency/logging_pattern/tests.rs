use super::*;
use crate::engine::{inspect, SourceFile};
use crate::rules::project_fixture::project_sink;
use protocol::InspectorKind;
use std::path::Path;

fn run(files: &[(&str, &str)]) -> Sink {
    project_sink(&LoggingPattern, files)
}

#[test]
fn fires_on_the_printing_module_of_a_logging_project() {
    let sink = run(&[
        (
            "api/src/lib.rs",
            "pub fn a() {\n    tracing::info!(\"up\");\n}\n",
        ),
        (
            "store/src/lib.rs",
            "pub fn b() {\n    log::warn!(\"slow\");\n}\n",
        ),
        (
            "cache/src/lib.rs",
            "pub fn c() {\n    let x = 1;\n    println!(\"miss {x}\");\n    eprintln!(\"!\");\n}\n",
        ),
    ]);
    let hits: Vec<(String, Option<u32>, String)> = sink
        .hits
        .into_iter()
        .map(|h| (h.location.path, h.location.line, h.description))
        .collect();
    assert_eq!(
        hits,
        vec![(
            "cache/src/lib.rs".to_string(),
            Some(3),
            "module `cache` prints with `println!` (2 prints) while `api` and `store` log through a logging framework".to_string()
        )]
    );
}

#[test]
fn a_log_macro_of_its_own_and_a_proc_macro_crate_are_not_printing() {
    let sink = run(&[
        ("api/src/lib.rs", "pub fn a() {\n    tracing::info!(\"up\");\n}\n"),
        (
            "complete/src/macros.rs",
            "#[cfg(feature = \"debug\")]\nmacro_rules! debug {\n    ($($arg:tt)*) => {\n        eprint!(\"[{:>w$}] \", module_path!(), w = 28);\n        eprintln!($($arg)*)\n    }\n}\n",
        ),
        ("complete/src/lib.rs", "pub fn c() {\n    debug!(\"generating\");\n}\n"),
        (
            "macros/src/lib.rs",
            "use proc_macro::TokenStream;\nfn expand(t: TokenStream) -> TokenStream {\n    if std::env::var_os(\"M_DEBUG\").is_some() {\n        eprintln!(\"{t}\");\n    }\n    t\n}\n",
        ),
    ]);
    assert!(sink.hits.is_empty(), "{:?}", sink.hits);
}

#[test]
fn each_language_is_compared_with_itself() {
    // A browser script beside Rust crates that log: nothing of the script's to compare.
    let sink = project_sink(
        &LoggingPattern,
        &[
            (
                "core/src/lib.rs",
                "pub fn f() { tracing::debug!(\"x\"); }\n",
            ),
            ("net/src/lib.rs", "pub fn g() { log::info!(\"x\"); }\n"),
            (
                "theme/searcher.js",
                "function load() {\n  console.error('failed');\n}\n",
            ),
        ],
    );
    assert!(sink.hits.is_empty(), "{:?}", sink.hits);
}

#[test]
fn quiet_for_one_style_binaries_tests_and_one_module() {
    let quiet = run(&[
        ("app/views.py", "import logging\nlog = logging.getLogger()\ndef f():\n    log.info('x')\n"),
        ("cli/src/main.rs", "fn main() { println!(\"usage\"); }\n"),
        ("cli/src/args.rs", "pub fn usage() { println!(\"usage\"); }\n"),
        ("cli/src/lib.rs", "pub fn run() { eprintln!(\"error: x\"); }\n"),
        ("core/src/lib.rs", "pub fn f() { tracing::debug!(\"x\"); }\n#[cfg(test)]\nmod tests {\n    fn t() { println!(\"dbg\"); }\n}\n"),
        ("net/src/lib.rs", "pub fn g() { log::info!(\"x\"); }\n"),
        ("web/util.js", "const s = 'console.log(1)';\nlogger.info(s);\n"),
        // Logs and prints: each channel chosen on purpose (a usage text, a warning).
        ("web/args.js", "logger.debug('parsed');\nconsole.warn('argsert: bad call');\n"),
        // Allowed by the project's own clippy attribute: excused, below.
        ("stdx/src/lib.rs", "#[expect(clippy::print_stderr, reason = \"only visible to developers\")]\npub fn timeit() {\n    eprintln!(\"t\");\n}\n"),
        ("utils/src/lib.rs", "#![allow(clippy::print_stderr)]\npub mod linear;\n"),
        ("utils/src/linear.rs", "pub fn plot() {\n    eprintln!(\"plot\");\n}\n"),
        // ESLint's no-console turned off by the project: excused, below.
        ("front/report.js", "/* eslint-disable no-console */\nexport function report(r) {\n  console.log(r);\n}\n"),
        // The console backend of the project's own logger interface.
        ("web/console-logger.ts", "export const ConsoleLogger = {\n  warn(...a) { console.warn(...a) },\n};\n"),
        // A runtime's own printing macros: printing is the API they offer.
        ("rt/src/macros.rs", "#[macro_export]\nmacro_rules! println {\n    () => ($crate::print!(\"\\n\"));\n}\n"),
        // Output a developer switches on.
        ("gen/src/lib.rs", "pub fn g() {\n    if crate::debug_enabled() {\n        println!(\"trace\");\n    }\n}\n"),
        ("mac/src/lib.rs", "pub fn m() {\n    if std::env::var_os(\"M_DEBUG\").is_some() {\n        eprintln!(\"expanded\");\n    }\n}\n"),
        // Last words before the process ends: no logger is sure to flush.
        ("ffi/src/lib.rs", "pub fn guard() {\n    eprintln!(\"panic unwind caught, aborting\");\n    std::process::abort()\n}\n"),
        // ... flushed first.
        ("svc/config.py", "import sys\ndef load():\n    print('Error', file=sys.stderr)\n    sys.stderr.flush()\n    sys.exit(1)\n"),
        // Beside the program's entry point: its front end, whose prints are its output.
        ("tool/__main__.py", "from tool.cli import main\nmain()\n"),
        ("tool/cli.py", "def main():\n    print('usage: tool')\n"),
    ]);
    let excused: Vec<(&str, Option<u32>)> = quiet
        .hits
        .iter()
        .map(|h| (h.location.path.as_str(), h.location.line))
        .collect();
    assert_eq!(
        excused,
        vec![
            ("stdx/src/lib.rs", Some(3)),
            ("utils/src/linear.rs", Some(2)),
            ("front/report.js", Some(3))
        ]
    );
    assert!(
        quiet.hits.iter().all(|h| h.excuse.is_some()),
        "{:?}",
        quiet.hits
    );
    assert!(quiet.notes.is_empty(), "{:?}", quiet.notes);
    let mut ctx = Context::from_files(
        Path::new("/r"),
        vec![SourceFile::new(
            "src/lib.rs",
            "pub fn f() { println!(\"x\"); }\n",
        )],
        crate::spec::Specs::default(),
    );
    let report = inspect(
        InspectorKind::Consistency,
        &mut ctx,
        "inspector-consistency",
        "r1",
    );
    assert!(report.findings.is_empty());
    assert_eq!(report.notes, vec![NOTHING_TO_COMPARE.to_string()]);
}
