//! A session's changes — the files changed against the merge base and their changed lines,
//! parsed from `git diff -U0` — and the `--filter` that limits findings to them.
//!
//! What each filter keeps (decisions the spec leaves open):
//! - `nofilter`: everything the Inspectors found in the changed files.
//! - `file`: findings in changed files.
//! - `diff_context`: findings on changed lines or within [`CONTEXT_LINES`] of one (a deletion
//!   touches the lines on both sides of it); a finding without a line is kept when its file
//!   changed.
//! - `added` (default): findings on added (or rewritten) lines; a finding without a line is
//!   kept only when its whole file is new. The triage keeps the changed files' other findings
//!   apart as "already there" instead of dropping them (`engine/triage.rs`).
//!
//! Under every filter, a finding in the spec layout (`specs/`, `steering/`) and a test run's
//! result (a failing test or a test command that could not run is a fact about the change
//! wherever the test lives — the Inspectors spec calls failures outside the changed scope regressions)
//! are kept. Other findings that are not about source code — repository-wide ones (empty
//! path), those in a document that is not source (design.md) — pass through
//! `diff_context` and `file`; `added` keeps only those about a document the change touched,
//! since a project finding the change did not cause is already there.

use super::source::Language;
use protocol::{Category, DiffFilter, Finding};
use std::collections::BTreeMap;

/// Lines either side of a change that `diff_context` keeps.
pub const CONTEXT_LINES: u32 = 3;

/// Categories whose findings report a test run, not a line of the change.
const RUN_CATEGORIES: [Category; 3] = [
    Category::TestFailure,
    Category::EnvironmentError,
    Category::Regression,
];

/// Folders of the spec layout, whose findings are about the work, not about changed code.
const SPEC_LAYOUT: [&str; 2] = ["specs/", "steering/"];

/// How one file changed, in the new file's 1-based line numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileChange {
    /// Added or rewritten lines, as inclusive ranges.
    pub added: Vec<(u32, u32)>,
    /// Deletions, each after this line of the new file (0: at the top).
    pub removed_after: Vec<u32>,
    /// The file did not exist at the merge base (new or untracked): every line is added.
    pub new_file: bool,
}

impl FileChange {
    /// A file that is new as a whole.
    pub fn new_file() -> FileChange {
        FileChange {
            new_file: true,
            ..FileChange::default()
        }
    }

    /// Whether `line` was added or rewritten.
    pub fn is_added(&self, line: u32) -> bool {
        self.new_file || self.added.iter().any(|&(a, b)| a <= line && line <= b)
    }

    /// Whether `line` is a changed line or within [`CONTEXT_LINES`] of one.
    pub fn is_near_change(&self, line: u32) -> bool {
        let near = |a: u32, b: u32| line + CONTEXT_LINES >= a && line <= b + CONTEXT_LINES;
        self.new_file
            || self.added.iter().any(|&(a, b)| near(a, b))
            // A deletion after line n touches lines n and n + 1.
            || self.removed_after.iter().any(|&n| near(n.max(1), n + 1))
    }
}

/// The changes of a session review.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// The base revision as given (`main`, `origin/HEAD`).
    pub base: String,
    /// The merge base of `base` and `HEAD` the diff is taken against.
    pub merge_base: String,
    /// Changed files that still exist (repository-relative) and how they changed.
    pub files: BTreeMap<String, FileChange>,
}

impl Changes {
    /// Whether `filter` keeps `finding` (see the module documentation).
    pub fn keeps(&self, filter: DiffFilter, finding: &Finding) -> bool {
        if filter == DiffFilter::NoFilter || always_kept(finding) {
            return true;
        }
        if filter == DiffFilter::Added && !is_source(finding) {
            // A repository-wide finding, or one about a document the change left alone, was
            // not caused by the change; one about a document it changed was.
            return self.files.contains_key(&finding.location.path);
        }
        if !is_source(finding) {
            return true;
        }
        let Some(change) = self.files.get(&finding.location.path) else {
            return false;
        };
        match (filter, finding.location.line) {
            (DiffFilter::Added, Some(line)) => change.is_added(line),
            (DiffFilter::Added, None) => change.new_file,
            (DiffFilter::DiffContext, Some(line)) => change.is_near_change(line),
            _ => true,
        }
    }

    /// Whether `finding` is about a changed file or not about one source file (repository-wide,
    /// a document): what `added` keeps apart as already there rather than dropping it.
    pub fn concerns(&self, finding: &Finding) -> bool {
        !is_source(finding) || self.files.contains_key(&finding.location.path)
    }
}

/// A test run's result, or a finding in the spec layout: kept under every filter.
fn always_kept(f: &Finding) -> bool {
    let path = f.location.path.as_str();
    // A break of a public API is what the change did even where no line was added (an item
    // removed); the rule reads only what the change touched.
    SPEC_LAYOUT.iter().any(|dir| path.starts_with(dir))
        || f.category_in(&RUN_CATEGORIES)
        || f.rule == "interface/breaking-change"
}

/// Whether the finding is about a source file (not repository-wide, not a document).
fn is_source(f: &Finding) -> bool {
    let path = f.location.path.as_str();
    !path.is_empty() && Language::of(path).is_some()
}

/// Reads the output of `git diff -U0 --src-prefix=a/ --dst-prefix=b/` into changed lines per
/// file. Deleted files are left out; files without hunks (binary, mode-only) get an entry.
pub fn parse_unified_zero(diff: &str) -> BTreeMap<String, FileChange> {
    let mut files: BTreeMap<String, FileChange> = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut from_nothing = false;
    // Lines still owed by the current hunk: an added line reading `+++ b/x` is content.
    let (mut old_left, mut new_left) = (0u32, 0u32);
    for line in diff.lines() {
        if old_left > 0 || new_left > 0 {
            match line.as_bytes().first() {
                Some(b'-') => old_left = old_left.saturating_sub(1),
                Some(b'+') => new_left = new_left.saturating_sub(1),
                _ => {}
            }
            continue;
        }
        if line.starts_with("diff --git ") {
            current = None;
            from_nothing = false;
        } else if line == "--- /dev/null" {
            from_nothing = true;
        } else if let Some(path) = line.strip_prefix("+++ ") {
            current = new_side_path(path);
            if let Some(p) = &current {
                let entry = files.entry(p.clone()).or_default();
                entry.new_file = from_nothing;
            }
        } else if let Some(hunk) = line.strip_prefix("@@ ") {
            let Some(((_, old_len), (start, len))) = hunk_ranges(hunk) else {
                continue;
            };
            (old_left, new_left) = (old_len, len);
            let Some(entry) = current.as_ref().and_then(|p| files.get_mut(p)) else {
                continue;
            };
            if len == 0 {
                entry.removed_after.push(start);
            } else {
                entry.added.push((start, start + len - 1));
            }
        } else if let Some(rest) = line.strip_prefix("Binary files ") {
            // `Binary files a/x and b/x differ`: no `+++` line, but the file changed.
            if let Some(p) = rest
                .rsplit_once(" and ")
                .and_then(|(_, b)| b.strip_suffix(" differ"))
                .and_then(new_side_path)
            {
                files.entry(p).or_default();
            }
        }
    }
    files
}

/// `b/src/a.rs` (or git's C-quoted form) → `src/a.rs`; `/dev/null` → `None`.
fn new_side_path(raw: &str) -> Option<String> {
    let raw = raw.trim_end_matches('\t');
    let path = if raw.starts_with('"') {
        unquote(raw)?
    } else {
        raw.to_string()
    };
    path.strip_prefix("b/").map(str::to_string)
}

/// Undoes git's C-style quoting of unusual paths (`"b/a\tb"`, octal bytes for non-ASCII).
fn unquote(quoted: &str) -> Option<String> {
    let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut bytes = Vec::with_capacity(inner.len());
    let mut chars = inner.bytes().peekable();
    while let Some(b) = chars.next() {
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        match chars.next()? {
            b'n' => bytes.push(b'\n'),
            b't' => bytes.push(b'\t'),
            b'r' => bytes.push(b'\r'),
            d @ b'0'..=b'7' => {
                let mut value = u32::from(d - b'0');
                for _ in 0..2 {
                    let next = chars.next_if(|c| (b'0'..=b'7').contains(c))?;
                    value = value * 8 + u32::from(next - b'0');
                }
                bytes.push(u8::try_from(value).ok()?);
            }
            other => bytes.push(other),
        }
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// `-a[,b] +c[,d] @@ …` → `((a, b), (c, d))`; a missing count is 1.
fn hunk_ranges(hunk: &str) -> Option<((u32, u32), (u32, u32))> {
    let mut parts = hunk.split_whitespace();
    let old = range(parts.next()?.strip_prefix('-')?)?;
    let new = range(parts.next()?.strip_prefix('+')?)?;
    Some((old, new))
}

fn range(text: &str) -> Option<(u32, u32)> {
    match text.split_once(',') {
        Some((start, len)) => Some((start.parse().ok()?, len.parse().ok()?)),
        None => Some((text.parse().ok()?, 1)),
    }
}

#[cfg(test)]
mod tests;
