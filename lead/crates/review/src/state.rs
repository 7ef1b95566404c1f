//! `.retake/state/active.json`: what an interrupted review needs to be resumed. It is written
//! first, before any actor starts, and removed when the review ends (with a verdict or a handled
//! failure); a Lead killed in between leaves it for `retake resume`. A run of the team loop
//! writes the same file with `kind` = `run` (its content is `crate::run::ActiveRun`); [`kind`]
//! tells `retake resume` which one it has.

use host::journal::write_atomic;
use host::Runtime;
use protocol::Scope;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The active review's metadata.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveReview {
    /// Always `review` (a run of the team loop writes `run`, in its own shape).
    pub kind: String,
    /// The run id (its journal is `.retake/runs/<run_id>/`).
    pub run_id: String,
    /// The scope.
    pub scope: Scope,
    /// `local` or `inproc`.
    pub runtime: String,
    /// Whether external commands were off.
    pub no_exec: bool,
    /// Pipelines (consensus N).
    pub pipelines: u32,
    /// When it started (RFC 3339, UTC).
    pub started_at: String,
    /// The rule profile it ran with (`--profile` or `[rules] profile`), so a resumed review
    /// runs the same rules; absent in state files of earlier builds (the configuration's then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
}

/// Why the state file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// Nothing to resume.
    #[error("nothing to resume: {0} does not exist (no review or run was interrupted)")]
    Missing(String),
    /// The file is not what this version writes.
    #[error("{path}: not a retake state file ({reason}); remove it to start over")]
    Malformed {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}

/// A state file's field that no Lead will use: the file is refused, naming the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    /// An id that becomes a folder or file name is not a name.
    #[error("field {field}: {value:?} is not a name")]
    NotAName {
        /// The field.
        field: String,
        /// Its value.
        value: String,
    },
    /// A count lies outside what the command line accepts for it.
    #[error("field {field}: {value} is outside {min}..={max}")]
    OutOfRange {
        /// The field.
        field: String,
        /// Its value.
        value: u64,
        /// The smallest accepted.
        min: u64,
        /// The largest accepted.
        max: u64,
    },
    /// A value that is none of those the field can take.
    #[error("field {field}: {reason}")]
    Invalid {
        /// The field.
        field: String,
        /// What is wrong with its value.
        reason: String,
    },
}

impl FieldError {
    /// `field`'s value is wrong for `reason`.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> FieldError {
        FieldError::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

/// Now, as retake dates its state and documents: RFC 3339 to the second, UTC.
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The consensus pipelines `retake review --consensus N` accepts.
pub const PIPELINES: std::ops::RangeInclusive<u64> = 1..=9;

/// Checks that the `field` of a state file is a name (a run id, a session id), not a path: it
/// becomes a folder under `.retake/`, so `/`, `..`, NUL or an empty value would leave it.
pub fn check_name(field: &str, value: &str) -> Result<(), FieldError> {
    let bad = value.is_empty()
        || value == "."
        || value == ".."
        || value.contains(['/', '\\', '\0'])
        || value.contains("..")
        || value.chars().any(char::is_control);
    if bad {
        return Err(FieldError::NotAName {
            field: field.to_string(),
            value: value.to_string(),
        });
    }
    Ok(())
}

/// Checks that the count `field` of a state file lies in `range`, the range the command line
/// accepts for it: a state file can ask for nothing the command line would refuse.
pub fn check_count(
    field: &str,
    value: u64,
    range: std::ops::RangeInclusive<u64>,
) -> Result<(), FieldError> {
    if range.contains(&value) {
        return Ok(());
    }
    Err(FieldError::OutOfRange {
        field: field.to_string(),
        value,
        min: *range.start(),
        max: *range.end(),
    })
}

/// The state file of the repository whose state folder is `state_dir` (`.retake`).
pub fn path(state_dir: &Path) -> PathBuf {
    state_dir.join("state").join("active.json")
}

/// The `kind` of the state file in `state_dir` (`review` or `run`).
pub fn kind(state_dir: &Path) -> Result<String, StateError> {
    let p = path(state_dir);
    let bytes = match std::fs::read(&p) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(StateError::Missing(p.display().to_string()))
        }
        Err(source) => {
            return Err(StateError::Io {
                path: p.display().to_string(),
                source,
            })
        }
    };
    let malformed = |reason: String| StateError::Malformed {
        path: p.display().to_string(),
        reason,
    };
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| malformed(e.to_string()))?;
    match value.get("kind").and_then(|k| k.as_str()) {
        Some(kind @ ("review" | "run")) => Ok(kind.to_string()),
        Some(other) => Err(malformed(format!(
            "kind '{other}' cannot be resumed by this build"
        ))),
        None => Err(malformed("it has no kind".into())),
    }
}

impl ActiveReview {
    /// The text form of a runtime.
    pub fn runtime_name(runtime: Runtime) -> &'static str {
        runtime.name()
    }

    /// Writes the state file atomically.
    pub fn write(&self, state_dir: &Path) -> Result<(), StateError> {
        let p = path(state_dir);
        let io = |source| StateError::Io {
            path: p.display().to_string(),
            source,
        };
        let json = serde_json::to_vec_pretty(self).map_err(|e| io(std::io::Error::other(e)))?;
        write_atomic(&p, &json).map_err(io)
    }

    /// Reads the state file.
    pub fn read(state_dir: &Path) -> Result<ActiveReview, StateError> {
        let p = path(state_dir);
        let bytes = match std::fs::read(&p) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(StateError::Missing(p.display().to_string()))
            }
            Err(source) => {
                return Err(StateError::Io {
                    path: p.display().to_string(),
                    source,
                })
            }
        };
        let state: ActiveReview =
            serde_json::from_slice(&bytes).map_err(|e| StateError::Malformed {
                path: p.display().to_string(),
                reason: e.to_string(),
            })?;
        if state.kind != "review" {
            return Err(StateError::Malformed {
                path: p.display().to_string(),
                reason: format!("kind '{}' cannot be resumed by this build", state.kind),
            });
        }
        state.validate().map_err(|reason| StateError::Malformed {
            path: p.display().to_string(),
            reason: reason.to_string(),
        })?;
        Ok(state)
    }

    /// The checks serde cannot make: the run id names a folder of `.retake/runs/`, the
    /// pipelines are a count `--consensus` accepts, the runtime is one this build has.
    fn validate(&self) -> Result<(), FieldError> {
        check_name("run_id", &self.run_id)?;
        check_count("pipelines", u64::from(self.pipelines), PIPELINES)?;
        if let Some(profile) = &self.profile {
            profile
                .parse::<protocol::message::RuleProfile>()
                .map_err(|_| {
                    FieldError::invalid("profile", format!("{profile:?} is not a rule profile"))
                })?;
        }
        self.runtime
            .parse::<Runtime>()
            .map(|_| ())
            .map_err(|e| FieldError::invalid("runtime", e))
    }

    /// Removes the state file (the review ended).
    pub fn clear(state_dir: &Path) {
        // Best effort: a leftover file only offers a resume that finds a finished journal.
        let _removed = std::fs::remove_file(path(state_dir));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module-scoped review's state with `run_id`.
    fn review(run_id: &str) -> ActiveReview {
        ActiveReview {
            kind: "review".into(),
            run_id: run_id.into(),
            scope: Scope::Module {
                globs: vec!["src/**".into()],
            },
            runtime: "local".into(),
            no_exec: true,
            pipelines: 1,
            started_at: "2026-11-22T00:00:00Z".into(),
            profile: Some("pedantic".into()),
        }
    }

    #[test]
    fn written_read_and_cleared() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = review("r1");
        assert!(matches!(
            ActiveReview::read(dir.path()),
            Err(StateError::Missing(_))
        ));
        state.write(dir.path()).expect("write");
        assert_eq!(ActiveReview::read(dir.path()).expect("read"), state);
        assert_eq!(kind(dir.path()).expect("kind"), "review");
        std::fs::write(path(dir.path()), "{").expect("write");
        let err = ActiveReview::read(dir.path())
            .expect_err("malformed")
            .to_string();
        assert!(err.contains("not a retake state file"), "{err}");
        assert!(kind(dir.path()).is_err());
        std::fs::write(path(dir.path()), r#"{"kind": "run", "session_id": "s"}"#).expect("write");
        assert_eq!(kind(dir.path()).expect("kind"), "run");
        std::fs::write(path(dir.path()), r#"{"kind": "fix"}"#).expect("write");
        let err = kind(dir.path()).expect_err("unknown kind").to_string();
        assert!(err.contains("kind 'fix' cannot be resumed"), "{err}");
        ActiveReview::clear(dir.path());
        assert!(!path(dir.path()).exists());
        assert!(matches!(kind(dir.path()), Err(StateError::Missing(_))));
    }

    #[test]
    fn hostile_ids_and_counts_are_refused_naming_the_file_and_field_and_nothing_is_deleted() {
        let dir = tempfile::tempdir().expect("tempdir");
        let good = review("20261122T000000Z-abcdef");
        let cases = [
            (
                ActiveReview {
                    run_id: "../../..".into(),
                    ..good.clone()
                },
                "field run_id: \"../../..\" is not a name",
            ),
            (
                ActiveReview {
                    run_id: "a/b".into(),
                    ..good.clone()
                },
                "field run_id: \"a/b\" is not a name",
            ),
            (
                ActiveReview {
                    run_id: "a\0b".into(),
                    ..good.clone()
                },
                "field run_id: \"a\\0b\" is not a name",
            ),
            (
                ActiveReview {
                    run_id: String::new(),
                    ..good.clone()
                },
                "field run_id: \"\" is not a name",
            ),
            (
                ActiveReview {
                    pipelines: 1_000_000,
                    ..good.clone()
                },
                "field pipelines: 1000000 is outside 1..=9",
            ),
            (
                ActiveReview {
                    pipelines: 0,
                    ..good.clone()
                },
                "field pipelines: 0 is outside 1..=9",
            ),
            (
                ActiveReview {
                    profile: Some("lenient".into()),
                    ..good.clone()
                },
                "field profile: \"lenient\" is not a rule profile",
            ),
        ];
        for (state, reason) in cases {
            state.write(dir.path()).expect("write");
            let before = std::fs::read(path(dir.path())).expect("read");
            let err = ActiveReview::read(dir.path())
                .expect_err(reason)
                .to_string();
            assert_eq!(
                err,
                format!(
                    "{}: not a retake state file ({reason}); remove it to start over",
                    path(dir.path()).display()
                )
            );
            assert_eq!(std::fs::read(path(dir.path())).expect("kept"), before);
        }
        good.write(dir.path()).expect("write");
        assert_eq!(ActiveReview::read(dir.path()).expect("read"), good);
    }
}
