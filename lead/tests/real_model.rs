//! Agent-backed Inspectors against a real model server — llama.cpp's, with SmolLM2-135M-Instruct
//! (`bench/models/real-model-tests` starts it and runs these; a plain `cargo test` skips them).
//! A model that small is a weak reviewer, so nothing here asserts which bugs it finds: only
//! that the review ends honestly (the agent's report accepted, or the Inspector given up with
//! the reason in the coverage — never a crash, a hang or a silent pass) and that the same review
//! twice gives the same agent outcome.

#[path = "support/mod.rs"]
mod support;

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn model_url() -> String {
    std::env::var("RETAKE_TEST_MODEL_URL")
        .expect("RETAKE_TEST_MODEL_URL is not set: run bench/models/real-model-tests")
}

/// `retake review` of `repo` (its own retake.toml trusted) with `extra` arguments, JSON report
/// and exit code.
fn review(repo: &Path, extra: &[&str]) -> (Option<i32>, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .args([
            "review",
            ".",
            "--trust-repo-config",
            "--no-cache",
            "--format",
            "json",
        ])
        .args(extra)
        .current_dir(repo)
        .env("HOME", repo)
        .output()
        .expect("retake runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON report ({e}); stderr: {stderr}"));
    (out.status.code(), json, stderr)
}

/// What the agent contributed: its findings (rule, path, line) and the quality Inspector's
/// coverage entry.
fn agent_outcome(json: &Value) -> (Vec<(String, String, u64)>, Value) {
    let findings = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| {
            f["agents"]
                .as_array()
                .is_some_and(|a| a.iter().any(|n| n == "quality-agent"))
        })
        .map(|f| {
            (
                f["rule"].as_str().unwrap_or_default().to_string(),
                f["path"].as_str().unwrap_or_default().to_string(),
                f["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    (findings, json["coverage"]["inspector-quality"].clone())
}

/// The shop example with its quality Inspector backed by the model.
fn shop_with_an_agent(dir: &Path) -> std::path::PathBuf {
    let repo = dir.join("shop");
    support::copy_example("shop-nogo", &repo);
    let config = format!(
        "[inspector.quality]\nbackend = \"agent\"\n\n[agent]\nkind = \"http\"\nurl = \"{}\"\nmodel = \"smollm2\"\ntimeout_secs = 300\nmax_tokens = 1024\n",
        model_url()
    );
    let toml = repo.join("retake.toml");
    let existing = std::fs::read_to_string(&toml).unwrap_or_default();
    std::fs::write(&toml, format!("{existing}\n{config}")).expect("config");
    repo
}

#[test]
#[ignore = "needs a model server: bench/models/real-model-tests"]
fn an_agent_inspector_on_a_real_model_reports_or_is_given_up_with_the_reason_the_same_way_twice() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = shop_with_an_agent(dir.path());

    let mut outcomes = Vec::new();
    for _ in 0..2 {
        let (code, json, stderr) = review(&repo, &[]);
        // A verdict (NO-GO: the example's built-in findings stand), never a crash or exit 2.
        assert_eq!(code, Some(1), "stderr: {stderr}");
        assert_eq!(json["verdict"], "NO-GO", "stderr: {stderr}");
        let (findings, quality) = agent_outcome(&json);
        match quality["status"].as_str() {
            Some("ok") => assert!(
                quality["reason"].is_null(),
                "a report was accepted: {quality}"
            ),
            Some("unavailable") => {
                let reason = quality["reason"].as_str().unwrap_or_default();
                assert!(
                    reason.starts_with("inspector-quality failed: agent output unusable: quality-agent: no usable CPF in 2 attempt(s); last: "),
                    "{reason}"
                );
                assert!(findings.is_empty(), "no report, no agent findings");
                let notes = json["notes"].to_string();
                assert!(notes.contains("PARTIAL:inspector-quality"), "{notes}");
            }
            other => panic!("coverage of inspector-quality: {other:?} in {quality}"),
        }
        outcomes.push((findings, quality));
    }
    assert_eq!(
        outcomes[0], outcomes[1],
        "the same review twice, the same agent outcome"
    );
}

#[test]
#[ignore = "needs a model server: bench/models/real-model-tests"]
fn a_consensus_of_three_pipelines_with_agents_on_a_real_model_counts_three() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = shop_with_an_agent(dir.path());
    // Each pipeline's agent samples with a seed of its own (1, 2, 3).
    let (code, json, stderr) = review(&repo, &["--consensus", "3"]);
    assert_eq!(code, Some(1), "stderr: {stderr}");
    assert_eq!(json["verdict"], "NO-GO", "stderr: {stderr}");
    let notes: Vec<&str> = json["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("CONSENSUS:3/3 pipelines answered|threshold 2/3")),
        "{notes:?}\nstderr: {stderr}"
    );
    let run = repo
        .join(".retake/runs")
        .join(json["run_id"].as_str().expect("run id"));
    for k in 1..=3 {
        // Each pipeline reached a verdict of its own (its agent answered, or was given up on
        // with the reason, as above).
        let verdict = std::fs::read_to_string(run.join(format!("pipeline-{k}/verdict.cpf")))
            .unwrap_or_else(|e| panic!("pipeline {k} has no verdict ({e})"));
        assert!(verdict.starts_with("VERDICT:"), "pipeline {k}: {verdict}");
    }
}

/// An executor that keeps each outcome of the one it wraps.
struct Recording {
    inner: Box<dyn implementer::Executor>,
    outcomes: Vec<implementer::ExecOutcome>,
}

impl implementer::Executor for Recording {
    fn kind(&self) -> &str {
        self.inner.kind()
    }
    fn execute(
        &mut self,
        request: &implementer::executor::ExecRequest<'_>,
    ) -> implementer::ExecOutcome {
        let outcome = self.inner.execute(request);
        self.outcomes.push(outcome.clone());
        outcome
    }
}

#[test]
#[ignore = "needs a model server: bench/models/real-model-tests"]
fn a_chat_executor_task_on_a_real_model_passes_with_its_change_or_is_rejected_with_the_tree_unchanged(
) {
    use implementer::{
        EvaluatorRegistry, ExecOutcome, ExecutorConfig, ExecutorKind, LoopConfig, TaskJob,
        TaskRunner, VecSink,
    };
    use protocol::domain::{Task, TaskOrigin, TaskStatus};
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path();
    let add = "//! Addition.\n\n/// The sum of two numbers.\npub fn add(a: i64, b: i64) -> i64 {\n    a - b\n}\n";
    support::write(repo, "src/add.rs", add);
    support::write(repo, "README.md", "A tiny calculator.\n");
    let task = Task {
        id: 1,
        subject: "Fix add".into(),
        description: "`add` in src/add.rs subtracts: make it return the sum a + b.".into(),
        owns: vec!["src/add.rs".into()],
        blocked_by: Vec::new(),
        status: TaskStatus::Pending,
        attempts: 0,
        origin: TaskOrigin::Plan,
        active_form: "Fixing add".into(),
    };
    let executor = ExecutorConfig {
        kind: ExecutorKind::Chat,
        command: Vec::new(),
        timeout_secs: 300,
        fallback: Vec::new(),
        url: model_url(),
        model: "smollm2".into(),
        api_key_env: None,
        max_tokens: 1024,
        idle_timeout_secs: 120,
    };
    let mut recording = Recording {
        inner: executor.build().expect("a chat executor"),
        outcomes: Vec::new(),
    };
    let config = LoopConfig {
        max_iterations: 1,
        max_retries: 0,
        retry_delay_ms: 0,
        escalate_on_max: false,
        ..LoopConfig::default()
    };
    let registry = EvaluatorRegistry::with_builtins();
    let result = TaskRunner::new(&config, &registry)
        .run(
            &TaskJob::new(task, repo),
            &mut recording,
            &mut VecSink::default(),
        )
        .expect("the runner ran");
    let [record] = &result.iteration_history[..] else {
        panic!("one iteration: {:?}", result.iteration_history);
    };
    let [outcome] = &recording.outcomes[..] else {
        panic!("one executor run");
    };
    let now = std::fs::read_to_string(repo.join("src/add.rs")).expect("add.rs");
    let readme = std::fs::read_to_string(repo.join("README.md")).expect("README");
    assert_eq!(
        readme, "A tiny calculator.\n",
        "a file not owned is never written"
    );
    match (record.judgment.as_str(), outcome) {
        ("PASS", ExecOutcome::Finished { code: Some(0), .. }) => {
            assert_ne!(now, add, "a PASS has its change applied");
        }
        ("REJECT", ExecOutcome::Refused { reason, .. }) => {
            assert!(!reason.is_empty());
            assert_eq!(
                now, add,
                "a refused answer leaves the owned files byte-identical"
            );
            let prompt = &record
                .rejection_details
                .as_ref()
                .expect("rejected")
                .modification_prompt;
            assert!(
                prompt.contains(reason.as_str()),
                "the reason is fed back: {prompt}"
            );
        }
        ("REJECT", ExecOutcome::Failed(_) | ExecOutcome::TimedOut { .. }) => {
            assert_eq!(now, add, "a failed request writes nothing");
        }
        ("REJECT", ExecOutcome::Finished { code: Some(0), .. }) => {
            // Applied but not good enough: the judge names what failed.
            assert!(!record.criteria_failed().is_empty(), "{record:?}");
        }
        other => panic!("not a fail-closed ending: {other:?}"),
    }
}
