//! Temporary: compare rust_items with rust_ast over a tree (not committed).
use inspector::engine::SourceFile;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
#[derive(Default)]
struct Fns(Vec<(String, u32, u32, String)>);
impl<'ast> Visit<'ast> for Fns {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let s = f.span();
        self.0.push((
            f.sig.ident.to_string(),
            s.start().line as u32,
            s.end().line as u32,
            key(f.block.to_token_stream()),
        ));
        visit::visit_item_fn(self, f);
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let s = f.span();
        self.0.push((
            f.sig.ident.to_string(),
            s.start().line as u32,
            s.end().line as u32,
            key(f.block.to_token_stream()),
        ));
        visit::visit_impl_item_fn(self, f);
    }
    fn visit_item_struct(&mut self, f: &'ast syn::ItemStruct) {
        let s = f.span();
        self.0.push((
            f.ident.to_string(),
            s.start().line as u32,
            s.end().line as u32,
            String::new(),
        ));
        visit::visit_item_struct(self, f);
    }
    fn visit_item_enum(&mut self, f: &'ast syn::ItemEnum) {
        let s = f.span();
        self.0.push((
            f.ident.to_string(),
            s.start().line as u32,
            s.end().line as u32,
            String::new(),
        ));
        visit::visit_item_enum(self, f);
    }
}
fn key(ts: proc_macro2::TokenStream) -> String {
    let mut out = String::new();
    fn walk(ts: proc_macro2::TokenStream, out: &mut String) {
        for t in ts {
            match t {
                proc_macro2::TokenTree::Group(g) => {
                    let (o, c) = match g.delimiter() {
                        proc_macro2::Delimiter::Brace => ("{", "}"),
                        proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                        proc_macro2::Delimiter::Bracket => ("[", "]"),
                        proc_macro2::Delimiter::None => ("", ""),
                    };
                    out.push_str(o);
                    out.push(' ');
                    walk(g.stream(), out);
                    out.push_str(c);
                    out.push(' ');
                }
                other => {
                    out.push_str(&other.to_string());
                    out.push(' ');
                }
            }
        }
    }
    walk(ts, &mut out);
    out
}
fn main() {
    let root = std::env::args().nth(1).unwrap();
    let mut files = vec![];
    let mut stack = vec![std::path::PathBuf::from(&root)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p)
            } else if p.extension().is_some_and(|x| x == "rs") {
                if let Ok(t) = std::fs::read_to_string(&p) {
                    files.push((p.display().to_string(), t))
                }
            }
        }
    }
    let t = std::time::Instant::now();
    for (p, text) in &files {
        let f = SourceFile::new(p.clone(), text.clone());
        let _ = f.rust_items();
    }
    eprintln!("items {:?}", t.elapsed());
    let t = std::time::Instant::now();
    for (p, text) in &files {
        let f = SourceFile::new(p.clone(), text.clone());
        let _ = f.rust_ast();
    }
    eprintln!("full {:?}", t.elapsed());
    let (mut same, mut diff, mut fullerr) = (0, 0, 0);
    for (p, text) in &files {
        let a = SourceFile::new(p.clone(), text.clone());
        let b = SourceFile::new(p.clone(), text.clone());
        let Some(Ok(full)) = a.rust_ast() else {
            fullerr += 1;
            continue;
        };
        let Some(Ok(items)) = b.rust_items() else {
            diff += 1;
            eprintln!("items failed {p}");
            continue;
        };
        let mut x = Fns::default();
        x.visit_file(full);
        let mut y = Fns::default();
        y.visit_file(items);
        if x.0 == y.0 && full.items.len() == items.items.len() {
            same += 1
        } else {
            diff += 1;
            if diff < 4 {
                for (l, r) in x.0.iter().zip(y.0.iter()) {
                    if l != r {
                        eprintln!("{p}\n  {:?}\n  {:?}", l, r);
                        break;
                    }
                }
                if x.0.len() != y.0.len() {
                    eprintln!("{p} len {} vs {}", x.0.len(), y.0.len());
                }
            }
        }
    }
    eprintln!("same {same} diff {diff} full-parse-errors {fullerr}");
}
