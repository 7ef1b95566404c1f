//! `holistic/exit-in-library`: library code that ends the process — Rust `process::exit`,
//! Python `sys.exit`/`os._exit`, Go `os.Exit`/`log.Fatal*` outside `package main`, Node
//! `process.exit`. Destructors and deferred calls do not run, buffered output is lost, and the
//! program that called the library never gets to handle the failure.
//!
//! Binaries (`main.rs`, `src/bin/`, crates that build a binary, `__main__.py`, `package main`,
//! `bin/`, `scripts/`), Python `if __name__ == "__main__":` blocks and test code are exempt.

use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::find_word;
use crate::rules::library_code::{binary_crates, in_binary_crate, is_library_file};
use crate::rules::line_hits::LazyTestCode;
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "holistic/exit-in-library",
    category: Category::OperationalRisk,
    severity: Severity::Medium,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Quality, Dimension::BestPractices],
    explanation: "process::exit / sys.exit / os.Exit / log.Fatal in library code: the caller cannot recover or clean up",
};

/// Flags process exits in library code.
pub(crate) struct ExitInLibrary;

impl Rule for ExitInLibrary {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        let Some(lang) = file.language.filter(|l| META.languages.contains(l)) else {
            return false;
        };
        let needle = match lang {
            Language::Go => "os.Exit(",
            _ => "exit(",
        };
        let go_fatal = lang == Language::Go && file.text.contains("log.Fatal");
        (file.text.contains(needle) || go_fatal) && is_library_file(file)
    }

    /// Finds the exits of one file (in the parallel file pass, where its tree is at hand for
    /// the test-code exemption); whether the file is part of a binary crate needs the whole
    /// scope, so the hits are kept for `check_project`.
    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        if let Some(lang) = file.language {
            for hit in exits(file, lang) {
                out.keep(hit);
            }
        }
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let binaries = binary_crates(ctx);
        for hit in out.kept::<Hit>(ctx, self) {
            if !in_binary_crate(&hit.location.path, &binaries) {
                out.hit(hit);
            }
        }
    }
}

fn exits(file: &SourceFile, lang: Language) -> Vec<Hit> {
    let mut found = Vec::new();
    let mut tests = LazyTestCode::new(file);
    // Whether a bare `exit(` can be `std::process::exit`: once per file, not per line.
    let imported = lang == Language::Rust
        && (file.text.contains("use std::process::exit") || file.text.contains("process::{exit"));
    for line in file.lexed(lang).iter() {
        if lang == Language::Python && line.text.starts_with("if __name__") {
            break;
        }
        let code = line.code();
        let Some(call) = exit_call(&code, lang, imported) else {
            continue;
        };
        if tests.contains(line.number) {
            continue;
        }
        found.push(
            Hit::new(
                Location::at(&file.rel_path, line.number),
                format!("`{call}` in library code ends the whole process: the caller cannot handle the failure or clean up"),
                format!("{call} {}", line.text.trim()),
            )
            .suggest("return an error and let the program's entry point decide to exit"),
        );
    }
    found
}

fn exit_call(code: &str, lang: Language, imported: bool) -> Option<&'static str> {
    match lang {
        Language::Rust => (code.contains("process::exit(")
            || (imported
                && find_word(code, "exit").is_some_and(|at| code[at + 4..].starts_with('('))))
        .then_some("process::exit"),
        Language::Python => {
            if code.contains("sys.exit(") {
                Some("sys.exit")
            } else if code.contains("os._exit(") {
                Some("os._exit")
            } else {
                None
            }
        }
        Language::Go => {
            if code.contains("os.Exit(") {
                Some("os.Exit")
            } else if code.contains("log.Fatal") {
                Some("log.Fatal")
            } else {
                None
            }
        }
        _ => code.contains("process.exit(").then_some("process.exit"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::project_fixture::project_hits;

    fn run(files: &[(&str, &str)]) -> Vec<(String, u32, String)> {
        project_hits(&ExitInLibrary, files)
    }

    #[test]
    fn fires_on_exits_in_library_code() {
        let found = run(&[
            ("core/src/config.rs", "pub fn load() -> Config {\n    let Ok(c) = read() else {\n        std::process::exit(2);\n    };\n    c\n}\n"),
            ("pkg/store/db.go", "package store\n\nfunc Open() {\n\tlog.Fatalf(\"no db\")\n}\n"),
            ("app/util.py", "import sys\ndef need(x):\n    if not x:\n        sys.exit(1)\n"),
        ]);
        assert_eq!(
            found,
            vec![
                ("app/util.py".to_string(), 4, "`sys.exit` in library code ends the whole process: the caller cannot handle the failure or clean up".to_string()),
                ("core/src/config.rs".to_string(), 3, "`process::exit` in library code ends the whole process: the caller cannot handle the failure or clean up".to_string()),
                ("pkg/store/db.go".to_string(), 4, "`log.Fatal` in library code ends the whole process: the caller cannot handle the failure or clean up".to_string()),
            ]
        );
    }

    #[test]
    fn quiet_in_binaries_main_blocks_and_tests() {
        let found = run(&[
            (
                "cli/src/main.rs",
                "fn main() { std::process::exit(run()); }\n",
            ),
            (
                "cli/src/commands.rs",
                "pub fn run() { std::process::exit(2); }\n",
            ),
            (
                "cmd/tool/main.go",
                "package main\n\nfunc main() { os.Exit(1) }\n",
            ),
            (
                "app/tool.py",
                "def main():\n    return 1\n\nif __name__ == '__main__':\n    sys.exit(main())\n",
            ),
            (
                "core/src/lib.rs",
                "pub fn f() {}\n#[test]\nfn t() { std::process::exit(0); }\n",
            ),
        ]);
        assert!(found.is_empty());
    }
}
