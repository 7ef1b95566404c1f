//! The reviewed change cannot configure its own gate, through the real `retake` binary: on a
//! git copy of `examples/shop-nogo`, a change that adds a hostile `retake.toml` (a frame limit
//! no actor can work with, the rules that would find its defect disabled, every file "too
//! large", the quality Inspector handed to an HTTP agent with a CI secret) is reviewed with
//! `--base`: the committed settings apply, the change's defect is found, all six Inspectors
//! report, the agent is never contacted and `rulebase/gate-config-changed` names the keys.
//! Uncommitted edits are ignored with a note; `--trust-repo-config` applies them. A `retake
//! serve` job's repository may set rules but not commands, agents or credentials.

mod support;
use support::{copy_example, git, write};

use serde_json::Value;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Output};

/// `examples/shop-nogo` copied into a fresh git repository, committed on `main`.
fn shop() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_example("shop-nogo", dir.path());
    write(dir.path(), ".gitignore", "/.retake/\n/target\n");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "shop"]);
    dir
}

/// The change's new file: a `todo!()` (holistic/todo-macro, Critical) on an added line.
const REFUND: &str = "//! Refunds.\n\n/// Refunds an order.\npub fn refund(order: u64) -> u64 {\n    todo!(\"refund {order}\")\n}\n";

fn retake(repo: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(repo)
        .args(["--no-exec", "--runtime", "local", "--format", "json"])
        .args(args)
        .env("RETAKE_TEST_CI_SECRET", "s3cr3t-token")
        .output()
        .expect("retake runs")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: stdout {} stderr {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn rules(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["rule"].as_str().expect("rule").to_string())
        .collect()
}

fn notes(report: &Value) -> Vec<String> {
    report["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .map(|n| n.as_str().expect("note").to_string())
        .collect()
}

#[test]
fn a_change_that_configures_its_gate_is_reviewed_under_the_committed_settings() {
    let repo = shop();
    let root = repo.path();
    git(root, &["checkout", "-q", "-b", "change"]);
    // Anything that receives the agent's request (and the bearer token) would connect here.
    let agent = TcpListener::bind("127.0.0.1:0").expect("listener");
    agent.set_nonblocking(true).expect("nonblocking");
    let url = format!("http://{}", agent.local_addr().expect("addr"));
    write(
        root,
        "retake.toml",
        &format!(
            "[wire]\nmax_frame_bytes = 64\n\n[rules]\ndisable = [\"holistic/todo-macro\", \"quality/todo-marker\"]\n\n\
             [inspector]\nmax_file_bytes = 0\n\n[inspector.quality]\nbackend = \"agent\"\n\n\
             [agent]\nkind = \"http\"\nurl = \"{url}\"\nmodel = \"m\"\napi_key_env = \"RETAKE_TEST_CI_SECRET\"\n"
        ),
    );
    write(root, "src/refund.rs", REFUND);
    git(root, &["add", "-A"]);
    git(
        root,
        &["commit", "-q", "-m", "refunds, and a friendlier gate"],
    );

    let out = retake(root, &["--base", "main"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = json(&out);
    assert_eq!(report["verdict"], "NO-GO", "{report}");
    let found = rules(&report);
    assert!(
        found.iter().any(|r| r == "holistic/todo-macro"),
        "the disabled rule still ran: {found:?}"
    );
    let gate = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["rule"] == "rulebase/gate-config-changed")
        .unwrap_or_else(|| panic!("no gate-config-changed finding: {found:?}"));
    assert_eq!(
        (&gate["severity"], &gate["path"]),
        (&Value::from("H"), &Value::from("retake.toml"))
    );
    assert!(
        gate["description"].as_str().expect("description").contains(
            "retake.toml: agent.api_key_env, agent.kind, agent.model, agent.url, inspector.max_file_bytes, \
             inspector.quality.backend, rules.disable, wire.max_frame_bytes"
        ),
        "{gate}"
    );
    // A 64-byte frame limit would have lost every actor; a zero size limit every file.
    let coverage = report["coverage"].as_object().expect("coverage");
    let ok: Vec<&String> = coverage
        .iter()
        .filter(|(_, c)| c["status"] == "ok")
        .map(|(name, _)| name)
        .collect();
    assert_eq!(ok.len(), 6, "six Inspectors report: {coverage:?}");
    assert!(
        coverage
            .values()
            .all(|c| c["files_reviewed"].as_u64() >= Some(1)),
        "{coverage:?}"
    );
    assert!(
        matches!(
            agent.accept(),
            Err(ref e) if e.kind() == std::io::ErrorKind::WouldBlock
        ),
        "the change's agent endpoint was contacted"
    );
    assert!(
        notes(&report).contains(
            &"retake.toml: the change's edits are not applied — the review uses the file as it is at main"
                .to_string()
        ),
        "{:?}",
        notes(&report)
    );
}

#[test]
fn uncommitted_edits_are_ignored_with_a_note_and_trust_repo_config_applies_them() {
    let repo = shop();
    let root = repo.path();
    write(root, "src/refund.rs", REFUND);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "refunds"]);
    write(
        root,
        "retake.toml",
        "[rules]\ndisable = [\"holistic/todo-macro\"]\n",
    );
    // --paths: a review without a base reads the file as committed at HEAD (it has none).
    let out = retake(root, &["--paths", "src/refund.rs"]);
    let report = json(&out);
    assert!(
        rules(&report).iter().any(|r| r == "holistic/todo-macro"),
        "{report}"
    );
    assert_eq!(
        notes(&report).first().map(String::as_str),
        Some("retake.toml: uncommitted edits ignored — the review uses the file as committed at HEAD (--trust-repo-config uses the work tree's)"),
        "{report}"
    );

    let trusted = retake(root, &["--paths", "src/refund.rs", "--trust-repo-config"]);
    let report = json(&trusted);
    assert!(
        !rules(&report).iter().any(|r| r == "holistic/todo-macro"),
        "{report}"
    );
    assert!(
        !notes(&report).iter().any(|n| n.starts_with("retake.toml:")),
        "{report}"
    );
}

#[test]
fn suppressions_the_change_adds_are_counted_in_the_report() {
    let repo = shop();
    let root = repo.path();
    git(root, &["checkout", "-q", "-b", "change"]);
    let silenced = REFUND.replace(
        "    todo!(\"refund {order}\")",
        "    // retake-ignore: holistic/todo-macro later\n    todo!(\"refund {order}\")",
    );
    write(root, "src/refund.rs", &silenced);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "refunds, quietly"]);
    let out = retake(root, &["--base", "main"]);
    let report = json(&out);
    assert!(
        !rules(&report).iter().any(|r| r == "holistic/todo-macro"),
        "suppressed findings are not reported: {report}"
    );
    assert_eq!(
        notes(&report).first().map(String::as_str),
        Some("1 finding suppressed by this change (retake-ignore comments on lines it adds): holistic/todo-macro at src/refund.rs:6"),
        "{report}"
    );
}

#[test]
fn a_serve_job_s_repository_sets_rules_but_no_command_agent_or_credential() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("repo");
    let leaked = dir.path().join("leaked");
    let agent = TcpListener::bind("127.0.0.1:0").expect("listener");
    agent.set_nonblocking(true).expect("nonblocking");
    write(&root, "src/lib.rs", "pub fn a() {\n    todo!()\n}\n");
    write(
        &root,
        "retake.toml",
        &format!(
            "[rules]\ndisable = [\"holistic/todo-macro\"]\n[test]\ncommand = [\"touch\", \"{}\"]\n\
             [inspector.quality]\nbackend = \"agent\"\n\
             [agent]\nkind = \"http\"\nurl = \"http://{}\"\nmodel = \"m\"\napi_key_env = \"RETAKE_TEST_CI_SECRET\"\n",
            leaked.display(),
            agent.local_addr().expect("addr")
        ),
    );
    git(&root, &["init", "-q"]);
    git(&root, &["add", "-A"]);
    git(
        &root,
        &[
            "commit",
            "-q",
            "-m",
            "committed, and still not trusted by the service",
        ],
    );
    let out_dir = dir.path().join("out");
    // What `retake serve` runs for a job (in process here, so the actors run inproc).
    let argv = [
        "retake",
        "review",
        root.to_str().expect("utf-8"),
        "--runtime",
        "inproc",
        "--format",
        "json",
        "--output",
        out_dir.to_str().expect("utf-8"),
    ];
    let mut args = match <lead::cli::Cli as clap::Parser>::try_parse_from(argv) {
        Ok(lead::cli::Cli {
            command: lead::cli::Command::Review(args),
            ..
        }) => args,
        _ => panic!("not a review"),
    };
    args.untrusted_repo = true;
    let code = lead::commands::review::run(args).unwrap_or_else(|f| panic!("{:#}", f.error));
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(out_dir.join("retake.json")).expect("report"),
    )
    .expect("json");
    assert_eq!(code, outputs::ExitCode::Success, "{report}");
    assert!(
        !rules(&report).iter().any(|r| r == "holistic/todo-macro"),
        "the repository's rules apply: {report}"
    );
    assert_eq!(
        notes(&report).first().map(String::as_str),
        Some("retake.toml: ignored test.command, agent.kind, agent.url, agent.api_key_env, inspector.quality.backend — a repository's file may not run commands or send code or credentials when this service trusts no repository's file ([serve] trust_repo_config = false)"),
        "{report}"
    );
    assert!(!leaked.exists(), "the repository's test command ran");
    assert!(
        matches!(
            agent.accept(),
            Err(ref e) if e.kind() == std::io::ErrorKind::WouldBlock
        ),
        "the repository's agent endpoint was contacted"
    );
    assert_eq!(
        report["coverage"]["inspector-quality"]["status"], "ok",
        "{report}"
    );
}
