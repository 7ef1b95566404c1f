//! `holistic/query-in-loop`: a `SELECT` run once per iteration of a loop — the N+1 query
//! pattern: one round trip per item where one query with `IN (..)` or a join would do.
//!
//! Rust: a query method (`query`, `query_as`, `fetch_*`, `query_row`, ...) or `sqlx::query*`
//! call, or a `query!`/`query_as!` macro, whose SQL literal starts with `SELECT`/`WITH`,
//! inside a `for`/`while`/`loop` body. Python, Go, TypeScript and JavaScript: a query call
//! (`.execute(`, `.query(`, `.Query(`, `.QueryRow(`) with such a literal inside a `for` block
//! over items (not a `while`, nor Go's conditional `for n < len(p)`: those poll, page or
//! stream one object in chunks). Writes in a loop (`INSERT` per row in a transaction) are the usual batch idiom and
//! are not flagged. Test code is exempt.

use crate::engine::{Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::functions::python_block_end;
use crate::lexical::{lex, LexLine, Seg};
use crate::rules::line_hits::{find_in_syntax_or_text, line_hit, outside_tests};
use crate::rules::macro_calls::visit_macro_args;
use protocol::{Category, Dimension, Severity};
use syn::visit::{self, Visit};

/// Method and function names that run SQL given as their first argument.
const QUERY_CALLS: [&str; 11] = [
    "query",
    "query_as",
    "query_scalar",
    "query_one",
    "query_opt",
    "query_row",
    "query_map",
    "execute",
    "prepare",
    "fetch_one",
    "fetch_all",
];

static META: RuleMeta = RuleMeta {
    id: "holistic/query-in-loop",
    category: Category::Performance,
    severity: Severity::Medium,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Performance],
    explanation: "SELECT queries run inside loops (N+1 queries): one round trip per item",
};

/// Flags queries in loops.
pub(crate) struct QueryInLoop;

/// Whether SQL text is a read (`SELECT`, `WITH`).
fn is_select(s: &str) -> bool {
    let head = s.trim_start().to_ascii_uppercase();
    head.starts_with("SELECT ") || head.starts_with("SELECT\n") || head.starts_with("WITH ")
}

impl Rule for QueryInLoop {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l))
            && (file.text.contains("SELECT") || file.text.contains("select "))
            && !file.is_test_file()
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let finder = Finder {
            loops: 0,
            found: Vec::new(),
        };
        let Some(found) = find_in_syntax_or_text(file, finder, |f: Finder| f.found, text) else {
            return;
        };
        for l in outside_tests(file, found, |l| *l) {
            out.hit(
                line_hit(
                    file,
                    l,
                    "a SELECT runs once per loop iteration (N+1 queries): one database round trip per item",
                    "query in loop",
                )
                .suggest("fetch the rows for all items with one query (IN (..), ANY($1), a join) before the loop"),
            );
        }
    }
}

struct Finder {
    loops: u32,
    found: Vec<u32>,
}

fn select_literal(e: Option<&syn::Expr>) -> bool {
    match e {
        Some(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        })) => is_select(&s.value()),
        Some(syn::Expr::Reference(r)) => select_literal(Some(&r.expr)),
        _ => false,
    }
}

impl Finder {
    fn in_loop(&mut self, walk: impl FnOnce(&mut Self)) {
        self.loops += 1;
        walk(self);
        self.loops -= 1;
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.visit_expr(&e.expr);
        self.in_loop(|v| v.visit_block(&e.body));
    }

    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.in_loop(|v| visit::visit_expr_while(v, e));
    }

    fn visit_expr_loop(&mut self, e: &'ast syn::ExprLoop) {
        self.in_loop(|v| visit::visit_expr_loop(v, e));
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let name = m.method.to_string();
        if self.loops > 0 && QUERY_CALLS.contains(&name.as_str()) && select_literal(m.args.first())
        {
            self.found.push(m.method.span().start().line as u32);
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*c.func {
            let last = p.path.segments.last();
            let query = last.is_some_and(|s| QUERY_CALLS.contains(&s.ident.to_string().as_str()));
            if self.loops > 0 && query && select_literal(c.args.first()) {
                self.found
                    .push(last.map_or(0, |s| s.ident.span().start().line as u32));
            }
        }
        visit::visit_expr_call(self, c);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let last = mac.path.segments.last();
        let query = last.is_some_and(|s| {
            matches!(
                s.ident.to_string().as_str(),
                "query" | "query_as" | "query_scalar"
            )
        });
        if self.loops > 0 && query {
            let first = mac.tokens.clone().into_iter().find_map(|t| match t {
                proc_macro2::TokenTree::Literal(l) => Some(l.to_string()),
                _ => None,
            });
            if first.is_some_and(|l| is_select(l.trim_start_matches(['r', '#', '"']))) {
                self.found
                    .push(last.map_or(0, |s| s.ident.span().start().line as u32));
            }
        }
        visit_macro_args(self, mac);
    }

    // A closure is not a loop body even when an iterator adapter calls it per item; reading
    // `.map(|x| query(..))` as a loop would need the adapter's semantics.
    fn visit_item(&mut self, i: &'ast syn::Item) {
        let outer = std::mem::replace(&mut self.loops, 0);
        visit::visit_item(self, i);
        self.loops = outer;
    }
}

/// Lines of query calls with a SELECT literal inside loops of Python, Go, TS or JS.
fn text(text: &str, lang: Language) -> Vec<u32> {
    let lines = lex(text, lang);
    let codes: Vec<String> = lines.iter().map(LexLine::code).collect();
    let mut in_loop = vec![false; lines.len()];
    for (i, code) in codes.iter().enumerate() {
        // A loop over items: a `while` or Go's conditional `for n < len(p) {` polls, pages or
        // streams one object in chunks — one round trip per step is the work, not N+1.
        let t = code.trim_start();
        let go_condition_only = lang == Language::Go && !t.contains(" range ") && !t.contains(';');
        let header = (t.starts_with("for ") || t.starts_with("for(")) && !go_condition_only;
        if !header {
            continue;
        }
        let end = if lang == Language::Python {
            python_block_end(&lines, i)
        } else {
            brace_block_end(&codes, i).unwrap_or(i)
        };
        for flag in in_loop.iter_mut().take(end + 1).skip(i + 1) {
            *flag = true;
        }
    }
    let calls = [
        ".execute(",
        ".query(",
        ".Query(",
        ".QueryRow(",
        ".QueryContext(",
        ".fetchrow(",
        ".fetch(",
    ];
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !in_loop[i] || !calls.iter().any(|c| codes[i].contains(c)) {
            continue;
        }
        let select = line.segs.iter().any(|s| match s {
            Seg::Str(lit) => is_select(
                lit.trim_start_matches(['f', 'r', 'b'])
                    .trim_start_matches(['"', '\'', '`']),
            ),
            _ => false,
        });
        if select {
            found.push(line.number);
        }
    }
    found
}

/// The line closing the brace block opened on or just after line `header`.
fn brace_block_end(codes: &[String], header: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut open = false;
    for (i, code) in codes.iter().enumerate().skip(header) {
        if !open && i > header + 2 {
            return None;
        }
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    open = true;
                }
                '}' if open => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    const MSG: &str =
        "a SELECT runs once per loop iteration (N+1 queries): one database round trip per item";

    #[test]
    fn fires_on_selects_inside_loops() {
        let rust = "async fn totals(pool: &PgPool, ids: &[i64]) {\n    for id in ids {\n        let row = sqlx::query(\"SELECT total FROM orders WHERE id = $1\")\n            .bind(id)\n            .fetch_one(pool)\n            .await;\n    }\n    for u in users {\n        conn.query_row(\"SELECT name FROM u WHERE id = ?1\", [u], |r| r.get(0));\n    }\n}\n";
        assert_eq!(
            hits(&QueryInLoop, "src/a.rs", rust),
            vec![(3, MSG.to_string()), (9, MSG.to_string())]
        );
        let py = "def names(cur, ids):\n    for i in ids:\n        cur.execute(\"SELECT name FROM u WHERE id = %s\", (i,))\n";
        assert_eq!(
            hits(&QueryInLoop, "app/a.py", py),
            vec![(3, MSG.to_string())]
        );
        let go = "package a\n\nfunc F(ids []int) {\n\tfor _, id := range ids {\n\t\tdb.QueryRow(\"SELECT name FROM u WHERE id = $1\", id)\n\t}\n}\n";
        assert_eq!(hits(&QueryInLoop, "a/a.go", go), vec![(5, MSG.to_string())]);
    }

    #[test]
    fn quiet_on_batch_writes_and_queries_outside_loops() {
        let rust = "fn save(tx: &Transaction, rows: &[Row]) {\n    for r in rows {\n        tx.execute(\"INSERT INTO t (a) VALUES (?1)\", [r.a]);\n    }\n    let all = conn.query(\"SELECT * FROM t WHERE id = ANY($1)\", &[&ids]);\n}\n";
        assert!(hits(&QueryInLoop, "src/a.rs", rust).is_empty());
        let py = "rows = cur.execute(\"SELECT * FROM u WHERE id IN %s\", (tuple(ids),))\nfor r in rows:\n    print(r)\n";
        assert!(hits(&QueryInLoop, "app/a.py", py).is_empty());
        // One large object read in chunks, and a pager: each step's round trip is the work.
        let go = "package a\n\nfunc (o *LO) Read(p []byte) {\n\tfor nTotal < len(p) {\n\t\to.tx.QueryRow(ctx, \"select loread($1, $2)\", o.fd, n)\n\t}\n}\n";
        assert!(hits(&QueryInLoop, "lo.go", go).is_empty());
        let py =
            "while page:\n    page = cur.execute(\"SELECT * FROM t LIMIT 10 OFFSET %s\", (n,))\n";
        assert!(hits(&QueryInLoop, "app/pager.py", py).is_empty());
    }
}
