//! `.retake/proposals.jsonl`: every PROPOSE the Auditor made and what became of it, one JSON
//! object per line, appended (the whole file rewritten atomically). The last line of an id is its
//! state: `pending` until someone answers, then `approved` or `rejected` for good.

use host::journal::write_atomic;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::str::FromStr;

/// The log's file name under `.retake/`.
pub const PROPOSALS_FILE: &str = "proposals.jsonl";

/// What became of a proposal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Shown, not answered: the pipeline waits on it.
    Pending,
    /// Approved: written to its steering file and decisions.md.
    Approved,
    /// Rejected: recorded, never asked again.
    Rejected,
}

/// One line of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The proposal's id ([`proposal_id`]).
    pub id: String,
    /// The steering file it targets.
    pub target: String,
    /// The proposed rule.
    pub text: String,
    /// Its state as of this line.
    pub status: Status,
    /// The review that wrote the line.
    pub run_id: String,
    /// When (RFC 3339, UTC).
    pub at: String,
}

/// A user's answer to a proposal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Make it a rule.
    Approve,
    /// Do not.
    Reject,
}

/// `--answer ID=yes|no`: an answer given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GivenAnswer {
    /// The proposal id (its first characters are enough when they are unique).
    pub id: String,
    /// The answer.
    pub answer: Answer,
}

impl FromStr for GivenAnswer {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (id, answer) = s
            .split_once('=')
            .ok_or_else(|| format!("'{s}' is not ID=yes or ID=no"))?;
        let id = id.trim();
        if id.len() < 4 || !id.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!(
                "'{id}' is not a proposal id (at least 4 hex digits)"
            ));
        }
        let answer = parse_answer(answer)
            .ok_or_else(|| format!("'{answer}' is not an answer: use yes or no"))?;
        Ok(GivenAnswer {
            id: id.to_lowercase(),
            answer,
        })
    }
}

/// `y`/`yes`/`approve` or `n`/`no`/`reject`, any case; anything else is no answer.
pub fn parse_answer(text: &str) -> Option<Answer> {
    match text.trim().to_lowercase().as_str() {
        "y" | "yes" | "approve" => Some(Answer::Approve),
        "n" | "no" | "reject" => Some(Answer::Reject),
        _ => None,
    }
}

/// A proposal's id: the first 8 hex digits of the fingerprint of its target and text, so the same
/// proposal has the same id in every review.
pub fn proposal_id(target: &str, text: &str) -> String {
    protocol::fingerprint("steering/propose", target, text)[..8].to_string()
}

/// The log's lines, oldest first; none when there is no log. A line that is not a record is
/// skipped with a warning rather than failing the review it belongs to.
pub fn read(state_dir: &Path) -> std::io::Result<Vec<Record>> {
    let path = state_dir.join(PROPOSALS_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| {
            serde_json::from_str(l)
                .map_err(|e| tracing::warn!(error = %e, "{PROPOSALS_FILE}: a line skipped"))
                .ok()
        })
        .collect())
}

/// Each id's latest record, in the order the ids first appeared.
pub fn latest(records: &[Record]) -> Vec<Record> {
    let mut out: Vec<Record> = Vec::new();
    for r in records {
        match out.iter_mut().find(|o| o.id == r.id) {
            Some(o) => *o = r.clone(),
            None => out.push(r.clone()),
        }
    }
    out
}

/// The proposals still waiting for an answer: what blocks the team loop.
pub fn pending(state_dir: &Path) -> std::io::Result<Vec<Record>> {
    Ok(latest(&read(state_dir)?)
        .into_iter()
        .filter(|r| r.status == Status::Pending)
        .collect())
}

/// Appends `records` to the log, atomically.
pub fn append(state_dir: &Path, records: &[Record]) -> std::io::Result<()> {
    if records.is_empty() {
        return Ok(());
    }
    let path = state_dir.join(PROPOSALS_FILE);
    let mut text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    for r in records {
        text.push_str(&serde_json::to_string(r).map_err(std::io::Error::other)?);
        text.push('\n');
    }
    write_atomic(&path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, status: Status) -> Record {
        Record {
            id: id.into(),
            target: "steering/tech.md".into(),
            text: format!("rule {id}"),
            status,
            run_id: "r1".into(),
            at: "2025-01-01T00:00:00Z".into(),
        }
    }

    #[test]
    fn answers_parse_from_the_command_line() {
        assert_eq!(
            "A1B2c3d4=yes".parse::<GivenAnswer>(),
            Ok(GivenAnswer {
                id: "a1b2c3d4".into(),
                answer: Answer::Approve
            })
        );
        assert_eq!(
            "a1b2=No".parse::<GivenAnswer>().map(|a| a.answer),
            Ok(Answer::Reject)
        );
        assert_eq!(
            "a1b2".parse::<GivenAnswer>(),
            Err("'a1b2' is not ID=yes or ID=no".to_string())
        );
        assert_eq!(
            "zz=yes".parse::<GivenAnswer>(),
            Err("'zz' is not a proposal id (at least 4 hex digits)".to_string())
        );
        assert_eq!(
            "a1b2=maybe".parse::<GivenAnswer>(),
            Err("'maybe' is not an answer: use yes or no".to_string())
        );
    }

    #[test]
    fn ids_are_stable_and_short() {
        let id = proposal_id("steering/tech.md", "No print statements");
        assert_eq!(id.len(), 8);
        assert_eq!(id, proposal_id("steering/tech.md", "No print statements"));
        assert_ne!(
            id,
            proposal_id("steering/structure.md", "No print statements")
        );
    }

    #[test]
    fn the_last_line_of_an_id_is_its_state() {
        let dir = tempfile::tempdir().expect("tempdir");
        append(
            dir.path(),
            &[record("aa", Status::Pending), record("bb", Status::Pending)],
        )
        .expect("append");
        append(dir.path(), &[record("aa", Status::Rejected)]).expect("append");
        let all = read(dir.path()).expect("read");
        assert_eq!(all.len(), 3);
        let latest = latest(&all);
        assert_eq!(
            latest
                .iter()
                .map(|r| (r.id.as_str(), r.status))
                .collect::<Vec<_>>(),
            vec![("aa", Status::Rejected), ("bb", Status::Pending)]
        );
        let waiting = pending(dir.path()).expect("pending");
        assert_eq!(waiting, vec![record("bb", Status::Pending)]);
        let line = std::fs::read_to_string(dir.path().join(PROPOSALS_FILE)).expect("log");
        assert!(line.starts_with(
            "{\"id\":\"aa\",\"target\":\"steering/tech.md\",\"text\":\"rule aa\",\"status\":\"pending\","
        ));
    }

    #[test]
    fn no_log_is_nothing_pending() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(pending(dir.path()).expect("pending"), Vec::new());
    }
}
