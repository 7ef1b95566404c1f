//! Seeing into macro invocations. syn keeps a macro's arguments as raw tokens, so a visitor
//! never sees the `x.unwrap()` in `println!("{}", x.unwrap())`. Most macros in real code take
//! comma-separated expressions (`format!`, `vec![..]`, `assert_eq!`, `write!`), so their
//! arguments are parsed as such and visited like any other expression; bodies that are not
//! expression lists (`macro_rules!`, DSLs) stay opaque.

use crate::engine::SourceFile;
use crate::rules::line_hits::outside_tests;
use syn::punctuated::Punctuated;
use syn::visit::Visit;

/// Macros whose arguments are a template of code generated for another crate (a proc macro's
/// output), not code of this one: a `todo!()` or an `.unwrap()` in them never runs here.
const TEMPLATES: [&str; 4] = [
    "quote",
    "quote_spanned",
    "parse_quote",
    "parse_quote_spanned",
];

/// Visits the arguments of `mac` with `visitor` when they parse as comma-separated expressions
/// (never those of a code template, [`TEMPLATES`]). The arguments are parsed here and dropped
/// after the walk, so the visitor must accept trees of any lifetime (`for<'a> Visit<'a>`), which
/// every visitor that keeps no AST references does.
pub(crate) fn visit_macro_args<V>(visitor: &mut V, mac: &syn::Macro)
where
    V: for<'a> Visit<'a>,
{
    if mac
        .path
        .segments
        .last()
        .is_some_and(|s| TEMPLATES.iter().any(|t| s.ident == t))
    {
        return;
    }
    if let Ok(args) = mac.parse_body_with(Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
    {
        for expr in &args {
            visitor.visit_expr(expr);
        }
    }
}

/// One invocation of a macro the caller asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MacroCall {
    /// The macro's name (last path segment): `todo`.
    pub(crate) name: String,
    /// 1-based line of the invocation.
    pub(crate) line: u32,
}

/// Every invocation of a macro named in `names` (by last path segment, so `std::todo!` counts),
/// including those nested in other macros' expression arguments.
pub(crate) fn macro_calls(ast: &syn::File, names: &[&str]) -> Vec<MacroCall> {
    let mut finder = Finder {
        names,
        found: Vec::new(),
    };
    finder.visit_file(ast);
    finder.found.sort_by_key(|c| c.line);
    finder.found
}

/// The invocations of the macros in `names` in `file` outside its test code; none when the
/// file is not Rust that parses.
pub(crate) fn macro_calls_outside_tests(file: &SourceFile, names: &[&str]) -> Vec<MacroCall> {
    let Some(Ok(ast)) = file.rust_ast() else {
        return Vec::new();
    };
    outside_tests(file, macro_calls(ast, names), |c| c.line)
}

struct Finder<'n> {
    names: &'n [&'n str],
    found: Vec<MacroCall>,
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(last) = mac.path.segments.last() {
            let name = last.ident.to_string();
            if self.names.contains(&name.as_str()) {
                self.found.push(MacroCall {
                    name,
                    line: last.ident.span().start().line as u32,
                });
            }
        }
        visit_macro_args(self, mac);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_macros_by_name_also_inside_other_macros() {
        let ast = syn::parse_file(
            "fn f() {\n    std::todo!();\n    println!(\"{}\", g(unimplemented!()));\n    todo_list!();\n}\n",
        )
        .expect("fixture parses");
        let calls = macro_calls(&ast, &["todo", "unimplemented"]);
        let found: Vec<(&str, u32)> = calls.iter().map(|c| (c.name.as_str(), c.line)).collect();
        assert_eq!(found, vec![("todo", 2), ("unimplemented", 3)]);
    }

    #[test]
    fn a_proc_macro_s_code_template_is_not_this_crate_s_code() {
        let ast = syn::parse_file(
            "fn f() -> TokenStream {\n    quote!(unimplemented!())\n}\nfn h() { let e: Expr = syn::parse_quote!(todo!()); }\n",
        )
        .expect("fixture parses");
        assert!(macro_calls(&ast, &["todo", "unimplemented"]).is_empty());
    }
}
