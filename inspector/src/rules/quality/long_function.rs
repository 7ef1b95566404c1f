//! `quality/long-function`: functions longer than [`MAX_LINES`] lines of code (blank and
//! comment-only lines not counted). A function that long does several things; its parts deserve
//! names. Test code is exempt (table-driven tests are long by design).

use std::borrow::Cow;

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::functions::functions;
use crate::lexical::LexLine;
use crate::rules::test_code::TestCode;
use proc_macro2::Span;
use protocol::{Category, Dimension, Location, Severity};
use syn::visit::{self, Visit};

/// The most lines of code a function may have.
pub(crate) const MAX_LINES: usize = 80;

/// Functions by name, first and last line.
type Spans = Vec<(String, u32, u32)>;

static META: RuleMeta = RuleMeta {
    id: "quality/long-function",
    category: Category::Complexity,
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Maintainability],
    explanation: "Functions longer than 80 lines of code: split them into named steps",
};

/// Flags very long functions.
pub(crate) struct LongFunction;

impl Rule for LongFunction {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l))
            && !file.is_test_file()
            && file.text.lines().count() > MAX_LINES
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(lang) = file.language else {
            return;
        };
        let (lines, spans): (Cow<'_, [LexLine<'_>]>, Spans) = if lang == Language::Rust {
            let Some(Ok(ast)) = file.rust_ast() else {
                return;
            };
            let mut finder = RustFns(Vec::new());
            finder.visit_file(ast);
            // A function cannot have more lines of code than lines: most files are done
            // here, without scanning their text.
            if !finder
                .0
                .iter()
                .any(|(_, start, end)| span_lines(*start, *end) > MAX_LINES)
            {
                return;
            }
            (file.lexed(lang), finder.0)
        } else {
            let lines = file.lexed(lang);
            let spans = functions(&lines, lang)
                .into_iter()
                .map(|f| (f.name, f.start, f.end))
                .collect();
            (lines, spans)
        };
        let tests = (lang == Language::Rust).then(|| TestCode::of(file));
        for (name, start, end) in spans {
            if tests.as_ref().is_some_and(|t| t.contains(start)) {
                continue;
            }
            let length = code_lines(&lines, start, end);
            if length > MAX_LINES {
                let mut location = Location::at(&file.rel_path, start);
                location.end_line = Some(end);
                out.hit(
                    Hit::new(
                        location,
                        format!(
                            "function `{name}` has {length} lines of code (more than {MAX_LINES})"
                        ),
                        format!("long function {name}"),
                    )
                    .suggest("extract its steps into functions with names that say what they do"),
                );
            }
        }
    }
}

/// How many lines `start..=end` spans (what [`code_lines`] takes).
fn span_lines(start: u32, end: u32) -> usize {
    (end + 1).saturating_sub(start) as usize
}

/// Lines from `start` to `end` (1-based, inclusive) that hold code.
pub(crate) fn code_lines(lines: &[LexLine<'_>], start: u32, end: u32) -> usize {
    lines
        .iter()
        .skip(start.saturating_sub(1) as usize)
        .take(span_lines(start, end))
        .filter(|l| l.has_code())
        .count()
}

/// (name, first line, last line) of every Rust function with a body.
struct RustFns(Vec<(String, u32, u32)>);

impl RustFns {
    fn push(&mut self, name: &syn::Ident, first: Span, body: &syn::Block) {
        let (start, end) = fn_lines(first, body);
        self.0.push((name.to_string(), start, end));
    }
}

/// The first and last line of a function as [`syn::spanned::Spanned::span`] gives them — its
/// first token joined to its last, the body's braces — without printing the whole function
/// back to tokens to learn it (the rule asks it of every function of every file).
fn fn_lines(first: Span, body: &syn::Block) -> (u32, u32) {
    let end = body.brace_token.span.join().end().line;
    (first.start().line as u32, end as u32)
}

/// The span of a function's first token, in the order syn prints a function: its first outer
/// attribute (doc comments included), its visibility, `default`, then the signature's
/// `const`, `async`, `unsafe`, `extern` and `fn`.
fn first_token(
    attrs: &[syn::Attribute],
    vis: Option<&syn::Visibility>,
    defaultness: Option<Span>,
    sig: &syn::Signature,
) -> Span {
    let attr = attrs
        .iter()
        .find(|a| matches!(a.style, syn::AttrStyle::Outer))
        .map(|a| a.pound_token.span);
    let vis = match vis {
        Some(syn::Visibility::Public(p)) => Some(p.span),
        Some(syn::Visibility::Restricted(r)) => Some(r.pub_token.span),
        _ => None,
    };
    attr.or(vis)
        .or(defaultness)
        .or(sig.constness.map(|t| t.span))
        .or(sig.asyncness.map(|t| t.span))
        .or(sig.unsafety.map(|t| t.span))
        .or(sig.abi.as_ref().map(|a| a.extern_token.span))
        .unwrap_or(sig.fn_token.span)
}

impl<'ast> Visit<'ast> for RustFns {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let first = first_token(&f.attrs, Some(&f.vis), None, &f.sig);
        self.push(&f.sig.ident, first, &f.block);
        visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let default = f.defaultness.map(|d| d.span);
        let first = first_token(&f.attrs, Some(&f.vis), default, &f.sig);
        self.push(&f.sig.ident, first, &f.block);
        visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(body) = &f.default {
            let first = first_token(&f.attrs, None, None, &f.sig);
            self.push(&f.sig.ident, first, body);
        }
        visit::visit_trait_item_fn(self, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use syn::spanned::Spanned;

    /// (first, last) line of every function with a body, through `Spanned::span`.
    struct SpannedFns(Vec<(u32, u32)>);

    impl SpannedFns {
        fn push(&mut self, node: &impl Spanned) {
            let span = node.span();
            self.0
                .push((span.start().line as u32, span.end().line as u32));
        }
    }

    impl<'ast> Visit<'ast> for SpannedFns {
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            self.push(f);
            visit::visit_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            self.push(f);
            visit::visit_impl_item_fn(self, f);
        }
        fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
            if f.default.is_some() {
                self.push(f);
            }
            visit::visit_trait_item_fn(self, f);
        }
    }

    #[test]
    fn function_lines_are_the_ones_spanned_gives() {
        let text = "\
/// Doc.
///
/// More doc.
#[inline]
pub(crate) async unsafe fn a() {
    #![allow(unused)]
    fn nested() {}
}

fn b() {}

#[cfg(test)]
mod m {
    pub fn c(
        x: u8,
    ) -> u8
    where
        u8: Copy,
    {
        x
    }
}

trait T {
    /// Default body.
    fn d(&self) {
        let _ = 1;
    }
    fn e(&self);
}

impl T for () {
    #[doc = \"x\"]
    fn d(&self) {}
    pub const extern \"C\" fn f() {}
    unsafe fn g() {}
}

impl<A> T for A {
    default fn d(&self) {
    }
}
extern \"C\" fn h() {}
";
        let ast = syn::parse_file(text).expect("parses");
        let mut fast = RustFns(Vec::new());
        fast.visit_file(&ast);
        let mut spanned = SpannedFns(Vec::new());
        spanned.visit_file(&ast);
        let fast: Vec<(u32, u32)> = fast.0.iter().map(|(_, s, e)| (*s, *e)).collect();
        assert_eq!(fast, spanned.0);
        assert_eq!(fast.len(), 10);
        assert_eq!(fast[0], (1, 8));
    }

    fn body(n: usize, stmt: &str) -> String {
        (0..n).map(|i| stmt.replace('N', &i.to_string())).collect()
    }

    #[test]
    fn fires_on_functions_over_the_limit() {
        let rust = format!(
            "fn short() {{}}\npub fn long() {{\n{}\n    // a comment\n\n}}\n",
            body(81, "    let xN = N;\n")
        );
        assert_eq!(
            hits(&LongFunction, "src/a.rs", &rust),
            vec![(
                2,
                "function `long` has 83 lines of code (more than 80)".to_string()
            )]
        );
        let py = format!("def load(x):\n{}\n", body(90, "    x += N\n"));
        assert_eq!(hits(&LongFunction, "app/a.py", &py).len(), 1);
        let go = format!(
            "package a\n\nfunc Load() {{\n{}}}\n",
            body(85, "\tx := N\n")
        );
        assert_eq!(hits(&LongFunction, "a/a.go", &go).len(), 1);
    }

    #[test]
    fn quiet_at_the_limit_with_blank_lines_and_in_tests() {
        let rust = format!(
            "pub fn ok() {{\n{}\n\n\n\n{}}}\n",
            body(40, "    let xN = N;\n"),
            body(38, "    // note N\n    let yN = N;\n")
        );
        assert!(hits(&LongFunction, "src/a.rs", &rust).is_empty());
        let test = format!(
            "#[cfg(test)]\nmod tests {{\n    #[test]\n    fn t() {{\n{}    }}\n}}\n",
            body(100, "        let xN = N;\n")
        );
        assert!(hits(&LongFunction, "src/a.rs", &test).is_empty());
    }
}
