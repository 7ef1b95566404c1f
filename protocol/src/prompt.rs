//! The prompt templates of the agent roles the Lead itself asks — the Planner and the Critic of
//! Phase 0, the fix planner — beside the Inspectors' (`inspector::backend::prompt`): each a
//! file of `deploy/prompts/` compiled in as its built-in text, overridable through `[agent]
//! prompt_dir`, filled by [`fill`]. A template words the request; the answer's format is
//! retake's contract, so it is the `{{answer}}` placeholder's, and added at the end of a
//! template that leaves it out.

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
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 3] = [Role::Planner, Role::Critic, Role::FixPlanner];

    /// Its template's file name in a prompt folder.
    pub fn file(self) -> &'static str {
        match self {
            Role::Planner => "planner.md",
            Role::Critic => "critic.md",
            Role::FixPlanner => "fix-planner.md",
        }
    }

    /// The built-in template (`deploy/prompts/<file>`).
    pub fn builtin(self) -> &'static str {
        match self {
            Role::Planner => include_str!("../../deploy/prompts/planner.md"),
            Role::Critic => include_str!("../../deploy/prompts/critic.md"),
            Role::FixPlanner => include_str!("../../deploy/prompts/fix-planner.md"),
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

    /// `role`'s template with `values` (`("{{tasks}}", "…")`) and the answer's format filled
    /// in; the format is appended when the template does not place it.
    pub fn render(&self, role: Role, values: &[(&str, &str)], answer: &str) -> String {
        let template = self.get(role);
        let mut all: Vec<(&str, &str)> = values.to_vec();
        all.push(("{{answer}}", answer));
        let mut out = fill(template, &all);
        if !template.contains("{{answer}}") {
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
    fn every_role_has_its_built_in_template_with_the_answer_placed() {
        for role in Role::ALL {
            assert!(role.builtin().contains("{{answer}}"), "{role:?}");
        }
    }
}
