//! A lost Implementer's attempt leaves nothing behind. The hub notes what a task's owned files
//! held when an attempt was claimed; when the Implementer is lost mid-attempt (dead, hung, or
//! asking for more work without reporting the task it holds), the next claim of the task first
//! puts those files back. Without that, a lost attempt that had finished its change — its
//! result swallowed or garbled on the way — leaves the retry nothing to change, and the judge
//! rejects it for showing no change of its own (Q5); a half-made change would be judged as the
//! retry's work.
//!
//! Only owned paths that name files are kept (folders and globs cannot be without walking the
//! tree), and only paths inside the repository.
//!
//! What a claim found is also written to `.retake/state/attempts/<task>.json`, so that a run
//! resumed after the Lead itself died puts the interrupted attempts' files back the same way
//! ([`restore_interrupted`]) before anyone claims them again.

use super::Board;
use implementer::judge::owned_files;
use protocol::{Task, TaskStatus};
use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};

/// An owned file as an attempt found it: its bytes, or `None` when it did not exist.
type Before = Vec<(String, Option<Vec<u8>>)>;

/// The owned files of each claimed task, and the tasks whose last attempt was lost.
#[derive(Debug, Default)]
pub(super) struct Attempts {
    before: HashMap<u32, Before>,
    interrupted: BTreeSet<u32>,
    /// Where each claim's files are persisted (`None`: in memory only).
    store: Option<PathBuf>,
    /// Why the last claim's files could not be persisted: a Lead that died now could not put
    /// them back, so the run stops ([`Attempts::unwritten`]).
    unwritten: Option<String>,
}

/// The persisted form of a claim's files: path → hex bytes, or `null` when it did not exist.
type Stored = Vec<(String, Option<String>)>;

/// Puts back the files the interrupted attempt at `task` found when it was claimed, as
/// persisted in `store` by a Lead that has since died; returns the files put back. Nothing
/// persisted (or unreadable) puts nothing back.
pub(crate) fn restore_interrupted(store: &Path, root: &Path, task: u32) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(store.join(format!("{task}.json"))) else {
        return Vec::new();
    };
    let Ok(stored) = serde_json::from_str::<Stored>(&text) else {
        tracing::warn!(task, "unreadable attempt record: nothing put back");
        return Vec::new();
    };
    let mut restored = Vec::new();
    for (path, content) in stored.into_iter().filter(|(p, _)| inside(p)) {
        let Ok(content) = content.map(hex::decode).transpose() else {
            continue;
        };
        match put_back(&root.join(&path), content.as_deref()) {
            Ok(true) => restored.push(path),
            Ok(false) => {}
            Err(e) => tracing::warn!(path, error = %e, "cannot put an owned file back"),
        }
    }
    restored
}

impl Attempts {
    /// Attempts persisted under `store` (`.retake/state/attempts`).
    pub(super) fn persisted(store: PathBuf) -> Attempts {
        Attempts {
            store: Some(store),
            ..Attempts::default()
        }
    }

    /// `task` is being claimed in the repository at `root`: puts its owned files back as the
    /// lost attempt found them, when its last attempt was lost, and notes them for this
    /// attempt. Returns the files put back.
    pub(super) fn claimed(&mut self, root: &Path, task: &Task) -> Vec<String> {
        let mut restored = Vec::new();
        if self.interrupted.remove(&task.id) {
            for (path, content) in self.before.get(&task.id).into_iter().flatten() {
                match put_back(&root.join(path), content.as_deref()) {
                    Ok(true) => restored.push(path.clone()),
                    Ok(false) => {}
                    Err(e) => tracing::warn!(path, error = %e, "cannot put an owned file back"),
                }
            }
        }
        let files = owned_files(task);
        let before = files
            .into_iter()
            .filter(|p| inside(p))
            .filter_map(|p| {
                let content = match std::fs::read(root.join(&p)) {
                    Ok(bytes) => Some(bytes),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                    // Unreadable (a folder, no permission): not ours to put back later.
                    Err(_) => return None,
                };
                Some((p, content))
            })
            .collect::<Before>();
        if let Some(store) = &self.store {
            let stored: Stored = before
                .iter()
                .map(|(p, c)| (p.clone(), c.as_ref().map(hex::encode)))
                .collect();
            let written = serde_json::to_vec(&stored)
                .map_err(std::io::Error::other)
                .and_then(|bytes| {
                    std::fs::create_dir_all(store)?;
                    host::journal::write_atomic(&store.join(format!("{}.json", task.id)), &bytes)
                });
            if let Err(e) = written {
                self.unwritten = Some(format!("cannot persist the attempt's files: {e}"));
            }
        }
        self.before.insert(task.id, before);
        restored
    }

    /// Why the files of the last claim could not be persisted, once.
    pub(super) fn unwritten(&mut self) -> Option<String> {
        self.unwritten.take()
    }

    /// The attempt at `task` was lost with its Implementer; its next claim starts afresh.
    pub(super) fn lost(&mut self, task: u32) {
        self.interrupted.insert(task);
    }
}

/// The task `who` holds, if any: an Implementer that asks for work while holding one has lost
/// that task's result (it never reported it).
pub(super) fn held_by(board: &Board, who: &str) -> Option<u32> {
    board.tasks.iter().find_map(|t| match &t.status {
        TaskStatus::InProgress { claimer } if claimer == who => Some(t.id),
        _ => None,
    })
}

/// A relative path that stays inside the repository (no root, no `..`).
fn inside(path: &str) -> bool {
    Path::new(path)
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Makes `path` hold `content` (`None`: not exist); true when it had to change.
fn put_back(path: &Path, content: Option<&[u8]>) -> std::io::Result<bool> {
    let now = match std::fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if now.as_deref() == content {
        return Ok(false);
    }
    match content {
        // Atomic and mode-keeping, like every file retake rewrites in the user's tree.
        Some(bytes) => host::journal::write_atomic(path, bytes)?,
        None => std::fs::remove_file(path)?,
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_lead_s_attempt_is_put_back_from_its_record() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        let store = root.join(".retake/state/attempts");
        std::fs::write(root.join("calc.sh"), "base\n").expect("write");
        let t = one_task(&["calc.sh", "ops/sub.sh"]);
        let mut attempts = Attempts::persisted(store.clone());
        assert!(attempts.claimed(root, &t).is_empty());
        // The executor wrote its change, then the Lead died: a new Lead knows only the record.
        std::fs::write(root.join("calc.sh"), "base\nsub\n").expect("write");
        std::fs::create_dir_all(root.join("ops")).expect("mkdir");
        std::fs::write(root.join("ops/sub.sh"), "sub\n").expect("write");
        drop(attempts);
        let mut back = restore_interrupted(&store, root, t.id);
        back.sort();
        assert_eq!(back, vec!["calc.sh".to_string(), "ops/sub.sh".to_string()]);
        assert_eq!(
            std::fs::read_to_string(root.join("calc.sh")).expect("read"),
            "base\n"
        );
        assert!(!root.join("ops/sub.sh").exists());
        assert!(restore_interrupted(&store, root, 99).is_empty());
        std::fs::write(store.join("7.json"), "not json").expect("write");
        assert!(restore_interrupted(&store, root, 7).is_empty());
    }
    use team::registration::register;
    use team::testing::task;

    fn one_task(owns: &[&str]) -> Task {
        register(&[task("1", "Add sub", owns, &[])]).tasks.remove(0)
    }

    #[test]
    fn a_lost_attempts_files_are_put_back_at_the_next_claim_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::write(root.join("calc.sh"), "base\n").expect("write");
        let t = one_task(&["ops/sub.sh", "calc.sh", "ops/", "../outside", "src/*.rs"]);
        let mut attempts = Attempts::default();
        let work = || {
            std::fs::create_dir_all(root.join("ops")).expect("mkdir");
            std::fs::write(root.join("ops/sub.sh"), "sub\n").expect("write");
            std::fs::write(root.join("calc.sh"), "base\nsub\n").expect("write");
        };
        assert_eq!(attempts.claimed(root, &t), Vec::<String>::new());
        work();
        attempts.lost(1);
        assert_eq!(
            attempts.claimed(root, &t),
            vec!["ops/sub.sh".to_string(), "calc.sh".to_string()]
        );
        assert!(!root.join("ops/sub.sh").exists());
        let calc = || std::fs::read_to_string(root.join("calc.sh")).expect("read");
        assert_eq!(calc(), "base\n", "as the lost attempt found it");
        work();
        // An attempt given back by the judge keeps its work for the next one.
        assert_eq!(attempts.claimed(root, &t), Vec::<String>::new());
        assert_eq!(calc(), "base\nsub\n");
    }

    #[test]
    fn only_files_inside_the_repository_are_kept() {
        assert!(inside("ops/sub.sh") && inside("./calc.sh"));
        assert!(!inside("../outside") && !inside("/etc/passwd"));
    }

    #[test]
    fn the_holder_of_a_task_is_found_on_the_board() {
        let mut t = one_task(&["calc.sh"]);
        t.status = TaskStatus::InProgress {
            claimer: "implementer-1".into(),
        };
        let board = Board::new(vec![t], 3);
        assert_eq!(held_by(&board, "implementer-1"), Some(1));
        assert_eq!(held_by(&board, "implementer-2"), None);
    }
}
