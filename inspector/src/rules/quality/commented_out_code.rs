//! `quality/commented-out-code`: blocks of three or more consecutive comment lines that are
//! code. Version control keeps old code; a commented-out block only rots and misleads.
//!
//! Doc comments never count (their examples are documentation). In Rust a block counts when
//! its lines, joined, parse as statements or items and most of them end like code (`;`, `{`,
//! `}`, `,`, `)`), so prose that happens to parse does not. In Python, Go, TypeScript and
//! JavaScript every line of the block must look like a statement (an assignment, a call, a
//! keyword-led header that ends like one, a closing brace) and none like prose (a sentence end,
//! a `TODO:`-style label).

use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::LexLine;
use protocol::{Category, Dimension, Location, Severity};

/// The fewest consecutive code-like comment lines that make a block.
const MIN_LINES: usize = 3;

static META: RuleMeta = RuleMeta {
    id: "quality/commented-out-code",
    category: Category::DeadCode,
    severity: Severity::Low,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Maintainability, Dimension::Quality],
    explanation: "Commented-out code blocks (3+ comment lines that are code): delete them, history keeps them",
};

/// Flags commented-out code blocks.
pub(crate) struct CommentedOutCode;

impl Rule for CommentedOutCode {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        let marker = match file.language {
            Some(Language::Python) => "#",
            Some(l) if META.languages.contains(&l) => "//",
            _ => return false,
        };
        file.text.contains(marker)
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(lang) = file.language else {
            return;
        };
        let lines = file.lexed(lang);
        for (start, end) in comment_runs(&lines) {
            if lang == Language::Go && lines.get(end).is_some_and(is_go_declaration) {
                continue;
            }
            let bodies: Vec<(u32, &str)> = lines[start..end]
                .iter()
                .filter_map(|l| l.comments().next().map(|c| (l.number, c.body.trim())))
                .filter(|(_, b)| !b.is_empty())
                .collect();
            for (first, last) in unfenced(&bodies).filter_map(|part| code_block(part, lang)) {
                let mut location = Location::at(&file.rel_path, first);
                location.end_line = Some(last);
                let head = bodies
                    .iter()
                    .find(|(n, _)| *n == first)
                    .map_or("", |(_, b)| *b);
                out.hit(
                    Hit::new(
                        location,
                        format!(
                            "{} lines of commented-out code, from `{head}`",
                            last - first + 1
                        ),
                        format!("commented-out {head}"),
                    )
                    .suggest("delete it; version control keeps the old code"),
                );
            }
        }
    }
}

/// The parts of a comment run outside Markdown code fences: a fenced block (```` ``` ```` …
/// ```` ``` ````, or to the run's end when left open) is an example the comment shows, like a
/// doc comment's, not code taken out of use.
fn unfenced<'a, 'b>(bodies: &'a [(u32, &'b str)]) -> impl Iterator<Item = &'a [(u32, &'b str)]> {
    let mut in_fence = false;
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, (_, body)) in bodies.iter().enumerate() {
        if body.starts_with("```") {
            if !in_fence {
                parts.push(&bodies[start..i]);
            }
            in_fence = !in_fence;
            start = i + 1;
        }
    }
    if !in_fence {
        parts.push(&bodies[start..]);
    }
    parts.into_iter()
}

/// Whether a Go line declares something: a comment run right above it is its doc comment,
/// whose indented lines are examples (Go's doc convention), never code taken out of use.
fn is_go_declaration(line: &LexLine<'_>) -> bool {
    let code = line.code();
    ["func ", "type ", "var ", "const ", "package "]
        .iter()
        .any(|k| code.starts_with(k))
}

/// Ranges (start, end exclusive) of consecutive lines that hold only a non-doc line comment.
fn comment_runs(lines: &[LexLine<'_>]) -> Vec<(usize, usize)> {
    let only_comment =
        |l: &LexLine<'_>| !l.has_code() && l.has_comment() && l.comments().all(|c| !c.doc);
    let mut runs = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !only_comment(&lines[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && only_comment(&lines[i]) {
            i += 1;
        }
        if i - start >= MIN_LINES {
            runs.push((start, i));
        }
    }
    runs
}

/// The first and last line of the first code block in a comment run, if any.
fn code_block(bodies: &[(u32, &str)], lang: Language) -> Option<(u32, u32)> {
    if lang == Language::Rust {
        return rust_block(bodies);
    }
    let mut streak: Vec<u32> = Vec::new();
    for (line, body) in bodies {
        if looks_like_code(body, lang) {
            streak.push(*line);
        } else if streak.len() >= MIN_LINES {
            break;
        } else {
            streak.clear();
        }
    }
    (streak.len() >= MIN_LINES).then(|| (streak[0], streak[streak.len() - 1]))
}

/// The longest window of at least [`MIN_LINES`] lines that parses as Rust and ends like code.
fn rust_block(bodies: &[(u32, &str)]) -> Option<(u32, u32)> {
    let n = bodies.len();
    // How many of the first `i` lines end like code, and how many read as prose: each window's
    // counts are then two subtractions.
    let (mut code_ends, mut prose) = (vec![0; n + 1], vec![0; n + 1]);
    for (i, (_, b)) in bodies.iter().enumerate() {
        code_ends[i + 1] = code_ends[i] + usize::from(b.ends_with([';', '{', '}', ',', ')']));
        prose[i + 1] = prose[i] + usize::from(is_prose(b));
    }
    for start in 0..n.saturating_sub(MIN_LINES - 1) {
        // Long runs are licence headers or prose; a window of 40 lines is enough to tell.
        for end in (start + MIN_LINES..=n.min(start + 40)).rev() {
            let window = &bodies[start..end];
            if (code_ends[end] - code_ends[start]) * 2 < window.len() || prose[end] > prose[start] {
                continue;
            }
            let joined: Vec<&str> = window.iter().map(|(_, b)| *b).collect();
            let joined = joined.join("\n");
            // Comments are not measured by the walk's limits, but here they go to syn: a window
            // nested beyond them would overflow the stack, and is no code anyone commented out.
            if crate::engine::limits::check(&joined, Language::Rust).is_some() {
                continue;
            }
            let parses = syn::parse_str::<syn::File>(&joined).is_ok()
                || syn::parse_str::<syn::Block>(&format!("{{\n{joined}\n}}")).is_ok()
                || syn::parse_str::<syn::Expr>(&format!("match x {{\n{joined}\n}}")).is_ok();
            if parses {
                return Some((window[0].0, window[window.len() - 1].0));
            }
        }
    }
    None
}

/// Whether a comment line reads as prose or a label rather than code.
fn is_prose(body: &str) -> bool {
    let label = body.split_once(':').is_some_and(|(head, _)| {
        head.chars()
            .all(|c| c.is_ascii_uppercase() || c == '(' || c == ')' || c.is_ascii_alphanumeric())
            && head.chars().any(|c| c.is_ascii_uppercase())
            && !head.contains(char::is_lowercase)
    });
    let sentence_end = (body.ends_with('.') && !body.ends_with(".."))
        || body.ends_with('?')
        || (body.ends_with('!') && !body.ends_with("!()"));
    label || sentence_end || body.contains("e.g.") || body.contains("i.e.")
}

/// Whether one comment line of Python, Go, TypeScript or JavaScript looks like a statement.
fn looks_like_code(body: &str, lang: Language) -> bool {
    if is_prose(body) {
        return false;
    }
    let first = body.split_whitespace().next().unwrap_or_default();
    let ident_head = body
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '[' || c == ']'))
        .next()
        .is_some_and(|h| !h.is_empty() && !h.contains(' '));
    let rest_after_ident = body.trim_start_matches(|c: char| {
        c.is_alphanumeric() || c == '_' || c == '.' || c == '[' || c == ']' || c == '\'' || c == '"'
    });
    let assignment = ident_head && {
        let r = rest_after_ident.trim_start();
        (r.starts_with('=') && !r.starts_with("=="))
            || r.starts_with("+=")
            || r.starts_with("-=")
            || r.starts_with(":=")
    };
    let call = ident_head && rest_after_ident.starts_with('(') && body.ends_with([')', ';']);
    match lang {
        Language::Python => {
            let header = matches!(
                first,
                "if" | "elif"
                    | "else:"
                    | "for"
                    | "while"
                    | "with"
                    | "def"
                    | "class"
                    | "try:"
                    | "except"
                    | "finally:"
            ) && body.ends_with(':');
            let simple = matches!(
                first,
                "return"
                    | "import"
                    | "raise"
                    | "pass"
                    | "break"
                    | "continue"
                    | "yield"
                    | "del"
                    | "assert"
            ) && (body.split_whitespace().count() <= 3
                || body.contains(['(', '[', '=']));
            let from_import = first == "from" && body.contains(" import ");
            assignment || call || header || simple || from_import
        }
        _ => {
            let ends = body.ends_with([';', '{'])
                || matches!(body, "}" | "})" | "});" | "};" | "} else {");
            let keyword = matches!(
                first,
                "if" | "for"
                    | "while"
                    | "switch"
                    | "return"
                    | "const"
                    | "let"
                    | "var"
                    | "func"
                    | "function"
                    | "import"
                    | "export"
                    | "defer"
                    | "go"
            ) && (body.ends_with(['{', ';', ')']) || body.contains(['=', '(']));
            let simple = matches!(first, "return" | "break" | "continue" | "throw")
                && (body.split_whitespace().count() <= 3 || body.contains(['(', '[', '=']));
            (ends && (ident_head || body.starts_with('}') || keyword))
                || assignment
                || call
                || keyword
                || simple
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    #[test]
    fn quiet_on_comments_nested_beyond_what_syn_is_handed() {
        // Five comment lines of 20,000 braces each: one window 100,000 deep.
        let deep = format!("// {}\n", "{".repeat(20_000)).repeat(5);
        let text = format!("pub fn a() {{}}\n{deep}pub fn b() {{}}\n");
        assert_eq!(hits(&CommentedOutCode, "src/a.rs", &text), vec![]);
    }

    #[test]
    fn fires_on_commented_out_code_blocks() {
        let rust = "fn f() {\n    // let total = items.iter().sum();\n    // if total > 10 {\n    //     apply_discount(&mut order);\n    // }\n    run();\n}\n";
        assert_eq!(
            hits(&CommentedOutCode, "src/a.rs", rust),
            vec![(
                2,
                "4 lines of commented-out code, from `let total = items.iter().sum();`".to_string()
            )]
        );
        let py = "def f():\n    # result = compute(x)\n    # if result:\n    #     save(result)\n    return 1\n";
        assert_eq!(hits(&CommentedOutCode, "app/a.py", py).len(), 1);
        let go = "func f() {\n\t// x := load()\n\t// if x != nil {\n\t//\treturn x\n\t// }\n}\n";
        assert_eq!(hits(&CommentedOutCode, "pkg/a.go", go).len(), 1);
        let js =
            "// const user = await load(id);\n// user.name = name;\n// await save(user);\nrun();\n";
        assert_eq!(hits(&CommentedOutCode, "web/a.js", js).len(), 1);
    }

    #[test]
    fn quiet_on_examples_in_code_fences_but_not_around_them() {
        let fenced = "// Assist: remove_else_branches\n//\n// ```\n// fn main() {\n//     if true {\n//         let _ = 2;\n//     }\n// }\n// ```\nfn a() {}\n";
        assert!(hits(&CommentedOutCode, "src/a.rs", fenced).is_empty());
        let open = "// ```\n// let a = 1;\n// let b = 2;\n// let c = 3;\nfn a() {}\n";
        assert!(
            hits(&CommentedOutCode, "src/a.rs", open).is_empty(),
            "an open fence runs to the end"
        );
        let after = "// ```\n// x\n// ```\n// let total = items.iter().sum();\n// if total > 10 {\n//     apply_discount(&mut order);\n// }\nfn a() {}\n";
        assert_eq!(
            hits(&CommentedOutCode, "src/a.rs", after),
            vec![(
                4,
                "4 lines of commented-out code, from `let total = items.iter().sum();`".to_string()
            )]
        );
    }

    #[test]
    fn quiet_on_go_doc_comment_examples_but_not_on_loose_code() {
        let doc = "package gin\n\n// ShouldBindJSON binds the body.\n// Example:\n//\n//\tif err := c.ShouldBindJSON(&user); err != nil {\n//\t\tc.JSON(400, err)\n//\t\treturn\n//\t}\nfunc (c *Context) ShouldBindJSON(obj any) error {\n\treturn nil\n}\n";
        assert!(hits(&CommentedOutCode, "context.go", doc).is_empty());
        let loose = "package gin\n\nfunc f() {\n\t// if err := run(); err != nil {\n\t//\treturn err\n\t// }\n\tgo()\n}\n";
        assert_eq!(hits(&CommentedOutCode, "f.go", loose).len(), 1);
    }

    #[test]
    fn quiet_on_prose_docs_and_short_snippets() {
        let rust = "/// ```\n/// let x = parse(s)?;\n/// assert_eq!(x, 1);\n/// let y = 2;\n/// ```\nfn parse() {}\n// The parser reads one token at a time,\n// keeps a stack of open groups,\n// and stops at the first error.\n// NOTE: keep in sync with lexer.rs\n// let x = 1;\nfn g() {}\n// Steps:\n// 1. read the file\n// 2. parse it\n// 3. report\n";
        assert!(hits(&CommentedOutCode, "src/a.rs", rust).is_empty());
        let py = "# This module loads the config.\n# If the file is missing, defaults apply\n# and a warning is logged.\n# return the value to the caller when done\nx = 1\n";
        assert!(hits(&CommentedOutCode, "app/a.py", py).is_empty());
        let js = "// eslint-disable-next-line\n// Renders the page:\n// the header, the list and the footer\nrun();\n";
        assert!(hits(&CommentedOutCode, "web/a.js", js).is_empty());
    }
}
