//! `holistic/tls-verification-disabled`: certificate or host-name verification switched off —
//! reqwest `danger_accept_invalid_certs(true)` / `danger_accept_invalid_hostnames(true)`,
//! OpenSSL `SslVerifyMode::NONE`, Python `verify=False`, `ssl._create_unverified_context`,
//! `CERT_NONE`, `check_hostname = False`, Node `rejectUnauthorized: false` and
//! `NODE_TLS_REJECT_UNAUTHORIZED = '0'`, Go `InsecureSkipVerify: true`. Anyone on the path can
//! then read and change the traffic. A switch fed from configuration
//! (`danger_accept_invalid_certs(cfg.insecure)`) is an operator's explicit choice and is not
//! flagged, and neither is a switch in a branch taken on such a setting — a client carrying
//! out its user's own `verify=False` (`if verify is False: cert_reqs = ssl.CERT_NONE`, `if
//! (opts.insecure) { … }`); test code and benchmarks (self-signed local servers) are exempt.
//! On the server's side of TLS the peer is a client: a server that does not ask clients for a
//! certificate (`cert_reqs = CERT_NONE` beside `load_cert_chain`, Node's `requestCert` with
//! `rejectUnauthorized: false`) verifies nothing less than any HTTPS site does. Whether code
//! is on the server's side is a fact of its package, not of one file (a CLI option's default
//! `--ssl-cert-reqs CERT_NONE` in `main.py`, the context built in `config.py`): the file pass
//! keeps those findings and the package's server files, and the project pass reports them
//! excused by the code ([`Hit::excuse`]) — a package may also make client connections, so a
//! change that writes such a setting still gates.

use super::tls_own::{says_unverified, verifies_itself};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::functions::{functions, FnSpan};
use crate::rules::line_hits::LazyTestCode;
use protocol::project::FileRole;
use protocol::{Category, Dimension, Location, Severity};
use serde::{Deserialize, Serialize};

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
    category: Category::OperationalRisk,
    severity: Severity::High,
    languages: &[Language::Rust, Language::Python, Language::TypeScript, Language::JavaScript, Language::Go],
    dimensions: &[Dimension::Security],
    explanation: "TLS certificate/host-name verification disabled (danger_accept_invalid_certs, verify=False, ...)",
};

/// Whether a line's comment tells the project's security linter to allow it: golangci-lint's
/// `//nolint` (bare or naming `gosec`), bandit's `# nosec`.
fn security_lint_allowed(text: &str) -> bool {
    let lower = text.to_lowercase();
    let nolint = lower
        .find("//nolint")
        .map(|at| &lower[at + "//nolint".len()..]);
    nolint.is_some_and(|rest| !rest.starts_with(':') || rest.contains("gosec"))
        || lower.contains("# nosec")
}

/// Words of a condition that make it the user's TLS setting (`verify`, `insecure`, …).
const SETTING_WORDS: [&str; 6] = ["verify", "insecure", "ssl", "tls", "cert", "secure"];

/// Whether a line's code picks the switch by a conditional expression on a TLS setting:
/// `CERT_REQUIRED if verify else CERT_NONE`, `opts.insecure ? { rejectUnauthorized: false } : {}`.
fn inline_setting_choice(code: &str) -> bool {
    let lower = code.to_lowercase();
    let condition = match (lower.find(" if "), lower.find(" else ")) {
        (Some(i), Some(e)) if i < e => &lower[i + 4..e],
        _ => match (lower.find(" ? "), lower.find(" : ")) {
            (Some(q), Some(_)) => &lower[..q],
            _ => return false,
        },
    };
    SETTING_WORDS.iter().any(|w| condition.contains(w))
}

/// Whether the line at `index` sits in a branch (up to two enclosing blocks, by indentation)
/// whose condition reads a TLS setting: `if verify is False:`, `} else {` of `if (opts.verify)`.
fn in_setting_branch(lines: &[crate::lexical::LexLine<'_>], index: usize) -> bool {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut level = indent(lines[index].text);
    let mut blocks = 0;
    for line in lines[..index].iter().rev() {
        let code = line.code();
        let trimmed = code.trim();
        if trimmed.is_empty() || indent(line.text) >= level {
            continue;
        }
        level = indent(line.text);
        let conditional = [
            "if ", "if(", "elif ", "else", "} else", "}else", "switch", "case ",
        ]
        .iter()
        .any(|k| trimmed.starts_with(k));
        if conditional {
            // A `case` names the option it answers in its label, often a string the lexed
            // code blanks out (`case "tls_insecure_skip_verify":`): read its text.
            let lower = if trimmed.starts_with("case ") {
                line.text.to_lowercase()
            } else {
                trimmed.to_lowercase()
            };
            if SETTING_WORDS.iter().any(|w| lower.contains(w)) {
                return true;
            }
            // An `else` reads its `if`, and a `case` its `switch` (gofmt puts both at one
            // indentation): keep climbing to it at the same indentation.
            if trimmed.contains("else") || trimmed.starts_with("case ") {
                level += 1;
                continue;
            }
        }
        blocks += 1;
        if blocks == 2 {
            return false;
        }
    }
    false
}

/// What a file's code does only on the server's side of TLS, by language family: a server
/// loads its own certificate chain, asks for client certificates, or says it is the server.
const SERVER_SIDE: [(&str, &str); 5] = [
    ("py", "load_cert_chain("),
    ("py", "server_side=True"),
    ("py", "Purpose.CLIENT_AUTH"),
    ("py", "PROTOCOL_TLS_SERVER"),
    ("js", "requestCert"),
];

/// The patterns that, on the server's side, concern the client's certificate, not the peer a
/// client would verify: whether to require one, and (meaningless for a server) host names.
const CLIENT_CERT_PATTERNS: [&str; 3] = [
    "CERT_NONE",
    "check_hostname=False",
    "rejectUnauthorized:false",
];

/// Whether `file`'s code (comments and strings aside) acts as a TLS server.
fn serves_tls(lexed: &[crate::lexical::LexLine<'_>], fam: &str) -> bool {
    lexed.iter().any(|line| {
        let code: String = line.code().chars().filter(|c| !c.is_whitespace()).collect();
        SERVER_SIDE
            .iter()
            .any(|(f, p)| *f == fam && code.contains(p))
    })
}

/// A file that acts as a TLS server (kept by the file pass for the project pass).
#[derive(Serialize, Deserialize)]
struct ServesTls(String);

/// The folder of the package `path` belongs to (the longest package root it lies under), or
/// the repository's root.
fn package_of<'c>(ctx: &'c Context, path: &str) -> &'c str {
    ctx.project
        .packages
        .iter()
        .map(|p| p.root.as_str())
        .filter(|root| path.starts_with(root))
        .max_by_key(|root| root.len())
        .unwrap_or("")
}

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

/// Whether each `CERT_NONE` on a line is named rather than used: an import, the fallback
/// assignment of the name itself, or a side of a comparison (`code` is the line without spaces).
fn only_names_cert_none(line: &str, code: &str) -> bool {
    let head = line.trim_start();
    if head.starts_with("from ") || head.starts_with("import ") {
        return true;
    }
    code.match_indices("CERT_NONE").all(|(at, m)| {
        let before = code[..at].trim_end_matches("ssl.");
        let after = &code[at + m.len()..];
        (at == 0 && after.starts_with('=') && !after.starts_with("=="))
            || ["==", "!=", "is"].iter().any(|op| before.ends_with(op))
            || ["==", "!="].iter().any(|op| after.starts_with(op))
    })
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
        // Test code and benchmarks talk to their own local servers (self-signed); an example
        // or a documentation page shows the setting to a reader, against a local peer of its
        // own: nothing a user runs against a real peer.
        !file.is_test_file()
            && file.role != FileRole::Bench
            && !file.is_illustration()
            && (PATTERNS.iter().any(|(f, p, _)| {
                *f == fam
                    && file
                        .text
                        .contains(p.split(['(', ':', '=']).next().unwrap_or(p))
            }) || SERVER_SIDE
                .iter()
                .any(|(f, p)| *f == fam && file.text.contains(p.split('=').next().unwrap_or(p))))
    }

    /// Excuses the client-certificate findings of packages that act as a TLS server: what
    /// their code says about itself, so a change that writes such a setting still gates.
    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let servers: Vec<ServesTls> = out.kept(ctx, self);
        let serving: Vec<&str> = servers.iter().map(|s| package_of(ctx, &s.0)).collect();
        for hit in out.kept::<Hit>(ctx, self) {
            out.hit(if serving.contains(&package_of(ctx, &hit.location.path)) {
                hit.excused("its package acts as a TLS server (`load_cert_chain`, `server_side=True`, `requestCert`): the setting is the requirement on clients' certificates, not verification of a peer")
            } else {
                hit
            });
        }
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(lang) = file.language else {
            return;
        };
        let fam = family(lang);
        let mut tests = LazyTestCode::new(file);
        let lexed = file.lexed(lang);
        let server = serves_tls(&lexed, fam);
        let mut spans: Option<Vec<FnSpan>> = None;
        for (index, line) in lexed.iter().enumerate() {
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
            // Naming the constant is not using it: `from ssl import CERT_NONE`, the fallback
            // `CERT_NONE = None`, a comparison `if reqs == CERT_NONE` — every mention on the
            // line one of those, so a line that also assigns it is still read.
            if *pattern == "CERT_NONE" && only_names_cert_none(&line.code(), &code) {
                continue;
            }
            let client_cert = CLIENT_CERT_PATTERNS.contains(pattern);
            if tests.contains(line.number)
                || in_setting_branch(&lexed, index)
                || inline_setting_choice(&line.code())
            {
                continue;
            }
            let hit = Hit::new(
                Location::at(&file.rel_path, line.number),
                format!("`{pattern}` {what}: anyone on the network path can read and change the traffic"),
                format!("tls off {pattern}"),
            )
            .suggest("keep verification on; trust a private CA by adding its certificate instead");
            let functions = spans.get_or_insert_with(|| functions(&lexed, lang));
            // What the code says of itself: trusted on lines the change under review did not
            // write (a callback that returns nil verifies nothing).
            let hit = if security_lint_allowed(line.text) {
                hit.excused("the project's own security linter is told to allow this line (`//nolint:gosec`, `# nosec`)")
            } else if says_unverified(&lexed, functions, line.number) {
                hit.excused("the function is named or documented as making an unverified connection (`_create_unverified_context`): the choice is its callers'")
            } else if verifies_itself(&lexed[index + 1..]) {
                hit.excused("the next lines verify the chain in the code's own callback (`VerifyPeerCertificate`): verification moved, not turned off")
            } else {
                hit
            };
            // Whether another file of the package serves TLS is the project pass's to say.
            if client_cert {
                out.keep(hit);
            } else {
                out.hit(hit);
            }
        }
        if server {
            out.keep(ServesTls(file.rel_path.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use crate::rules::project_fixture::{project_hits, project_sink};

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
        assert_eq!(project_hits(&TlsDisabled, &[("web/http.js", js)]).len(), 2);
        let go = "package a\n\nvar t = &tls.Config{InsecureSkipVerify: true}\n";
        assert_eq!(hits(&TlsDisabled, "a/a.go", go).len(), 1);
        // An example shows the setting to a reader, against a local server of its own.
        let demo = "package main\n\nvar t = &tls.Config{InsecureSkipVerify: true}\n";
        assert!(hits(&TlsDisabled, "example/tls-connection/main.go", demo).is_empty());
        assert_eq!(hits(&TlsDisabled, "cmd/tool/main.go", demo).len(), 1);
    }

    #[test]
    fn quiet_on_configured_switches_comments_and_tests() {
        let rust = "fn client(cfg: &Cfg) {\n    // never use danger_accept_invalid_certs(true) here\n    b.danger_accept_invalid_certs(cfg.insecure);\n}\n#[cfg(test)]\nmod tests {\n    fn t() { b.danger_accept_invalid_certs(true); }\n}\n";
        assert!(hits(&TlsDisabled, "src/http.rs", rust).is_empty());
        let py = "r = requests.get(url, verify=True)\n";
        assert!(hits(&TlsDisabled, "app/http.py", py).is_empty());
        let py = "def pool(verify):\n    reqs = ssl.CERT_REQUIRED\n    if verify is False:\n        reqs = ssl.CERT_NONE\n    elif isinstance(verify, str):\n        ca = verify\n    if url.startswith('https') and verify:\n        load(ca)\n    else:\n        conn.cert_reqs = ssl.CERT_NONE\n";
        assert!(project_hits(&TlsDisabled, &[("app/adapters.py", py)]).is_empty());
        let inline = "ctx = create_urllib3_context(\n    cert_reqs=ssl.CERT_REQUIRED if verify else ssl.CERT_NONE\n)\nagent = opts.insecure ? new https.Agent({ rejectUnauthorized: false }) : undefined\n";
        assert!(project_hits(&TlsDisabled, &[("app/ssl_.py", inline)]).is_empty());
        let js = "function agent(opts) {\n  if (opts.insecure) {\n    return new https.Agent({ rejectUnauthorized: false });\n  }\n}\n";
        assert!(project_hits(&TlsDisabled, &[("web/agent.js", js)]).is_empty());
        // A `case` of a switch on the user's mode (libpq's `sslmode=prefer` does not verify),
        // its label at the switch's indentation; a switch on something else still fires.
        let go = "func configTLS(sslmode string) {\n\tswitch sslmode {\n\tcase \"disable\":\n\t\treturn\n\tcase \"allow\", \"prefer\":\n\t\ttlsConfig.InsecureSkipVerify = true\n\t}\n}\n";
        assert!(project_hits(&TlsDisabled, &[("pgconn/config.go", go)]).is_empty());
        let helper = "def _make_unverified_context():\n    \"\"\"Create an SSL context that doesn't verify certificates.\"\"\"\n    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)\n    ctx.check_hostname = False\n\ndef client():\n    ctx = ssl.create_default_context()\n    ctx.check_hostname = False\n";
        let found = project_hits(&TlsDisabled, &[("scrapy/utils/ssl.py", helper)]);
        assert_eq!(found.len(), 1, "only the undocumented one: {found:?}");
        let own = "func verifyCA(c *tls.Config) {\n\tc.InsecureSkipVerify = true\n\tc.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {\n\t\treturn verify(raw)\n\t}\n}\n";
        assert!(project_hits(&TlsDisabled, &[("pgconn/ca.go", own)]).is_empty());
        assert_eq!(
            project_sink(&TlsDisabled, &[("pgconn/ca.go", own)])
                .hits
                .iter()
                .filter(|h| h.excuse.is_some())
                .count(),
            1,
            "excused, so a change that writes it still gates"
        );
        // A configuration directive's own case names the option the user wrote.
        let caddy = "func parse(d *Dispenser) {\n\tswitch d.Val() {\n\tcase \"tls_insecure_skip_verify\":\n\t\th.TLS.InsecureSkipVerify = true\n\t}\n}\n";
        assert!(hits(&TlsDisabled, "reverseproxy/caddyfile.go", caddy).is_empty());
        // The project's own security linter allows the line: excused.
        let nolint = "package caddytest\n\nfunc client() {\n\tc := &tls.Config{InsecureSkipVerify: true} //nolint:gosec\n}\n";
        assert_eq!(
            crate::rules::fixture::excused(&TlsDisabled, "caddytest/caddytest.go", nolint).len(),
            1
        );
        let other = go.replace("sslmode", "env");
        assert_eq!(
            project_hits(&TlsDisabled, &[("pgconn/config.go", &other)]).len(),
            1
        );
        // A branch on something else is still the code's own decision.
        let named = "try:\n    from ssl import CERT_NONE\nexcept ImportError:\n    CERT_NONE = None\nif conn.cert_reqs == CERT_NONE:\n    warn()\n";
        assert!(
            project_hits(&TlsDisabled, &[("kombu/connection.py", named)]).is_empty(),
            "named, not used"
        );
        let both =
            "if mode == CERT_NONE:\n    pass\nctx.verify_mode = CERT_NONE; same = ctx.verify_mode == CERT_NONE\n";
        assert_eq!(
            project_hits(&TlsDisabled, &[("app/tls.py", both)]).len(),
            1,
            "a line that compares and also assigns is read"
        );
        let py = "def pool(debug):\n    if debug:\n        reqs = ssl.CERT_NONE\n";
        assert_eq!(project_hits(&TlsDisabled, &[("app/pool.py", py)]).len(), 1);
        assert!(hits(
            &TlsDisabled,
            "tests/test_http.py",
            "requests.get(u, verify=False)\n"
        )
        .is_empty());
        // A benchmark's agent for its own loopback server.
        let bench = "const agent = new https.Agent({rejectUnauthorized: false});\n";
        assert!(project_hits(&TlsDisabled, &[("benchmark/index.ts", bench)]).is_empty());
        assert_eq!(
            project_hits(&TlsDisabled, &[("source/agent.ts", bench)]).len(),
            1
        );
    }

    #[test]
    fn a_server_not_asking_clients_for_certificates_verifies_nothing_less() {
        let config = "class Config:\n    def __init__(self, ssl_cert_reqs: int = ssl.CERT_NONE):\n        self.ssl_cert_reqs = ssl_cert_reqs\n\ndef create_ssl_context(certfile, keyfile, cert_reqs):\n    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)\n    ctx.load_cert_chain(certfile, keyfile)\n    ctx.verify_mode = ssl.VerifyMode(cert_reqs)\n    return ctx\n";
        assert!(project_hits(&TlsDisabled, &[("pkg/config.py", config)]).is_empty());
        // The CLI option's default in another file of the same package.
        let cli = "@click.option('--ssl-cert-reqs', default=int(ssl.CERT_NONE))\ndef main(ssl_cert_reqs):\n    run(ssl_cert_reqs)\n";
        let server = [("pkg/config.py", config), ("pkg/main.py", cli)];
        assert!(project_hits(&TlsDisabled, &server).is_empty());
        // Excused, not dropped: a change that writes such a setting still gates on it.
        let excused: Vec<String> =
            crate::rules::project_fixture::project_sink(&TlsDisabled, &server)
                .hits
                .into_iter()
                .filter(|h| h.excuse.is_some())
                .map(|h| h.location.path)
                .collect();
        assert_eq!(excused, ["pkg/config.py", "pkg/main.py"]);
        // The same default in a client package: verification off.
        let client = "def connect(host, cert_reqs=ssl.CERT_NONE):\n    ctx = ssl.create_default_context()\n    ctx.verify_mode = cert_reqs\n";
        assert_eq!(
            project_hits(&TlsDisabled, &[("pkg/client.py", client)]),
            vec![("pkg/client.py".to_string(), 1, "`CERT_NONE` turns certificate verification off: anyone on the network path can read and change the traffic".to_string())]
        );
        // Only the client-certificate patterns: `verify=False` in a server file still is one.
        let mixed = "ctx.load_cert_chain(c, k)\nrequests.get(url, verify=False)\n";
        assert_eq!(hits(&TlsDisabled, "pkg/mixed.py", mixed).len(), 1);
        let js = "https.createServer({ key, cert, requestCert: true, rejectUnauthorized: false }, app);\n";
        assert!(project_hits(&TlsDisabled, &[("lib/server.js", js)]).is_empty());
    }
}
