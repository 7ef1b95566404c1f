//! `retake serve`'s page: every job — queued, running, finished — with its verdict or why it
//! failed, and a link into each job's own live view. The list is one part (`jobs`) the
//! service's event stream replaces as jobs move.

use crate::layout;
use maud::{html, Markup};
use protocol::live::{JobLine, LiveState};

/// The jobs page; `events` is its stream's URL.
pub fn page(state: &LiveState, events: Option<&str>) -> String {
    layout::page_with("retake serve — jobs", &[], section(state), events).into_string()
}

/// The jobs part.
pub fn section(state: &LiveState) -> Markup {
    let count = |s: &str| state.jobs.iter().filter(|j| j.status == s).count();
    html! {
        section #jobs {
            p aria-live="polite" {
                (count("queued")) " queued, " (count("running")) " running, "
                (count("done")) " done, " (count("failed")) " failed."
            }
            @if state.jobs.is_empty() {
                p { "No job yet: submit one with " code { "POST /reviews" } "." }
            } @else {
                table {
                    caption { "Jobs, newest first" }
                    thead { tr {
                        th scope="col" { "Job" } th scope="col" { "Repository" }
                        th scope="col" { "Status" } th scope="col" { "Verdict" }
                        th scope="col" { "Exit" } th scope="col" { "Error" }
                        th scope="col" { "Report" }
                    } }
                    tbody { @for j in state.jobs.iter().rev() { (row(j)) } }
                }
            }
        }
    }
}

fn row(j: &JobLine) -> Markup {
    html! {
        tr data-job=(j.id) data-status=(j.status) {
            th scope="row" { a href={"/jobs/" (j.id)} { (j.id) } }
            td { code { (j.repo) } }
            td class={"status-" (j.status)} { (j.status) }
            td { (j.verdict.as_deref().unwrap_or("")) }
            td.n { @if let Some(c) = j.exit_code { (c) } }
            td { (j.error.as_deref().unwrap_or("")) }
            td { @if j.status == "done" { a href={"/reviews/" (j.id) "/result"} { "JSON" } } }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_links_to_its_view_newest_first() {
        let job = |id: &str, status: &str, verdict: Option<&str>| JobLine {
            id: id.into(),
            repo: "shop".into(),
            status: status.into(),
            verdict: verdict.map(str::to_string),
            exit_code: verdict.map(|_| 1),
            error: None,
        };
        let state = LiveState {
            jobs: vec![
                job("job-1", "done", Some("NO-GO")),
                job("job-2", "running", None),
            ],
            ..LiveState::default()
        };
        let html = page(&state, Some("/events"));
        assert!(html.contains("0 queued, 1 running, 1 done, 0 failed."));
        let first = html.find("data-job=\"job-2\"").expect("job-2");
        let second = html.find("data-job=\"job-1\"").expect("job-1");
        assert!(first < second, "newest first");
        assert!(html.contains("<a href=\"/jobs/job-1\">job-1</a>"));
        assert!(html.contains("<a href=\"/reviews/job-1/result\">JSON</a>"));
        assert!(!html.contains("/reviews/job-2/result"));
    }
}
