//! The domain types of the protocol spec: closed enums with exact text forms, findings, tasks, reports.

mod category;
mod changes;
mod finding;
mod kinds;
mod location;
mod outcome;
mod path_text;
mod report;
mod scope;
mod severity;
mod task;
mod verdict;

pub use category::Category;
pub use changes::{ChangedFile, RevisionFile, RevisionFiles, SessionChanges};
pub use finding::{cpf_fingerprint, cpf_rule, fingerprint, Confidence, Finding};
pub use kinds::{ActorKind, Dimension, InspectorKind, Judgment};
pub use location::{Location, OutsideRoot};
pub use outcome::{AuditOutcome, Removed, Resolved, SpecFeedback, Steering, SteeringAction};
pub use path_text::{path_from_text, path_text, path_text_escaped};
pub use report::{Claim, Coverage, InspectorReport, Skipped};
pub use scope::{DiffFilter, Scope};
pub use severity::{Severity, UnknownSeverity};
pub use task::{Task, TaskOrigin, TaskStatus};
pub use verdict::{Decision, Disposition, Grade, UnknownValue, Verdict};
