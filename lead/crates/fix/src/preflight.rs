//! The checks before a fix session changes anything: the repository is a git work tree with a
//! commit, git knows the committer (a group's commit must not fail after its tests passed), a
//! test command is known and can be found, and the work tree is clean — a rollback restores
//! files to `HEAD`, which must not take a user's edit with it. The review folder's own files
//! and, on a resume, the interrupted group's files are the exceptions.

use super::session::ActiveSession;
use super::{files, FixError};
use crate::config::FixConfig;
use protocol::exec::git::work_tree;
use protocol::exec::program_found;
use std::path::Path;
use team::verification::test_command;

/// The checks before any change; the test command on success.
pub fn preflight(
    repo: &Path,
    config: &FixConfig,
    active: Option<&ActiveSession>,
    excluded: Option<&str>,
) -> Result<Vec<String>, FixError> {
    if work_tree::head(repo).is_none() {
        return Err(FixError::BadInput(format!(
            "{} is not a git work tree with a commit: retake fix commits each fixed group and rolls back failed ones with git",
            repo.display()
        )));
    }
    work_tree::committer_known(repo).map_err(|e| {
        FixError::BadInput(format!(
            "git does not know who commits ({e}): set user.name and user.email"
        ))
    })?;
    let test = test_command(repo, config.test_command.as_deref()).ok_or_else(|| {
        FixError::BadInput(
            "no test command is known: set [test] command in retake.toml (every fix group is tested before it is committed)"
                .to_string(),
        )
    })?;
    if let Some(program) = test.first().filter(|p| !program_found(p, repo)) {
        return Err(FixError::BadInput(format!(
            "the test command '{program}' is not found: fix [test] command in retake.toml"
        )));
    }
    // An interrupted group's own files may be left changed; the resume rolls them back.
    let interrupted: Vec<&String> = active
        .into_iter()
        .flat_map(|s| {
            s.plan
                .groups
                .iter()
                .filter(|g| !s.state_of(&g.id).is_final())
                .flat_map(|g| &g.files)
        })
        .collect();
    let interrupted: Vec<String> = interrupted.into_iter().cloned().collect();
    let dirty = dirty_paths(repo, excluded, &interrupted)?;
    if !dirty.is_empty() {
        return Err(FixError::BadInput(format!(
            "the work tree has uncommitted changes ({}): commit or stash them first, so that a rolled-back fix cannot take them with it",
            listed(&dirty)
        )));
    }
    Ok(test)
}

/// Uncommitted paths (retake's state, the review folder and `allowed` left out).
pub fn dirty_paths(
    repo: &Path,
    excluded: Option<&str>,
    allowed: &[String],
) -> Result<Vec<String>, FixError> {
    Ok(work_tree::uncommitted(repo)
        .map_err(FixError::Git)?
        .into_iter()
        .filter(|p| excluded.is_none_or(|x| !files::within(p, x)))
        .filter(|p| !allowed.contains(p))
        .collect())
}

/// The first five paths, and how many more.
pub fn listed(paths: &[String]) -> String {
    let shown: Vec<&str> = paths.iter().take(5).map(String::as_str).collect();
    let more = if paths.len() > 5 {
        format!(" and {} more", paths.len() - 5)
    } else {
        String::new()
    };
    format!("{}{more}", shown.join(", "))
}
