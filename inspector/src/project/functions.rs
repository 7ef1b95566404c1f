//! The named functions of a file with the lines they span and whether they are test code — one
//! finder for the whole workspace (the Lead's deep dive names the function around a finding
//! with it). Rust is parsed with syn: functions, methods and trait default methods; `#[test]`-
//! or `#[bench]`-style functions and everything inside a `#[cfg(test)]` module are test code.
//! Python, Go, JavaScript and TypeScript — and Rust that does not parse — are read at the text
//! level (`lexical/functions.rs`, comment- and string-aware): a Python `test*` function
//! and a Go `Test*`/`Benchmark*` one are test code. The innermost function wins.

use crate::engine::Language;
use crate::lexical::{functions as lexical, lex};
use serde::Serialize;
use syn::visit::Visit;

/// A named function and the lines it spans.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FnSpan {
    /// Its name.
    pub name: String,
    /// 1-based line of the header.
    pub start: u32,
    /// 1-based last line of the body.
    pub end: u32,
    /// Whether it is test code (a test function, or inside a Rust `#[cfg(test)]` module).
    pub test: bool,
}

impl FnSpan {
    /// Whether 1-based `line` lies inside it.
    pub fn contains(&self, line: u32) -> bool {
        self.start <= line && line <= self.end
    }
}

/// The named functions of a file, by its path's language (none for other files, and none for
/// a file beyond what the Inspectors analyse: syn would overflow the stack on it).
pub fn functions(path: &str, text: &str) -> Vec<FnSpan> {
    let Some(lang) = Language::of(path) else {
        return Vec::new();
    };
    if crate::engine::limits::check(text, lang).is_some() {
        return Vec::new();
    }
    if lang == Language::Rust {
        if let Ok(file) = syn::parse_file(text) {
            let mut fns = RustFns::default();
            fns.visit_file(&file);
            return fns.out;
        }
    }
    let lines = lex(text, lang);
    let found = match lang {
        Language::Rust => lexical::brace_functions(&lines, lang),
        _ => lexical::functions(&lines, lang),
    };
    found
        .into_iter()
        .map(|f| {
            let test = match lang {
                Language::Python => f.name.starts_with("test"),
                Language::Go => f.name.starts_with("Test") || f.name.starts_with("Benchmark"),
                Language::Rust => {
                    f.start > 1 && {
                        let above = lines[f.start as usize - 2].code();
                        above.trim_start().starts_with("#[test]")
                    }
                }
                _ => false,
            };
            FnSpan {
                name: f.name,
                start: f.start,
                end: f.end,
                test,
            }
        })
        .collect()
}

/// The innermost of `functions` around `line`.
pub fn innermost(functions: &[FnSpan], line: u32) -> Option<&FnSpan> {
    functions
        .iter()
        .filter(|f| f.contains(line))
        .max_by_key(|f| (f.start, std::cmp::Reverse(f.end)))
}

#[derive(Default)]
struct RustFns {
    out: Vec<FnSpan>,
    test_modules: usize,
}

impl RustFns {
    fn push(&mut self, sig: &syn::Signature, attrs: &[syn::Attribute], block: &syn::Block) {
        let test = self.test_modules > 0
            || attrs.iter().any(|a| {
                a.path()
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "test" || s.ident == "bench")
            });
        self.out.push(FnSpan {
            name: sig.ident.to_string(),
            start: line_of(sig.fn_token.span.start().line),
            end: line_of(block.brace_token.span.close().end().line),
            test,
        });
    }
}

fn line_of(line: usize) -> u32 {
    u32::try_from(line).unwrap_or(u32::MAX)
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| match &a.meta {
        syn::Meta::List(l) => l.path.is_ident("cfg") && l.tokens.to_string().trim() == "test",
        _ => false,
    })
}

impl<'ast> Visit<'ast> for RustFns {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.push(&f.sig, &f.attrs, &f.block);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.push(&f.sig, &f.attrs, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.push(&f.sig, &f.attrs, block);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let test = is_cfg_test(&m.attrs);
        self.test_modules += usize::from(test);
        syn::visit::visit_item_mod(self, m);
        self.test_modules -= usize::from(test);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(path: &str, text: &str) -> Vec<(String, u32, u32, bool)> {
        functions(path, text)
            .into_iter()
            .map(|f| (f.name, f.start, f.end, f.test))
            .collect()
    }

    #[test]
    fn rust_that_does_not_parse_is_read_as_text() {
        let text = "pub(crate) async fn load() {\n    let x = ;\n}\n#[test]\nfn loads() {\n    assert!(true);\n}\n";
        assert_eq!(
            shape("src/a.rs", text),
            vec![
                ("load".to_string(), 1, 3, false),
                ("loads".to_string(), 5, 7, true)
            ]
        );
        let inner = functions("src/a.rs", text);
        assert_eq!(innermost(&inner, 6).map(|f| f.name.as_str()), Some("loads"));
    }
}
