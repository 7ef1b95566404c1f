//! The executor prompt: the task with its rules and peer notes at first, the modification
//! prompt after a REJECT. The modification prompt follows the seed's template section by
//! section (detected issues, fix requirements, the original task), in English like the rest
//! of the product, with the template evaluator's section when that evaluator failed.

use crate::criteria::Issue;
use crate::evaluator::TemplateOutcome;
use protocol::domain::Task;
use protocol::prompt::{Role, Templates};

/// What goes into the first prompt besides the task.
#[derive(Debug, Clone, Copy, Default)]
pub struct PromptParts<'a> {
    /// House rules the executor must follow.
    pub rules: &'a [String],
    /// Notes from other Implementers (message pattern D); they never ask for a change.
    pub peer_notes: &'a [String],
    /// The template evaluator's instructions, when the task has a template.
    pub template_instructions: Option<&'a str>,
}

/// The first prompt for `task`, from `templates` (`implementer.md`).
pub fn task_prompt(task: &Task, parts: &PromptParts<'_>, templates: &Templates) -> String {
    let description = task.description.trim();
    let description = if description.is_empty() {
        String::new()
    } else {
        format!("{description}\n\n")
    };
    let mut owns = String::new();
    section(&mut owns, "Files this task owns", &task.owns, |p| {
        format!("`{p}`")
    });
    let mut rules = String::new();
    section(&mut rules, "Rules", parts.rules, String::clone);
    let mut notes = String::new();
    if !parts.peer_notes.is_empty() {
        // Pattern D: news, never a request — the task above is still the whole job.
        notes.push_str(
            "## Notes from other Implementers\nInformation only: use what helps, and do not \
             change their files for them.\n",
        );
        for note in parts.peer_notes {
            notes.push_str(&format!("- {note}\n"));
        }
        notes.push('\n');
    }
    let template = parts
        .template_instructions
        .map(|text| format!("## Template requirements\n{text}\n\n"))
        .unwrap_or_default();
    templates.render(
        Role::Implementer,
        &[
            ("{{id}}", &task.id.to_string()),
            ("{{subject}}", &task.subject),
            ("{{description}}", &description),
            ("{{owns}}", &owns),
            ("{{rules}}", &rules),
            ("{{notes}}", &notes),
            ("{{template}}", &template),
        ],
        "",
    )
}

fn section<T>(out: &mut String, title: &str, items: &[T], show: impl Fn(&T) -> String) {
    if items.is_empty() {
        return;
    }
    out.push_str(&format!("## {title}\n"));
    for item in items {
        out.push_str(&format!("- {}\n", show(item)));
    }
    out.push('\n');
}

/// The modification prompt after a REJECT, from `templates` (`modification.md`): each issue
/// (type, description, location, suggestion), the fix requirements, the template section when
/// the template failed, and the original task prompt.
pub fn modification_prompt(
    issues: &[Issue],
    template: Option<&TemplateOutcome>,
    original_prompt: &str,
    templates: &Templates,
) -> String {
    let mut listed = String::new();
    for issue in issues {
        listed.push_str(&format!(
            "- **{}**: {}\n",
            issue.kind.as_str(),
            issue.description
        ));
        if let Some(location) = &issue.location {
            listed.push_str(&format!("  Location: {location}\n"));
        }
        if let Some(suggestion) = &issue.suggestion {
            listed.push_str(&format!("  Suggestion: {suggestion}\n"));
        }
    }
    let failed = template
        .filter(|t| !t.passed())
        .map(template_section)
        .unwrap_or_default();
    templates.render(
        Role::Modification,
        &[
            ("{{issues}}", &listed),
            ("{{template}}", &failed),
            ("{{previous}}", original_prompt),
        ],
        "",
    )
}

fn template_section(t: &TemplateOutcome) -> String {
    let mut out = format!(
        "\n## Template-Specific Issues ({})\n\n### Detected issues\n",
        t.name
    );
    match &t.result {
        Ok(result) => {
            for reason in &result.reasons {
                out.push_str(&format!(
                    "- **{}** ({}): {}\n",
                    reason.criteria_id, reason.violation_type, reason.description
                ));
                if !reason.evidence.is_empty() {
                    out.push_str(&format!("  Evidence: {}\n", reason.evidence.join(", ")));
                }
            }
            out.push_str(&format!(
                "\n### Fix requirements\n{}\n",
                result.instructions
            ));
        }
        Err(e) => {
            out.push_str(&format!(
                "- **{}** (evaluator_error): the evaluator could not judge the output: {e}\n",
                t.template_id
            ));
            out.push_str("\n### Fix requirements\nProduce output the evaluator can judge.\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::criteria::IssueType;
    use crate::evaluator::{EvaluatorResult, StructuredReason};

    #[test]
    fn the_task_prompt_lists_owns_rules_and_notes() {
        let mut task = crate::testing::task("Add a parser");
        task.description = "Parse the header.".into();
        task.owns = vec!["src/parse.rs".into()];
        let rules = ["No unwrap".to_string()];
        let notes = ["implementer-2: util::split now returns Vec".to_string()];
        let parts = PromptParts {
            rules: &rules,
            peer_notes: &notes,
            template_instructions: None,
        };
        let prompt = task_prompt(&task, &parts, &Templates::default());
        assert!(prompt.starts_with(
            "# Task 7: Add a parser\n\nParse the header.\n\n## Files this task owns\n- \
             `src/parse.rs`\n\n## Rules\n- No unwrap\n\n## Notes from other Implementers\n\
             Information only: use what helps, and do not change their files for them.\n- \
             implementer-2: util::split now returns Vec\n\nChange the files"
        ));
    }

    #[test]
    fn the_modification_prompt_follows_the_template() {
        let issues = [Issue::new(
            IssueType::Incomplete,
            Some("src/lib.rs:2".into()),
            "TODO marker left: `// TODO: add`",
            "Implement what the marker stands for and remove it",
        )];
        let template = TemplateOutcome {
            template_id: "goal_drift_guard".into(),
            name: "Goal Drift Guard Evaluator".into(),
            result: Ok(EvaluatorResult {
                passed: false,
                criteria_results: Vec::new(),
                reasons: vec![StructuredReason {
                    criteria_id: "GD1".into(),
                    violation_type: "deferral".into(),
                    description: "drift".into(),
                    evidence: vec!["output:1: \"for now\"".into()],
                }],
                instructions: "Do it all.".into(),
            }),
        };
        let text = modification_prompt(
            &issues,
            Some(&template),
            "# Task 7: Add",
            &Templates::default(),
        );
        assert_eq!(
            text,
            "## Problems were found in the previous output\n\n### Detected issues\n- \
             **incomplete**: TODO marker left: `// TODO: add`\n  Location: src/lib.rs:2\n  \
             Suggestion: Implement what the marker stands for and remove it\n\n### Fix \
             requirements\nFix the points above and provide the complete implementation \
             again:\n\n1. Write out all code without omissions\n2. Leave no TODO/FIXME\n3. \
             Create every expected file\n4. Do not declare early completion (\"Done.\" and the \
             like)\n\n## Template-Specific Issues (Goal Drift Guard Evaluator)\n\n### Detected \
             issues\n- **GD1** (deferral): drift\n  Evidence: output:1: \"for now\"\n\n### Fix \
             requirements\nDo it all.\n\n### Previous task\n# Task 7: Add"
        );
    }

    #[test]
    fn configured_templates_word_the_prompts_and_keep_their_parts() {
        use protocol::prompt::Role;
        let mut templates = Templates::default();
        templates.set(
            Role::Implementer,
            "Do {{id}} ({{subject}}).\n{{rules}}".into(),
        );
        templates.set(
            Role::Modification,
            "Again:\n{{issues}}Was: {{previous}}".into(),
        );
        let mut task = crate::testing::task("Add login");
        task.owns = vec!["src/login.rs".into()];
        let rules = vec!["no unwrap".to_string()];
        let parts = PromptParts {
            rules: &rules,
            ..PromptParts::default()
        };
        let first = task_prompt(&task, &parts, &templates);
        assert_eq!(first, "Do 7 (Add login).\n## Rules\n- no unwrap\n\n");
        let issues = vec![Issue {
            kind: IssueType::Incomplete,
            description: "a TODO is left".into(),
            location: None,
            suggestion: None,
        }];
        assert_eq!(
            modification_prompt(&issues, None, &first, &templates),
            format!("Again:\n- **incomplete**: a TODO is left\nWas: {first}")
        );
    }
}
