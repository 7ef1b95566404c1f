//! What the Auditor's context takes from the Markdown of design.md and the steering files: list
//! items, the name an item gives, exemptions (documented deviations, allowed patterns), and the
//! interfaces and optional parameters of the design's code blocks. Pure functions over text.
//!
//! An exemption is one list item: `HEAD: REASON` (or `HEAD — REASON`). In the head,
//! - a backticked span with a `/` or a `.` is the finding's path (a folder when it ends in `/`);
//! - a backticked span of lowercase letters and `-` is the finding's category (so a lowercase
//!   symbol such as `add` is cited in quotes: "add");
//! - a double-quoted phrase, or else any other backticked span (a symbol such as
//!   `place_order`), is text the finding's description must contain.
//!
//! ```markdown
//! - `todo-marker` in `src/legacy.rs`: the importer is replaced in v2.
//! - "unwrap" in `src/bin/`: binaries exit on bad input.
//! ```
//! An item whose head names none of the three covers nothing and is left out.

use inspector::spec::{Design, Section};
use protocol::message::SpecExemption;

/// The text of every list item (`-`, `*`, `+`, `1.`, `1)`) in `body`, outside code fences.
pub(crate) fn list_items(body: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut fenced = false;
    for line in body.lines() {
        let line = line.trim();
        if line.starts_with("```") || line.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let bullet = ["- ", "* ", "+ "].iter().find_map(|b| line.strip_prefix(b));
        let numbered = || {
            let digits = line.chars().take_while(char::is_ascii_digit).count();
            let rest = &line[digits..];
            (digits > 0)
                .then(|| rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")))
                .flatten()
        };
        if let Some(text) = bullet.or_else(numbered) {
            let text = text.trim();
            if !text.is_empty() {
                items.push(text.to_string());
            }
        }
    }
    items
}

/// The name an item gives: its first backticked span, else its text before `: ` or ` — `,
/// without a final full stop.
pub(crate) fn item_name(item: &str) -> String {
    if let Some(span) = spans(item).into_iter().next() {
        return span;
    }
    let (head, _) = split_reason(item);
    head.trim().trim_end_matches('.').trim().to_string()
}

/// The exemption a list item states, `None` when its head names no path, category or text.
pub(crate) fn exemption(item: &str) -> Option<SpecExemption> {
    let (head, reason) = split_reason(item);
    let mut out = SpecExemption {
        reason: reason.unwrap_or(item).trim().to_string(),
        ..SpecExemption::default()
    };
    let mut symbol = None;
    for span in spans(head) {
        if span.contains('/') || span.contains('.') {
            out.path.get_or_insert(span);
        } else if is_category(&span) {
            out.category.get_or_insert(span);
        } else {
            symbol.get_or_insert(span);
        }
    }
    out.mentions = quoted(head).or(symbol);
    (out.path.is_some() || out.category.is_some() || out.mentions.is_some()).then_some(out)
}

/// The exemptions of every list item under the sections `pick` selects.
pub(crate) fn exemptions(doc: &Design, pick: fn(&str) -> bool) -> Vec<SpecExemption> {
    items_under(doc, pick)
        .iter()
        .filter_map(|i| exemption(i))
        .collect()
}

/// Every list item under the sections whose lowercase title `pick` accepts.
pub(crate) fn items_under(doc: &Design, pick: fn(&str) -> bool) -> Vec<String> {
    let picked: Vec<&Section> = doc
        .sections
        .iter()
        .filter(|s| pick(&s.title.to_lowercase()))
        .collect();
    // A picked section's body holds its subsections: one nested in another picked one is
    // already read.
    let inside = |s: &Section, p: &Section| {
        p.level < s.level
            && p.line < s.line
            && s.line as usize <= p.line as usize + p.body.lines().count()
    };
    picked
        .iter()
        .filter(|s| !picked.iter().any(|p| inside(s, p)))
        .flat_map(|s| list_items(&s.body))
        .collect()
}

/// Names the design's code blocks define: `fn`, `struct`, `enum`, `trait`, `type`, `interface`,
/// `class`, `def`, `function`, in order, once each.
pub(crate) fn interfaces(design: &Design) -> Vec<String> {
    const KEYWORDS: [&str; 9] = [
        "fn",
        "struct",
        "enum",
        "trait",
        "type",
        "interface",
        "class",
        "def",
        "function",
    ];
    let mut names: Vec<String> = Vec::new();
    for block in &design.code_blocks {
        for line in block.text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            for pair in words.windows(2) {
                if KEYWORDS.contains(&pair[0]) {
                    let name = identifier(pair[1]);
                    if !name.is_empty() && !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
        }
    }
    names
}

/// Parameters the design's code blocks mark optional: `name: Option<…>` (Rust), `name?:`
/// (TypeScript), `name=None` or `name: T = None` (Python); in order, once each.
pub(crate) fn optional_parameters(design: &Design) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for block in &design.code_blocks {
        for part in block.text.split([',', '(', ')', '\n']) {
            let part = part.trim();
            let name = if let Some((name, _)) = part.split_once("?:") {
                Some(name)
            } else if part.ends_with("None") && part.contains('=') {
                part.split([':', '=']).next()
            } else {
                part.split_once(':')
                    .filter(|(_, ty)| ty.trim_start().starts_with("Option<"))
                    .map(|(name, _)| name)
            };
            // `pub id: Option<u64>` names `id`: the parameter is the last word before the colon.
            let last = |n: &str| n.split_whitespace().last().map(identifier);
            let Some(name) = name.and_then(last).filter(|n| !n.is_empty()) else {
                continue;
            };
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The leading identifier of `word` (`place_order(sku:` → `place_order`).
fn identifier(word: &str) -> String {
    word.trim()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// `head: reason` or `head — reason`, split at the first separator outside backticks.
fn split_reason(item: &str) -> (&str, Option<&str>) {
    let mut in_tick = false;
    for (i, c) in item.char_indices() {
        match c {
            '`' => in_tick = !in_tick,
            ':' if !in_tick && item[i + 1..].starts_with(' ') => {
                return (&item[..i], Some(item[i + 1..].trim()));
            }
            '—' if !in_tick => {
                return (&item[..i], Some(item[i + c.len_utf8()..].trim()));
            }
            _ => {}
        }
    }
    (item, None)
}

/// The backticked spans of `text`, trimmed, non-empty.
fn spans(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// The first double-quoted phrase of `text`.
fn quoted(text: &str) -> Option<String> {
    let mut parts = text.split('"');
    parts.next()?;
    let phrase = parts.next()?.trim();
    // An unclosed quote is not a phrase.
    parts.next()?;
    (!phrase.is_empty()).then(|| phrase.to_string())
}

/// Categories are kebab-case words (`dead-code`, `complexity`): no digits, no `_`.
fn is_category(span: &str) -> bool {
    span.starts_with(|c: char| c.is_ascii_lowercase())
        && span.chars().all(|c| c.is_ascii_lowercase() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_items_are_bullets_and_numbers_outside_fences() {
        let body = "Intro.\n- one\n  * two\n3. three\n4) four\n```\n- not me\n```\n+ five\n-no\n";
        assert_eq!(
            list_items(body),
            vec!["one", "two", "three", "four", "five"]
        );
    }

    #[test]
    fn an_item_is_named_by_its_first_span_or_its_head() {
        assert_eq!(
            item_name("`OutOfStock` when the SKU is short"),
            "OutOfStock"
        );
        assert_eq!(
            item_name("Payment declined: retried once."),
            "Payment declined"
        );
        assert_eq!(item_name("Timeout."), "Timeout");
    }

    #[test]
    fn an_exemption_names_path_category_and_text() {
        assert_eq!(
            exemption("`todo-marker` in `src/legacy.rs`: the importer is replaced in v2."),
            Some(SpecExemption {
                category: Some("todo-marker".into()),
                path: Some("src/legacy.rs".into()),
                mentions: None,
                reason: "the importer is replaced in v2.".into(),
            })
        );
        assert_eq!(
            exemption("\"unwrap\" in `src/bin/` — binaries exit on bad input"),
            Some(SpecExemption {
                category: None,
                path: Some("src/bin/".into()),
                mentions: Some("unwrap".into()),
                reason: "binaries exit on bad input".into(),
            })
        );
        assert_eq!(
            exemption("`place_order` takes `u32`: quantities are small"),
            Some(SpecExemption {
                category: None,
                path: None,
                mentions: Some("place_order".into()),
                reason: "quantities are small".into(),
            })
        );
        assert_eq!(exemption("We deviate on purpose: see ADR 4"), None);
    }

    #[test]
    fn design_code_blocks_give_interfaces_and_optional_parameters() {
        let design = Design::parse(
            "# D\n```rust\npub struct Order { pub id: u64 }\npub struct Page { pub size: Option<u32> }\npub fn place_order(sku: &str, note: Option<String>) -> Order;\npub trait Store {\n    fn find(&self, id: u64, limit: Option<u32>) -> Option<Order>;\n}\n```\n```python\ndef refund(order, reason=None): ...\n```\n```ts\nfunction cancel(id: string, force?: boolean): void;\n```\n",
        );
        assert_eq!(
            interfaces(&design),
            vec![
                "Order",
                "Page",
                "place_order",
                "Store",
                "find",
                "refund",
                "cancel"
            ]
        );
        assert_eq!(
            optional_parameters(&design),
            vec!["size", "note", "limit", "reason", "force"]
        );
    }

    #[test]
    fn items_under_picked_sections_are_read_once() {
        let design = Design::parse(
            "# D\n## Error Handling\n- `OutOfStock`\n### Error handling in refunds\n- `Refunded`\n## Other\n- nope\n",
        );
        let items = items_under(&design, |t| t.contains("error handling"));
        assert_eq!(items, vec!["`OutOfStock`", "`Refunded`"]);
    }
}
