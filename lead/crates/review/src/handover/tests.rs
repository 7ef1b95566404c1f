use super::*;

fn draft(command: &str, outcome: &str) -> Draft {
    Draft {
        command: command.into(),
        at: "2026-03-01T10:00:00Z".into(),
        outcome: vec![outcome.into()],
        verdicts: vec![
            "- [B1] 2026-03-01T10:00:00Z NO-GO — ESCALATED (.retake/verdicts.md)".into(),
        ],
        decisions: Vec::new(),
        pending: Vec::new(),
    }
}

/// The `## ` headings of a text, in order.
fn headings(text: &str) -> Vec<&str> {
    text.lines().filter_map(|l| l.strip_prefix("## ")).collect()
}

#[test]
fn a_first_draft_has_every_section_in_order() {
    let text = render(None, &draft("retake review", "exit 1: the gate failed"));
    assert_eq!(
        headings(&text),
        vec![
            "Last command",
            "Verdicts and decisions",
            "Pending",
            "Steering Exceptions",
            "Notes"
        ]
    );
    assert!(text.starts_with("# Session handover\n\n> Drafted by retake after every review, run, fix and resume; last drafted at 2026-03-01T10:00:00Z by `retake review`.\n"));
    assert!(text.contains(
        "## Last command\n\n- `retake review` at 2026-03-01T10:00:00Z\n- exit 1: the gate failed\n\n"
    ));
    assert!(text.contains("## Pending\n\nNothing pending.\n\n"));
    assert!(text.contains("| Feature | Rule | Where | Decided by | Why |\n|---|---|---|---|---|\n"));
    assert_eq!(exceptions::parse(&text), exceptions::Parsed::default());
}

#[test]
fn a_redraft_replaces_drafted_sections_and_keeps_the_user_s_verbatim() {
    let first = render(None, &draft("retake review", "exit 1: the gate failed"));
    // The user writes a note, a section of their own between two drafted ones, and a row.
    let edited = first
        .replace(
            "## Notes\n\n",
            "## Notes\n\n- ask Bob about the cache  \n\twith a tab\n",
        )
        .replace(
            "## Pending\n",
            "## Open questions\n\nWhy is B1 NO-GO?\n\n## Pending\n",
        )
        .replace(
            "|---|---|---|---|---|\n",
            "|---|---|---|---|---|\n| * | dead-code | | alice | demo |\n",
        );
    let second = render(Some(&edited), &draft("retake run", "exit 0: committed"));
    assert_eq!(
        headings(&second),
        vec![
            "Last command",
            "Verdicts and decisions",
            "Open questions",
            "Pending",
            "Steering Exceptions",
            "Notes"
        ]
    );
    assert!(second.contains("- `retake run` at 2026-03-01T10:00:00Z\n- exit 0: committed\n"));
    assert!(!second.contains("exit 1: the gate failed"));
    assert!(second.contains("## Open questions\n\nWhy is B1 NO-GO?\n\n## Pending"));
    assert!(second.contains("- ask Bob about the cache  \n\twith a tab\n"));
    assert_eq!(exceptions::parse(&second).exceptions.len(), 1);
    // Drafting again changes nothing the user wrote.
    let third = render(Some(&second), &draft("retake run", "exit 0: committed"));
    assert_eq!(third, second);
}

#[test]
fn a_drafted_section_the_user_deleted_comes_back_in_its_place() {
    let text = "# Mine\n\n## Notes\nkeep\n\n## Verdicts and decisions\nold\n";
    let out = render(
        Some(text),
        &draft("retake fix", "exit 0: every group fixed"),
    );
    assert_eq!(
        headings(&out),
        vec![
            "Last command",
            "Notes",
            "Verdicts and decisions",
            "Pending",
            "Steering Exceptions"
        ]
    );
    assert!(out.contains("## Notes\nkeep\n\n## Verdicts and decisions\n\n- [B1]"));
    assert!(!out.contains("\nold\n"));
}

#[test]
fn write_keeps_the_notes_and_reads_the_facts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    let last = LastCommand {
        command: "retake review".into(),
        outcome: vec!["exit 0: the gate passed".into()],
    };
    let path = write(repo, &last).expect("written");
    assert_eq!(path, repo.join(HANDOVER_PATH));
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains("No verdicts yet."));
    std::fs::write(
        &path,
        text.replace("## Notes\n\n", "## Notes\n\nhand-written\n"),
    )
    .expect("edit");
    write(repo, &last).expect("written again");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains("## Notes\n\nhand-written\n"));
    assert_eq!(text.matches("## Notes").count(), 1);
}

#[test]
fn section_body_finds_a_section_by_its_title() {
    let text = "# T\n## Notes\nA\n## steering exceptions \nB\n";
    assert_eq!(section_body(text, "Notes").as_deref(), Some("A\n"));
    assert_eq!(
        section_body(text, "Steering Exceptions").as_deref(),
        Some("B\n")
    );
    assert_eq!(section_body(text, "Pending"), None);
}
