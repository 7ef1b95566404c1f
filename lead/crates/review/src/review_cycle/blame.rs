//! The last change of a finding's line from git: `git blame --porcelain -L n,n` for a line,
//! `git log -1` for a whole file. No git, a folder that is not a repository, an untracked
//! file or a line past the end all give `unknown`; a line with uncommitted changes gives
//! `uncommitted`.

use super::context::{Commit, History, LastChange};
use std::path::{Path, PathBuf};

/// Reads last changes from the repository's git history.
#[derive(Debug, Clone)]
pub struct GitHistory {
    repo: PathBuf,
}

impl GitHistory {
    /// History of the repository at `repo`.
    pub fn new(repo: &Path) -> GitHistory {
        GitHistory {
            repo: repo.to_path_buf(),
        }
    }

    /// The hardened git runner: blame and log run no textconv or diff driver of the repository.
    fn git(&self, args: &[&str]) -> Option<String> {
        protocol::exec::git::git(&self.repo, args).ok()
    }
}

impl History for GitHistory {
    fn last_change(&self, path: &str, line: Option<u32>) -> LastChange {
        if path.is_empty() {
            return LastChange::Unknown;
        }
        match line {
            Some(n) => {
                let range = format!("{n},{n}");
                self.git(&[
                    "blame",
                    "--no-textconv",
                    "--porcelain",
                    "-L",
                    &range,
                    "--",
                    path,
                ])
                .map_or(LastChange::Unknown, |out| parse_blame(&out))
            }
            None => self
                .git(&[
                    "log",
                    "--no-textconv",
                    "--no-ext-diff",
                    "-1",
                    "--format=%H%x1f%an%x1f%aI%x1f%s",
                    "--",
                    path,
                ])
                .map_or(LastChange::Unknown, |out| parse_log(&out)),
        }
    }
}

/// The last change in `git blame --porcelain` output for one line.
pub fn parse_blame(out: &str) -> LastChange {
    let mut lines = out.lines();
    let Some(commit) = lines
        .next()
        .and_then(|l| l.split_whitespace().next())
        .filter(|c| c.len() >= 40 && c.chars().all(|x| x.is_ascii_hexdigit()))
    else {
        return LastChange::Unknown;
    };
    if commit.chars().all(|c| c == '0') {
        return LastChange::Uncommitted;
    }
    let mut author = String::new();
    let mut date = String::new();
    let mut summary = String::new();
    for l in lines {
        if let Some(a) = l.strip_prefix("author ") {
            author = a.to_string();
        } else if let Some(t) = l.strip_prefix("author-time ") {
            date = t
                .trim()
                .parse::<i64>()
                .ok()
                .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
                .map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
                .unwrap_or_default();
        } else if let Some(s) = l.strip_prefix("summary ") {
            summary = s.to_string();
        } else if l.starts_with('\t') {
            break;
        }
    }
    LastChange::Commit(Commit {
        commit: commit.to_string(),
        author,
        date,
        summary,
    })
}

/// The last change in `git log -1 --format=%H%x1f%an%x1f%aI%x1f%s` output (empty: untracked).
pub fn parse_log(out: &str) -> LastChange {
    let fields: Vec<&str> = out.trim_end_matches('\n').split('\u{1f}').collect();
    match fields.as_slice() {
        [commit, author, date, summary] if !commit.is_empty() => LastChange::Commit(Commit {
            commit: (*commit).to_string(),
            author: (*author).to_string(),
            date: (*date).to_string(),
            summary: (*summary).to_string(),
        }),
        _ => LastChange::Unknown,
    }
}
