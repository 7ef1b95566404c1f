//! `consistency/type-mismatch`: one type name, two shapes. The same-named struct (Rust), struct
//! type (Go) or interface/object type (TypeScript) is defined in two files with fields that
//! differ in optionality (`Option<T>`/`T?`/`*T` against `T`), in type, or in presence. Data
//! crossing between the two places is silently dropped, defaulted or rejected.
//!
//! Two definitions are compared only when they are about the same thing: they share at least
//! two field names and at least half the fields of the smaller one. Library code only (tests,
//! binaries and examples keep their own fixtures), one finding per pair at the later file.

use super::module::{library_modules, NOTHING_TO_COMPARE};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile, TreeUse};
use crate::lexical::LexLine;
use crate::rules::library_code::is_library_file;
use crate::rules::test_code::is_test_attr;
use protocol::{Category, Dimension, Location, Severity};
use quote::ToTokens;
use std::collections::BTreeMap;

static META: RuleMeta = RuleMeta {
    id: "consistency/type-mismatch",
    category: Category::TypeMismatch,
    severity: Severity::Medium,
    languages: &[Language::Rust, Language::TypeScript, Language::Go],
    dimensions: &[Dimension::Architecture, Dimension::Quality],
    explanation: "The same-named type defined in two places with different fields or optionality",
};

/// Flags same-named types whose fields differ.
pub(crate) struct TypeMismatch;

/// One field: name, type (without its optional wrapper), optional.
type Field = (String, String, bool);

/// A type definition found in a file.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Shape {
    name: String,
    path: String,
    line: u32,
    fields: Vec<Field>,
}

impl Rule for TypeMismatch {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn tree_use(&self) -> TreeUse {
        TreeUse::Items
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l)) && is_library_file(file)
    }

    /// Reads one file's types in the (parallel) file pass, where its tree is at hand; they are
    /// compared across files in `check_project`.
    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let shapes = match file.language {
            Some(Language::Rust) => rust_shapes(file),
            Some(lang @ (Language::TypeScript | Language::Go)) => text_shapes(file, lang),
            _ => return,
        };
        out.keep((file.rel_path.clone(), shapes));
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let mut kept = out.kept_by_path::<Vec<Shape>>(ctx, self);
        let Some(files) = library_modules(ctx) else {
            out.note(NOTHING_TO_COMPARE);
            return;
        };
        let mut by_name: BTreeMap<(Language, String), Vec<Shape>> = BTreeMap::new();
        for (file, _) in files {
            let Some(shapes) = kept.remove(&file.rel_path) else {
                continue;
            };
            for s in shapes {
                by_name
                    .entry((file.language.unwrap_or(Language::Rust), s.name.clone()))
                    .or_default()
                    .push(s);
            }
        }
        for shapes in by_name.values().filter(|v| v.len() >= 2) {
            for (i, later) in shapes.iter().enumerate().skip(1) {
                let Some(first) = shapes[..i].iter().find(|f| f.path != later.path) else {
                    continue;
                };
                if let Some(diff) = differences(first, later) {
                    out.hit(
                        Hit::new(
                            Location::at(&later.path, later.line),
                            format!("`{}` here differs from `{}` in {}: {diff}", later.name, first.name, first.path),
                            format!("type mismatch {} vs {}", later.name, first.path),
                        )
                        .suggest("define the type once and share it, or give the two shapes different names"),
                    );
                }
            }
        }
    }
}

/// What differs between two definitions about the same thing, if anything.
fn differences(there: &Shape, here: &Shape) -> Option<String> {
    let shared: Vec<(&Field, &Field)> = there
        .fields
        .iter()
        .filter_map(|a| here.fields.iter().find(|b| b.0 == a.0).map(|b| (a, b)))
        .collect();
    let smaller = there.fields.len().min(here.fields.len());
    if shared.len() < 2 || shared.len() * 2 < smaller {
        return None;
    }
    let mut diffs = Vec::new();
    for (a, b) in &shared {
        if a.2 != b.2 {
            let (opt, req) = if a.2 {
                ("there", "here")
            } else {
                ("here", "there")
            };
            diffs.push(format!("`{}` is optional {opt} but required {req}", a.0));
        } else if a.1 != b.1 {
            diffs.push(format!("`{}` is `{}` there but `{}` here", a.0, a.1, b.1));
        }
    }
    let only = |x: &Shape, y: &Shape| -> Vec<String> {
        x.fields
            .iter()
            .filter(|f| !y.fields.iter().any(|g| g.0 == f.0))
            .map(|f| format!("`{}`", f.0))
            .collect()
    };
    let (only_there, only_here) = (only(there, here), only(here, there));
    if !only_there.is_empty() {
        diffs.push(format!("only there: {}", only_there.join(", ")));
    }
    if !only_here.is_empty() {
        diffs.push(format!("only here: {}", only_here.join(", ")));
    }
    (!diffs.is_empty()).then(|| diffs.join("; "))
}

fn compact(t: &impl ToTokens) -> String {
    t.to_token_stream()
        .to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("")
}

/// Rust structs with named fields, outside test code.
fn rust_shapes(file: &SourceFile) -> Vec<Shape> {
    let Some(Ok(ast)) = file.rust_items() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    collect(&ast.items, file, &mut out);
    out
}

fn collect(items: &[syn::Item], file: &SourceFile, out: &mut Vec<Shape>) {
    for item in items {
        match item {
            syn::Item::Struct(s) if !is_test_attr(&s.attrs) => {
                let syn::Fields::Named(named) = &s.fields else {
                    continue;
                };
                let fields = named
                    .named
                    .iter()
                    .filter_map(|f| {
                        let ty = compact(&f.ty);
                        let inner = ty.strip_prefix("Option<").and_then(|t| t.strip_suffix('>'));
                        Some((
                            f.ident.as_ref()?.to_string(),
                            inner.unwrap_or(&ty).to_string(),
                            inner.is_some(),
                        ))
                    })
                    .collect();
                out.push(Shape {
                    name: s.ident.to_string(),
                    path: file.rel_path.clone(),
                    line: s.ident.span().start().line as u32,
                    fields,
                });
            }
            syn::Item::Mod(m) if !is_test_attr(&m.attrs) => {
                if let Some((_, inner)) = &m.content {
                    collect(inner, file, out);
                }
            }
            _ => {}
        }
    }
}

/// TypeScript interfaces / object types and Go struct types, read line by line.
fn text_shapes(file: &SourceFile, lang: Language) -> Vec<Shape> {
    let lines = file.lexed(lang);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        let t = code.trim_start().trim_start_matches("export ");
        let name = if lang == Language::Go {
            t.strip_prefix("type ")
                .and_then(|r| {
                    r.strip_suffix("struct {")
                        .or_else(|| r.strip_suffix("struct{"))
                })
                .map(str::trim)
        } else {
            t.strip_prefix("interface ")
                .and_then(|r| r.trim_end().strip_suffix('{'))
                .or_else(|| {
                    t.strip_prefix("type ")
                        .and_then(|r| r.trim_end().strip_suffix("= {"))
                })
                .map(|n| n.split(['<', ' ']).next().unwrap_or(n).trim())
        };
        let Some(name) =
            name.filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
        else {
            continue;
        };
        out.push(Shape {
            name: name.to_string(),
            path: file.rel_path.clone(),
            line: line.number,
            fields: fields_after(&lines[i + 1..], lang),
        });
    }
    out
}

/// The fields of a `{ .. }` body whose opening line was just before `lines`.
fn fields_after(lines: &[LexLine<'_>], lang: Language) -> Vec<Field> {
    let mut out = Vec::new();
    for line in lines {
        let code = line.code();
        let t = code.trim().trim_end_matches([';', ',']);
        if t.starts_with('}') {
            break;
        }
        let field = if lang == Language::Go {
            let mut parts = t.split_whitespace();
            match (parts.next(), parts.next()) {
                (Some(n), Some(ty)) if n.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                    let optional = ty.starts_with('*');
                    Some((
                        n.to_string(),
                        ty.trim_start_matches('*').to_string(),
                        optional,
                    ))
                }
                _ => None,
            }
        } else {
            t.split_once(':').and_then(|(n, ty)| {
                let optional_name = n.trim().ends_with('?');
                let n = n
                    .trim()
                    .trim_start_matches("readonly ")
                    .trim_end_matches('?')
                    .trim();
                let ty = ty.trim();
                let nullable = ty.ends_with("| undefined") || ty.ends_with("| null");
                let ty = ty
                    .trim_end_matches("| undefined")
                    .trim_end_matches("| null")
                    .trim();
                n.chars()
                    .all(|c| c.is_alphanumeric() || c == '_')
                    .then(|| (n.to_string(), ty.to_string(), optional_name || nullable))
            })
        };
        out.extend(field);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::project_fixture::project_hits;

    fn run(files: &[(&str, &str)]) -> Vec<(String, u32, String)> {
        project_hits(&TypeMismatch, files)
    }

    #[test]
    fn fires_on_the_same_type_with_other_fields() {
        let found = run(&[
            ("billing/src/lib.rs", "pub struct Customer {\n    pub id: u64,\n    pub email: Option<String>,\n    pub name: String,\n}\n"),
            ("shipping/src/lib.rs", "/// A customer.\npub struct Customer {\n    pub id: String,\n    pub email: String,\n    pub name: String,\n    pub address: String,\n}\n"),
        ]);
        assert_eq!(
            found,
            vec![(
                "shipping/src/lib.rs".to_string(),
                2,
                "`Customer` here differs from `Customer` in billing/src/lib.rs: `id` is `u64` there but `String` here; `email` is optional there but required here; only here: `address`".to_string()
            )]
        );
        let ts = run(&[
            (
                "web/api/types.ts",
                "export interface User {\n  id: string;\n  email?: string;\n}\n",
            ),
            (
                "web/store/user.ts",
                "interface User {\n  id: string;\n  email: string;\n}\n",
            ),
        ]);
        assert_eq!(ts.len(), 1);
        let go = run(&[
            (
                "billing/types.go",
                "package billing\n\ntype Order struct {\n\tID string\n\tTotal *int\n}\n",
            ),
            (
                "orders/types.go",
                "package orders\n\ntype Order struct {\n\tID string\n\tTotal int\n}\n",
            ),
        ]);
        assert_eq!(go.len(), 1);
    }

    #[test]
    fn quiet_on_equal_shapes_unrelated_namesakes_and_tests() {
        let found = run(&[
            ("billing/src/lib.rs", "pub struct Customer { pub id: u64, pub name: String }\npub struct Config { pub rate: u8, pub currency: String }\n"),
            ("shipping/src/lib.rs", "pub struct Customer { pub id: u64, pub name: String }\npub struct Config { pub carrier: String, pub zone: u8 }\n#[cfg(test)]\nmod tests {\n    struct Customer { id: String, name: String }\n}\n"),
        ]);
        assert!(found.is_empty());
    }
}
