//! `active-fix-session.json`: a running fix session's plan and where each group is, written
//! atomically after every step so that `retake fix --resume` continues an interrupted session
//! where it stopped. It is removed when the session completes; the session's record then lives
//! in `fix-history.json`.

use super::FixError;
use host::journal::write_atomic;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use team::fix::{FixPlan, GroupState};

/// The file's name inside the review folder.
pub const ACTIVE_FILE: &str = "active-fix-session.json";

/// One group's progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupRecord {
    /// Where the group is.
    pub state: GroupState,
    /// Its commit (short hash) once committed.
    pub commit: Option<String>,
}

/// A session in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveSession {
    /// `fix-YYYYMMDD-HHMMSS`.
    pub fix_session_id: String,
    /// RFC 3339.
    pub started_at: String,
    /// `builtin` or `agent-based`.
    pub planning_mode: String,
    /// Findings per batch; a resumed session batches the same way, so fix ids stay the same.
    pub batch_size: usize,
    /// Attempts per group.
    pub max_attempts: u32,
    /// The plan.
    pub plan: FixPlan,
    /// Group id → progress.
    pub groups: BTreeMap<String, GroupRecord>,
}

impl ActiveSession {
    /// A group's state (`Pending` for a group the record does not know).
    pub fn state_of(&self, group: &str) -> GroupState {
        self.groups
            .get(group)
            .map_or(GroupState::Pending, |r| r.state.clone())
    }

    /// A group's commit.
    pub fn commit_of(&self, group: &str) -> Option<String> {
        self.groups.get(group).and_then(|r| r.commit.clone())
    }

    /// Records a group's state (and commit).
    pub fn set(&mut self, group: &str, state: GroupState, commit: Option<String>) {
        let record = self.groups.entry(group.to_string()).or_insert(GroupRecord {
            state: GroupState::Pending,
            commit: None,
        });
        record.state = state;
        if commit.is_some() {
            record.commit = commit;
        }
    }

    /// Writes the file.
    pub fn save(&self, dir: &Path) -> Result<(), FixError> {
        let path = dir.join(ACTIVE_FILE);
        let bytes = serde_json::to_vec_pretty(self).map_err(|e| FixError::Io {
            context: format!("cannot encode {}", path.display()),
            source: std::io::Error::other(e),
        })?;
        write_atomic(&path, &bytes).map_err(|source| FixError::Io {
            context: format!("cannot write {}", path.display()),
            source,
        })
    }

    /// Reads the file, if there is one; a malformed one is bad input.
    pub fn load(dir: &Path) -> Result<Option<ActiveSession>, FixError> {
        let path = dir.join(ACTIVE_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(FixError::Io {
                    context: format!("cannot read {}", path.display()),
                    source,
                })
            }
        };
        serde_json::from_str(&text).map(Some).map_err(|e| {
            FixError::BadInput(format!(
                "malformed {}: {e} (delete it to start a new fix session)",
                path.display()
            ))
        })
    }

    /// Removes the file of a completed session.
    pub fn clear(dir: &Path) -> Result<(), FixError> {
        let path: PathBuf = dir.join(ACTIVE_FILE);
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(FixError::Io {
                context: format!("cannot remove {}", path.display()),
                source,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use team::fix::{FixGroup, Stage};

    #[test]
    fn a_session_round_trips_and_clears() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(ActiveSession::load(dir.path()).unwrap(), None);
        let mut s = ActiveSession {
            fix_session_id: "fix-20260222-143000".into(),
            started_at: "2026-02-22T14:30:00Z".into(),
            planning_mode: "builtin".into(),
            batch_size: 5,
            max_attempts: 3,
            plan: FixPlan {
                groups: vec![FixGroup {
                    id: "G1".into(),
                    batch: 1,
                    files: vec!["src/a.rs".into()],
                    fix_ids: vec!["FIX-001".into()],
                }],
                timeline: vec![Stage {
                    stage: 1,
                    groups: vec!["G1".into()],
                }],
            },
            groups: BTreeMap::new(),
        };
        assert_eq!(s.state_of("G1"), GroupState::Pending);
        s.set("G1", GroupState::Testing { attempt: 2 }, None);
        s.set(
            "G1",
            GroupState::Committed { attempt: 2 },
            Some("abc1234".into()),
        );
        s.save(dir.path()).unwrap();
        let text = std::fs::read_to_string(dir.path().join(ACTIVE_FILE)).unwrap();
        assert!(
            text.contains("\"state\": \"committed\""),
            "readable states: {text}"
        );
        let back = ActiveSession::load(dir.path()).unwrap().unwrap();
        assert_eq!(back, s);
        assert_eq!(back.commit_of("G1").as_deref(), Some("abc1234"));
        ActiveSession::clear(dir.path()).unwrap();
        ActiveSession::clear(dir.path()).unwrap();
        assert!(!dir.path().join(ACTIVE_FILE).exists());
        std::fs::write(dir.path().join(ACTIVE_FILE), "{").unwrap();
        assert!(ActiveSession::load(dir.path())
            .unwrap_err()
            .to_string()
            .contains("delete it to start a new fix session"));
    }
}
