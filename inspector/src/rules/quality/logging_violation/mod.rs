//! `quality/logging-violation`: two ways logging goes wrong.
//!
//! - A secret reaches a log or print call (High): a credential-named value (`password`,
//!   `api_key`, `user.token`, see [`is_secret_name`]) among a logging or printing call's
//!   arguments, as a format placeholder (`{password}`, Python `f"{token}"`, JS `${secret}`), or as
//!   a structured field. Lengths and presence checks (`token.len()`, `len(password)`,
//!   `secret.length`, `has_token`) reveal nothing and stay quiet. Test code is exempt.
//! - Printing in library code of a project that logs (Low): `println!`/`print()`/`console.log`
//!   in a library file when the project's library code of that language logs through a framework
//!   somewhere. Binaries, crates that build a binary, tests and Python `__main__` blocks print
//!   legitimately. One finding per file, at its first print.

mod secrets;

use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::calls::{logs_on, may_call_on, may_log, print_on};
use crate::lexical::names::{is_credential_name, split_words};
use crate::rules::library_code::{binary_crates, in_binary_crate, is_library_file};
use crate::rules::line_hits::LazyTestCode;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "quality/logging-violation",
    category: Category::LoggingViolation,
    severity: Severity::High,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Security, Dimension::BestPractices],
    explanation:
        "Secrets passed to log/print calls; print statements in library code of a project that logs",
};

/// Flags secrets in log calls and prints in the library code of a logging project.
pub(crate) struct LoggingViolation;

/// First words that make a credential-named value a flag or a count, not the secret.
const NOT_SECRET_PREFIXES: [&str; 14] = [
    "has", "is", "no", "missing", "invalid", "num", "count", "len", "with", "needs", "requires",
    "use", "should", "max",
];

/// Whether a value with this name holds a secret (a credential name that is not `has_token`).
pub(super) fn is_secret_name(name: &str) -> bool {
    let words = split_words(name);
    is_credential_name(name)
        && words
            .first()
            .is_none_or(|w| words.len() == 1 || !NOT_SECRET_PREFIXES.contains(&w.as_str()))
}

impl Rule for LoggingViolation {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        may_log_secrets(file) || print_language(file).is_some()
    }

    /// Secrets in log calls, and — kept for `check_project`, which needs the whole scope —
    /// whether a library file logs and where it first prints.
    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        if may_log_secrets(file) {
            secrets_in(file, out);
        }
        if let Some(lang) = print_language(file) {
            out.keep(Printing {
                path: file.rel_path.clone(),
                lang,
                logs: logs_outside_tests(file, lang),
                first_print: first_print(file, lang),
            });
        }
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let binaries = binary_crates(ctx);
        let library: Vec<Printing> = out.kept(ctx, self);
        for lang in [
            Language::Rust,
            Language::Python,
            Language::TypeScript,
            Language::JavaScript,
        ] {
            let of_lang = || {
                library
                    .iter()
                    .filter(move |f| same_family(Some(f.lang), lang))
            };
            if !of_lang().any(|f| f.logs) {
                continue;
            }
            for file in of_lang().filter(|f| f.lang == lang) {
                if in_binary_crate(&file.path, &binaries) {
                    continue;
                }
                if let Some((line, call, count)) = &file.first_print {
                    out.hit(
                        Hit::new(
                            Location::at(&file.path, *line),
                            format!(
                                "`{call}` in library code ({count} print{}) while the project logs through a logging framework",
                                if *count == 1 { "" } else { "s" }
                            ),
                            format!("prints in {}", file.path),
                        )
                        .with_severity(Severity::Low)
                        .suggest("log it at a level (debug!/info!, logger.debug) or return it to the caller"),
                    );
                }
            }
        }
    }
}

/// What `check_project` needs of one library file.
#[derive(serde::Serialize, serde::Deserialize)]
struct Printing {
    path: String,
    lang: Language,
    /// Whether it calls a logging framework outside its test code.
    logs: bool,
    /// Its first print outside test code: (line, call, count of prints).
    first_print: Option<(u32, String, usize)>,
}

/// The pre-filter of the secrets check: a non-test file naming a credential somewhere.
fn may_log_secrets(file: &SourceFile) -> bool {
    if !file.language.is_some_and(|l| META.languages.contains(&l)) || file.is_test_file() {
        return false;
    }
    let lower = file.text.to_ascii_lowercase();
    ["passw", "secret", "token", "key", "credential"]
        .iter()
        .any(|n| lower.contains(n))
}

/// The language of a library file the print check compares, if it is one.
fn print_language(file: &SourceFile) -> Option<Language> {
    let lang = file.language.filter(|l| {
        matches!(
            l,
            Language::Rust | Language::Python | Language::TypeScript | Language::JavaScript
        )
    })?;
    is_library_file(file).then_some(lang)
}

/// Secrets passed to log and print calls of one file, outside its test code.
fn secrets_in(file: &SourceFile, out: &mut Sink) {
    let found = match file.language {
        Some(Language::Rust) => match file.rust_ast() {
            Some(Ok(ast)) => secrets::in_rust(ast, &file.text),
            _ => return,
        },
        Some(lang) => secrets::in_text(&file.text, lang),
        None => return,
    };
    if found.is_empty() {
        return;
    }
    let tests = TestCode::of(file);
    for (line, call, name) in found {
        if tests.contains(line) {
            continue;
        }
        out.hit(
            Hit::new(
                Location::at(&file.rel_path, line),
                format!("`{name}` is passed to `{call}`: the secret ends up in the logs"),
                format!("{call} {name}"),
            )
            .suggest("log that it is set (or a fingerprint), never the value; redact it in Debug/Display"),
        );
    }
}

/// TypeScript and JavaScript count as one language for "the project logs".
fn same_family(language: Option<Language>, lang: Language) -> bool {
    language.is_some_and(|l| l.same_family(lang))
}

/// Whether a file calls a logging framework outside its test code.
fn logs_outside_tests(file: &SourceFile, lang: Language) -> bool {
    if !may_log(&file.text, lang) {
        return false;
    }
    let mut tests = LazyTestCode::new(file);
    file.lexed(lang)
        .iter()
        .any(|l| may_call_on(l.text, lang) && logs_on(&l.code(), lang) && !tests.contains(l.number))
}

/// The first print of a library file outside test code and `__main__` blocks, with the count.
fn first_print(file: &SourceFile, lang: Language) -> Option<(u32, String, usize)> {
    let needle = match lang {
        Language::Rust => "print",
        Language::Python => "print",
        _ => "console.",
    };
    if !file.text.contains(needle) {
        return None;
    }
    let tests = TestCode::of(file);
    let mut first = None;
    let mut count = 0;
    for line in file.lexed(lang).iter() {
        if lang == Language::Python && line.text.starts_with("if __name__") {
            break;
        }
        if !may_call_on(line.text, lang) {
            continue;
        }
        if let Some(call) = print_on(&line.code(), lang) {
            if tests.contains(line.number) {
                continue;
            }
            count += 1;
            first.get_or_insert((line.number, call));
        }
    }
    first.map(|(line, call)| (line, call.to_string(), count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use std::path::Path;

    fn project(files: &[(&str, &str)]) -> Vec<(String, u32, String, Option<Severity>)> {
        let ctx = Context::from_files(
            Path::new("/r"),
            files.iter().map(|(p, t)| SourceFile::new(*p, *t)).collect(),
            crate::spec::Specs::default(),
        );
        let mut sink = Sink::default();
        LoggingViolation.check_project(&ctx, &mut sink);
        sink.hits
            .into_iter()
            .map(|h| {
                (
                    h.location.path,
                    h.location.line.unwrap_or(0),
                    h.description,
                    h.severity,
                )
            })
            .collect()
    }

    #[test]
    fn fires_on_secrets_in_log_and_print_calls() {
        let rust = "fn login(user: &User, password: &str) {\n    tracing::info!(\"login {} with {}\", user.name, password);\n    debug!(\"cfg {api_key:?}\");\n    println!(\"{}\", user.auth_token);\n}\n";
        assert_eq!(
            hits(&LoggingViolation, "src/auth.rs", rust),
            vec![
                (
                    2,
                    "`password` is passed to `info!`: the secret ends up in the logs".to_string()
                ),
                (
                    3,
                    "`api_key` is passed to `debug!`: the secret ends up in the logs".to_string()
                ),
                (
                    4,
                    "`auth_token` is passed to `println!`: the secret ends up in the logs"
                        .to_string()
                ),
            ]
        );
        let py = "def login(user, password):\n    logger.info(\"login %s %s\", user,\n                password)\n    print(f\"token={token}\")\n";
        let lines: Vec<u32> = hits(&LoggingViolation, "app/auth.py", py)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(lines, vec![2, 4]);
        let js = "console.log(`key ${apiKey}`);\nlogger.debug('secret', clientSecret);\n";
        assert_eq!(hits(&LoggingViolation, "web/auth.js", js).len(), 2);
        let go = "package auth\n\nfunc f() {\n\tlog.Printf(\"pw %s\", cfg.Password)\n}\n";
        assert_eq!(
            hits(&LoggingViolation, "auth/a.go", go),
            vec![(
                4,
                "`Password` is passed to `log.Printf`: the secret ends up in the logs".to_string()
            )]
        );
    }

    #[test]
    fn quiet_on_lengths_flags_labels_tokens_of_parsers_and_tests() {
        let rust = "fn f(password: &str, has_token: bool) {\n    info!(\"password set ({} chars), token: {}\", password.len(), has_token);\n    info!(token_len = token.len(), \"invalid password\");\n}\n#[test]\nfn t() { println!(\"{password}\"); }\n";
        assert!(hits(&LoggingViolation, "src/auth.rs", rust).is_empty());
        let parser = "fn next(t: Token) {\n    debug!(\"unexpected {}\", token);\n}\nenum Token { A }\nimpl X { fn y() { let t = Token::A; } }\n";
        assert!(hits(&LoggingViolation, "src/parse.rs", parser).is_empty());
        let py = "logger.info('password reset for %s', user)\nprint(len(password))\nlogger.info('token_type=%s', token_type)\n";
        assert!(hits(&LoggingViolation, "app/auth.py", py).is_empty());
        let js = "console.log(secret.length);\n";
        assert!(hits(&LoggingViolation, "web/a.js", js).is_empty());
    }

    #[test]
    fn fires_on_prints_in_the_library_of_a_logging_project_only() {
        let found = project(&[
            (
                "core/src/lib.rs",
                "pub fn a() { tracing::info!(\"up\"); }\n",
            ),
            (
                "core/src/cache.rs",
                "pub fn c() {\n    println!(\"miss\");\n    eprintln!(\"x\");\n}\n",
            ),
            ("cli/src/main.rs", "fn main() { println!(\"usage\"); }\n"),
            (
                "cli/src/args.rs",
                "pub fn usage() { println!(\"usage\"); }\n",
            ),
            ("app/run.py", "def f():\n    print('x')\n"),
        ]);
        assert_eq!(
            found,
            vec![(
                "core/src/cache.rs".to_string(),
                2,
                "`println!` in library code (2 prints) while the project logs through a logging framework".to_string(),
                Some(Severity::Low)
            )]
        );
        let quiet = project(&[
            ("src/lib.rs", "pub fn a() { println!(\"x\"); }\n#[cfg(test)]\nmod t { fn x() { tracing::info!(\"x\"); } }\n"),
            ("app/run.py", "import logging\nlogging.info('x')\nif __name__ == '__main__':\n    print('done')\n"),
        ]);
        assert!(quiet.is_empty());
    }
}
