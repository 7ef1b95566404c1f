use super::*;
use crate::testing::config_check;
use host::Runtime;

/// A scenario's text checked, with the tests' stand-in for the Lead's configuration.
fn parse(text: &str, file: &Path) -> Result<crate::Scenario, crate::ScenarioError> {
    crate::file::parse(text, file, config_check)
}

/// A scenario folder with a repository and a compose file, as the shipped ones are laid out.
fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("repo")).expect("mkdir");
    std::fs::write(dir.path().join("compose.yaml"), "services: {}\n").expect("write");
    dir
}

const HEAD: &str =
    "name = \"c\"\nruntime = \"compose\"\nreview = { repo = \"repo\", args = [\"--no-exec\"] }\n";

#[test]
fn a_container_scenario_reads_its_stack_and_actions() {
    let dir = folder();
    let text = format!(
        "{HEAD}config = {{ \"supervision.connect_timeout_ms\" = 3000 }}\n\
         [compose]\nfiles = [\"compose.yaml\"]\nscale = {{ auditor = 2 }}\n\
         claims = {{ auditor = 1, auditor-r1 = 1 }}\n\
         [[compose.actions]]\nwhen = \"claimed:auditor\"\nafter_ms = 2000\ndo = \"kill\"\nservice = \"auditor\"\n\
         [[compose.actions]]\ndo = \"disconnect\"\nservice = \"inspector-test\"\n\
         [expect]\nverdict = \"GO\"\nrestarts = {{ auditor = 1 }}\n"
    );
    let s = parse(&text, &dir.path().join("c.toml")).expect("valid");
    assert_eq!(s.runtime, Runtime::Remote);
    assert_eq!(
        s.env,
        vec![(
            "RETAKE__SUPERVISION__CONNECT_TIMEOUT_MS".to_string(),
            "3000".to_string()
        )]
    );
    let stack = s.compose.expect("a stack");
    assert_eq!(
        stack.files,
        vec![std::fs::canonicalize(dir.path().join("compose.yaml")).expect("canonical")]
    );
    assert_eq!(stack.scale.get("auditor"), Some(&2));
    assert_eq!(stack.claims.get("auditor-r1"), Some(&1));
    assert!(stack.heal);
    assert_eq!(
        stack.actions,
        vec![
            Action {
                when: Trigger::Claimed("auditor".into()),
                after: Duration::from_millis(2000),
                verb: Verb::Kill,
                service: "auditor".into(),
                network: "retake".into(),
                exit_code: None,
                stderr: None,
            },
            Action {
                when: Trigger::Submitted,
                after: Duration::ZERO,
                verb: Verb::Disconnect,
                service: "inspector-test".into(),
                network: "retake".into(),
                exit_code: None,
                stderr: None,
            },
        ]
    );
}

#[test]
fn idle_actions_come_first_and_the_job_waits_for_them() {
    let dir = folder();
    let idle =
        "[[compose.actions]]\nwhen = \"idle\"\ndo = \"pause\"\nservice = \"inspector-quality\"\n";
    let later = "[[compose.actions]]\ndo = \"kill\"\nservice = \"auditor\"\n";
    let text = format!(
        "{HEAD}[compose]\nfiles = [\"compose.yaml\"]\nsubmit_after_ms = 4500\n{idle}{later}[expect]\nverdict = \"GO\"\n"
    );
    let stack = parse(&text, &dir.path().join("c.toml"))
        .expect("valid")
        .compose
        .expect("a stack");
    assert_eq!(stack.submit_after, Duration::from_millis(4500));
    let whens: Vec<Trigger> = stack.actions.iter().map(|a| a.when.clone()).collect();
    assert_eq!(whens, vec![Trigger::Idle, Trigger::Submitted]);
    let text = format!("{HEAD}[compose]\nfiles = [\"compose.yaml\"]\n{later}{idle}");
    let err = parse(&text, &dir.path().join("c.toml")).expect_err("idle after");
    assert!(
        err.to_string().contains(
            "compose.actions[1].when = 'idle': idle actions come first (they are done before the job)"
        ),
        "{err}"
    );
}

#[test]
fn a_one_shot_run_is_checked_by_its_exit_code_and_stderr() {
    let dir = folder();
    let text = format!(
        "{HEAD}[compose]\nfiles = [\"compose.yaml\"]\n\
         [[compose.actions]]\ndo = \"run\"\nservice = \"review\"\nexit_code = 2\nstderr = \"another retake\"\n"
    );
    let stack = parse(&text, &dir.path().join("c.toml"))
        .expect("valid")
        .compose
        .expect("a stack");
    let action = &stack.actions[0];
    assert_eq!(
        (action.verb, action.exit_code, action.stderr.as_deref()),
        (Verb::Run, Some(2), Some("another retake"))
    );
    let text = format!(
        "{HEAD}[compose]\nfiles = [\"compose.yaml\"]\n\
         [[compose.actions]]\ndo = \"kill\"\nservice = \"lead\"\nexit_code = 2\n"
    );
    let err = parse(&text, &dir.path().join("c.toml")).expect_err("kill with exit_code");
    assert!(
        err.to_string().contains(
            "compose.actions[0]: exit_code and stderr check a `run` action's one-shot container"
        ),
        "{err}"
    );
}

#[test]
fn mistakes_in_the_stack_name_the_key() {
    let dir = folder();
    let action = "[[compose.actions]]\ndo = \"kill\"\nservice = \"lead\"\n";
    let cases = [
        (
            "[compose]\nfiles = [\"nope.yaml\"]\n".to_string(),
            "compose.files[0] = '",
        ),
        (
            "[compose]\nfiles = []\n".to_string(),
            "compose.files: name at least",
        ),
        (
            "[compose]\nfiles = [\"compose.yaml\"]\nscale = { auditor = 0 }\n".to_string(),
            "compose.scale.auditor = 0",
        ),
        (
            format!(
                "[compose]\nfiles = [\"compose.yaml\"]\n{}",
                action.replace("kill", "freeze")
            ),
            "compose.actions[0].do = 'freeze'",
        ),
        (
            format!(
                "[compose]\nfiles = [\"compose.yaml\"]\n{}",
                action.replace("do =", "when = \"claimed:\"\ndo =")
            ),
            "compose.actions[0].when = 'claimed:'",
        ),
        (
            "[compose]\nfiles = [\"compose.yaml\"]\nwait = 3\n".to_string(),
            "unknown field `wait`",
        ),
        (
            "faults = [\"auditor:stall-output\"]\n[compose]\nfiles = [\"compose.yaml\"]\n"
                .to_string(),
            "faults: the Lead of the remote runtime refuses fault plans",
        ),
    ];
    for (tail, wanted) in cases {
        let err = parse(&format!("{HEAD}{tail}"), &dir.path().join("c.toml"))
            .expect_err(&tail)
            .to_string();
        assert!(
            err.contains("c.toml") && err.contains(wanted),
            "{tail}: {err}"
        );
    }
    let local =
        "name = \"l\"\nreview = { repo = \"repo\" }\n[compose]\nfiles = [\"compose.yaml\"]\n";
    let err = parse(local, &dir.path().join("l.toml")).expect_err("local with a stack");
    assert!(
        err.to_string()
            .contains("[compose]: only a runtime = 'compose' scenario has a stack"),
        "{err}"
    );
}
