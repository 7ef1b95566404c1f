//! Recognising calls on a line of code (literals blanked, comments removed, as
//! [`super::LexLine::code`] gives it): macro calls, free calls, method calls on a receiver, and
//! the logging and printing calls several rules look for.

use super::is_ident;
use crate::engine::Language;

/// `name!(` / `name![` / `name!{` with a word boundary before `name` (paths like `log::` allowed).
pub(crate) fn macro_call(code: &str, name: &str) -> bool {
    macro_call_at(code, name).is_some()
}

/// Where `name!` of a macro call starts on the line.
pub(crate) fn macro_call_at(code: &str, name: &str) -> Option<usize> {
    code.match_indices(name).map(|(at, _)| at).find(|&at| {
        let before_ok = at == 0 || !is_ident(code.as_bytes()[at - 1]);
        before_ok && code[at + name.len()..].starts_with('!')
    })
}

/// `name(` as a free call: not a method (`.name(`) or part of a longer identifier.
pub(crate) fn word_call(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(at, _)| {
        let b = code.as_bytes();
        let before_ok = at == 0 || !(is_ident(b[at - 1]) || b[at - 1] == b'.');
        before_ok && code[at + name.len()..].trim_start().starts_with('(')
    })
}

/// `<receiver>.name(` where the identifier before the dot satisfies `receiver`.
pub(crate) fn method_call(code: &str, name: &str, receiver: impl Fn(&str) -> bool) -> bool {
    method_call_at(code, name, receiver).is_some()
}

/// Where the receiver of `<receiver>.name(` starts on the line, when `receiver` accepts it.
pub(crate) fn method_call_at(
    code: &str,
    name: &str,
    receiver: impl Fn(&str) -> bool,
) -> Option<usize> {
    let pattern = format!(".{name}(");
    code.match_indices(&pattern).find_map(|(at, _)| {
        let head = &code[..at];
        let start = head
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            .map_or(0, |(p, c)| p + c.len_utf8());
        receiver(&head[start..]).then_some(start)
    })
}

/// Logging methods of Python, TypeScript/JavaScript and Go loggers.
const LOG_METHODS: [&str; 9] = [
    "debug",
    "info",
    "warning",
    "warn",
    "error",
    "exception",
    "critical",
    "log",
    "trace",
];

/// Whether a receiver name is a logger (`logger`, `log`, `self.logger` ends in `logger`, Python's
/// `logging` module).
fn is_logger(receiver: &str, lang: Language) -> bool {
    let r = receiver.to_ascii_lowercase();
    r.ends_with("logger")
        || r == "log"
        || r == "_log"
        || (lang == Language::Python && r == "logging")
}

/// Whether a line's text can hold a call [`logs_on`] or [`print_on`] accepts: each is a macro
/// (`name!`) in Rust and has a `(` in other languages, and the line's code is its text with
/// literals blanked and comments removed. Lines without one are not worth building the code of.
pub(crate) fn may_call_on(text: &str, lang: Language) -> bool {
    text.contains(if lang == Language::Rust { '!' } else { '(' })
}

/// Whether a line of code calls a logging framework.
pub(crate) fn logs_on(code: &str, lang: Language) -> bool {
    match lang {
        Language::Rust => ["info", "warn", "error", "debug", "trace"]
            .iter()
            .any(|m| macro_call(code, m)),
        _ => LOG_METHODS
            .iter()
            .any(|m| method_call(code, m, |receiver| is_logger(receiver, lang))),
    }
}

/// Whether `text` can hold a line [`logs_on`] accepts: such a call's `name!` or `.name(` is
/// in the line's code, and a line's code is its text with literals blanked to `""` and
/// comments to spaces, so it is in the text too. A file without one is not lexed to learn that.
pub(crate) fn may_log(text: &str, lang: Language) -> bool {
    match lang {
        Language::Rust => ["info!", "warn!", "error!", "debug!", "trace!"]
            .iter()
            .any(|m| text.contains(m)),
        _ => LOG_METHODS.iter().any(|m| text.contains(&format!(".{m}("))),
    }
}

/// The print call on a line of code, if any.
pub(crate) fn print_on(code: &str, lang: Language) -> Option<&'static str> {
    match lang {
        Language::Rust => ["println!", "eprintln!", "print!", "eprint!"]
            .into_iter()
            .find(|m| macro_call(code, m.trim_end_matches('!'))),
        // `print(x, file=stream)` writes to a stream the caller chose: output, not logging.
        Language::Python => (word_call(code, "print")
            && (!code.contains("file=") || code.contains("file=sys.")))
        .then_some("print()"),
        _ => ["log", "info", "warn", "error", "debug"]
            .iter()
            .any(|m| method_call(code, m, |r| r == "console"))
            .then_some("console.log()"),
    }
}

/// Whether a line of code reads an environment variable at run time (`std::env::var`,
/// `os.environ`/`os.getenv`, `process.env`, `os.Getenv`/`os.LookupEnv`). Rust's compile-time
/// `env!` is not a run-time read.
pub(crate) fn env_read_on(code: &str, lang: Language) -> bool {
    match lang {
        Language::Rust => ["env::var(", "env::var_os(", "env::vars("]
            .iter()
            .any(|n| code.contains(n)),
        Language::Python => code.contains("os.environ") || code.contains("os.getenv("),
        Language::TypeScript | Language::JavaScript => code.contains("process.env"),
        Language::Go => code.contains("os.Getenv(") || code.contains("os.LookupEnv("),
        Language::Config => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_by_kind() {
        assert!(macro_call("log::info!(\"x\")", "info"));
        assert!(!macro_call("loginfo!(x)", "info"));
        assert!(word_call("print (x)", "print") && !word_call("self.print(x)", "print"));
        assert_eq!(
            method_call_at("a = self.logger.info(x)", "info", |r| r == "logger"),
            Some(9)
        );
        assert!(logs_on("logging.warning(\"\")", Language::Python));
        assert!(!logs_on("catalog.info(x)", Language::Python));
        assert_eq!(
            print_on("console.error(e)", Language::TypeScript),
            Some("console.log()")
        );
        assert_eq!(print_on("print(x, file=out)", Language::Python), None);
        assert!(env_read_on("let p = std::env::var(\"\")?;", Language::Rust));
        assert!(!env_read_on("let v = env!(\"\");", Language::Rust));
        assert!(env_read_on("url = os.environ[\"\"]", Language::Python));
    }

    #[test]
    fn may_call_on_holds_for_every_line_with_a_log_or_print_call() {
        for (line, lang) in [
            ("log::warn!(\"x\");", Language::Rust),
            ("eprintln!(\"{e}\");", Language::Rust),
            ("logger.info(\"x\")", Language::Python),
            ("print (x)", Language::Python),
            ("console.log(x);", Language::TypeScript),
        ] {
            assert!(
                logs_on(line, lang) || print_on(line, lang).is_some(),
                "{line}"
            );
            assert!(may_call_on(line, lang), "{line}");
        }
        assert!(!may_call_on("logger := log.Default", Language::Go));
        assert!(!may_call_on("info(x) // is not a macro", Language::Rust));
    }

    #[test]
    fn may_log_holds_for_every_file_with_a_logging_line() {
        let rust = "fn f() {\n    log::warn!(\"x\");\n}\n";
        assert!(may_log(rust, Language::Rust));
        assert!(rust.lines().any(|l| logs_on(l, Language::Rust)));
        assert!(!may_log(
            "fn f() { warn(x); }\n// info! in a comment is text\n",
            Language::Go
        ));
        assert!(!may_log("fn warn() {}\n", Language::Rust));
        assert!(may_log("logger.exception(e)\n", Language::Python));
        assert!(!may_log("logger = get_logger()\n", Language::Python));
    }
}
