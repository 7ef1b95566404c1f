//! The results of a scenario run as a table for people and as JUnit XML for CI.

use outputs::junit::{attr, text};

/// One scenario's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The scenario's name.
    pub name: String,
    /// The file it came from.
    pub file: String,
    /// The expected column.
    pub expected: String,
    /// The got column.
    pub got: String,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The failed checks; empty when it passed.
    pub failures: Vec<String>,
}

impl Outcome {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// `PASS`, or `FAIL: ` and the first failed check.
    pub fn result(&self) -> String {
        match self.failures.first() {
            None => "PASS".into(),
            Some(first) => format!("FAIL: {first}"),
        }
    }
}

/// The table: scenario, expected, got, seconds, result; then a count line.
pub fn table(outcomes: &[Outcome]) -> String {
    let head = ["SCENARIO", "EXPECTED", "GOT", "SECONDS", "RESULT"];
    let rows: Vec<[String; 5]> = outcomes
        .iter()
        .map(|o| {
            [
                o.name.clone(),
                o.expected.clone(),
                o.got.clone(),
                format!("{:.1}", o.seconds),
                o.result(),
            ]
        })
        .collect();
    let mut width = head.map(str::len);
    for row in &rows {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 5]| -> String {
        let mut out = String::new();
        for (i, cell) in cells.iter().enumerate() {
            if i == 4 {
                out.push_str(cell);
            } else if i == 3 {
                out.push_str(&format!("{cell:>w$}  ", w = width[i]));
            } else {
                out.push_str(&format!("{cell:<w$}  ", w = width[i]));
            }
        }
        out.trim_end().to_string() + "\n"
    };
    let mut out = line(head);
    for row in &rows {
        out.push_str(&line([&row[0], &row[1], &row[2], &row[3], &row[4]]));
    }
    let failed = outcomes.iter().filter(|o| !o.passed()).count();
    let total: f64 = outcomes.iter().map(|o| o.seconds).sum();
    out.push_str(&format!(
        "{} scenario(s): {} passed, {failed} failed, {total:.1} s\n",
        outcomes.len(),
        outcomes.len() - failed
    ));
    out
}

/// JUnit XML: one test case per scenario; a failure's message is its first failed check and its
/// text every failed check, one per line.
pub fn junit(outcomes: &[Outcome]) -> String {
    let failures = outcomes.iter().filter(|o| !o.passed()).count();
    let total: f64 = outcomes.iter().map(|o| o.seconds).sum();
    let mut body = String::new();
    for o in outcomes {
        body.push_str(&format!(
            "    <testcase classname=\"retake.scenario\" name=\"{}\" file=\"{}\" time=\"{:.3}\"",
            attr(&o.name),
            attr(&o.file),
            o.seconds
        ));
        if o.passed() {
            body.push_str(" />\n");
        } else {
            body.push_str(&format!(
                ">\n      <failure message=\"{}\" type=\"scenario\">{}</failure>\n      <system-out>expected: {}\ngot: {}</system-out>\n    </testcase>\n",
                attr(&o.failures[0]),
                text(&o.failures.join("\n")),
                text(&o.expected),
                text(&o.got)
            ));
        }
    }
    let n = outcomes.len();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"retake scenarios\" tests=\"{n}\" failures=\"{failures}\" time=\"{total:.3}\">\n  <testsuite name=\"retake scenarios\" tests=\"{n}\" failures=\"{failures}\" errors=\"0\" time=\"{total:.3}\">\n{body}  </testsuite>\n</testsuites>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcomes() -> Vec<Outcome> {
        vec![
            Outcome {
                name: "baseline".into(),
                file: "deploy/scenarios/baseline.toml".into(),
                expected: "GO exit 0".into(),
                got: "GO REQUEST_CHANGES exit 0".into(),
                seconds: 0.25,
                failures: vec![],
            },
            Outcome {
                name: "auditor-crash".into(),
                file: "a.toml".into(),
                expected: "GO r:auditor=1".into(),
                got: "CONDITIONAL exit 0 +AUDITOR_UNAVAILABLE".into(),
                seconds: 4.0,
                failures: vec![
                    "verdict: expected GO, got CONDITIONAL".into(),
                    "restarts of auditor: expected 1, got 2".into(),
                ],
            },
        ]
    }

    #[test]
    fn the_table_aligns_and_names_the_first_failure() {
        let t = table(&outcomes());
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "SCENARIO       EXPECTED        GOT                                      SECONDS  RESULT");
        assert_eq!(
            lines[1],
            "baseline       GO exit 0       GO REQUEST_CHANGES exit 0                    0.2  PASS"
        );
        assert!(
            lines[2].ends_with("4.0  FAIL: verdict: expected GO, got CONDITIONAL"),
            "{}",
            lines[2]
        );
        assert_eq!(lines[3], "2 scenario(s): 1 passed, 1 failed, 4.2 s");
    }

    #[test]
    fn junit_has_a_case_per_scenario_and_every_failed_check() {
        let x = junit(&outcomes());
        assert!(
            x.contains(
                "<testsuites name=\"retake scenarios\" tests=\"2\" failures=\"1\" time=\"4.250\">"
            ),
            "{x}"
        );
        assert!(x.contains("<testcase classname=\"retake.scenario\" name=\"baseline\" file=\"deploy/scenarios/baseline.toml\" time=\"0.250\" />"));
        assert!(x.contains("<failure message=\"verdict: expected GO, got CONDITIONAL\" type=\"scenario\">verdict: expected GO, got CONDITIONAL\nrestarts of auditor: expected 1, got 2</failure>"), "{x}");
        assert_eq!(x.matches("<testcase ").count(), 2);
    }
}
