//! What the Lead works out once, before any actor starts, and ships to every actor of the
//! review instead of letting each of them work it out again: a session's changes (one
//! `git diff` and one untracked listing for the whole review, not one per Inspector and two
//! more for the Lead's own scope checks) and the repository-level files at the trusted
//! revision. Further pre-spawn work belongs here, as a field of [`Prepared`] filled in
//! [`Prepared::build`].

use super::{ReviewError, ReviewRequest};
use protocol::message::InspectOptions;
use protocol::{RevisionFiles, Scope, SessionChanges};

/// The review's shared pre-spawn results.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
    /// A session's changes, read once through the hardened git runner; `None` for every other
    /// scope.
    pub changes: Option<SessionChanges>,
    /// The repository-level files every Inspector reads at `repo_files_rev`
    /// (`inspector::engine::REPO_FILES`); `None` when there is no such revision, or when they
    /// could not be read here (each Inspector then reads them, and fails, itself).
    pub repo_files: Option<RevisionFiles>,
    /// The hash of the review's project model, built once here and stored under
    /// `.retake/cache/`; the Lead's own scope probes and every Inspector load it. `None` when it
    /// could not be stored (each then builds the same model itself).
    pub project_model: Option<String>,
}

impl Prepared {
    /// Reads what `req` needs before its actors start. A session whose changes cannot be read
    /// (not a repository, unknown base, git failing) is the same one-line scope error the
    /// Inspectors would have given.
    pub fn build(req: &ReviewRequest) -> Result<Prepared, ReviewError> {
        // The project model (reading the tree) is built while git runs (waiting on processes).
        std::thread::scope(|threads| {
            let model = threads.spawn(|| super::project_model(&req.repo));
            let changes = match &req.scope {
                Scope::Session { base, .. } => Some(
                    inspector::engine::git::session_changes(&req.repo, base)
                        .map(|c| SessionChanges::from(&c))
                        .map_err(|e| ReviewError::Scope(e.to_string())),
                ),
                _ => None,
            };
            let repo_files = req.repo_files_rev.as_deref().and_then(|rev| {
                inspector::engine::files_at_revision(&req.repo, rev, &inspector::engine::REPO_FILES)
                    .ok()
            });
            // A model that could not be built or stored is built by each Inspector itself.
            let project_model = model.join().ok().flatten();
            Ok(Prepared {
                changes: changes.transpose()?,
                repo_files,
                project_model,
            })
        })
    }

    /// `options` carrying what every Inspector is shipped.
    pub fn ship(&self, options: InspectOptions) -> InspectOptions {
        InspectOptions {
            session_changes: self.changes.clone(),
            repo_files: self.repo_files.clone(),
            project_model: self.project_model.clone(),
            ..options
        }
    }
}
