//! `holistic/todo-macro`: `todo!()` and `unimplemented!()` outside test code — a code path that
//! panics the moment it is reached, shipped as if it were done.
//!
//! Only code counts: doc comments and their examples (`/// # unimplemented!()`, `//!` blocks)
//! are attributes, never macro calls. Doc-test support is not shipped behaviour either:
//! `#[doc(hidden)]` items (with the impls of `#[doc(hidden)]` types declared in the file) — stubs
//! the examples compile against — are skipped. A file whose leading comment only *says* it serves
//! doc tests still reports its calls, at Low and saying so: a comment the change itself can add
//! never makes a finding disappear. An `unimplemented!()` the code declares deliberate — a match
//! arm naming its case, a trait method the type does not support, a deprecated stub
//! (`declared.rs`) — refuses on purpose: Low. Hidden stubs and declared refusals are reported as
//! excused by the code ([`Hit::excuse`]) — suppressed, with the reason, unless the change under
//! review wrote that line.

use crate::engine::{Context, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::comments_at;
use crate::rules::holistic::prefilter::{code_has, Needle};
use crate::rules::library_code::excuse_in_maintainer_tools;
use crate::rules::line_hits::line_hit;
use crate::rules::lint_allowances;
use crate::rules::macro_calls::macro_calls_outside_tests;
use declared::Declared;
use protocol::{Category, Dimension, Severity};
use syn::spanned::Spanned;
use syn::visit::Visit;

mod declared;

/// The macros flagged.
const NAMES: [&str; 2] = ["todo", "unimplemented"];

static META: RuleMeta = RuleMeta {
    id: "holistic/todo-macro",
    category: Category::OperationalRisk,
    severity: Severity::Critical,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality, Dimension::ActionItems],
    explanation: "`todo!()`/`unimplemented!()` in non-test code: the path panics when reached",
};

/// Flags `todo!()` and `unimplemented!()` in non-test code.
pub(crate) struct TodoMacro;

impl Rule for TodoMacro {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// A gap in the maintainers' own tools (an unpublished program-only package) is theirs to
    /// hit, on inputs they choose.
    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        excuse_in_maintainer_tools(ctx, out);
    }

    /// A file of the project's own code (not a test, an example or documentation) invoking one
    /// of [`NAMES`] in code.
    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust)
            && !file.is_test_file()
            && !file.is_illustration()
            // A benchmark harness is never shipped: what it refuses to measure panics only there.
            && file.role != protocol::project::FileRole::Bench
            && code_has(file, &[Needle::Macro(&NAMES)])
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let doc_test_support = serves_doc_tests(&file.text);
        let (hidden, unsupported, unnameable) = match file.rust_ast() {
            Some(Ok(ast)) => {
                let mut declared = Declared::default();
                declared.visit_file(ast);
                (
                    hidden_ranges(&ast.items),
                    declared,
                    unnameable_impls(&ast.items),
                )
            }
            _ => (Vec::new(), Declared::default(), Vec::new()),
        };
        let within = |ranges: &[(u32, u32)], line: u32| {
            ranges
                .iter()
                .any(|(from, to)| (*from..=*to).contains(&line))
        };
        let allowed = lint_allowances::allowed(file, &NAMES);
        let lexed = file.lexed(Language::Rust);
        // A note right above the call that tracks the gap (`// TODO: … this will have to
        // wait`): its author knows the path is unfinished and said so where it is.
        let tracked = |line: u32| {
            comments_at(&lexed, line).iter().any(|c| {
                let said = c.body.to_lowercase();
                // A `retake-ignore` directive is a suppression of its own, with its own reason.
                !said.trim_start().starts_with("retake-ignore")
                    && TRACKING_WORDS.iter().any(|w| said.contains(w))
            })
        };
        for call in macro_calls_outside_tests(file, &NAMES) {
            if within(&unnameable, call.line) {
                continue;
            }
            let mut description = format!(
                "`{}!()` in non-test code panics when this path runs",
                call.name
            );
            if doc_test_support {
                description.push_str(" (the file's header says it serves doc tests)");
            }
            let mut hit = line_hit(file, call.line, description, &format!("{}!", call.name))
                .suggest("implement the path, or return an error the caller can handle");
            if doc_test_support {
                hit = hit.with_severity(Severity::Low);
            }
            if let Some(why) = unsupported.excuse(call.line) {
                hit = hit.with_severity(Severity::Low).excused(why);
            } else if lint_allowances::within(&allowed, call.line) {
                hit = hit.excused(
                    "the project allows it here (`#[allow]`/`#[expect]` of clippy's `todo`/`unimplemented`)",
                );
            } else if within(&hidden, call.line) {
                hit = hit.excused(
                    "a `#[doc(hidden)]` stub the documentation's examples compile against",
                );
            } else if tracked(call.line) {
                hit = hit.excused(
                    "the note right above it tracks the gap (a TODO or FIXME saying it waits): known to its author",
                );
            }
            out.hit(hit);
        }
    }
}

/// Words of a note that tracks unfinished work.
const TRACKING_WORDS: [&str; 6] = [
    "todo",
    "fixme",
    "later",
    "come back",
    "not yet",
    "tracked in",
];

/// The line ranges of impls, inside an anonymous `const _: () = { … };` block, of types declared
/// in that same block: nothing outside the block can name such a type, so no caller can reach
/// these methods — the block exists to be compiled (a build script's probe of the toolchain, a
/// static assertion), not run.
fn unnameable_impls(items: &[syn::Item]) -> Vec<(u32, u32)> {
    let mut ranges = Vec::new();
    for item in items {
        match item {
            syn::Item::Const(c) if c.ident == "_" => {
                let syn::Expr::Block(block) = &*c.expr else {
                    continue;
                };
                let inner: Vec<&syn::Item> = block
                    .block
                    .stmts
                    .iter()
                    .filter_map(|s| match s {
                        syn::Stmt::Item(i) => Some(i),
                        _ => None,
                    })
                    .collect();
                let local: Vec<String> = inner
                    .iter()
                    .filter_map(|i| match i {
                        syn::Item::Struct(s) => Some(s.ident.to_string()),
                        syn::Item::Enum(e) => Some(e.ident.to_string()),
                        _ => None,
                    })
                    .collect();
                for i in inner {
                    if let syn::Item::Impl(imp) = i {
                        if impl_target(imp).is_some_and(|t| local.contains(&t)) {
                            ranges.push((
                                imp.span().start().line as u32,
                                imp.span().end().line as u32,
                            ));
                        }
                    }
                }
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    ranges.extend(unnameable_impls(inner));
                }
            }
            _ => {}
        }
    }
    ranges
}

/// The last segment of the type an impl is for.
fn impl_target(i: &syn::ItemImpl) -> Option<String> {
    match &*i.self_ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// Whether the file's leading comment says it exists for doc tests.
fn serves_doc_tests(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .take_while(|l| l.starts_with("//") || l.is_empty())
        .any(|l| {
            let l = l.to_lowercase();
            ["doc test", "doctest", "doc-test"]
                .iter()
                .any(|w| l.contains(w))
        })
}

fn is_doc_hidden(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("doc")
            && matches!(&a.meta, syn::Meta::List(l) if l.tokens.to_string() == "hidden")
    })
}

/// The line ranges of `#[doc(hidden)]` items among `items` (nested modules included) and of
/// the impls of the `#[doc(hidden)]` types they declare.
fn hidden_ranges(items: &[syn::Item]) -> Vec<(u32, u32)> {
    use syn::spanned::Spanned;
    let hidden_types: Vec<String> = items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) if is_doc_hidden(&s.attrs) => Some(s.ident.to_string()),
            syn::Item::Enum(e) if is_doc_hidden(&e.attrs) => Some(e.ident.to_string()),
            _ => None,
        })
        .collect();
    let mut ranges = Vec::new();
    for item in items {
        let lines = || {
            let span = item.span();
            (span.start().line as u32, span.end().line as u32)
        };
        match item {
            syn::Item::Impl(i)
                if is_doc_hidden(&i.attrs)
                    || impl_target(i).is_some_and(|t| hidden_types.contains(&t)) =>
            {
                ranges.push(lines());
            }
            syn::Item::Fn(f) if is_doc_hidden(&f.attrs) => ranges.push(lines()),
            syn::Item::Mod(m) if is_doc_hidden(&m.attrs) => ranges.push(lines()),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    ranges.extend(hidden_ranges(inner));
                }
            }
            _ => {}
        }
    }
    ranges
}

#[cfg(test)]
mod tests;
