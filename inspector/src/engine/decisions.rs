//! `.retake/decisions.yaml`: accepted false positives, one `{fingerprint, reason}` entry each.
//!
//! ```yaml
//! - fingerprint: 3f2a9c0d41b7e815
//!   reason: the panic is the documented contract of this constructor
//! ```
//!
//! A missing file means no decisions; an unreadable or malformed one is an error naming the
//! file, so a typo never silently un-suppresses (or suppresses) anything.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Where the decisions live, relative to the repository root.
pub const DECISIONS_PATH: &str = ".retake/decisions.yaml";

/// The decisions of a repository: fingerprint → reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decisions {
    by_fingerprint: BTreeMap<String, String>,
}

/// A decisions file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct DecisionsError {
    /// The file, repository-relative.
    pub path: String,
    /// What is wrong with it.
    pub reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    // A Value, not a String: a hex fingerprint of digits (or digits and one `e`) reads as a
    // number in YAML, and the error should say to quote it rather than "invalid type".
    fingerprint: serde_yaml::Value,
    reason: String,
}

impl Decisions {
    /// Reads `.retake/decisions.yaml` under `root`; no file is no decisions.
    pub fn load(root: &Path) -> Result<Decisions, DecisionsError> {
        let path = root.join(DECISIONS_PATH);
        if !path.is_file() {
            return Ok(Decisions::default());
        }
        let text = std::fs::read_to_string(&path).map_err(|e| DecisionsError {
            path: DECISIONS_PATH.to_string(),
            reason: format!("unreadable: {e}"),
        })?;
        Decisions::parse(&text)
    }

    /// Reads `.retake/decisions.yaml` as committed at `rev` when one is given (the review's
    /// trusted revision: a change cannot accept its own findings), else from the work tree.
    /// `shipped`: the file as the Lead read it at `rev`, when it did.
    pub fn load_at(
        root: &Path,
        rev: Option<&str>,
        shipped: Option<&protocol::RevisionFiles>,
    ) -> Result<Decisions, DecisionsError> {
        let Some(rev) = rev else {
            return Decisions::load(root);
        };
        match super::git::file_at_revision_or_shipped(shipped, root, rev, DECISIONS_PATH) {
            Ok((_, Some(text))) => Decisions::parse(&text),
            Ok((_, None)) => Ok(Decisions::default()),
            Err(e) => Err(DecisionsError {
                path: DECISIONS_PATH.to_string(),
                reason: format!("cannot read it at {rev}: {e}"),
            }),
        }
    }

    /// Parses the text of a decisions file.
    pub fn parse(text: &str) -> Result<Decisions, DecisionsError> {
        let error = |reason: String| DecisionsError {
            path: DECISIONS_PATH.to_string(),
            reason,
        };
        if text.trim().is_empty() {
            return Ok(Decisions::default());
        }
        let entries: Option<Vec<Entry>> = serde_yaml::from_str(text).map_err(|e| {
            error(format!(
                "{e} (expected a list of {{fingerprint, reason}} entries)"
            ))
        })?;
        let mut by_fingerprint = BTreeMap::new();
        for (i, entry) in entries.unwrap_or_default().into_iter().enumerate() {
            let Some(fingerprint) = entry.fingerprint.as_str().map(|f| f.trim().to_string()) else {
                return Err(error(format!(
                    "entry {}: fingerprint must be a quoted string (YAML read it as a number)",
                    i + 1
                )));
            };
            let reason = entry.reason.trim().to_string();
            if fingerprint.is_empty() || reason.is_empty() {
                return Err(error(format!(
                    "entry {}: fingerprint and reason must not be empty",
                    i + 1
                )));
            }
            by_fingerprint.insert(fingerprint, reason);
        }
        Ok(Decisions { by_fingerprint })
    }

    /// The reason recorded for `fingerprint`, when there is one.
    pub fn reason_for(&self, fingerprint: &str) -> Option<&str> {
        self.by_fingerprint.get(fingerprint).map(String::as_str)
    }

    /// The accepted fingerprints, sorted.
    pub fn fingerprints(&self) -> impl Iterator<Item = &str> {
        self.by_fingerprint.keys().map(String::as_str)
    }

    /// How many decisions there are.
    pub fn len(&self) -> usize {
        self.by_fingerprint.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_fingerprint.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_entries_and_finds_reasons_by_fingerprint() {
        let d = Decisions::parse(
            "- fingerprint: abc123\n  reason: \"accepted in review #4\"\n- fingerprint: ' def '\n  reason: vendored\n",
        )
        .expect("valid");
        assert_eq!(d.len(), 2);
        assert_eq!(d.reason_for("abc123"), Some("accepted in review #4"));
        assert_eq!(d.reason_for("def"), Some("vendored"));
        assert_eq!(d.reason_for("zzz"), None);
        assert!(Decisions::parse("  \n").expect("empty").is_empty());
    }

    #[test]
    fn malformed_files_name_the_file_and_the_problem() {
        let err = Decisions::parse("fingerprint: abc\n").expect_err("not a list");
        assert!(
            err.to_string().starts_with(".retake/decisions.yaml: "),
            "{err}"
        );
        let err = Decisions::parse("- fingerprint: abc\n").expect_err("no reason");
        assert!(err.to_string().contains("reason"), "{err}");
        let err = Decisions::parse("- fingerprint: abc\n  reason: ''\n").expect_err("empty");
        assert_eq!(
            err.to_string(),
            ".retake/decisions.yaml: entry 1: fingerprint and reason must not be empty"
        );
        let err = Decisions::parse("- fingerprint: 1234e5\n  reason: x\n").expect_err("number");
        assert!(err.to_string().contains("quoted string"), "{err}");
        let err = Decisions::parse("- fingerprnt: abc\n  reason: x\n").expect_err("typo");
        assert!(err.to_string().contains("fingerprnt"), "{err}");
    }

    #[test]
    fn at_a_revision_the_committed_file_counts_not_the_work_tree() {
        use crate::engine::testing::{git, write};
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        git(root, &["init", "-q"]);
        write(
            root,
            DECISIONS_PATH,
            "- fingerprint: 'aaa'\n  reason: committed\n",
        );
        git(root, &["add", "."]);
        git(root, &["commit", "-q", "-m", "base"]);
        write(
            root,
            DECISIONS_PATH,
            "- fingerprint: 'bbb'\n  reason: added by the change\n",
        );
        let at_head = Decisions::load_at(root, Some("HEAD"), None).expect("committed");
        assert_eq!(
            (at_head.reason_for("aaa"), at_head.reason_for("bbb")),
            (Some("committed"), None)
        );
        let work_tree = Decisions::load_at(root, None, None).expect("work tree");
        assert_eq!(work_tree.reason_for("bbb"), Some("added by the change"));
        let err = Decisions::load_at(root, Some("nope"), None).expect_err("unknown revision");
        assert!(
            err.to_string().starts_with(
                ".retake/decisions.yaml: cannot read it at nope: unknown base revision"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_missing_file_is_no_decisions() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(Decisions::load(dir.path()).expect("none").is_empty());
        std::fs::create_dir_all(dir.path().join(".retake")).expect("mkdir");
        std::fs::write(dir.path().join(DECISIONS_PATH), "- [unclosed\n").expect("write");
        assert!(Decisions::load(dir.path()).is_err());
    }
}
