//! `holistic/sql-injection`: SQL built by string formatting and handed to a query call —
//! Rust `conn.execute(&format!("DELETE .. {id}"), ..)`, `sqlx::query(&format!(..))`; Python
//! `cur.execute(f"SELECT .. {x}")`, `"..." % x`, `.format(..)`; Node `` db.query(`SELECT .. ${x}`) ``;
//! Go `db.Query(fmt.Sprintf("SELECT .. %s", x))`; also through a variable built that way in the
//! same file. Any value spliced in can end the statement and start another; bound parameters
//! (`$1`, `?`, `%s` with a parameter tuple) are the fix.
//!
//! Only literals that start like a statement (`SELECT`, `INSERT`, `UPDATE`, `DELETE`, `WITH`,
//! `REPLACE`, `MERGE`) count, so formatted log lines passed to `execute` of other APIs do not.
//! Test code is exempt.

use crate::engine::{Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::args::{call_args, is_built, literal_text, Arg};
use crate::lexical::{lex, LexLine, Seg};
use crate::rules::holistic::prefilter::{code_has, Needle};
use crate::rules::holistic::syntax::{callee, line};
use crate::rules::line_hits::{find_in_syntax_or_text, line_hit, outside_tests};
use crate::rules::macro_calls::visit_macro_args;
use protocol::{Category, Dimension, Severity};
use std::collections::BTreeMap;
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};

/// The names of the calls that run SQL given as their first argument: every one but the last
/// is a method ([`QUERY_METHODS`]); a function path may end in `query`, `query_as`,
/// `query_scalar` or the last, `sql_query` (diesel).
const QUERY_NAMES: [&str; 16] = [
    "query",
    "query_as",
    "query_scalar",
    "query_one",
    "query_opt",
    "query_row",
    "query_map",
    "execute",
    "execute_batch",
    "batch_execute",
    "prepare",
    "prepare_cached",
    "simple_query",
    "executemany",
    "raw",
    "sql_query",
];

/// Methods that run SQL given as their first argument.
const QUERY_METHODS: &[&str] = match QUERY_NAMES.split_last() {
    Some((_, methods)) => methods,
    None => &[],
};

/// Go's query methods.
const GO_METHODS: [&str; 6] = [
    ".Query(",
    ".QueryRow(",
    ".Exec(",
    ".QueryContext(",
    ".ExecContext(",
    ".QueryRowContext(",
];

static META: RuleMeta = RuleMeta {
    id: "holistic/sql-injection",
    category: Category::OperationalRisk,
    severity: Severity::High,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Security],
    explanation:
        "SQL built with format!/f-strings/concatenation and passed to a query call: SQL injection",
};

/// Flags SQL built by string formatting.
pub(crate) struct SqlInjection;

/// Whether text starts like an SQL statement.
fn is_sql(s: &str) -> bool {
    let head: String = s
        .trim_start()
        .chars()
        .take(8)
        .collect::<String>()
        .to_ascii_uppercase();
    [
        "SELECT ", "INSERT ", "UPDATE ", "DELETE ", "WITH ", "REPLACE ", "MERGE ",
    ]
    .iter()
    .any(|k| head.starts_with(k) || head.trim_end() == k.trim_end())
}

impl Rule for SqlInjection {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l))
            && [
                "SELECT", "INSERT", "UPDATE", "DELETE", "select ", "insert ", "update ", "delete ",
            ]
            .iter()
            .any(|k| file.text.contains(k))
            && !file.is_test_file()
            // A benchmark runs by hand on the queries it chose: there is no attacker's input.
            && file.role != protocol::project::FileRole::Bench
            // Rust is read from the tree alone: a query call must be in the code.
            && (file.language != Some(Language::Rust) || code_has(file, &[Needle::Word(&QUERY_NAMES)]))
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(found) =
            find_in_syntax_or_text(file, Finder::default(), |f: Finder| f.found, text)
        else {
            return;
        };
        for (l, fixed) in outside_tests(file, found, |(l, _)| *l) {
            let hit = line_hit(
                file,
                l,
                "SQL built by string formatting is passed to a query: a value can end the statement and inject its own",
                "sql",
            )
            .suggest("use bound parameters ($1, ?, %s with a parameter tuple) instead of splicing values into the SQL");
            // What the code splices in is what it says of itself: trusted on lines the change
            // under review did not write.
            out.hit(if fixed {
                hit.excused("it splices in only escaped identifiers, constants or the program's configuration (`quoteIdentifier(t)`, `c.config.Table`): a table's name cannot be a bound parameter")
            } else {
                hit
            });
        }
    }
}

/// Rust: query calls whose SQL is a `format!` (or `+`) of an SQL literal, or a local bound to one.
#[derive(Default)]
struct Finder {
    built_vars: Vec<String>,
    /// Query lines, each with whether only fixed values are spliced in (always no in Rust).
    found: BTreeMap<u32, bool>,
}

fn built_sql(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Reference(r) => built_sql(&r.expr),
        syn::Expr::Paren(p) => built_sql(&p.expr),
        syn::Expr::MethodCall(m) if m.method == "as_str" || m.method == "as_ref" => {
            built_sql(&m.receiver)
        }
        syn::Expr::Macro(m)
            if m.mac
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "format") =>
        {
            let args = m
                .mac
                .parse_body_with(Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated);
            args.ok().and_then(|a| a.into_iter().next()).is_some_and(|first| {
                matches!(&first, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) if is_sql(&s.value()) && s.value().contains('{'))
            })
        }
        syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => leftmost_sql(&b.left),
        _ => false,
    }
}

fn leftmost_sql(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Binary(b) => leftmost_sql(&b.left),
        syn::Expr::MethodCall(m) => leftmost_sql(&m.receiver),
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => is_sql(&s.value()),
        _ => false,
    }
}

impl Finder {
    fn dangerous(&self, e: &syn::Expr) -> bool {
        let bare = match e {
            syn::Expr::Reference(r) => &*r.expr,
            other => other,
        };
        built_sql(e)
            || matches!(bare, syn::Expr::Path(p) if p.path.get_ident().is_some_and(|i| self.built_vars.contains(&i.to_string())))
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_local(&mut self, l: &'ast syn::Local) {
        if let (syn::Pat::Ident(id), Some(init)) = (&l.pat, &l.init) {
            if built_sql(&init.expr) {
                self.built_vars.push(id.ident.to_string());
            }
        }
        visit::visit_local(self, l);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let method = m.method.to_string();
        if QUERY_METHODS.contains(&method.as_str())
            && m.args.first().is_some_and(|a| self.dangerous(a))
        {
            self.found.insert(line(m.method.span()), false);
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        let is_query = callee(c).is_some_and(|p| {
            let last = p.rsplit("::").next().unwrap_or_default().to_string();
            (p.contains("sqlx")
                || p.contains("diesel")
                || p.starts_with("query")
                || p == "sql_query")
                && matches!(
                    last.as_str(),
                    "query" | "query_as" | "query_scalar" | "sql_query"
                )
        });
        if is_query && c.args.first().is_some_and(|a| self.dangerous(a)) {
            if let syn::Expr::Path(p) = &*c.func {
                if let Some(s) = p.path.segments.last() {
                    self.found.insert(line(s.ident.span()), false);
                }
            }
        }
        visit::visit_expr_call(self, c);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit_macro_args(self, mac);
    }
}

/// Whether argument pieces hold an SQL literal built at run time (or, in Go, `fmt.Sprintf` of
/// one).
/// `None` when the pieces hold no SQL literal built at run time; else whether only fixed values
/// are spliced into it ([`splices_only_fixed`]).
fn built_in(args: &[Arg<'_>], lang: Language) -> Option<bool> {
    let prefix = (lang == Language::Python).then_some("f");
    let sprintf = args
        .iter()
        .any(|a| matches!(a, Arg::Code(c) if c.contains("fmt.Sprintf(")));
    let built = args.iter().enumerate().any(|(k, a)| {
        let Arg::Str(s) = a else {
            return false;
        };
        is_sql(literal_text(s).0)
            && (is_built(args, k, prefix) || (lang == Language::Go && sprintf))
    });
    built.then(|| splices_only_fixed(args))
}

/// Whether the SQL is spliced together — concatenated (`"SELECT … FROM " + x + " LIMIT 1"`)
/// or formatted by Go's `fmt.Sprintf` — from nothing but values no input reaches: escaped
/// identifiers (`quoteIdentifier(t)`, `pq.QuoteIdentifier`), constants (`TABLE`), the program's
/// configuration (`c.config.MigrationsTable`, `cfg.Table`): a table's name cannot be a bound
/// parameter, and the operator's own settings are no injection.
fn splices_only_fixed(args: &[Arg<'_>]) -> bool {
    let mut spliced = 0;
    let sprintf = args
        .iter()
        .any(|a| matches!(a, Arg::Code(c) if c.contains("fmt.Sprintf(")));
    for (k, arg) in args.iter().enumerate() {
        let Arg::Code(code) = arg else {
            continue;
        };
        let after_sql = matches!(k.checked_sub(1).map(|p| &args[p]), Some(Arg::Str(_)));
        let before_sql = matches!(args.get(k + 1), Some(Arg::Str(_)));
        let operands: Vec<&str> = if sprintf && after_sql {
            // `fmt.Sprintf(`…%s…`, a, b)`: the arguments after the format, to the call's end.
            let inner = code.split(')').next().unwrap_or(code);
            inner.split(',').skip(1).collect()
        } else if (after_sql || before_sql) && code.contains('+') {
            let pieces: Vec<&str> = code.split('+').collect();
            let last = pieces.len() - 1;
            pieces
                .iter()
                .enumerate()
                .map(|(n, piece)| match (n, n == last) {
                    // Before the first `+` of code that opens the expression: what follows
                    // `:=`, `=`, `(` or `,` (`query := prefix + "…"`).
                    (0, _) if !after_sql => piece.rsplit(['=', '(', ',']).next().unwrap_or(piece),
                    // After the last `+` of code that ends it: up to `)`, `,` or `;`, a call's
                    // own parentheses kept (`+ quoteIdentifier(t))`).
                    (_, true) if !before_sql => until_close(piece),
                    _ => piece,
                })
                .collect()
        } else {
            continue;
        };
        for operand in operands.iter().map(|o| o.trim()).filter(|o| !o.is_empty()) {
            spliced += 1;
            if !fixed_value(operand) {
                return false;
            }
        }
    }
    spliced > 0
}

/// The start of `piece` up to the first `)`, `,` or `;` outside a call's own parentheses.
fn until_close(piece: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in piece.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            ')' | ',' | ';' => return &piece[..i],
            _ => {}
        }
    }
    piece
}

/// An operand of a concatenation that carries no input: see [`splices_only_fixed`].
fn fixed_value(piece: &str) -> bool {
    if let Some((callee, _)) = piece.split_once('(') {
        let callee = callee.to_ascii_lowercase();
        return callee.contains("quote") || callee.contains("escape");
    }
    let name = piece.trim();
    let constant = name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    let configured = name.contains('.')
        && name.split('.').any(|part| {
            matches!(
                part.to_ascii_lowercase().as_str(),
                "config" | "cfg" | "conf" | "settings"
            )
        });
    constant || configured
}

/// The pieces of a line after its first `=` (an assignment's right-hand side).
fn rhs<'a>(line: &LexLine<'a>) -> Option<(String, Vec<Arg<'a>>)> {
    let first = match line.segs.first() {
        Some(Seg::Code(c)) => *c,
        _ => return None,
    };
    let (lhs, rest) = first.split_once('=')?;
    if rest.starts_with('=') {
        return None;
    }
    let lhs = lhs.trim().trim_end_matches(':').trim();
    let name = lhs.rsplit(' ').next().unwrap_or(lhs).to_string();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let mut args = vec![Arg::Code(rest)];
    for seg in &line.segs[1..] {
        match seg {
            Seg::Code(c) => args.push(Arg::Code(c)),
            Seg::Str(s) => args.push(Arg::Str(s)),
            Seg::Comment(_) => {}
        }
    }
    Some((name, args))
}

/// Whether a line opens a function (`func `, `def `, `function `): a variable's assignments
/// before it belong to another function.
fn opens_function(code: &str) -> bool {
    let t = code.trim_start();
    [
        "func ",
        "def ",
        "async def ",
        "function ",
        "async function ",
    ]
    .iter()
    .any(|k| t.starts_with(k))
}

fn text(text: &str, lang: Language) -> BTreeMap<u32, bool> {
    let lines = lex(text, lang);
    // Every assignment (line index, name, how it is built), so that a query variable is judged
    // by its own function's last assignment before the call, not by a namesake elsewhere.
    let assignments: Vec<(usize, String, Option<bool>)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| rhs(l).map(|(n, args)| (i, n, built_in(&args, lang))))
        .collect();
    let built_var = |name: &str, at: usize| {
        let start = (0..at)
            .rev()
            .find(|&k| opens_function(&lines[k].code()))
            .unwrap_or(0);
        assignments
            .iter()
            .rev()
            .find(|(k, n, _)| *k < at && *k >= start && n == name)
            .and_then(|(_, _, built)| *built)
    };
    let mut found = BTreeMap::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        let opens: Vec<usize> = if lang == Language::Go {
            GO_METHODS
                .iter()
                .filter_map(|m| code.find(m).map(|at| at + m.len()))
                .collect()
        } else {
            QUERY_METHODS
                .iter()
                .filter_map(|m| code.find(&format!(".{m}(")).map(|at| at + m.len() + 2))
                .collect()
        };
        for open in opens {
            let args = call_args(&lines, i, open);
            let first_ident = match args.first() {
                Some(Arg::Code(c)) => c.split(',').next().unwrap_or_default().trim().to_string(),
                _ => String::new(),
            };
            if let Some(fixed) = built_in(&args, lang).or_else(|| built_var(&first_ident, i)) {
                found.insert(line.number, fixed);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests;
