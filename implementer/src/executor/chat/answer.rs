//! Reading a model's answer, fail-closed. Two forms are understood:
//! - whole-file replacements: a line `FILE: <path>` (also as a heading, `### FILE: <path>`, or
//!   in bold or backticks) followed by a fenced code block holding the whole new content; a
//!   fence whose info string names the path (```` ```src/a.rs ```` or ```` ```rust src/a.rs ````)
//!   works without the line;
//! - a unified diff, fenced as ```` ```diff ```` / ```` ```patch ```` or bare in the text.
//!
//! Everything else is prose, kept for the judge. A code block that names no file, a block that
//! is never closed (a cut-off answer), two answers for one path, a malformed diff, or an answer
//! with no file at all is an error naming what was wrong: nothing of such an answer is applied.

use super::patch::{self, FilePatch};

/// One change the answer asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Edit {
    /// The whole new content of a file.
    Replace {
        /// The path as the answer wrote it.
        path: String,
        /// The content, ending in a newline.
        content: String,
    },
    /// A unified diff of one file.
    Patch(FilePatch),
}

/// An answer read: its edits in order and its prose (everything outside them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Answer {
    /// The changes asked for.
    pub(super) edits: Vec<Edit>,
    /// The text around them.
    pub(super) prose: String,
}

/// Reads `text`; see the module documentation for what is accepted.
pub(super) fn read(text: &str) -> Result<Answer, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut edits = Vec::new();
    let mut prose = String::new();
    let mut named: Option<String> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(info) = line.trim_start().strip_prefix("```") {
            let close = (i + 1..lines.len())
                .find(|&j| lines[j].trim() == "```")
                .ok_or_else(|| {
                    format!(
                        "the code block opened on line {} is never closed (was the answer cut off?)",
                        i + 1
                    )
                })?;
            let body = &lines[i + 1..close];
            let info = info.trim();
            let lang = info.split([' ', ':']).next().unwrap_or_default();
            let is_diff = matches!(lang, "diff" | "patch")
                || body
                    .iter()
                    .position(|l| !l.trim().is_empty())
                    .is_some_and(|k| {
                        body[k].starts_with("diff --git ") || patch::starts_file(body, k)
                    });
            if is_diff {
                let start = body.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
                let (files, end) = patch::parse(body, start)?;
                if body[end..].iter().any(|l| !l.trim().is_empty()) {
                    return Err(format!(
                        "the diff block opened on line {} holds more than a diff from line {}",
                        i + 1,
                        i + 2 + end
                    ));
                }
                edits.extend(files.into_iter().map(Edit::Patch));
            } else {
                let path = path_in_info(info).or(named.take()).ok_or_else(|| {
                    format!(
                        "the code block opened on line {} names no file: write `FILE: <path>` on the line before it",
                        i + 1
                    )
                })?;
                let mut content = body.join("\n");
                if !content.is_empty() {
                    content.push('\n');
                }
                edits.push(Edit::Replace { path, content });
            }
            named = None;
            i = close + 1;
            continue;
        }
        if let Some(path) = file_line(line) {
            named = Some(path);
        } else if line.starts_with("diff --git ") || patch::starts_file(&lines, i) {
            let (files, end) = patch::parse(&lines, i)?;
            edits.extend(files.into_iter().map(Edit::Patch));
            i = end;
            continue;
        } else {
            if !line.trim().is_empty() {
                // Prose between a `FILE:` line and its block detaches the name.
                named = None;
            }
            prose.push_str(line);
            prose.push('\n');
        }
        i += 1;
    }
    if edits.is_empty() {
        return Err(
            "the answer holds no file: neither a `FILE: <path>` line followed by a code block with the whole file, nor a unified diff".into(),
        );
    }
    let mut seen = std::collections::BTreeSet::new();
    for edit in &edits {
        let path = match edit {
            Edit::Replace { path, .. } => path.clone(),
            Edit::Patch(p) => p.new.clone().or_else(|| p.old.clone()).unwrap_or_default(),
        };
        if !seen.insert(path.clone()) {
            return Err(format!(
                "the answer changes `{path}` twice: give each file once"
            ));
        }
    }
    Ok(Answer {
        edits,
        prose: prose.trim().to_string(),
    })
}

/// The path of a `FILE: <path>` line, in whatever dress (`### File: `a.rs``, `**FILE: a.rs**`).
fn file_line(line: &str) -> Option<String> {
    let bare = line
        .trim()
        .trim_start_matches('#')
        .trim()
        .trim_matches('*')
        .trim();
    let rest = bare
        .strip_prefix("FILE:")
        .or_else(|| bare.strip_prefix("File:"))
        .or_else(|| bare.strip_prefix("file:"))?;
    let path = rest.trim().trim_matches(['`', '*', '"']).trim();
    (!path.is_empty() && !path.contains(char::is_whitespace)).then(|| path.to_string())
}

/// A path in a fence's info string: a word with a `/` or a `.` in it (`src/a.rs`, `lib.rs`).
fn path_in_info(info: &str) -> Option<String> {
    info.split([' ', ':'])
        .find(|w| w.contains(['/', '.']) && !w.starts_with('.'))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_files_are_read_under_their_file_line_or_from_the_fence() {
        let answer = read(
            "I changed two files.\n\n### FILE: `src/a.rs`\n```rust\nfn a() {}\n```\n\n```rust src/b.rs\nfn b() {}\n\n```\nThat is the change.\n",
        )
        .expect("two files");
        assert_eq!(
            answer.edits,
            vec![
                Edit::Replace {
                    path: "src/a.rs".into(),
                    content: "fn a() {}\n".into()
                },
                Edit::Replace {
                    path: "src/b.rs".into(),
                    content: "fn b() {}\n\n".into()
                },
            ]
        );
        assert_eq!(
            answer.prose,
            "I changed two files.\n\n\nThat is the change."
        );
    }

    #[test]
    fn prose_and_anonymous_or_unclosed_blocks_are_refused_with_the_reason() {
        let none = read("Sure! Here is how you could do it: add a function.").unwrap_err();
        assert!(none.starts_with("the answer holds no file"), "{none}");
        let anonymous = read("Here:\n```rust\nfn a() {}\n```\n").unwrap_err();
        assert!(anonymous.contains("names no file"), "{anonymous}");
        let detached =
            read("FILE: a.rs\nAnd now the code:\n```rust\nfn a() {}\n```\n").unwrap_err();
        assert!(detached.contains("names no file"), "{detached}");
        let cut = read("FILE: a.rs\n```rust\nfn a() {\n").unwrap_err();
        assert!(cut.contains("never closed"), "{cut}");
        let twice = read("FILE: a.rs\n```\nx\n```\nFILE: a.rs\n```\ny\n```\n").unwrap_err();
        assert!(twice.contains("`a.rs` twice"), "{twice}");
    }

    #[test]
    fn a_diff_is_read_fenced_or_bare() {
        let diff = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n";
        for text in [
            format!("Change:\n```diff\n{diff}```\n"),
            format!("Change:\n{diff}\nThat fixes it.\n"),
        ] {
            let answer = read(&text).expect("a diff");
            assert_eq!(answer.edits.len(), 1, "{text}");
            assert!(
                matches!(&answer.edits[0], Edit::Patch(p) if p.new.as_deref() == Some("a.txt"))
            );
        }
        assert!(read("```diff\n--- a/a.txt\n+++ b/a.txt\n```\n").is_err());
    }
}
