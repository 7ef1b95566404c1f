//! Reading `ruff check --output-format=json`: a JSON array of violations, each with a code,
//! a message, an absolute file name and a start and end location.

use super::{relative, Diagnostic};
use serde_json::Value;
use std::path::Path;

/// The violations of ruff's JSON output, located relative to `root`; `None` when the output is
/// not ruff's JSON (a crash, a usage error).
pub(crate) fn parse(stdout: &str, root: &Path) -> Option<Vec<Diagnostic>> {
    let value: Value = serde_json::from_str(stdout.trim()).ok()?;
    let items = value.as_array()?;
    Some(
        items
            .iter()
            .filter_map(|v| {
                let line = v["location"]["row"].as_u64()? as u32;
                Some(Diagnostic {
                    path: relative(root, v["filename"].as_str()?),
                    line,
                    end_line: v["end_location"]["row"].as_u64().map_or(line, |l| l as u32),
                    code: v["code"].as_str().unwrap_or("syntax-error").to_string(),
                    error: v["code"].is_null(),
                    deny_by_default: false,
                    message: v["message"].as_str().unwrap_or_default().to_string(),
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Captured from `ruff check --output-format=json --exit-zero .` (ruff 0.17.6), trimmed of
    /// `fix` and `url`.
    const CAPTURED: &str = r#"[
  {"cell": null, "code": "F401", "end_location": {"column": 10, "row": 1}, "filename": "/tmp/pyproj/app.py", "fix": null, "location": {"column": 8, "row": 1}, "message": "`os` imported but unused", "name": "unused-import", "noqa_row": 1, "severity": "error"},
  {"cell": null, "code": "F841", "end_location": {"column": 6, "row": 5}, "filename": "/tmp/pyproj/app.py", "fix": null, "location": {"column": 5, "row": 5}, "message": "Local variable `y` is assigned to but never used", "name": "unused-variable", "noqa_row": 5, "severity": "error"},
  {"cell": null, "code": "E711", "end_location": {"column": 21, "row": 6}, "filename": "/tmp/pyproj/app.py", "fix": null, "location": {"column": 17, "row": 6}, "message": "Comparison to `None` should be `cond is None`", "name": "none-comparison", "noqa_row": 6, "severity": "error"}
]"#;

    #[test]
    fn reads_violations() {
        let found = parse(CAPTURED, Path::new("/tmp/pyproj")).expect("ruff JSON");
        let summary: Vec<(&str, u32, &str)> = found
            .iter()
            .map(|d| (d.path.as_str(), d.line, d.code.as_str()))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("app.py", 1, "F401"),
                ("app.py", 5, "F841"),
                ("app.py", 6, "E711")
            ]
        );
        assert_eq!(
            found[1].message,
            "Local variable `y` is assigned to but never used"
        );
        assert_eq!(parse("[]", Path::new("/")), Some(Vec::new()));
        assert_eq!(parse("error: unexpected argument", Path::new("/")), None);
    }
}
