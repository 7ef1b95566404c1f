//! Running one scenario for real: copy the repository (the original stays clean), start
//! `retake review … --format json` with the faults and a unique tag, time it, kill it past twice
//! its bound, read its JSON and journal, and look for processes that outlived it.

use super::leftovers::{self, TAG_ENV};
use super::observed::Observed;
use super::{io, Scenario, ScenarioError};
use host::Runtime;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long processes get to vanish after the review exits.
const LEFTOVER_GRACE: Duration = Duration::from_millis(300);

/// One run: what it left behind, and where its copy is when kept.
#[derive(Debug)]
pub struct Execution {
    /// What the checks look at.
    pub observed: Observed,
    /// The reviewed copy, when `--keep` kept it.
    pub kept: Option<PathBuf>,
}

/// A fresh copy of the scenario's repository (without `target/` and `.retake/`) in a
/// temporary folder, and a unique tag for the processes of its run.
pub(super) fn fresh_copy(
    scenario: &Scenario,
) -> Result<(tempfile::TempDir, std::path::PathBuf, String), ScenarioError> {
    let tmp = tempfile::Builder::new()
        .prefix("retake-scenario-")
        .tempdir()
        .map_err(io("cannot create a temporary folder"))?;
    let name = scenario
        .repo
        .file_name()
        .map_or_else(|| "repo".into(), |n| n.to_os_string());
    let copy = tmp.path().join(name);
    copy_for(scenario, &copy)?;
    let tag = format!(
        "{}-{}",
        std::process::id(),
        hex::encode(rand::random::<[u8; 8]>())
    );
    Ok((tmp, copy, tag))
}

/// Runs `scenario`, a review scenario, with `exe` (the `retake` binary) and observes the
/// outcome; [`crate::execute`] runs any scenario by its kind.
pub fn review(scenario: &Scenario, exe: &Path, keep: bool) -> Result<Execution, ScenarioError> {
    let (tmp, copy, tag) = fresh_copy(scenario)?;
    let mut argv: Vec<String> = vec![
        exe.display().to_string(),
        "review".into(),
        copy.display().to_string(),
        "--runtime".into(),
        Runtime::name(scenario.runtime).into(),
        "--format".into(),
        "json".into(),
    ];
    if !scenario.faults.is_empty() {
        argv.push("--chaos".into());
        for fault in &scenario.faults {
            argv.extend(["--fault".to_string(), fault.clone()]);
        }
    }
    argv.extend(scenario.args.iter().cloned());
    let limit = Duration::from_secs_f64(scenario.expect.max_seconds() * 2.0);
    let started = Instant::now();
    // Its own group, so a run past its bound is killed with everything under it.
    let ended =
        protocol::exec::run_watched(&argv, &here()?, limit, &tagged(scenario, &tag, &[]), || {
            false
        })
        .map_err(io(format!("cannot run {}", exe.display())))?;
    let timed_out = ended.timed_out;
    let seconds = started.elapsed().as_secs_f64();
    let stdout = ended.finished.stdout;
    let stderr = String::from_utf8_lossy(&ended.finished.stderr).into_owned();
    let json: Option<serde_json::Value> = serde_json::from_slice(&stdout).ok();
    let run_id = json
        .as_ref()
        .and_then(|j| j.get("run_id")?.as_str().map(str::to_string));
    let left = leftovers::wait_gone(&tag, LEFTOVER_GRACE);
    leftovers::kill(&left);
    let observed = Observed {
        exit_code: if timed_out { None } else { ended.finished.code },
        timed_out,
        json,
        journal: journal_listing(&copy, run_id.as_deref()),
        seconds,
        leftovers: left,
        stderr_tail: stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
            .to_string(),
        problems: Vec::new(),
    };
    let kept = keep.then(|| tmp.keep());
    Ok(Execution { observed, kept })
}

/// The environment a scenario's command gets: the scenario's own variables, its tag (how its
/// processes are found afterwards), no colours, and `more`.
pub(super) fn tagged(
    scenario: &Scenario,
    tag: &str,
    more: &[(&str, &Path)],
) -> protocol::exec::Extra {
    let mut env: Vec<(String, String)> = scenario
        .env
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    env.push((TAG_ENV.to_string(), tag.to_string()));
    env.push(("NO_COLOR".to_string(), "1".to_string()));
    env.extend(
        more.iter()
            .map(|(k, v)| (k.to_string(), v.display().to_string())),
    );
    protocol::exec::Extra { stdin: None, env }
}

/// The runner's own working directory, where a scenario's command starts.
pub(super) fn here() -> Result<PathBuf, ScenarioError> {
    std::env::current_dir().map_err(io("cannot read the working directory"))
}

/// The report names journaled for `run_id` (or the newest run, when the review printed no id).
pub fn journal_listing(repo: &Path, run_id: Option<&str>) -> Vec<String> {
    let runs = repo.join(".retake").join("runs");
    let run = match run_id {
        Some(id) => runs.join(id),
        None => {
            let mut ids: Vec<PathBuf> = std::fs::read_dir(&runs)
                .map(|d| d.flatten().map(|e| e.path()).collect())
                .unwrap_or_default();
            ids.sort();
            match ids.pop() {
                Some(newest) => newest,
                None => return Vec::new(),
            }
        }
    };
    let mut names: Vec<String> = std::fs::read_dir(run.join("reports"))
        .map(|d| {
            d.flatten()
                .filter_map(|e| {
                    e.file_name()
                        .to_str()?
                        .strip_suffix(".cpf")
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Copies `scenario`'s repository to `copy` — with the history `review.added` asks for.
pub fn copy_for(scenario: &Scenario, copy: &Path) -> Result<(), ScenarioError> {
    copy_tree(&scenario.repo, copy).map_err(io(format!(
        "cannot copy {} for the scenario",
        scenario.repo.display()
    )))?;
    match &scenario.added {
        Some(added) => super::history::history_adding(copy, added),
        None => Ok(()),
    }
}

/// Copies a repository, leaving out build output and earlier runs' state.
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if name == "target" || name == ".retake" {
            continue;
        }
        let kind = entry.file_type()?;
        let dest = to.join(&name);
        if kind.is_dir() {
            copy_tree(&entry.path(), &dest)?;
        } else if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path())?, &dest)?;
        } else {
            std::fs::copy(entry.path(), &dest)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_leaves_out_build_output_and_state_and_the_listing_reads_the_run() {
        let dir = tempfile::tempdir().expect("tempdir");
        let src = dir.path().join("src");
        for (path, body) in [
            ("src/lib.rs", "pub fn a() {}\n"),
            ("target/debug/x", "bin"),
            (".retake/runs/r1/reports/inspector-test.cpf", "VERDICT:GO\n"),
            ("Cargo.toml", "[package]\n"),
        ] {
            let p = src.join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, body).expect("write");
        }
        assert_eq!(journal_listing(&src, Some("r1")), vec!["inspector-test"]);
        assert_eq!(journal_listing(&src, None), vec!["inspector-test"]);
        let dst = dir.path().join("copy");
        copy_tree(&src, &dst).expect("copy");
        assert!(dst.join("src/lib.rs").is_file() && dst.join("Cargo.toml").is_file());
        assert!(!dst.join("target").exists() && !dst.join(".retake").exists());
        assert_eq!(journal_listing(&dst, None), Vec::<String>::new());
    }
}
