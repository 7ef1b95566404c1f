//! Phase C's write-back: the finished tasks become `cc:done` (Plans.md) or `done: true`
//! (tasks.yaml). Pure text transforms: every other byte, line ending included, is kept, and the
//! caller writes the result atomically.

use super::plans_md::{classify, find_marker, parse_plans_md, Kind};
use super::{Marker, PlanError};
use inspector::spec::TaskList;

/// Plans.md's text with the tasks `ids` marked `cc:done` (an unticked `[ ]` box on their line
/// is ticked too); tasks already done are left as they are.
pub fn mark_done_plans_md(text: &str, file: &str, ids: &[&str]) -> Result<String, PlanError> {
    let plan = parse_plans_md(text, file)?;
    let mut lines = Vec::with_capacity(ids.len());
    for id in ids {
        let task = plan.task(id).ok_or_else(|| PlanError::UnknownTask {
            file: file.to_string(),
            id: id.to_string(),
        })?;
        lines.push(task.line as usize - 1);
    }
    let mut out = String::with_capacity(text.len() + 8 * ids.len());
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if lines.contains(&index) {
            out.push_str(&done_line(line));
        } else {
            out.push_str(line);
        }
    }
    Ok(out)
}

fn done_line(line: &str) -> String {
    let mut line = line.to_string();
    if let Some((marker, start, end)) = find_marker(&line) {
        if marker != Marker::Done {
            line.replace_range(start..end, Marker::Done.as_str());
        }
    }
    if let (Kind::Item(_), rest) = classify(&line) {
        if rest.starts_with("[ ]") {
            if let Some(at) = line.find("[ ]") {
                line.replace_range(at..at + 3, "[x]");
            }
        }
    }
    line
}

/// tasks.yaml's text with the tasks `ids` (its own ids, unqualified) set to `done: true`: the
/// task's `done:` value is replaced, or `done: true` is added under its `id:`.
pub fn mark_done_tasks_yaml(text: &str, file: &str, ids: &[&str]) -> Result<String, PlanError> {
    let list = TaskList::parse(text, file).map_err(|e| PlanError::Malformed(e.to_string()))?;
    let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    // Last task first, so that an inserted line never shifts a line still to be edited.
    let mut targets = Vec::with_capacity(ids.len());
    for id in ids {
        let task = list.task(id).ok_or_else(|| PlanError::UnknownTask {
            file: file.to_string(),
            id: id.to_string(),
        })?;
        let next = list
            .tasks
            .iter()
            .map(|t| t.line as usize - 1)
            .filter(|&l| l + 1 > task.line as usize)
            .min()
            .unwrap_or(lines.len());
        targets.push((task.line as usize - 1, next));
    }
    targets.sort_unstable_by(|a, b| b.cmp(a));
    for (id_line, next) in targets {
        set_done(&mut lines, id_line, next);
    }
    Ok(lines.concat())
}

fn set_done(lines: &mut Vec<String>, id_line: usize, next: usize) {
    let Some(line) = lines.get(id_line).cloned() else {
        return;
    };
    if line.contains('{') {
        let mut line = line;
        match line.find("done:") {
            Some(at) => replace_value(&mut line, at + 5),
            None => {
                if let Some(brace) = line.find('{') {
                    line.insert_str(brace + 1, "done: true, ");
                }
            }
        }
        lines[id_line] = line;
        return;
    }
    let key_col = line.find("id:").unwrap_or(0);
    let start = (0..=id_line)
        .rev()
        .find(|&i| lines[i].get(key_col.saturating_sub(2)..key_col) == Some("- "))
        .unwrap_or(id_line);
    for i in start..next.min(lines.len()) {
        let new_item = i > start && lines[i].get(key_col.saturating_sub(2)..key_col) == Some("- ");
        if new_item && key_col >= 2 {
            break;
        }
        if lines[i].get(key_col..key_col + 5) == Some("done:") {
            replace_value(&mut lines[i], key_col + 5);
            return;
        }
    }
    let ending = if line.ends_with("\r\n") { "\r\n" } else { "\n" };
    let added = format!("{}done: true{ending}", " ".repeat(key_col));
    if !lines[id_line].ends_with('\n') {
        lines[id_line].push_str(ending);
    }
    lines.insert(id_line + 1, added);
}

/// Replaces the YAML scalar starting at byte `from` (after `done:`) with `true`.
fn replace_value(line: &mut String, from: usize) {
    let rest = &line[from..];
    let lead = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let start = from + lead;
    let len = line[start..]
        .find(|c: char| c == ',' || c == '}' || c == '#' || c.is_whitespace())
        .unwrap_or(line.len() - start);
    line.replace_range(start..start + len, "true");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_md_markers_become_done_and_nothing_else_changes() {
        let text = "# Plan\r\n\r\n### 4.1 Login <!-- cc:TODO -->\r\n- form\r\n\
                    - [ ] 4.2 Session `cc:WIP` owns: `src/s.rs`\r\n- [x] 4.3 Old cc:done\r\n";
        let out = mark_done_plans_md(text, "Plans.md", &["4.1", "4.2", "4.3"]).unwrap();
        assert_eq!(
            out,
            "# Plan\r\n\r\n### 4.1 Login <!-- cc:done -->\r\n- form\r\n\
             - [x] 4.2 Session `cc:done` owns: `src/s.rs`\r\n- [x] 4.3 Old cc:done\r\n"
        );
        let only_one = mark_done_plans_md(text, "Plans.md", &["4.2"]).unwrap();
        assert!(only_one.contains("<!-- cc:TODO -->") && only_one.contains("`cc:done`"));
    }

    #[test]
    fn plans_md_unknown_id_is_named() {
        let err = mark_done_plans_md("- 1 A cc:TODO\n", "Plans.md", &["9"]).unwrap_err();
        assert_eq!(err.to_string(), "Plans.md: no task 9 to mark cc:done");
    }

    #[test]
    fn tasks_yaml_done_is_replaced_or_added() {
        let text = "tasks:\n  - id: 1\n    title: A\n    done: false # soon\n  - id: 2\n    title: B\n  - {id: 3, title: C, done: false}\n  - {id: 4, title: D}\n";
        let out = mark_done_tasks_yaml(text, "specs/a/tasks.yaml", &["1", "2", "3", "4"]).unwrap();
        assert_eq!(
            out,
            "tasks:\n  - id: 1\n    title: A\n    done: true # soon\n  - id: 2\n    done: true\n    title: B\n  - {id: 3, title: C, done: true}\n  - {done: true, id: 4, title: D}\n"
        );
        let parsed = TaskList::parse(&out, "t").unwrap();
        assert!(parsed.tasks.iter().all(|t| t.done));
    }

    #[test]
    fn tasks_yaml_done_key_before_id_is_found() {
        let text = "- title: A\n  done: false\n  id: a1\n- title: B\n  id: b1\n  done: false\n";
        let out = mark_done_tasks_yaml(text, "t.yaml", &["a1"]).unwrap();
        assert_eq!(
            out,
            "- title: A\n  done: true\n  id: a1\n- title: B\n  id: b1\n  done: false\n"
        );
    }
}
