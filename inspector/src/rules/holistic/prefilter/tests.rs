use super::*;

fn file(text: &str) -> SourceFile {
    SourceFile::new("src/a.rs", text)
}

fn toks(text: &str) -> Vec<Tok<'_>> {
    let lines = crate::lexical::lex(text, Language::Rust);
    let toks = Tokens::new(&lines).collect();
    toks
}

#[test]
fn tokens_skip_comments_and_fold_literals() {
    let text = "fn f<'a>(x: &'a str) { // unsafe\n    g(\"unsafe {\", 'x', r#\"}\"#); /* } */ }\n";
    assert_eq!(
        toks(text),
        vec![
            Tok::Word("fn"),
            Tok::Word("f"),
            Tok::Punct(b'<'),
            Tok::Lifetime("a"),
            Tok::Punct(b'>'),
            Tok::Punct(b'('),
            Tok::Word("x"),
            Tok::Punct(b':'),
            Tok::Punct(b'&'),
            Tok::Lifetime("a"),
            Tok::Word("str"),
            Tok::Punct(b')'),
            Tok::Punct(b'{'),
            Tok::Word("g"),
            Tok::Punct(b'('),
            Tok::Lit,
            Tok::Punct(b','),
            Tok::Lit,
            Tok::Punct(b','),
            Tok::Lit,
            Tok::Punct(b')'),
            Tok::Punct(b';'),
            Tok::Punct(b'}'),
        ]
    );
}

#[test]
fn needles_match_code_tokens_only() {
    let word = [Needle::Word(&["unsafe"])];
    assert!(code_has(&file("fn f() { unsafe { g() } }\n"), &word));
    assert!(!code_has(
        &file("/// unsafe\nfn f() { g(\"unsafe\") } // unsafe\n"),
        &word
    ));
    assert!(!code_has(&file("#![deny(unsafe_code)]\n"), &word));
    let panic = [Needle::Macro(&["panic"])];
    assert!(code_has(
        &file("fn f() { std::panic /* why */ !(\"x\") }\n"),
        &panic
    ));
    assert!(!code_has(
        &file("fn f() { std::panic::catch_unwind(g); }\n"),
        &panic
    ));
    assert!(!code_has(&file("fn f() { h(\"panic!\") }\n"), &panic));
    let pair = [Needle::Pair("static", "mut")];
    assert!(code_has(&file("static\n    mut X: u8 = 0;\n"), &pair));
    assert!(!code_has(&file("fn f(x: &'static mut u8) {}\n"), &pair));
    let method = [Needle::Method(&["clone"])];
    assert!(code_has(&file("fn f() { a\n    .clone(); }\n"), &method));
    assert!(!code_has(&file("fn f() { clone(a); }\n"), &method));
    let tail = [Needle::PathTail(&["spawn"])];
    assert!(code_has(&file("fn f() { tokio::spawn(g()); }\n"), &tail));
    assert!(!code_has(&file("fn f() { spawn(g()); }\n"), &tail));
    let head = [Needle::PathHead(&["String"])];
    assert!(code_has(&file("fn f() { String::from(\"a\"); }\n"), &head));
    assert!(!code_has(&file("fn f(s: String) {}\n"), &head));
}

#[test]
fn needles_match_in_order() {
    let needles = [Needle::Word(&["async"]), Needle::Method(&["lock"])];
    assert!(code_has(&file("async fn f() { m.lock(); }\n"), &needles));
    assert!(!code_has(
        &file("fn f() { m.lock(); }\nasync fn g() {}\n"),
        &needles
    ));
}

#[test]
fn text_gates_are_whole_words_with_their_neighbours() {
    assert!(Needle::Word(&["for"]).in_text(&file("for x in y {}")));
    assert!(!Needle::Word(&["for"]).in_text(&file("format!(\"{}\", before)")));
    assert!(Needle::Macro(&["todo"]).in_text(&file("todo !()")));
    assert!(Needle::Macro(&["todo"]).in_text(&file("todo // why\n!()")));
    assert!(!Needle::Macro(&["todo"]).in_text(&file("let todo = 1;")));
    assert!(Needle::Method(&["push"]).in_text(&file("v\n    .push(1)")));
    assert!(!Needle::Method(&["push"]).in_text(&file("fn push() {}")));
    assert!(Needle::Pair("static", "mut").in_text(&file("static /* c */ mut X")));
    assert!(!Needle::Pair("static", "mut").in_text(&file("&'static str")));
}

#[test]
fn unbalanced_delimiters_are_always_wanted() {
    let needles = [Needle::Word(&["unsafe"])];
    assert!(code_has(&file("// unsafe\nfn f() { {\n"), &needles));
    assert!(!code_has(&file("// unsafe\nfn f() {}\n"), &needles));
}

/// The `for` loops open at each `HERE` of `text`.
fn fors_at_here(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    any_token_in_loops(&file(text), |t, loops| {
        if t.word() == Some("HERE") {
            out.push(loops.count(LoopKind::For));
        }
        false
    });
    out
}

#[test]
fn nested_for_loops_are_counted() {
    let text = "fn f() {\n    for a in x {\n        HERE;\n        for b in y.iter().map(|v| { v }) {\n            HERE;\n        }\n        HERE;\n    }\n    HERE;\n}\n";
    assert_eq!(fors_at_here(text), vec![1, 2, 1, 0]);
}

#[test]
fn sequential_loops_and_non_loop_fors_are_not_nested() {
    let text = "impl Tr for S {\n    fn f() where F: for<'a> Fn(&'a u8) {\n        for a in x { HERE; }\n        for b in y { HERE; }\n    }\n}\nHERE;\n";
    assert_eq!(fors_at_here(text), vec![1, 1, 0]);
}

#[test]
fn loop_headers_with_braces_keep_their_body() {
    let text = "fn f() {\n    for P { a } in match x { _ => xs } {\n        for b in if c { y } else { z } {\n            HERE;\n        }\n    }\n    for c in { xs }.iter() { HERE; }\n}\n";
    assert_eq!(fors_at_here(text), vec![2, 1]);
}

/// Whether a `HERE` of `text` is marked inside an endless loop.
fn endless_here(text: &str) -> bool {
    any_token_in_loops(&file(text), |t, loops| {
        loops.endless_marked(t.word() == Some("HERE"))
    })
}

#[test]
fn endless_loops_by_their_header() {
    assert!(endless_here("fn f() { loop { HERE; } }\n"));
    assert!(endless_here(
        "async fn f() { while let Some(m) = rx.recv().await { HERE; } }\n"
    ));
    assert!(endless_here(
        "async fn f() { while let Some(m) = s.next().await { if m { HERE; } } }\n"
    ));
    assert!(endless_here("fn f() { for s in l.incoming() { HERE; } }\n"));
    assert!(!endless_here(
        "fn f() { while let Some(c) = it.next() { HERE; } }\n"
    ));
    assert!(!endless_here(
        "fn f() { for s in xs { HERE; } while a { HERE; } }\n"
    ));
    assert!(!endless_here("fn f() { loop { break; } HERE; }\n"));
}
