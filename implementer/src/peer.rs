//! Pattern D from the Implementer's side: what its finished task's change tells the other
//! Implementers. Kept simple and line-based, over the public items of Rust (`pub fn|struct|enum|
//! trait|type|const|static|mod` at the start of a line), JavaScript/TypeScript (`export …`),
//! Python (top-level `def`/`class` without a leading `_`) and Go (top-level `func`/`type` with a
//! capital name):
//!
//! - a public item new in a file outside the task's `owns` → `utility-created` (a shared helper
//!   others may use; new items in the task's own files are its own work);
//! - a public item whose signature line changed, or that is gone, in any file →
//!   `api-changed` (others may call it).
//!
//! A task that owns nothing owns everything, so it only ever reports API changes. A note tells,
//! it never asks: what to do about it is each recipient's own call.

use crate::change::{ChangeSet, ChangedFile};
use crate::ownership::Ownership;
use protocol::message::{PeerNote, PeerNoteKind};
use protocol::Task;
use std::collections::BTreeMap;

/// Most items named in one note; the rest are counted.
const MAX_ITEMS: usize = 5;

/// The notes a finished task's `change` calls for, in path order.
pub fn notes_for_change(task: &Task, change: &ChangeSet) -> Vec<PeerNote> {
    let mut notes = Vec::new();
    // An unreadable ownership owns nothing here: every new public item is then worth a note.
    let owns = Ownership::new(&task.owns).ok();
    for file in &change.files {
        let before = public_items(&file.path, file.before.as_deref().unwrap_or(""));
        let after = public_items(&file.path, file.after.as_deref().unwrap_or(""));
        let note = |kind: PeerNoteKind, items: Vec<String>| PeerNote {
            task: task.id,
            kind,
            about: file.path.clone(),
            text: listing(&items),
        };
        if !owns.as_ref().is_some_and(|o| o.contains(&file.path)) {
            let created: Vec<String> = after
                .iter()
                .filter(|(name, _)| !before.contains_key(*name))
                .map(|(_, sig)| format!("new `{sig}`"))
                .collect();
            if !created.is_empty() {
                notes.push(note(PeerNoteKind::UtilityCreated, created));
            }
        }
        let changed = api_changes(file, &before, &after);
        if !changed.is_empty() {
            notes.push(note(PeerNoteKind::ApiChanged, changed));
        }
    }
    notes
}

fn api_changes(
    file: &ChangedFile,
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
) -> Vec<String> {
    if file.before.is_none() {
        return Vec::new();
    }
    before
        .iter()
        .filter_map(|(name, old)| match after.get(name) {
            Some(new) if new != old => Some(format!("`{old}` is now `{new}`")),
            Some(_) => None,
            None => Some(format!("`{old}` removed")),
        })
        .collect()
}

fn listing(items: &[String]) -> String {
    let mut text = items
        .iter()
        .take(MAX_ITEMS)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if items.len() > MAX_ITEMS {
        text.push_str(&format!("; and {} more", items.len() - MAX_ITEMS));
    }
    text
}

/// The public items of a file's text, by name, each with its signature line (up to `{`).
pub fn public_items(path: &str, text: &str) -> BTreeMap<String, String> {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    let mut items = BTreeMap::new();
    for line in text.lines() {
        let found = match ext {
            "rs" => rust_item(line),
            "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" => js_item(line),
            "py" => python_item(line),
            "go" => go_item(line),
            _ => None,
        };
        if let Some(name) = found {
            let sig = line.split('{').next().unwrap_or(line).trim();
            let sig = sig.trim_end_matches([';', ':']).trim();
            items.entry(name).or_insert_with(|| sig.to_string());
        }
    }
    items
}

/// The name after the first keyword of `keywords` that `rest` starts with.
fn named(rest: &str, keywords: &[&str]) -> Option<String> {
    let rest = keywords
        .iter()
        .find_map(|k| rest.strip_prefix(k)?.strip_prefix(' '))?;
    let name: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .collect();
    (!name.is_empty()).then_some(name)
}

fn rust_item(line: &str) -> Option<String> {
    let rest = line.strip_prefix("pub ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    // Qualifiers before the item keyword; `const` is one only when a `fn` follows it.
    let skip = words
        .iter()
        .take_while(|w| matches!(**w, "async" | "unsafe" | "extern" | "\"C\""))
        .count();
    let skip = match (words.get(skip), words.get(skip + 1)) {
        (Some(&"const"), Some(next)) if matches!(*next, "fn" | "unsafe" | "async") => skip + 1,
        _ => skip,
    };
    let skip = skip
        + words[skip.min(words.len())..]
            .iter()
            .take_while(|w| matches!(**w, "async" | "unsafe" | "extern" | "\"C\""))
            .count();
    named(
        &words.get(skip..)?.join(" "),
        &[
            "fn", "struct", "enum", "trait", "type", "const", "static", "mod", "union",
        ],
    )
}

fn js_item(line: &str) -> Option<String> {
    let mut rest = line.strip_prefix("export ")?;
    for modifier in ["default ", "async ", "abstract ", "declare "] {
        rest = rest.strip_prefix(modifier).unwrap_or(rest);
    }
    named(
        rest,
        &[
            "function",
            "class",
            "const",
            "let",
            "var",
            "interface",
            "type",
            "enum",
        ],
    )
}

fn python_item(line: &str) -> Option<String> {
    let rest = line.strip_prefix("async ").unwrap_or(line);
    named(rest, &["def", "class"]).filter(|n| !n.starts_with('_'))
}

fn go_item(line: &str) -> Option<String> {
    named(line, &["func", "type"]).filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::Snapshot;

    fn task(owns: &[&str]) -> Task {
        let mut t = crate::testing::task("Add t1");
        t.owns = owns.iter().map(|s| s.to_string()).collect();
        t
    }

    #[test]
    fn a_new_public_item_outside_the_owns_is_a_utility() {
        let before = Snapshot::from_texts([("src/lib.rs", "pub mod add;\n")]);
        let after = Snapshot::from_texts([
            ("src/lib.rs", "pub mod add;\npub mod t1;\npub mod util;\n"),
            ("src/t1.rs", "pub fn t1() -> i64 {\n    1\n}\n"),
            (
                "src/util.rs",
                "/// Clamps.\npub fn clamp(x: i64, lo: i64, hi: i64) -> i64 {\n    x.max(lo).min(hi)\n}\nfn private() {}\npub(crate) fn inner() {}\n",
            ),
        ]);
        let notes = notes_for_change(
            &task(&["src/t1.rs", "src/lib.rs"]),
            &after.changes_since(&before),
        );
        assert_eq!(
            notes,
            [PeerNote {
                task: 7,
                kind: PeerNoteKind::UtilityCreated,
                about: "src/util.rs".into(),
                text: "new `pub fn clamp(x: i64, lo: i64, hi: i64) -> i64`".into(),
            }]
        );
    }

    #[test]
    fn a_changed_or_removed_signature_is_an_api_change_anywhere() {
        let before = Snapshot::from_texts([(
            "src/t1.rs",
            "pub fn t1(a: i32) -> i32 {\n    a\n}\npub struct Old;\n",
        )]);
        let after = Snapshot::from_texts([("src/t1.rs", "pub fn t1(a: i64) -> i64 {\n    a\n}\n")]);
        let notes = notes_for_change(&task(&["src/t1.rs"]), &after.changes_since(&before));
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].kind, PeerNoteKind::ApiChanged);
        assert_eq!(
            notes[0].text,
            "`pub struct Old` removed; `pub fn t1(a: i32) -> i32` is now `pub fn t1(a: i64) -> i64`"
        );
        let same = Snapshot::from_texts([(
            "src/t1.rs",
            "pub fn t1(a: i32) -> i32 {\n    a + 0\n}\npub struct Old;\n",
        )]);
        assert!(
            notes_for_change(&task(&["src/t1.rs"]), &same.changes_since(&before)).is_empty(),
            "a body change tells nobody anything"
        );
    }

    #[test]
    fn other_languages_and_ownership_forms() {
        let items = |path, text| public_items(path, text).into_keys().collect::<Vec<_>>();
        assert_eq!(
            items(
                "a.ts",
                "export async function load() {}\nexport const X = 1;\nfunction y() {}\n"
            ),
            ["X", "load"]
        );
        assert_eq!(
            items(
                "a.py",
                "def run():\nclass Job:\ndef _hidden():\n    def inner():\n"
            ),
            ["Job", "run"]
        );
        assert_eq!(
            items("a.go", "func Run() {}\nfunc run() {}\ntype Job struct {}\n"),
            ["Job", "Run"]
        );
        assert_eq!(
            items(
                "a.rs",
                "pub const MAX: u8 = 1;\npub const fn f() {}\npub async unsafe fn g() {}\npub(crate) fn h() {}\n"
            ),
            ["MAX", "f", "g"]
        );
    }
}
