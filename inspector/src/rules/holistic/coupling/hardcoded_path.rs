//! `holistic/hardcoded-path`: absolute file-system paths written into library code (`"/home/..."`,
//! `"/tmp/..."`, `"/etc/myapp/..."`, `"C:\\..."`). The code then runs only on machines laid out like
//! the author's; the path belongs in configuration or should come from the platform
//! (`std::env::temp_dir`, `dirs`, `tempfile`).
//!
//! Only string literals count, only under the roots of [`ROOTS`] (an HTTP route `"/api/users"`
//! is not a path; `/proc`, `/dev`, `/bin/sh` are OS interfaces). Not flagged: a literal on a
//! line that names a default (`DEFAULT_CONFIG`, `default_value = ..`: a documented, overridable
//! choice), messages (literals with spaces), well-known system files ([`SYSTEM_FILES`]),
//! configuration files, binaries, and test code.

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::args::quoted_body;
use crate::rules::holistic::fixed_literals::fixed_literals;
use crate::rules::library_code::is_library_file;
use protocol::{Category, Dimension, Location, Severity};

/// Absolute roots under which a path is machine-specific.
const ROOTS: [&str; 12] = [
    "/home/",
    "/Users/",
    "/tmp/",
    "/var/",
    "/etc/",
    "/opt/",
    "/srv/",
    "/mnt/",
    "/media/",
    "/root/",
    "/usr/local/",
    "/data/",
];

/// System files every Unix has at that path.
const SYSTEM_FILES: [&str; 9] = [
    "/etc/passwd",
    "/etc/group",
    "/etc/hosts",
    "/etc/os-release",
    "/etc/resolv.conf",
    "/etc/localtime",
    "/etc/machine-id",
    "/etc/ssl/",
    "/var/run/secrets/kubernetes.io",
];

static META: RuleMeta = RuleMeta {
    id: "holistic/hardcoded-path",
    category: Category::ImplicitCoupling,
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Architecture, Dimension::BestPractices],
    explanation:
        "Hard-coded absolute paths (/home/.., /tmp/.., C:\\..) in library code: machine-specific",
};

/// Flags hard-coded absolute paths.
pub(crate) struct HardcodedPath;

impl Rule for HardcodedPath {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.language.is_some_and(|l| META.languages.contains(&l))
            && (ROOTS.iter().any(|r| file.text.contains(r)) || file.text.contains(":\\"))
            && is_library_file(file)
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        for (line, path) in fixed_literals(file, absolute_path) {
            out.hit(
                Hit::new(
                    Location::at(&file.rel_path, line),
                    format!("hard-coded absolute path `{path}`: the code only works where that path exists"),
                    format!("path {path}"),
                )
                .suggest("take it from configuration, or from the platform (temp_dir, the user's dirs)"),
            );
        }
    }
}

/// The literal's text when it is a machine-specific absolute path.
fn absolute_path(literal: &str) -> Option<&str> {
    let inner = quoted_body(literal)?;
    if inner.contains(char::is_whitespace) || SYSTEM_FILES.iter().any(|s| inner.starts_with(s)) {
        return None;
    }
    // A root alone (`"/tmp"`, `"/home/"`) is a pattern, not a place: a path names something in it.
    let unix = ROOTS.iter().any(|r| {
        inner
            .strip_prefix(r)
            .is_some_and(|rest| r.ends_with('/') && !rest.trim_matches('/').is_empty())
    });
    let b = inner.as_bytes();
    let windows = b.len() > 3
        && b[0].is_ascii_alphabetic()
        && b[1] == b':'
        && (b[2] == b'\\' || b[2] == b'/');
    (unix || windows).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn fires_on_machine_specific_paths() {
        let rust = "pub fn load() -> Config {\n    read(\"/home/alice/app/config.toml\")\n}\npub fn scratch() -> PathBuf { PathBuf::from(\"/tmp/app-cache\") }\n";
        assert_eq!(
            hits(&HardcodedPath, "src/config.rs", rust),
            vec![
                (2, "hard-coded absolute path `/home/alice/app/config.toml`: the code only works where that path exists".to_string()),
                (4, "hard-coded absolute path `/tmp/app-cache`: the code only works where that path exists".to_string()),
            ]
        );
        let py = "DATA = r\"C:\\Users\\bob\\data.csv\"\n";
        assert_eq!(hits(&HardcodedPath, "app/io.py", py).len(), 1);
    }

    #[test]
    fn quiet_on_routes_defaults_messages_system_files_and_binaries() {
        let rust = "const DEFAULT_CONFIG: &str = \"/etc/app/config.toml\";\nfn f() {\n    route(\"/api/users\");\n    let users = read(\"/etc/passwd\");\n    bail!(\"no config in /etc/app\");\n    let sh = \"/bin/sh\";\n    let roots = [\"/home/\", \"/tmp\"];\n    let stat = format!(\"/proc/{pid}/stat\");\n}\n#[cfg(test)]\nmod tests {\n    const P: &str = \"/tmp/x\";\n}\n";
        assert!(hits(&HardcodedPath, "src/a.rs", rust).is_empty());
        assert!(hits(
            &HardcodedPath,
            "src/main.rs",
            "fn main() { run(\"/opt/app\"); }\n"
        )
        .is_empty());
        assert!(hits(
            &HardcodedPath,
            "tests/it.rs",
            "fn t() { run(\"/opt/app\"); }\n"
        )
        .is_empty());
    }
}
