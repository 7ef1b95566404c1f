//! The fallback: a file's role from its path and text alone, for files no manifest, module
//! tree or framework layout placed. These are the naming conventions the rules used to apply
//! themselves; they now live here, behind the model.

use crate::engine::is_test_path;
use protocol::project::FileRole;

/// A role and the reason for it.
pub(crate) type Placed = (FileRole, String);

/// Folders whose files are tooling or programs rather than library code, with the role each
/// gives: examples, benchmarks, scripts, a `bin/` folder, documentation.
const TOOLING_DIRS: [(&str, FileRole); 15] = [
    ("examples", FileRole::Example),
    // Go's convention for examples the go tool leaves out of `./...`.
    ("_examples", FileRole::Example),
    ("_example", FileRole::Example),
    ("benches", FileRole::Bench),
    ("bench", FileRole::Bench),
    ("benchmark", FileRole::Bench),
    ("benchmarks", FileRole::Bench),
    ("scripts", FileRole::Program),
    ("bin", FileRole::Program),
    ("docs", FileRole::Docs),
    // Runnable documentation examples (redis-py's `doctests/`), a documentation site's
    // example sources (FastAPI's `docs_src/`).
    ("doctests", FileRole::Docs),
    ("docs_src", FileRole::Docs),
    ("docs-src", FileRole::Docs),
    ("doc_src", FileRole::Docs),
    ("documentation", FileRole::Docs),
];

/// The files of task runners a project's maintainers run (`nox`, `fabric`, `doit`, `invoke`'s
/// `tasks.py` is left out: the name is also an application's module of background tasks).
const TASK_FILES: [&str; 7] = [
    "noxfile.py",
    "fabfile.py",
    "dodo.py",
    "gulpfile.js",
    "Gruntfile.js",
    "Jakefile.js",
    "Justfile",
];

/// The role of a path by naming convention alone: tests (`tests/`, `*_test.go`, `test_*.py`,
/// `*.spec.ts`, …), vendored code, binaries (`src/main.rs`, `src/bin/**`, `__main__.py`),
/// build scripts (`build.rs`, `setup.py`), test support (`conftest.py`), tooling folders
/// (`examples/`, `benches/`, `scripts/`, `bin/`, `docs/`, hidden folders such as `.github/`),
/// and library code otherwise.
pub(crate) fn role_by_path(path: &str) -> Placed {
    let parts: Vec<&str> = path.split('/').collect();
    let (name, dirs) = parts.split_last().unwrap_or((&"", &[]));
    match protocol::project::generated_or_vendored(path) {
        Some("vendored") => return (FileRole::Vendored, "under a vendor folder".to_string()),
        Some(_) => {
            return (
                FileRole::Generated,
                "a generated file by its name".to_string(),
            )
        }
        None => {}
    }
    if *name == "conftest.py" {
        return (FileRole::TestSupport, "pytest conftest.py".to_string());
    }
    // An example project's own tests (`example/loadscope/test/test_alpha.py`) are part of the
    // example: sample tests that show the project at work, not the project's checks.
    if let Some(dir) = top_level_example(dirs) {
        if is_test_path(path) {
            return (
                FileRole::Example,
                format!("a test of the example project under the top-level {dir}/"),
            );
        }
    }
    if is_test_path(path) {
        return (FileRole::Test, "test naming convention".to_string());
    }
    // A script project's top-level `spec/` is its test suite (Jasmine's and Mocha's folder) and
    // a top-level `tasks/` its task runner's (gulp's, grunt's); in Python the same names may
    // well be packages of the application (Celery's `tasks`).
    if is_script(name) {
        match dirs.first() {
            Some(&"spec") => return (FileRole::Test, "under the top-level spec/".to_string()),
            Some(&"tasks") => {
                return (
                    FileRole::BuildScript,
                    "under the top-level tasks/".to_string(),
                )
            }
            _ => {}
        }
    }
    // The documentation site's own tooling (`docs/.vitepress/config.mts`) is documentation,
    // and so is a top-level `website/` (a Docusaurus or Hugo site of the project's docs).
    if let Some(dir) = dirs.first().filter(|d| matches!(**d, "docs" | "website")) {
        return (FileRole::Docs, format!("under {dir}/"));
    }
    if is_script(name) {
        // A tool's configuration script (`vite.config.ts`, `rolldown.config.ts`,
        // `eslint.config.js`): it configures the build, it is not the library.
        let parts: Vec<&str> = name.split('.').collect();
        if parts.len() >= 3 && parts[parts.len() - 2] == "config" && !parts[0].is_empty() {
            return (
                FileRole::BuildScript,
                format!("a build tool's configuration script ({name})"),
            );
        }
    }
    if let Some(dir) = dirs.iter().find(|d| d.starts_with('.')) {
        return (FileRole::Program, format!("tooling under {dir}/"));
    }
    // A top-level `build/` folder holds the project's build scripts (`src/build/` may well be
    // a library module of that name).
    if dirs.first() == Some(&"build") {
        return (
            FileRole::BuildScript,
            "under the top-level build/".to_string(),
        );
    }
    // A top-level `example/` or `demo/` folder holds example programs too (`src/example/` may
    // be a module of that name).
    if let Some(dir) = top_level_example(dirs).filter(|d| *d != "examples") {
        return (FileRole::Example, format!("under the top-level {dir}/"));
    }
    for dir in dirs {
        if let Some((_, role)) = TOOLING_DIRS.iter().find(|(d, _)| d == dir) {
            return (*role, format!("under {dir}/"));
        }
    }
    if TASK_FILES.contains(name) {
        return (
            FileRole::BuildScript,
            format!("a task runner's file ({name})"),
        );
    }
    // A benchmark script by name (`bench.js`, `benchmark.py`), wherever it sits.
    let stem = name.split('.').next().unwrap_or(name);
    if matches!(stem, "bench" | "benchmark" | "benchmarks") {
        return (FileRole::Bench, format!("a benchmark by name ({name})"));
    }
    // An example beside the manifest (`example.ts`, `demo.py` at the repository's root).
    if dirs.is_empty() && matches!(stem, "example" | "examples" | "demo") {
        return (FileRole::Example, format!("an example by name ({name})"));
    }
    let in_src = dirs.contains(&"src");
    if *name == "main.rs" && dirs.last() == Some(&"src") {
        return (FileRole::Program, "src/main.rs".to_string());
    }
    if *name == "__main__.py" {
        return (FileRole::Program, "__main__.py".to_string());
    }
    if *name == "setup.py" || (*name == "build.rs" && !in_src) {
        return (FileRole::BuildScript, name.to_string());
    }
    (
        FileRole::Library,
        "no manifest or convention says otherwise".to_string(),
    )
}

/// Whether a file name is a JavaScript or TypeScript script's.
fn is_script(name: &str) -> bool {
    matches!(
        crate::engine::Language::of(name),
        Some(crate::engine::Language::JavaScript | crate::engine::Language::TypeScript)
    )
}

/// The top-level folder of examples a path lies in (`example/`, `examples/`, `_examples/`,
/// `demo/`, `demos/`, a course's `exercises/`, left unfinished for the learner, and a
/// `playground/` of sample apps a tool's end-to-end tests build), if any.
pub(crate) fn top_level_example<'a>(dirs: &[&'a str]) -> Option<&'a str> {
    dirs.first().copied().filter(|d| {
        matches!(
            *d,
            "example" | "examples" | "_examples" | "demo" | "demos" | "exercises" | "playground"
        )
    })
}

/// The role a file's text gives it, for files the path calls library code: a Go file of
/// `package main` and a Python script (a shebang line or an `if __name__ == "__main__":`
/// guard) are programs, wherever they sit.
pub(crate) fn role_by_text(path: &str, text: &str) -> Option<Placed> {
    if path.ends_with(".go") && is_go_main(text) {
        return Some((FileRole::Program, "Go `package main`".to_string()));
    }
    // invoke's `tasks.py`: the maintainers' task runner, not a module of the package.
    if path.rsplit('/').next() == Some("tasks.py")
        && (text.contains("from invoke import") || text.contains("import invoke"))
    {
        return Some((
            FileRole::BuildScript,
            "a task runner's file (invoke's tasks.py)".to_string(),
        ));
    }
    if path.ends_with(".py") && is_python_script(text) {
        return Some((
            FileRole::Program,
            "Python script (`__main__` guard or shebang)".to_string(),
        ));
    }
    None
}

/// Whether Python source is a script: it starts with `#!` or has a `__main__` guard.
pub(crate) fn is_python_script(text: &str) -> bool {
    text.starts_with("#!")
        || text
            .lines()
            .any(|l| l.starts_with("if __name__") && l.contains("__main__"))
}

/// Whether Go source declares `package main`.
pub(crate) fn is_go_main(text: &str) -> bool {
    go_package(text) == Some("main")
}

/// The package a Go file's `package` clause names.
pub(crate) fn go_package(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with("package "))
        .and_then(|l| l.split_whitespace().nth(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(path: &str) -> FileRole {
        role_by_path(path).0
    }

    #[test]
    fn binaries_tooling_and_tests_are_not_library_code() {
        for (path, want) in [
            ("src/main.rs", FileRole::Program),
            ("cli/src/main.rs", FileRole::Program),
            ("src/bin/tool.rs", FileRole::Program),
            ("build.rs", FileRole::BuildScript),
            ("core/build.rs", FileRole::BuildScript),
            ("examples/demo.rs", FileRole::Example),
            ("example/bool.cjs", FileRole::Example),
            ("demo/app.py", FileRole::Example),
            ("benches/b.rs", FileRole::Bench),
            ("packages/pg/bench.js", FileRole::Bench),
            ("noxfile.py", FileRole::BuildScript),
            ("doctests/cmds_cnxmgmt.py", FileRole::Docs),
            ("docs_src/security/tutorial004.py", FileRole::Docs),
            ("example/loadscope/test/test_alpha.py", FileRole::Example),
            ("tools/benchmark.py", FileRole::Bench),
            ("tests/it.rs", FileRole::Test),
            ("pkg/__main__.py", FileRole::Program),
            ("scripts/release.py", FileRole::Program),
            (".github/actions/github-release/main.js", FileRole::Program),
            ("docs/conf.py", FileRole::Docs),
            ("docs/.vitepress/config.mts", FileRole::Docs),
            ("website/docusaurus.config.js", FileRole::Docs),
            ("exercises/18_iterators/iterators2.rs", FileRole::Example),
            ("example.ts", FileRole::Example),
            ("src/example.rs", FileRole::Library),
            ("build/build-error-serializer.js", FileRole::BuildScript),
            ("lib/build/index.js", FileRole::Library),
            ("packages/zod/src/v3/benchmarks/index.ts", FileRole::Bench),
            ("tests/conftest.py", FileRole::TestSupport),
            ("vendor/x/a.go", FileRole::Vendored),
            ("third_party/zlib/x.go", FileRole::Vendored),
            ("api/user.pb.go", FileRole::Generated),
            ("spec/env/browser.js", FileRole::Test),
            ("packages/vite/rolldown.config.ts", FileRole::BuildScript),
            ("playground/lib/src/main.ts", FileRole::Example),
            ("tasks/publish-to-aws.js", FileRole::BuildScript),
        ] {
            assert_eq!(role(path), want, "{path}");
        }
        for path in [
            "src/lib.rs",
            "src/engine/main.rs",
            "src/build.rs",
            "src/example/mod.rs",
            "tasks/send_mail.py",
            "lib/spec/index.js",
            "src/config.ts",
            "app/views.py",
            "doc/util.go",
        ] {
            assert_eq!(role(path), FileRole::Library, "{path}");
        }
        assert_eq!(
            role_by_text("cmd/api/serve.go", "// x\npackage main\n").map(|p| p.0),
            Some(FileRole::Program)
        );
        assert_eq!(role_by_text("pkg/api/serve.go", "package api\n"), None);
        assert!(role_by_text("tools/bench.py", "#!/usr/bin/env python3\n").is_some());
        assert_eq!(
            role_by_text("tasks.py", "from invoke import task\n").map(|p| p.0),
            Some(FileRole::BuildScript)
        );
        assert_eq!(
            role_by_text("app/tasks.py", "from celery import shared_task\n"),
            None,
            "an application's background tasks"
        );
        assert!(role_by_text(
            "app/cli.py",
            "def main(): pass\nif __name__ == \"__main__\":\n    main()\n"
        )
        .is_some());
    }
}
