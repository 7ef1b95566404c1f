//! A comment- and string-aware line scanner for the text-level rules.
//!
//! Text rules must not mistake a comment marker inside a string for a comment, nor an
//! assignment quoted in a comment for code. This scanner splits every line into code, string-literal and comment
//! segments, carrying block comments and multi-line strings across lines. It knows just enough
//! of each language's lexical grammar (Rust raw strings, nested block comments and lifetimes,
//! Python triple quotes, JS template literals and regex literals, Go raw strings); it is not a
//! tokenizer and never fails: unterminated constructs simply end at the end of the file.

pub(crate) mod args;
pub(crate) mod cached;
pub(crate) mod calls;
mod delimiters;
pub(crate) mod functions;
pub(crate) mod names;
mod scanner;
mod search;

pub(crate) use scanner::lex;

/// One piece of a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seg<'a> {
    /// Code outside strings and comments.
    Code(&'a str),
    /// A string, char or regex literal (or the part of it on this line), quotes included.
    Str(&'a str),
    /// A comment (or the part of a block comment on this line).
    Comment(Comment<'a>),
}

/// The part of a comment on one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Comment<'a> {
    /// The text without its delimiters (`//`, `#`, `/*`, `*/`, the doc markers).
    pub(crate) body: &'a str,
    /// A documentation comment (`///`, `//!`, `/** */`, `/*! */`).
    pub(crate) doc: bool,
}

/// A line split into segments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LexLine<'a> {
    /// 1-based line number.
    pub(crate) number: u32,
    /// The raw line.
    pub(crate) text: &'a str,
    /// Its segments, in order.
    pub(crate) segs: Vec<Seg<'a>>,
}

impl<'a> LexLine<'a> {
    /// The code of the line with comments removed and each literal replaced by `""`.
    pub(crate) fn code(&self) -> String {
        let mut out = String::with_capacity(self.text.len());
        for seg in &self.segs {
            match seg {
                Seg::Code(c) => out.push_str(c),
                Seg::Str(_) => out.push_str("\"\""),
                Seg::Comment(_) => out.push(' '),
            }
        }
        out
    }

    /// The comments on the line.
    pub(crate) fn comments(&self) -> impl Iterator<Item = &Comment<'a>> {
        self.segs.iter().filter_map(|s| match s {
            Seg::Comment(c) => Some(c),
            _ => None,
        })
    }

    /// Whether the line holds code: [`LexLine::code`] is not blank (a literal counts). The
    /// same answer as `code().trim().is_empty()` negated, without building the string — the
    /// line-counting rules ask it of every line.
    pub(crate) fn has_code(&self) -> bool {
        self.segs.iter().any(|seg| match seg {
            Seg::Code(c) => !c.trim().is_empty(),
            Seg::Str(_) => true,
            Seg::Comment(_) => false,
        })
    }

    /// Whether the line holds a comment.
    pub(crate) fn has_comment(&self) -> bool {
        self.comments().next().is_some()
    }
}

/// The comments that annotate 1-based `line`: those on the line itself, then those of the
/// comment lines just above it, nearest first. Attribute lines (`#[..]`) in between are skipped;
/// a blank or code line ends the block.
pub(crate) fn comments_at<'l, 'a>(lines: &'l [LexLine<'a>], line: u32) -> Vec<&'l Comment<'a>> {
    let Some(index) = (line as usize).checked_sub(1).filter(|i| *i < lines.len()) else {
        return Vec::new();
    };
    let mut out: Vec<&Comment<'a>> = lines[index].comments().collect();
    for above in lines[..index].iter().rev() {
        let code = above.code();
        let code = code.trim();
        if code.starts_with("#[") || code.starts_with("#![") {
            continue;
        }
        if !code.is_empty() || !above.has_comment() {
            break;
        }
        out.extend(above.comments());
    }
    out
}

/// Whether a byte can be part of an identifier.
pub(crate) fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Whether `word` occurs in `text` with no identifier character on either side.
pub(crate) fn find_word(text: &str, word: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find(word).map(|p| p + from) {
        let end = at + word.len();
        let before_ok = at == 0 || !is_ident(b[at - 1]);
        let after_ok = end >= b.len() || !is_ident(b[end]);
        if before_ok && after_ok {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Language;

    fn kinds(line: &LexLine<'_>) -> Vec<String> {
        line.segs
            .iter()
            .map(|s| match s {
                Seg::Code(c) => format!("C[{c}]"),
                Seg::Str(c) => format!("S[{c}]"),
                Seg::Comment(c) => format!("{}[{}]", if c.doc { "D" } else { "K" }, c.body),
            })
            .collect()
    }

    #[test]
    fn rust_strings_comments_and_lifetimes() {
        let text = "let s = \"// no\"; // yes\nfn f<'a>(c: char) { '\"'; r#\"x \"# } /* a /* b */ c */ z\n/// doc\n";
        let lines = lex(text, Language::Rust);
        assert_eq!(
            kinds(&lines[0]),
            vec!["C[let s = ]", "S[\"// no\"]", "C[; ]", "K[ yes]"]
        );
        assert_eq!(
            kinds(&lines[1]),
            vec![
                "C[fn f<'a>(c: char) { ]",
                "S['\"']",
                "C[; ]",
                "S[r#\"x \"#]",
                "C[ } ]",
                "K[ a /* b */ c ]",
                "C[ z]"
            ]
        );
        assert_eq!(kinds(&lines[2]), vec!["D[ doc]"]);
        assert_eq!(lines[0].code(), "let s = \"\";  ");
    }

    #[test]
    fn raw_strings_close_on_their_own_hash_count() {
        let text = "let a = r#####\"x \"#### // y\"#####; // z\nlet b = br##\"\"#\"##.len();\n";
        let lines = lex(text, Language::Rust);
        assert_eq!(
            kinds(&lines[0]),
            vec![
                "C[let a = ]",
                "S[r#####\"x \"#### // y\"#####]",
                "C[; ]",
                "K[ z]"
            ]
        );
        assert_eq!(
            kinds(&lines[1]),
            vec!["C[let b = b]", "S[r##\"\"#\"##]", "C[.len();]"]
        );
    }

    #[test]
    fn lines_split_like_std() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\r\nb\r\n",
            "a\r\n\r\nb\rc\r",
            "\r",
            "\r\r\n\n\r",
            "é\n日本\r\n'x'",
        ] {
            let want: Vec<(u32, &str)> = (1..).zip(text.lines()).collect();
            for lang in [Language::Rust, Language::Python, Language::Config] {
                let got: Vec<(u32, &str)> =
                    lex(text, lang).iter().map(|l| (l.number, l.text)).collect();
                assert_eq!(got, want, "{text:?} as {lang:?}");
            }
        }
        let lines = lex("a // b\r\nx\r", Language::Rust);
        assert_eq!(kinds(&lines[0]), vec!["C[a ]", "K[ b]"]);
        assert_eq!(kinds(&lines[1]), vec!["C[x\r]"]);
    }

    #[test]
    fn has_code_is_a_non_blank_code_string() {
        let text =
            "  \n// only a comment\n\"lit\" // and a comment\n  x /* c */\n/* open\nstill */   \n";
        let lines = lex(text, Language::Rust);
        let has: Vec<bool> = lines.iter().map(LexLine::has_code).collect();
        assert_eq!(has, vec![false, false, true, true, false, false]);
        for line in &lines {
            assert_eq!(
                line.has_code(),
                !line.code().trim().is_empty(),
                "{}",
                line.text
            );
        }
    }

    #[test]
    fn multi_line_constructs_carry_over() {
        let lines = lex(
            "x = \"\"\"a\n# not a comment\n\"\"\" # yes\n",
            Language::Python,
        );
        assert!(!lines[1].has_comment());
        assert_eq!(kinds(&lines[2]), vec!["S[\"\"\"]", "C[ ]", "K[ yes]"]);
        let lines = lex("/* one\n TODO\n*/ x", Language::Go);
        assert_eq!(kinds(&lines[1]), vec!["K[ TODO]"]);
        assert_eq!(kinds(&lines[2]), vec!["K[]", "C[ x]"]);
    }

    #[test]
    fn js_regex_and_templates() {
        let lines = lex(
            "const r = /\"\\//g; a / b; `x // y` // c\n",
            Language::JavaScript,
        );
        assert_eq!(
            kinds(&lines[0]),
            vec![
                "C[const r = ]",
                "S[/\"\\//g]",
                "C[; a / b; ]",
                "S[`x // y`]",
                "C[ ]",
                "K[ c]"
            ]
        );
    }

    #[test]
    fn comments_at_a_line_span_the_comment_block_above() {
        let text = "let a = 1;\n// one\n\n// two\n/* three */\n#[attr]\nlet b = 2; // four\n";
        let lines = lex(text, Language::Rust);
        let bodies: Vec<&str> = comments_at(&lines, 7)
            .iter()
            .map(|c| c.body.trim())
            .collect();
        assert_eq!(bodies, vec!["four", "three", "two"]);
        assert!(comments_at(&lines, 1).is_empty());
        assert!(comments_at(&lines, 99).is_empty());
    }

    #[test]
    fn words_have_boundaries() {
        assert_eq!(find_word("a TODO b", "TODO"), Some(2));
        assert_eq!(find_word("TODOS TODO", "TODO"), Some(6));
        assert_eq!(find_word("MY_TODO", "TODO"), None);
    }
}
