//! The review context an Inspector works on: the scope's files (walked once), the skipped files,
//! the spec layout, a session's changes, the accepted decisions, and the options.

use super::decisions::{Decisions, DecisionsError};
use super::diff::Changes;
use super::git::{session_changes, GitError};
use super::limits::Exceeded;
use super::memo::Memo;
use super::progress::Progress;
use super::scope_filter::ScopeFilter;
use super::source::SourceFile;
use super::unread::{unread_changes, UnreadChange};
use super::walk::walk_within;
use crate::spec::{SpecError, Specs};
use protocol::message::InspectOptions;
use protocol::project::{FileRole, ProjectModel};
use protocol::{Scope, Skipped};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a context could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ContextError {
    /// A `--paths` glob does not compile.
    #[error("invalid glob '{glob}': {reason}")]
    BadGlob {
        /// The glob.
        glob: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The spec layout is unreadable or the phase gate refused.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A session's changes could not be read (not a repository, unknown base, git failed).
    #[error(transparent)]
    Git(#[from] GitError),
    /// `.retake/decisions.yaml` is unreadable or malformed.
    #[error(transparent)]
    Decisions(#[from] DecisionsError),
}

/// The repository-level files Inspectors read as committed at `repo_files_rev` (and
/// `rulebase/gate-config-changed` at a session's merge base, often the same commit): what the
/// Lead reads once and ships (`InspectOptions::repo_files`).
pub const REPO_FILES: [&str; 3] = [
    super::decisions::DECISIONS_PATH,
    crate::spec::TECH_MD,
    REPO_CONFIG_PATH,
];

/// The gate's configuration file at the repository root.
pub const REPO_CONFIG_PATH: &str = "retake.toml";

/// The session handover retake drafts after every command; its Steering Exceptions configure
/// the gate (`review::handover`).
pub const HANDOVER_PATH: &str = ".retake/handover/session.md";

/// What every rule sees.
#[derive(Debug)]
pub struct Context {
    /// Repository root.
    pub root: PathBuf,
    /// The review scope.
    pub scope: Scope,
    /// How to run.
    pub options: InspectOptions,
    /// Files in scope, sorted by path. Before the file pass these may include files beyond the
    /// limits (`engine::limits`); the pass moves those to `skipped` and `unanalysable` before
    /// any project rule runs (see [`Context::refuse`]).
    pub files: Vec<SourceFile>,
    /// Files in scope that were not reviewed, with reasons.
    pub skipped: Vec<Skipped>,
    /// The skipped files no rule could analyse, with the limit each exceeded (reported once,
    /// by `quality/unreviewed-file`); filled by the file pass.
    pub unanalysable: Vec<(String, Exceeded)>,
    /// The files a session's change wrote that no rule reads (a skip their own path, size or
    /// text chose, or an ignore file), with the first line it wrote in each; empty for every
    /// other scope. Reported once, by `quality/unreviewed-file`.
    pub unread_changes: Vec<UnreadChange>,
    /// The spec layout (empty when the repository has none).
    pub specs: Specs,
    /// A session's changed files and lines; `None` for every other scope.
    pub changes: Option<Changes>,
    /// Accepted false positives from `.retake/decisions.yaml`.
    pub decisions: Decisions,
    /// How far the rules have got (read by the actor's heartbeat).
    pub progress: Progress,
    /// What one project rule computed for others (an analyzer's run).
    pub memo: Memo,
    /// The project model of this review (the Lead's, or built here when it named none or its
    /// file could not be used); each file's `role` comes from it.
    pub project: Arc<ProjectModel>,
    /// Why the model was built here although the Lead named one (said once in the report).
    pub project_note: Option<String>,
    /// What the agent backend cost in this review (calls, tokens, time): the actor adds it to
    /// its `/metrics`.
    pub agent_usage: protocol::session::AgentUsage,
}

impl Context {
    /// Loads the specs and the decisions, resolves the scope to files (for a session, the
    /// changes the Lead shipped in `options.session_changes`, else read from git here) and
    /// reads them.
    pub fn build(
        root: &Path,
        scope: &Scope,
        options: &InspectOptions,
    ) -> Result<Context, ContextError> {
        let mut specs = Specs::load(root)?;
        let shipped = options.repo_files.as_ref();
        if let Some(rev) = &options.repo_files_rev {
            specs.use_test_command_at(root, rev, shipped)?;
        }
        let decisions = Decisions::load_at(root, options.repo_files_rev.as_deref(), shipped)?;
        let changes = match scope {
            // Changes read for another base are not this session's: read them here.
            Scope::Session { base, .. } => Some(match &options.session_changes {
                Some(shipped) if shipped.base == *base => Changes::from(shipped.clone()),
                _ => session_changes(root, base)?,
            }),
            _ => None,
        };
        let filter = ScopeFilter::new(scope, &specs, changes.as_ref())?;
        let mut walked = walk_within(
            root,
            options.max_file_bytes,
            &|p| filter.accepts(p),
            filter.folders(),
        );
        let unread_changes = changes.as_ref().map_or_else(Vec::new, |c| {
            unread_changes(root, c, &mut walked, &|p| filter.accepts(p))
        });
        let (project, project_note) = project_for(root, options.project_model.as_deref());
        let mut files = walked.files;
        assign_roles(&project, &mut files, changes.as_ref());
        Ok(Context {
            root: root.to_path_buf(),
            scope: scope.clone(),
            options: options.clone(),
            files,
            skipped: walked.skipped,
            unanalysable: Vec::new(),
            unread_changes,
            specs,
            changes,
            decisions,
            progress: Progress::default(),
            memo: Memo::default(),
            project: Arc::new(project),
            project_note,
            agent_usage: Default::default(),
        })
    }

    /// A context over files given in memory (tests, fixtures), with the project model of
    /// those files.
    pub fn from_files(root: &Path, mut files: Vec<SourceFile>, specs: Specs) -> Context {
        // Sorted by path, as a walk gives them: `Context::file` searches them.
        files.sort_by(|a, b| a.rel_path.cmp(&b.rel_path));
        let texts: Vec<(&str, &str)> = files
            .iter()
            .map(|f| (f.rel_path.as_str(), f.text.as_str()))
            .collect();
        let project = crate::project::build_in_memory(&texts);
        assign_roles(&project, &mut files, None);
        Context {
            root: root.to_path_buf(),
            scope: Scope::repository(),
            options: InspectOptions::default(),
            files,
            skipped: Vec::new(),
            unanalysable: Vec::new(),
            unread_changes: Vec::new(),
            specs,
            changes: None,
            decisions: Decisions::default(),
            progress: Progress::default(),
            memo: Memo::default(),
            project: Arc::new(project),
            project_note: None,
            agent_usage: Default::default(),
        }
    }

    /// Takes the files the file pass found beyond the limits out of `files`: each is listed as
    /// skipped with its reason and kept in `unanalysable` with the limit it exceeded, so no
    /// project rule, suppression scan or agent sees it and it counts as not reviewed.
    pub(crate) fn refuse(&mut self, mut refused: Vec<(String, Exceeded)>) {
        if refused.is_empty() {
            return;
        }
        refused.sort_by(|a, b| a.0.cmp(&b.0));
        self.files.retain(|f| {
            refused
                .binary_search_by(|(path, _)| path.as_str().cmp(&f.rel_path))
                .is_err()
        });
        for (path, exceeded) in refused {
            self.skipped.push(Skipped {
                path: path.clone(),
                reason: exceeded.reason(),
            });
            self.unanalysable.push((path, exceeded));
        }
        self.skipped.sort_by(|a, b| a.path.cmp(&b.path));
        self.unanalysable.sort_by(|a, b| a.0.cmp(&b.0));
    }

    /// The file at a repository-relative path, when it is in scope.
    pub fn file(&self, rel_path: &str) -> Option<&SourceFile> {
        self.files
            .binary_search_by(|f| f.rel_path.as_str().cmp(rel_path))
            .ok()
            .and_then(|i| self.files.get(i))
    }
}

/// The model the Lead named (`hash`), or, when it named none or its file is gone or does not
/// match, the model built here with the same function — then with a note saying so.
fn project_for(root: &Path, hash: Option<&str>) -> (ProjectModel, Option<String>) {
    let Some(hash) = hash else {
        return (crate::project::build_at(root), None);
    };
    match crate::project::load(root, hash) {
        Some(model) => {
            tracing::debug!(hash, "project model loaded");
            (model, None)
        }
        None => (
            crate::project::build_at(root),
            Some(format!(
                "project model .retake/cache/project-{hash}.bin could not be read: built again here"
            )),
        ),
    }
}

/// Gives each file the role the model lists for it (a file the model does not list keeps the
/// fallback role it was built with). A file the change under review touched is never test
/// support by a test kit's name alone (`testing.rs`, `zaptest/`): the change could name its own
/// library code so — it stays library code, and the library rules read it.
fn assign_roles(project: &ProjectModel, files: &mut [SourceFile], changes: Option<&Changes>) {
    for file in files {
        let Some(facts) = project.file(&file.rel_path) else {
            continue;
        };
        let touched = changes.is_some_and(|c| c.files.contains_key(&file.rel_path));
        file.role = if touched && crate::project::test_kits::placed_as_kit(facts, &project.packages)
        {
            FileRole::Library
        } else {
            facts.role
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_kit_the_change_touched_is_library_code() {
        let texts = [
            (
                "Cargo.toml",
                "[package]\nname = \"web\"\nversion = \"1.0.0\"\n",
            ),
            ("src/lib.rs", "pub mod testing;\npub mod util;\n"),
            ("src/testing.rs", "pub fn client() {}\n"),
            ("src/util.rs", "pub fn f() {}\n"),
        ];
        let project = crate::project::build_in_memory(&texts);
        let files =
            || -> Vec<SourceFile> { texts.iter().map(|(p, t)| SourceFile::new(*p, *t)).collect() };
        let role = |files: &[SourceFile], path: &str| {
            files.iter().find(|f| f.rel_path == path).map(|f| f.role)
        };
        let mut whole = files();
        assign_roles(&project, &mut whole, None);
        assert_eq!(role(&whole, "src/testing.rs"), Some(FileRole::TestSupport));
        let changes = Changes {
            base: "main".into(),
            merge_base: "0".repeat(40),
            files: [(
                "src/testing.rs".to_string(),
                super::super::diff::FileChange::new_file(),
            )]
            .into_iter()
            .collect(),
        };
        let mut session = files();
        assign_roles(&project, &mut session, Some(&changes));
        assert_eq!(role(&session, "src/testing.rs"), Some(FileRole::Library));
        assert_eq!(role(&session, "src/util.rs"), Some(FileRole::Library));
    }

    #[test]
    fn files_carry_the_role_of_the_leads_model_or_one_built_here() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        crate::engine::testing::write(root, "Cargo.toml", "[package]\nname = \"m\"\n");
        crate::engine::testing::write(root, "src/lib.rs", "#[cfg(test)]\nmod testutil;\n");
        crate::engine::testing::write(root, "src/testutil.rs", "pub fn f() {}\n");
        let scope = Scope::repository();
        let own = Context::build(root, &scope, &InspectOptions::default()).expect("context");
        let testutil = own.file("src/testutil.rs").expect("in scope");
        assert!(
            testutil.is_test_file(),
            "declared #[cfg(test)] in its parent"
        );
        assert_eq!(own.project_note, None);

        let hash = crate::project::store(root, &own.project).expect("stored");
        let named = InspectOptions {
            project_model: Some(hash),
            ..InspectOptions::default()
        };
        let loaded = Context::build(root, &scope, &named).expect("context");
        assert_eq!(loaded.project, own.project);
        assert_eq!(loaded.project_note, None, "loaded, not built again");

        let gone = InspectOptions {
            project_model: Some("ab".repeat(32)),
            ..InspectOptions::default()
        };
        let rebuilt = Context::build(root, &scope, &gone).expect("context");
        assert_eq!(
            rebuilt.project, own.project,
            "the same function, the same model"
        );
        assert_eq!(
            rebuilt.project_note.as_deref(),
            Some(format!("project model .retake/cache/project-{}.bin could not be read: built again here", "ab".repeat(32)).as_str())
        );
    }
    use crate::engine::testing::{session_repo, write};
    use protocol::DiffFilter;

    fn session(base: &str) -> Scope {
        Scope::Session {
            base: base.into(),
            filter: DiffFilter::File,
        }
    }

    #[test]
    fn a_session_reviews_only_the_changed_files() {
        let dir = session_repo();
        let ctx = Context::build(dir.path(), &session("main"), &InspectOptions::default())
            .expect("context");
        let files: Vec<&str> = ctx.files.iter().map(|f| f.rel_path.as_str()).collect();
        assert_eq!(files, vec!["src/lib.rs", "src/new.rs"]);
        let changes = ctx.changes.expect("changes");
        assert_eq!(changes.files["src/lib.rs"].added, vec![(2, 2), (4, 5)]);
    }

    /// Each file in scope with its text.
    fn read(ctx: &Context) -> Vec<(String, String)> {
        ctx.files
            .iter()
            .map(|f| (f.rel_path.clone(), f.text.clone()))
            .collect()
    }

    #[test]
    fn shipped_changes_are_the_ones_read_here_and_run_no_git() {
        use protocol::exec::git::calls_on_this_thread;
        let dir = session_repo();
        let read_here = session_changes(dir.path(), "main").expect("changes");
        let shipped = protocol::SessionChanges::from(&read_here);
        let paths: Vec<&str> = shipped.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, vec!["src/lib.rs", "src/new.rs"]);
        assert_eq!(Changes::from(shipped.clone()), read_here);

        let before = calls_on_this_thread();
        let own = Context::build(dir.path(), &session("main"), &InspectOptions::default())
            .expect("context");
        let after_own = calls_on_this_thread();
        // merge-base and the untracked listing on this thread, the two diffs beside it; each
        // call starts two git processes (its driver listing and itself).
        assert_eq!(after_own - before, 4);
        let options = InspectOptions {
            session_changes: Some(shipped.clone()),
            ..InspectOptions::default()
        };
        let given = Context::build(dir.path(), &session("main"), &options).expect("context");
        assert_eq!(
            calls_on_this_thread(),
            after_own,
            "shipped changes run no git"
        );
        assert_eq!(given.changes, own.changes);
        assert_eq!(read(&given), read(&own));
        assert_eq!(read(&given).len(), 2);

        // With the repository-level files read at a revision, shipped too: still no git.
        let at_main = InspectOptions {
            repo_files_rev: Some("main".into()),
            ..options.clone()
        };
        let before = calls_on_this_thread();
        let own_at_main = Context::build(dir.path(), &session("main"), &at_main).expect("ctx");
        assert_eq!(
            calls_on_this_thread() - before,
            12,
            "two absent files read at main"
        );
        let files = super::super::git::files_at_revision(dir.path(), "main", &REPO_FILES)
            .expect("files at main");
        let texts: Vec<(&str, Option<&str>)> = files
            .files
            .iter()
            .map(|f| (f.path.as_str(), f.text.as_deref()))
            .collect();
        assert_eq!(
            texts,
            vec![
                (".retake/decisions.yaml", None),
                ("steering/tech.md", None),
                ("retake.toml", None)
            ]
        );
        let shipped_at_main = InspectOptions {
            repo_files: Some(files),
            ..at_main
        };
        let before = calls_on_this_thread();
        let given = Context::build(dir.path(), &session("main"), &shipped_at_main).expect("ctx");
        assert_eq!(calls_on_this_thread(), before, "everything shipped: no git");
        assert_eq!(read(&given), read(&own_at_main));
        assert_eq!(given.specs.test_command(), own_at_main.specs.test_command());

        // Without its git folder the session can only be reviewed from what was shipped.
        std::fs::rename(dir.path().join(".git"), dir.path().join("moved.git")).expect("mv");
        let err = Context::build(dir.path(), &session("main"), &InspectOptions::default())
            .expect_err("no repository");
        assert!(err.to_string().starts_with("not a git repository"), "{err}");
        let given = Context::build(dir.path(), &session("main"), &options).expect("context");
        assert_eq!(read(&given), read(&own));

        // Changes read for another base are not this session's: read here, and so fail here.
        let other = InspectOptions {
            session_changes: Some(protocol::SessionChanges {
                base: "HEAD".into(),
                ..shipped
            }),
            ..InspectOptions::default()
        };
        let err = Context::build(dir.path(), &session("main"), &other).expect_err("read here");
        assert!(err.to_string().starts_with("not a git repository"), "{err}");
    }

    #[test]
    fn bad_sessions_and_decisions_are_context_errors_naming_the_problem() {
        let plain = tempfile::tempdir().expect("tempdir");
        let err = Context::build(plain.path(), &session("main"), &InspectOptions::default())
            .expect_err("not a repository");
        assert!(err.to_string().starts_with("not a git repository"), "{err}");
        write(plain.path(), ".retake/decisions.yaml", "fingerprint: [\n");
        let err = Context::build(
            plain.path(),
            &Scope::repository(),
            &InspectOptions::default(),
        )
        .expect_err("malformed decisions");
        assert!(
            matches!(err, ContextError::Decisions(_))
                && err.to_string().starts_with(".retake/decisions.yaml: "),
            "{err}"
        );
    }
}
