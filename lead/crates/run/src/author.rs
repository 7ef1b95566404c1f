//! Pattern A in a run: an agent Inspector's question about the change goes to the Implementer —
//! the run's executor agent asked in the role of the Implementer of the task that owns the file
//! the question is about (`answer.md`, with that task as its context). The team's Implementer
//! processes of the phase are gone by the review round; the agent that did the work answers for
//! it. An answer must change no file: one that did is not handed on.

use crate::advisor::ExecutorAdvisor;
use crate::review_round::covers;
use protocol::message::{ExecutorSpec, Question};
use protocol::prompt::{Role, Templates};
use protocol::Task;
use review::questions::{answer_prompt, Author};
use std::path::PathBuf;
use team::discussion::Advisor;

/// The run's Implementers as the author of its change.
pub struct RunAuthor {
    /// The executor the tasks were carried out with.
    pub spec: ExecutorSpec,
    /// The repository root.
    pub repo: PathBuf,
    /// The agent's templates (`answer.md` among them).
    pub templates: Templates,
    /// The run's tasks, for which owns the file a question is about.
    pub tasks: Vec<Task>,
}

impl RunAuthor {
    /// The task whose files include where `question` is about.
    fn task_of(&self, question: &Question) -> Option<&Task> {
        let path = question.about.split(':').next().unwrap_or_default();
        self.tasks
            .iter()
            .filter(|t| !path.is_empty() && t.owns.iter().any(|o| covers(o, path)))
            .max_by_key(|t| t.id)
    }
}

impl Author for RunAuthor {
    fn who(&self, question: &Question) -> String {
        match self.task_of(question) {
            Some(task) => format!("the Implementer of task {}", task.id),
            None => "the Implementer".to_string(),
        }
    }

    fn answer(&self, question: &Question) -> Result<String, String> {
        let context = match self.task_of(question) {
            Some(task) => format!("Task {}: {}\n\n{}", task.id, task.subject, task.description),
            None => {
                let tasks: Vec<String> = self
                    .tasks
                    .iter()
                    .map(|t| format!("- Task {}: {}", t.id, t.subject))
                    .collect();
                format!("The run's tasks:\n{}", tasks.join("\n"))
            }
        };
        let prompt = answer_prompt(self.templates.get(Role::Answer), &context, question);
        let before = tree_state(&self.repo);
        let mut advisor = ExecutorAdvisor::new(&self.spec, &self.repo, &self.templates);
        let answer = advisor.ask(&prompt)?;
        if tree_state(&self.repo) != before {
            return Err("the agent changed files while answering: its answer is not used".into());
        }
        let answer = answer.trim();
        if answer.is_empty() {
            return Err("the agent's answer was empty".into());
        }
        Ok(answer.to_string())
    }
}

/// The uncommitted files and their contents, to tell whether an answer changed the tree.
fn tree_state(repo: &std::path::Path) -> Vec<(String, Option<Vec<u8>>)> {
    let files = protocol::exec::git::work_tree::uncommitted(repo).unwrap_or_default();
    files
        .into_iter()
        .map(|f| {
            let content = std::fs::read(repo.join(&f)).ok();
            (f, content)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use team::registration::register;
    use team::testing::task;

    #[test]
    fn the_task_that_owns_the_file_answers_for_it() {
        let tasks = register(&[
            task("1", "Add the loader", &["src/load.rs"], &[]),
            task("2", "Add the cache", &["src/cache/"], &[]),
        ])
        .tasks;
        let author = RunAuthor {
            spec: ExecutorSpec {
                mode: protocol::message::ExecutorMode::Script,
                command: Vec::new(),
                timeout_secs: 1,
                fallback: Vec::new(),
                url: String::new(),
                model: String::new(),
                api_key_env: None,
                max_tokens: 0,
                idle_timeout_secs: 0,
            },
            repo: PathBuf::from("/nonexistent"),
            templates: Templates::default(),
            tasks,
        };
        let q = |about: &str| Question {
            review: "r".into(),
            id: 1,
            about: about.into(),
            text: "why?".into(),
        };
        assert_eq!(
            author.who(&q("src/cache/lru.rs:3")),
            "the Implementer of task 2"
        );
        assert_eq!(author.who(&q("src/load.rs")), "the Implementer of task 1");
        assert_eq!(author.who(&q("")), "the Implementer");
        assert_eq!(
            author.answer(&q("src/load.rs:1")),
            Err("a script executor cannot be asked: it runs no agent".to_string())
        );
    }
}
