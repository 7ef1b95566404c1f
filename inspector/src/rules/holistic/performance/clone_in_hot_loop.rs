//! `holistic/clone-in-hot-loop`: an allocation (`.clone()`, `.to_string()`, `.to_owned()`,
//! `.to_vec()`, `format!`, `String::from`) inside the inner of two nested loops over the same
//! collection — a pairwise comparison that allocates n² times where borrowing or allocating
//! once per outer item would do.
//!
//! The "same collection" is read from the loops' iterables: `&items`, `items.iter()`,
//! `0..items.len()` and `i + 1..items.len()` all iterate `items`. Nested loops over different
//! collections are ordinary joins and are not flagged, and neither is an inner loop over what
//! an enclosing loop bound (`for reports in &[&a, &b] { for r in reports.iter() { … } }`
//! iterates each element, even when the name shadows a collection outside). Test code is
//! exempt.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::holistic::prefilter::{any_token_in_loops, LoopKind, Needle};
use crate::rules::holistic::syntax::{callee, line, path_ends_with, same_value_text};
use crate::rules::macro_calls::visit_macro_args;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use syn::visit::{self, Visit};

/// Methods that allocate a copy.
const ALLOCATING: [&str; 4] = ["clone", "to_string", "to_owned", "to_vec"];

/// The allocations [`Alloc`] finds, as tokens: an [`ALLOCATING`] method, `format!`, `String::`.
const ALLOCATIONS: [Needle<'static>; 3] = [
    Needle::Method(&ALLOCATING),
    Needle::Macro(&["format"]),
    Needle::PathHead(&["String"]),
];

static META: RuleMeta = RuleMeta {
    id: "holistic/clone-in-hot-loop",
    category: Category::Performance,
    severity: Severity::Low,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Performance],
    explanation: "Clones/allocations inside nested loops over the same collection: n² allocations",
};

/// Flags allocations in the inner loop of a pairwise iteration.
pub(crate) struct CloneInHotLoop;

impl Rule for CloneInHotLoop {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// Code with an allocation's tokens inside a `for` loop inside another one.
    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust)
            && Needle::Word(&["for"]).in_text(file)
            && ALLOCATIONS.iter().any(|n| n.in_text(file))
            && any_token_in_loops(file, |t, loops| {
                loops.count(LoopKind::For) >= 2 && ALLOCATIONS.iter().any(|n| n.matches(t))
            })
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(Ok(ast)) = file.rust_ast() else {
            return;
        };
        let mut finder = Finder {
            outer: Vec::new(),
            bound: Vec::new(),
            found: Vec::new(),
        };
        finder.visit_file(ast);
        if finder.found.is_empty() {
            return;
        }
        let tests = TestCode::of(file);
        for (l, what, collection) in finder
            .found
            .into_iter()
            .filter(|(l, _, _)| !tests.contains(*l))
        {
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, l),
                    format!("`{what}` inside nested loops over `{collection}`: it allocates once per pair, n² times"),
                    format!("alloc in pairwise loop over {collection}: {what}"),
                )
                .suggest("borrow instead, or allocate once per outer item before the inner loop"),
            );
        }
    }
}

/// What a `for` loop iterates, normalised to the collection; empty when it is not one whose
/// size grows with the input: a range not bounded by a length, or an array literal
/// (`&[&a, &b]` — two items however large the input, and its names may mean other values in
/// another loop).
fn collection(e: &syn::Expr) -> String {
    let literal = |e: &syn::Expr| matches!(e, syn::Expr::Array(_) | syn::Expr::Tuple(_));
    if literal(e) || matches!(e, syn::Expr::Reference(r) if literal(&r.expr)) {
        return String::new();
    }
    let e = match e {
        syn::Expr::Range(r) => match r.end.as_deref() {
            Some(syn::Expr::MethodCall(m)) if m.method == "len" => &*m.receiver,
            _ => return String::new(),
        },
        syn::Expr::MethodCall(m)
            if m.args.is_empty()
                && matches!(
                    m.method.to_string().as_str(),
                    "iter" | "iter_mut" | "into_iter"
                ) =>
        {
            &*m.receiver
        }
        other => other,
    };
    same_value_text(e)
}

struct Finder {
    /// Collections of the enclosing `for` loops, innermost last.
    outer: Vec<String>,
    /// The names the enclosing `for` loops' patterns bind.
    bound: Vec<String>,
    found: Vec<(u32, String, String)>,
}

/// The first allocation in an inner loop's body.
struct Alloc(Option<(u32, String)>);

impl<'ast> Visit<'ast> for Alloc {
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let name = m.method.to_string();
        if self.0.is_none() && m.args.is_empty() && ALLOCATING.contains(&name.as_str()) {
            self.0 = Some((line(m.method.span()), format!(".{name}()")));
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if self.0.is_none() && callee(c).is_some_and(|p| path_ends_with(&p, "String::from")) {
            if let syn::Expr::Path(p) = &*c.func {
                let at = p.path.segments.last().map_or(0, |s| line(s.ident.span()));
                self.0 = Some((at, "String::from".into()));
            }
        }
        visit::visit_expr_call(self, c);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if self.0.is_none()
            && mac
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "format")
        {
            self.0 = Some((line(mac.path.segments[0].ident.span()), "format!".into()));
        }
        visit_macro_args(self, mac);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        let this = collection(&f.expr);
        let root = this
            .trim_start_matches(['&', '*'])
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next()
            .unwrap_or_default();
        if !this.is_empty() && self.outer.contains(&this) && !self.bound.iter().any(|b| b == root) {
            let mut alloc = Alloc(None);
            alloc.visit_block(&f.body);
            if let Some((l, what)) = alloc.0 {
                self.found.push((l, what, this.clone()));
            }
        }
        let bound_before = self.bound.len();
        let mut names = Bound(&mut self.bound);
        names.visit_pat(&f.pat);
        self.outer.push(this);
        visit::visit_expr_for_loop(self, f);
        self.outer.pop();
        self.bound.truncate(bound_before);
    }

    fn visit_item(&mut self, i: &'ast syn::Item) {
        let outer = std::mem::take(&mut self.outer);
        let bound = std::mem::take(&mut self.bound);
        visit::visit_item(self, i);
        self.outer = outer;
        self.bound = bound;
    }
}

/// Collects the names a pattern binds.
struct Bound<'b>(&'b mut Vec<String>);

impl<'ast> Visit<'ast> for Bound<'_> {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.push(p.ident.to_string());
        visit::visit_pat_ident(self, p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use crate::rules::holistic::prefilter::wanted;

    #[test]
    fn fires_on_allocations_in_pairwise_loops() {
        let text = "fn pairs(users: &[User]) -> Vec<(String, String)> {\n    let mut out = Vec::new();\n    for a in users {\n        for b in users.iter() {\n            if a.team == b.team {\n                out.push((a.name.clone(), b.name.clone()));\n            }\n        }\n    }\n    for i in 0..users.len() {\n        for j in i + 1..users.len() {\n            let key = format!(\"{}-{}\", i, j);\n        }\n    }\n    out\n}\n";
        assert_eq!(
            hits(&CloneInHotLoop, "src/a.rs", text),
            vec![
                (6, "`.clone()` inside nested loops over `users`: it allocates once per pair, n² times".to_string()),
                (12, "`format!` inside nested loops over `users`: it allocates once per pair, n² times".to_string()),
            ]
        );
    }

    #[test]
    fn quiet_on_joins_of_different_collections_and_single_loops() {
        // Two loops over a two-item array literal whose names are rebound in between; an inner
        // loop over what the outer one bound, though a collection outside has its name.
        let literal = "fn print(langs: &[L]) {\n    let (a, b) = split(langs);\n    for langs in &[&a, &b] {\n        for lang in *langs {\n            let (a, b) = split(&lang.reports);\n            for reports in &[&a, &b] {\n                let n = lang.name.to_string();\n            }\n        }\n    }\n}\n";
        assert!(hits(&CloneInHotLoop, "src/a.rs", literal).is_empty());
        let shadowed = "fn print(reports: &[R]) {\n    for r in reports {\n        for reports in r.groups() {\n            for report in reports.iter() {\n                let n = report.name.to_string();\n            }\n        }\n    }\n}\n";
        assert!(hits(&CloneInHotLoop, "src/a.rs", shadowed).is_empty());
        let text = "fn join(orders: &[Order], users: &[User]) {\n    for o in orders {\n        for u in users {\n            let n = u.name.clone();\n        }\n        let s = o.id.to_string();\n    }\n    for u in users {\n        let n = u.name.clone();\n    }\n}\n";
        assert!(hits(&CloneInHotLoop, "src/a.rs", text).is_empty());
    }

    #[test]
    fn wants_an_allocation_inside_nested_for_loops_in_code() {
        let nested = "fn f(xs: &[X]) {\n    for a in xs {\n        for b in xs {\n            let n = b.name.clone();\n        }\n    }\n}\n";
        assert!(wanted(&CloneInHotLoop, nested));
        let sequential = "fn f(xs: &[X]) {\n    for a in xs {\n        let n = a.name.clone();\n    }\n    for b in xs {\n        let n = b.name.clone();\n    }\n}\n";
        assert!(!wanted(&CloneInHotLoop, sequential));
        let outside = "fn f(xs: &[X]) {\n    for a in xs {\n        let n = a.name.clone();\n        for b in xs {\n            check(a, b);\n        }\n    }\n}\n";
        assert!(!wanted(&CloneInHotLoop, outside));
        let commented = "// for a in xs { for b in xs { b.clone() } }\nimpl Tr for S {\n    fn f(xs: &[X]) {\n        for a in xs {\n            let s = \"for b in xs { format!() }\";\n        }\n    }\n}\n";
        assert!(!wanted(&CloneInHotLoop, commented));
    }
}
