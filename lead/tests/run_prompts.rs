//! The agent roles' prompt templates through a real run: `[agent] prompt_dir` holds
//! `implementer.md` and `modification.md`, and the scripted coding agent (which writes a TODO
//! first, then the finished code) receives its first prompt and, after the REJECT, its
//! modification prompt in those words — with the task's parts filled in.

#[path = "run_fixture/mod.rs"]
mod run_fixture;

use run_fixture::{agent_script, fixture_custom, run, Agent};

#[test]
fn the_configured_implementer_and_modification_templates_word_the_agent_s_prompts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("prompts.log");
    // The agent keeps every prompt it is given, then behaves as the fixture's agent.
    let script = format!(
        "cat >> '{}'\necho '=====' >> '{}'\n{}",
        log.display(),
        log.display(),
        agent_script(dir.path(), Agent::Good)
    );
    let plan = run_fixture::first_task_plan();
    let repo = fixture_custom(
        dir.path(),
        &plan,
        &script,
        "\n[agent]\nprompt_dir = \"prompts\"\n",
        &[
            (
                "prompts/implementer.md",
                "HOUSE STYLE, task {{id}}: {{subject}}\n{{owns}}Write all of it.\n",
            ),
            (
                "prompts/modification.md",
                "AGAIN, because:\n{{issues}}\n{{previous}}",
            ),
        ],
    );
    let ran = run(&repo, "run-prompts");
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    let prompts = std::fs::read_to_string(&log).expect("the agent kept its prompts");
    let prompts: Vec<&str> = prompts.split("=====\n").filter(|p| !p.is_empty()).collect();
    assert_eq!(prompts.len(), 2, "{prompts:#?}");
    assert!(
        prompts[0].starts_with("HOUSE STYLE, task 1: ")
            && prompts[0].contains("## Files this task owns\n- `src/sub.rs`")
            && prompts[0].ends_with("Write all of it.\n"),
        "{}",
        prompts[0]
    );
    assert!(
        prompts[1].starts_with("AGAIN, because:\n- **")
            && prompts[1].contains("TODO")
            && prompts[1].contains("HOUSE STYLE, task 1: "),
        "{}",
        prompts[1]
    );
}
