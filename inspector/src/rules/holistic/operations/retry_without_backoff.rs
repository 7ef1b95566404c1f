//! `holistic/retry-without-backoff`: a retry loop with neither a pause nor a bound — it leaves
//! only when the operation succeeds, and on failure tries again at once, forever. Against a
//! service that is down it spins a core and floods the service (and its logs) as it comes back.
//!
//! A retry loop is a `loop` (Rust) or `while True:` (Python) whose success path leaves it
//! (`Ok(..) => break/return`, `if let Ok(..) = .. { return }`, `if x.is_ok() { break }`, a `try:`
//! that breaks or returns) while its failure path does not. It is bounded when anything else can
//! leave it (an attempt counter's `break`, an `Err` arm that returns); it backs off when its body
//! sleeps, waits or asks a backoff policy (a call whose name holds `sleep`, `delay`, `backoff`,
//! `wait`, `tick`). Either is enough to stay quiet. A compare-and-swap loop
//! (`compare_exchange`, `fetch_update`) is not a retry: each failure means another thread made
//! progress, and trying again at once is the algorithm. Test code is exempt.

use crate::engine::{Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::functions::{indent_of, python_block_end};
use crate::lexical::lex;
use crate::rules::holistic::prefilter::{code_has, Needle};
use crate::rules::line_hits::{find_in_syntax_or_text, line_hit, outside_tests};
use crate::rules::macro_calls::visit_macro_args;
use protocol::{Category, Dimension, Severity};
use quote::ToTokens;
use syn::visit::{self, Visit};

/// Macros that leave the loop (`bail!`/`ensure!` return an error; the others panic).
const LEAVING_MACROS: [&str; 6] = [
    "bail",
    "ensure",
    "panic",
    "unreachable",
    "todo",
    "unimplemented",
];

/// Methods that take the next item of a sequence: a loop matching on them walks the sequence.
const TAKES: [&str; 6] = ["next", "next_back", "peek", "pop", "pop_front", "pop_back"];

/// Atomic compare-and-swap methods: a loop over one is lock-free progress, not a retry.
const CAS: [&str; 4] = [
    "compare_exchange",
    "compare_exchange_weak",
    "compare_and_swap",
    "fetch_update",
];

/// Whether `e` calls a method that takes the next item ([`TAKES`]) or swaps atomically
/// ([`CAS`]): a loop on its success is not trying an operation again.
fn walks_or_swaps(e: &syn::Expr) -> bool {
    matches!(e, syn::Expr::MethodCall(c) if TAKES.iter().chain(&CAS).any(|t| c.method == t))
}

/// Words in a call's name that mean it waits before the next attempt.
const PAUSES: [&str; 5] = ["sleep", "delay", "backoff", "wait", "tick"];

static META: RuleMeta = RuleMeta {
    id: "holistic/retry-without-backoff",
    category: Category::OperationalRisk,
    severity: Severity::Medium,
    languages: &[Language::Rust, Language::Python],
    dimensions: &[Dimension::Quality, Dimension::Performance],
    explanation:
        "Retry loops with neither backoff nor a bound: a hot loop hammering a failing dependency",
};

/// Flags retry loops without backoff or bound.
pub(crate) struct RetryWithoutBackoff;

impl Rule for RetryWithoutBackoff {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        match file.language {
            // The tree walk flags `loop` expressions only.
            Some(Language::Rust) => {
                file.text.contains("Ok") && code_has(file, &[Needle::Word(&["loop"])])
            }
            Some(Language::Python) => {
                file.text.contains("while True") && file.text.contains("except")
            }
            _ => false,
        }
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        // `wants` lets only Rust and Python through: every other language is Python here.
        let Some(found) =
            find_in_syntax_or_text(file, Finder(Vec::new()), |f| f.0, |t, _| python(t))
        else {
            return;
        };
        for line in outside_tests(file, found, |l| *l) {
            out.hit(
                line_hit(
                    file,
                    line,
                    "retry loop with no backoff and no bound: on failure it retries at once, forever",
                    "retry loop",
                )
                .suggest("sleep between attempts with exponential backoff, and give up after N attempts"),
            );
        }
    }
}

struct Finder(Vec<u32>);

/// Counts what leaves a loop and how: on success, otherwise; and whether anything pauses.
#[derive(Default)]
struct Shape {
    success_exits: u32,
    other_exits: u32,
    pauses: bool,
    /// Nesting of inner loops, whose unlabeled breaks are theirs.
    depth: u32,
    /// Whether the node being visited is on a success path.
    on_success: bool,
    /// Whether the node being visited is a failure arm's body (`Err(e) => …`).
    on_failure: bool,
}

fn is_success_pat(p: &syn::Pat) -> bool {
    match p {
        syn::Pat::TupleStruct(t) => t
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "Ok" || s.ident == "Some"),
        syn::Pat::Ident(i) => i.ident == "Ok" || i.ident == "Some",
        syn::Pat::Path(p) => p.path.is_ident("Ok"),
        _ => false,
    }
}

fn is_failure_pat(p: &syn::Pat) -> bool {
    match p {
        syn::Pat::TupleStruct(t) => t.path.segments.last().is_some_and(|s| s.ident == "Err"),
        syn::Pat::Path(p) => p.path.is_ident("None"),
        syn::Pat::Wild(_) => true,
        _ => false,
    }
}

impl Shape {
    fn exit(&mut self) {
        if self.on_success {
            self.success_exits += 1;
        } else {
            self.other_exits += 1;
        }
    }

    fn success(&mut self, walk: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.on_success, true);
        walk(self);
        self.on_success = outer;
    }
}

impl<'ast> Visit<'ast> for Shape {
    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.visit_expr(&m.expr);
        // `match chars.next()`: taking the next item, not trying an operation again.
        let takes_next = walks_or_swaps(&m.expr);
        for arm in &m.arms {
            if is_success_pat(&arm.pat) && arm.guard.is_none() && !takes_next {
                self.success(|v| v.visit_expr(&arm.body));
            } else if is_failure_pat(&arm.pat) {
                let outer = std::mem::replace(&mut self.on_failure, true);
                self.visit_arm(arm);
                self.on_failure = outer;
            } else {
                self.visit_arm(arm);
            }
        }
    }

    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        let success_cond = match &*e.cond {
            syn::Expr::Let(l) => is_success_pat(&l.pat) && !walks_or_swaps(&l.expr),
            syn::Expr::MethodCall(m) => {
                (m.method == "is_ok" || m.method == "is_some") && !walks_or_swaps(&m.receiver)
            }
            _ => false,
        };
        self.visit_expr(&e.cond);
        if success_cond {
            self.success(|v| v.visit_block(&e.then_branch));
        } else {
            self.visit_block(&e.then_branch);
        }
        if let Some((_, other)) = &e.else_branch {
            self.visit_expr(other);
        }
    }

    fn visit_expr_break(&mut self, b: &'ast syn::ExprBreak) {
        if self.depth == 0 || b.label.is_some() {
            self.exit();
        }
        visit::visit_expr_break(self, b);
    }

    fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
        self.exit();
        visit::visit_expr_return(self, r);
    }

    fn visit_expr_try(&mut self, t: &'ast syn::ExprTry) {
        // `?` leaves on failure: a bound of its own kind (the error goes to the caller).
        self.other_exits += 1;
        visit::visit_expr_try(self, t);
    }

    fn visit_expr_loop(&mut self, e: &'ast syn::ExprLoop) {
        self.depth += 1;
        visit::visit_expr_loop(self, e);
        self.depth -= 1;
    }

    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.depth += 1;
        visit::visit_expr_while(self, e);
        self.depth -= 1;
    }

    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.depth += 1;
        visit::visit_expr_for_loop(self, e);
        self.depth -= 1;
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        let name = c.func.to_token_stream().to_string().to_ascii_lowercase();
        self.pauses |= PAUSES.iter().any(|p| name.contains(p));
        visit::visit_expr_call(self, c);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let name = m.method.to_string().to_ascii_lowercase();
        self.pauses |= PAUSES.iter().any(|p| name.contains(p));
        visit::visit_expr_method_call(self, m);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // `bail!` returns and a panic leaves too: the loop does not spin on that path.
        if mac
            .path
            .segments
            .last()
            .is_some_and(|s| LEAVING_MACROS.iter().any(|m| s.ident == m))
        {
            self.exit();
        }
        visit_macro_args(self, mac);
    }

    /// `Err(e) => handle_accept_error(e).await`: the failure is handed to a function the loop
    /// waits for, which may pause (an accept loop's handler sleeps on resource errors).
    fn visit_expr_await(&mut self, a: &'ast syn::ExprAwait) {
        self.pauses |=
            self.on_failure && matches!(&*a.base, syn::Expr::Call(_) | syn::Expr::MethodCall(_));
        visit::visit_expr_await(self, a);
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_expr_loop(&mut self, e: &'ast syn::ExprLoop) {
        let mut shape = Shape::default();
        shape.visit_block(&e.body);
        let failure_arms_exist = has_failure_arm(&e.body);
        if shape.success_exits > 0 && shape.other_exits == 0 && !shape.pauses && failure_arms_exist
        {
            self.0.push(e.loop_token.span.start().line as u32);
        }
        visit::visit_expr_loop(self, e);
    }
}

/// Whether the loop body handles a failure at all (an `Err`/`None`/`_` arm, an `if let Ok`
/// without else, an `is_ok()` test): otherwise it is not a retry loop.
fn has_failure_arm(block: &syn::Block) -> bool {
    struct Any(bool);
    impl<'ast> Visit<'ast> for Any {
        fn visit_arm(&mut self, a: &'ast syn::Arm) {
            self.0 |= is_failure_pat(&a.pat);
            visit::visit_arm(self, a);
        }
        fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
            self.0 |= match &*e.cond {
                syn::Expr::Let(l) => is_success_pat(&l.pat),
                syn::Expr::MethodCall(m) => m.method == "is_ok" || m.method == "is_some",
                _ => false,
            };
            visit::visit_expr_if(self, e);
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut any = Any(false);
    any.visit_block(block);
    any.0
}

/// Lines of `while True:` retry loops in Python: a `try:` whose body breaks or returns, handlers
/// that neither raise, break nor return, and no pause anywhere in the loop.
fn python(text: &str) -> Vec<u32> {
    let lines = lex(text, Language::Python);
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.code().trim() != "while True:" {
            continue;
        }
        let end = python_block_end(&lines, i);
        let body = &lines[i + 1..=end];
        let codes: Vec<String> = body.iter().map(|l| l.code()).collect();
        let pauses = codes.iter().any(|c| {
            let c = c.to_ascii_lowercase();
            PAUSES.iter().any(|p| c.contains(p))
        });
        let mut in_try = false;
        let mut in_except = false;
        let mut try_exits = false;
        let mut except_exits = false;
        let mut has_except = false;
        let base = indent_of(line.text);
        let inner = body
            .iter()
            .map(|l| indent_of(l.text))
            .filter(|i| *i > base)
            .min()
            .unwrap_or(base);
        for (l, code) in body.iter().zip(&codes) {
            let t = code.trim();
            if t.is_empty() {
                continue;
            }
            let at_inner = indent_of(l.text) == inner;
            if at_inner {
                in_try = t == "try:";
                in_except = t.starts_with("except");
                has_except |= in_except;
                if !in_try && !in_except && !t.starts_with("else") && !t.starts_with("finally") {
                    // A statement outside try/except in the loop: count its exits as bounds.
                    except_exits |= ["break", "return", "raise"]
                        .iter()
                        .any(|w| t.starts_with(w));
                }
                continue;
            }
            let exits = ["break", "return"].iter().any(|w| t.starts_with(w));
            if in_try {
                try_exits |= exits;
            } else if in_except || !in_try {
                except_exits |= exits
                    || t.starts_with("raise")
                    || t.contains("attempt")
                    || t.contains("retries");
            }
        }
        if has_except && try_exits && !except_exits && !pauses {
            found.push(line.number);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_hot_unbounded_retries() {
        let rust = "fn connect(addr: &str) -> TcpStream {\n    loop {\n        match TcpStream::connect(addr) {\n            Ok(s) => return s,\n            Err(e) => warn!(\"retrying: {e}\"),\n        }\n    }\n}\nasync fn fetch(c: &Client) -> Body {\n    loop {\n        if let Ok(b) = c.get().await {\n            break b;\n        }\n    }\n}\n";
        let found: Vec<u32> = hits(&RetryWithoutBackoff, "src/a.rs", rust)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(found, vec![2, 10]);
        let py = "def connect():\n    while True:\n        try:\n            return db.connect()\n        except ConnectionError:\n            log.warning('retry')\n";
        assert_eq!(
            hits(&RetryWithoutBackoff, "app/db.py", py),
            vec![(
                2,
                "retry loop with no backoff and no bound: on failure it retries at once, forever"
                    .to_string()
            )]
        );
    }

    #[test]
    fn quiet_with_a_pause_a_bound_or_no_retry_shape() {
        let rust = "async fn a(addr: &str) -> Result<TcpStream> {\n    let mut attempt = 0;\n    loop {\n        match TcpStream::connect(addr).await {\n            Ok(s) => return Ok(s),\n            Err(e) if attempt >= 5 => return Err(e),\n            Err(_) => attempt += 1,\n        }\n    }\n}\nasync fn b(addr: &str) -> TcpStream {\n    loop {\n        match TcpStream::connect(addr).await {\n            Ok(s) => return s,\n            Err(_) => tokio::time::sleep(Duration::from_secs(1)).await,\n        }\n    }\n}\nasync fn accept(l: &mut TcpListener) -> TcpStream {\n    loop {\n        match l.accept().await {\n            Ok(s) => return s,\n            Err(e) => handle_accept_error(e).await,\n        }\n    }\n}\nfn c(rx: Receiver<u8>) {\n    loop {\n        match rx.recv() {\n            Ok(m) => handle(m),\n            Err(_) => break,\n        }\n    }\n}\n";
        assert!(hits(&RetryWithoutBackoff, "src/a.rs", rust).is_empty());
        // A lexer reading to a closing quote; a retry whose failure path bails out.
        let walks = "fn lit(chars: &mut Chars) -> Result<String> {\n    let mut buf = String::new();\n    loop {\n        match chars.next() {\n            None => bail!(\"unclosed literal\"),\n            Some('\\'') => break,\n            Some(c) => buf.push(c),\n        }\n    }\n    Ok(buf)\n}\nfn d(addr: &str) -> Result<TcpStream> {\n    loop {\n        match TcpStream::connect(addr) {\n            Ok(s) => return Ok(s),\n            Err(e) if fatal(&e) => bail!(\"gave up: {e}\"),\n            Err(_) => continue,\n        }\n    }\n}\n";
        assert!(hits(&RetryWithoutBackoff, "src/b.rs", walks).is_empty());
        let cas = "fn incr(&self) {\n    let mut curr = self.0.load(Ordering::Acquire);\n    loop {\n        match self.0.compare_exchange(curr, curr + 1, Ordering::AcqRel, Ordering::Acquire) {\n            Ok(_) => return,\n            Err(actual) => curr = actual,\n        }\n    }\n}\nfn push(&self, n: &Node) {\n    loop {\n        if let Ok(_) = self.head.compare_exchange_weak(h, n, AcqRel, Acquire) {\n            break;\n        }\n    }\n}\n";
        assert!(hits(&RetryWithoutBackoff, "src/counter.rs", cas).is_empty());
        let py = "def connect():\n    while True:\n        try:\n            return db.connect()\n        except ConnectionError:\n            time.sleep(1)\n";
        assert!(hits(&RetryWithoutBackoff, "app/db.py", py).is_empty());
    }

    #[test]
    fn rust_files_without_a_loop_in_code_are_not_parsed() {
        use crate::rules::holistic::prefilter::wanted;
        assert!(wanted(&RetryWithoutBackoff, "fn f() {\n    loop {\n        if let Ok(v) = g() {\n            break v;\n        }\n    }\n}\n"));
        let mentioned =
            "// We loop until Ok.\nfn f() -> Result<()> {\n    log(\"loop\");\n    Ok(())\n}\n";
        assert!(!wanted(&RetryWithoutBackoff, mentioned));
    }
}
