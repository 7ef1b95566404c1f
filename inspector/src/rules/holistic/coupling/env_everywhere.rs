//! `holistic/env-read-everywhere`: environment variables read directly in three or more
//! modules of library code, with no configuration module to read them in one place. Every
//! such read is a hidden input: the set of variables a deployment must provide is scattered,
//! undocumented, and untestable without mutating the process environment.
//!
//! Binaries (`main.rs`, `package main`) are the right place to read the environment and are not
//! counted, nor is test code. When the project has a configuration module (`config.rs`,
//! `settings.py`, ..., see `is_config_path`), reads elsewhere are the consistency Inspector's
//! `config-access` finding instead. One finding per module, at its first read.

use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::consistency::env_access::{config_modules, configs_for, env_reads};
use crate::rules::consistency::module::list;
use protocol::{Category, Dimension, Location, Severity};

/// The fewest modules reading the environment that make it "all over".
const MIN_MODULES: usize = 3;

static META: RuleMeta = RuleMeta {
    id: "holistic/env-read-everywhere",
    category: Category::ImplicitCoupling,
    severity: Severity::Medium,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Architecture, Dimension::Maintainability],
    explanation:
        "Environment variables read directly in 3+ library modules with no configuration module",
};

/// Flags scattered environment reads.
pub(crate) struct EnvReadEverywhere;

impl Rule for EnvReadEverywhere {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, _file: &SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let configs = config_modules(ctx);
        let mut reads = env_reads(ctx);
        // Modules with a configuration module of their language to read through are
        // `consistency/config-access`'s case.
        reads.retain(|_, (path, _, _)| configs_for(&configs, path).is_empty());
        if reads.len() < MIN_MODULES {
            return;
        }
        let modules: Vec<&str> = reads.keys().map(String::as_str).collect();
        for (module, (path, line, count)) in &reads {
            out.hit(
                Hit::new(
                    Location::at(path, *line),
                    format!(
                        "module `{module}` reads environment variables directly ({count} read{}); so do {} other modules ({})",
                        if *count == 1 { "" } else { "s" },
                        modules.len() - 1,
                        list(&modules.iter().copied().filter(|m| m != module).collect::<Vec<_>>())
                    ),
                    format!("env read in {module}"),
                )
                .suggest("read the environment once into a configuration struct and pass it down"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::project_fixture::project_hits;

    fn run(files: &[(&str, &str)]) -> Vec<(String, u32, String)> {
        project_hits(&EnvReadEverywhere, files)
    }

    #[test]
    fn fires_when_three_modules_read_the_environment() {
        let found = run(&[
            ("db/conn.py", "import os\nURL = os.environ[\"DB_URL\"]\n"),
            (
                "mail/send.py",
                "import os\n\ndef host():\n    return os.getenv(\"SMTP_HOST\")\n",
            ),
            (
                "billing/charge.py",
                "import os\nKEY = os.getenv('STRIPE')\nX = os.getenv('Y')\n",
            ),
        ]);
        let places: Vec<(&str, u32)> = found.iter().map(|(p, l, _)| (p.as_str(), *l)).collect();
        assert_eq!(
            places,
            vec![
                ("billing/charge.py", 2),
                ("db/conn.py", 2),
                ("mail/send.py", 4)
            ]
        );
        assert_eq!(
            found[1].2,
            "module `db` reads environment variables directly (1 read); so do 2 other modules (`billing` and `mail`)"
        );
    }

    #[test]
    fn quiet_with_a_config_module_binaries_tests_or_few_modules() {
        let with_config = run(&[
            ("app/config.py", "import os\nURL = os.environ['DB_URL']\n"),
            ("app/db.py", "import os\nURL = os.environ['DB_URL']\n"),
            ("app/mail.py", "import os\nH = os.getenv('H')\n"),
            ("billing/charge.py", "import os\nK = os.getenv('K')\n"),
        ]);
        assert!(with_config.is_empty());
        // A Rust configuration module serves no Python module: theirs is still this rule's case.
        let other_language = run(&[
            ("core/src/config.rs", "pub struct Config;\n"),
            ("db/conn.py", "import os\nURL = os.environ[\"DB_URL\"]\n"),
            ("mail/send.py", "import os\nH = os.getenv(\"SMTP_HOST\")\n"),
            ("billing/charge.py", "import os\nK = os.getenv('STRIPE')\n"),
        ]);
        assert_eq!(other_language.len(), 3, "{other_language:?}");
        let binaries = run(&[
            (
                "src/main.rs",
                "fn main() { let p = std::env::var(\"PORT\"); }\n",
            ),
            (
                "cmd/api/main.go",
                "package main\n\nfunc main() { os.Getenv(\"X\") }\n",
            ),
            (
                "src/a.rs",
                "#[cfg(test)]\nmod t { fn f() { std::env::var(\"X\"); } }\n",
            ),
            ("src/b.rs", "pub fn f() { let v = std::env::var(\"B\"); }\n"),
            ("src/c.rs", "pub fn f() { let v = std::env::var(\"C\"); }\n"),
        ]);
        assert!(binaries.is_empty());
    }
}
