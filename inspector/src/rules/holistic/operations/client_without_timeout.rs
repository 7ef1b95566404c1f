//! `holistic/client-without-timeout`: HTTP clients that wait forever for a server that stops
//! answering, because no timeout is set and the library's default has none.
//!
//! - Rust: `reqwest::Client::new()` / `reqwest::blocking::Client::new()` and the `reqwest::get`
//!   shortcuts, unless the file sets a timeout somewhere (`.timeout(..)` on the builder or per
//!   request); a `Client::builder()` chain that reaches `.build()` with no `timeout`/
//!   `connect_timeout`/`read_timeout`; `ureq::get/post/..` and `ureq::agent()` in a file that
//!   sets no timeout.
//! - Python: `requests.get/post/put/patch/delete/head/request(..)` and `urllib.request.urlopen(..)`
//!   without a `timeout=` argument (httpx has a default timeout and is not flagged).
//! - Go: `http.Get/Post/Head/PostForm` and `http.DefaultClient` (no timeout), and an
//!   `http.Client{..}` literal without `Timeout`.
//!
//! Test code is exempt.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::LexLine;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "holistic/client-without-timeout",
    category: Category::OperationalRisk,
    severity: Severity::Medium,
    languages: &[Language::Rust, Language::Python, Language::Go],
    dimensions: &[Dimension::Quality, Dimension::BestPractices],
    explanation: "Network clients without a timeout (reqwest::Client::new(), requests.get without timeout=, http.Get)",
};

/// Flags HTTP clients and calls without a timeout.
pub(crate) struct ClientWithoutTimeout;

impl Rule for ClientWithoutTimeout {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        let needle = match file.language {
            Some(Language::Rust) => file.text.contains("reqwest") || file.text.contains("ureq"),
            Some(Language::Python) => {
                file.text.contains("requests") || file.text.contains("urlopen")
            }
            Some(Language::Go) => file.text.contains("net/http"),
            _ => false,
        };
        needle && !file.is_test_file()
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(lang) = file.language else {
            return;
        };
        let lines = file.lexed(lang);
        let found = match lang {
            Language::Rust => rust(&lines, &file.text),
            Language::Python => python(&lines),
            _ => go(&lines),
        };
        if found.is_empty() {
            return;
        }
        let tests = TestCode::of(file);
        for (line, what) in found.into_iter().filter(|(l, _)| !tests.contains(*l)) {
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, line),
                    format!("`{what}` has no timeout: a server that stops answering hangs this call forever"),
                    format!("no timeout {what}"),
                )
                .suggest("set a timeout (builder .timeout(..), timeout=, http.Client{Timeout: ..})"),
            );
        }
    }
}

/// The code of lines `from..` joined until parentheses balance (at most 10 lines).
fn call_text(lines: &[LexLine<'_>], from: usize, at: usize) -> String {
    let mut text = String::new();
    let mut depth = 0i32;
    for (k, line) in lines.iter().enumerate().skip(from).take(10) {
        let code = line.code();
        let part = if k == from { &code[at..] } else { &code[..] };
        for c in part.chars() {
            text.push(c);
            match c {
                '(' | '{' => depth += 1,
                ')' | '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return text;
                    }
                }
                _ => {}
            }
        }
        text.push('\n');
    }
    text
}

fn rust(lines: &[LexLine<'_>], text: &str) -> Vec<(u32, String)> {
    let has_timeout = text.contains("timeout(");
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        for call in ["Client::new()", "reqwest::get(", "reqwest::blocking::get("] {
            let uses_reqwest = call.starts_with("reqwest") || text.contains("reqwest");
            if code.contains(call) && uses_reqwest && !has_timeout {
                found.push((line.number, call.trim_end_matches('(').to_string()));
            }
        }
        if let Some(at) = code.find("Client::builder()") {
            let chain = call_text(lines, i, at);
            let chain = if chain.contains(".build()") {
                chain
            } else {
                lines[i..lines.len().min(i + 12)]
                    .iter()
                    .map(LexLine::code)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            if chain.contains(".build()") && !chain.contains("timeout(") && text.contains("reqwest")
            {
                found.push((line.number, "Client::builder()".to_string()));
            }
        }
        for f in [
            "ureq::get(",
            "ureq::post(",
            "ureq::put(",
            "ureq::delete(",
            "ureq::request(",
            "ureq::agent()",
        ] {
            if code.contains(f) && !has_timeout {
                found.push((line.number, f.trim_end_matches('(').to_string()));
            }
        }
    }
    found.dedup();
    found
}

fn python(lines: &[LexLine<'_>]) -> Vec<(u32, String)> {
    let calls = [
        "requests.get(",
        "requests.post(",
        "requests.put(",
        "requests.patch(",
        "requests.delete(",
        "requests.head(",
        "requests.request(",
        "urlopen(",
    ];
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        for call in calls {
            let Some(at) = code.find(call) else {
                continue;
            };
            let args = call_text(lines, i, at);
            if !args.contains("timeout") {
                found.push((line.number, call.trim_end_matches('(').to_string()));
            }
        }
    }
    found
}

fn go(lines: &[LexLine<'_>]) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        for call in [
            "http.Get(",
            "http.Post(",
            "http.Head(",
            "http.PostForm(",
            "http.DefaultClient",
        ] {
            if code.contains(call) {
                found.push((line.number, call.trim_end_matches('(').to_string()));
            }
        }
        if let Some(at) = code.find("http.Client{") {
            let literal = call_text(lines, i, at);
            if !literal.contains("Timeout") {
                found.push((line.number, "http.Client{}".to_string()));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_clients_and_calls_without_timeouts() {
        let rust = "use reqwest::Client;\npub fn client() -> Client {\n    Client::new()\n}\npub fn other() -> Client {\n    Client::builder()\n        .user_agent(\"x\")\n        .build()\n        .expect(\"static config\")\n}\n";
        assert_eq!(
            hits(&ClientWithoutTimeout, "src/http.rs", rust),
            vec![
                (3, "`Client::new()` has no timeout: a server that stops answering hangs this call forever".to_string()),
                (6, "`Client::builder()` has no timeout: a server that stops answering hangs this call forever".to_string()),
            ]
        );
        let py =
            "import requests\n\ndef fetch(u):\n    return requests.get(u,\n        headers=H)\n";
        assert_eq!(hits(&ClientWithoutTimeout, "app/http.py", py).len(), 1);
        let go = "package api\n\nimport \"net/http\"\n\nfunc F() {\n\tresp, err := http.Get(u)\n\tc := &http.Client{Transport: t}\n}\n";
        let lines: Vec<u32> = hits(&ClientWithoutTimeout, "api/a.go", go)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(lines, vec![6, 7]);
    }

    #[test]
    fn quiet_when_a_timeout_is_set() {
        let rust = "use reqwest::Client;\npub fn client() -> reqwest::Result<Client> {\n    Client::builder()\n        .timeout(Duration::from_secs(10))\n        .build()\n}\npub fn other(c: &Client) { let _ = c.get(u).timeout(T).send(); let d = Client::new(); }\n";
        assert!(hits(&ClientWithoutTimeout, "src/http.rs", rust).is_empty());
        let py =
            "import requests\n\ndef fetch(u):\n    return requests.get(u,\n        timeout=5)\n";
        assert!(hits(&ClientWithoutTimeout, "app/http.py", py).is_empty());
        let go = "package api\n\nimport \"net/http\"\n\nvar c = &http.Client{\n\tTimeout: 5 * time.Second,\n}\n";
        assert!(hits(&ClientWithoutTimeout, "api/a.go", go).is_empty());
        let other = "struct Client;\nimpl Client { fn new() -> Self { Client } }\nfn f() { let c = Client::new(); }\n";
        assert!(hits(&ClientWithoutTimeout, "src/a.rs", other).is_empty());
    }
}
