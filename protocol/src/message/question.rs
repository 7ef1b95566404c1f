//! Pattern A of the team protocol: a reviewer asks the author about intent ("why is this
//! function not async?") and judges with the answer ("no DB access, sync is enough"). An
//! agent-backed Inspector sends a [`Question`] to the Lead, which journals it and routes it —
//! to the Implementer's agent in a run, to the configured agent standing in for the author in a
//! review — and hands the [`Answer`] back; the Lead never acts on either. A question nobody
//! answers within its time ends as a note of the Inspector's report.
//!
//! Wire rule as in `message.rs`: append-only, no serde attribute bincode cannot carry.

use serde::{Deserialize, Serialize};

/// The most questions one Inspector asks in one review; more are left unasked, with a note.
pub const MAX_QUESTIONS: usize = 3;

/// The most characters of a question; longer ones are cut.
pub const MAX_QUESTION_CHARS: usize = 1_000;

/// The most characters of an answer; longer ones are cut.
pub const MAX_ANSWER_CHARS: usize = 4_000;

/// Inspector → Lead: a question for the change's author.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// The review id.
    pub review: String,
    /// The asker's number for it, from 1: its answer carries the same.
    pub id: u32,
    /// Where it is about (`src/orders.rs:12`), empty when about the change as a whole.
    pub about: String,
    /// The question, at most [`MAX_QUESTION_CHARS`] characters.
    pub text: String,
}

/// Lead → Inspector: the answer to its question `id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The review id.
    pub review: String,
    /// The question's id.
    pub id: u32,
    /// Who answered (`the Implementer of task 3`, `the agent standing in for the author`).
    pub by: String,
    /// The answer, at most [`MAX_ANSWER_CHARS`] characters.
    pub text: String,
}

/// `text` cut to at most `max` characters (an ellipsis marks a cut).
pub fn capped(text: &str, max: usize) -> String {
    let text = text.trim();
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cut_at_a_character_boundary() {
        assert_eq!(capped("  short  ", 10), "short");
        assert_eq!(capped("ああああ", 2), "ああ…");
        assert_eq!(capped("abc", 3), "abc");
    }
}
