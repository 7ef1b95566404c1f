//! `holistic/hardcoded-credential`: secrets written into the repository.
//!
//! Two kinds of evidence: credential-shaped values (`key_shapes.rs`: AWS key ids, PEM private
//! keys, GitHub tokens), flagged wherever they appear, test code included — a real key in a test
//! is still a leaked key; and credential-named keys with a literal value (`assignments.rs`),
//! which test code is exempt from, since fixtures need passwords. A named literal that does not
//! look generated (under 16 characters, or no mix of letters and digits: `hunter2!`,
//! `mysqlrootpassword`) is what tests, examples and local setups use — reported excused, so a
//! change that writes one still gates. Neither description nor
//! fingerprint ever contains the secret itself. A PEM private key in test code, or in a file
//! whose name says it is not real (`gcs-fake-service-account.json`, `testdata/`), is the key of
//! the tests' own TLS server: reported excused ([`Hit::excuse`]) — suppressed in a review of the
//! repository, gating when the change under review adds it.

mod assignments;
mod key_shapes;
mod local_service;

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::line_hits::LazyTestCode;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "holistic/hardcoded-credential",
    category: Category::OperationalRisk,
    severity: Severity::High,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
        Language::Config,
    ],
    dimensions: &[Dimension::Security],
    explanation:
        "Hard-coded credentials: passwords, tokens and keys as literals, or well-known key shapes",
};

/// Lower-case substrings without which a file cannot hold a credential name or key shape.
const NEEDLES: [&str; 21] = [
    "passw",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "api_key",
    "api-key",
    "private_key",
    "privatekey",
    "private-key",
    "private key",
    "access_key",
    "accesskey",
    "access-key",
    "akia",
    "asia",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
];

/// Flags hard-coded credentials.
pub(crate) struct HardcodedCredential;

/// Whether a path's name says its content is not real: a word of its file name or folders is
/// `fake`, `dummy`, `mock`, `fixture(s)`, `testdata` or `test(s)`.
fn named_unreal(path: &str) -> bool {
    path.to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| {
            matches!(
                w,
                "fake" | "dummy" | "mock" | "fixture" | "fixtures" | "testdata" | "test" | "tests"
            )
        })
}

impl Rule for HardcodedCredential {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        if file.language.is_none() {
            return false;
        }
        let lower = file.text.to_ascii_lowercase();
        NEEDLES.iter().any(|n| lower.contains(n))
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(lang) = file.language else {
            return;
        };
        // A file without the start of any key shape is not read line by line for one.
        let lines: Vec<&str> = if key_shapes::may_hold(&file.text) {
            file.lines().collect()
        } else {
            Vec::new()
        };
        let mut tests = LazyTestCode::new(file);
        for (i, line) in lines.iter().enumerate() {
            if let Some(shape) = key_shapes::find(line, lines.get(i + 1).copied()) {
                let number = i as u32 + 1;
                let hit = Hit::new(
                    Location::at(&file.rel_path, number),
                    format!("{shape} is written into the source"),
                    format!("shape: {shape}"),
                )
                .suggest("revoke the credential now, remove it, and load it from the environment or a secret store");
                let fixture = shape == key_shapes::PEM
                    && (file.is_test_file()
                        || named_unreal(&file.rel_path)
                        || tests.contains(number));
                out.hit(if fixture {
                    hit.excused("a private key in test code or test data: the key of the tests' own TLS peer")
                } else {
                    hit
                });
            }
        }
        // A key's shape is a leak wherever it is; a name set to a literal in a test, an example
        // or documentation is a placeholder.
        if file.is_test_file() || file.is_illustration() {
            return;
        }
        let found = match lang {
            Language::Config => assignments::in_config(&file.text),
            _ => assignments::in_code(&file.lexed(lang)),
        };
        if found.is_empty() {
            return;
        }
        let tests = (lang == Language::Rust).then(|| TestCode::of(file));
        let all_lines: Vec<&str> = file.lines().collect();
        for a in found {
            if tests.as_ref().is_some_and(|t| t.contains(a.line)) {
                continue;
            }
            let hit = Hit::new(
                Location::at(&file.rel_path, a.line),
                format!(
                    "`{}` is set to a hard-coded literal ({} characters)",
                    a.key, a.value_chars
                ),
                format!("name: {}", a.key),
            )
            .suggest("read it from the environment or a secret store; never commit it");
            // Both excuses are what the file says of itself: trusted on lines the change under
            // review did not write (a dummy `image: postgres` added beside a real password the
            // change also wrote still gates).
            out.hit(
                if lang == Language::Config && local_service::is_own_database(&a.key, &file.text) {
                    hit.excused("the database (or service) it sets up is a container this file starts itself: a throwaway password")
                } else if local_service::beside_loopback(&all_lines, a.line) {
                    hit.excused("it is given beside a loopback host (`localhost`, `127.0.0.1`): the password of a server on the developer's own machine")
                } else if said_public(&all_lines, a.line) {
                    hit.excused("the comment above says the value is safe to publish (a native app's OAuth client secret, which cannot be kept secret)")
                } else if !a.generated {
                    hit.excused("a short or word-like value, not a generated secret (16+ characters, letters and digits): the kind tests, examples and local setups use")
                } else {
                    hit
                },
            );
        }
    }
}

/// Whether a comment on the line or the line above says the value may be published
/// ("This value is safe to be embedded in version control", "not a secret").
fn said_public(lines: &[&str], line: u32) -> bool {
    let at = line as usize;
    lines[at.saturating_sub(2)..at.min(lines.len())]
        .iter()
        .filter_map(|l| {
            l.split_once("//")
                .or_else(|| l.split_once('#'))
                .map(|(_, c)| c)
        })
        .map(str::to_lowercase)
        .any(|c| {
            c.contains("not a secret")
                || c.contains("not secret")
                || (c.contains("safe to")
                    && ["embed", "commit", "publish", "share"]
                        .iter()
                        .any(|w| c.contains(w)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_named_literals_in_code_and_config() {
        let rust = "const API_KEY: &str = \"sk_live_51Hx8Kq2ZtR9mXc0\";\nfn conn() -> Config {\n    Config { password: \"hunter2!\".into(), user: \"app\".into() }\n}\n";
        assert_eq!(
            hits(&HardcodedCredential, "src/conn.rs", rust),
            vec![(
                1,
                "`API_KEY` is set to a hard-coded literal (24 characters)".to_string()
            )]
        );
        // What people type is excused, not dropped: a change that writes it still gates.
        assert_eq!(
            crate::rules::fixture::excused(&HardcodedCredential, "src/conn.rs", rust),
            vec![(3, "a short or word-like value, not a generated secret (16+ characters, letters and digits): the kind tests, examples and local setups use".to_string())]
        );
        let py = "settings = {\"db_password\": 'changeme'}\nclient = Api(apiKey=\"k-1234\")\n";
        let lines: Vec<u32> =
            crate::rules::fixture::excused(&HardcodedCredential, "app/settings.py", py)
                .into_iter()
                .map(|h| h.0)
                .collect();
        assert_eq!(lines, vec![1, 2]);
        let yaml = "db:\n  user: app\n  password: s3cr3t-pw-9Xq2mZ7k\n";
        assert_eq!(
            hits(&HardcodedCredential, "deploy/values.yaml", yaml),
            vec![(
                3,
                "`password` is set to a hard-coded literal (18 characters)".to_string()
            )]
        );
    }

    #[test]
    fn a_demo_password_in_an_example_is_a_placeholder_but_a_key_shape_is_a_leak() {
        let text = format!(
            "const user = {{ password: 'f00barQ9x7Lm2Zk4P' }};\nconst id = \"AKIA{}\";\n",
            "Z9".repeat(8)
        );
        assert_eq!(
            hits(&HardcodedCredential, "examples/auth/index.js", &text),
            vec![(
                2,
                "an AWS access key id is written into the source".to_string()
            )]
        );
        assert_eq!(hits(&HardcodedCredential, "src/auth.js", &text).len(), 2);
    }

    #[test]
    fn a_private_key_in_test_code_or_fake_data_is_a_fixture_excused() {
        // Built at run time so this file holds no key shape itself.
        let key = format!(
            "var key = []byte(`-----BEGIN RSA {}\n{}\n-----END RSA PRIVATE KEY-----`)\n",
            "PRIVATE KEY-----",
            "MIIEowIBAAKCAQEA".repeat(4)
        );
        let excuse = "a private key in test code or test data: the key of the tests' own TLS peer";
        for path in [
            "client_proxy_server_test.go",
            "gcsfs/gcs-fake-credentials.go",
        ] {
            assert!(hits(&HardcodedCredential, path, &key).is_empty(), "{path}");
            assert_eq!(
                crate::rules::fixture::excused(&HardcodedCredential, path, &key),
                vec![(1, excuse.to_string())],
                "{path}"
            );
        }
        assert_eq!(hits(&HardcodedCredential, "server/tls.go", &key).len(), 1);
    }

    #[test]
    fn fires_on_key_shapes_even_in_tests() {
        let text = format!("fn t() {{\n    let id = \"AKIA{}\";\n}}\n", "Z9".repeat(8));
        assert_eq!(
            hits(&HardcodedCredential, "tests/aws.rs", &text),
            vec![(
                2,
                "an AWS access key id is written into the source".to_string()
            )]
        );
    }

    #[test]
    fn a_database_the_repository_runs_itself_has_no_secret_to_leak() {
        use crate::rules::fixture::excused;
        let ci = "jobs:\n  test:\n    services:\n      postgres:\n        image: postgres:17\n        env:\n          POSTGRES_PASSWORD: ci-secret\n    env:\n      PGPASSWORD: postgres\n      SAUCE_ACCESS_KEY: 9f8e7d6c5b4a39281706\n";
        assert_eq!(
            hits(&HardcodedCredential, ".github/workflows/ci.yml", ci),
            vec![(
                10,
                "`SAUCE_ACCESS_KEY` is set to a hard-coded literal (20 characters)".to_string()
            )]
        );
        assert_eq!(
            excused(&HardcodedCredential, ".github/workflows/ci.yml", ci).len(),
            2,
            "kept, excused: a change that writes them still gates"
        );
        let script = "const con = mysql.createConnection({\n  host: 'localhost',\n  user: 'root',\n  password: 'mysqlrootpassword',\n});\n";
        assert!(hits(&HardcodedCredential, "scripts/stress.js", script).is_empty());
        assert_eq!(
            excused(&HardcodedCredential, "scripts/stress.js", script).len(),
            1
        );
        // A plain word under the bare name `token` is a token's kind, not a secret.
        let ts = "let token: FormatToken;\nif (diff < -6) {\n  token = \"other\";\n}\nconst auth = { token: \"ghx9Q2mPz81Lk4Tw\" };\n";
        assert_eq!(
            hits(&HardcodedCredential, "src/format.ts", ts),
            vec![(
                5,
                "`token` is set to a hard-coded literal (16 characters)".to_string()
            )]
        );
    }

    #[test]
    fn quiet_on_placeholders_lookups_labels_and_test_fixtures() {
        let rust = "fn f() {\n    let password = std::env::var(\"DB_PASSWORD\")?;\n    let api_key = \"\";\n    if token == \"expired\" {}\n    let label = Labels { password: \"Password\", secret_name: \"db-creds\" };\n}\nconst TOKEN_TYPE: &str = \"bearer\";\n// password = \"hunter2\"\n#[cfg(test)]\nmod tests {\n    const PASSWORD: &str = \"fixture-pw\";\n}\n";
        assert_eq!(hits(&HardcodedCredential, "src/a.rs", rust), vec![]);
        let yaml = "password: ${DB_PASSWORD}\ntoken: \"{{ .Values.token }}\"\napi_key: <your key here>\nsecret: '***'\nprivate_key: /run/secrets/key\ntoken: sparkpost-dev-token\npassword: your-password-here\npermissions:\n  id-token: write\n";
        assert!(hits(&HardcodedCredential, "deploy/values.yaml", yaml).is_empty());
        assert!(hits(
            &HardcodedCredential,
            "tests/test_login.py",
            "password = 'hunter2'\n"
        )
        .is_empty());
        // The default belongs to the next parameter; a keyword argument is still a literal.
        let py = "def generate_password_hash(\n    password: str, method: str = \"scrypt\", salt_length: int = 16\n) -> str:\n    connect(host, password=\"hunter2!Xk9Lm3Qz\")\n";
        assert_eq!(
            hits(&HardcodedCredential, "app/security.py", py),
            vec![(
                4,
                "`password` is set to a hard-coded literal (16 characters)".to_string()
            )]
        );
    }

    #[test]
    fn a_value_the_code_says_is_safe_to_publish_is_excused() {
        let go = "package authflow\n\nvar (\n\t// This value is safe to be embedded in version control\n\toauthClientSecret = \"34ddeff2b558a23d38fba8a6de74f086ede1cc0b\"\n\tapiSecret = \"9f8e7d6c5b4a39281706f5e4d3c2b1a098765432\"\n)\n";
        let excused: Vec<u32> =
            crate::rules::fixture::excused(&HardcodedCredential, "internal/authflow/flow.go", go)
                .into_iter()
                .map(|h| h.0)
                .collect();
        assert_eq!(excused, vec![5]);
        let open: Vec<u32> = hits(&HardcodedCredential, "internal/authflow/flow.go", go)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(open, vec![6]);
    }
}
