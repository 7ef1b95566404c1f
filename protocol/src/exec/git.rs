//! The one way anything in the workspace runs git: through [`super::run`] (argv, own process
//! group under the guard, a time limit, no secret in the environment) with every repository
//! setting that would start a program of the reviewed repository's choosing switched off.
//!
//! The reviewed repository is untrusted input, and so is its `.git/config`. A plain `git status`
//! would run its `core.fsmonitor` command, a commit its hooks (and `gpg` for
//! `commit.gpgsign`), a diff or blame its external diff and textconv drivers, `git add` and
//! `git checkout` its clean/smudge filters. Command-line `-c` settings win over every config
//! file, so each call carries [`HARDENING`] and, for the filter and diff drivers whose names
//! cannot be known in advance, a harmless command for every driver the repository's own
//! configuration names (`.git/config`, its includes, the worktree's config; read with
//! `git config --show-scope`, which starts no program): no filter, `cat` as textconv, `false` as
//! an external diff (a diff must pass `--no-ext-diff`, or it fails closed). Drivers of the
//! user's global and system configuration (git-lfs's filter, say) are the user's choice and
//! stay. What remains: `git config` itself reads
//! `include.path` files (reading only), and a driver added to the configuration between the
//! enumeration and the call (by a command running concurrently) would not be neutralised — no
//! retake command runs git concurrently with the repository's own commands.

pub mod work_tree;

use super::{run, Extra, RunError};
use std::path::Path;
use std::time::Duration;

/// Deadline of one git command.
pub const GIT_TIMEOUT: Duration = Duration::from_secs(120);

/// Settings given on every call: each turns off a way the repository's configuration can make
/// git start a program, or a pager or prompt that would wait for a person.
pub const HARDENING: [&str; 17] = [
    "core.quotepath=off",
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.untrackedCache=false",
    "core.pager=cat",
    "core.editor=true",
    "core.sshCommand=false",
    "core.askPass=",
    "credential.helper=",
    "diff.external=false",
    "commit.gpgSign=false",
    "tag.gpgSign=false",
    "log.showSignature=false",
    "gc.auto=0",
    "maintenance.auto=false",
    "protocol.allow=never",
    "submodule.recurse=false",
];

/// Environment of every call: no prompt, no optional lock (a read-only `git status` must not
/// rewrite the index), no pager or editor. (The user's own `GIT_EXTERNAL_DIFF` is trusted
/// input; an empty value would make git try to run "".)
const ENV: [(&str, &str); 4] = [
    ("GIT_TERMINAL_PROMPT", "0"),
    ("GIT_OPTIONAL_LOCKS", "0"),
    ("GIT_PAGER", "cat"),
    ("GIT_EDITOR", "true"),
];

/// Why a git command gave no output.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GitError {
    /// git ran and exited non-zero.
    #[error("git {command} failed: {reason}")]
    Failed {
        /// The arguments after `git`.
        command: String,
        /// git's first error line (or its last line of output).
        reason: String,
    },
    /// git could not be started (not installed, no such folder).
    #[error("git {command} could not run: {reason}")]
    NotRun {
        /// The arguments after `git`.
        command: String,
        /// Why.
        reason: String,
    },
    /// git ran past its deadline; its process group was killed.
    #[error("git {command} timed out after {} s", GIT_TIMEOUT.as_secs())]
    TimedOut {
        /// The arguments after `git`.
        command: String,
    },
}

impl GitError {
    /// git's own words (or why it could not run).
    pub fn reason(&self) -> &str {
        match self {
            GitError::Failed { reason, .. } | GitError::NotRun { reason, .. } => reason,
            GitError::TimedOut { .. } => "timed out",
        }
    }
}

/// Runs `git ARGS` in `repo`, hardened; its standard output (lossy UTF-8).
pub fn git(repo: &Path, args: &[&str]) -> Result<String, GitError> {
    git_with(repo, args, &[])
}

/// The repository's `HEAD` commit, when it is a git work tree with a commit and git runs.
pub fn head_commit(repo: &Path) -> Option<String> {
    let out = git(repo, &["rev-parse", "--verify", "--quiet", "HEAD"]).ok()?;
    let head = out.trim().to_string();
    (!head.is_empty()).then_some(head)
}

/// [`git`] with `env` added (`GIT_INDEX_FILE` for a scratch index, say).
pub fn git_with(repo: &Path, args: &[&str], env: &[(&str, &str)]) -> Result<String, GitError> {
    let mut argv = hardened_prefix();
    argv.extend(driver_overrides(repo, env));
    argv.extend(args.iter().map(|a| a.to_string()));
    let done = raw(repo, &argv, env, args, None)?;
    Ok(String::from_utf8_lossy(&done).into_owned())
}

/// [`git`] with `input` on its standard input (`cat-file --batch`, say); its standard output
/// as bytes.
pub fn git_with_input(repo: &Path, args: &[&str], input: Vec<u8>) -> Result<Vec<u8>, GitError> {
    let mut argv = hardened_prefix();
    argv.extend(driver_overrides(repo, &[]));
    argv.extend(args.iter().map(|a| a.to_string()));
    raw(repo, &argv, &[], args, Some(input))
}

fn hardened_prefix() -> Vec<String> {
    let mut argv = vec!["git".to_string()];
    for setting in HARDENING {
        argv.push("-c".into());
        argv.push(setting.into());
    }
    argv
}

/// `-c` settings that neutralise every filter, diff and merge driver the repository's own
/// configuration names: their commands are the repository's programs.
fn driver_overrides(repo: &Path, env: &[(&str, &str)]) -> Vec<String> {
    let mut argv = hardened_prefix();
    argv.extend(
        [
            "config",
            "--show-scope",
            "--null",
            "--name-only",
            "--get-regexp",
            r"^(filter|diff|merge)\..*\.(clean|smudge|process|textconv|command|driver)$",
        ]
        .map(String::from),
    );
    // No such key (exit 1) or no repository: nothing to neutralise.
    let Ok(names) = raw(repo, &argv, env, &["config", "--get-regexp"], None) else {
        return Vec::new();
    };
    let names = String::from_utf8_lossy(&names);
    let mut fields = names.split('\0');
    let mut out = Vec::new();
    while let (Some(scope), Some(name)) = (fields.next(), fields.next()) {
        // The user's own configuration (and `-c`/`GIT_CONFIG_*`) is trusted; anything else —
        // local, worktree, or a scope this git names differently — is the repository's.
        if name.is_empty() || matches!(scope, "global" | "system" | "command") {
            continue;
        }
        // An empty filter is no filter; an empty diff command would make git try to run "".
        // `cat` is the identity textconv (blame and diffs keep the file's real text); an
        // external diff or merge driver becomes `false`, so a diff without `--no-ext-diff` fails
        // instead of running the repository's program.
        let value = if name.starts_with("filter.") {
            ""
        } else if name.ends_with(".textconv") {
            "cat"
        } else {
            "false"
        };
        out.push("-c".into());
        out.push(format!("{name}={value}"));
        if let Some(driver) = name
            .strip_prefix("filter.")
            .and_then(|rest| rest.rsplit_once('.'))
        {
            // An emptied required filter would make git refuse the file instead.
            out.push("-c".into());
            out.push(format!("filter.{}.required=false", driver.0));
        }
    }
    out
}

thread_local! {
    /// git processes started by this thread (see [`calls_on_this_thread`]).
    static CALLS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many git processes this thread has started through this module (each [`git`] call
/// starts two: the driver enumeration and the command). Per thread, so a test can assert that
/// some work ran no git at all while other tests run git beside it.
pub fn calls_on_this_thread() -> usize {
    CALLS.with(std::cell::Cell::get)
}

/// Runs a full git argv; stdout bytes on exit 0.
fn raw(
    repo: &Path,
    argv: &[String],
    env: &[(&str, &str)],
    shown: &[&str],
    stdin: Option<Vec<u8>>,
) -> Result<Vec<u8>, GitError> {
    CALLS.with(|c| c.set(c.get() + 1));
    let command = shown.join(" ");
    let mut all: Vec<(String, String)> = ENV
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    all.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let extra = Extra { stdin, env: all };
    match run(argv, repo, GIT_TIMEOUT, &extra) {
        Ok(done) if done.code == Some(0) => Ok(done.stdout),
        Ok(done) => Err(GitError::Failed {
            command,
            reason: reason(&done.stderr, &done.stdout),
        }),
        Err(RunError::TimedOut) => Err(GitError::TimedOut { command }),
        Err(RunError::Spawn(e)) if e.kind() == std::io::ErrorKind::NotFound && repo.is_dir() => {
            Err(GitError::NotRun {
                command,
                reason: "git is not installed".into(),
            })
        }
        Err(RunError::Spawn(e)) => Err(GitError::NotRun {
            command,
            reason: e.to_string(),
        }),
    }
}

/// git's first `fatal:`/`error:` line, else its first non-empty line of error output, else of
/// output.
fn reason(stderr: &[u8], stdout: &[u8]) -> String {
    let err = String::from_utf8_lossy(stderr);
    let out = String::from_utf8_lossy(stdout);
    let lines = || err.lines().map(str::trim).filter(|l| !l.is_empty());
    lines()
        .find(|l| l.starts_with("fatal:") || l.starts_with("error:"))
        .or_else(|| lines().next())
        .or_else(|| out.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or("no error message")
        .to_string()
}

#[cfg(test)]
mod tests;
