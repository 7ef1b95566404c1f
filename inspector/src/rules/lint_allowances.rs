//! Where a Rust project has already decided, in clippy's own vocabulary, that a pattern is
//! fine: `#[allow(clippy::print_stderr)]`, `#[expect(clippy::unwrap_used, reason = "…")]` on an
//! item, or `#![allow(clippy::todo)]` for a whole file. A project that turns these restriction
//! lints on and then allows one spot has made the call a rule would make again; the rule reports
//! the spot excused by that attribute ([`crate::engine::Hit::excuse`]), so it still gates when the
//! change under review writes it.
//!
//! Read lexically, comment- and string-aware: an attribute applies to the item that follows it,
//! up to the brace that closes that item (or its `;`); an inner attribute (`#![…]`) to the file.
//! A JavaScript project says the same with ESLint's directive comments (`/* eslint-disable
//! no-console */`), read by [`eslint_disabled`].

use crate::engine::{Language, SourceFile};
use crate::lexical::LexLine;

/// The line ranges (1-based, inclusive) of `file` under an `allow` or `expect` of one of
/// `lints` (clippy lint names without the `clippy::` prefix).
pub(crate) fn allowed(file: &SourceFile, lints: &[&str]) -> Vec<(u32, u32)> {
    if file.language != Some(Language::Rust) || !lints.iter().any(|l| file.text.contains(l)) {
        return Vec::new();
    }
    let lines = file.lexed(Language::Rust);
    let mut ranges = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        let attr = code.trim_start();
        let inner = attr.starts_with("#![");
        if !(attr.starts_with("#[") || inner) || !names_allowance(&lines[i..], lints) {
            continue;
        }
        if inner {
            return vec![(1, u32::MAX)];
        }
        if let Some(end) = item_end(&lines, i) {
            ranges.push((line.number, end));
        }
    }
    ranges
}

/// The line ranges (1-based, inclusive) of a JavaScript or TypeScript `file` where an ESLint
/// directive comment turns `rule` off (or every rule): `eslint-disable` up to the next
/// `eslint-enable` of it (or the end of the file), `eslint-disable-next-line` for the next line,
/// `eslint-disable-line` for its own. The JavaScript counterpart of [`allowed`].
pub(crate) fn eslint_disabled(file: &SourceFile, rule: &str) -> Vec<(u32, u32)> {
    let script = matches!(
        file.language,
        Some(Language::JavaScript | Language::TypeScript)
    );
    if !script || !file.text.contains("eslint-disable") {
        return Vec::new();
    }
    let mut ranges = Vec::new();
    let mut open: Option<u32> = None;
    for (i, text) in file.text.lines().enumerate() {
        let number = i as u32 + 1;
        let Some((directive, rules)) = eslint_directive(text) else {
            continue;
        };
        let names_rule = rules.is_empty() || rules.contains(&rule);
        match directive {
            "eslint-disable-next-line" if names_rule => ranges.push((number + 1, number + 1)),
            "eslint-disable-line" if names_rule => ranges.push((number, number)),
            "eslint-disable" if names_rule => {
                open.get_or_insert(number);
            }
            "eslint-enable" if names_rule => {
                if let Some(start) = open.take() {
                    ranges.push((start, number));
                }
            }
            _ => {}
        }
    }
    if let Some(start) = open {
        ranges.push((start, u32::MAX));
    }
    ranges
}

/// The ESLint directive a comment on `line` holds and the rules it names (none: every rule);
/// `-- why` descriptions left out.
fn eslint_directive(line: &str) -> Option<(&str, Vec<&str>)> {
    let at = line.find("eslint-")?;
    let before = &line[..at];
    if !(before.contains("//") || before.contains("/*")) {
        return None;
    }
    let rest = &line[at..];
    let rest = rest.split("*/").next().unwrap_or(rest);
    let rest = rest.split(" -- ").next().unwrap_or(rest);
    let (directive, names) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let known = [
        "eslint-disable-next-line",
        "eslint-disable-line",
        "eslint-disable",
        "eslint-enable",
    ];
    let directive = known.into_iter().find(|d| *d == directive)?;
    let rules = names
        .split(',')
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect();
    Some((directive, rules))
}

/// Whether `line` lies in one of `ranges`.
pub(crate) fn within(ranges: &[(u32, u32)], line: u32) -> bool {
    ranges.iter().any(|(a, b)| (*a..=*b).contains(&line))
}

/// Whether the attribute starting on the first of `lines` (it may span lines) is an `allow` or
/// `expect` naming one of `lints`.
fn names_allowance(lines: &[LexLine<'_>], lints: &[&str]) -> bool {
    let mut text = String::new();
    let mut depth = 0i32;
    for line in lines.iter().take(8) {
        let code = line.code();
        for c in code.chars() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ => {}
            }
        }
        text.push_str(&code);
        if depth <= 0 {
            break;
        }
    }
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let kind = compact
        .trim_start_matches("#!")
        .trim_start_matches('#')
        .trim_start_matches('[');
    (kind.starts_with("allow(") || kind.starts_with("expect("))
        && lints
            .iter()
            .any(|l| compact.contains(&format!("clippy::{l}")))
}

/// The last line of the item that the attribute on line index `at` applies to: past further
/// attributes, to the brace closing the item's first `{`, or to its `;`.
fn item_end(lines: &[LexLine<'_>], at: usize) -> Option<u32> {
    let mut depth = 0i32;
    let mut opened = false;
    let mut past_attributes = false;
    for line in &lines[at..] {
        let code = line.code();
        let trimmed = code.trim_start();
        if !past_attributes && (trimmed.starts_with("#[") || trimmed.is_empty()) {
            continue;
        }
        past_attributes = true;
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => {
                    depth -= 1;
                    if opened && depth == 0 {
                        return Some(line.number);
                    }
                }
                ';' if !opened && depth == 0 => return Some(line.number),
                _ => {}
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eslint_directives_turn_a_rule_off_where_they_say() {
        let text = "console.log('a');\n// eslint-disable-next-line no-console\nconsole.log('b');\nconsole.log('c'); // eslint-disable-line no-alert, no-console\n/* eslint-disable no-console -- release script */\nconsole.log('d');\n/* eslint-enable no-console */\nconsole.log('e'); // eslint-disable-line no-alert\n/* eslint-disable */\nconsole.log('f');\n";
        let file = SourceFile::new("tasks/publish.js".to_string(), text.to_string());
        assert_eq!(
            eslint_disabled(&file, "no-console"),
            vec![(3, 3), (4, 4), (5, 7), (9, u32::MAX)]
        );
        let rust = SourceFile::new("src/a.rs".to_string(), text.to_string());
        assert!(eslint_disabled(&rust, "no-console").is_empty());
    }

    #[test]
    fn an_allowance_covers_its_item_and_an_inner_one_the_file() {
        let text = "fn a() {\n    println!(\"x\");\n}\n#[expect(\n    clippy::print_stderr,\n    reason = \"already panicking\"\n)]\nfn set_hook() {\n    if x {\n        eprintln!(\"{bt}\");\n    }\n}\n#[allow(clippy::unwrap_used)]\nconst X: u8 = f().unwrap();\n#[allow(dead_code)]\nfn b() {}\n";
        let file = SourceFile::new("src/lib.rs", text);
        assert_eq!(allowed(&file, &["print_stderr"]), vec![(4, 12)]);
        assert_eq!(allowed(&file, &["unwrap_used"]), vec![(13, 14)]);
        assert!(allowed(&file, &["todo"]).is_empty());
        let whole = SourceFile::new(
            "src/lib.rs",
            "#![allow(clippy::todo)]\nfn a() { todo!() }\n",
        );
        assert_eq!(allowed(&whole, &["todo"]), vec![(1, u32::MAX)]);
        // In a comment or a string it is no attribute.
        let said = SourceFile::new(
            "src/lib.rs",
            "// #[allow(clippy::todo)]\nconst S: &str = \"#[allow(clippy::todo)]\";\n",
        );
        assert!(allowed(&said, &["todo"]).is_empty());
    }
}
