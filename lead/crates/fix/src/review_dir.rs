//! The review a fix session works from: a review's journal folder (`.retake/runs/<id>/`, as
//! `retake review` leaves it), its repository, and its findings.
//!
//! The findings are the Auditor's when the review got that far: `verdict.cpf`'s VERIFIED rows
//! (false positives removed, duplicates merged, severities re-graded), each enriched from the
//! journaled Inspector report that carries the same category and location (`reports/*.json`
//! keep what CPF cannot: rule, suggestion, auto-fixability, dimensions, fingerprint). Without a
//! verdict (an interrupted review, reports from elsewhere) every journaled report's findings
//! are used, merged by fingerprint. Reports only in CPF (`reports/*.cpf` with no `.json`) are
//! read too; their findings are never auto-fixable, since CPF cannot say so.
//!
//! A review cycle's folder (`.retake/reviews/<id>/`, see `review::review_cycle`) has no verdict:
//! its `reports/review-cycle.json` holds the Auditor's verified findings with the severities
//! the deep-dive re-assessed, and is read like any journaled report.

use super::FixError;
use protocol::cpf::{parse_report, parse_verdict};
use protocol::{Finding, InspectorReport, Location};
use std::path::{Path, PathBuf};

/// The findings of a review, with notes on what was left out and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewFindings {
    /// Unsuppressed findings on a file inside the repository.
    pub findings: Vec<Finding>,
    /// Where they came from (`verdict.cpf` or the reports).
    pub source: String,
    /// One line per finding left out.
    pub notes: Vec<String>,
}

/// The repository a review folder belongs to: the folder above the `.retake` that holds it,
/// else `fallback`.
pub fn repository_of(review_dir: &Path, fallback: &Path) -> PathBuf {
    review_dir
        .ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == ".retake"))
        .and_then(Path::parent)
        .map_or_else(|| fallback.to_path_buf(), Path::to_path_buf)
}

/// Reads the review's findings; a folder that is not a review, or a malformed file in it, is
/// bad input.
pub fn load(dir: &Path) -> Result<ReviewFindings, FixError> {
    let reports_dir = dir.join("reports");
    let mut names: Vec<PathBuf> = match std::fs::read_dir(&reports_dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "cpf"))
            .collect(),
        Err(_) => Vec::new(),
    };
    names.sort();
    if names.is_empty() {
        let hint = if dir.join("pipeline-1").is_dir() {
            ": it is a consensus review, pass one of its pipeline-K folders"
        } else {
            " (a review folder is .retake/runs/<id>/ or .retake/reviews/<id>/, with reports/*.json or reports/*.cpf)"
        };
        return Err(FixError::BadInput(format!(
            "{} is not a review folder: it has no journaled reports{hint}",
            dir.display()
        )));
    }
    let review = dir
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let merged = merged(read_reports(&names, &review)?);
    let verdict_path = dir.join("verdict.cpf");
    let (audited, source) = if verdict_path.is_file() {
        let text = std::fs::read_to_string(&verdict_path).map_err(|e| {
            FixError::BadInput(format!("cannot read {}: {e}", verdict_path.display()))
        })?;
        let verdict = parse_verdict(&text).map_err(|e| {
            FixError::BadInput(format!("malformed verdict {}: {e}", verdict_path.display()))
        })?;
        (
            audited(&merged, &verdict, &review),
            "verdict.cpf".to_string(),
        )
    } else if dir.join("review-state.json").is_file() {
        (
            merged,
            "the review cycle's re-assessed findings".to_string(),
        )
    } else {
        (merged, format!("{} journaled reports", names.len()))
    };
    let mut findings = Vec::new();
    let mut notes = Vec::new();
    for f in audited.into_iter().filter(|f| f.suppression.is_none()) {
        if f.location.path.is_empty() {
            notes.push(format!(
                "{} ({}) is repository-wide: no file to fix",
                f.rule, f.description
            ));
        } else if f.location.resolve(Path::new("")).is_err() {
            notes.push(format!(
                "{} at {} points outside the repository: left out",
                f.rule, f.location
            ));
        } else {
            findings.push(f);
        }
    }
    Ok(ReviewFindings {
        findings,
        source,
        notes,
    })
}

/// The reports at `paths` (a report's JSON preferred to its CPF), of review `review`.
fn read_reports(paths: &[PathBuf], review: &str) -> Result<Vec<InspectorReport>, FixError> {
    let mut reports: Vec<InspectorReport> = Vec::new();
    for path in paths {
        let is_json = path.extension().is_some_and(|x| x == "json");
        if !is_json && path.with_extension("json").is_file() {
            continue;
        }
        let text = std::fs::read_to_string(path).map_err(|e| {
            FixError::BadInput(format!("cannot read the report {}: {e}", path.display()))
        })?;
        let malformed =
            |e: String| FixError::BadInput(format!("malformed report {}: {e}", path.display()));
        reports.push(if is_json {
            serde_json::from_str(&text).map_err(|e| malformed(e.to_string()))?
        } else {
            let stem = path
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            let cpf = parse_report(&text).map_err(|e| malformed(e.to_string()))?;
            InspectorReport::from_cpf(&stem, review, cpf)
        });
    }
    Ok(reports)
}

/// The reports' findings, one per fingerprint with every agent that reported it.
fn merged(reports: Vec<InspectorReport>) -> Vec<Finding> {
    let mut merged: Vec<Finding> = Vec::new();
    for f in reports.into_iter().flat_map(|r| r.findings) {
        match merged.iter_mut().find(|m| m.fingerprint == f.fingerprint) {
            Some(m) => {
                for a in f.agents {
                    if !m.agents.contains(&a) {
                        m.agents.push(a);
                    }
                }
            }
            None => merged.push(f),
        }
    }
    merged
}

/// The verdict's VERIFIED rows as findings: each report finding with the row's category and
/// location (at the row's severity), or, when no report has it, the row itself.
fn audited(
    reported: &[Finding],
    verdict: &protocol::cpf::VerdictCpf,
    review: &str,
) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for row in &verdict.verified {
        let location = Location::parse(&row.location);
        let matching: Vec<&Finding> = reported
            .iter()
            .filter(|f| f.category == row.category && f.location == location)
            .collect();
        if matching.is_empty() {
            let agent = row.agents.join("+");
            let report = InspectorReport::from_cpf(
                &agent,
                review,
                protocol::cpf::ReportCpf {
                    verdict: None,
                    scope: None,
                    issues: vec![protocol::cpf::CpfIssue {
                        severity: row.severity,
                        category: row.category.clone(),
                        location: row.location.clone(),
                        description: row.description.clone(),
                    }],
                    notes: Vec::new(),
                    questions: Vec::new(),
                },
            );
            out.extend(report.findings);
            continue;
        }
        for f in matching {
            if out.iter().any(|o| o.fingerprint == f.fingerprint) {
                continue;
            }
            let mut f = f.clone();
            f.severity = row.severity;
            out.push(f);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Coverage, Severity};

    fn report(name: &str, findings: Vec<Finding>) -> InspectorReport {
        InspectorReport {
            review: "r1".into(),
            inspector: name.into(),
            kind: None,
            scope: "repository".into(),
            findings,
            notes: vec![],
            claims: vec![],
            coverage: Coverage::default(),
            preexisting: Vec::new(),
        }
    }

    fn finding(agent: &str, path: &str, line: u32, key: &str) -> Finding {
        let mut f = Finding::new(
            agent,
            "quality/compiler-dead-code",
            "dead-code",
            Severity::Low,
            Location::at(path, line),
            format!("unused import: `{key}`"),
            key,
        );
        f.auto_fixable = true;
        f
    }

    fn write_report(dir: &Path, r: &InspectorReport) {
        let path = dir.join("reports").join(format!("{}.json", r.inspector));
        std::fs::write(path, serde_json::to_vec(r).unwrap()).unwrap();
    }

    #[test]
    fn without_a_verdict_reports_merge_by_fingerprint() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(".retake/runs/r1");
        std::fs::create_dir_all(dir.join("reports")).unwrap();
        let a = finding("inspector-quality", "src/a.rs", 1, "HashMap");
        let mut quality = report("inspector-quality", vec![a.clone()]);
        // Already there before the reviewed change: never a fix task.
        quality.preexisting = vec![finding("inspector-quality", "src/c.rs", 9, "BTreeMap")];
        write_report(&dir, &quality);
        let mut twin = a.clone();
        twin.agents = vec!["inspector-rulebase".into()];
        let mut wide = finding("inspector-rulebase", "", 0, "x");
        wide.location = Location::default();
        let outside = finding("inspector-rulebase", "../etc/passwd", 1, "y");
        write_report(
            &dir,
            &report("inspector-rulebase", vec![twin, wide, outside]),
        );
        std::fs::write(
            dir.join("reports/inspector-test.cpf"),
            "VERDICT:NO-GO\nISSUES:\nH|test-failure|src/b.rs:4|test add failed\n",
        )
        .unwrap();
        let got = load(&dir).unwrap();
        assert_eq!(got.source, "3 journaled reports");
        assert_eq!(got.findings.len(), 2, "{:?}", got.findings);
        assert_eq!(
            got.findings[0].agents,
            vec!["inspector-quality", "inspector-rulebase"]
        );
        assert_eq!(got.findings[1].location.to_string(), "src/b.rs:4");
        assert!(!got.findings[1].auto_fixable);
        assert_eq!(got.notes.len(), 2);
        assert!(got.notes[1].contains("points outside the repository"));
        assert_eq!(repository_of(&dir, Path::new("/x")), tmp.path());
        assert_eq!(repository_of(tmp.path(), Path::new("/x")), Path::new("/x"));
    }

    #[test]
    fn the_verdict_decides_which_findings_remain_and_their_severity() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("r2");
        std::fs::create_dir_all(dir.join("reports")).unwrap();
        let kept = finding("inspector-quality", "src/a.rs", 1, "HashMap");
        let dropped = finding("inspector-quality", "src/a.rs", 2, "Write");
        write_report(&dir, &report("inspector-quality", vec![kept, dropped]));
        std::fs::write(
            dir.join("verdict.cpf"),
            "VERDICT:NO-GO\nVERIFIED:\ninspector-quality|M|dead-code|src/a.rs:1|unused import\n\
             inspector-test|H|test-failure|src/c.rs:9|test failed\n",
        )
        .unwrap();
        let got = load(&dir).unwrap();
        assert_eq!(got.source, "verdict.cpf");
        let shape: Vec<(String, Severity, bool)> = got
            .findings
            .iter()
            .map(|f| (f.location.to_string(), f.severity, f.auto_fixable))
            .collect();
        assert_eq!(
            shape,
            vec![
                ("src/a.rs:1".to_string(), Severity::Medium, true),
                ("src/c.rs:9".to_string(), Severity::High, false)
            ]
        );
    }

    #[test]
    fn folders_that_are_not_reviews_and_malformed_files_are_bad_input() {
        let tmp = tempfile::tempdir().unwrap();
        let err = load(tmp.path()).unwrap_err().to_string();
        assert!(err.ends_with("is not a review folder: it has no journaled reports (a review folder is .retake/runs/<id>/ or .retake/reviews/<id>/, with reports/*.json or reports/*.cpf)"), "{err}");
        std::fs::create_dir_all(tmp.path().join("pipeline-1")).unwrap();
        assert!(load(tmp.path())
            .unwrap_err()
            .to_string()
            .ends_with("pass one of its pipeline-K folders"));
        std::fs::create_dir_all(tmp.path().join("reports")).unwrap();
        std::fs::write(tmp.path().join("reports/x.json"), "{not json").unwrap();
        assert!(load(tmp.path())
            .unwrap_err()
            .to_string()
            .starts_with("malformed report "));
        std::fs::remove_file(tmp.path().join("reports/x.json")).unwrap();
        write_report(tmp.path(), &report("inspector-quality", vec![]));
        std::fs::write(tmp.path().join("verdict.cpf"), "garbage\n").unwrap();
        assert!(load(tmp.path())
            .unwrap_err()
            .to_string()
            .starts_with("malformed verdict "));
    }
}
