//! The task runner's timeline events: seven event types, each one JSON line for
//! `state/timeline.jsonl`:
//! `{"event_type", "timestamp", "visibility", "content": {"task", "iteration", "judgment",
//! "criteria_failed", …}}`. The runner hands them to an [`EventSink`]; the Lead, the only
//! writer of state, decides where they go.

use crate::criteria::Issue;
use protocol::domain::Judgment;
use serde::{Deserialize, Serialize};

/// The seven event types of 4.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum EventType {
    /// The loop began (summary).
    ReviewLoopStart,
    /// An iteration began (full).
    ReviewIterationStart,
    /// The judge decided PASS, REJECT or RETRY (summary).
    QualityJudgment,
    /// What a REJECT found (full).
    RejectionDetails,
    /// The modification prompt in full (full).
    ModificationPrompt,
    /// An iteration ended (full).
    ReviewIterationEnd,
    /// The loop ended with its final status (summary).
    ReviewLoopEnd,
}

impl EventType {
    /// Who sees the event: the loop's start, judgments and end are `summary`, the rest `full`.
    pub fn visibility(self) -> Visibility {
        match self {
            EventType::ReviewLoopStart | EventType::QualityJudgment | EventType::ReviewLoopEnd => {
                Visibility::Summary
            }
            _ => Visibility::Full,
        }
    }
}

/// Whether an event belongs to the summary view or only the full one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Shown in summaries.
    Summary,
    /// Shown only in the full timeline.
    Full,
}

/// How a task runner loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum LoopStatus {
    /// Judged PASS.
    Complete,
    /// The limit was reached and `escalate_on_max` is off.
    Incomplete,
    /// The limit was reached and the task is escalated to the Lead.
    AwaitingResponse,
    /// The runner itself failed (the repository could not be read).
    Error,
}

/// An event's content. `task`, `iteration`, `judgment` and `criteria_failed` are always
/// present (`judgment` is null before a judgment); the other keys only where they apply.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Content {
    /// The task id.
    pub task: u32,
    /// The iteration, from 1; 0 at the loop's start; the last iteration at its end.
    pub iteration: u32,
    /// The (latest) judgment.
    pub judgment: Option<Judgment>,
    /// The failed criteria ids.
    pub criteria_failed: Vec<String>,
    /// The Implementer running the loop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implementer: Option<String>,
    /// The executor kind (loop start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub executor: Option<String>,
    /// The iteration limit (loop start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_iterations: Option<u32>,
    /// The task's template, when it has one (loop start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// Whether this iteration repeats the previous prompt after a RETRY (iteration start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry: Option<bool>,
    /// One line about the judgment (quality judgment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The issues a REJECT found (rejection details).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issues_detected: Option<Vec<Issue>>,
    /// The modification prompt (rejection details, modification prompt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modification_prompt: Option<String>,
    /// When the iteration started (iteration end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    /// When the iteration ended (iteration end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    /// How the loop ended (loop end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_status: Option<LoopStatus>,
}

/// One timeline event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimelineEvent {
    /// Which event.
    pub event_type: EventType,
    /// ISO 8601 UTC with milliseconds (`2025-01-23T10:00:30.000Z`).
    pub timestamp: String,
    /// `summary` or `full`.
    pub visibility: Visibility,
    /// What happened.
    pub content: Content,
}

impl TimelineEvent {
    /// An event of `event_type` with its visibility.
    pub fn new(event_type: EventType, timestamp: String, content: Content) -> TimelineEvent {
        TimelineEvent {
            event_type,
            timestamp,
            visibility: event_type.visibility(),
            content,
        }
    }

    /// The event as one line of `timeline.jsonl`, without the newline.
    pub fn to_json_line(&self) -> String {
        // Serialising plain strings, numbers, vectors and unit enums cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Where the runner sends its events.
pub trait EventSink {
    /// Takes one event, in order.
    fn emit(&mut self, event: TimelineEvent);
}

/// A sink that keeps every event (tests, or a Lead that forwards them in one batch).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct VecSink {
    /// The events, in order.
    pub events: Vec<TimelineEvent>,
}

impl EventSink for VecSink {
    fn emit(&mut self, event: TimelineEvent) {
        self.events.push(event);
    }
}

impl<F: FnMut(TimelineEvent)> EventSink for F {
    fn emit(&mut self, event: TimelineEvent) {
        self(event)
    }
}

/// Where timestamps come from.
pub trait Clock {
    /// Now, as ISO 8601 UTC with milliseconds.
    fn now(&self) -> String;
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> String {
        chrono::Utc::now()
            .format("%Y-%m-%dT%H:%M:%S%.3fZ")
            .to_string()
    }
}

#[cfg(test)]
mod tests;
