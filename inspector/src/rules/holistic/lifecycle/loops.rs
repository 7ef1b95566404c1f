//! Which loops run "for as long as the program does": the shape the lifecycle rules need,
//! because growth or unbounded buffering in a loop that ends is bounded by that loop.

use syn::visit::{self, Visit};

/// Whether a `loop { .. }` is long-running: nothing in its body leaves it (`break` that targets
/// it, `return`). `?` does not count: it leaves only on failure, and the success path loops on.
fn loop_never_exits(l: &syn::ExprLoop) -> bool {
    let label = l.label.as_ref().map(|lb| lb.name.ident.to_string());
    let mut exits = Exits {
        label,
        depth: 0,
        found: false,
    };
    exits.visit_block(&l.body);
    !exits.found
}

/// Whether a `while let` consumes an event source (`rx.recv()`, `listener.accept()`, awaited
/// or not, or an awaited `stream.next()`) and never leaves early: it runs as long as the source.
/// A plain `iter.next()` walks a finite collection and is not one.
fn while_consumes_events(w: &syn::ExprWhile) -> bool {
    let syn::Expr::Let(l) = &*w.cond else {
        return false;
    };
    let (scrutinee, awaited) = match &*l.expr {
        syn::Expr::Await(a) => (&*a.base, true),
        other => (other, false),
    };
    let source = matches!(scrutinee, syn::Expr::MethodCall(m)
        if matches!(m.method.to_string().as_str(), "recv" | "accept" | "message" | "recv_async")
            || (awaited && m.method == "next"));
    let label = w.label.as_ref().map(|lb| lb.name.ident.to_string());
    let mut exits = Exits {
        label,
        depth: 0,
        found: false,
    };
    exits.visit_block(&w.body);
    source && !exits.found
}

/// Whether a `for` iterates an endless source: `listener.incoming()`.
fn for_over_endless(f: &syn::ExprForLoop) -> bool {
    matches!(&*f.expr, syn::Expr::MethodCall(m) if m.method == "incoming")
}

/// Whether `e` is a loop of any kind that runs for as long as the program does.
pub(crate) fn is_long_running(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Loop(l) => loop_never_exits(l),
        syn::Expr::While(w) => while_consumes_events(w),
        syn::Expr::ForLoop(f) => for_over_endless(f),
        _ => false,
    }
}

/// The `visit_expr` of a visitor that must know whether it is inside a long-running loop:
/// walks `e`, counted in the visitor's field `depth` while inside it when it is one.
pub(crate) fn visit_counting_long_loops<'ast, V: Visit<'ast>>(
    visitor: &mut V,
    e: &'ast syn::Expr,
    depth: fn(&mut V) -> &mut u32,
) {
    let long = u32::from(is_long_running(e));
    *depth(visitor) += long;
    visit::visit_expr(visitor, e);
    *depth(visitor) -= long;
}

struct Exits {
    label: Option<String>,
    /// Nesting of inner loops (their unlabeled breaks are theirs).
    depth: u32,
    found: bool,
}

impl Exits {
    fn inner(&mut self, walk: impl FnOnce(&mut Self)) {
        self.depth += 1;
        walk(self);
        self.depth -= 1;
    }
}

impl<'ast> Visit<'ast> for Exits {
    fn visit_expr_break(&mut self, b: &'ast syn::ExprBreak) {
        let targets_us = match &b.label {
            Some(l) => self.label.as_deref() == Some(&l.ident.to_string()),
            None => self.depth == 0,
        };
        self.found |= targets_us;
        visit::visit_expr_break(self, b);
    }

    fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
        self.found = true;
        visit::visit_expr_return(self, r);
    }

    fn visit_expr_loop(&mut self, e: &'ast syn::ExprLoop) {
        self.inner(|v| visit::visit_expr_loop(v, e));
    }

    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.inner(|v| visit::visit_expr_while(v, e));
    }

    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.inner(|v| visit::visit_expr_for_loop(v, e));
    }

    // A closure's or async block's `return` leaves it, not the loop.
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}

    fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}
