//! The live view of one review or team run: where the run is, every actor with its state,
//! heartbeat and restarts, the tasks with each one's judgments (expandable), the review's
//! result with its findings ([`crate::findings`]), and what happened. The page is a snapshot of
//! a [`LiveState`]; each part has an id, and [`part`] renders one part alone, which the event
//! stream sends when an event changed it.

use crate::findings::{self, Filter};
use crate::layout;
use maud::{html, Markup};
use protocol::live::{ActorLine, JudgmentLine, LiveState, Part, TaskLine};

/// What a live page is rendered with.
#[derive(Debug, Clone, Copy)]
pub struct LiveView<'a> {
    /// The state so far.
    pub state: &'a LiveState,
    /// The findings filter the page was asked for.
    pub filter: &'a Filter,
    /// Links to the other views (`(href, text)`).
    pub links: &'a [(&'a str, &'a str)],
    /// Where a finding's file is shown (`/source/`); `None`: findings link nowhere.
    pub source: Option<&'a str>,
    /// The event stream's URL, when the page is live.
    pub events: Option<&'a str>,
    /// Now, ms since the epoch (heartbeat ages in the snapshot).
    pub now_ms: u64,
}

/// The whole page.
pub fn page(view: &LiveView<'_>) -> String {
    let title = if view.state.title.is_empty() {
        "retake".to_string()
    } else {
        view.state.title.clone()
    };
    let body = html! {
        (status(view.state))
        (actors(view))
        (tasks(view.state))
        (review(view))
        (happened(view.state))
    };
    layout::page_with(&title, view.links, body, view.events).into_string()
}

/// One part of the page alone: its element id and its HTML (the element itself).
pub fn part(view: &LiveView<'_>, part: Part) -> (&'static str, String) {
    let markup = match part {
        Part::Status => status(view.state),
        Part::Actors => actors(view),
        Part::Happened => happened(view.state),
        Part::Tasks => tasks(view.state),
        Part::Review => review(view),
        Part::Jobs => crate::jobs::section(view.state),
    };
    (id_of(part), markup.into_string())
}

/// The element id of a part.
pub fn id_of(part: Part) -> &'static str {
    match part {
        Part::Status => "status",
        Part::Actors => "actors",
        Part::Happened => "happened",
        Part::Tasks => "tasks",
        Part::Review => "review",
        Part::Jobs => "jobs",
    }
}

/// Every part of a live page, in page order.
pub const PARTS: [Part; 5] = [
    Part::Status,
    Part::Actors,
    Part::Tasks,
    Part::Review,
    Part::Happened,
];

fn review(view: &LiveView<'_>) -> Markup {
    findings::review(view.state.review.as_ref(), view.filter, view.source)
}

fn status(state: &LiveState) -> Markup {
    html! {
        section #status aria-live="polite" {
            @if let Some(p) = &state.phase {
                p {
                    strong { (p.phase.label()) }
                    " · review round " (p.iteration)
                    " · retakes " (p.retakes) " of at most " (p.max_retakes)
                }
            }
            @match &state.ended {
                Some(text) => p { "Ended: " strong { (text) } },
                None => p { "Running." },
            }
        }
    }
}

fn actors(view: &LiveView<'_>) -> Markup {
    let state = view.state;
    html! {
        section #actors {
            h2 { "Actors" }
            @if state.actors.is_empty() {
                p { "No actor has started yet." }
            }
            @for (hub, lines) in &state.actors {
                table {
                    caption { "Actors of the " (hub) }
                    thead { tr {
                        th scope="col" { "Actor" } th scope="col" { "Instance" }
                        th scope="col" { "State" } th scope="col" { "Progress or reason" }
                        th scope="col" { "Last heartbeat" } th scope="col" { "Restarts" }
                        th scope="col" { "Last restart" }
                    } }
                    tbody { @for a in lines { (actor(a, view.now_ms)) } }
                }
            }
        }
    }
}

fn actor(a: &ActorLine, now_ms: u64) -> Markup {
    let state = a.state.word();
    let class = format!("state-{}", state.split(',').next().unwrap_or(state));
    html! {
        tr data-actor=(a.name) data-state=(state) {
            th scope="row" { (a.name) }
            td { code { (a.instance) } }
            td class=(class) { (state) }
            td { (a.detail) }
            td.n data-seen=(a.seen_ms) { (now_ms.saturating_sub(a.seen_ms) / 1000) " s ago" }
            td.n { (a.restarts) }
            td { (a.last_restart.as_deref().unwrap_or("")) }
        }
    }
}

fn tasks(state: &LiveState) -> Markup {
    html! {
        section #tasks hidden[state.tasks.is_empty() && state.phase.is_none()] {
            h2 { "Tasks" }
            @if state.tasks.is_empty() {
                p { "No tasks yet: a run lists them once Phase A registered them." }
            } @else {
                table {
                    caption { "The task board, with each task's judgments" }
                    thead { tr {
                        th scope="col" { "Task" } th scope="col" { "Subject" }
                        th scope="col" { "Status" } th scope="col" { "Owner" }
                        th scope="col" { "Attempts" } th scope="col" { "Judgments" }
                    } }
                    tbody { @for t in &state.tasks { (task(state, t)) } }
                }
            }
        }
    }
}

fn task(state: &LiveState, t: &TaskLine) -> Markup {
    let judged: Vec<&JudgmentLine> = state.judgments_of(t.id).collect();
    // A finished task's owner is whoever its last judgment came from.
    let owner = t
        .owner
        .clone()
        .or_else(|| judged.last().and_then(|j| j.implementer.clone()));
    html! {
        tr data-task=(t.id) {
            th scope="row" { (t.id) }
            td { (t.subject) }
            td { (t.status) }
            td { (owner.unwrap_or_default()) }
            td.n { (t.attempts) }
            td {
                @if judged.is_empty() {
                    "none yet"
                } @else {
                    details id={"judgments-" (t.id)} {
                        summary {
                            @for (i, j) in judged.iter().enumerate() {
                                @if i > 0 { " → " }
                                span class={"j-" (j.judgment)} { (j.judgment) }
                            }
                        }
                        ol { @for j in &judged { (judgment(j)) } }
                    }
                }
            }
        }
    }
}

fn judgment(j: &JudgmentLine) -> Markup {
    html! {
        li data-judgment=(j.judgment) {
            "Iteration " (j.iteration) ": " strong { (j.judgment) }
            @if let Some(who) = &j.implementer { " by " (who) }
            @if !j.failed.is_empty() { " — failed checks: " (j.failed.join(", ")) }
            @if let Some(s) = &j.summary { " — " (s) }
            @if let Some(p) = &j.prompt {
                details { summary { "The modification prompt sent back" } pre { (p) } }
            }
        }
    }
}

fn happened(state: &LiveState) -> Markup {
    html! {
        section #happened {
            h2 { "What happened" }
            @if state.happened.is_empty() {
                p { "Nothing yet." }
            } @else {
                ol reversed {
                    @for (at, text) in state.happened.iter().rev() {
                        li { time { (clock(*at)) } " " (text) }
                    }
                }
            }
        }
    }
}

/// `HH:MM:SS` UTC of a time in ms since the epoch.
fn clock(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:02}:{:02}:{:02}", (s / 3600) % 24, (s / 60) % 60, s % 60)
}

#[cfg(test)]
mod tests;
