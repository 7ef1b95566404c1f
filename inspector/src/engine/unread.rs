//! The files a session's change wrote that no rule will read. A skip decided by a file's own
//! path, size or text (vendored, build output, generated, minified, too large) and an ignore
//! file (a tracked file a `.gitignore` names) are both within the change's reach: it can put
//! its code under `vendor/`, start it with `// Code generated … DO NOT EDIT.`, or ignore its own
//! file. What it wrote there is reported as not reviewed (`quality/unreviewed-file`), never
//! passed as clean; the same files in a whole-repository review stay listed skips.

use super::diff::{Changes, FileChange};
use super::source::Language;
use super::walk::Walked;
use protocol::Skipped;
use std::path::Path;

/// The skip reason of a changed file the walk never met: an ignore file kept it out.
pub const IGNORED: &str = "ignored by an ignore file (.gitignore, .ignore or git's exclude)";

/// A file the change under review wrote that no rule reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadChange {
    /// Repository-relative path.
    pub path: String,
    /// Why no rule reads it (the walk's skip reason).
    pub reason: String,
    /// The first line the change wrote in it.
    pub line: u32,
}

/// The first line `change` wrote; `None` when it only deleted lines (nothing new to read).
fn first_written(change: &FileChange) -> Option<u32> {
    if change.new_file {
        return Some(1);
    }
    change.added.first().map(|&(start, _)| start)
}

/// The files `changes` wrote that `walked` will not have read: its chosen skips, and the changed
/// files of a known language that `accepts` takes but the walk never met (an ignore file named
/// them). The latter are added to `walked.skipped`, so coverage lists them too.
pub(crate) fn unread_changes(
    root: &Path,
    changes: &Changes,
    walked: &mut Walked,
    accepts: &dyn Fn(&str) -> bool,
) -> Vec<UnreadChange> {
    let written = |path: &str| changes.files.get(path).and_then(first_written);
    let mut unread: Vec<UnreadChange> = walked
        .chosen
        .iter()
        .filter_map(|s| {
            written(&s.path).map(|line| UnreadChange {
                path: s.path.clone(),
                reason: s.reason.clone(),
                line,
            })
        })
        .collect();
    let met = |path: &str| {
        walked
            .files
            .binary_search_by(|f| f.rel_path.as_str().cmp(path))
            .is_ok()
            || walked.skipped.iter().any(|s| s.path == path)
    };
    let mut ignored = Vec::new();
    for (path, change) in &changes.files {
        let Some(line) = first_written(change) else {
            continue;
        };
        // retake's own state is never source, whatever a change puts there.
        if path.starts_with(".retake/")
            || Language::of(path).is_none()
            || !accepts(path)
            || met(path)
            || !root.join(path).is_file()
        {
            continue;
        }
        ignored.push(Skipped {
            path: path.clone(),
            reason: IGNORED.to_string(),
        });
        unread.push(UnreadChange {
            path: path.clone(),
            reason: IGNORED.to_string(),
            line,
        });
    }
    if !ignored.is_empty() {
        walked.skipped.extend(ignored);
        walked.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    }
    unread.sort_by(|a, b| a.path.cmp(&b.path));
    unread
}
