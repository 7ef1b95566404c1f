//! `consistency/config-access`: the project reads its configuration through a configuration
//! module (`config.rs`, `settings.py`, `config/`, ...), yet other modules read environment
//! variables directly. Those settings bypass the module's defaults, validation and
//! documentation, and a deployment cannot learn every variable it must set from one place.
//!
//! Modules as in `module.rs`; a module that contains a configuration file counts as reading
//! through it. Platform variables (`HOME`, `PATH`, `RUST_LOG`, ...), binaries and test code are
//! not counted (see `env_access.rs`). Without a configuration module, scattered reads are the
//! holistic Inspector's `env-read-everywhere`. One finding per module, at its first read.

use super::env_access::{config_modules, configs_for, env_reads};
use super::module::{library_modules, list, NOTHING_TO_COMPARE};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "consistency/config-access",
    category: Category::PatternInconsistency,
    severity: Severity::Medium,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Architecture, Dimension::Maintainability],
    explanation: "Modules reading environment variables directly while the project has a configuration module",
};

/// Flags direct environment reads beside a configuration module.
pub(crate) struct ConfigAccess;

impl Rule for ConfigAccess {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, _file: &SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        if library_modules(ctx).is_none() {
            out.note(NOTHING_TO_COMPARE);
            return;
        }
        let configs = config_modules(ctx);
        if configs.is_empty() {
            return;
        }
        let config_names: Vec<&str> = configs.iter().map(|(m, _)| m.as_str()).collect();
        for (module, (path, line, count)) in env_reads(ctx) {
            let usable = configs_for(&configs, &path);
            if config_names.contains(&module.as_str()) || usable.is_empty() {
                continue;
            }
            let files: Vec<&str> = usable.iter().map(|(_, f)| f.as_str()).collect();
            out.hit(
                Hit::new(
                    Location::at(&path, line),
                    format!(
                        "module `{module}` reads environment variables directly ({count} read{}) instead of through {}",
                        if count == 1 { "" } else { "s" },
                        list(&files)
                    ),
                    format!("direct env read in {module}"),
                )
                .suggest("add the setting to the configuration module and pass the value in"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::project_fixture::project_sink;

    fn run(files: &[(&str, &str)]) -> Sink {
        project_sink(&ConfigAccess, files)
    }

    #[test]
    fn fires_on_direct_reads_beside_a_config_module() {
        let sink = run(&[
            ("core/src/config.rs", "pub struct Config { pub db: String }\npub fn load() -> Config {\n    Config { db: std::env::var(\"DB_URL\").unwrap_or_default() }\n}\n"),
            ("mail/src/lib.rs", "pub fn host() -> String {\n    std::env::var(\"SMTP_HOST\").unwrap_or_default()\n}\n"),
            ("api/src/lib.rs", "pub fn serve(cfg: &Config) {}\n"),
        ]);
        let found: Vec<(String, Option<u32>, String)> = sink
            .hits
            .into_iter()
            .map(|h| (h.location.path, h.location.line, h.description))
            .collect();
        assert_eq!(
            found,
            vec![(
                "mail/src/lib.rs".to_string(),
                Some(2),
                "module `mail` reads environment variables directly (1 read) instead of through `core/src/config.rs`".to_string()
            )]
        );
    }

    #[test]
    fn quiet_without_a_config_module_for_platform_variables_and_one_module() {
        let no_config = run(&[
            (
                "mail/src/lib.rs",
                "pub fn h() { std::env::var(\"SMTP\"); }\n",
            ),
            ("api/src/lib.rs", "pub fn h() { std::env::var(\"API\"); }\n"),
        ]);
        assert!(no_config.hits.is_empty());
        let platform = run(&[
            ("core/src/config.rs", "pub struct Config;\n"),
            (
                "cache/src/lib.rs",
                "pub fn dir() { std::env::var(\"HOME\"); }\n",
            ),
            (
                "cli/src/main.rs",
                "fn main() { std::env::var(\"PORT\"); }\n",
            ),
        ]);
        assert!(platform.hits.is_empty());
        let one = run(&[("src/lib.rs", "pub fn h() { std::env::var(\"X\"); }\n")]);
        assert_eq!(one.notes, vec![NOTHING_TO_COMPARE.to_string()]);
    }

    #[test]
    fn a_config_module_only_serves_its_own_language_family() {
        let sink = run(&[
            ("core/src/config.rs", "pub struct Config;\n"),
            ("web/app.js", "const url = process.env.API_URL;\n"),
            ("web/ui.ts", "export const key = process.env.UI_KEY;\n"),
            ("web/config.ts", "export const config = {};\n"),
            ("tools/release.js", "const token = process.env.TOKEN;\n"),
            (
                "mail/src/lib.rs",
                "pub fn h() { std::env::var(\"SMTP\"); }\n",
            ),
        ]);
        let found: Vec<String> = sink.hits.into_iter().map(|h| h.description).collect();
        assert_eq!(
            found,
            vec![
                "module `mail` reads environment variables directly (1 read) instead of through `core/src/config.rs`".to_string(),
                "module `tools` reads environment variables directly (1 read) instead of through `web/config.ts`".to_string(),
            ]
        );
    }
}
