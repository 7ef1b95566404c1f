//! Unified diffs, read and applied in memory (the `git apply --check` of the `chat` executor):
//! `--- a/path` / `+++ b/path` headers (a `diff --git`, `index` or mode line before them is
//! skipped), `@@ -l,n +l,n @@` hunks of context, removed and added lines. A hunk applies when
//! its old lines (context and removed) are found exactly — at the line its header names, else
//! at the nearest other place after the previous hunk — and never with fuzz; the header's
//! counts are not trusted (models miscount), the lines are. A diff that does not apply is an
//! error naming the file and the hunk; nothing is ever half applied.

/// One file's part of a diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FilePatch {
    /// The path before (`None` for a new file, `--- /dev/null`), `a/` taken off.
    pub(super) old: Option<String>,
    /// The path after (`None` for a deletion, `+++ /dev/null`), `b/` taken off.
    pub(super) new: Option<String>,
    hunks: Vec<Hunk>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Hunk {
    /// The old start line (from 1; 0 for a hunk into an empty file).
    old_start: usize,
    lines: Vec<Line>,
    /// A `\ No newline at end of file` followed the hunk's last new-side line.
    new_lacks_final_newline: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Line {
    Context(String),
    Removed(String),
    Added(String),
}

/// Whether `lines[at]` starts a file header (`--- ` then `+++ `).
pub(super) fn starts_file(lines: &[&str], at: usize) -> bool {
    lines[at].starts_with("--- ") && lines.get(at + 1).is_some_and(|l| l.starts_with("+++ "))
}

/// Whether `line` may precede a file header in a git diff.
fn is_preamble(line: &str) -> bool {
    [
        "diff --git ",
        "index ",
        "new file mode",
        "deleted file mode",
        "old mode",
        "new mode",
        "similarity index",
    ]
    .iter()
    .any(|p| line.starts_with(p))
}

/// Reads the diff starting at `lines[at]`: its file patches and the index of the first line
/// after it. Errors name what is malformed.
pub(super) fn parse(lines: &[&str], mut at: usize) -> Result<(Vec<FilePatch>, usize), String> {
    let mut files = Vec::new();
    loop {
        while at < lines.len() && is_preamble(lines[at]) {
            at += 1;
        }
        if at >= lines.len() || !starts_file(lines, at) {
            break;
        }
        let old = header_path(&lines[at][4..], "a/");
        let new = header_path(&lines[at + 1][4..], "b/");
        at += 2;
        let mut hunks = Vec::new();
        while at < lines.len() && lines[at].starts_with("@@") {
            let (hunk, next) = parse_hunk(lines, at)?;
            hunks.push(hunk);
            at = next;
        }
        let name = new.clone().or_else(|| old.clone()).unwrap_or_default();
        if hunks.is_empty() {
            return Err(format!("the diff of `{name}` has no hunk (`@@ … @@`)"));
        }
        files.push(FilePatch { old, new, hunks });
    }
    if files.is_empty() {
        return Err("no `--- a/<path>` / `+++ b/<path>` header in the diff".into());
    }
    Ok((files, at))
}

/// The path of a `---`/`+++` header (a trailing tab and timestamp cut off), `None` for
/// `/dev/null`.
fn header_path(text: &str, prefix: &str) -> Option<String> {
    let path = text.split('\t').next().unwrap_or_default().trim();
    if path == "/dev/null" {
        return None;
    }
    Some(path.strip_prefix(prefix).unwrap_or(path).to_string())
}

fn parse_hunk(lines: &[&str], at: usize) -> Result<(Hunk, usize), String> {
    let header = lines[at];
    let old_start = header
        .strip_prefix("@@ -")
        .and_then(|r| r.split([',', ' ']).next())
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| format!("a malformed hunk header: `{header}`"))?;
    let mut hunk = Hunk {
        old_start,
        lines: Vec::new(),
        new_lacks_final_newline: false,
    };
    let mut i = at + 1;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with("@@") || starts_file(lines, i) || is_preamble(line) {
            break;
        }
        match line.chars().next() {
            Some(' ') => hunk.lines.push(Line::Context(line[1..].to_string())),
            Some('-') => hunk.lines.push(Line::Removed(line[1..].to_string())),
            Some('+') => hunk.lines.push(Line::Added(line[1..].to_string())),
            Some('\\') => {
                if matches!(hunk.lines.last(), Some(Line::Added(_) | Line::Context(_))) {
                    hunk.new_lacks_final_newline = true;
                }
            }
            // An empty line inside a hunk is an empty context line whose space was lost, as
            // long as more of the hunk follows; otherwise the diff ended.
            None if continues_hunk(lines, i + 1) => hunk.lines.push(Line::Context(String::new())),
            _ => break,
        }
        i += 1;
    }
    if hunk.lines.is_empty() {
        return Err(format!("the hunk `{header}` has no lines"));
    }
    Ok((hunk, i))
}

/// Whether a hunk line follows from `at` on (past empty lines).
fn continues_hunk(lines: &[&str], at: usize) -> bool {
    lines[at.min(lines.len())..]
        .iter()
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.starts_with([' ', '-', '+', '\\']) && !l.starts_with("--- "))
}

/// `text` with every hunk of `patch` applied; `current` is `None` for a file that does not
/// exist. `name` is the path, for the error.
pub(super) fn apply(
    patch: &FilePatch,
    current: Option<&str>,
    name: &str,
) -> Result<String, String> {
    if patch.old.is_none() && current.is_some() {
        return Err(format!("the diff creates `{name}`, which already exists"));
    }
    if patch.old.is_some() && current.is_none() {
        return Err(format!("the diff changes `{name}`, which does not exist"));
    }
    let text = current.unwrap_or_default();
    let mut final_newline = text.is_empty() || text.ends_with('\n');
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut floor = 0;
    for (n, hunk) in patch.hunks.iter().enumerate() {
        let old: Vec<&str> = hunk
            .lines
            .iter()
            .filter_map(|l| match l {
                Line::Context(t) | Line::Removed(t) => Some(t.as_str()),
                Line::Added(_) => None,
            })
            .collect();
        let new: Vec<String> = hunk
            .lines
            .iter()
            .filter_map(|l| match l {
                Line::Context(t) | Line::Added(t) => Some(t.clone()),
                Line::Removed(_) => None,
            })
            .collect();
        let wanted = hunk.old_start.saturating_sub(1).max(floor);
        let at = find(&lines, &old, wanted, floor).ok_or_else(|| {
            let first = old.first().copied().unwrap_or_default();
            format!(
                "hunk {} of the diff of `{name}` does not apply: its lines (from `{}`) are not in the file as it is",
                n + 1,
                first.chars().take(80).collect::<String>()
            )
        })?;
        let end = at + old.len();
        let touches_end = end == lines.len();
        lines.splice(at..end, new.iter().cloned());
        floor = at + new.len();
        if touches_end {
            final_newline = !hunk.new_lacks_final_newline;
        }
    }
    let mut out = lines.join("\n");
    if final_newline && !out.is_empty() {
        out.push('\n');
    }
    Ok(out)
}

/// Where `old` occurs in `lines` at or after `floor`, nearest to `wanted`.
fn find(lines: &[String], old: &[&str], wanted: usize, floor: usize) -> Option<usize> {
    let fits = |at: usize| {
        at + old.len() <= lines.len()
            && lines[at..at + old.len()]
                .iter()
                .zip(old)
                .all(|(a, b)| a == b)
    };
    if old.is_empty() {
        return Some(wanted.min(lines.len()));
    }
    let last = lines.len().checked_sub(old.len())?;
    (0..=last)
        .filter(|at| *at >= floor)
        .filter(|at| fits(*at))
        .min_by_key(|at| at.abs_diff(wanted))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(diff: &str) -> Vec<FilePatch> {
        let lines: Vec<&str> = diff.lines().collect();
        parse(&lines, 0).expect("a diff").0
    }

    #[test]
    fn a_hunk_applies_where_its_lines_are_even_when_the_counts_are_wrong() {
        let patch = &read(
            "--- a/src/a.rs\n+++ b/src/a.rs\n@@ -3,9 +3,9 @@\n fn a() -> i64 {\n-    1\n+    2\n }\n",
        )[0];
        assert_eq!(patch.new.as_deref(), Some("src/a.rs"));
        let before = "//! A.\n\nfn a() -> i64 {\n    1\n}\n";
        assert_eq!(
            apply(patch, Some(before), "src/a.rs").expect("applies"),
            "//! A.\n\nfn a() -> i64 {\n    2\n}\n"
        );
        let err = apply(patch, Some("fn b() {}\n"), "src/a.rs").expect_err("no such lines");
        assert!(
            err.starts_with("hunk 1 of the diff of `src/a.rs` does not apply"),
            "{err}"
        );
        assert!(apply(patch, None, "src/a.rs").is_err());
    }

    #[test]
    fn new_files_and_missing_final_newlines_are_kept_apart() {
        let patch = &read("diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\n")[0];
        assert_eq!(patch.old, None);
        assert_eq!(apply(patch, None, "n.txt").expect("new"), "one\ntwo");
        assert!(apply(patch, Some(""), "n.txt").is_err(), "exists already");
        let lines: Vec<&str> = vec!["--- a/x", "+++ b/x", "no hunk"];
        assert!(parse(&lines, 0).is_err());
    }
}
