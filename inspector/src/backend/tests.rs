use super::*;
use crate::engine::testing::{session_repo, write};
use protocol::message::{AgentSpec, InspectOptions};
use protocol::{DiffFilter, Scope, Severity};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Writes an executable shell script: the scripted agent (only tests use a shell).
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

fn command_agent(path: &Path, backend: Backend, timeout_ms: u64) -> InspectOptions {
    InspectOptions {
        no_exec: false,
        backend,
        agent: Some(AgentSpec {
            transport: AgentTransport::Command {
                argv: vec![path.to_string_lossy().into_owned()],
            },
            timeout_ms,
            prompt_template: None,
            seed: None,
            max_tokens: 4096,
            idle_timeout_ms: 0,
            question_timeout_ms: 0,
        }),
        ..InspectOptions::default()
    }
}

fn holistic_ctx(root: &Path, options: &InspectOptions) -> Context {
    Context::build(root, &Scope::repository(), options).expect("context")
}

const GOOD: &str = "cat > \"$(dirname \"$0\")/prompt.txt\"
echo 'Here is the review:'
echo 'VERDICT:CONDITIONAL'
echo 'ISSUES:'
echo 'H|race-condition|src/lib.rs:2|check-then-act on the lock file'
echo 'NOTES:'
echo 'looked at 1 file'";

#[test]
fn both_merges_builtin_and_agent_findings_and_the_prompt_carries_the_mandate() {
    let repo = tempfile::tempdir().expect("repo");
    write(repo.path(), "src/lib.rs", "pub fn a() {\n    todo!()\n}\n");
    let tools = tempfile::tempdir().expect("tools");
    let agent = script(tools.path(), "agent", GOOD);
    let mut ctx = holistic_ctx(repo.path(), &command_agent(&agent, Backend::Both, 10_000));
    let report = review(
        InspectorKind::Holistic,
        &mut ctx,
        "inspector-holistic",
        "r1",
        None,
    )
    .expect("report");
    let rows: Vec<(&str, &str, &str, Severity)> = report
        .findings
        .iter()
        .map(|f| {
            (
                f.agents[0].as_str(),
                f.rule.as_str(),
                f.category.as_str(),
                f.severity,
            )
        })
        .collect();
    assert!(rows.contains(&(
        "inspector-holistic",
        "holistic/todo-macro",
        "operational-risk",
        Severity::Critical
    )));
    assert!(rows.contains(&(
        "holistic-agent",
        "cpf/race-condition",
        "race-condition",
        Severity::High
    )));
    assert!(report
        .notes
        .contains(&"holistic-agent: looked at 1 file".to_string()));
    let prompt = std::fs::read_to_string(tools.path().join("prompt.txt")).expect("prompt");
    assert!(
        prompt.starts_with("You are the **holistic Inspector**"),
        "{prompt}"
    );
    assert!(prompt.contains("- src/lib.rs"), "{prompt}");
    assert!(prompt.contains("Scope: repository"), "{prompt}");
    assert!(
        prompt.contains("VERDICT:GO | CONDITIONAL | NO-GO"),
        "{prompt}"
    );
}

#[test]
fn an_agent_that_prints_garbage_twice_fails_the_inspector() {
    let repo = tempfile::tempdir().expect("repo");
    write(repo.path(), "src/lib.rs", "pub fn a() {}\n");
    let tools = tempfile::tempdir().expect("tools");
    let agent = script(
        tools.path(),
        "agent",
        "echo x >> \"$(dirname \"$0\")/calls\"\necho 'I am not sure what you want.'",
    );
    let mut ctx = holistic_ctx(repo.path(), &command_agent(&agent, Backend::Both, 10_000));
    let err = review(
        InspectorKind::Holistic,
        &mut ctx,
        "inspector-holistic",
        "r1",
        None,
    )
    .expect_err("fail-closed");
    assert!(
        matches!(&err, BackendError::Unusable { agent, attempts: 2, .. } if agent == "holistic-agent"),
        "{err}"
    );
    assert!(err.to_string().contains("not CPF: line 1"), "{err}");
    let calls = std::fs::read_to_string(tools.path().join("calls")).expect("calls");
    assert_eq!(calls.lines().count(), 2);
}

#[test]
fn one_unusable_reply_is_retried_and_noted() {
    let repo = tempfile::tempdir().expect("repo");
    write(repo.path(), "src/lib.rs", "pub fn a() {}\n");
    let tools = tempfile::tempdir().expect("tools");
    let agent = script(
        tools.path(),
        "agent",
        "d=\"$(dirname \"$0\")\"\nif [ -f \"$d/once\" ]; then echo 'VERDICT:GO'; else touch \"$d/once\"; fi",
    );
    let mut ctx = holistic_ctx(repo.path(), &command_agent(&agent, Backend::Agent, 10_000));
    let report = review(
        InspectorKind::Quality,
        &mut ctx,
        "inspector-quality",
        "r1",
        None,
    )
    .expect("report");
    assert!(report.findings.is_empty());
    assert_eq!(
        report.notes,
        vec!["quality-agent: attempt 1 unusable (empty output)".to_string()]
    );
}

#[test]
fn a_finding_on_a_file_the_repository_does_not_have_is_left_out_and_noted() {
    let repo = tempfile::tempdir().expect("repo");
    write(repo.path(), "src/lib.rs", "pub fn a() {}\n");
    let tools = tempfile::tempdir().expect("tools");
    let agent = script(
        tools.path(),
        "agent",
        concat!(
            "printf 'VERDICT:NO-GO\\nISSUES:\\nC|M|path:<path>:<line>|copied the prompt\\n",
            "H|unwrap|src/lib.rs:1|panics\\nM|style|../outside.rs:3|not ours\\n'"
        ),
    );
    let mut ctx = holistic_ctx(repo.path(), &command_agent(&agent, Backend::Agent, 10_000));
    let report = review(
        InspectorKind::Quality,
        &mut ctx,
        "inspector-quality",
        "r1",
        None,
    )
    .expect("report");
    let kept: Vec<(&str, Option<u32>)> = report
        .findings
        .iter()
        .map(|f| (f.location.path.as_str(), f.location.line))
        .collect();
    assert_eq!(kept, vec![("src/lib.rs", Some(1))]);
    assert_eq!(
        report.notes,
        vec!["quality-agent: 2 finding(s) left out: no such file in the repository (path:<path>:<line>, ../outside.rs:3)".to_string()]
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_timeout_kills_the_agent_group_and_fails_without_retry() {
    let repo = tempfile::tempdir().expect("repo");
    write(repo.path(), "src/lib.rs", "pub fn a() {}\n");
    let tools = tempfile::tempdir().expect("tools");
    let agent = script(
        tools.path(),
        "agent",
        "sleep 30 &\necho $! > \"$(dirname \"$0\")/grandchild\"\nwait",
    );
    let mut ctx = holistic_ctx(repo.path(), &command_agent(&agent, Backend::Agent, 300));
    let started = Instant::now();
    let err = review(
        InspectorKind::Holistic,
        &mut ctx,
        "inspector-holistic",
        "r1",
        None,
    )
    .expect_err("timed out");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        err.to_string()
            .contains("timed out after 0.3 s; its process group was killed"),
        "{err}"
    );
    let pid = std::fs::read_to_string(tools.path().join("grandchild")).expect("pid");
    let alive = || {
        std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
            .is_ok_and(|s| !s.contains(") Z "))
    };
    let gone = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(20));
        !alive()
    });
    assert!(gone, "the agent's child survived the group kill");
}

#[test]
fn a_session_prompt_carries_the_diff_and_only_the_changed_files() {
    let repo = session_repo();
    let scope = Scope::Session {
        base: "main".into(),
        filter: DiffFilter::File,
    };
    let options = command_agent(Path::new("unused"), Backend::Agent, 1000);
    let ctx = Context::build(repo.path(), &scope, &options).expect("context");
    let spec = options.agent.as_ref().expect("agent");
    let prompt = render_prompt(InspectorKind::Quality, &ctx, spec);
    assert!(prompt.contains("- src/lib.rs\n- src/new.rs\n"), "{prompt}");
    assert!(!prompt.contains("src/untouched.rs"), "{prompt}");
    assert!(prompt.contains("+pub fn b2() {}"), "{prompt}");
    assert!(
        prompt.contains("New files (every line added): src/new.rs"),
        "{prompt}"
    );
    let custom = AgentSpec {
        prompt_template: Some("{{scope}} {{unknown}} {{files}}".into()),
        ..spec.clone()
    };
    assert_eq!(
        render_prompt(InspectorKind::Quality, &ctx, &custom),
        "session:main {{unknown}} - src/lib.rs\n- src/new.rs"
    );
}

#[test]
fn no_exec_runs_no_agent_and_says_so_once() {
    let repo = tempfile::tempdir().expect("repo");
    write(repo.path(), "src/lib.rs", "pub fn a() {\n    todo!()\n}\n");
    let tools = tempfile::tempdir().expect("tools");
    let agent = script(tools.path(), "agent", "touch \"$(dirname \"$0\")/ran\"");
    let both = InspectOptions {
        no_exec: true,
        ..command_agent(&agent, Backend::Both, 10_000)
    };
    let mut ctx = holistic_ctx(repo.path(), &both);
    let report = review(
        InspectorKind::Holistic,
        &mut ctx,
        "inspector-holistic",
        "r1",
        None,
    )
    .expect("report");
    assert!(report
        .findings
        .iter()
        .any(|f| f.rule == "holistic/todo-macro"));
    assert!(report
        .findings
        .iter()
        .all(|f| f.agents[0] == "inspector-holistic"));
    let said: Vec<&String> = report
        .notes
        .iter()
        .filter(|n| n.contains("--no-exec"))
        .collect();
    assert_eq!(
        said,
        vec!["holistic: not run (--no-exec): the agent backend (holistic-agent)"]
    );
    let only = InspectOptions {
        no_exec: true,
        ..command_agent(&agent, Backend::Agent, 10_000)
    };
    let mut ctx = holistic_ctx(repo.path(), &only);
    let report = review(
        InspectorKind::Quality,
        &mut ctx,
        "inspector-quality",
        "r1",
        None,
    )
    .expect("report");
    assert!(report.findings.is_empty());
    assert_eq!(
        report.notes,
        vec!["quality: not run (--no-exec): the agent backend (quality-agent)".to_string()]
    );
    assert!(!tools.path().join("ran").exists());
}

#[test]
fn no_agent_configured_is_an_error_not_a_clean_report() {
    let repo = tempfile::tempdir().expect("repo");
    let options = InspectOptions {
        backend: Backend::Agent,
        ..InspectOptions::default()
    };
    let mut ctx = holistic_ctx(repo.path(), &options);
    let err =
        review(InspectorKind::Test, &mut ctx, "inspector-test", "r1", None).expect_err("no agent");
    assert_eq!(
        err.to_string(),
        "test-agent: the backend is 'agent' but no [agent] command or url is configured"
    );
}

mod http_server;

/// Answers every question, recording it.
struct Author(std::sync::Mutex<Vec<protocol::message::Question>>);

impl Asker for Author {
    fn ask(
        &self,
        question: &protocol::message::Question,
        _timeout: Duration,
    ) -> Option<(String, String)> {
        self.0.lock().expect("lock").push(question.clone());
        Some(("the author".into(), "no DB access, sync is enough".into()))
    }
}

/// Asks about `load` first; asked again with an answer, it withdraws the issue.
const ASKS: &str = "prompt=$(cat)
if printf '%s' \"$prompt\" | grep -q \"The author's answers\"; then
  printf '%s' \"$prompt\" > \"$(dirname \"$0\")/second.txt\"
  echo 'VERDICT:GO'
  echo 'NOTES:'
  echo 'sync is deliberate'
else
  printf '%s' \"$prompt\" > \"$(dirname \"$0\")/first.txt\"
  echo 'VERDICT:CONDITIONAL'
  echo 'ISSUES:'
  echo 'M|performance|src/lib.rs:1|blocking call on the request path'
  echo 'QUESTIONS:'
  echo 'src/lib.rs:1|why is load not async?'
fi";

#[test]
fn an_agent_that_asks_is_asked_again_with_the_answer_and_that_reply_is_its_report() {
    let repo = tempfile::tempdir().expect("repo");
    write(
        repo.path(),
        "src/lib.rs",
        "pub fn load() -> u8 {\n    1\n}\n",
    );
    let tools = tempfile::tempdir().expect("tools");
    let agent = script(tools.path(), "agent", ASKS);
    let mut options = command_agent(&agent, Backend::Agent, 10_000);
    if let Some(spec) = options.agent.as_mut() {
        spec.question_timeout_ms = 5_000;
    }
    let mut ctx = holistic_ctx(repo.path(), &options);
    let author = Author(std::sync::Mutex::new(Vec::new()));
    let report = review(
        InspectorKind::Quality,
        &mut ctx,
        "inspector-quality",
        "r1",
        Some(&author),
    )
    .expect("report");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert!(report.notes.contains(
        &"quality-agent asked the author about src/lib.rs:1: \"why is load not async?\" — the author answered: \"no DB access, sync is enough\"".to_string()
    ), "{:?}", report.notes);
    assert!(report
        .notes
        .contains(&"quality-agent: sync is deliberate".to_string()));
    let asked = author.0.lock().expect("lock").clone();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].about, "src/lib.rs:1");
    let first = std::fs::read_to_string(tools.path().join("first.txt")).expect("first");
    assert!(first.contains("QUESTIONS:\n<path>:<line>|<your question to the author>"));
    let second = std::fs::read_to_string(tools.path().join("second.txt")).expect("second");
    assert!(
        second.contains("A: the author: no DB access, sync is enough"),
        "{second}"
    );
}

#[test]
fn a_question_nobody_answers_leaves_the_first_reply_as_the_report() {
    let repo = tempfile::tempdir().expect("repo");
    write(
        repo.path(),
        "src/lib.rs",
        "pub fn load() -> u8 {\n    1\n}\n",
    );
    let tools = tempfile::tempdir().expect("tools");
    let agent = script(tools.path(), "agent", ASKS);
    let mut ctx = holistic_ctx(repo.path(), &command_agent(&agent, Backend::Agent, 10_000));
    let report = review(
        InspectorKind::Quality,
        &mut ctx,
        "inspector-quality",
        "r1",
        None,
    )
    .expect("report");
    let rows: Vec<(&str, u32)> = report
        .findings
        .iter()
        .map(|f| (f.category.as_str(), f.location.line.unwrap_or(0)))
        .collect();
    assert_eq!(rows, [("performance", 1)]);
    assert!(!tools.path().join("second.txt").exists());
    let first = std::fs::read_to_string(tools.path().join("first.txt")).expect("first");
    assert!(
        !first.contains("QUESTIONS:"),
        "not invited when nobody answers"
    );
}
