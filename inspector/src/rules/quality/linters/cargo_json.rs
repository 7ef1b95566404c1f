//! Reading cargo's `--message-format=json` output (rustc and clippy diagnostics): one JSON
//! object per line; `compiler-message` lines carry a diagnostic whose primary span locates it.

use super::{relative, Diagnostic};
use serde_json::Value;
use std::path::Path;

/// The diagnostics of cargo's JSON output, located relative to `root`; lines that are not
/// compiler messages (artifacts, build-finished, plain text) are skipped. Each diagnostic is
/// listed once even when two targets (lib and its tests) report it.
pub(crate) fn parse(stdout: &str, root: &Path) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    for line in stdout.lines().filter(|l| l.starts_with('{')) {
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if value["reason"] != "compiler-message" {
            continue;
        }
        let message = &value["message"];
        let Some(span) = message["spans"]
            .as_array()
            .and_then(|spans| spans.iter().find(|s| s["is_primary"] == true))
        else {
            continue;
        };
        let (Some(file), Some(line), Some(end)) = (
            span["file_name"].as_str(),
            span["line_start"].as_u64(),
            span["line_end"].as_u64(),
        ) else {
            continue;
        };
        let code = message["code"]["code"].as_str().unwrap_or_default();
        // rustc's note on a lint at its default level: "`#[deny(clippy::eq_op)]` on by default".
        let default_deny = format!("`#[deny({code})]` on by default");
        let deny_by_default = message["children"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|c| c["message"] == default_deny.as_str());
        let diagnostic = Diagnostic {
            path: relative(root, file),
            line: line as u32,
            end_line: end as u32,
            code: code.to_string(),
            error: message["level"] == "error",
            deny_by_default,
            message: message["message"].as_str().unwrap_or_default().to_string(),
        };
        if !out.contains(&diagnostic) {
            out.push(diagnostic);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Captured from `cargo check --message-format=json` and `cargo clippy` (rustc 1.95),
    /// trimmed of `rendered` and `children`.
    const CAPTURED: &str = r#"{"reason":"compiler-artifact","package_id":"path+file:///tmp/capt#0.1.0","fresh":false}
{"reason":"compiler-message","package_id":"path+file:///tmp/capt#0.1.0","manifest_path":"/tmp/capt/Cargo.toml","target":{"kind":["lib"],"name":"capt","src_path":"/tmp/capt/src/lib.rs"},"message":{"rendered":"warning: unused import: `HashSet`","$message_type":"diagnostic","children":[],"code":{"code":"unused_imports","explanation":null},"level":"warning","message":"unused import: `HashSet`","spans":[{"byte_end":39,"byte_start":32,"column_end":40,"column_start":33,"expansion":null,"file_name":"src/lib.rs","is_primary":true,"label":null,"line_end":1,"line_start":1,"suggested_replacement":null,"suggestion_applicability":null,"text":[]}]}}
{"reason":"compiler-message","package_id":"path+file:///tmp/capt#0.1.0","manifest_path":"/tmp/capt/Cargo.toml","target":{"kind":["lib"],"name":"capt","src_path":"/tmp/capt/src/lib.rs"},"message":{"rendered":"warning: function `helper` is never used","$message_type":"diagnostic","children":[],"level":"warning","message":"function `helper` is never used","spans":[{"byte_end":52,"byte_start":46,"column_end":10,"column_start":4,"expansion":null,"file_name":"src/lib.rs","is_primary":true,"label":null,"line_end":3,"line_start":3,"suggested_replacement":null,"suggestion_applicability":null,"text":[]}],"code":{"code":"dead_code","explanation":null}}}
{"reason":"compiler-message","package_id":"path+file:///tmp/capt#0.1.0","manifest_path":"/tmp/capt/Cargo.toml","target":{"kind":["lib"],"name":"capt","src_path":"/tmp/capt/src/lib.rs","test":true},"message":{"rendered":"warning: function `helper` is never used","$message_type":"diagnostic","children":[],"level":"warning","message":"function `helper` is never used","spans":[{"file_name":"src/lib.rs","is_primary":true,"line_end":3,"line_start":3}],"code":{"code":"dead_code","explanation":null}}}
{"reason":"compiler-message","package_id":"path+file:///tmp/capt#0.1.0","manifest_path":"/tmp/capt/Cargo.toml","target":{"kind":["lib"],"name":"capt","src_path":"/tmp/capt/src/lib.rs"},"message":{"rendered":"warning: unneeded `return` statement","$message_type":"diagnostic","children":[],"code":{"code":"clippy::needless_return","explanation":null},"level":"warning","message":"unneeded `return` statement","spans":[{"byte_end":140,"byte_start":126,"column_end":19,"column_start":5,"expansion":null,"file_name":"src/lib.rs","is_primary":true,"label":null,"line_end":9,"line_start":9,"suggested_replacement":null,"suggestion_applicability":null,"text":[]}]}}
{"reason":"build-finished","success":true}
"#;

    #[test]
    fn reads_located_diagnostics_once_each() {
        let found = parse(CAPTURED, Path::new("/tmp/capt"));
        let summary: Vec<(&str, u32, &str, &str)> = found
            .iter()
            .map(|d| (d.path.as_str(), d.line, d.code.as_str(), d.message.as_str()))
            .collect();
        assert_eq!(
            summary,
            vec![
                (
                    "src/lib.rs",
                    1,
                    "unused_imports",
                    "unused import: `HashSet`"
                ),
                (
                    "src/lib.rs",
                    3,
                    "dead_code",
                    "function `helper` is never used"
                ),
                (
                    "src/lib.rs",
                    9,
                    "clippy::needless_return",
                    "unneeded `return` statement"
                ),
            ]
        );
        assert!(found.iter().all(|d| !d.error && !d.deny_by_default));
        // Captured from clippy 0.1.95 (children trimmed to rustc's level notes).
        let denied = r#"{"reason":"compiler-message","message":{"code":{"code":"clippy::eq_op","explanation":null},"level":"error","message":"equal expressions as operands to `==`","children":[{"message":"`#[deny(clippy::eq_op)]` on by default","level":"note","spans":[],"children":[]}],"spans":[{"file_name":"src/lib.rs","is_primary":true,"line_start":2,"line_end":2}]}}
{"reason":"compiler-message","message":{"code":{"code":"clippy::needless_return","explanation":null},"level":"error","message":"unneeded `return` statement","children":[{"message":"`-D clippy::needless-return` implied by `-D warnings`","level":"note","spans":[],"children":[]}],"spans":[{"file_name":"src/lib.rs","is_primary":true,"line_start":2,"line_end":2}]}}"#;
        let levels: Vec<(String, bool, bool)> = parse(denied, Path::new("/tmp/capt"))
            .into_iter()
            .map(|d| (d.code, d.error, d.deny_by_default))
            .collect();
        assert_eq!(
            levels,
            vec![
                ("clippy::eq_op".to_string(), true, true),
                ("clippy::needless_return".to_string(), true, false)
            ],
            "an error by the project's -D warnings is not deny-by-default"
        );
        assert!(parse(
            "not json\n{\"reason\":\"build-finished\"}\n",
            Path::new("/")
        )
        .is_empty());
    }
}
