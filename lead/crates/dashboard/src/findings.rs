//! The review part of a live page: the verdict with its qualifiers, decision and grade, the
//! coverage, the notes, and the findings table with its filters (severity, rule, Inspector,
//! path) and grouping by rule. The filter is a plain GET form — the server filters when it is
//! submitted — and the page's script filters the same rows as the form changes.

use maud::{html, Markup};
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, CONTROLS};
use protocol::live::{FindingLine, ReviewView};
use protocol::Severity;
use std::collections::BTreeSet;

/// What a findings table is reduced to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only this severity.
    pub severity: Option<Severity>,
    /// Only this rule.
    pub rule: Option<String>,
    /// Only findings this Inspector reported.
    pub inspector: Option<String>,
    /// Only paths containing this text (case-insensitive).
    pub path: Option<String>,
    /// One group of rows per rule.
    pub group: bool,
    /// Every matching row, beyond [`ROWS_AT_MOST`].
    pub all: bool,
}

/// The rows a page holds at most unless asked for all: the first screen of a review with tens
/// of thousands of findings stays quick, and the filters reach the rest.
pub const ROWS_AT_MOST: usize = 2_000;

impl Filter {
    /// The filter a query string asks for (`severity=H&rule=…&group=rule`); unknown keys and
    /// empty values are ignored.
    pub fn from_query(query: &str) -> Filter {
        let mut f = Filter::default();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = form_value(value);
            if value.is_empty() {
                continue;
            }
            match key {
                "severity" => f.severity = value.parse().ok(),
                "rule" => f.rule = Some(value),
                "inspector" => f.inspector = Some(value),
                "path" => f.path = Some(value),
                "group" => f.group = value == "rule",
                "all" => f.all = value == "1",
                _ => {}
            }
        }
        f
    }

    /// Whether `f` passes.
    pub fn admits(&self, f: &FindingLine) -> bool {
        self.severity.is_none_or(|s| s == f.severity)
            && self.rule.as_ref().is_none_or(|r| *r == f.rule)
            && self
                .inspector
                .as_ref()
                .is_none_or(|i| f.inspectors.contains(i))
            && self
                .path
                .as_ref()
                .is_none_or(|p| f.path.to_lowercase().contains(&p.to_lowercase()))
    }
}

/// One value of a form as a browser sends it (`a+b%2Fc` is `a b/c`), trimmed: the filter form's
/// query string and the sign-in form's body alike.
pub fn form_value(raw: &str) -> String {
    percent_decode_str(&raw.replace('+', " "))
        .decode_utf8_lossy()
        .trim()
        .to_string()
}

/// Characters a path keeps percent-encoded in a link (its `/` stay).
const IN_PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}');

/// The review part: `review` (none yet: it says so), its findings reduced by `filter`, each
/// linking to its file under `source` when there is one.
pub(crate) fn review(review: Option<&ReviewView>, filter: &Filter, source: Option<&str>) -> Markup {
    html! {
        section #review {
            h2 { "Review" }
            @match review {
                None => p { "No verdict yet." },
                Some(r) => (result(r, filter, source)),
            }
        }
    }
}

fn result(r: &ReviewView, filter: &Filter, source: Option<&str>) -> Markup {
    let mut shown: Vec<&FindingLine> = r.findings.iter().filter(|f| filter.admits(f)).collect();
    let matching = shown.len();
    let cut = !filter.all && matching > ROWS_AT_MOST;
    shown.truncate(if cut { ROWS_AT_MOST } else { matching });
    html! {
        p.verdict { "Verdict: " strong #verdict { (r.verdict) } " — " (r.explanation) "." }
        @if r.expected > 0 {
            p { "Coverage: " (r.answered) " of " (r.expected) " Inspectors answered." }
        }
        @if !r.notes.is_empty() {
            details { summary { "Notes (" (r.notes.len()) ")" } ul { @for n in &r.notes { li { (n) } } } }
        }
        (form(filter, &r.findings))
        p {
            "Showing " span #shown { (shown.len()) } " of " (r.findings.len()) " findings"
            @if cut {
                ": the first " (ROWS_AT_MOST) " of the " (matching) " that match, most severe first — narrow them with the filters, or "
                a href={"?" (query(filter, true))} { "show all " (matching) }
            }
            "."
        }
        table #findings data-truncated[cut] {
            caption { "Findings" }
            thead { tr {
                th scope="col" { "Severity" } th scope="col" { "Rule" }
                th scope="col" { "Inspectors" } th scope="col" { "Location" }
                th scope="col" { "Description" }
            } }
            @if filter.group {
                @for (rule, rows) in by_rule(&shown) {
                    tbody {
                        tr.group { th scope="rowgroup" colspan="5" { (rule) " (" (rows.len()) ")" } }
                        @for f in rows { (row(source, f)) }
                    }
                }
            } @else {
                tbody { @for f in &shown { (row(source, f)) } }
            }
        }
    }
}

/// The rows by rule, rules in order of their first row.
fn by_rule<'f>(rows: &[&'f FindingLine]) -> Vec<(&'f str, Vec<&'f FindingLine>)> {
    let mut groups: Vec<(&str, Vec<&FindingLine>)> = Vec::new();
    for f in rows {
        match groups.iter_mut().find(|(r, _)| *r == f.rule) {
            Some((_, g)) => g.push(f),
            None => groups.push((&f.rule, vec![f])),
        }
    }
    groups
}

/// The query string of `filter` (with `all=1` when `all`).
fn query(filter: &Filter, all: bool) -> String {
    let mut pairs: Vec<(&str, String)> = Vec::new();
    if let Some(s) = filter.severity {
        pairs.push(("severity", s.to_string()));
    }
    for (key, value) in [
        ("rule", &filter.rule),
        ("inspector", &filter.inspector),
        ("path", &filter.path),
    ] {
        if let Some(v) = value {
            pairs.push((key, v.clone()));
        }
    }
    if filter.group {
        pairs.push(("group", "rule".into()));
    }
    if all {
        pairs.push(("all", "1".into()));
    }
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", utf8_percent_encode(v, QUERY_VALUE)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Characters a query value keeps percent-encoded.
const QUERY_VALUE: &AsciiSet = &IN_PATH.add(b'&').add(b'=').add(b'+').add(b'/');

fn form(filter: &Filter, findings: &[FindingLine]) -> Markup {
    let rules: BTreeSet<&str> = findings.iter().map(|f| f.rule.as_str()).collect();
    let inspectors: BTreeSet<&str> = findings
        .iter()
        .flat_map(|f| f.inspectors.iter().map(String::as_str))
        .collect();
    let severities = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
    ];
    html! {
        form #filters .filters method="get" aria-label="Filter the findings" {
            label { "Severity"
                select name="severity" {
                    option value="" { "any" }
                    @for s in severities {
                        option value=(s) selected[filter.severity == Some(s)] { (s.word()) }
                    }
                }
            }
            label { "Rule"
                select name="rule" {
                    option value="" { "any" }
                    @for r in &rules { option value=(r) selected[filter.rule.as_deref() == Some(*r)] { (r) } }
                }
            }
            label { "Inspector"
                select name="inspector" {
                    option value="" { "any" }
                    @for i in &inspectors { option value=(i) selected[filter.inspector.as_deref() == Some(*i)] { (i) } }
                }
            }
            label { "Path contains"
                input type="search" name="path" value=(filter.path.as_deref().unwrap_or(""));
            }
            label { "Group"
                select name="group" {
                    option value="" { "none" }
                    option value="rule" selected[filter.group] { "by rule" }
                }
            }
            @if filter.all { input type="hidden" name="all" value="1"; }
            button type="submit" { "Apply" }
        }
    }
}

fn row(source: Option<&str>, f: &FindingLine) -> Markup {
    let location = match f.line {
        Some(line) if !f.path.is_empty() => format!("{}:{line}", f.path),
        _ => f.path.clone(),
    };
    let href = source.filter(|_| !f.path.is_empty()).map(|base| {
        let path = utf8_percent_encode(&f.path, IN_PATH);
        match f.line {
            Some(line) => format!("{base}{path}#L{line}"),
            None => format!("{base}{path}"),
        }
    });
    html! {
        tr data-severity=(f.severity) {
            td class={"sev-" (f.severity)} { (f.severity.word()) }
            td { code { (f.rule) } }
            td { (f.inspectors.join(" ")) }
            td data-path=(f.path) { @match href {
                Some(href) => a href=(href) { code { (location) } },
                None => code { (location) },
            } }
            td { (f.description) }
        }
    }
}
