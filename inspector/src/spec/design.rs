//! `specs/<feature>/design.md`: `### Spec N: Title` sections with their acceptance criteria, the
//! Components table's files, fenced code blocks (interface definitions) and the named sections.
//!
//! A line-oriented reader rather than a Markdown crate: the layout is fixed by the Inspectors spec, and
//! every item keeps its 1-based line so findings can point into design.md.

use super::{clean_path, DeclaredPath};

/// A parsed design.md.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Design {
    /// `### Spec N: Title` sections, in order.
    pub specs: Vec<SpecSection>,
    /// Backticked paths in the Files column of the Components table(s).
    pub components: Vec<DeclaredPath>,
    /// Fenced code blocks.
    pub code_blocks: Vec<CodeBlock>,
    /// Every heading with the text under it (up to the next heading of the same or a higher level).
    pub sections: Vec<Section>,
}

/// One `### Spec N: Title` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecSection {
    /// `N` as written (`3`, `2.1`).
    pub number: String,
    /// The title after the number.
    pub title: String,
    /// Line of the heading.
    pub line: u32,
    /// The numbered acceptance criteria.
    pub criteria: Vec<Criterion>,
    /// Inline code spans (`` `name` ``) of the section's prose, outside fenced blocks.
    pub cited: Vec<String>,
}

/// One numbered acceptance criterion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Criterion {
    /// Its number.
    pub number: u32,
    /// Its text.
    pub text: String,
    /// Its line.
    pub line: u32,
}

/// A fenced code block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeBlock {
    /// The info string's first word (`rust`), lowercase; empty when there is none.
    pub lang: String,
    /// Line of the block's first content line (the line after the opening fence).
    pub first_line: u32,
    /// The content, without the fences.
    pub text: String,
}

/// A heading and the text under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// 1 for `#`, 2 for `##`, …
    pub level: u8,
    /// The heading text.
    pub title: String,
    /// Line of the heading.
    pub line: u32,
    /// The lines under it, joined with `\n`.
    pub body: String,
}

impl Design {
    /// Parses design.md's text.
    pub fn parse(text: &str) -> Design {
        let lines: Vec<&str> = text.lines().collect();
        let mut design = Design::default();
        let mut headings: Vec<(usize, u8, String)> = Vec::new();
        let mut in_code = vec![false; lines.len()];
        let mut fence: Option<(String, usize, String)> = None;
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            if let Some((marker, start, lang)) = &fence {
                in_code[i] = true;
                if trimmed.starts_with(marker.as_str()) && trimmed.trim_end() == marker.as_str() {
                    design.code_blocks.push(CodeBlock {
                        lang: lang.clone(),
                        first_line: *start as u32 + 2,
                        text: lines[start + 1..i].join("\n"),
                    });
                    fence = None;
                }
                continue;
            }
            if let Some(marker) = fence_marker(trimmed) {
                in_code[i] = true;
                let lang = trimmed[marker.len()..]
                    .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
                    .next()
                    .unwrap_or_default()
                    .to_lowercase();
                fence = Some((marker, i, lang));
                continue;
            }
            if let Some((level, title)) = heading(line) {
                headings.push((i, level, title));
            }
        }
        for (k, (start, level, title)) in headings.iter().enumerate() {
            let end = headings[k + 1..]
                .iter()
                .find(|(_, l, _)| l <= level)
                .map_or(lines.len(), |(i, _, _)| *i);
            design.sections.push(Section {
                level: *level,
                title: title.clone(),
                line: *start as u32 + 1,
                body: lines[start + 1..end].join("\n"),
            });
            if let Some((number, spec_title)) = spec_heading(title) {
                let prose = (start + 1..end).filter(|&i| !in_code[i]);
                let mut criteria = Vec::new();
                let mut cited: Vec<String> = Vec::new();
                for i in prose {
                    if let Some((n, text)) = numbered(lines[i]) {
                        criteria.push(Criterion {
                            number: n,
                            text,
                            line: i as u32 + 1,
                        });
                    }
                    for span in code_spans(lines[i]) {
                        if !cited.contains(&span) {
                            cited.push(span);
                        }
                    }
                }
                design.specs.push(SpecSection {
                    number,
                    title: spec_title,
                    line: *start as u32 + 1,
                    criteria,
                    cited,
                });
            }
        }
        design.components = component_files(&lines, &in_code);
        design
    }

    /// The first section whose title is `title` (case-insensitive), at any level.
    pub fn section(&self, title: &str) -> Option<&Section> {
        self.sections
            .iter()
            .find(|s| s.title.eq_ignore_ascii_case(title.trim()))
    }

    /// The code blocks in one language (`rust`; `rs` counts as `rust`).
    pub fn blocks_in<'a>(&'a self, lang: &'a str) -> impl Iterator<Item = &'a CodeBlock> + 'a {
        self.code_blocks
            .iter()
            .filter(move |b| b.lang == lang || (lang == "rust" && b.lang == "rs"))
    }
}

/// The opening fence (```` ``` ```` or `~~~`, any length ≥ 3) of a line, when it is one.
fn fence_marker(trimmed: &str) -> Option<String> {
    for ch in ['`', '~'] {
        let n = trimmed.chars().take_while(|&c| c == ch).count();
        if n >= 3 {
            return Some(ch.to_string().repeat(n));
        }
    }
    None
}

/// `## Title` → (2, "Title").
fn heading(line: &str) -> Option<(u8, String)> {
    let level = line.chars().take_while(|&c| c == '#').count();
    let rest = &line[level..];
    if !(1..=6).contains(&level) || !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    Some((
        level as u8,
        rest.trim().trim_end_matches('#').trim().to_string(),
    ))
}

/// `Spec 3: Title` → ("3", "Title"); also `Spec 3 - Title`, `Spec 3. Title`, `Spec 3`.
fn spec_heading(title: &str) -> Option<(String, String)> {
    let rest = title.strip_prefix("Spec ")?.trim_start();
    let number: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let number = number.trim_end_matches('.').to_string();
    if number.is_empty() {
        return None;
    }
    let after = rest[number.len()..].trim_start();
    let after = after
        .strip_prefix([':', '-', '.', '—', '–'])
        .unwrap_or(after);
    Some((number, after.trim().to_string()))
}

/// `1. text` → (1, "text").
fn numbered(line: &str) -> Option<(u32, String)> {
    let trimmed = line.trim_start();
    let digits: String = trimmed.chars().take_while(char::is_ascii_digit).collect();
    let rest = trimmed[digits.len()..].strip_prefix(['.', ')'])?;
    if !rest.starts_with(' ') {
        return None;
    }
    Some((digits.parse().ok()?, rest.trim().to_string()))
}

/// The inline code spans of a line.
pub(crate) fn code_spans(line: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut parts = line.split('`');
    parts.next();
    while let (Some(inside), Some(_)) = (parts.next(), parts.next()) {
        let s = inside.trim();
        if !s.is_empty() {
            spans.push(s.to_string());
        }
    }
    // An unpaired trailing span (`a` `b) is dropped by the loop above: no closing backtick.
    spans
}

/// Backticked paths in the Files column of every table that has one.
fn component_files(lines: &[&str], in_code: &[bool]) -> Vec<DeclaredPath> {
    let mut out = Vec::new();
    let mut column: Option<usize> = None;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if in_code[i] || !trimmed.starts_with('|') {
            column = None;
            continue;
        }
        let cells = table_cells(trimmed);
        let is_separator = cells
            .iter()
            .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')));
        if is_separator {
            continue;
        }
        match column {
            None => {
                column = cells.iter().position(|c| {
                    let name = c.trim_matches(['*', '_', ' ']).to_lowercase();
                    matches!(name.as_str(), "files" | "file" | "paths" | "path")
                });
                // A table without a Files column still needs its rows skipped.
                if column.is_none() {
                    column = Some(usize::MAX);
                }
            }
            Some(col) => {
                if let Some(cell) = cells.get(col) {
                    for span in code_spans(cell) {
                        out.push(DeclaredPath {
                            path: clean_path(&span),
                            line: i as u32 + 1,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The cells of a `| a | b |` row, trimmed.
fn table_cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESIGN: &str = "\
# Design: users

## Architecture
A service over a repository.

## Components
| Component | Files | Notes |
|-----------|-------|-------|
| Model | `src/user.rs` | the `User` type |
| API | `src/api.rs`, `./src/routes.rs` | |

## Interfaces
```rust
pub fn create_user(name: &str, email: &str) -> Result<User, Error>;
```

### Spec 1: Create users
The `create_user` function in `src/user.rs` stores a user.
1. Given a name, when `create_user` runs, then a `User` is returned.
2. Duplicate emails are rejected.

```text
# not a heading
`not_cited`
```

### Spec 2.1 - Listing
No citations here.

## Error Handling
Errors map to `Error`.

## Testing Strategy
Unit tests per module.
";

    #[test]
    fn parses_spec_sections_with_criteria_and_citations() {
        let d = Design::parse(DESIGN);
        assert_eq!(d.specs.len(), 2);
        let s1 = &d.specs[0];
        assert_eq!(
            (s1.number.as_str(), s1.title.as_str(), s1.line),
            ("1", "Create users", 17)
        );
        assert_eq!(
            s1.criteria,
            vec![
                Criterion {
                    number: 1,
                    text: "Given a name, when `create_user` runs, then a `User` is returned."
                        .into(),
                    line: 19
                },
                Criterion {
                    number: 2,
                    text: "Duplicate emails are rejected.".into(),
                    line: 20
                },
            ]
        );
        assert_eq!(s1.cited, vec!["create_user", "src/user.rs", "User"]);
        let s2 = &d.specs[1];
        assert_eq!((s2.number.as_str(), s2.title.as_str()), ("2.1", "Listing"));
        assert!(s2.cited.is_empty());
    }

    #[test]
    fn parses_components_code_blocks_and_sections() {
        let d = Design::parse(DESIGN);
        let comps: Vec<(&str, u32)> = d
            .components
            .iter()
            .map(|c| (c.path.as_str(), c.line))
            .collect();
        assert_eq!(
            comps,
            vec![
                ("src/user.rs", 9),
                ("src/api.rs", 10),
                ("src/routes.rs", 10)
            ]
        );
        let rust: Vec<&CodeBlock> = d.blocks_in("rust").collect();
        assert_eq!(rust.len(), 1);
        assert_eq!(rust[0].first_line, 14);
        assert!(rust[0].text.starts_with("pub fn create_user("));
        assert_eq!(d.code_blocks.len(), 2);
        assert_eq!(d.code_blocks[1].lang, "text");
        assert!(d.section("not a heading").is_none());
        assert_eq!(
            d.section("architecture").map(|s| s.body.trim()),
            Some("A service over a repository.")
        );
        assert_eq!(
            d.section("Error Handling").map(|s| (s.level, s.line)),
            Some((2, 30))
        );
        assert!(d.section("Testing Strategy").is_some());
        let interfaces = d.section("Interfaces").expect("interfaces");
        assert!(interfaces.body.contains("### Spec 2.1"));
    }
}
