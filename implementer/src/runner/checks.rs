//! Runs the caller's test, lint and type-check commands (Q7–Q9) in the repository.

use crate::config::CheckCommands;
use crate::criteria::Criterion;
use crate::executor::process::{self, Extra, RunError};
use crate::judge::{CheckResult, CheckRun};
use std::path::Path;

/// Lines of each stream kept for the modification prompt.
const TAIL_LINES: usize = 15;

/// Runs each configured command once, in Q7, Q8, Q9 order.
pub(crate) fn run_checks(commands: &CheckCommands, repo: &Path) -> Vec<CheckRun> {
    let configured = [
        (Criterion::Q7, &commands.test),
        (Criterion::Q8, &commands.lint),
        (Criterion::Q9, &commands.typecheck),
    ];
    configured
        .into_iter()
        .filter_map(|(criterion, command)| {
            let command = command.as_ref()?;
            let result = match process::run(command, repo, commands.timeout(), &Extra::default()) {
                Ok(done) if done.code == Some(0) => CheckResult::Passed,
                Ok(done) => CheckResult::Failed {
                    code: done.code,
                    tail: format!("{}{}", tail(&done.stdout), tail(&done.stderr)),
                },
                Err(RunError::TimedOut) => CheckResult::TimedOut,
                Err(RunError::Spawn(e)) => CheckResult::NotStarted(e.to_string()),
            };
            Some(CheckRun {
                criterion,
                command: command.clone(),
                result,
            })
        })
        .collect()
}

fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(TAIL_LINES);
    lines[start..].iter().map(|l| format!("{l}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_configured_command_decides_its_criterion() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sh = |script: &str| Some(["sh", "-c", script].map(String::from).to_vec());
        let commands = CheckCommands {
            test: sh("exit 0"),
            lint: None,
            typecheck: sh("seq 1 30; echo 'error: mismatched types' >&2; exit 101"),
            timeout_secs: 10,
        };
        let runs = run_checks(&commands, dir.path());
        assert_eq!(runs.len(), 2);
        assert_eq!(
            (runs[0].criterion, &runs[0].result),
            (Criterion::Q7, &CheckResult::Passed)
        );
        let expected: String = (16..=30).map(|n| format!("{n}\n")).collect();
        assert_eq!(
            runs[1].result,
            CheckResult::Failed {
                code: Some(101),
                tail: format!("{expected}error: mismatched types\n"),
            }
        );
        let missing = CheckCommands {
            lint: Some(vec!["retake-no-such-linter".into()]),
            ..CheckCommands::default()
        };
        assert!(matches!(
            &run_checks(&missing, dir.path())[0].result,
            CheckResult::NotStarted(_)
        ));
    }
}
