//! Pattern A on the Inspector's side: an agent that cannot judge something without the author's
//! intent writes `QUESTIONS:` rows; each (at most [`MAX_QUESTIONS`]) goes to the Lead through the
//! [`Asker`] the actor shell supplies, and waits at most the review's question timeout for its
//! answer. When any is answered the agent is asked once more, with the answers, and that reply
//! is its report; otherwise its first reply stands. Every question and what became of it is a
//! note of the report, so a question nobody answers never blocks the verdict nor changes it.

use protocol::cpf::CpfQuestion;
use protocol::message::{capped, Question, MAX_ANSWER_CHARS, MAX_QUESTIONS, MAX_QUESTION_CHARS};
use std::time::Duration;

/// Where an Inspector's questions go: the actor shell sends them to the Lead and hands back the
/// answer that comes back.
pub trait Asker: Send + Sync {
    /// Sends `question` and waits at most `timeout` for its answer: who answered, and the text.
    fn ask(&self, question: &Question, timeout: Duration) -> Option<(String, String)>;
}

/// Appended to the reply format when the review can answer questions.
pub(super) const INVITATION: &str = "

If you cannot judge something without knowing the author's intent, do not guess: add a section
QUESTIONS:
<path>:<line>|<your question to the author>
(at most 3 rows). You will be asked again with the author's answers; until then report only what
you are sure of.";

/// One question and its answer, if one came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Exchange {
    /// Where it is about.
    pub about: String,
    /// The question as sent.
    pub question: String,
    /// Who answered and what.
    pub answer: Option<(String, String)>,
}

/// Puts `asked` to the author through `asker` (none: nobody answers in this review), waiting
/// `timeout` for each answer; the exchanges and the report's notes on them.
pub(super) fn put(
    agent: &str,
    review: &str,
    asked: &[CpfQuestion],
    asker: Option<&dyn Asker>,
    timeout: Duration,
) -> (Vec<Exchange>, Vec<String>) {
    let mut exchanges = Vec::new();
    let mut notes = Vec::new();
    for (id, q) in (1u32..).zip(asked.iter().take(MAX_QUESTIONS)) {
        let question = Question {
            review: review.to_string(),
            id,
            about: q.location.clone(),
            text: capped(&q.text, MAX_QUESTION_CHARS),
        };
        let answer = match asker {
            Some(asker) if !timeout.is_zero() => asker
                .ask(&question, timeout)
                .map(|(by, text)| (by, capped(&text, MAX_ANSWER_CHARS))),
            _ => None,
        };
        let about = if question.about.is_empty() {
            "the change".to_string()
        } else {
            question.about.clone()
        };
        let asked = format!(
            "{agent} asked the author about {about}: \"{}\"",
            question.text
        );
        notes.push(match (&answer, asker) {
            (Some((by, text)), _) => format!("{asked} — {by} answered: \"{text}\""),
            (None, Some(_)) if !timeout.is_zero() => format!(
                "{asked} — no answer within {} s; judged without one",
                timeout.as_secs_f64()
            ),
            (None, _) => {
                format!(
                    "{asked} — nobody answers questions in this review; judged without an answer"
                )
            }
        });
        exchanges.push(Exchange {
            about: question.about,
            question: question.text,
            answer,
        });
    }
    if asked.len() > MAX_QUESTIONS {
        notes.push(format!(
            "{agent}: {} more question(s) not asked (at most {MAX_QUESTIONS} per review)",
            asked.len() - MAX_QUESTIONS
        ));
    }
    (exchanges, notes)
}

/// The prompt that asks the agent again: the first prompt, then the author's answers.
pub(super) fn follow_up(prompt: &str, exchanges: &[Exchange]) -> String {
    let mut out = prompt.trim_end().to_string();
    out.push_str("\n\n## The author's answers to your questions\n");
    for e in exchanges {
        let about = if e.about.is_empty() {
            String::new()
        } else {
            format!(" (about {})", e.about)
        };
        let answer = match &e.answer {
            Some((by, text)) => format!("{by}: {text}"),
            None => "(no answer)".to_string(),
        };
        out.push_str(&format!("\nQ{about}: {}\nA: {answer}\n", e.question));
    }
    out.push_str("\nJudge the change with these answers and report now; ask nothing more.\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Answers the questions whose text contains "async", records every one.
    struct Scripted(Mutex<Vec<Question>>);

    impl Asker for Scripted {
        fn ask(&self, question: &Question, _timeout: Duration) -> Option<(String, String)> {
            self.0.lock().expect("lock").push(question.clone());
            question
                .text
                .contains("async")
                .then(|| ("the Implementer of task 1".into(), "no DB access".into()))
        }
    }

    fn q(location: &str, text: &str) -> CpfQuestion {
        CpfQuestion {
            location: location.into(),
            text: text.into(),
        }
    }

    #[test]
    fn answered_and_unanswered_questions_become_notes_and_at_most_three_are_asked() {
        let asker = Scripted(Mutex::new(Vec::new()));
        let asked = [
            q("src/a.rs:3", "why is `load` not async?"),
            q("", "why a global cache?"),
            q("src/b.rs:1", "third"),
            q("src/b.rs:2", "fourth"),
        ];
        let (exchanges, notes) = put(
            "quality-agent",
            "r1",
            &asked,
            Some(&asker),
            Duration::from_secs(2),
        );
        let sent = asker.0.lock().expect("lock").clone();
        assert_eq!(sent.len(), 3);
        assert_eq!((sent[0].id, sent[0].review.as_str()), (1, "r1"));
        assert_eq!(sent[2].id, 3);
        assert_eq!(
            notes,
            [
                "quality-agent asked the author about src/a.rs:3: \"why is `load` not async?\" — the Implementer of task 1 answered: \"no DB access\"",
                "quality-agent asked the author about the change: \"why a global cache?\" — no answer within 2 s; judged without one",
                "quality-agent asked the author about src/b.rs:1: \"third\" — no answer within 2 s; judged without one",
                "quality-agent: 1 more question(s) not asked (at most 3 per review)",
            ]
        );
        let prompt = follow_up("PROMPT\n", &exchanges);
        assert!(prompt.starts_with("PROMPT\n\n## The author's answers to your questions\n"));
        assert!(prompt.contains(
            "\nQ (about src/a.rs:3): why is `load` not async?\nA: the Implementer of task 1: no DB access\n"
        ));
        assert!(prompt.contains("\nQ: why a global cache?\nA: (no answer)\n"));
    }

    #[test]
    fn without_an_asker_nothing_waits_and_the_note_says_why() {
        let (exchanges, notes) = put(
            "holistic-agent",
            "r1",
            &[q("src/a.rs:1", "why?")],
            None,
            Duration::from_secs(60),
        );
        assert_eq!(exchanges[0].answer, None);
        assert_eq!(
            notes,
            ["holistic-agent asked the author about src/a.rs:1: \"why?\" — nobody answers questions in this review; judged without an answer"]
        );
    }
}
