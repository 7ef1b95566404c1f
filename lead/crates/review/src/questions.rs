//! Pattern A on the Lead's side: an Inspector's question to the change's author. The
//! coordinator journals every question and answer (`questions.jsonl` in the review's journal
//! folder), routes the question to the review's [`Author`] — the Implementer's agent in a run
//! (the `run` crate supplies it), else the configured agent standing in for the author
//! ([`StandIn`]) — and hands the answer back, acting on neither. An unanswered question ends as
//! the Inspector's note; the exchanges a review saw come back in its `Finished`.

use protocol::message::{capped, AgentSpec, Question, MAX_ANSWER_CHARS};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// Who answers a review's questions.
pub trait Author: Send + Sync {
    /// How the answer names who gave it (`the Implementer of task 3`).
    fn who(&self, question: &Question) -> String;
    /// The answer to `question`, or why there is none. Runs on a thread of its own, never on
    /// the hub's.
    fn answer(&self, question: &Question) -> Result<String, String>;
}

/// An [`Author`] a request carries (a run's Implementers).
#[derive(Clone)]
pub struct AuthorRef(pub Arc<dyn Author>);

impl std::fmt::Debug for AuthorRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AuthorRef")
    }
}

/// The configured agent standing in for the author of a plain review: the asking Inspector's
/// own agent, prompted with the `answer.md` template.
pub struct StandIn {
    /// The agent.
    pub spec: AgentSpec,
    /// The repository root.
    pub root: PathBuf,
    /// The `answer.md` template.
    pub template: String,
}

impl Author for StandIn {
    fn who(&self, _question: &Question) -> String {
        "the agent standing in for the author".to_string()
    }

    fn answer(&self, question: &Question) -> Result<String, String> {
        let context = "A review of your change; the reviewer sees the same repository you do.";
        let prompt = answer_prompt(&self.template, context, question);
        inspector::backend::ask_text(&self.spec, &self.root, &prompt)
    }
}

/// The answer prompt: `template` (`answer.md`) filled with what the author worked on, where
/// the question is about and the question.
pub fn answer_prompt(template: &str, context: &str, question: &Question) -> String {
    let about = if question.about.is_empty() {
        "the change as a whole"
    } else {
        question.about.as_str()
    };
    protocol::prompt::fill(
        template,
        &[
            ("{{context}}", context),
            ("{{about}}", about),
            ("{{question}}", &question.text),
        ],
    )
}

/// One question a review saw and what became of it: a line of `questions.jsonl`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exchange {
    /// The asking Inspector (its logical name).
    pub inspector: String,
    /// The question's id (per Inspector).
    pub id: u32,
    /// Where it is about.
    pub about: String,
    /// The question.
    pub question: String,
    /// When it was asked (RFC 3339, UTC).
    pub asked_at: String,
    /// Who answered, when anyone did.
    pub by: Option<String>,
    /// The answer.
    pub answer: Option<String>,
    /// When it was answered.
    pub answered_at: Option<String>,
    /// Why nobody answered, when the author could not.
    pub unanswered: Option<String>,
}

impl Exchange {
    /// A question just asked.
    pub fn asked(inspector: &str, question: &Question) -> Exchange {
        Exchange {
            inspector: inspector.to_string(),
            id: question.id,
            about: question.about.clone(),
            question: question.text.clone(),
            asked_at: now(),
            by: None,
            answer: None,
            answered_at: None,
            unanswered: None,
        }
    }

    /// Records what the author said (or why it said nothing).
    pub fn settle(&mut self, by: &str, answer: &Result<String, String>) {
        match answer {
            Ok(text) => {
                self.by = Some(by.to_string());
                self.answer = Some(capped(text, MAX_ANSWER_CHARS));
                self.answered_at = Some(now());
            }
            Err(why) => self.unanswered = Some(why.clone()),
        }
    }
}

/// The exchanges as JSON lines.
pub fn jsonl(exchanges: &[Exchange]) -> String {
    exchanges
        .iter()
        .filter_map(|e| serde_json::to_string(e).ok())
        .map(|line| line + "\n")
        .collect()
}

fn now() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(about: &str) -> Question {
        Question {
            review: "r1".into(),
            id: 2,
            about: about.into(),
            text: "why is load not async?".into(),
        }
    }

    #[test]
    fn the_answer_prompt_names_the_place_and_the_question() {
        let prompt = answer_prompt(
            protocol::prompt::Role::Answer.builtin(),
            "Task 3: add the loader",
            &question("src/a.rs:4"),
        );
        assert!(prompt.contains("## What you worked on\nTask 3: add the loader\n"));
        assert!(prompt.contains("About `src/a.rs:4`: why is load not async?"));
        let whole = answer_prompt("{{about}}", "", &question(""));
        assert_eq!(whole, "the change as a whole");
    }

    #[test]
    fn an_exchange_records_the_answer_or_why_there_is_none() {
        let mut e = Exchange::asked("inspector-quality", &question("src/a.rs:4"));
        assert_eq!((e.id, e.by.as_deref()), (2, None));
        e.settle("the Implementer of task 3", &Ok("no DB access".into()));
        assert_eq!(e.answer.as_deref(), Some("no DB access"));
        let mut failed = Exchange::asked("inspector-quality", &question(""));
        failed.settle("x", &Err("agent timed out".into()));
        assert_eq!(
            (failed.answer, failed.unanswered.as_deref()),
            (None, Some("agent timed out"))
        );
        let lines = jsonl(&[e]);
        assert_eq!(lines.lines().count(), 1);
        assert!(
            lines.contains("\"by\":\"the Implementer of task 3\""),
            "{lines}"
        );
    }
}
