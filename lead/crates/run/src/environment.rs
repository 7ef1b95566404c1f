//! Phase A's environment check: an executor is configured and its command can be found (a
//! `chat` executor's API key variable set), the
//! repository is a git work tree with a commit, the work tree is clean (the run's one commit
//! must hold only the run's work), and a test command is known (every task is tested). Each
//! problem is one line that says what to change.

use protocol::exec::program_found;
use protocol::message::ExecutorSpec;
use std::path::Path;
use team::verification::test_command;

/// Every problem that stops a run, one line each; empty when the environment is ready.
/// `executor_key` is the setting that names the executor's programs, `test` the configured
/// test command ([`crate::config::RunConfig`]).
pub fn check(
    root: &Path,
    executor: Option<&ExecutorSpec>,
    executor_key: &str,
    test: Option<&[String]>,
    head: Option<&str>,
    dirty: &[String],
) -> Vec<String> {
    let mut problems = Vec::new();
    match executor {
        None => problems.push(
            "no executor is configured: set [executor] kind = \"agent\" and command = [\"my-agent\", …] in retake.toml (or kind = \"builtin\")".to_string(),
        ),
        Some(spec) => {
            // A chat executor runs no program, but its API key must be there to be sent.
            if let Some(var) = spec.api_key_env.as_deref() {
                if std::env::var_os(var).is_none() {
                    problems.push(format!(
                        "the chat executor's API key variable {var} is not set: export it, or fix [executor] api_key_env in retake.toml"
                    ));
                }
            }
            // One CLI of the command and its fallbacks that can be found is enough.
            let programs: Vec<&String> = std::iter::once(&spec.command)
                .chain(&spec.fallback)
                .filter_map(|argv| argv.first())
                .collect();
            if !programs.is_empty() && !programs.iter().any(|p| program_found(p, root)) {
                let names: Vec<String> = programs.iter().map(|p| format!("'{p}'")).collect();
                problems.push(format!(
                    "the executor command {} is not found: fix {executor_key} in retake.toml",
                    names.join(", ")
                ));
            }
        }
    }
    if head.is_none() {
        problems.push(format!(
            "{} is not a git work tree with a commit: a run reviews its changes against HEAD and commits the result",
            root.display()
        ));
    }
    if !dirty.is_empty() {
        let shown: Vec<&str> = dirty.iter().take(5).map(String::as_str).collect();
        let more = if dirty.len() > 5 {
            format!(" and {} more", dirty.len() - 5)
        } else {
            String::new()
        };
        problems.push(format!(
            "the work tree has uncommitted changes ({}{more}): commit or stash them first, so that the run's commit holds only its own work",
            shown.join(", ")
        ));
    }
    if test_command(root, test).is_none() {
        problems.push(
            "no test command is known: set [test] command in retake.toml (a run tests every task)"
                .to_string(),
        );
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::message::ExecutorMode;

    #[test]
    fn every_problem_is_named_and_a_ready_repository_has_none() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        let key = "[executor] command";
        let problems = check(root, None, key, None, None, &["src/a.rs".into()]);
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(problems[0].starts_with("no executor is configured"));
        assert!(problems[1].contains("is not a git work tree"));
        assert!(problems[2].contains("uncommitted changes (src/a.rs)"));
        assert!(problems[3].starts_with("no test command is known"));
        let mut spec = ExecutorSpec {
            mode: ExecutorMode::Agent,
            command: vec!["./no-such-agent".into()],
            timeout_secs: 60,
            fallback: Vec::new(),
            url: String::new(),
            model: String::new(),
            api_key_env: None,
            max_tokens: 4096,
            idle_timeout_secs: 0,
        };
        std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"x\"\n").expect("write");
        let problems = check(root, Some(&spec), key, None, Some("abc"), &[]);
        assert_eq!(
            problems,
            vec!["the executor command './no-such-agent' is not found: fix [executor] command in retake.toml"]
        );
        spec.command = vec!["sh".into(), "agent.sh".into()];
        assert_eq!(
            check(root, Some(&spec), key, None, Some("abc"), &[]),
            Vec::<String>::new()
        );
        spec.mode = ExecutorMode::Chat;
        spec.command = Vec::new();
        spec.api_key_env = Some("RETAKE_ENV_TEST_NO_SUCH_KEY".into());
        assert_eq!(
            check(root, Some(&spec), key, None, Some("abc"), &[]),
            vec!["the chat executor's API key variable RETAKE_ENV_TEST_NO_SUCH_KEY is not set: export it, or fix [executor] api_key_env in retake.toml"]
        );
        assert_eq!(
            test_command(root, None),
            Some(vec!["cargo".to_string(), "test".into()])
        );
        let configured = ["make".to_string(), "check".into()];
        assert_eq!(
            test_command(root, Some(&configured)),
            Some(configured.to_vec())
        );
    }
}
