//! What an Inspector can analyse: a cheap check of a file's lexed text before any rule (or
//! syn) sees it.
//!
//! syn's parser recurses once per nesting level, its visitors and the trees' drops recurse over
//! the tree, and some text-level helpers are quadratic in nesting depth: one file holding
//! 50,000 nested braces overflowed the review thread's stack and aborted the whole Inspector,
//! taking every other file's findings with it. Reviewed repositories are untrusted input, so
//! every file is measured first — bracket nesting outside comments and literals (the lexer reads
//! them as the parser does), the longest line, the number of tokens — and a file over a limit is
//! not analysed at all: the walk skips it with the reason, it counts as not reviewed, and the
//! quality Inspector reports it (`quality/unreviewed-file`). The limits sit far above
//! hand-written code (rust-analyzer's deepest file nests under 40 brackets) and far below what
//! overflows a file-pass worker's stack.

use super::source::Language;
use crate::lexical::{lex, LexLine, Seg};

/// Deepest bracket nesting (`(`, `[`, `{` in code) a file may have.
pub const MAX_NESTING: usize = 256;

/// Longest line, in bytes, a file may have.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Most tokens (words, numbers, literals and punctuation characters) a file may have: it also
/// bounds the depth of trees that nest without brackets (`a + a + …`, `else if` chains).
pub const MAX_TOKENS: usize = 200_000;

/// Most tokens one run of a Rust expression or type may have — between two `;`, `{`, `}` or `,` —
/// since operators chain into trees as deep as the chain (`!!!…x`, `*const *const …`, `return
/// return …`) without any bracket. syn spends up to ~26 KiB of a debug build's stack per nested
/// type, and some rules are quadratic in such chains; 2,000 keeps both far inside the workers'
/// stack and a second's work. A comma ends a run: list elements are siblings, so a long literal
/// table is not one deep chain.
pub const MAX_STATEMENT_TOKENS: usize = 2_000;

/// The words every skip reason of this module starts with, so the listing reads as one kind.
pub(crate) const UNANALYSABLE: &str = "not analysable";

/// A limit a file exceeds, and the 1-based line where it first does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exceeded {
    /// The line where the limit was first crossed.
    pub line: u32,
    /// What was exceeded, with the measured value and the limit.
    pub what: String,
}

impl Exceeded {
    /// The skip reason the walk lists: `not analysable: <what> at line <n>`.
    pub fn reason(&self) -> String {
        format!("{UNANALYSABLE}: {} at line {}", self.what, self.line)
    }
}

/// The first limit `text`, read as `lang`, exceeds; `None` when every rule can analyse it.
/// Linear in the text: one lexing pass (which never recurses) and one scan of its code.
pub fn check(text: &str, lang: Language) -> Option<Exceeded> {
    check_lines(&lex(text, lang), lang)
}

/// [`check`] on a file's lines as already lexed as `lang`: the file pass measures a file on
/// the lexed lines its rules then share (`SourceFile::lexed`), so the check costs no lexing of
/// its own.
pub(crate) fn check_lines(lines: &[LexLine<'_>], lang: Language) -> Option<Exceeded> {
    let mut depth = 0usize;
    let mut tokens = 0usize;
    // Tokens since the last `;`, `{`, `}` or `,`.
    let mut run = 0usize;
    // Rust's generic arguments nest too (`Vec<Vec<…>>`), and syn recurses on them. `<` is also
    // a comparison, so only within a statement: a type's angle brackets never cross `;`/`{`/`}`
    // (they do cross commas: `HashMap<K, HashMap<K, …>>`).
    let mut angles = 0usize;
    // Only syn parses by recursive descent; the other languages end statements at newlines
    // (Python, YAML), and their text-level rules were measured on chains up to the token limit.
    let rust = lang == Language::Rust;
    for line in lines {
        for seg in &line.segs {
            let code = match seg {
                Seg::Code(code) => code,
                Seg::Str(_) => {
                    tokens += 1;
                    continue;
                }
                Seg::Comment(_) => continue,
            };
            let mut in_word = false;
            for b in code.bytes() {
                let word = b.is_ascii_alphanumeric() || b == b'_' || !b.is_ascii();
                let token = if word {
                    usize::from(!in_word)
                } else {
                    usize::from(!b.is_ascii_whitespace())
                };
                tokens += token;
                let statement_end = matches!(b, b';' | b'{' | b'}');
                run = if statement_end || b == b',' {
                    0
                } else {
                    run + token
                };
                if rust {
                    angles = match b {
                        _ if statement_end => 0,
                        b'<' => angles + 1,
                        b'>' => angles.saturating_sub(1),
                        _ => angles,
                    };
                    if angles > MAX_NESTING {
                        return Some(Exceeded {
                            line: line.number,
                            what: format!("generic arguments nested deeper than {MAX_NESTING}"),
                        });
                    }
                }
                in_word = word;
                match b {
                    b'(' | b'[' | b'{' => {
                        depth += 1;
                        if depth > MAX_NESTING {
                            return Some(Exceeded {
                                line: line.number,
                                what: format!("brackets nested deeper than {MAX_NESTING}"),
                            });
                        }
                    }
                    // A stray closer cannot make room for more openers later on.
                    b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
        }
        // After the line's brackets: nesting is the more telling reason for one line.
        if line.text.len() > MAX_LINE_BYTES {
            return Some(Exceeded {
                line: line.number,
                what: format!(
                    "a line of {} bytes (limit {MAX_LINE_BYTES})",
                    line.text.len()
                ),
            });
        }
        if rust && run > MAX_STATEMENT_TOKENS {
            return Some(Exceeded {
                line: line.number,
                what: format!("a statement of more than {MAX_STATEMENT_TOKENS} tokens"),
            });
        }
        if tokens > MAX_TOKENS {
            return Some(Exceeded {
                line: line.number,
                what: format!("more than {MAX_TOKENS} tokens"),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(open: char, close: char, n: usize) -> String {
        let mut text = String::from("pub fn table() ");
        text.extend(std::iter::repeat_n(open, n));
        text.extend(std::iter::repeat_n(close, n));
        text.push('\n');
        text
    }

    #[test]
    fn deep_nesting_is_found_at_its_line_with_the_limit() {
        let deep = check(&nested('{', '}', 50_000), Language::Rust).expect("too deep");
        assert_eq!(deep.line, 1);
        assert_eq!(
            deep.reason(),
            "not analysable: brackets nested deeper than 256 at line 1"
        );
        assert!(check(&nested('(', ')', MAX_NESTING), Language::Rust).is_none());
        assert!(check(&nested('[', ']', MAX_NESTING + 1), Language::Go).is_some());
    }

    #[test]
    fn brackets_in_literals_and_comments_neither_count_nor_hide_code() {
        let quoted = format!("let a = \"{}\"; // {}\n", "{".repeat(500), "(".repeat(500));
        assert_eq!(check(&quoted, Language::Rust), None);
        // Closers in strings do not offset the blocks around them (`{"}"` is a block).
        let hidden = format!("fn f() {}\n", "{\"}\"".repeat(300));
        assert_eq!(
            check(&hidden, Language::Rust).map(|e| e.what),
            Some("brackets nested deeper than 256".to_string())
        );
    }

    #[test]
    fn chains_without_brackets_are_bounded_by_statement_length_and_generic_depth() {
        let unary = format!(
            "fn f() {{ x = {}y; }}\n",
            "!\n".repeat(MAX_STATEMENT_TOKENS)
        );
        assert_eq!(
            check(&unary, Language::Rust).map(|e| e.what),
            Some("a statement of more than 2000 tokens".to_string())
        );
        let statements = "x = !!y;\n".repeat(MAX_STATEMENT_TOKENS / 5);
        assert_eq!(check(&statements, Language::Rust), None);
        let generic = format!("type T = {}u8{};\n", "M<u8, ".repeat(300), ">".repeat(300));
        assert_eq!(
            check(&generic, Language::Rust).map(|e| e.what),
            Some("generic arguments nested deeper than 256".to_string())
        );
        // Languages without `;` or braces (Python, YAML) have no Rust-style statement runs.
        let python = "x = a + b\n".repeat(MAX_STATEMENT_TOKENS);
        assert_eq!(check(&python, Language::Python), None);
        assert_eq!(
            check(
                &"key: value\n".repeat(MAX_STATEMENT_TOKENS),
                Language::Config
            ),
            None
        );
        // Comparisons are not generics once a statement ends, nor outside Rust.
        let compares = "if a < b { c }\n".repeat(400);
        assert_eq!(check(&compares, Language::Rust), None);
        assert_eq!(check(&"a < b\n".repeat(400), Language::Python), None);
    }

    #[test]
    fn long_lines_and_token_floods_are_limits_too() {
        let long = format!("x = 1\ny = '{}'\n", "a".repeat(MAX_LINE_BYTES));
        assert_eq!(
            check(&long, Language::Python),
            Some(Exceeded {
                line: 2,
                what: format!("a line of {} bytes (limit 65536)", MAX_LINE_BYTES + 6),
            })
        );
        let many = "a+b;\n".repeat(MAX_TOKENS / 4 + 1);
        assert_eq!(
            check(&many, Language::JavaScript).map(|e| e.what),
            Some("more than 200000 tokens".to_string())
        );
        let plenty = "a+b;\n".repeat(MAX_TOKENS / 4 - 1);
        assert_eq!(check(&plenty, Language::JavaScript), None);
    }
}
