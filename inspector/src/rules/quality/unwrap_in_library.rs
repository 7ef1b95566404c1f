//! `quality/unwrap-in-library`: `.unwrap()` and `.expect(..)` in library code, where a failure
//! should be returned to the caller rather than abort the caller's program.
//!
//! Binaries, build scripts, examples, benchmarks and test code are exempt, and so is the
//! lock-poisoning idiom (`.lock().unwrap()`, `.read().unwrap()`, `.write().unwrap()` with no
//! arguments, and `.join().unwrap()`): a poisoned lock or a failed join means another thread
//! already panicked, and propagating that panic is the documented intent; so is an unwrap in a
//! function whose doc says it panics. `.expect(x)` counts only when `x` is a message (a string
//! literal, a reference or a macro such as `format!`), so parser methods named `expect` do not.
//! A provably infallible call with a comment saying why (on its line or just above it or its
//! statement, using one of [`JUSTIFICATIONS`]) is the project convention and stays quiet, and so
//! are the calls safe without one (`unwrap_context.rs`): a `write!`/`writeln!` into a `String`,
//! and a receiver the same function checked before (`if v.is_empty() { return … }`).

use super::caller_input::{bound_names, deciding_part, mentions, parameter_names, private_traits};
use super::unwrap_context::{
    caller_upholds, constant_input, guarded, helps_tests, input_dependent, is_lock_call,
    is_message, receiver_root, string_names, writes_into_string,
};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::comments_at;
use crate::rules::library_code::{
    drop_hits_in_proc_macro_crates, drop_hits_in_program_crates, is_library_file,
};
use crate::rules::lint_allowances;
use crate::rules::macro_calls::visit_macro_args;
use crate::rules::rust_docs::doc_text;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use std::collections::BTreeSet;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// Words that make a comment an infallibility argument ("cannot fail because ...").
const JUSTIFICATIONS: [&str; 12] = [
    "cannot",
    "can't",
    "never",
    "always",
    "infallible",
    "invariant",
    "guaranteed",
    "impossible",
    "checked",
    "validated",
    "because",
    "poison",
];

static META: RuleMeta = RuleMeta {
    id: "quality/unwrap-in-library",
    category: Category::ErrorHandlingDrift,
    severity: Severity::Medium,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality, Dimension::BestPractices],
    explanation: "`.unwrap()`/`.expect(..)` in a public library function on a parse, read or \
        write of what its caller passed: the caller's bad input panics instead of coming back \
        as an error",
};

static META_ASSUMED: RuleMeta = RuleMeta {
    id: "quality/unwrap-assumed",
    category: Category::ErrorHandlingDrift,
    severity: Severity::Medium,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality, Dimension::BestPractices],
    explanation: "`.unwrap()`/`.expect(..)` in library code on a value the code assumes is \
        there or valid (an internal invariant no comment argues, a value the crate built \
        itself, the environment): mostly deliberate in mature code",
};

/// Flags `.unwrap()` and `.expect(..)` in non-test library code: on the caller's input (a
/// parse, read or write, [`input_dependent`], of what a public function's parameters carry, by
/// name or through locals computed from them, `caller_input.rs`: the default profile's
/// `quality/unwrap-in-library`) or on the rest (`quality/unwrap-assumed`, pedantic). One detection, two rules, so each has its own
/// measured precision (PRECISION.md).
pub(crate) struct UnwrapInLibrary {
    /// Which of the two the rule reports: unwraps on input, or the others.
    pub(crate) on_input: bool,
}

impl UnwrapInLibrary {
    /// `quality/unwrap-in-library`.
    pub(crate) const ON_INPUT: UnwrapInLibrary = UnwrapInLibrary { on_input: true };
    /// `quality/unwrap-assumed`.
    pub(crate) const ASSUMED: UnwrapInLibrary = UnwrapInLibrary { on_input: false };
}

impl Rule for UnwrapInLibrary {
    fn meta(&self) -> &'static RuleMeta {
        if self.on_input {
            &META
        } else {
            &META_ASSUMED
        }
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language == Some(Language::Rust)
            && (file.text.contains(".unwrap()") || file.text.contains(".expect("))
            && is_library_file(file)
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        drop_hits_in_program_crates(ctx, out);
        drop_hits_in_proc_macro_crates(ctx, out);
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(Ok(ast)) = file.rust_ast() else {
            return;
        };
        let mut finder = Finder {
            strings: string_names(ast),
            private_traits: private_traits(ast),
            ..Finder::default()
        };
        finder.visit_file(ast);
        if finder.found.is_empty() {
            return;
        }
        let tests = TestCode::of(file);
        let lines: Vec<&str> = file.lines().collect();
        let lexed = file.lexed(Language::Rust);
        let justified = |line: u32| {
            comments_at(&lexed, line).iter().any(|c| {
                let body = c.body.to_lowercase();
                JUSTIFICATIONS.iter().any(|w| body.contains(w))
            })
        };
        // (statement, call, first line, key, the statement's other lines).
        let mut kept: Vec<(u32, &str, u32, String, Vec<u32>)> = Vec::new();
        for Call {
            line,
            method,
            statement,
            root,
            function,
            input,
        } in finder.found
        {
            if input != self.on_input
                || tests.contains(line)
                || justified(line)
                || justified(statement)
            {
                continue;
            }
            let before = lines
                .get(function.saturating_sub(1) as usize..line as usize)
                .unwrap_or_default();
            if root.is_some_and(|r| guarded(before, &r)) {
                continue;
            }
            let snippet = (line as usize)
                .checked_sub(1)
                .and_then(|i| lines.get(i))
                .map_or("", |l| l.trim());
            let call = if method == "unwrap" {
                ".unwrap()"
            } else {
                ".expect(..)"
            };
            // One statement that unwraps several values (`Ok(V(a.unwrap(), b.unwrap()))`)
            // is one problem: one finding, at its first unwrap, naming the others' lines.
            match kept.last_mut() {
                Some(last) if last.0 == statement && last.1 == call => last.4.push(line),
                _ => kept.push((
                    statement,
                    call,
                    line,
                    format!("{call} {snippet}"),
                    Vec::new(),
                )),
            }
        }
        let allowed = lint_allowances::allowed(file, &["unwrap_used", "expect_used"]);
        for (_, call, line, key, more) in kept {
            let also = match more.as_slice() {
                [] => String::new(),
                lines => format!(
                    " (and in the same statement on line{} {})",
                    if lines.len() == 1 { "" } else { "s" },
                    lines
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            let hit = Hit::new(
                Location::at(&file.rel_path, line),
                format!("`{call}` in library code panics on `None`/`Err` instead of returning an error{also}"),
                key,
            )
            .suggest("return the error (`?`, `ok_or`, a typed error) and let the caller decide");
            out.hit(if lint_allowances::within(&allowed, line) {
                hit.excused("the project allows it here (`#[allow]`/`#[expect]` of clippy's `unwrap_used`/`expect_used`)")
            } else {
                hit
            });
        }
    }
}

/// One flagged call.
struct Call {
    /// 1-based line of the method name.
    line: u32,
    /// `unwrap` or `expect`.
    method: String,
    /// First line of the enclosing statement, or the call's own line outside statements.
    statement: u32,
    /// The name the receiver chain starts from, when it is a name or field path.
    root: Option<String>,
    /// First line of the enclosing function (1 outside functions).
    function: u32,
    /// Whether what is unwrapped depends on input ([`input_dependent`]).
    input: bool,
}

#[derive(Default)]
struct Finder {
    /// Each flagged call.
    found: Vec<Call>,
    /// The names the file binds to a `String`.
    strings: BTreeSet<String>,
    /// The traits the file declares private ([`private_traits`]).
    private_traits: BTreeSet<String>,
    /// The functions being visited, innermost last.
    functions: Vec<Scope>,
    /// Whether each `impl` block being visited implements a trait, innermost last.
    impls: Vec<bool>,
    /// The calls (indexes into `found`) whose innermost enclosing statement is still being
    /// visited: they get its first line when its visit ends (a statement's span joins all its
    /// tokens, so it is worked out only for statements holding a call).
    waiting: Vec<usize>,
    /// How many statements are being visited.
    depth: usize,
}

/// One function being visited.
struct Scope {
    /// Its first line.
    start: u32,
    /// Whether its doc says it panics.
    panics: bool,
    /// Whether callers outside the crate reach it: `pub`, a trait's method or a trait impl's.
    public: bool,
    /// Its parameters and the locals computed from them so far ([`caller_input`]).
    from_caller: BTreeSet<String>,
}

impl Finder {
    fn in_function(
        &mut self,
        sig: &syn::Signature,
        attrs: &[syn::Attribute],
        public: bool,
        walk: impl FnOnce(&mut Self),
    ) {
        let doc = doc_text(attrs).to_lowercase();
        self.functions.push(Scope {
            start: sig.fn_token.span.start().line as u32,
            panics: doc.contains("panic")
                || helps_tests(&sig.ident.to_string(), &doc)
                || caller_upholds(&sig.ident.to_string(), attrs),
            public,
            from_caller: parameter_names(sig),
        });
        walk(self);
        self.functions.pop();
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let public = matches!(f.vis, syn::Visibility::Public(_));
        self.in_function(&f.sig, &f.attrs, public, |v| visit::visit_item_fn(v, f));
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        // An impl of a trait callers outside the crate can name: a public or foreign one.
        let reachable = i.trait_.as_ref().is_some_and(|(_, path, _)| {
            path.segments
                .last()
                .is_some_and(|s| !self.private_traits.contains(&s.ident.to_string()))
        });
        self.impls.push(reachable);
        visit::visit_item_impl(self, i);
        self.impls.pop();
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let public =
            matches!(f.vis, syn::Visibility::Public(_)) || self.impls.last() == Some(&true);
        self.in_function(&f.sig, &f.attrs, public, |v| {
            visit::visit_impl_item_fn(v, f)
        });
    }

    /// A trait's provided method (`fn to_uri(&self) -> Uri { … }`), with its doc.
    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.in_function(&f.sig, &f.attrs, true, |v| visit::visit_trait_item_fn(v, f));
    }

    /// `let value = text.trim();` computes `value` from the caller's `text`.
    fn visit_local(&mut self, local: &'ast syn::Local) {
        visit::visit_local(self, local);
        if let (Some(scope), Some(init)) = (self.functions.last_mut(), &local.init) {
            if mentions(&init.expr, &scope.from_caller) {
                bound_names(&local.pat, &mut scope.from_caller);
            }
        }
    }

    fn visit_stmt(&mut self, stmt: &'ast syn::Stmt) {
        let mark = self.waiting.len();
        self.depth += 1;
        visit::visit_stmt(self, stmt);
        self.depth -= 1;
        if self.waiting.len() > mark {
            let line = stmt.span().start().line as u32;
            for call in self.waiting.drain(mark..) {
                self.found[call].statement = line;
            }
        }
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        let name = call.method.to_string();
        let flagged = match name.as_str() {
            "unwrap" => call.args.is_empty() && !is_lock_call(&call.receiver),
            "expect" => {
                call.args.len() == 1 && is_message(&call.args[0]) && !is_lock_call(&call.receiver)
            }
            _ => false,
        };
        let safe = writes_into_string(&call.receiver, &self.strings)
            || constant_input(&call.receiver)
            || (name == "expect" && call.args.first().is_some_and(states_invariant));
        let scope = self.functions.last();
        let documented = scope.is_some_and(|s| s.panics);
        if flagged && !safe && !documented {
            let line = call.method.span().start().line as u32;
            if self.depth > 0 {
                self.waiting.push(self.found.len());
            }
            self.found.push(Call {
                line,
                method: name,
                statement: line,
                root: receiver_root(&call.receiver),
                function: scope.map_or(1, |s| s.start),
                // On the caller's input: a parse, read or write of what a public function's
                // caller passed; the same calls on what the crate built are assumptions.
                input: input_dependent(&call.receiver)
                    && scope.is_some_and(|s| {
                        s.public && mentions(&deciding_part(&call.receiver), &s.from_caller)
                    }),
            });
        }
        visit::visit_expr_method_call(self, call);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit_macro_args(self, mac);
    }
}

/// Whether an `expect` message states why the call cannot fail (`"built-in rules always
/// compile"`, `"regex shouldn't fail"`): the invariant is documented where it is relied on.
fn states_invariant(arg: &syn::Expr) -> bool {
    let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(s),
        ..
    }) = arg
    else {
        return false;
    };
    let message = s.value().to_lowercase();
    JUSTIFICATIONS
        .iter()
        .chain(&["shouldn't", "should not"])
        .any(|w| message.contains(w))
}

#[cfg(test)]
mod tests;
