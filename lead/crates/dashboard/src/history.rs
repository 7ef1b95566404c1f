//! The history view: a repository's `verdicts.md` batch by batch — a table of every batch
//! (verdict, findings by severity, regressions, tracked issues, what it resolved), a chart of
//! the same numbers, and each batch's findings in a section that expands (the latest open).

use crate::layout;
use maud::{html, Markup};
use protocol::Severity;
use review::verdicts_md::{BatchSummary, ConsensusLine, Issue};

/// What the history page shows.
#[derive(Debug, Clone, Copy)]
pub struct HistoryView<'a> {
    /// The repository's name, for the title.
    pub repository: &'a str,
    /// Where the batches were read from, as shown (`.retake/verdicts.md`).
    pub source: &'a str,
    /// The batches, in file order.
    pub batches: &'a [BatchSummary],
    /// Links to the other views (`(href, text)`).
    pub links: &'a [(&'a str, &'a str)],
}

/// The severities a chart and a table count, worst first.
const SEVERITIES: [Severity; 4] = [
    Severity::Critical,
    Severity::High,
    Severity::Medium,
    Severity::Low,
];

/// A batch's findings of each severity, in [`SEVERITIES`] order.
fn counts(b: &BatchSummary) -> [usize; 4] {
    SEVERITIES.map(|s| b.consensus.iter().filter(|r| r.severity == s).count())
}

fn regressions(b: &BatchSummary) -> usize {
    b.consensus
        .iter()
        .filter(|r| r.regression_of.is_some())
        .count()
}

/// The whole page.
pub fn page(view: &HistoryView<'_>) -> String {
    let title = format!("retake — review history of {}", view.repository);
    let body = if view.batches.is_empty() {
        html! {
            p { "No review has written a batch yet (looked in " code { (view.source) } ")." }
        }
    } else {
        html! {
            (overview(view))
            (chart(view.batches))
            (table(view.batches))
            h2 { "Batches" }
            @for (i, b) in view.batches.iter().enumerate().rev() {
                (batch(b, i + 1 == view.batches.len()))
            }
        }
    };
    layout::page_with(&title, view.links, body, None).into_string()
}

fn overview(view: &HistoryView<'_>) -> Markup {
    let last = view.batches.last();
    let n = view.batches.len();
    html! {
        p {
            (n) " batch" @if n != 1 { "es" } " in " code { (view.source) } "."
            @if let Some(b) = last {
                " Latest: B" (b.seq) ", " strong { (b.verdict) }
                @let back = regressions(b);
                @if back > 0 { ", " span.regression { (back) " REGRESSION" @if back != 1 { "S" } } }
                "."
            }
        }
    }
}

/// One bar segment of the chart: where it is, its colour, what it counts.
struct Segment {
    x: usize,
    y: usize,
    height: usize,
    fill: &'static str,
    label: String,
}

/// Findings by severity per batch, as stacked bars; the table below holds the same numbers.
fn chart(batches: &[BatchSummary]) -> Markup {
    const BAR: usize = 28;
    const STEP: usize = 48;
    const HEIGHT: usize = 120;
    const FILL: [&str; 4] = ["#b3261e", "#d9711c", "#c9a400", "#3f76b5"];
    let max = batches
        .iter()
        .map(|b| counts(b).iter().sum::<usize>())
        .max()
        .unwrap_or(0)
        .max(1);
    let width = 40 + batches.len() * STEP;
    let mut segments = Vec::new();
    let mut labels = Vec::new();
    for (i, b) in batches.iter().enumerate() {
        let x = 30 + i * STEP;
        let c = counts(b);
        let mut top = HEIGHT + 10;
        // Low at the bottom, Critical on top.
        for (k, n) in c.iter().enumerate().rev().filter(|(_, n)| **n > 0) {
            let height = (n * HEIGHT / max).max(2);
            top -= height;
            segments.push(Segment {
                x,
                y: top,
                height,
                fill: FILL[k],
                label: format!("B{}: {n} {}", b.seq, SEVERITIES[k].word()),
            });
        }
        labels.push((x, top.saturating_sub(3), c.iter().sum::<usize>(), b.seq));
    }
    html! {
        figure {
            svg role="img" aria-labelledby="chart-title" width=(width) height=(HEIGHT + 40)
                viewBox={"0 0 " (width) " " (HEIGHT + 40)} {
                title id="chart-title" { "Findings by severity per batch" }
                @for s in &segments {
                    rect x=(s.x) y=(s.y) width=(BAR) height=(s.height) fill=(s.fill) {
                        title { (s.label) }
                    }
                }
                @for (x, y, total, seq) in &labels {
                    text x=(x) y=(y) { (total) }
                    text x=(x) y=(HEIGHT + 28) { "B" (seq) }
                }
            }
            figcaption { "Findings by severity per batch (critical on top, then high, medium, low); the table gives the numbers." }
        }
    }
}

fn table(batches: &[BatchSummary]) -> Markup {
    html! {
        table {
            caption { "Every batch" }
            thead { tr {
                th scope="col" { "Batch" } th scope="col" { "Time" } th scope="col" { "Verdict" }
                th scope="col" { "Critical" } th scope="col" { "High" } th scope="col" { "Medium" }
                th scope="col" { "Low" } th scope="col" { "Regressions" } th scope="col" { "Tracked" }
                th scope="col" { "Resolved" } th scope="col" { "Disposition" }
            } }
            tbody {
                @for b in batches {
                    @let back = regressions(b);
                    tr {
                        th scope="row" { a href={"#B" (b.seq)} { "B" (b.seq) } }
                        td { (b.timestamp) }
                        td { (b.verdict) }
                        @for n in counts(b) { td.n { (n) } }
                        td { @if back > 0 { span.regression { (back) " REGRESSION" @if back != 1 { "S" } } } @else { "none" } }
                        td.n { (b.tracked.len()) }
                        td { @match &b.resolved {
                            Some((prev, issues)) => { (issues.len()) " since B" (prev) },
                            None => "none",
                        } }
                        td { (b.disposition.as_deref().unwrap_or("")) }
                    }
                }
            }
        }
    }
}

fn batch(b: &BatchSummary, open: bool) -> Markup {
    let findings = b.consensus.len();
    html! {
        details id={"B" (b.seq)} open[open] {
            summary {
                "B" (b.seq) " — " (b.verdict) ", " (findings) " finding" @if findings != 1 { "s" }
                @let back = regressions(b);
                @if back > 0 { ", " span.regression { (back) " REGRESSION" @if back != 1 { "S" } } }
                " (" (b.timestamp) ")"
            }
            @if b.consensus.is_empty() {
                p { "No findings." }
            } @else {
                table {
                    caption { "Findings of B" (b.seq) }
                    thead { tr {
                        th scope="col" { "Severity" } th scope="col" { "Category" }
                        th scope="col" { "Location" } th scope="col" { "Reported by" }
                        th scope="col" { "Description" }
                    } }
                    tbody { @for r in &b.consensus { (row(r)) } }
                }
            }
            @if let Some((prev, issues)) = &b.resolved {
                @if !issues.is_empty() {
                    h3 { "Resolved since B" (prev) }
                    (issue_list(issues))
                }
            }
        }
    }
}

fn row(r: &ConsensusLine) -> Markup {
    html! {
        tr {
            td class={"sev-" (r.severity)} {
                (r.severity.word())
                @if let Some(was) = r.regression_of {
                    " " span.regression { "REGRESSION" } " (was " (was.word()) ")"
                }
            }
            td { (r.category) }
            td { code { (r.location) } }
            td { (r.agents) }
            td { (r.description) }
        }
    }
}

fn issue_list(issues: &[Issue]) -> Markup {
    html! {
        ul {
            @for i in issues {
                li { (i.severity.word()) " · " (i.category) " · " code { (i.location) } " — " (i.description) }
            }
        }
    }
}

#[cfg(test)]
mod tests;
