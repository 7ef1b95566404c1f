//! Reading `eslint --format json`: a JSON array with one entry per file (absolute
//! `filePath`), each with its `messages` (rule id, severity 1 = warning / 2 = error, lines);
//! and whether a repository configures eslint at its root.

use super::{relative, Diagnostic};
use serde_json::Value;
use std::path::Path;

/// eslint's configuration files (flat config, then the legacy `.eslintrc` forms).
const CONFIG_FILES: [&str; 12] = [
    "eslint.config.js",
    "eslint.config.mjs",
    "eslint.config.cjs",
    "eslint.config.ts",
    "eslint.config.mts",
    "eslint.config.cts",
    ".eslintrc",
    ".eslintrc.js",
    ".eslintrc.cjs",
    ".eslintrc.json",
    ".eslintrc.yaml",
    ".eslintrc.yml",
];

/// Whether the repository at `root` configures eslint: a config file at the root, or an
/// `eslintConfig` key in its `package.json`.
pub(crate) fn configured(root: &Path) -> bool {
    CONFIG_FILES.iter().any(|f| root.join(f).is_file())
        || std::fs::read_to_string(root.join("package.json"))
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .is_some_and(|manifest| manifest.get("eslintConfig").is_some())
}

/// The messages of eslint's JSON output, located relative to `root`; `None` when the output is
/// not eslint's JSON.
pub(crate) fn parse(stdout: &str, root: &Path) -> Option<Vec<Diagnostic>> {
    let value: Value = serde_json::from_str(stdout.trim()).ok()?;
    let mut out = Vec::new();
    for file in value.as_array()? {
        let Some(path) = file["filePath"].as_str() else {
            continue;
        };
        for m in file["messages"].as_array().into_iter().flatten() {
            let Some(line) = m["line"].as_u64() else {
                continue;
            };
            out.push(Diagnostic {
                path: relative(root, path),
                line: line as u32,
                end_line: m["endLine"].as_u64().unwrap_or(line) as u32,
                // A parse error has no rule id.
                code: m["ruleId"].as_str().unwrap_or("parse-error").to_string(),
                error: m["severity"] == 2,
                deny_by_default: false,
                message: m["message"].as_str().unwrap_or_default().to_string(),
            });
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of `eslint --format json` (ESLint 8/9 documentation's example output).
    const SAMPLE: &str = r#"[
  {"filePath": "/r/web/app.js", "messages": [
    {"ruleId": "no-unused-vars", "severity": 2, "message": "'x' is assigned a value but never used.", "line": 3, "column": 7, "nodeType": "Identifier", "messageId": "unusedVar", "endLine": 3, "endColumn": 8},
    {"ruleId": "eqeqeq", "severity": 1, "message": "Expected '===' and instead saw '=='.", "line": 5, "column": 9, "endLine": 5, "endColumn": 11}
  ], "suppressedMessages": [], "errorCount": 1, "fatalErrorCount": 0, "warningCount": 1, "fixableErrorCount": 0, "fixableWarningCount": 0},
  {"filePath": "/r/web/ok.js", "messages": [], "errorCount": 0, "warningCount": 0}
]"#;

    #[test]
    fn reads_messages_per_file() {
        let found = parse(SAMPLE, Path::new("/r")).expect("eslint JSON");
        let summary: Vec<(&str, u32, &str, bool)> = found
            .iter()
            .map(|d| (d.path.as_str(), d.line, d.code.as_str(), d.error))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("web/app.js", 3, "no-unused-vars", true),
                ("web/app.js", 5, "eqeqeq", false)
            ]
        );
        assert_eq!(parse("Oops! Something went wrong!", Path::new("/")), None);
    }

    #[test]
    fn configured_by_a_config_file_or_package_json() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        assert!(!configured(root));
        std::fs::write(
            root.join("package.json"),
            r#"{"name": "x", "devDependencies": {}}"#,
        )
        .expect("write");
        assert!(!configured(root), "a package.json without eslintConfig");
        std::fs::write(root.join("eslint.config.mjs"), "export default [];\n").expect("write");
        assert!(configured(root));
        std::fs::remove_file(root.join("eslint.config.mjs")).expect("rm");
        std::fs::write(
            root.join("package.json"),
            r#"{"eslintConfig": {"extends": "x"}}"#,
        )
        .expect("write");
        assert!(configured(root));
    }
}
