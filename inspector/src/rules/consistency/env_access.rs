//! Where library code reads the environment, per module, and whether the project has a
//! configuration module to read it in. Shared by `consistency/config-access` and
//! `holistic/env-read-everywhere`, which split the cases between them.
//!
//! Only reads of a variable named by a literal count: `env::var(name)` with a name that comes
//! from configuration (an `api_key_env` setting) is configuration at work. Variables that
//! describe the platform rather than configure the program (`HOME`, `PATH`, `TMPDIR`,
//! `RUST_LOG`, `NO_COLOR`, ...) are not counted either.

use super::module::{is_config_path, library_modules};
use crate::engine::{Context, Language};
use crate::lexical::calls::env_read_on;
use crate::rules::library_code::is_library_file;
use crate::rules::line_hits::LazyTestCode;
use std::collections::BTreeMap;

/// Platform variables, read anywhere without being configuration.
const PLATFORM: [&str; 16] = [
    "HOME",
    "PATH",
    "USER",
    "TMPDIR",
    "TEMP",
    "TMP",
    "PWD",
    "SHELL",
    "TERM",
    "NO_COLOR",
    "CI",
    "RUST_LOG",
    "RUST_BACKTRACE",
    "LANG",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
];

/// Per module of library code (modules as the consistency Inspector compares them): (path,
/// line of the first read, number of reads).
pub(crate) fn env_reads(ctx: &Context) -> BTreeMap<String, (String, u32, usize)> {
    let mut reads: BTreeMap<String, (String, u32, usize)> = BTreeMap::new();
    for (file, module) in library_modules(ctx).unwrap_or_default() {
        let Some(lang) = file.language else {
            continue;
        };
        let needle = match lang {
            Language::Rust => "env::var",
            Language::Python | Language::Go => "os.",
            _ => "process.env",
        };
        if !file.text.contains(needle) || !is_library_file(file) {
            continue;
        }
        let mut tests = LazyTestCode::new(file);
        for line in file.lexed(lang).iter() {
            if !env_read_on(&line.code(), lang)
                || !names_literal(line.text)
                || reads_platform(line.text)
            {
                continue;
            }
            if tests.contains(line.number) {
                continue;
            }
            let entry = reads
                .entry(module.clone())
                .or_insert_with(|| (file.rel_path.clone(), line.number, 0));
            entry.2 += 1;
        }
    }
    reads
}

/// Whether the variable a line reads is named by a literal (`env::var("X")`, `os.getenv('X')`,
/// `os.environ["X"]`, `process.env.X`, `os.Getenv("X")`).
fn names_literal(raw: &str) -> bool {
    let openers = [
        "env::var(",
        "env::var_os(",
        "os.getenv(",
        "os.environ[",
        "os.environ.get(",
        "process.env[",
        "os.Getenv(",
        "os.LookupEnv(",
    ];
    let quoted = openers.iter().any(|o| {
        raw.match_indices(o).any(|(at, _)| {
            raw[at + o.len()..]
                .trim_start()
                .starts_with(['"', '\'', '`'])
        })
    });
    let member = raw.match_indices("process.env.").any(|(at, _)| {
        raw[at + "process.env.".len()..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
    });
    quoted || member
}

/// Whether a line reads a platform variable (by its quoted or dotted name).
fn reads_platform(raw: &str) -> bool {
    PLATFORM.iter().any(|v| {
        raw.contains(&format!("\"{v}\""))
            || raw.contains(&format!("'{v}'"))
            || raw.contains(&format!("process.env.{v}"))
    })
}

/// The modules holding a configuration module (see [`is_config_path`]) of library code.
pub(crate) fn config_modules(ctx: &Context) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = library_modules(ctx)
        .unwrap_or_default()
        .into_iter()
        .filter(|(f, _)| is_library_file(f) && is_config_path(&f.rel_path))
        .map(|(f, m)| (m, f.rel_path.clone()))
        .collect();
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The configuration modules (module, file) that code at `path` could read through: those in
/// its language family (a JavaScript action cannot use a Rust `config.rs`).
pub(crate) fn configs_for<'a>(
    configs: &'a [(String, String)],
    path: &str,
) -> Vec<&'a (String, String)> {
    let Some(lang) = Language::of(path) else {
        return Vec::new();
    };
    configs
        .iter()
        .filter(|(_, file)| Language::of(file).is_some_and(|l| l.same_family(lang)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SourceFile;
    use std::path::Path;

    #[test]
    fn reads_per_module_without_platform_variables() {
        let ctx = Context::from_files(
            Path::new("/r"),
            vec![
                SourceFile::new("api/config.py", "import os\nURL = os.environ['DB_URL']\n"),
                SourceFile::new("mail/send.py", "import os\nH = os.getenv('HOME')\nS = os.getenv('SMTP')\nT = os.getenv('SMTP_T')\nK = os.getenv(cfg.key_var)\n"),
            ],
            crate::spec::Specs::default(),
        );
        let reads = env_reads(&ctx);
        assert_eq!(reads.get("mail"), Some(&("mail/send.py".to_string(), 3, 2)));
        assert_eq!(
            config_modules(&ctx),
            vec![("api".to_string(), "api/config.py".to_string())]
        );
    }
}
