//! The prompt templates of every agent role besides the Inspectors'
//! (`inspector::backend::prompt`): the Planner and the Critic of Phase 0, the fix planner and
//! the author answering a reviewer's question, which the Lead asks, and the Implementer's task and modification prompts and the template
//! evaluator's instructions, which travel to the Implementers in their assignments (only the
//! configured ones: [`Templates::overrides`]). Each is a file of `deploy/prompts/` compiled in as
//! its built-in text, overridable through `[agent] prompt_dir`, filled by [`fill`]. A template
//! words the request; an answer's format is retake's contract, so it is the `{{answer}}`
//! placeholder's, and added at the end of a template that leaves it out.

use std::collections::BTreeMap;

/// An agent role the Lead prompts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Phase 0's Planner (`planner.md`: `{{tasks}}`, `{{points}}`, `{{files}}`).
    Planner,
    /// Phase 0's Critic (`critic.md`: `{{tasks}}`).
    Critic,
    /// The fix pipeline's planner (`fix-planner.md`: `{{batch}}`, `{{findings}}`).
    FixPlanner,
    /// An Implementer's first prompt for a task (`implementer.md`: `{{id}}`, `{{subject}}`,
    /// `{{description}}`, `{{owns}}`, `{{rules}}`, `{{notes}}`, `{{template}}`).
    Implementer,
    /// The prompt after a REJECT (`modification.md`: `{{issues}}`, `{{template}}`,
    /// `{{previous}}`).
    Modification,
    /// The goal-drift evaluator's instructions (`evaluator.md`: `{{requirements}}`).
    Evaluator,
    /// The author's answer to a reviewer's question (pattern A; `answer.md`: `{{context}}`,
    /// `{{about}}`, `{{question}}`): the Implementer's agent in a run, the configured agent
    /// standing in for the author in a review.
    Answer,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 7] = [
        Role::Planner,
        Role::Critic,
        Role::FixPlanner,
        Role::Implementer,
        Role::Modification,
        Role::Evaluator,
        Role::Answer,
    ];

    /// Its template's file name in a prompt folder.
    pub fn file(self) -> &'static str {
        match self {
            Role::Planner => "planner.md",
            Role::Critic => "critic.md",
            Role::FixPlanner => "fix-planner.md",
            Role::Implementer => "implementer.md",
            Role::Modification => "modification.md",
            Role::Evaluator => "evaluator.md",
            Role::Answer => "answer.md",
        }
    }

    /// The built-in template (`deploy/prompts/<file>`).
    pub fn builtin(self) -> &'static str {
        match self {
            Role::Planner => include_str!("../../deploy/prompts/planner.md"),
            Role::Critic => include_str!("../../deploy/prompts/critic.md"),
            Role::FixPlanner => include_str!("../../deploy/prompts/fix-planner.md"),
            Role::Implementer => include_str!("../../deploy/prompts/implementer.md"),
            Role::Modification => include_str!("../../deploy/prompts/modification.md"),
            Role::Evaluator => include_str!("../../deploy/prompts/evaluator.md"),
            Role::Answer => include_str!("../../deploy/prompts/answer.md"),
        }
    }
}

/// The templates in use: the configured ones, else the built-in ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Templates(BTreeMap<Role, String>);

impl Templates {
    /// Uses `text` for `role`.
    pub fn set(&mut self, role: Role, text: String) {
        self.0.insert(role, text);
    }

    /// The template of `role`.
    pub fn get(&self, role: Role) -> &str {
        self.0.get(&role).map_or(role.builtin(), String::as_str)
    }

    /// The configured templates, by file name (what an assignment carries).
    pub fn overrides(&self) -> Vec<(String, String)> {
        self.0
            .iter()
            .map(|(role, text)| (role.file().to_string(), text.clone()))
            .collect()
    }

    /// The templates an assignment carried (file names this build does not know are ignored).
    pub fn from_overrides(list: &[(String, String)]) -> Templates {
        let mut t = Templates::default();
        for (file, text) in list {
            if let Some(role) = Role::ALL.into_iter().find(|r| r.file() == file) {
                t.set(role, text.clone());
            }
        }
        t
    }

    /// `role`'s template with `values` (`("{{tasks}}", "…")`) and the answer's format filled
    /// in; the format is appended when the template does not place it (a role whose answer
    /// has no format passes an empty one).
    pub fn render(&self, role: Role, values: &[(&str, &str)], answer: &str) -> String {
        let template = self.get(role);
        let mut all: Vec<(&str, &str)> = values.to_vec();
        all.push(("{{answer}}", answer));
        let mut out = fill(template, &all);
        if !answer.is_empty() && !template.contains("{{answer}}") {
            out.push_str("\n\n");
            out.push_str(answer);
        }
        out
    }
}

/// `template` with each placeholder of `values` replaced, in one pass (text filled in is never
/// expanded again); any other `{{…}}` stays as written.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find("{{") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        match values.iter().find(|(p, _)| tail.starts_with(p)) {
            Some((p, value)) => {
                out.push_str(value);
                rest = &tail[p.len()..];
            }
            None => {
                out.push_str("{{");
                rest = &tail[2..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_fill_once_and_the_answer_is_never_left_out() {
        let mut t = Templates::default();
        assert!(t.get(Role::Critic).starts_with("# Red team this plan"));
        t.set(Role::Critic, "Check {{tasks}} and {{other}}.".into());
        assert_eq!(
            t.render(
                Role::Critic,
                &[("{{tasks}}", "- 1 {{answer}}")],
                "Answer in JSON."
            ),
            "Check - 1 {{answer}} and {{other}}.\n\nAnswer in JSON."
        );
        t.set(Role::Critic, "{{answer}}\n{{tasks}}".into());
        assert_eq!(
            t.render(Role::Critic, &[("{{tasks}}", "- 1")], "JSON"),
            "JSON\n- 1"
        );
    }

    #[test]
    fn every_asking_role_has_its_built_in_template_with_the_answer_placed() {
        for role in [Role::Planner, Role::Critic, Role::FixPlanner] {
            assert!(role.builtin().contains("{{answer}}"), "{role:?}");
        }
    }

    #[test]
    fn only_configured_templates_travel_and_come_back() {
        let mut t = Templates::default();
        assert!(t.overrides().is_empty());
        t.set(Role::Implementer, "Do {{subject}}".into());
        let list = t.overrides();
        assert_eq!(
            list,
            [("implementer.md".to_string(), "Do {{subject}}".to_string())]
        );
        let mut with_unknown = list.clone();
        with_unknown.push(("future.md".into(), "x".into()));
        assert_eq!(Templates::from_overrides(&with_unknown), t);
    }
}
