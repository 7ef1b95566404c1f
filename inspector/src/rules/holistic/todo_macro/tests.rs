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
fn a_free_function_stubbed_for_an_unsupported_target_is_deliberate() {
    let text = "#[cfg(target_arch = \"wasm32\")]\npub fn get_language(name: &str) -> Lang {\n    unimplemented!()\n}\n#[cfg(feature = \"x\")]\npub fn extra() {\n    unimplemented!()\n}\n";
    assert_eq!(
        crate::rules::fixture::excused(&TodoMacro, "helix-loader/src/grammar.rs", text),
        vec![(3, "the function is compiled only for a configuration the crate does not support (`#[cfg(not(…))]`, a target)".to_string())]
    );
}

#[test]
fn the_catch_all_over_a_c_librarys_constants_is_an_impossible_case() {
    let text = "pub fn event(e: sys::yaml_event_type_t) -> Event {\n    match e {\n        sys::YAML_STREAM_START_EVENT => Event::Start,\n        sys::YAML_NO_EVENT | sys::YAML_ALIAS_EVENT => unreachable!(),\n        _ => unimplemented!(),\n    }\n}\npub fn op(o: Op) -> u8 {\n    match o {\n        Op::Add => 1,\n        Op::Sub => 2,\n        _ => unimplemented!(),\n    }\n}\n";
    assert_eq!(
        crate::rules::fixture::excused(&TodoMacro, "src/libyaml/parser.rs", text),
        vec![(5, "the match is over a C library's constants: its catch-all covers values the library never returns".to_string())]
    );
    let open: Vec<u32> = hits(&TodoMacro, "src/libyaml/parser.rs", text)
        .into_iter()
        .map(|h| h.0)
        .collect();
    assert_eq!(
        open,
        vec![12],
        "a Rust enum's missing cases are still to do"
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
    let config = "impl TimeRef {\n    #[cfg(CPython)]\n    pub fn has_tz(&self) -> bool {\n        self.tz == 1\n    }\n    #[cfg(not(CPython))]\n    pub fn has_tz(&self) -> bool {\n        unimplemented!()\n    }\n}\n";
    assert_eq!(
        crate::rules::fixture::excused(&TodoMacro, "src/ffi/pytimeref.rs", config),
        vec![(8, "the function is compiled only for a configuration the crate does not support (`#[cfg(not(…))]`, a target)".to_string())]
    );
    let unlikely = "pub fn ident(p: &Pat) -> String {\n    match p {\n        Pat::Ident(i) => i.to_string(),\n        _ => {\n            unimplemented!(\"Foreign functions are unlikely to have any other pattern.\")\n        }\n    }\n}\n";
    assert_eq!(
        crate::rules::fixture::excused(&TodoMacro, "ctest/src/ffi_items.rs", unlikely),
        vec![(5, "its message says the case cannot happen".to_string())]
    );
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
    let excused: Vec<(u32, String)> = crate::rules::fixture::excused(&TodoMacro, "src/db.rs", text);
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
    let header =
        "// Used only by the doc tests. Not public API.\n\npub fn stub() { unimplemented!() }\n";
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
    let mentioned =
        "/// Not `unimplemented!()`.\nfn f() {\n    // todo!()\n    let todo = \"todo!()\";\n}\n";
    assert!(!wanted(&TodoMacro, mentioned));
}
