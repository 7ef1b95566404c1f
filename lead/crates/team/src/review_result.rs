//! `.retake/state/review-result.json`, written by the Lead after every review decision (the
//! Inspectors and the Auditor never write state), and Phase C's APPROVE fast path: when it says
//! APPROVE and its commit is still HEAD, nothing changed since the approval, so the manual
//! confirmation is skipped. `verdict` holds the team-loop decision under either gate.

use protocol::{Decision, Grade};
use serde::{Deserialize, Serialize};

/// The file's content, fields in the source document's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewResult {
    /// APPROVE, REQUEST_CHANGES, REJECT or STOP.
    pub verdict: Decision,
    /// A–D or N/A.
    pub grade: Grade,
    /// `git rev-parse HEAD` when the review ran.
    pub commit_hash: String,
    /// When it was recorded (RFC 3339, UTC).
    pub timestamp: String,
    /// Who reviewed (the Auditor's actor name).
    pub reviewer: String,
    /// The run's session id.
    pub session_id: String,
}

/// Whether Phase C may skip the confirmation: an APPROVE recorded on the current HEAD.
pub fn approve_fast_path(result: Option<&ReviewResult>, head: Option<&str>) -> bool {
    match (result, head) {
        (Some(r), Some(head)) => {
            r.verdict == Decision::Approve && !r.commit_hash.is_empty() && r.commit_hash == head
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(verdict: Decision, hash: &str) -> ReviewResult {
        ReviewResult {
            verdict,
            grade: Grade::A,
            commit_hash: hash.into(),
            timestamp: "2026-02-22T14:30:00Z".into(),
            reviewer: "auditor".into(),
            session_id: "retake-20260222-143000".into(),
        }
    }

    #[test]
    fn the_json_shape_is_the_source_documents() {
        assert_eq!(
            serde_json::to_string(&result(Decision::Approve, "abc1234")).unwrap(),
            r#"{"verdict":"APPROVE","grade":"A","commit_hash":"abc1234","timestamp":"2026-02-22T14:30:00Z","reviewer":"auditor","session_id":"retake-20260222-143000"}"#
        );
        let stop: ReviewResult = serde_json::from_str(
            r#"{"verdict":"STOP","grade":"N/A","commit_hash":"x","timestamp":"t","reviewer":"r","session_id":"s"}"#,
        )
        .unwrap();
        assert_eq!(
            (stop.verdict, stop.grade),
            (Decision::Stop, Grade::NotApplicable)
        );
    }

    #[test]
    fn fast_path_only_for_approve_on_head() {
        let ok = result(Decision::Approve, "abc1234");
        assert!(approve_fast_path(Some(&ok), Some("abc1234")));
        assert!(
            !approve_fast_path(Some(&ok), Some("def5678")),
            "a commit since the review"
        );
        assert!(!approve_fast_path(Some(&ok), None), "no HEAD");
        assert!(!approve_fast_path(None, Some("abc1234")), "no file");
        let rc = result(Decision::RequestChanges, "abc1234");
        assert!(!approve_fast_path(Some(&rc), Some("abc1234")));
        let empty = result(Decision::Approve, "");
        assert!(!approve_fast_path(Some(&empty), Some("")));
    }
}
