use crate::review_cycle::blame::{parse_blame, parse_log};
use crate::review_cycle::context::{callers, Commit, LastChange, Sources};
use inspector::project::functions::{functions, innermost, FnSpan};
use std::collections::BTreeMap;

fn shape(fns: &[FnSpan]) -> Vec<(&str, u32, u32, bool)> {
    fns.iter()
        .map(|f| (f.name.as_str(), f.start, f.end, f.test))
        .collect()
}

const RUST: &str = "pub struct S;\n\
impl S {\n\
    pub fn load(&self) -> u32 {\n\
        let inner = |x: u32| x + 1;\n\
        fn helper() -> u32 { 2 }\n\
        inner(helper())\n\
    }\n\
}\n\
\n\
#[cfg(test)]\n\
mod tests {\n\
    #[test]\n\
    fn loads() {\n\
        assert_eq!(1, 1);\n\
    }\n\
    fn fixture() {}\n\
}\n";

#[test]
fn rust_functions_come_from_syn_with_test_code_marked() {
    let fns = functions("src/s.rs", RUST);
    assert_eq!(
        shape(&fns),
        vec![
            ("load", 3, 7, false),
            ("helper", 5, 5, false),
            ("loads", 13, 15, true),
            ("fixture", 16, 16, true),
        ]
    );
    assert_eq!(innermost(&fns, 5).map(|f| f.name.as_str()), Some("helper"));
    assert_eq!(innermost(&fns, 6).map(|f| f.name.as_str()), Some("load"));
    assert_eq!(innermost(&fns, 1), None);
    // Rust that does not parse falls back to the brace heuristic.
    let broken = "pub fn half(x: [u8; 2]) -> u8 {\n    x[0] +\n}\n#[test]\nfn t() {\n}\n";
    assert_eq!(
        shape(&functions("src/b.rs", broken)),
        vec![("half", 1, 3, false), ("t", 5, 6, true)]
    );
}

#[test]
fn python_go_and_javascript_functions_come_from_the_text() {
    let py = "class A:\n    def run(self):\n        x = 1\n\n        return x\n\ndef test_run():\n    # done\n    assert A().run() == 1\n";
    assert_eq!(
        shape(&functions("app/a.py", py)),
        vec![("run", 2, 5, false), ("test_run", 7, 9, true)]
    );
    let go = "package a\n\nfunc (s *S) Load(p string) (int, error) {\n\tif p == \"}\" {\n\t\treturn 0, nil\n\t}\n\treturn 1, nil\n}\n\nfunc TestLoad(t *testing.T) {\n}\n";
    assert_eq!(
        shape(&functions("a/s.go", go)),
        vec![("Load", 3, 8, false), ("TestLoad", 10, 11, true)]
    );
    let js = "export async function fetchAll(url) {\n  return get(url, '{');\n}\nconst add = (a, b) => {\n  return a + b;\n};\nconst one = (a) => a + 1;\nclass C {\n  load(opts = {}) {\n    return 1;\n  }\n}\n";
    assert_eq!(
        shape(&functions("web/a.js", js)),
        vec![
            ("fetchAll", 1, 3, false),
            ("add", 4, 6, false),
            ("load", 9, 11, false)
        ]
    );
    assert!(functions("README.md", "fn x() {}\n").is_empty());
}

#[test]
fn callers_are_calls_of_the_name_outside_definitions_comments_and_the_body() {
    let mut texts = BTreeMap::new();
    texts.insert(
        "src/a.rs".to_string(),
        "pub fn load() -> u32 {\n    load_all() + load()\n}\n// load() in a comment\nfn x() { let y = load::<u8>(); }\n".to_string(),
    );
    texts.insert(
        "src/b.rs".to_string(),
        "use crate::a::load;\nfn b() { reload(); crate::a::load (); }\n".to_string(),
    );
    texts.insert("src/c.rs".to_string(), "fn load() {}\n".to_string());
    texts.insert(
        "src/outside.rs".to_string(),
        "fn o() { load(); }\n".to_string(),
    );
    let scope = vec!["src/a.rs".into(), "src/b.rs".into(), "src/c.rs".into()];
    let sources = Sources::new(texts, scope);
    let load = FnSpan {
        name: "load".into(),
        start: 1,
        end: 3,
        test: false,
    };
    let found = callers(&sources, &load, "src/a.rs");
    let sites: Vec<(&str, u32)> = found
        .sites
        .iter()
        .map(|s| (s.path.as_str(), s.line))
        .collect();
    assert_eq!(sites, vec![("src/a.rs", 5), ("src/b.rs", 2)]);
    assert_eq!((found.total, found.files, found.ambiguous), (2, 2, false));
    let new = FnSpan {
        name: "new".into(),
        ..load
    };
    assert!(callers(&sources, &new, "src/a.rs").ambiguous);
}

#[test]
fn git_output_parses_into_last_changes() {
    let blame = "4f1c2e0d9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d 8 8 1\nauthor Ada\nauthor-mail <ada@x>\nauthor-time 1700000000\nauthor-tz +0000\nsummary Store passwords\nfilename src/store.rs\n\tlet password = \"x\";\n";
    assert_eq!(
        parse_blame(blame),
        LastChange::Commit(Commit {
            commit: "4f1c2e0d9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d".into(),
            author: "Ada".into(),
            date: "2023-11-14T22:13:20Z".into(),
            summary: "Store passwords".into(),
        })
    );
    let zeros = format!("{} 1 1 1\nauthor Not Committed Yet\n", "0".repeat(40));
    assert_eq!(parse_blame(&zeros), LastChange::Uncommitted);
    assert_eq!(parse_blame(""), LastChange::Unknown);
    assert_eq!(
        parse_log("abc\u{1f}Ada\u{1f}2024-01-02T03:04:05+00:00\u{1f}init\n"),
        LastChange::Commit(Commit {
            commit: "abc".into(),
            author: "Ada".into(),
            date: "2024-01-02T03:04:05+00:00".into(),
            summary: "init".into(),
        })
    );
    assert_eq!(parse_log(""), LastChange::Unknown);
    assert_eq!(
        serde_json::to_value(LastChange::Unknown).unwrap(),
        serde_json::json!("unknown")
    );
}
