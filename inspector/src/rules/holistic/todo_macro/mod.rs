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
use protocol::{Dimension, Severity};
use syn::spanned::Spanned;
use syn::visit::Visit;

mod declared;

/// The macros flagged.
const NAMES: [&str; 2] = ["todo", "unimplemented"];

static META: RuleMeta = RuleMeta {
    id: "holistic/todo-macro",
    category: "operational-risk",
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
mod tests {
    use super::*;
    use crate::rules::fixture::{excused, hits};

    #[test]
    fn an_example_program_s_placeholder_is_not_the_project_s_code() {
        let text = "fn main() {\n    unimplemented!()\n}\n";
        assert!(hits(&TodoMacro, "examples/find.rs", text).is_empty());
        assert_eq!(hits(&TodoMacro, "src/bin/find.rs", text).len(), 1);
        assert!(hits(&TodoMacro, "benches/end_to_end.rs", text).is_empty());
    }
    use crate::rules::holistic::prefilter::wanted;

    #[test]
    fn fires_on_todo_and_unimplemented() {
        let text = "pub fn a() -> u8 {\n    todo!()\n}\npub fn b() -> u8 {\n    match 1 { 1 => 2, _ => unimplemented!(\"later\") }\n}\n";
        assert_eq!(
            hits(&TodoMacro, "src/main.rs", text),
            vec![
                (
                    2,
                    "`todo!()` in non-test code panics when this path runs".to_string()
                ),
                (
                    5,
                    "`unimplemented!()` in non-test code panics when this path runs".to_string()
                ),
            ]
        );
    }

    #[test]
    fn a_named_case_declared_unsupported_is_not_unfinished_work() {
        let text = "pub fn a(e: Event) -> u8 {\n    match e {\n        Event::Text(_) => 1,\n        Event::Math(_) | Event::Table => {\n            unimplemented!(\"feature not enabled {e:?}\")\n        }\n        Event::Rule => unimplemented!(\"not yet\"),\n        Event::Code => unimplemented!(),\n    }\n}\n";
        let lines: Vec<u32> = hits(&TodoMacro, "src/md.rs", text)
            .into_iter()
            .map(|h| h.0)
            .collect();
        // "not yet": work still to come.
        assert_eq!(lines, vec![7]);
        // Reported all the same, excused by the code and at Low: suppressed unless the change
        // under review wrote the arm.
        let sink = crate::rules::fixture::check(&TodoMacro, "src/md.rs", text);
        let declared: Vec<_> = sink
            .hits
            .iter()
            .filter(|h| h.excuse.is_some())
            .map(|h| (h.location.line, h.severity, h.excuse.as_deref()))
            .collect();
        let named = Some("the match arm names the case it does not support");
        assert_eq!(
            declared,
            vec![
                (Some(5), Some(Severity::Low), named),
                (Some(8), Some(Severity::Low), named)
            ]
        );
    }

    #[test]
    fn a_catch_all_that_says_the_value_is_unsupported_is_a_refusal() {
        let text = "pub fn version(v: Version) -> Vec<u8> {\n    match v {\n        Version::H1 => b\"h1\".to_vec(),\n        _ => unimplemented!(\"the client only supports http/1.1\"),\n    }\n}\npub fn codec(c: Codec) {\n    match c {\n        Codec::Gzip => {}\n        _ => unimplemented!(\"not yet supported\"),\n    }\n}\n";
        assert_eq!(
            crate::rules::fixture::excused(&TodoMacro, "src/client.rs", text),
            vec![(4, "its message says the value is not supported".to_string())]
        );
        let open: Vec<u32> = hits(&TodoMacro, "src/client.rs", text)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(open, vec![10], "\"not yet\" is work still to come");
        let shown = "pub fn header(line: &str) {\n    match line {\n        \"string\" => {}\n        _ => unimplemented!(\"{}\", line),\n    }\n}\n/// Not supported yet: this stub is provided so code compiles.\npub fn wait(&self) {\n    unimplemented!(\"not supported yet\")\n}\n/// Waits.\npub fn later(&self) {\n    unimplemented!(\"not supported yet\")\n}\n";
        let excused: Vec<u32> = crate::rules::fixture::excused(&TodoMacro, "src/h.rs", shown)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(excused, vec![4, 9]);
        assert_eq!(hits(&TodoMacro, "src/h.rs", shown).len(), 1, "undocumented");
    }

    #[test]
    fn trait_methods_deprecated_stubs_and_impossible_cases_are_declared() {
        let text = "impl HasDataLayout for Db {\n    fn data_layout(&self) -> &Layout {\n        unimplemented!()\n    }\n}\nimpl Db {\n    #[deprecated(note = \"use Display\")]\n    pub fn display(&self) -> ! {\n        unimplemented!()\n    }\n    pub fn kind(&self, id: Id) -> Kind {\n        match id {\n            Id::A => Kind::A,\n            _ => unimplemented!(\"Unexpected alias: {:?}\", id),\n        }\n    }\n    pub fn later(&self) {\n        unimplemented!()\n    }\n}\nimpl Serialize for Db {\n    fn serialize(&self) {\n        todo!()\n    }\n}\n";
        let excused: Vec<(u32, String)> =
            crate::rules::fixture::excused(&TodoMacro, "src/db.rs", text);
        assert_eq!(
            excused,
            vec![
                (
                    3,
                    "a trait method this type declares it does not support".to_string()
                ),
                (9, "a deprecated function that refuses to run".to_string()),
                (14, "its message says the case cannot happen".to_string()),
            ]
        );
        // An inherent method's bare `unimplemented!()` and any `todo!()` are unfinished work.
        let open: Vec<u32> = hits(&TodoMacro, "src/db.rs", text)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(open, vec![18, 23]);
        // The project's own clippy allowance excuses it too.
        let allowed =
            "#[expect(clippy::todo, reason = \"tracked in #12\")]\npub fn f() {\n    todo!()\n}\n";
        assert_eq!(
            crate::rules::fixture::excused(&TodoMacro, "src/f.rs", allowed)
                .into_iter()
                .map(|h| h.0)
                .collect::<Vec<_>>(),
            vec![3]
        );
    }

    #[test]
    fn a_gap_its_author_tracks_in_a_note_above_is_excused() {
        let text = "pub async fn snapshot() -> u8 {\n    // TODO: this will have to wait, I plan to come back to it.\n    todo!()\n}\npub fn other() -> u8 {\n    // Computes the other value.\n    todo!()\n}\n";
        assert_eq!(
            hits(&TodoMacro, "src/snapshot.rs", text)
                .into_iter()
                .map(|(line, _)| line)
                .collect::<Vec<_>>(),
            vec![7]
        );
        assert_eq!(excused(&TodoMacro, "src/snapshot.rs", text).len(), 1);
    }

    #[test]
    fn a_gap_in_the_maintainers_own_tool_is_excused() {
        let files = [
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"codegen\", \"cli\"]\n",
            ),
            (
                "codegen/Cargo.toml",
                "[package]\nname = \"codegen\"\nversion = \"0.0.0\"\npublish = false\n",
            ),
            (
                "codegen/src/main.rs",
                "fn main() {\n    unimplemented!(\"{}\", 1);\n}\n",
            ),
            (
                "cli/Cargo.toml",
                "[package]\nname = \"cli\"\nversion = \"1.0.0\"\n",
            ),
            (
                "cli/src/main.rs",
                "fn main() {\n    unimplemented!(\"{}\", 1);\n}\n",
            ),
        ];
        let sink = crate::rules::project_fixture::sink_on_disk(&TodoMacro, &files);
        let found = crate::rules::project_fixture::excused_by_path(&sink);
        assert_eq!(
            found,
            vec![("cli/src/main.rs", false), ("codegen/src/main.rs", true)],
            "a published program's gap is its users' to hit"
        );
    }

    #[test]
    fn a_let_else_and_a_trait_default_are_declared() {
        let text = "pub trait Conn {\n    fn depth(&self) -> usize {\n        unimplemented!(\"not implemented for this backend\")\n    }\n    fn url(&self) -> Url {\n        todo!()\n    }\n}\npub fn f(ty: &Type) -> u8 {\n    let Type::Syn(t) = ty else { unimplemented!() };\n    let Type::Vec(v) = ty else { unimplemented!(\"later\") };\n    1\n}\n";
        let found: Vec<u32> = hits(&TodoMacro, "src/conn.rs", text)
            .into_iter()
            .map(|(line, _)| line)
            .collect();
        assert_eq!(
            found,
            vec![6, 11],
            "todo!() and work still to come stay findings"
        );
        assert_eq!(excused(&TodoMacro, "src/conn.rs", text).len(), 2);
    }

    #[test]
    fn quiet_in_test_code_and_comments() {
        let text = "// todo!() would panic\npub fn a() -> u8 { 1 }\n#[cfg(test)]\nmod tests {\n    fn stub() -> u8 { todo!() }\n}\n";
        assert!(hits(&TodoMacro, "src/lib.rs", text).is_empty());
        assert!(hits(&TodoMacro, "tests/it.rs", "fn s() { todo!() }\n").is_empty());
    }

    #[test]
    fn never_in_doc_comments_doc_tests_or_their_hidden_stubs() {
        let docs = "//! ```\n//! # fn f() -> u8 { unimplemented!() }\n//! ```\n/// ```\n/// # unimplemented!()\n/// ```\npub fn a() -> u8 { 1 }\n";
        assert!(hits(&TodoMacro, "src/lib.rs", docs).is_empty());
        let stubs = "#[doc(hidden)]\npub struct Error;\nimpl ser::Error for Error {\n    fn custom<T>(_: T) -> Self {\n        unimplemented!()\n    }\n}\n#[doc(hidden)]\npub fn stub() { todo!() }\npub fn real() { todo!() }\n";
        assert_eq!(
            hits(&TodoMacro, "src/private/doc.rs", stubs)
                .into_iter()
                .map(|h| h.0)
                .collect::<Vec<_>>(),
            vec![10]
        );
        assert_eq!(
            crate::rules::fixture::excused(&TodoMacro, "src/private/doc.rs", stubs)
                .into_iter()
                .map(|h| h.0)
                .collect::<Vec<_>>(),
            vec![5, 9],
            "the hidden stubs are excused, not dropped"
        );
        // A header only says so: the call is still reported, at Low.
        let header = "// Used only by the doc tests. Not public API.\n\npub fn stub() { unimplemented!() }\n";
        let found = crate::rules::fixture::check(&TodoMacro, "src/doc.rs", header).hits;
        assert_eq!(
            found
                .iter()
                .map(|h| (h.location.line, h.description.as_str(), h.severity))
                .collect::<Vec<_>>(),
            vec![(
                Some(3),
                "`unimplemented!()` in non-test code panics when this path runs (the file's header says it serves doc tests)",
                Some(Severity::Low)
            )]
        );
    }

    #[test]
    fn impls_no_caller_can_name_are_compiled_not_run() {
        let probe = "#[cfg(probe)]\nconst _: () = {\n    struct MyError;\n    impl Debug for MyError {\n        fn fmt(&self, f: &mut Formatter) -> Result {\n            unimplemented!()\n        }\n    }\n    impl Display for Outer {\n        fn fmt(&self, f: &mut Formatter) -> Result {\n            todo!()\n        }\n    }\n};\n";
        // The impl for a type outside the block is reachable: still reported.
        assert_eq!(
            hits(&TodoMacro, "src/nightly.rs", probe)
                .into_iter()
                .map(|h| h.0)
                .collect::<Vec<_>>(),
            vec![11]
        );
    }

    #[test]
    fn wants_the_macros_invoked_in_code() {
        assert!(wanted(&TodoMacro, "fn f() {\n    todo!()\n}\n"));
        let mentioned = "/// Not `unimplemented!()`.\nfn f() {\n    // todo!()\n    let todo = \"todo!()\";\n}\n";
        assert!(!wanted(&TodoMacro, mentioned));
    }
}
