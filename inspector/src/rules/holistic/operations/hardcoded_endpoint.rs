//! `holistic/hardcoded-endpoint`: network endpoints of one particular environment written into
//! library code — a private or public IP address, a loopback address or `localhost` with a
//! fixed port, a fixed listening port (`"0.0.0.0:8080"`, Go's `":8080"`), or a URL whose host is
//! one of those or an internal name (`*.internal`, `*.local`, `*.lan`, `*.corp`, `*.svc`).
//! Deployed elsewhere, the code talks to the wrong place or to nothing.
//!
//! Public URLs (`https://api.github.com`, documentation links, XML namespaces) are an
//! integration's identity, not an environment, and are not flagged. Neither are the loopback or
//! unspecified address alone or with port 0 (bind to an ephemeral port), a literal on a line that
//! names a default (`DEFAULT_URL`, `default_value = ..`), messages (literals with spaces),
//! binaries, configuration files, and test code.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::args::quoted_body;
use crate::rules::holistic::fixed_literals::fixed_literals;
use crate::rules::library_code::is_library_file;
use protocol::{Category, Dimension, Location, Severity};
use std::net::Ipv4Addr;

/// Host suffixes of internal networks.
const INTERNAL: [&str; 7] = [
    ".internal",
    ".local",
    ".lan",
    ".corp",
    ".intranet",
    ".svc",
    ".cluster.local",
];

static META: RuleMeta = RuleMeta {
    id: "holistic/hardcoded-endpoint",
    category: Category::OperationalRisk,
    severity: Severity::Medium,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Architecture, Dimension::BestPractices],
    explanation:
        "Hard-coded IPs, ports, localhost or internal URLs in library code: tied to one environment",
};

/// Flags environment-specific endpoints in library code.
pub(crate) struct HardcodedEndpoint;

impl Rule for HardcodedEndpoint {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l))
            && (file.text.contains("://")
                || file.text.contains("localhost")
                || file.text.contains("\":")
                || file.text.bytes().filter(|b| *b == b'.').count() >= 3)
            && is_library_file(file)
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let endpoints = fixed_literals(file, |literal| {
            let inner = unquote(literal)?;
            endpoint(inner).map(|why| (inner, why))
        });
        for (line, (inner, why)) in endpoints {
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, line),
                    format!("hard-coded endpoint `{inner}` ({why}): it only works in one environment"),
                    format!("endpoint {inner}"),
                )
                .suggest("take the address from configuration, with this value as a named, overridable default"),
            );
        }
    }
}

fn unquote(literal: &str) -> Option<&str> {
    let inner = quoted_body(literal)?;
    (!inner.contains(char::is_whitespace) && !inner.contains("${") && !inner.contains('{'))
        .then_some(inner)
}

/// Why a literal is an environment-specific endpoint, if it is one.
fn endpoint(s: &str) -> Option<&'static str> {
    if let Some((scheme, rest)) = s.split_once("://") {
        if !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '+')
            || scheme.is_empty()
        {
            return None;
        }
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let authority = authority.rsplit('@').next().unwrap_or(authority);
        let (host, port) = split_port(authority);
        if let Some(why) = host_kind(host, port) {
            return Some(why);
        }
        let lower = host.to_ascii_lowercase();
        return INTERNAL
            .iter()
            .any(|i| lower.ends_with(i))
            .then_some("an internal host name");
    }
    let (host, port) = split_port(s);
    if host.is_empty() {
        // Go's `":8080"`.
        return port.filter(|p| *p != 0).map(|_| "a fixed port");
    }
    if host == "localhost" || host.parse::<Ipv4Addr>().is_ok() {
        return host_kind(host, port);
    }
    None
}

/// `host:port` → (host, port) when the part after the last colon is a port number.
fn split_port(authority: &str) -> (&str, Option<u16>) {
    match authority.rsplit_once(':') {
        Some((h, p)) if !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()) => {
            (h, p.parse().ok())
        }
        _ => (authority, None),
    }
}

fn host_kind(host: &str, port: Option<u16>) -> Option<&'static str> {
    let fixed_port = port.is_some_and(|p| p != 0);
    if host.eq_ignore_ascii_case("localhost") || host == "[::1]" {
        return fixed_port.then_some("localhost with a fixed port");
    }
    let ip: Ipv4Addr = host.parse().ok()?;
    if ip.is_loopback() {
        fixed_port.then_some("a loopback address with a fixed port")
    } else if ip.is_unspecified() {
        fixed_port.then_some("a fixed listening port")
    } else if ip.is_broadcast() {
        None
    } else if ip.is_private() || ip.is_link_local() {
        Some("a private IP address")
    } else {
        Some("a fixed IP address")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_environment_specific_endpoints() {
        let rust = "pub fn connect() -> Client {\n    Client::new(\"http://10.0.4.12:9200/logs\")\n}\npub fn cache() -> Redis { Redis::open(\"redis://cache.prod.internal:6379\") }\npub fn serve() { bind(\"0.0.0.0:8080\"); }\n";
        assert_eq!(
            hits(&HardcodedEndpoint, "src/search.rs", rust),
            vec![
                (2, "hard-coded endpoint `http://10.0.4.12:9200/logs` (a private IP address): it only works in one environment".to_string()),
                (4, "hard-coded endpoint `redis://cache.prod.internal:6379` (an internal host name): it only works in one environment".to_string()),
                (5, "hard-coded endpoint `0.0.0.0:8080` (a fixed listening port): it only works in one environment".to_string()),
            ]
        );
        let py = "API = \"http://localhost:5000/api\"\n";
        assert_eq!(hits(&HardcodedEndpoint, "app/client.py", py).len(), 1);
        let go = "package api\n\nfunc Serve() { http.ListenAndServe(\":8080\", nil) }\n";
        assert_eq!(hits(&HardcodedEndpoint, "api/serve.go", go).len(), 1);
    }

    #[test]
    fn quiet_on_public_urls_defaults_ephemeral_ports_binaries_and_tests() {
        let rust = "const DEFAULT_URL: &str = \"http://localhost:11434\";\npub fn f() {\n    get(\"https://api.github.com/repos\");\n    let ns = \"http://www.w3.org/2000/svg\";\n    bind(\"127.0.0.1:0\");\n    bind(\"127.0.0.1\");\n    let v = \"1.2.3\";\n    log(\"connect to 10.0.0.1 failed\");\n}\n#[cfg(test)]\nmod tests {\n    const U: &str = \"http://127.0.0.1:8080\";\n}\n";
        assert!(hits(&HardcodedEndpoint, "src/a.rs", rust).is_empty());
        let main = "package main\n\nfunc main() { http.ListenAndServe(\":8080\", nil) }\n";
        assert!(hits(&HardcodedEndpoint, "cmd/api/main.go", main).is_empty());
    }
}
