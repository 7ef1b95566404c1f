//! `Plans.md`: every heading or list item carrying `cc:TODO`, `cc:WIP` or `cc:done` is a task.
//! An optional number (`4.1`) may open its subject; `owns:` (backticked paths) and `depends:`
//! (ids) may follow on the same line or in its body; the body is everything under it — for a
//! heading, up to the next heading of the same or a higher level; for a list item, its indented
//! lines. Fenced code is never read as tasks. `[high]` on the task's line (any case) marks it
//! high-priority: the Lead reviews it as soon as it is complete.

use super::{check_ids, Marker, Plan, PlanError, PlanFormat, PlanTask};

/// Parses Plans.md's text; `file` names it in tasks and errors.
pub fn parse_plans_md(text: &str, file: &str) -> Result<Plan, PlanError> {
    let mut tasks: Vec<PlanTask> = Vec::new();
    let mut open: Option<(Kind, usize)> = None; // the task whose body is being read
    let mut in_fence = false;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let (kind, rest) = classify(line);
        if let (Some(marker), Kind::Heading(_) | Kind::Item(_)) = (find_marker(line), kind) {
            let head = parse_head(rest);
            let ordinal = tasks.len() + 1;
            tasks.push(PlanTask {
                numbered: head.number.is_some(),
                id: head.number.unwrap_or_else(|| format!("task-{ordinal}")),
                title: head.title,
                description: String::new(),
                subtasks: 0,
                owns: head.owns,
                depends: head.depends,
                marker: marker.0,
                high_priority: head.high_priority,
                file: file.to_string(),
                line: index as u32 + 1,
            });
            open = Some((kind, tasks.len() - 1));
            continue;
        }
        let Some((task_kind, at)) = open else {
            continue;
        };
        if line.trim().is_empty() {
            continue;
        }
        let ends = match (task_kind, kind) {
            (Kind::Heading(level), Kind::Heading(other)) => other <= level,
            (Kind::Item(indent), _) => {
                indent_of(line) <= indent || matches!(kind, Kind::Heading(_))
            }
            _ => false,
        };
        if ends {
            open = None;
            continue;
        }
        let is_item = matches!(kind, Kind::Item(_));
        let body = strip_checkbox(if is_item { rest } else { line.trim() });
        let parts = annotations(body);
        let task = &mut tasks[at];
        task.owns.extend(parts.owns);
        task.depends.extend(parts.depends);
        let text = clean_title(parts.before);
        if !text.is_empty() {
            if !task.description.is_empty() {
                task.description.push('\n');
            }
            task.description.push_str(&text);
            task.subtasks += u32::from(is_item);
        }
    }
    for t in &mut tasks {
        dedup(&mut t.owns);
        dedup(&mut t.depends);
    }
    if tasks.is_empty() {
        return Err(PlanError::Empty {
            file: file.to_string(),
        });
    }
    check_ids(&tasks)?;
    Ok(Plan {
        format: PlanFormat::PlansMd,
        files: vec![file.to_string()],
        tasks,
    })
}

/// What a line is, for task boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// `#`… heading of this level.
    Heading(usize),
    /// List item with this indentation (columns; a tab counts 4).
    Item(usize),
    /// Anything else.
    Other,
}

/// The line's kind and its text after the heading hashes or the bullet (an ordered item keeps
/// its number: it is the task's number).
pub(super) fn classify(line: &str) -> (Kind, &str) {
    let indent = indent_of(line);
    let body = line.trim_start();
    let hashes = body.chars().take_while(|&c| c == '#').count();
    if (1..=6).contains(&hashes) && indent < 4 {
        let after = &body[hashes..];
        if after.is_empty() || after.starts_with([' ', '\t']) {
            return (Kind::Heading(hashes), after.trim());
        }
    }
    for bullet in ['-', '*', '+'] {
        if let Some(after) = body.strip_prefix(bullet) {
            if after.starts_with([' ', '\t']) {
                return (Kind::Item(indent), after.trim());
            }
        }
    }
    let digits = body.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        let after = &body[digits..];
        if (after.starts_with(". ") || after.starts_with(") ")) && digits < 10 {
            return (Kind::Item(indent), body.trim());
        }
    }
    (Kind::Other, body.trim())
}

/// Leading indentation in columns.
fn indent_of(line: &str) -> usize {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// The marker on the line and its byte span (`cc:TODO`), case-insensitive; `cc:` glued to a
/// word (`acc:todo`) is not a marker.
pub(super) fn find_marker(line: &str) -> Option<(Marker, usize, usize)> {
    let lower = line.to_ascii_lowercase();
    let mut from = 0;
    while let Some(found) = lower[from..].find("cc:") {
        let start = from + found;
        let glued = lower[..start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let after = &lower[start + 3..];
        let word = [
            ("todo", Marker::Todo),
            ("wip", Marker::Wip),
            ("done", Marker::Done),
            ("完了", Marker::Done),
        ]
        .into_iter()
        .find(|(w, _)| after.starts_with(w));
        if let (false, Some((w, marker))) = (glued, word) {
            let end = start + 3 + w.len();
            let boundary = !lower[end..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric());
            if boundary {
                return Some((marker, start, end));
            }
        }
        from = start + 3;
    }
    None
}

struct Head {
    number: Option<String>,
    title: String,
    owns: Vec<String>,
    depends: Vec<String>,
    high_priority: bool,
}

/// The high-priority tag of a task line.
const HIGH: &str = "[high]";

fn parse_head(rest: &str) -> Head {
    let without_marker = remove_marker(rest);
    let (without_tag, high_priority) = remove_high_tag(&without_marker);
    let without_comments = remove_comments(&without_tag);
    let parts = annotations(strip_checkbox(&without_comments));
    let (number, title) = split_number(parts.before);
    Head {
        number,
        title: clean_title(title),
        owns: parts.owns,
        depends: parts.depends,
        high_priority,
    }
}

/// The text without its `[high]` tags (any case), and whether it had one.
fn remove_high_tag(text: &str) -> (String, bool) {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some(found) = lower[from..].find(HIGH) {
        out.push_str(&text[from..from + found]);
        from += found + HIGH.len();
    }
    out.push_str(&text[from..]);
    let tagged = from > 0;
    (out, tagged)
}

/// The text with the marker and whatever wraps it (`<!-- -->`, backticks, brackets) removed.
fn remove_marker(text: &str) -> String {
    let Some((_, start, end)) = find_marker(text) else {
        return text.to_string();
    };
    let (mut before, mut after) = (text[..start].trim_end(), text[end..].trim_start());
    for (open, close) in [("<!--", "-->"), ("`", "`"), ("[", "]"), ("(", ")")] {
        if before.ends_with(open) && after.starts_with(close) {
            before = before[..before.len() - open.len()].trim_end();
            after = after[close.len()..].trim_start();
        }
    }
    format!("{before} {after}")
}

/// Removes `<!-- … -->` comments (`<!-- feature:tdd -->`).
fn remove_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        match rest[start..].find("-->") {
            Some(end) => rest = &rest[start + end + 3..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

fn strip_checkbox(text: &str) -> &str {
    for box_ in ["[ ]", "[x]", "[X]"] {
        if let Some(after) = text.strip_prefix(box_) {
            return after.trim_start();
        }
    }
    text
}

/// A leading task number (`4.1`, `4.1.`, `3)`, `#4.1:`) and the rest.
fn split_number(text: &str) -> (Option<String>, &str) {
    let body = text.trim_start().trim_start_matches('#');
    let len = body
        .char_indices()
        .take_while(|(_, c)| c.is_ascii_digit() || *c == '.')
        .last()
        .map_or(0, |(i, c)| i + c.len_utf8());
    let number = body[..len].trim_end_matches('.');
    let after = &body[len..];
    let separated = after.is_empty() || after.starts_with([' ', '\t', ':', ')']);
    if number.is_empty() || !number.starts_with(|c: char| c.is_ascii_digit()) || !separated {
        return (None, text);
    }
    let title = after.trim_start_matches([':', ')']).trim_start();
    (Some(number.to_string()), title)
}

/// Trims decoration left around a subject once annotations and markers are gone.
fn clean_title(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .join(" ")
        .trim_matches(|c: char| c.is_whitespace() || "(-–—|,;".contains(c))
        .to_string()
}

/// A line split into its text and its `owns:` / `depends:` annotations.
pub(super) struct Annotations<'a> {
    pub(super) before: &'a str,
    pub(super) owns: Vec<String>,
    pub(super) depends: Vec<String>,
}

const OWNS: &[&str] = &["owns:"];
const DEPENDS: &[&str] = &["depends:", "depends_on:", "blocked_by:", "blockedby:"];

pub(super) fn annotations(text: &str) -> Annotations<'_> {
    let lower = text.to_ascii_lowercase();
    let mut hits: Vec<(usize, usize, bool)> = Vec::new(); // start, end, is owns
    for (words, owns) in [(OWNS, true), (DEPENDS, false)] {
        for word in words {
            let mut from = 0;
            while let Some(found) = lower[from..].find(word) {
                let start = from + found;
                let glued = lower[..start]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_');
                if !glued {
                    hits.push((start, start + word.len(), owns));
                }
                from = start + word.len();
            }
        }
    }
    hits.sort_unstable();
    let mut parts = Annotations {
        before: hits.first().map_or(text, |h| &text[..h.0]),
        owns: Vec::new(),
        depends: Vec::new(),
    };
    for (i, &(_, end, owns)) in hits.iter().enumerate() {
        let stop = hits.get(i + 1).map_or(text.len(), |h| h.0);
        let value = &text[end..stop];
        if owns {
            parts.owns.extend(paths(value));
        } else {
            parts.depends.extend(ids(value));
        }
    }
    parts
}

/// Backticked paths when there are any, else comma or space separated words; `auto` (the
/// Implementer decides) declares nothing.
fn paths(value: &str) -> Vec<String> {
    let spans: Vec<&str> = value.split('`').skip(1).step_by(2).collect();
    let words: Vec<&str> = if spans.is_empty() {
        value.split([',', ' ', '\t']).collect()
    } else {
        spans
    };
    words
        .into_iter()
        .map(|w| w.trim().trim_matches(|c: char| "()[]*_;".contains(c)))
        .map(|w| w.strip_prefix("./").unwrap_or(w))
        .filter(|w| !w.is_empty() && !matches!(*w, "auto" | "none" | "-"))
        .map(str::to_string)
        .collect()
}

fn ids(value: &str) -> Vec<String> {
    value
        .split([',', ' ', '\t'])
        .map(|w| w.trim_matches(|c: char| "#`()[]*_;.".contains(c)))
        .filter(|w| !w.is_empty() && !matches!(*w, "none" | "-" | "nothing"))
        .map(str::to_string)
        .collect()
}

/// Drops repeated items, keeping the first of each: linear, since a task line may name
/// thousands of dependencies.
fn dedup(items: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    items.retain(|i| seen.insert(i.clone()));
}

#[cfg(test)]
mod tests;
