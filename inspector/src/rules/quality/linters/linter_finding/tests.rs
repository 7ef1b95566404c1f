use super::*;
use crate::engine::{step_aside, Rule};
use std::path::Path;

fn ctx_with(paths: &[&str]) -> Context {
    Context::from_files(
        Path::new("/r"),
        paths.iter().map(|p| SourceFile::new(*p, "")).collect(),
        crate::spec::Specs::default(),
    )
}

fn found(sink: &Sink) -> Vec<(String, Option<u32>, String, Option<Severity>)> {
    sink.hits
        .iter()
        .map(|h| {
            let l = &h.location;
            (l.path.clone(), l.line, h.description.clone(), h.severity)
        })
        .collect()
}

fn diag(path: &str, line: u32, code: &str, message: &str) -> Diagnostic {
    Diagnostic {
        path: path.into(),
        line,
        end_line: line,
        code: code.into(),
        error: false,
        deny_by_default: false,
        message: message.into(),
    }
}

#[test]
fn fires_on_analyzer_json_in_scope_with_its_severity() {
    let ctx = ctx_with(&["app.py", "orders.go", "src/lib.rs", "web/app.js"]);
    let mut sink = Sink::default();
    let ruff = r#"[{"code": "F401", "filename": "/r/app.py", "location": {"row": 1}, "message": "`os` imported but unused"}, {"code": "F821", "filename": "/r/app.py", "location": {"row": 7}, "message": "Undefined name `x`"}]"#;
    report(
        Linter::Ruff,
        ruff::parse(ruff, &ctx.root).expect("json"),
        &ctx,
        &mut sink,
    );
    let eslint = r#"[{"filePath": "/r/web/app.js", "messages": [{"ruleId": "eqeqeq", "severity": 1, "message": "Expected '==='.", "line": 5}]}]"#;
    report(
        Linter::Eslint,
        eslint::parse(eslint, &ctx.root).expect("json"),
        &ctx,
        &mut sink,
    );
    let mut eq_op = diag("src/lib.rs", 2, "clippy::eq_op", "equal expressions");
    (eq_op.error, eq_op.deny_by_default) = (true, true);
    let cargo = [
        eq_op,
        diag("src/lib.rs", 4, "clippy::await_holding_lock", "held"),
        diag(
            "src/lib.rs",
            9,
            "clippy::needless_return",
            "unneeded `return`",
        ),
        diag("src/lib.rs", 3, "dead_code", "function `f` is never used"),
        diag(
            "src/lib.rs",
            11,
            "non_snake_case",
            "function `getX` should have a snake case name",
        ),
    ];
    report(Linter::Clippy, clippy_lints(&cargo), &ctx, &mut sink);
    let vet = "# shop\n{\n\t\"shop\": {\n\t\t\"printf\": [\n\t\t\t{\n\t\t\t\t\"posn\": \"/r/orders.go:22:2\",\n\t\t\t\t\"message\": \"bad verb\"\n\t\t\t}\n\t\t]\n\t}\n}\n";
    report(
        Linter::GoVet,
        go_vet::parse(vet, &ctx.root).diagnostics,
        &ctx,
        &mut sink,
    );
    let s = |t: &str| t.to_string();
    assert_eq!(
        found(&sink),
        vec![
            (
                s("app.py"),
                Some(1),
                s("ruff `F401`: `os` imported but unused"),
                Some(Severity::Low)
            ),
            (
                s("app.py"),
                Some(7),
                s("ruff `F821`: Undefined name `x`"),
                Some(Severity::High)
            ),
            (
                s("web/app.js"),
                Some(5),
                s("eslint `eqeqeq`: Expected '==='."),
                Some(Severity::Low)
            ),
            (
                s("src/lib.rs"),
                Some(2),
                s("clippy `clippy::eq_op`: equal expressions"),
                Some(Severity::High)
            ),
            (
                s("src/lib.rs"),
                Some(4),
                s("clippy `clippy::await_holding_lock`: held"),
                Some(Severity::Medium)
            ),
            (
                s("src/lib.rs"),
                Some(9),
                s("clippy `clippy::needless_return`: unneeded `return`"),
                Some(Severity::Low)
            ),
            (
                s("src/lib.rs"),
                Some(11),
                s("clippy `non_snake_case`: function `getX` should have a snake case name"),
                Some(Severity::Low)
            ),
            (
                s("orders.go"),
                Some(22),
                s("go vet `printf`: bad verb"),
                Some(Severity::Medium)
            ),
        ]
    );
    // The lock lint stands in for the holistic rule, the naming lint for the quality one; each
    // takes its rule's category.
    let categories: Vec<Option<&str>> = sink.hits.iter().map(|h| h.category.as_deref()).collect();
    let mut expected = vec![None; 8];
    (expected[4], expected[6]) = (Some("race-condition"), Some("naming-violation"));
    assert_eq!(categories, expected);
    let stand_in = |rule, line| crate::engine::StandIn {
        rule,
        path: s("src/lib.rs"),
        lines: (line, line),
    };
    assert_eq!(
        sink.stand_ins,
        vec![
            stand_in("holistic/lock-across-await", 4),
            stand_in("quality/naming-violation", 11)
        ]
    );
}

#[test]
fn a_builtin_finding_steps_aside_for_the_analyzer_only_where_it_ran() {
    let text = "def load():\n    try:\n        read()\n    except:\n        pass\n";
    let file = SourceFile::new("app.py", text);
    let ctx = Context::from_files(
        Path::new("/r"),
        vec![SourceFile::new("app.py", text)],
        crate::spec::Specs::default(),
    );
    let rules = crate::rules::quality::rules();
    let swallowed = rules
        .iter()
        .position(|r| r.meta().id == "quality/swallowed-error")
        .expect("rule");
    let linted = rules
        .iter()
        .position(|r| r.meta().id == META.id)
        .expect("rule");
    let ids: Vec<&str> = rules.iter().map(|r| r.meta().id).collect();
    let run = |ruff: Option<&str>| {
        let mut sinks: Vec<Sink> = rules.iter().map(|_| Sink::default()).collect();
        rules[swallowed].check_file(&file, &mut sinks[swallowed]);
        if let Some(json) = ruff {
            let parsed = ruff::parse(json, &ctx.root).expect("json");
            report(Linter::Ruff, parsed, &ctx, &mut sinks[linted]);
        }
        step_aside(&ids, &mut sinks);
        sinks
            .iter()
            .zip(&ids)
            .flat_map(|(sink, id)| found(sink).into_iter().map(move |f| (*id, f.1, f.2)))
            .collect::<Vec<_>>()
    };
    let e722 = r#"[{"code": "E722", "filename": "/r/app.py", "location": {"row": 4}, "end_location": {"row": 4}, "message": "Do not use bare `except`"}]"#;
    assert_eq!(
        run(Some(e722)),
        vec![(
            META.id,
            Some(4),
            "ruff `E722`: Do not use bare `except`".to_string()
        )],
        "one finding, carrying the analyzer's lint name"
    );
    // ruff did not run (or said nothing there): the built-in finding stays.
    let alone = run(None);
    assert_eq!(
        alone.iter().map(|f| (f.0, f.1)).collect::<Vec<_>>(),
        vec![("quality/swallowed-error", Some(4))]
    );
    assert_eq!(run(Some("[]")), alone);
}

#[test]
fn nothing_runs_without_linters_and_no_exec_lists_them() {
    let ctx = ctx_with(&["app.py"]);
    let mut sink = Sink::default();
    LinterFinding.check_project(&ctx, &mut sink);
    assert!(sink.hits.is_empty() && sink.notes.is_empty() && sink.not_run.is_empty());
    let mut ctx = ctx_with(&["app.py", "main.go"]);
    ctx.options.linters = vec!["auto".to_string()];
    ctx.options.no_exec = true;
    LinterFinding.check_project(&ctx, &mut sink);
    // /r has no go.mod: go vet does not apply; ruff does, and --no-exec keeps it from running.
    assert_eq!(
        (sink.hits.len(), sink.not_run),
        (0, vec!["ruff".to_string()])
    );
}

#[test]
fn a_missing_analyzer_is_one_note() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("go.mod"), "module shop\n").expect("write");
    let mut ctx = Context::from_files(
        dir.path(),
        vec![
            SourceFile::new("main.go", "package main\n"),
            SourceFile::new("web/a.js", ""),
        ],
        crate::spec::Specs::default(),
    );
    ctx.options.linters = vec!["auto".to_string(), "eslint".to_string()];
    let mut sink = Sink::default();
    // The explicit eslint with no local install looks for a global `eslint`.
    std::fs::create_dir_all(dir.path().join("node_modules/.bin")).expect("mkdir");
    let has = |p: &str| {
        std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(p).is_file()))
    };
    LinterFinding.check_project(&ctx, &mut sink);
    let mut expected = Vec::new();
    if !has("eslint") {
        expected.push("eslint not run: eslint not installed".to_string());
    }
    if !has("go") {
        expected.push("go vet not run: go not installed".to_string());
    }
    // (Where a tool is installed it runs, and what it says is not this test's subject.)
    let missing: Vec<&String> = sink
        .notes
        .iter()
        .filter(|n| n.ends_with("not installed"))
        .collect();
    assert_eq!(missing, expected.iter().collect::<Vec<_>>());
    // `auto` alone, with an eslint config but no local eslint: one note, no global eslint.
    std::fs::write(dir.path().join("eslint.config.js"), "export default [];\n").expect("write");
    ctx.options.linters = vec!["auto".to_string()];
    let mut sink = Sink::default();
    LinterFinding.check_project(&ctx, &mut sink);
    assert_eq!(
        sink.notes.first().map(String::as_str),
        Some("eslint not run: node_modules/.bin/eslint not installed")
    );
}
