//! `consistency/duplicated-logic`: the same function body in two modules (features): logic
//! copied from one feature into another, so a fix to one copy misses the other. Copies within
//! one module are the quality Inspector's `duplicated-block`.
//!
//! Rust bodies are compared token for token (formatting and comments ignored; names of the
//! functions may differ); Python, Go, TypeScript and JavaScript bodies line by line, normalised.
//! Only bodies of at least [`MIN_LINES`] lines of code count: short helpers (getters,
//! conversions, `Display` impls) are alike by nature. Library code only; one finding per copy.

use super::module::{library_modules, NOTHING_TO_COMPARE};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile, TreeUse};
use crate::lexical::functions::functions;
use crate::rules::library_code::is_library_file;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use quote::ToTokens;
use std::collections::HashMap;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// The fewest lines of code a body needs to count as logic.
pub(crate) const MIN_LINES: u32 = 6;

static META: RuleMeta = RuleMeta {
    id: "consistency/duplicated-logic",
    category: Category::DuplicatedLogic,
    severity: Severity::Medium,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Maintainability, Dimension::Architecture],
    explanation: "The same function body in two modules (features): copied logic that drifts apart",
};

/// Flags function bodies copied across modules.
pub(crate) struct DuplicatedLogic;

/// A function body: (module, path, line, function name).
type Body = (String, String, u32, String);

impl Rule for DuplicatedLogic {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn tree_use(&self) -> TreeUse {
        TreeUse::Items
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l)) && is_library_file(file)
    }

    /// Reads one file's function bodies in the (parallel) file pass, where its tree is at
    /// hand; they are compared across modules in `check_project`.
    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        out.keep((file.rel_path.clone(), bodies(file)));
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let mut kept = out.kept_by_path::<Vec<(String, u32, String)>>(ctx, self);
        let Some(files) = library_modules(ctx) else {
            out.note(NOTHING_TO_COMPARE);
            return;
        };
        let mut first: HashMap<String, Body> = HashMap::new();
        for (file, module) in files {
            for (key, line, name) in kept.remove(&file.rel_path).unwrap_or_default() {
                let Some(original) = first.get(&key) else {
                    first.insert(key, (module.clone(), file.rel_path.clone(), line, name));
                    continue;
                };
                if original.0 == module {
                    continue;
                }
                out.hit(
                    Hit::new(
                        Location::at(&file.rel_path, line),
                        format!(
                            "the body of `{name}` repeats `{}` in {} (module `{}`)",
                            original.3, original.1, original.0
                        ),
                        format!("duplicated logic {name} = {}", original.1),
                    )
                    .suggest(
                        "move the logic into one shared module and call it from both features",
                    ),
                );
            }
        }
    }
}

/// (normalised body, line, name) of each long-enough function outside test code.
fn bodies(file: &SourceFile) -> Vec<(String, u32, String)> {
    let Some(lang) = file.language else {
        return Vec::new();
    };
    if lang == Language::Rust {
        let Some(Ok(ast)) = file.rust_items() else {
            return Vec::new();
        };
        let tests = TestCode::of(file);
        let mut finder = RustBodies(Vec::new());
        finder.visit_file(ast);
        return finder
            .0
            .into_iter()
            .filter(|(_, line, _)| !tests.contains(*line))
            .collect();
    }
    let lines = file.lexed(lang);
    functions(&lines, lang)
        .into_iter()
        .filter_map(|f| {
            let body: Vec<String> = lines[f.start as usize..f.end as usize]
                .iter()
                .map(|l| l.code().split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|l| l.chars().filter(|c| c.is_alphanumeric()).count() >= 2)
                .collect();
            (body.len() as u32 >= MIN_LINES).then(|| (body.join("\n"), f.start, f.name))
        })
        .collect()
}

struct RustBodies(Vec<(String, u32, String)>);

impl RustBodies {
    fn push(&mut self, ident: &syn::Ident, block: &syn::Block) {
        let span = block.span();
        let code_lines = span
            .end()
            .line
            .saturating_sub(span.start().line)
            .saturating_sub(1) as u32;
        if code_lines >= MIN_LINES {
            let mut key = String::new();
            token_key(block.to_token_stream(), &mut key);
            self.0
                .push((key, ident.span().start().line as u32, ident.to_string()));
        }
    }
}

/// The tokens of a body one after the other, each followed by a space: formatting, comments
/// and the spacing of punctuation (`x?.y` or `x? .y`) play no part, and a body kept as tokens
/// (`SourceFile::rust_items`) reads the same as a parsed one.
fn token_key(tokens: proc_macro2::TokenStream, out: &mut String) {
    use proc_macro2::{Delimiter, TokenTree};
    for token in tokens {
        match token {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    Delimiter::Brace => ("{ ", "} "),
                    Delimiter::Parenthesis => ("( ", ") "),
                    Delimiter::Bracket => ("[ ", "] "),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                token_key(group.stream(), out);
                out.push_str(close);
            }
            TokenTree::Punct(p) => {
                out.push(p.as_char());
                out.push(' ');
            }
            other => {
                out.push_str(&other.to_string());
                out.push(' ');
            }
        }
    }
}

impl<'ast> Visit<'ast> for RustBodies {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.push(&f.sig.ident, &f.block);
        visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.push(&f.sig.ident, &f.block);
        visit::visit_impl_item_fn(self, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::project_fixture::project_hits;

    fn run(files: &[(&str, &str)]) -> Vec<(String, u32, String)> {
        project_hits(&DuplicatedLogic, files)
    }

    const BODY: &str = "{\n    let mut total = 0;\n    for item in &order.items {\n        total += item.price * item.qty;\n    }\n    if total > 10_000 {\n        total -= total / 10;\n    }\n    total\n}\n";

    #[test]
    fn fires_on_a_body_copied_into_another_module() {
        let found = run(&[
            (
                "billing/src/lib.rs",
                &format!("pub fn invoice_total(order: &Order) -> u64 {BODY}"),
            ),
            (
                "shipping/src/lib.rs",
                &format!(
                    "/// Total for the label.\npub fn label_total(order: &Order) -> u64 {BODY}"
                ),
            ),
        ]);
        assert_eq!(
            found,
            vec![(
                "shipping/src/lib.rs".to_string(),
                2,
                "the body of `label_total` repeats `invoice_total` in billing/src/lib.rs (module `billing`)".to_string()
            )]
        );
        let py_body = "    total = 0\n    for item in order.items:\n        total += item.price * item.qty\n    if total > 10000:\n        total -= total // 10\n    log.info('total %s', total)\n    return total\n";
        let py = run(&[
            (
                "billing/total.py",
                &format!("def invoice_total(order):\n{py_body}"),
            ),
            (
                "shipping/total.py",
                &format!("def label_total(order):\n{py_body}"),
            ),
        ]);
        assert_eq!(py.len(), 1);
    }

    #[test]
    fn quiet_on_short_bodies_one_module_and_different_logic() {
        let short = "{\n    self.id\n}\n";
        let found = run(&[
            ("billing/src/lib.rs", &format!("pub fn id(&self) -> u64 {short}pub fn a(order: &Order) -> u64 {BODY}pub fn b(order: &Order) -> u64 {BODY}")),
            ("shipping/src/lib.rs", &format!("pub fn id(&self) -> u64 {short}pub fn c(order: &Order) -> u64 {}", BODY.replace("10_000", "20_000"))),
        ]);
        assert!(found.is_empty());
    }
}
