//! `consistency/logging-pattern`: some modules log through a logging framework while others
//! print. Printed diagnostics bypass levels, filters and structured output, so one printing
//! module makes the whole project's logs incomplete.
//!
//! Logging is `tracing`/`log` macros (`info!`, `warn!`, `error!`, `debug!`, `trace!`) in Rust,
//! `logging.`/`logger.`/`log.` calls in Python and `logger.`/`log.` calls in TypeScript and
//! JavaScript; printing is `println!`/`eprintln!`/`print!`/`eprint!`, Python `print(` and
//! `console.*(`. Only library code counts (see `module.rs`); Rust test code, Python code under
//! `if __name__ == "__main__":` and crates that build a binary (a `src/main.rs` or `src/bin/`:
//! their library is the program, and printing is its output) do not print "instead of logging".
//! When logging modules are at least as many as print-only ones,
//! each module that prints and never logs gets one finding at its first print (a module that
//! does both chose each channel on purpose); otherwise the project's pattern is printing, and a
//! note says so.

use super::module::{library_modules, list, NOTHING_TO_COMPARE};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile, TreeUse};
use crate::lexical::calls::{logs_on, may_call_on, print_on};
use crate::lexical::LexLine;
use crate::project::dir_of;
use crate::rules::library_code::{binary_crates, crate_root, in_binary_crate, is_library_file};
use crate::rules::line_hits::LazyTestCode;
use crate::rules::lint_allowances;
use protocol::project::FileRole;
use protocol::{Category, Dimension, Location, Severity};
use std::collections::{BTreeMap, BTreeSet};

static META: RuleMeta = RuleMeta {
    id: "consistency/logging-pattern",
    category: Category::PatternInconsistency,
    severity: Severity::Medium,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
    ],
    dimensions: &[Dimension::Maintainability, Dimension::BestPractices],
    explanation: "Modules that print (println!, print(), console.log) while others log through a logging framework",
};

/// Flags printing modules in a project whose other modules use a logging framework.
pub(crate) struct LoggingPattern;

/// How one module reports what happens.
#[derive(Default)]
struct Usage {
    logs: usize,
    prints: usize,
    /// (path, line, call) of the first print the project does not allow.
    first_print: Option<(String, u32, String)>,
    /// (path, line, call) of the first print the project allows (clippy's `print_*` lints).
    first_allowed: Option<(String, u32, String)>,
}

impl Rule for LoggingPattern {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn tree_use(&self) -> TreeUse {
        TreeUse::Items
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l)) && is_library_file(file)
    }

    /// Finds one file's logging and print calls in the (parallel) file pass, where its tree is
    /// at hand for the test-code exemption; modules are compared in `check_project`.
    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        if let Some(lang) = file.language {
            out.keep((file.rel_path.clone(), calls(file, lang)));
        }
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let mut calls = out.kept_by_path::<Vec<Call>>(ctx, self);
        let Some(files) = library_modules(ctx) else {
            out.note(NOTHING_TO_COMPARE);
            return;
        };
        let binary_crates = binary_crates(ctx);
        // The folders of the program's entry points (`gunicorn/app/` of a `[project.scripts]`
        // target): the modules beside an entry point are the program's front end, and what
        // they print — a usage error before exit, a config dump — is its output.
        let front_ends: BTreeSet<&str> = ctx
            .files
            .iter()
            .filter(|f| f.role == FileRole::Program)
            .map(|f| dir_of(&f.rel_path))
            .filter(|dir| !dir.is_empty())
            .collect();
        // A crate whose root allows printing (`#![allow(clippy::print_stderr)]` in its
        // `src/lib.rs`) allows it in every module.
        let mut crate_allows: BTreeMap<String, bool> = BTreeMap::new();
        let mut usage: BTreeMap<&str, BTreeMap<String, Usage>> = BTreeMap::new();
        for (file, module) in files {
            if !file.language.is_some_and(|l| META.languages.contains(&l)) {
                continue;
            }
            let in_binary = in_binary_crate(&file.rel_path, &binary_crates)
                || front_ends.contains(dir_of(&file.rel_path))
                || is_logger_module(&file.rel_path);
            let found = calls.remove(&file.rel_path).unwrap_or_default();
            let allowed = crate_root(&file.rel_path).is_some_and(|root| {
                *crate_allows
                    .entry(root.to_string())
                    .or_insert_with(|| root_allows_printing(ctx, root))
            });
            let family = match file.language {
                Some(Language::Rust) => "rust",
                Some(Language::Python) => "python",
                _ => "script",
            };
            tally(
                &file.rel_path,
                &found,
                (in_binary, allowed),
                usage.entry(family).or_default().entry(module).or_default(),
            );
        }
        // Each language's modules are compared among themselves: a browser script's
        // `console.error` says nothing of a Rust crate's logging.
        for usage in usage.values() {
            compare(usage, out);
        }
    }
}

/// Flags the modules of one language that print while others log (see the module's doc).
fn compare(usage: &BTreeMap<String, Usage>, out: &mut Sink) {
    let logging: Vec<&str> = usage
        .iter()
        .filter(|(_, u)| u.logs > 0)
        .map(|(m, _)| m.as_str())
        .collect();
    let printing: Vec<&str> = usage
        .iter()
        .filter(|(_, u)| u.prints > 0)
        .map(|(m, _)| m.as_str())
        .collect();
    let print_only = printing.iter().filter(|m| !logging.contains(m)).count();
    let involved = usage.values().filter(|u| u.logs + u.prints > 0).count();
    if logging.is_empty() || printing.is_empty() || involved < 2 {
        return;
    }
    if print_only > logging.len() {
        out.note(format!(
            "consistency/logging-pattern: most modules print ({}); {} log through a framework",
            list(&printing),
            list(&logging)
        ));
        return;
    }
    for (module, u) in usage {
        // A module that logs and also prints chose each channel on purpose (a usage text,
        // a developer warning): only modules that print instead of logging are flagged.
        if u.logs > 0 {
            continue;
        }
        // Every print allowed by the project's own lint attributes: reported excused.
        let (first, allowed) = match (&u.first_print, &u.first_allowed) {
            (Some(first), _) => (first, false),
            (None, Some(first)) => (first, true),
            (None, None) => continue,
        };
        let (path, line, call) = first;
        let others = list(&logging);
        let hit = Hit::new(
            Location::at(path, *line),
            format!(
                "module `{module}` prints with `{call}` ({} print{}) while {others} log through a logging framework",
                u.prints,
                if u.prints == 1 { "" } else { "s" }
            ),
            format!("prints in module {module}"),
        )
        .suggest("log through the project's logging framework instead of printing");
        out.hit(if allowed {
            hit.excused("the project allows each of its prints (`#[allow]`/`#[expect]` of clippy's `print_stdout`/`print_stderr`, or ESLint's `no-console` disabled)")
        } else {
            hit
        });
    }
}

/// A logging or print call outside test code: (line, whether it logs, the print call, whether
/// the project allows printing there: `#[allow]`/`#[expect]` of clippy's `print_stdout` or
/// `print_stderr`, an ESLint directive turning `no-console` off).
type Call = (u32, bool, Option<String>, bool);

/// The logging and print calls of one file, outside test code and `__main__` blocks.
fn calls(file: &SourceFile, lang: Language) -> Vec<Call> {
    let needles: &[&str] = match lang {
        Language::Rust => &[
            "info!", "warn!", "error!", "debug!", "trace!", "print!", "println!", "eprint",
        ],
        Language::Python => &["print", "log"],
        _ => &["console.", "log"],
    };
    if !needles.iter().any(|n| file.text.contains(n)) {
        return Vec::new();
    }
    // A proc-macro crate runs inside the compiler: printing is its only channel.
    if lang == Language::Rust && file.text.contains("proc_macro::") {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut tests = LazyTestCode::new(file);
    let allowed = match lang {
        Language::JavaScript | Language::TypeScript => {
            lint_allowances::eslint_disabled(file, "no-console")
        }
        _ => lint_allowances::allowed(file, &PRINT_LINTS),
    };
    let lines = file.lexed(lang);
    let facility = if lang == Language::Rust {
        log_macro_lines(&lines)
    } else {
        Vec::new()
    };
    for line in lines.iter() {
        if lang == Language::Python && line.text.starts_with("if __name__") {
            break;
        }
        if facility.contains(&line.number) {
            continue;
        }
        if !may_call_on(line.text, lang) {
            continue;
        }
        let code = line.code();
        let logs = logs_on(&code, lang);
        let print = print_on(&code, lang);
        if !logs && print.is_none() {
            continue;
        }
        if lang == Language::Rust && tests.contains(line.number) {
            continue;
        }
        if print.is_some() && (dies_next(&lines, line.number) || debug_gated(&lines, line.number)) {
            continue;
        }
        found.push((
            line.number,
            logs,
            print.map(str::to_string),
            lint_allowances::within(&allowed, line.number),
        ));
    }
    found
}

/// Whether the process ends on the print's line or the next line of code (`abort()`,
/// `process::exit(…)`, `os._exit(…)`): a program's last words, which no logger is sure to flush.
/// Flushing what was printed (`sys.stderr.flush()`) may come in between.
fn dies_next(lines: &[LexLine<'_>], number: u32) -> bool {
    let dies = |code: &str| {
        ["abort()", "exit("].iter().any(|d| {
            code.match_indices(d)
                .any(|(at, _)| at == 0 || !code.as_bytes()[at - 1].is_ascii_alphanumeric())
        })
    };
    let mut code = lines
        .iter()
        .skip_while(|l| l.number < number)
        .filter(|l| l.has_code())
        .map(|l| l.code());
    code.next().is_some_and(|first| dies(&first))
        || code
            .find(|c| !c.contains("flush("))
            .is_some_and(|next| dies(&next))
}

/// Whether the print sits right under a condition that names debugging (`if
/// crate::debug_enabled() {`, `if env::var_os("M_DEBUG").is_some() {`, `if debug:`): output a
/// developer switches on, which is not the product's logging.
fn debug_gated(lines: &[LexLine<'_>], number: u32) -> bool {
    let opener = lines
        .iter()
        .rev()
        .skip_while(|l| l.number >= number)
        .find(|l| l.has_code());
    // The code says it is a condition; the raw text keeps the switch's name, which may be a
    // string (`"M_DEBUG"`).
    opener.is_some_and(|l| {
        let code = l.code();
        let code = code.trim();
        code.starts_with("if ")
            && (code.ends_with('{') || code.ends_with(':'))
            && l.text.to_ascii_lowercase().contains("debug")
    })
}

/// The names of the standard library's printing macros.
const PRINT_MACROS: [&str; 4] = ["print", "println", "eprint", "eprintln"];

/// The lines of `macro_rules!` definitions named like a log level (`macro_rules! debug { …
/// eprintln!(…) }`) or a printing macro (an async runtime's own `println!`): the project's own
/// logging or printing facility, whose printing is what it offers.
fn log_macro_lines(lines: &[LexLine<'_>]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut depth: Option<i32> = None;
    for line in lines {
        let code = line.code();
        if depth.is_none() {
            let named = code.trim_start().strip_prefix("macro_rules!").map(|rest| {
                rest.trim_start()
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or_default()
                    .to_string()
            });
            if named.is_some_and(|n| {
                LOG_LEVELS.contains(&n.as_str()) || PRINT_MACROS.contains(&n.as_str())
            }) {
                depth = Some(0);
            }
        }
        if let Some(d) = depth.as_mut() {
            out.push(line.number);
            *d += code.matches('{').count() as i32 - code.matches('}').count() as i32;
            if *d <= 0 && code.contains('}') {
                depth = None;
            }
        }
    }
    out
}

/// Whether a module is a logger itself (`console-logger.ts`, `logging.py`, `src/log.rs`): what
/// it prints is the output a logging backend exists to write.
fn is_logger_module(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    stem.ends_with("logger")
        || stem
            .split(['-', '_'])
            .any(|w| matches!(w, "logger" | "loggers" | "logging" | "log" | "logs"))
}

/// The names a logging macro goes by.
const LOG_LEVELS: [&str; 6] = ["trace", "debug", "info", "warn", "error", "log"];

/// The clippy lints that police printing.
const PRINT_LINTS: [&str; 2] = ["print_stdout", "print_stderr"];

/// Whether the root file of the crate in folder `root` allows printing for the whole crate.
fn root_allows_printing(ctx: &Context, root: &str) -> bool {
    ["src/lib.rs", "src/main.rs"].iter().any(|r| {
        ctx.file(&format!("{root}{r}"))
            .is_some_and(|f| lint_allowances::allowed(f, &PRINT_LINTS) == [(1, u32::MAX)])
    })
}

/// Counts one file's calls into `usage`; a binary's prints are its output, not counted; in a
/// crate that allows printing (`crate_allowed`), every print is allowed.
fn tally(path: &str, calls: &[Call], (in_binary, crate_allowed): (bool, bool), usage: &mut Usage) {
    for (line, logs, print, allowed) in calls {
        let allowed = *allowed || crate_allowed;
        let (line, logs) = (*line, *logs);
        let print = if in_binary { None } else { print.as_ref() };
        if !logs && print.is_none() {
            continue;
        }
        usage.logs += usize::from(logs);
        if let Some(call) = print {
            usage.prints += 1;
            let first = if allowed {
                &mut usage.first_allowed
            } else {
                &mut usage.first_print
            };
            first.get_or_insert_with(|| (path.to_string(), line, call.clone()));
        }
    }
}

#[cfg(test)]
mod tests;
