//! The live event stream of a review or a team run, as the dashboard watches it: one typed
//! [`LiveEvent`] per thing that happened — the actors as the supervisor sees them, the run's
//! phase, its task board, a task's judgment, the review's verdict, a line of what happened —
//! and [`LiveState`], the fold of every event so far (what a page shows when it opens). The
//! hubs publish; nothing here knows who watches. Events are JSON on the dashboard's stream.

use crate::Severity;
use serde::{Deserialize, Serialize};

/// The most lines of what happened a state keeps (the oldest go first).
pub const HAPPENED_KEPT: usize = 500;

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LiveEvent {
    /// What is watched: `retake review …` or `retake run …`, and on which repository.
    Watching {
        /// The page's title.
        title: String,
    },
    /// Every actor of one hub as its supervisor sees it now (replaces that hub's earlier list).
    Actors {
        /// The hub: `review`, `review p2` (a consensus pipeline), `team`.
        hub: String,
        /// Its actors, in the supervisor's order.
        actors: Vec<ActorLine>,
    },
    /// A line of what happened (an actor lost and replaced, a judgment, a phase begun).
    Happened {
        /// When, ms since the epoch.
        at_ms: u64,
        /// What, in words.
        text: String,
    },
    /// The team loop's position.
    Phase(PhaseLine),
    /// The task board (replaces the earlier one).
    Tasks {
        /// Every task.
        tasks: Vec<TaskLine>,
    },
    /// A task runner's judgment of one iteration.
    Judgment(JudgmentLine),
    /// The modification prompt a REJECT sent back (it follows its judgment).
    Prompt {
        /// The task.
        task: u32,
        /// The judged iteration.
        iteration: u32,
        /// The prompt.
        prompt: String,
    },
    /// A review's result.
    Review(ReviewView),
    /// `retake serve`'s jobs (replaces the earlier list).
    Jobs {
        /// Every job, in submission order.
        jobs: Vec<JobLine>,
    },
    /// The command ended.
    Ended {
        /// How (`exit 1: NO-GO`).
        text: String,
    },
}

impl LiveEvent {
    /// The event as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|e| format!("{{\"kind\":\"error\",\"text\":\"{e}\"}}"))
    }
}

/// Where an actor stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActorState {
    /// Spawned, not yet connected (its first instance).
    Starting,
    /// A replacement of a lost instance, not yet connected.
    Replaced,
    /// Connected and at work (or waiting for work).
    Working,
    /// Told to give its output now.
    Nudged,
    /// Delivered what it owed.
    Reported,
    /// Given up on: lost with no replacement left.
    Lost,
}

impl ActorState {
    /// The word a page shows.
    pub fn word(self) -> &'static str {
        match self {
            ActorState::Starting => "starting",
            ActorState::Replaced => "replaced, starting",
            ActorState::Working => "working",
            ActorState::Nudged => "nudged",
            ActorState::Reported => "reported",
            ActorState::Lost => "lost",
        }
    }
}

/// One actor slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActorLine {
    /// Its stable name (`inspector-quality`).
    pub name: String,
    /// The instance filling it (`inspector-quality-r1` after one restart).
    pub instance: String,
    /// Where it stands.
    pub state: ActorState,
    /// Its last reported progress (`3 reports`), or why it was given up.
    pub detail: String,
    /// Its last sign of life, ms since the epoch.
    pub seen_ms: u64,
    /// How many times it was restarted.
    pub restarts: u32,
    /// Why it was last restarted.
    pub last_restart: Option<String>,
}

/// The team loop's phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunPhase {
    /// Phase 0: the discussion.
    #[serde(rename = "0")]
    Discussion,
    /// Phase A: preparation.
    #[serde(rename = "A")]
    Prepare,
    /// Phase B: the Implementers at work, and the review rounds of their changes.
    #[serde(rename = "B")]
    Implement,
    /// Phase C: verification, the plan marked done, the commit.
    #[serde(rename = "C")]
    Complete,
}

impl RunPhase {
    /// `Phase B — implementation`.
    pub fn label(self) -> &'static str {
        match self {
            RunPhase::Discussion => "Phase 0 — discussion",
            RunPhase::Prepare => "Phase A — preparation",
            RunPhase::Implement => "Phase B — implementation and review",
            RunPhase::Complete => "Phase C — completion",
        }
    }
}

/// Where the team loop is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseLine {
    /// The phase.
    pub phase: RunPhase,
    /// The review round (1 for the first review of the changes).
    pub iteration: u32,
    /// Retakes so far.
    pub retakes: u32,
    /// The most retakes allowed.
    pub max_retakes: u32,
}

/// One task of the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskLine {
    /// Its id.
    pub id: u32,
    /// What it is.
    pub subject: String,
    /// pending, in_progress, completed, failed.
    pub status: String,
    /// Who holds it or completed it.
    pub owner: Option<String>,
    /// Claims made.
    pub attempts: u32,
}

/// One judgment of a task runner's iteration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgmentLine {
    /// The task.
    pub task: u32,
    /// The iteration, from 1.
    pub iteration: u32,
    /// PASS, REJECT or RETRY.
    pub judgment: String,
    /// The quality checks that failed (`Q3`).
    pub failed: Vec<String>,
    /// The judge's line about it.
    pub summary: Option<String>,
    /// The modification prompt sent back after a REJECT.
    pub prompt: Option<String>,
    /// Who ran the task.
    pub implementer: Option<String>,
}

/// A review's result as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewView {
    /// The verdict with its qualifiers (`CONDITIONAL (partial coverage (5/6))`).
    pub verdict: String,
    /// What the exit code follows, the decision and grade, and why.
    pub explanation: String,
    /// Inspectors that answered.
    pub answered: u32,
    /// Inspectors expected.
    pub expected: u32,
    /// The findings, most severe first.
    pub findings: Vec<FindingLine>,
    /// The report's notes (partial coverage, degraded roles, …).
    pub notes: Vec<String>,
}

impl ReviewView {
    /// An outcome as the page shows it: the verdict with its coverage, the decision and grade.
    pub fn of_outcome(o: &crate::AuditOutcome) -> ReviewView {
        let verdict = match o.coverage_qualifier() {
            Some(q) => format!("{} ({q})", o.verdict),
            None => o.verdict.to_string(),
        };
        ReviewView {
            verdict,
            explanation: format!("decision {} (grade {})", o.decision, o.grade),
            answered: o.answered,
            expected: o.expected,
            findings: o.findings.iter().map(FindingLine::of).collect(),
            notes: o.notes.clone(),
        }
    }
}

/// One finding of a review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindingLine {
    /// Severity.
    pub severity: Severity,
    /// Rule id.
    pub rule: String,
    /// The Inspectors that reported it.
    pub inspectors: Vec<String>,
    /// Repository-relative path (empty for a repository-wide finding).
    pub path: String,
    /// 1-based line, when it has one.
    pub line: Option<u32>,
    /// What is wrong.
    pub description: String,
}

impl FindingLine {
    /// The finding as a page lists it.
    pub fn of(f: &crate::Finding) -> FindingLine {
        FindingLine {
            severity: f.severity,
            rule: f.rule.clone(),
            inspectors: f.agents.clone(),
            path: f.location.path.clone(),
            line: f.location.line,
            description: f.description.clone(),
        }
    }
}

/// One job of `retake serve`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobLine {
    /// `job-N`.
    pub id: String,
    /// The repository, as submitted.
    pub repo: String,
    /// queued, running, done, failed.
    pub status: String,
    /// The verdict, once done.
    pub verdict: Option<String>,
    /// The review's exit code, once ended.
    pub exit_code: Option<u8>,
    /// Why it failed.
    pub error: Option<String>,
}

/// Everything the events so far say.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveState {
    /// The page's title.
    pub title: String,
    /// Each hub's actors, in the order the hubs first reported.
    pub actors: Vec<(String, Vec<ActorLine>)>,
    /// What happened, oldest first (at most [`HAPPENED_KEPT`]).
    pub happened: Vec<(u64, String)>,
    /// The team loop's position, in a run.
    pub phase: Option<PhaseLine>,
    /// The task board, in a run.
    pub tasks: Vec<TaskLine>,
    /// Every judgment, in order.
    pub judgments: Vec<JudgmentLine>,
    /// The latest review's result.
    pub review: Option<ReviewView>,
    /// How the command ended, once it has.
    pub ended: Option<String>,
    /// `retake serve`'s jobs.
    pub jobs: Vec<JobLine>,
}

/// Which part of a page an event changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    /// The title and the run's position.
    Status,
    /// The actors.
    Actors,
    /// What happened.
    Happened,
    /// The tasks with their judgments.
    Tasks,
    /// The review's result.
    Review,
    /// `retake serve`'s jobs.
    Jobs,
}

impl LiveState {
    /// Takes in one event; the part of the page it changed.
    pub fn apply(&mut self, event: &LiveEvent) -> Part {
        match event {
            LiveEvent::Watching { title } => {
                self.title = title.clone();
                Part::Status
            }
            LiveEvent::Actors { hub, actors } => {
                match self.actors.iter_mut().find(|(h, _)| h == hub) {
                    Some((_, lines)) => *lines = actors.clone(),
                    None => self.actors.push((hub.clone(), actors.clone())),
                }
                Part::Actors
            }
            LiveEvent::Happened { at_ms, text } => {
                if self.happened.len() >= HAPPENED_KEPT {
                    self.happened.remove(0);
                }
                self.happened.push((*at_ms, text.clone()));
                Part::Happened
            }
            LiveEvent::Phase(line) => {
                self.phase = Some(line.clone());
                Part::Status
            }
            LiveEvent::Tasks { tasks } => {
                self.tasks = tasks.clone();
                Part::Tasks
            }
            LiveEvent::Judgment(j) => {
                self.judgments.push(j.clone());
                Part::Tasks
            }
            LiveEvent::Prompt {
                task,
                iteration,
                prompt,
            } => {
                let judged = self
                    .judgments
                    .iter_mut()
                    .rev()
                    .find(|j| j.task == *task && j.iteration == *iteration);
                if let Some(j) = judged {
                    j.prompt = Some(prompt.clone());
                }
                Part::Tasks
            }
            LiveEvent::Review(view) => {
                self.review = Some(view.clone());
                Part::Review
            }
            LiveEvent::Jobs { jobs } => {
                self.jobs = jobs.clone();
                Part::Jobs
            }
            LiveEvent::Ended { text } => {
                self.ended = Some(text.clone());
                Part::Status
            }
        }
    }

    /// The judgments of task `id`, in order.
    pub fn judgments_of(&self, id: u32) -> impl Iterator<Item = &JudgmentLine> {
        self.judgments.iter().filter(move |j| j.task == id)
    }
}

/// What a task runner's timeline line (`timeline.jsonl`) says about a judgment, when it says
/// something: a `QUALITY_JUDGMENT` is a judgment; the `REJECTION_DETAILS` that follows a REJECT
/// carries its modification prompt.
pub fn of_timeline(line: &str) -> Option<LiveEvent> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    let c = v.get("content")?;
    let text = |k: &str| c.get(k).and_then(|x| x.as_str()).map(str::to_string);
    let task = u32::try_from(c.get("task")?.as_u64()?).ok()?;
    let iteration = u32::try_from(c.get("iteration")?.as_u64()?).ok()?;
    match v.get("event_type")?.as_str()? {
        "QUALITY_JUDGMENT" => Some(LiveEvent::Judgment(JudgmentLine {
            task,
            iteration,
            judgment: text("judgment")?,
            failed: c
                .get("criteria_failed")
                .and_then(|x| x.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            summary: text("summary"),
            prompt: None,
            implementer: text("implementer"),
        })),
        "REJECTION_DETAILS" => Some(LiveEvent::Prompt {
            task,
            iteration,
            prompt: text("modification_prompt")?,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
