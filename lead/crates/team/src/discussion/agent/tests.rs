use super::super::{discuss, Flag, Why};
use crate::granularity::Limits;
use crate::plan::PlanTask;
use crate::testing::task;
use std::collections::VecDeque;

/// An agent that answers the Planner's and the Critic's prompts from two scripts in turn (an
/// empty script: it cannot run), keeping the prompts it was asked.
#[derive(Default)]
struct Scripted {
    planner: VecDeque<Result<String, String>>,
    critic: VecDeque<Result<String, String>>,
    asked: Vec<String>,
    templates: protocol::prompt::Templates,
}

impl super::Advisor for Scripted {
    fn templates(&self) -> protocol::prompt::Templates {
        self.templates.clone()
    }

    fn ask(&mut self, prompt: &str) -> Result<String, String> {
        self.asked.push(prompt.to_string());
        let script = if prompt.starts_with("# Planning") {
            &mut self.planner
        } else {
            &mut self.critic
        };
        script
            .pop_front()
            .unwrap_or_else(|| Err("the agent exited with 1".into()))
    }
}

fn known() -> Vec<String> {
    [
        "Cargo.toml",
        "src/auth/mod.rs",
        "src/lib.rs",
        "src/limits.rs",
    ]
    .map(String::from)
    .to_vec()
}

/// 1 creates the token file, 2 declares login.rs, 3 names nothing the built-in Planner can use.
fn plan() -> Vec<PlanTask> {
    let mut one = task("1", "Add token store", &[], &[]);
    one.description = "create `src/auth/token.rs`".into();
    vec![
        one,
        task("2", "Add login", &["src/auth/login.rs"], &[]),
        task("3", "Add rate limits", &[], &[]),
    ]
}

fn ok(s: &str) -> Result<String, String> {
    Ok(s.to_string())
}

#[test]
fn the_agents_checked_owns_dependencies_parallelism_and_points_shape_the_plan() {
    let mut agent = Scripted {
        planner: [ok(
            "Here you go:\n{\"tasks\": [{\"id\": \"3\", \"owns\": [\"limits.rs\", \"../../etc/passwd\"], \"after\": [\"2\"]}, \
             {\"id\": \"2\", \"owns\": [\"src/other.rs\"], \"after\": [\"3\"]}, {\"id\": \"9\", \"owns\": [\"x.rs\"]}], \
             \"max_parallel\": 1}",
        ),
        // Asked again with the Critic's points: nothing more to change.
        ok("{\"tasks\": []}")]
        .into(),
        critic: [
            ok("{\"points\": [{\"task\": \"2\", \"problem\": \"login also\\n needs src/session.rs\"}, {\"task\": \"7\", \"problem\": \"x\"}]}"),
            ok("{\"points\": []}"),
        ]
        .into(),
        ..Scripted::default()
    };
    let d = discuss(&plan(), &known(), &Limits::default(), Some(&mut agent));
    assert!(d.agent);
    let three = &d.proposal.tasks[2];
    assert_eq!(
        (three.owns.clone(), three.depends.clone()),
        (vec!["src/limits.rs".to_string()], vec!["2".to_string()]),
        "the one path that resolves inside the repository, and the dependency"
    );
    assert_eq!(
        d.proposal.tasks[1].depends,
        Vec::<String>::new(),
        "2 after 3 would close a cycle with 3 after 2"
    );
    assert!(d
        .proposal
        .added
        .iter()
        .any(|a| (a.task.as_str(), a.on.as_str(), a.why) == ("3", "2", Why::Agent)));
    assert_eq!(
        (d.planner_max_parallel, d.planner_reason.as_deref()),
        (1, Some("the planner agent's recommendation"))
    );
    let first = &d.rounds[0];
    assert!(first
        .planner
        .contains(&"3 owns src/limits.rs (estimated) (agent)".to_string()));
    assert_eq!(
        first.notes,
        vec![
            "the Planner agent's suggestion left out: '../../etc/passwd' for 3 (not a file or folder of the repository, nor one it can create)",
            "the Planner agent's suggestion left out: owns for 2, which already owns src/auth/login.rs",
            "the Planner agent's suggestion left out: 2 after 3 (it would close a dependency cycle)",
            "the Planner agent's suggestion left out: task '9' is not in the range",
        ]
    );
    assert!(
        first.critic.contains(&Flag::Agent {
            task: "2".into(),
            problem: "login also needs src/session.rs".into()
        }),
        "{:?}",
        first.critic
    );
    assert!(
        !first
            .critic
            .iter()
            .any(|f| matches!(f, Flag::Agent { task, .. } if task == "7")),
        "a point about a task outside the range is dropped"
    );
    // Phase A gets the agent's owns and dependencies.
    let plan = crate::plan::Plan {
        format: crate::plan::PlanFormat::PlansMd,
        files: vec!["Plans.md".into()],
        tasks: plan(),
    };
    let reference = d.reference(&plan);
    assert_eq!(reference.tasks[2].owns, vec!["src/limits.rs".to_string()]);
    assert_eq!(reference.tasks[2].depends, vec!["2".to_string()]);
    assert!(
        agent.asked[0].contains("src/limits.rs\n"),
        "the files are listed"
    );
    assert!(d
        .render()
        .contains("(built-in Planner and Critic, and the configured agent)"));
    assert_eq!(d.to_json()["backend"], "agent");
}

#[test]
fn an_agent_that_answers_nothing_usable_leaves_the_built_in_discussion_as_it_was() {
    let alone = discuss(&plan(), &known(), &Limits::default(), None);
    let mut agent = Scripted {
        planner: [
            ok("I would start with the token store."),
            ok("{\"tasks\": 3}"),
        ]
        .into(),
        critic: [ok("looks fine to me")].into(),
        ..Scripted::default()
    };
    let d = discuss(&plan(), &known(), &Limits::default(), Some(&mut agent));
    assert_eq!(d.proposal, alone.proposal);
    assert_eq!(
        (d.planner_max_parallel, &d.planner_reason, &d.open),
        (
            alone.planner_max_parallel,
            &alone.planner_reason,
            &alone.open
        )
    );
    let notes: Vec<&String> = d.rounds.iter().flat_map(|r| &r.notes).collect();
    assert_eq!(
        notes[0],
        "the Planner agent's answer was not used: it printed no JSON object"
    );
    assert_eq!(
        notes[1],
        "the Critic agent's answer was not used: it printed no JSON object"
    );
    assert!(
        notes[2].starts_with("the Planner agent's answer was not used: its JSON is not a plan:"),
        "{notes:?}"
    );
    assert_eq!(notes.len(), 3, "one round: no change, so no second");
    assert_eq!(alone.to_json()["backend"], "builtin");
    assert!(
        alone.to_json()["rounds"][0].get("notes").is_none(),
        "the built-in discussion's JSON is as it was"
    );
}

#[test]
fn the_prompts_come_from_the_configured_templates_with_the_answer_format_kept() {
    use protocol::prompt::Role;
    let mut agent = Scripted::default();
    agent.templates.set(
        Role::Planner,
        "# Planning, in our words\nOwners for:\n{{tasks}}\n".into(),
    );
    agent.templates.set(
        Role::Critic,
        "Critique {{tasks}}\n\n{{answer}}\nThanks.".into(),
    );
    discuss(&plan(), &known(), &Limits::default(), Some(&mut agent));
    let planner = agent
        .asked
        .iter()
        .find(|p| p.starts_with("# Planning, in our words"))
        .expect("the Planner was asked");
    assert!(
        planner.contains("Owners for:\n- id 1: Add token store"),
        "{planner}"
    );
    assert!(
        planner.ends_with("planning only.\n"),
        "the answer's format is appended: {planner}"
    );
    let critic = agent
        .asked
        .iter()
        .find(|p| p.starts_with("Critique - id 1"))
        .expect("the Critic was asked");
    assert!(
        critic.contains("{\"points\": [") && critic.ends_with("Thanks."),
        "{critic}"
    );
}
