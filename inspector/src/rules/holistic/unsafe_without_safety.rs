//! `holistic/unsafe-without-safety`: an `unsafe` block, fn or impl with no `// SAFETY:` comment
//! saying why it is sound — the convention rustc, clippy (`undocumented_unsafe_blocks`) and the
//! standard library follow, and the only record a reviewer has of the invariant being relied on.
//!
//! The comment may sit on the same line or in the comment lines just above (attributes in between
//! are fine, a blank line is not), either above the `unsafe` keyword or above the statement that
//! contains it. An `unsafe fn` may instead carry a `# Safety` section in its doc comment.
//! Test code is exempt: its unsafe code exercises the library's, whose comments count.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::{comments_at, LexLine};
use crate::rules::holistic::prefilter::{code_has, Needle};
use crate::rules::macro_calls::visit_macro_args;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

static META: RuleMeta = RuleMeta {
    id: "holistic/unsafe-without-safety",
    category: Category::OperationalRisk,
    severity: Severity::High,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Security],
    explanation: "`unsafe` block/fn/impl without a `// SAFETY:` comment explaining why it is sound",
};

/// Flags `unsafe` code without a safety comment.
pub(crate) struct UnsafeWithoutSafety;

impl Rule for UnsafeWithoutSafety {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// The keyword `unsafe` in code.
    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust) && code_has(file, &[Needle::Word(&["unsafe"])])
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(Ok(ast)) = file.rust_ast() else {
            return;
        };
        let mut finder = Finder::default();
        finder.visit_file(ast);
        if finder.found.is_empty() {
            return;
        }
        let lines = file.lexed(Language::Rust);
        let tests = TestCode::of(file);
        for site in finder.found {
            let justified =
                site.documented || site.anchors.iter().any(|&l| has_safety_comment(&lines, l));
            if justified || tests.contains(site.line) {
                continue;
            }
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, site.line),
                    format!(
                        "`unsafe` {} without a `// SAFETY:` comment saying why it is sound",
                        site.kind
                    ),
                    format!("unsafe {} in {}", site.kind, site.owner),
                )
                .suggest("add a `// SAFETY:` comment naming the invariants that make this sound"),
            );
        }
    }
}

/// One `unsafe` site.
struct Site {
    /// `block`, `fn`, `impl`.
    kind: &'static str,
    /// Line of the `unsafe` keyword.
    line: u32,
    /// Lines whose same-line or preceding comments may justify it.
    anchors: Vec<u32>,
    /// An `unsafe fn` with a `# Safety` doc section.
    documented: bool,
    /// The enclosing item, for the fingerprint.
    owner: String,
}

#[derive(Default)]
struct Finder {
    found: Vec<Site>,
    /// The sites (indexes into `found`) whose innermost enclosing statement is still being
    /// visited: its first line becomes their last anchor when its visit ends (a statement's span
    /// joins all its tokens, so it is worked out only for statements holding a site).
    waiting: Vec<usize>,
    /// How many statements are being visited.
    depth: usize,
    owner: String,
}

impl Finder {
    fn site(&mut self, kind: &'static str, line: u32, start: u32, documented: bool) {
        let anchors = vec![line, start];
        if self.depth > 0 {
            self.waiting.push(self.found.len());
        }
        self.found.push(Site {
            kind,
            line,
            anchors,
            documented,
            owner: self.owner.clone(),
        });
    }

    /// A function's site if it is `unsafe`; `item` is the whole function, for its first line.
    fn function(&mut self, sig: &syn::Signature, attrs: &[syn::Attribute], item: &impl Spanned) {
        if let Some(token) = sig.unsafety {
            let line = token.span.start().line as u32;
            let start = item.span().start().line as u32;
            self.site("fn", line, start, has_safety_doc(attrs));
        }
    }

    fn owned(&mut self, owner: String, walk: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.owner, owner);
        walk(self);
        self.owner = outer;
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_stmt(&mut self, stmt: &'ast syn::Stmt) {
        let mark = self.waiting.len();
        self.depth += 1;
        visit::visit_stmt(self, stmt);
        self.depth -= 1;
        if self.waiting.len() > mark {
            let line = stmt.span().start().line as u32;
            for site in self.waiting.drain(mark..) {
                self.found[site].anchors.push(line);
            }
        }
    }

    fn visit_expr_unsafe(&mut self, e: &'ast syn::ExprUnsafe) {
        let line = e.unsafe_token.span.start().line as u32;
        self.site("block", line, line, false);
        visit::visit_expr_unsafe(self, e);
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.function(&f.sig, &f.attrs, f);
        self.owned(f.sig.ident.to_string(), |v| visit::visit_item_fn(v, f));
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.function(&f.sig, &f.attrs, f);
        self.owned(f.sig.ident.to_string(), |v| visit::visit_impl_item_fn(v, f));
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.function(&f.sig, &f.attrs, f);
        self.owned(f.sig.ident.to_string(), |v| {
            visit::visit_trait_item_fn(v, f)
        });
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if let Some(token) = i.unsafety {
            let line = token.span.start().line as u32;
            self.site("impl", line, i.span().start().line as u32, false);
        }
        let owner = match &*i.self_ty {
            syn::Type::Path(p) => p
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default(),
            _ => String::new(),
        };
        self.owned(owner, |v| visit::visit_item_impl(v, i));
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit_macro_args(self, mac);
    }
}

/// Whether doc attributes hold a `# Safety` section.
fn has_safety_doc(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("doc")
            && matches!(&a.meta, syn::Meta::NameValue(nv)
                if matches!(&nv.value, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })
                    if s.value().trim_start().to_lowercase().starts_with("# safety")))
    })
}

/// Whether 1-based `line` carries a safety comment, or the comment lines just above do.
fn has_safety_comment(lines: &[LexLine<'_>], line: u32) -> bool {
    comments_at(lines, line).iter().any(|c| {
        let body = c.body.to_lowercase();
        body.contains("safety:") || body.trim_start().starts_with("# safety")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use crate::rules::holistic::prefilter::wanted;

    #[test]
    fn fires_on_undocumented_unsafe_blocks_fns_and_impls() {
        let text = "// Reads the header.\nfn read(p: *const u8) -> u8 {\n    let v = unsafe { *p };\n    v\n}\npub unsafe fn raw() {}\n\nunsafe impl Send for Handle {}\nfn call() {\n    let n = compute(\n        unsafe { ffi::len() },\n    );\n}\n";
        assert_eq!(
            hits(&UnsafeWithoutSafety, "src/ffi.rs", text),
            vec![
                (
                    3,
                    "`unsafe` block without a `// SAFETY:` comment saying why it is sound"
                        .to_string()
                ),
                (
                    6,
                    "`unsafe` fn without a `// SAFETY:` comment saying why it is sound".to_string()
                ),
                (
                    8,
                    "`unsafe` impl without a `// SAFETY:` comment saying why it is sound"
                        .to_string()
                ),
                (
                    11,
                    "`unsafe` block without a `// SAFETY:` comment saying why it is sound"
                        .to_string()
                ),
            ]
        );
    }

    #[test]
    fn quiet_when_a_safety_comment_or_doc_section_is_there() {
        let text = "fn read(p: *const u8) -> u8 {\n    // SAFETY: `p` comes from a live Box, never null.\n    let v = unsafe { *p };\n    let w = unsafe { *p }; // SAFETY: as above\n    v + w\n}\n/// Frees it.\n///\n/// # Safety\n/// `p` must come from `alloc`.\npub unsafe fn free(p: *mut u8) {}\n// SAFETY: the handle is only used behind a Mutex.\n#[allow(unused)]\nunsafe impl Send for Handle {}\nfn call() {\n    // SAFETY: ffi::len has no preconditions.\n    let n = compute(\n        unsafe { ffi::len() },\n    );\n}\nconst S: &str = \"unsafe { }\";\n#[cfg(test)]\nmod tests {\n    fn t() { let v = unsafe { *P }; }\n}\n";
        assert!(hits(&UnsafeWithoutSafety, "src/ffi.rs", text).is_empty());
    }

    #[test]
    fn wants_the_unsafe_keyword_in_code() {
        assert!(wanted(
            &UnsafeWithoutSafety,
            "fn f(p: *const u8) -> u8 {\n    unsafe { *p }\n}\n"
        ));
        let mentioned = "#![forbid(unsafe_code)]\n/// No unsafe here.\nfn f() {\n    log(\"unsafe\"); // unsafe\n}\n";
        assert!(!wanted(&UnsafeWithoutSafety, mentioned));
    }
}
