//! A unit of work for an Implementer.
//!
//! A task has two representations. In text (`state/tasks.json`, read by other tools and the
//! dashboard) its status is the protocol spec's name — `pending`, `in_progress` with a `claimer` field
//! beside it, `completed`, `failed` — and a file in the older form (Rust's enum names,
//! `{"InProgress": {"claimer": …}}`) still reads. On the wire (bincode, not human-readable) it
//! keeps the derived form: wire types carry no serde attribute bincode cannot encode, so the
//! text form is chosen by `is_human_readable`, not by `tag`/`flatten`.

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// Where a task came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TaskOrigin {
    /// From the plan (Plans.md or tasks.yaml).
    Plan,
    /// From review findings.
    Fix,
    /// From the spec-update cascade: updating the feature's design or its task list.
    Spec,
}

/// A task's status; `InProgress` names its claimer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TaskStatus {
    /// Waiting to be claimed.
    Pending,
    /// Claimed by the named Implementer.
    InProgress {
        /// The claiming Implementer's actor name.
        claimer: String,
    },
    /// Done and judged PASS.
    Completed,
    /// Given up on.
    Failed,
}

/// A task: ascending numeric id, what to do, which paths it owns, what it waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// Ascending numeric id.
    pub id: u32,
    /// One-line subject.
    pub subject: String,
    /// Full description.
    pub description: String,
    /// Paths the task may change.
    pub owns: Vec<String>,
    /// Ids of tasks that must complete first.
    pub blocked_by: Vec<u32>,
    /// Current status.
    pub status: TaskStatus,
    /// Attempts made so far.
    pub attempts: u32,
    /// Plan or fix.
    pub origin: TaskOrigin,
    /// Progress text ("Fixing src/auth/login.rs").
    pub active_form: String,
}

/// The wire form: the derive as it always was, field for field (bincode encodes by position).
#[derive(Serialize, Deserialize)]
#[serde(remote = "Task")]
struct WireTask {
    id: u32,
    subject: String,
    description: String,
    owns: Vec<String>,
    blocked_by: Vec<u32>,
    status: TaskStatus,
    attempts: u32,
    origin: TaskOrigin,
    active_form: String,
}

/// The text form, written.
#[derive(Serialize)]
struct TextTaskOut<'a> {
    id: u32,
    subject: &'a str,
    description: &'a str,
    owns: &'a [String],
    blocked_by: &'a [u32],
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    claimer: Option<&'a str>,
    attempts: u32,
    origin: TaskOrigin,
    active_form: &'a str,
}

/// The text form, read: the protocol spec's status names or the older enum form.
#[derive(Deserialize)]
struct TextTaskIn {
    id: u32,
    subject: String,
    description: String,
    owns: Vec<String>,
    blocked_by: Vec<u32>,
    status: StatusField,
    #[serde(default)]
    claimer: Option<String>,
    attempts: u32,
    origin: TaskOrigin,
    active_form: String,
}

impl TaskStatus {
    /// The task model's name of the status (`pending`, `in_progress`, `completed`, `failed`).
    pub fn name(&self) -> &'static str {
        match self {
            TaskStatus::Pending => "pending",
            TaskStatus::InProgress { .. } => "in_progress",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
        }
    }
}

impl Serialize for Task {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !s.is_human_readable() {
            return WireTask::serialize(self, s);
        }
        let claimer = match &self.status {
            TaskStatus::InProgress { claimer } => Some(claimer.as_str()),
            _ => None,
        };
        TextTaskOut {
            id: self.id,
            subject: &self.subject,
            description: &self.description,
            owns: &self.owns,
            blocked_by: &self.blocked_by,
            status: self.status.name(),
            claimer,
            attempts: self.attempts,
            origin: self.origin,
            active_form: &self.active_form,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Task {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Task, D::Error> {
        if !d.is_human_readable() {
            return WireTask::deserialize(d);
        }
        let t = TextTaskIn::deserialize(d)?;
        let status = match (t.status, t.claimer) {
            (StatusField::Pending, _) => TaskStatus::Pending,
            (StatusField::Completed, _) => TaskStatus::Completed,
            (StatusField::Failed, _) => TaskStatus::Failed,
            (StatusField::InProgress(Some(claimer)), _)
            | (StatusField::InProgress(None), Some(claimer)) => TaskStatus::InProgress { claimer },
            (StatusField::InProgress(None), None) => {
                return Err(de::Error::custom(format!(
                    "task {}: status in_progress without a claimer",
                    t.id
                )))
            }
        };
        Ok(Task {
            id: t.id,
            subject: t.subject,
            description: t.description,
            owns: t.owns,
            blocked_by: t.blocked_by,
            status,
            attempts: t.attempts,
            origin: t.origin,
            active_form: t.active_form,
        })
    }
}

/// A status as a text file holds it; `InProgress` carries the claimer only in the older form.
enum StatusField {
    Pending,
    InProgress(Option<String>),
    Completed,
    Failed,
}

const STATUS_NAMES: &[&str] = &["pending", "in_progress", "completed", "failed"];

impl StatusField {
    /// The status named `name`: the protocol spec's name, or the older enum form's (unit variants).
    fn named<E: de::Error>(name: &str) -> Result<StatusField, E> {
        match name {
            "pending" | "Pending" => Ok(StatusField::Pending),
            "in_progress" => Ok(StatusField::InProgress(None)),
            "completed" | "Completed" => Ok(StatusField::Completed),
            "failed" | "Failed" => Ok(StatusField::Failed),
            other => Err(E::unknown_variant(other, STATUS_NAMES)),
        }
    }
}

impl<'de> Deserialize<'de> for StatusField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<StatusField, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StatusField;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a task status: pending, in_progress, completed or failed")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StatusField, E> {
                StatusField::named(v)
            }
            // The older form: `{"InProgress": {"claimer": "…"}}`.
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StatusField, A::Error> {
                #[derive(Deserialize)]
                struct Claimed {
                    claimer: String,
                }
                let Some(key) = map.next_key::<String>()? else {
                    return Err(de::Error::custom("an empty task status"));
                };
                let status = match key.as_str() {
                    "InProgress" | "in_progress" => {
                        StatusField::InProgress(Some(map.next_value::<Claimed>()?.claimer))
                    }
                    other => StatusField::named(other)?,
                };
                if map.next_key::<String>()?.is_some() {
                    return Err(de::Error::custom("a task status names one state"));
                }
                Ok(status)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(status: TaskStatus) -> Task {
        Task {
            id: 2,
            subject: "Add b".into(),
            description: "Add b".into(),
            owns: vec!["b.rs".into()],
            blocked_by: vec![1],
            status,
            attempts: 1,
            origin: TaskOrigin::Plan,
            active_form: "Adding b".into(),
        }
    }

    #[test]
    fn text_statuses_are_chapter_01_names_with_the_claimer_beside() {
        let claimed = task(TaskStatus::InProgress {
            claimer: "implementer-2".into(),
        });
        let value = serde_json::to_value(&claimed).expect("json");
        assert_eq!(value["status"], "in_progress");
        assert_eq!(value["claimer"], "implementer-2");
        assert_eq!(
            serde_json::from_value::<Task>(value).expect("back"),
            claimed
        );
        for (status, name) in [
            (TaskStatus::Pending, "pending"),
            (TaskStatus::Completed, "completed"),
            (TaskStatus::Failed, "failed"),
        ] {
            let value = serde_json::to_value(task(status.clone())).expect("json");
            assert_eq!(value["status"], name);
            assert!(value.get("claimer").is_none(), "{value}");
            assert_eq!(
                serde_json::from_value::<Task>(value).expect("back").status,
                status
            );
        }
    }

    #[test]
    fn the_older_enum_form_still_reads_and_nonsense_does_not() {
        let mut value = serde_json::to_value(task(TaskStatus::Pending)).expect("json");
        value["status"] = serde_json::json!({"InProgress": {"claimer": "implementer-1"}});
        assert_eq!(
            serde_json::from_value::<Task>(value.clone())
                .expect("old in progress")
                .status,
            TaskStatus::InProgress {
                claimer: "implementer-1".into()
            }
        );
        for (old, status) in [
            ("Pending", TaskStatus::Pending),
            ("Completed", TaskStatus::Completed),
            ("Failed", TaskStatus::Failed),
        ] {
            value["status"] = serde_json::json!(old);
            assert_eq!(
                serde_json::from_value::<Task>(value.clone())
                    .expect(old)
                    .status,
                status
            );
        }
        value["status"] = serde_json::json!("in_progress");
        let err = serde_json::from_value::<Task>(value.clone()).expect_err("no claimer");
        assert!(err.to_string().contains("without a claimer"), "{err}");
        value["status"] = serde_json::json!("done");
        let err = serde_json::from_value::<Task>(value).expect_err("unknown");
        assert!(err.to_string().contains("unknown variant `done`"), "{err}");
    }

    #[test]
    fn the_wire_form_is_the_derived_one() {
        // What `#[derive(Serialize)]` on Task encoded before the text form existed.
        #[derive(Serialize)]
        struct Derived<'a> {
            id: u32,
            subject: &'a str,
            description: &'a str,
            owns: &'a [String],
            blocked_by: &'a [u32],
            status: &'a TaskStatus,
            attempts: u32,
            origin: TaskOrigin,
            active_form: &'a str,
        }
        let t = task(TaskStatus::InProgress {
            claimer: "implementer-2".into(),
        });
        let cfg = bincode::config::standard();
        let bytes = bincode::serde::encode_to_vec(&t, cfg).expect("encode");
        let derived = Derived {
            id: t.id,
            subject: &t.subject,
            description: &t.description,
            owns: &t.owns,
            blocked_by: &t.blocked_by,
            status: &t.status,
            attempts: t.attempts,
            origin: t.origin,
            active_form: &t.active_form,
        };
        assert_eq!(
            bytes,
            bincode::serde::encode_to_vec(&derived, cfg).expect("encode")
        );
        let (back, _): (Task, usize) =
            bincode::serde::decode_from_slice(&bytes, cfg).expect("decode");
        assert_eq!(back, t);
    }
}
