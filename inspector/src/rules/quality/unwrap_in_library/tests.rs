use super::*;
use crate::rules::fixture::hits;

/// The hits of both rules, by line.
fn all_hits(path: &str, text: &str) -> Vec<(u32, String)> {
    let mut all = hits(&UnwrapInLibrary::ON_INPUT, path, text);
    all.extend(hits(&UnwrapInLibrary::ASSUMED, path, text));
    all.sort();
    all
}

#[test]
fn unwraps_on_input_and_on_assumptions_are_two_rules() {
    let text = "pub fn port(s: &str, opt: Option<u16>, mut f: File) -> u16 {\n    let n = s.parse::<u16>().unwrap();\n    let v = std::env::var(\"P\").expect(\"P is set\");\n    writeln!(f, \"x\").unwrap();\n    let m = opt.unwrap();\n    let k = self.cache.take().expect(\"filled above\");\n    let t = s.trim();\n    let p = format!(\"/{t}\").parse::<Uri>().unwrap();\n    let mut buffer = itoa::Buffer::new();\n    HeaderValue::from_str(buffer.format(7u64)).unwrap();\n    n + m\n}\nfn private(s: &str) -> u16 {\n    s.parse::<u16>().unwrap()\n}\n";
    let lines = |rule: &UnwrapInLibrary| -> Vec<u32> {
        hits(rule, "src/config.rs", text)
            .into_iter()
            .map(|h| h.0)
            .collect()
    };
    // On what the public function's caller passed, directly or through a local.
    assert_eq!(lines(&UnwrapInLibrary::ON_INPUT), vec![2, 4, 8]);
    // The environment, a value the crate built itself, a private function's argument.
    assert_eq!(lines(&UnwrapInLibrary::ASSUMED), vec![3, 5, 6, 10, 14]);
}

#[test]
fn an_impl_of_a_private_trait_is_out_of_callers_reach() {
    let text = "trait Encodable: Sized {\n    fn read(buffer: &[u8]) -> Self;\n}\nimpl Encodable for char {\n    fn read(buffer: &[u8]) -> Self {\n        char::from_u32(u32::read(buffer)).unwrap()\n    }\n}\n";
    assert!(hits(&UnwrapInLibrary::ON_INPUT, "src/storage.rs", text).is_empty());
    let public = text.replacen("trait Encodable", "pub trait Encodable", 1);
    assert_eq!(
        hits(&UnwrapInLibrary::ON_INPUT, "src/storage.rs", &public).len(),
        1
    );
}

#[test]
fn fires_on_unwrap_and_expect_in_library_code() {
    let text = "pub fn port(s: &str) -> u16 {\n    let n = s.parse::<u16>()\n        .unwrap();\n    let m: u16 = env(\"P\").expect(\"P is set\");\n    println!(\"{}\", opt.unwrap());\n    n + m\n}\n";
    assert_eq!(
        all_hits("src/config.rs", text),
        vec![
            (3, "`.unwrap()` in library code panics on `None`/`Err` instead of returning an error".to_string()),
            (4, "`.expect(..)` in library code panics on `None`/`Err` instead of returning an error".to_string()),
            (5, "`.unwrap()` in library code panics on `None`/`Err` instead of returning an error".to_string()),
        ]
    );
}

#[test]
fn one_statement_unwrapping_several_values_is_one_finding() {
    let text = "pub fn v(c: &str) -> V {\n    let c: Vec<&str> = c.split('.').collect();\n    V(\n        c[0].parse().unwrap(),\n        c[1].parse().unwrap(),\n        c[2].parse().unwrap(),\n    )\n}\n";
    assert_eq!(
        hits(&UnwrapInLibrary::ON_INPUT, "src/v.rs", text),
        vec![(4, "`.unwrap()` in library code panics on `None`/`Err` instead of returning an error (and in the same statement on lines 5, 6)".to_string())]
    );
}

#[test]
fn the_innermost_statement_is_the_one_a_comment_must_justify() {
    let text = "pub fn f(items: &[&str]) -> Vec<u8> {\n    // Cannot fail: every item was checked.\n    items\n        .iter()\n        .map(|i| {\n            let n = i.parse::<u8>().unwrap();\n            n\n        })\n        .collect()\n}\npub fn g(i: &str) -> u8 {\n    // Cannot fail: checked above.\n    let n = i\n        .parse::<u8>()\n        .unwrap();\n    n\n}\n";
    let lines: Vec<u32> = all_hits("src/a.rs", text)
        .into_iter()
        .map(|h| h.0)
        .collect();
    assert_eq!(lines, vec![6]);
}

#[test]
fn quiet_on_writes_into_a_string_and_on_receivers_checked_before() {
    let text = "use std::fmt::Write;\npub fn render(items: &[u8], out: &mut String) -> String {\n    let mut s = String::new();\n    writeln!(s, \"{}\", 1).unwrap();\n    write!(out, \"x\").expect(\"String\");\n    if items.is_empty() {\n        return s;\n    }\n    let first = items.first().unwrap();\n    s\n}\npub fn other(items: &[u8], mut f: File) -> u8 {\n    writeln!(f, \"x\").unwrap();\n    *items.first().unwrap()\n}\n";
    let lines: Vec<u32> = all_hits("src/render.rs", text)
        .into_iter()
        .map(|h| h.0)
        .collect();
    // The file write and the unchecked `items` of the second function still fire.
    assert_eq!(lines, vec![13, 14]);
    let text = "pub fn specs(p: &str) -> Vec<Spec> {\n    let re = Regex::new(r\"\\d+\").unwrap();\n    let m = Matcher::build().expect(\"built-in rules always compile\");\n    vec![\"path:fg:magenta\".parse().unwrap(), p.parse().unwrap()]\n}\n";
    let lines: Vec<u32> = all_hits("src/specs.rs", text)
        .into_iter()
        .map(|h| h.0)
        .collect();
    assert_eq!(lines, vec![4]);
}

#[test]
fn quiet_in_test_helpers_the_library_publishes() {
    let text = "/// A hedge with a prepopulated histogram. This is useful for integration tests.\npub fn prepopulated(l: &[u64]) -> H {\n    h.record(l[0]).unwrap();\n}\npub fn new_with_mock_latencies(l: &[u64]) -> H {\n    h.record(l[0]).unwrap();\n}\npub fn new(l: &[u64]) -> H {\n    h.record(l[0]).unwrap();\n}\n";
    let lines: Vec<u32> = all_hits("src/hedge.rs", text).iter().map(|h| h.0).collect();
    assert_eq!(lines, vec![9]);
}

#[test]
fn quiet_in_a_procedural_macro_crate() {
    let lib = "pub fn port(s: &str) -> u16 {\n    s.parse::<u16>().unwrap()\n}\n";
    let crate_with = |lib_table: &str| {
        let manifest = format!("[package]\nname = \"m\"\nversion = \"1.0.0\"\n{lib_table}");
        let ctx = Context::from_files(
            std::path::Path::new("/r"),
            vec![
                SourceFile::new("Cargo.toml", manifest.as_str()),
                SourceFile::new("src/lib.rs", lib),
            ],
            crate::spec::Specs::default(),
        );
        let rule = &UnwrapInLibrary::ON_INPUT;
        let mut sink = Sink::default();
        for file in ctx.files.iter().filter(|f| rule.wants(f)) {
            rule.check_file(file, &mut sink);
        }
        rule.check_project(&ctx, &mut sink);
        sink.hits.len()
    };
    assert_eq!(crate_with("[lib]\nproc-macro = true\n"), 0);
    assert_eq!(crate_with(""), 1);
}

#[test]
fn quiet_where_callers_uphold_the_precondition() {
    let text = "impl Stream {\n    pub fn from_str_unchecked(src: &str) -> Self {\n        Self::from_str(src).unwrap()\n    }\n}\n#[doc(hidden)]\npub fn parse(s: &str) -> T {\n    s.parse().expect(\"invalid token stream\")\n}\npub fn visible(s: &str) -> T {\n    s.parse().expect(\"invalid token stream\")\n}\n";
    let lines: Vec<u32> = all_hits("src/runtime.rs", text)
        .iter()
        .map(|h| h.0)
        .collect();
    assert_eq!(lines, vec![11]);
}

#[test]
fn quiet_on_joins_documented_panics_and_checked_derefs() {
    let text = "pub fn wait(h: JoinHandle<()>) {\n    h.join().unwrap();\n}\n/// Offsets the match; this panics on overflow.\npub fn offset(&self, n: usize) -> usize {\n    self.start.checked_add(n).unwrap()\n}\npub fn rep(&self) -> &str {\n    if self.config.replacement.is_some() {\n        return (*self.config.replacement).as_ref().unwrap();\n    }\n    (*self.other).as_ref().unwrap()\n}\n";
    let lines: Vec<u32> = all_hits("src/m.rs", text)
        .into_iter()
        .map(|h| h.0)
        .collect();
    assert_eq!(lines, vec![12]);
}

#[test]
fn quiet_in_binaries_tests_lock_idiom_and_parser_expect() {
    let text = "fn main() { let x = run().unwrap(); }\n";
    assert!(all_hits("src/main.rs", text).is_empty());
    assert!(all_hits("examples/demo.rs", text).is_empty());
    let lib = "pub fn f(m: &Mutex<u8>, p: &mut Parser) -> u8 {\n    p.expect(Token::Semi);\n    // `new_from_slice` cannot fail: HMAC takes keys of any length.\n    let mac = Hmac::new_from_slice(k)\n        .expect(\"any key length\");\n    *m.lock().unwrap() + x.unwrap_or(1)\n}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() { f().unwrap(); }\n}\n#[test]\nfn u() { g().expect(\"g\"); }\n";
    assert!(all_hits("src/lib.rs", lib).is_empty());
}
