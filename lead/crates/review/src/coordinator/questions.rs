//! The coordinator's part of pattern A: an Inspector's `Question` is checked (a current
//! Inspector of this review, at most [`MAX_QUESTIONS`] each), journaled with every exchange so
//! far (`questions.jsonl`) and only then routed to the review's author on a thread of its own;
//! the answer is journaled and handed back as an `Answer`. The hub acts on neither: a verdict
//! never waits for a question, and one nobody answers ends as the Inspector's note.

use super::Coordinator;
use crate::questions::{jsonl, Author, Exchange, StandIn};
use actix::prelude::*;
use host::supervisor::Role;
use protocol::message::{capped, Answer, Question, MAX_QUESTIONS, MAX_QUESTION_CHARS};
use protocol::Body;
use std::sync::Arc;

/// The most characters of where a question is about.
const MAX_ABOUT_CHARS: usize = 300;

/// The author's answer (or why there is none), back on the hub.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Answered {
    inspector: String,
    question: Question,
    by: String,
    answer: Result<String, String>,
}

impl Coordinator {
    /// A question from the Inspector instance `from`.
    pub(super) fn on_question(&mut self, from: &str, question: Question, ctx: &mut Context<Self>) {
        let Some(logical) = self
            .sup
            .slot(from)
            .filter(|s| s.role == Role::Inspector)
            .map(|s| s.logical.clone())
        else {
            tracing::warn!(
                from,
                "a question from an actor that is not an Inspector: dropped"
            );
            return;
        };
        if question.review != self.plan.review {
            tracing::warn!(from, "a question about another review: dropped");
            return;
        }
        let asked = self.asked.entry(logical.clone()).or_default();
        if *asked >= MAX_QUESTIONS {
            tracing::warn!(from, "more than {MAX_QUESTIONS} questions: dropped");
            return;
        }
        *asked += 1;
        let question = Question {
            about: capped(&question.about, MAX_ABOUT_CHARS),
            text: capped(&question.text, MAX_QUESTION_CHARS),
            ..question
        };
        self.exchanges.push(Exchange::asked(&logical, &question));
        self.asked_at
            .insert((logical.clone(), question.id), std::time::Instant::now());
        self.happened(format!(
            "{logical} asks the author about {}: {}",
            place(&question),
            question.text
        ));
        let author = self.author_for(&logical);
        self.journal_questions(ctx, move |_this, ctx| {
            let Some(author) = author else {
                return;
            };
            let addr = ctx.address();
            // The author may be a command or an endpoint: never on the hub's thread.
            let spawned = std::thread::Builder::new()
                .name(format!("{logical}-question"))
                .spawn(move || {
                    let by = author.who(&question);
                    let answer = author.answer(&question);
                    addr.do_send(Answered {
                        inspector: logical,
                        question,
                        by,
                        answer,
                    });
                });
            if let Err(e) = spawned {
                tracing::warn!(error = %e, "cannot ask the author");
            }
        });
    }

    /// Who answers `inspector`'s questions: the request's author, else its own agent standing
    /// in for the author (unless commands may not run).
    fn author_for(&self, inspector: &str) -> Option<Arc<dyn Author>> {
        if let Some(author) = &self.plan.author {
            return Some(author.0.clone());
        }
        if self.plan.no_exec {
            return None;
        }
        let spec = self.plan.request_for(inspector)?.options.agent?;
        Some(Arc::new(StandIn {
            spec,
            root: self.plan.root.clone(),
            template: self.plan.answer_template.clone(),
        }))
    }

    /// Writes `questions.jsonl` with every exchange so far, then `then`; a failed write ends
    /// the review like any journal write.
    fn journal_questions(
        &mut self,
        ctx: &mut Context<Self>,
        then: impl FnOnce(&mut Self, &mut Context<Self>) + 'static,
    ) {
        let text = jsonl(&self.exchanges);
        let journal = self.journal.clone();
        self.writer.wait(
            ctx,
            move || journal.questions(&text),
            move |this, written, ctx| match written {
                Ok(_) => then(this, ctx),
                Err(e) => this.finish(Err(super::ReviewFailure::Journal(e.to_string()))),
            },
        );
    }

    /// A line on the dashboard's feed, when one watches.
    fn happened(&self, line: String) {
        if let Some(watch) = &self.watch {
            watch.feed().happened(line);
        }
    }
}

impl Handler<Answered> for Coordinator {
    type Result = ();

    fn handle(&mut self, msg: Answered, ctx: &mut Self::Context) {
        if self.done.is_none() {
            return;
        }
        let key = (msg.inspector.clone(), msg.question.id);
        let waited = self.asked_at.get(&key).map(std::time::Instant::elapsed);
        // The Inspector stopped waiting: a late answer is journaled, never handed on.
        let answer = match msg.answer {
            Ok(text) if waited.is_some_and(|w| w > self.plan.question_timeout) => Err(format!(
                "answered after the {} s the question waited: {}",
                self.plan.question_timeout.as_secs_f64(),
                capped(&text, protocol::message::MAX_ANSWER_CHARS)
            )),
            other => other,
        };
        let msg = Answered { answer, ..msg };
        let Some(exchange) = self
            .exchanges
            .iter_mut()
            .find(|e| e.inspector == msg.inspector && e.id == msg.question.id)
        else {
            return;
        };
        exchange.settle(&msg.by, &msg.answer);
        let line = match &msg.answer {
            Ok(text) => format!("{} answered {}: {text}", msg.by, msg.inspector),
            Err(why) => format!("no answer for {}: {why}", msg.inspector),
        };
        self.happened(line);
        let Ok(text) = msg.answer else {
            return self.journal_questions(ctx, |_, _| {});
        };
        let answer = Answer {
            review: self.plan.review.clone(),
            id: msg.question.id,
            by: msg.by,
            text: capped(&text, protocol::message::MAX_ANSWER_CHARS),
        };
        let inspector = msg.inspector;
        self.journal_questions(ctx, move |this, _| {
            // The instance asking now: a replaced Inspector asks again itself.
            if let Some(instance) = this.sup.by_logical(&inspector).map(|s| s.instance.clone()) {
                this.send(&instance, Body::Answer(answer));
            }
        });
    }
}

/// Where a question is about, as a line says it.
fn place(question: &Question) -> &str {
    if question.about.is_empty() {
        "the change"
    } else {
        &question.about
    }
}
