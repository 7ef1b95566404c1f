//! `--baseline FILE`: a previous retake SARIF or JSON output, read back as the fingerprints it
//! reported, so that today's findings are new or unchanged and yesterday's missing ones absent.

use protocol::{Finding, Severity};
use serde_json::Value;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

/// The key under which SARIF results carry retake's fingerprint (`partialFingerprints`).
pub const FINGERPRINT_KEY: &str = "retake/v1";

/// A finding's state relative to the baseline (SARIF's `baselineState` words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaselineState {
    /// Not in the baseline.
    New,
    /// In the baseline too.
    Unchanged,
    /// In the baseline, gone now.
    Absent,
}

impl BaselineState {
    /// The text form: `new`, `unchanged`, `absent`.
    pub fn as_str(self) -> &'static str {
        match self {
            BaselineState::New => "new",
            BaselineState::Unchanged => "unchanged",
            BaselineState::Absent => "absent",
        }
    }
}

/// One finding of the previous output: enough to list it again when it is absent now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaselineEntry {
    /// Its fingerprint.
    pub fingerprint: String,
    /// Its rule id (empty when the file did not say).
    pub rule: String,
    /// Its severity, when the file said.
    pub severity: Option<Severity>,
    /// Its repository-relative path (may be empty).
    pub path: String,
    /// Its line, when it had one.
    pub line: Option<u32>,
    /// What was wrong.
    pub description: String,
    /// The agent it was filed under.
    pub inspector: String,
}

/// The previous output's findings, in file order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Baseline {
    /// Every finding the previous output reported (absent ones of its own baseline excluded).
    pub entries: Vec<BaselineEntry>,
    /// The entries' fingerprints, so that each current finding is classified in O(1), not by a
    /// scan of the whole baseline (two large reports would make that quadratic).
    fingerprints: HashSet<String>,
}

/// The baseline file cannot be used; the message names the file.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// It cannot be read.
    #[error("cannot read baseline {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// It is not a retake SARIF or JSON output.
    #[error("baseline {}: {reason}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

/// Reads and parses a baseline file.
pub fn load(path: &Path) -> Result<Baseline, BaselineError> {
    let text = std::fs::read_to_string(path).map_err(|source| BaselineError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&text).map_err(|reason| BaselineError::Malformed {
        path: path.to_path_buf(),
        reason,
    })
}

/// Parses the text of a retake SARIF log or `--format json` object.
pub fn parse(text: &str) -> Result<Baseline, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
    if let Some(runs) = value.get("runs").and_then(Value::as_array) {
        if value.get("version").and_then(Value::as_str) != Some("2.1.0") {
            return Err("a SARIF log that is not version 2.1.0".into());
        }
        let mut entries = Vec::new();
        for run in runs {
            entries.extend(sarif_run(run)?);
        }
        Ok(Baseline::new(entries))
    } else if let Some(findings) = value.get("findings").and_then(Value::as_array) {
        let entries = findings
            .iter()
            .enumerate()
            .map(|(i, f)| json_finding(i, f))
            .collect::<Result<_, _>>()?;
        Ok(Baseline::new(entries))
    } else {
        Err(
            "neither a retake SARIF log (no \"runs\") nor a retake JSON report (no \"findings\")"
                .into(),
        )
    }
}

impl Baseline {
    /// A baseline of these entries.
    pub fn new(entries: Vec<BaselineEntry>) -> Baseline {
        let fingerprints = entries.iter().map(|e| e.fingerprint.clone()).collect();
        Baseline {
            entries,
            fingerprints,
        }
    }

    /// New or unchanged, by fingerprint.
    pub fn state(&self, fingerprint: &str) -> BaselineState {
        if self.fingerprints.contains(fingerprint) {
            BaselineState::Unchanged
        } else {
            BaselineState::New
        }
    }

    /// The baseline's findings no current finding carries the fingerprint of, once each.
    pub fn absent<'b>(&'b self, current: &[&Finding]) -> Vec<&'b BaselineEntry> {
        let now: BTreeSet<&str> = current.iter().map(|f| f.fingerprint.as_str()).collect();
        let mut seen = BTreeSet::new();
        self.entries
            .iter()
            .filter(|e| !now.contains(e.fingerprint.as_str()))
            .filter(|e| seen.insert(e.fingerprint.as_str()))
            .collect()
    }
}

fn sarif_run(run: &Value) -> Result<Vec<BaselineEntry>, String> {
    // `retake/<inspector>/<run id>`; other producers' runs fall back to the tool's name.
    let inspector = run
        .pointer("/automationDetails/id")
        .and_then(Value::as_str)
        .and_then(|id| id.split('/').nth(1))
        .or_else(|| run.pointer("/tool/driver/name").and_then(Value::as_str))
        .unwrap_or("retake")
        .to_string();
    let results = run.get("results").and_then(Value::as_array);
    let mut entries = Vec::new();
    for (i, r) in results.into_iter().flatten().enumerate() {
        if r.get("baselineState").and_then(Value::as_str) == Some("absent") {
            continue;
        }
        let fingerprint = r
            .pointer(&format!("/partialFingerprints/{}", FINGERPRINT_KEY.replace('/', "~1")))
            .and_then(Value::as_str)
            .ok_or_else(|| {
                format!("result {i} of run '{inspector}' has no partialFingerprints \"{FINGERPRINT_KEY}\": not a retake SARIF log")
            })?;
        let severity = r
            .pointer("/properties/severity")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok());
        let physical = r.pointer("/locations/0/physicalLocation");
        entries.push(BaselineEntry {
            fingerprint: fingerprint.to_string(),
            rule: text(r.get("ruleId")),
            severity,
            path: physical
                .and_then(|p| p.pointer("/artifactLocation/uri"))
                .and_then(Value::as_str)
                .map(percent_decode)
                .unwrap_or_default(),
            line: physical
                .and_then(|p| p.pointer("/region/startLine"))
                .and_then(Value::as_u64)
                .and_then(|l| u32::try_from(l).ok()),
            description: text(r.pointer("/message/text")),
            inspector: inspector.clone(),
        });
    }
    Ok(entries)
}

fn json_finding(i: usize, f: &Value) -> Result<BaselineEntry, String> {
    let fingerprint = f
        .get("fingerprint")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("finding {i} has no \"fingerprint\""))?;
    Ok(BaselineEntry {
        fingerprint: fingerprint.to_string(),
        rule: text(f.get("rule")),
        severity: f
            .get("severity")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok()),
        path: text(f.get("path")),
        line: f
            .get("line")
            .and_then(Value::as_u64)
            .and_then(|l| u32::try_from(l).ok()),
        description: text(f.get("description")),
        inspector: f
            .pointer("/agents/0")
            .and_then(Value::as_str)
            .unwrap_or("retake")
            .to_string(),
    })
}

fn text(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).unwrap_or_default().to_string()
}

/// Undoes the percent-encoding SARIF uris get; invalid escapes stay as they are.
fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::Location;

    fn finding(fp_key: &str) -> Finding {
        Finding::new(
            "inspector-quality",
            "quality/todo-marker",
            "incomplete",
            Severity::Medium,
            Location::at("src/a.rs", 3),
            "TODO",
            fp_key,
        )
    }

    #[test]
    fn reads_a_json_report_and_classifies_by_fingerprint() {
        let old = finding("old");
        let text = format!(
            r#"{{"verdict":"GO","findings":[{{"fingerprint":"{}","rule":"quality/todo-marker","severity":"M","path":"src/a.rs","line":3,"description":"TODO","agents":["inspector-quality"]}},{{"fingerprint":"gone0000gone0000","rule":"r","severity":"H","path":"b.rs","line":null,"description":"d","agents":[]}}]}}"#,
            old.fingerprint
        );
        let b = parse(&text).expect("parses");
        assert_eq!(b.state(&old.fingerprint), BaselineState::Unchanged);
        assert_eq!(b.state(&finding("new").fingerprint), BaselineState::New);
        let absent = b.absent(&[&old]);
        assert_eq!(absent.len(), 1);
        assert_eq!(
            (
                absent[0].fingerprint.as_str(),
                absent[0].severity,
                absent[0].inspector.as_str()
            ),
            ("gone0000gone0000", Some(Severity::High), "retake")
        );
    }

    #[test]
    fn reads_a_sarif_log_and_skips_its_absent_results() {
        let text = r#"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"retake"}},"automationDetails":{"id":"retake/inspector-test/r1"},"results":[
            {"ruleId":"test/x","message":{"text":"m"},"partialFingerprints":{"retake/v1":"aaaa"},"properties":{"severity":"C"},
             "locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/my%20file.rs","uriBaseId":"%SRCROOT%"},"region":{"startLine":7}}}]},
            {"ruleId":"test/y","message":{"text":"old"},"partialFingerprints":{"retake/v1":"bbbb"},"baselineState":"absent"}]}]}"#;
        let b = parse(text).expect("parses");
        assert_eq!(b.entries.len(), 1);
        let e = &b.entries[0];
        assert_eq!(
            (e.path.as_str(), e.line, e.inspector.as_str(), e.severity),
            (
                "src/my file.rs",
                Some(7),
                "inspector-test",
                Some(Severity::Critical)
            )
        );
    }

    #[test]
    fn refuses_what_is_not_a_retake_output() {
        assert!(parse("not json").unwrap_err().starts_with("not JSON"));
        assert!(parse("{}")
            .unwrap_err()
            .contains("neither a retake SARIF log"));
        assert_eq!(
            parse(r#"{"findings":[{"rule":"x"}]}"#).unwrap_err(),
            "finding 0 has no \"fingerprint\""
        );
        let foreign = r#"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"}}]}]}"#;
        assert!(parse(foreign)
            .unwrap_err()
            .contains("not a retake SARIF log"));
    }
}
