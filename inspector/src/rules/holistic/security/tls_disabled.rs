//! `holistic/tls-verification-disabled`: certificate or host-name verification switched off —
//! reqwest `danger_accept_invalid_certs(true)` / `danger_accept_invalid_hostnames(true)`,
//! OpenSSL `SslVerifyMode::NONE`, Python `verify=False`, `ssl._create_unverified_context`,
//! `CERT_NONE`, `check_hostname = False`, Node `rejectUnauthorized: false` and
//! `NODE_TLS_REJECT_UNAUTHORIZED = '0'`, Go `InsecureSkipVerify: true`. Anyone on the path can
//! then read and change the traffic. A switch fed from configuration
//! (`danger_accept_invalid_certs(cfg.insecure)`) is an operator's explicit choice and is not
//! flagged; test code (self-signed local servers) is exempt.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::line_hits::LazyTestCode;
use protocol::{Dimension, Location, Severity};

/// (language family, code pattern with spaces removed, what it does).
const PATTERNS: [(&str, &str, &str); 11] = [
    (
        "rs",
        ".danger_accept_invalid_certs(true)",
        "accepts invalid certificates",
    ),
    (
        "rs",
        ".danger_accept_invalid_hostnames(true)",
        "accepts certificates for other hosts",
    ),
    (
        "rs",
        "SslVerifyMode::NONE",
        "turns certificate verification off",
    ),
    ("py", "verify=False", "turns certificate verification off"),
    (
        "py",
        "_create_unverified_context",
        "turns certificate verification off",
    ),
    ("py", "CERT_NONE", "turns certificate verification off"),
    (
        "py",
        "check_hostname=False",
        "turns host-name verification off",
    ),
    (
        "js",
        "rejectUnauthorized:false",
        "accepts invalid certificates",
    ),
    (
        "js",
        "NODE_TLS_REJECT_UNAUTHORIZED=",
        "turns certificate verification off process-wide",
    ),
    (
        "go",
        "InsecureSkipVerify:true",
        "turns certificate verification off",
    ),
    (
        "go",
        "InsecureSkipVerify=true",
        "turns certificate verification off",
    ),
];

static META: RuleMeta = RuleMeta {
    id: "holistic/tls-verification-disabled",
    category: "operational-risk",
    severity: Severity::High,
    languages: &[Language::Rust, Language::Python, Language::TypeScript, Language::JavaScript, Language::Go],
    dimensions: &[Dimension::Security],
    explanation: "TLS certificate/host-name verification disabled (danger_accept_invalid_certs, verify=False, ...)",
};

/// Flags disabled TLS verification.
pub(crate) struct TlsDisabled;

fn family(lang: Language) -> &'static str {
    match lang {
        Language::Rust => "rs",
        Language::Python => "py",
        Language::Go => "go",
        _ => "js",
    }
}

impl Rule for TlsDisabled {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        let Some(lang) = file.language.filter(|l| META.languages.contains(l)) else {
            return false;
        };
        let fam = family(lang);
        !file.is_test_file()
            && PATTERNS.iter().any(|(f, p, _)| {
                *f == fam
                    && file
                        .text
                        .contains(p.split(['(', ':', '=']).next().unwrap_or(p))
            })
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(lang) = file.language else {
            return;
        };
        let fam = family(lang);
        let mut tests = LazyTestCode::new(file);
        for line in file.lexed(lang).iter() {
            let code: String = line.code().chars().filter(|c| !c.is_whitespace()).collect();
            let Some((_, pattern, what)) = PATTERNS
                .iter()
                .find(|(f, p, _)| *f == fam && code.contains(p))
            else {
                continue;
            };
            // `NODE_TLS_REJECT_UNAUTHORIZED = '1'` turns it back on; only a `0` turns it off.
            if pattern.starts_with("NODE_TLS")
                && !line.text.contains("'0'")
                && !line.text.contains("\"0\"")
            {
                continue;
            }
            if pattern.starts_with("NODE_TLS") && code.contains("==") {
                continue;
            }
            if tests.contains(line.number) {
                continue;
            }
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, line.number),
                    format!("`{pattern}` {what}: anyone on the network path can read and change the traffic"),
                    format!("tls off {pattern}"),
                )
                .suggest("keep verification on; trust a private CA by adding its certificate instead"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_disabled_verification() {
        let rust = "fn client() -> Client {\n    Client::builder()\n        .danger_accept_invalid_certs(true)\n        .build()\n        .expect(\"static\")\n}\n";
        assert_eq!(
            hits(&TlsDisabled, "src/http.rs", rust),
            vec![(3, "`.danger_accept_invalid_certs(true)` accepts invalid certificates: anyone on the network path can read and change the traffic".to_string())]
        );
        let py = "r = requests.get(url, verify = False)\n";
        assert_eq!(hits(&TlsDisabled, "app/http.py", py).len(), 1);
        let js = "const agent = new https.Agent({ rejectUnauthorized: false });\nprocess.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';\n";
        assert_eq!(hits(&TlsDisabled, "web/http.js", js).len(), 2);
        let go = "package a\n\nvar t = &tls.Config{InsecureSkipVerify: true}\n";
        assert_eq!(hits(&TlsDisabled, "a/a.go", go).len(), 1);
    }

    #[test]
    fn quiet_on_configured_switches_comments_and_tests() {
        let rust = "fn client(cfg: &Cfg) {\n    // never use danger_accept_invalid_certs(true) here\n    b.danger_accept_invalid_certs(cfg.insecure);\n}\n#[cfg(test)]\nmod tests {\n    fn t() { b.danger_accept_invalid_certs(true); }\n}\n";
        assert!(hits(&TlsDisabled, "src/http.rs", rust).is_empty());
        let py = "r = requests.get(url, verify=True)\n";
        assert!(hits(&TlsDisabled, "app/http.py", py).is_empty());
        assert!(hits(
            &TlsDisabled,
            "tests/test_http.py",
            "requests.get(u, verify=False)\n"
        )
        .is_empty());
    }
}
