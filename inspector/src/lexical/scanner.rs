//! The scanner proper: it walks a file line by line, carrying the open construct (block
//! comment or multi-line string) from one line to the next, and cuts each line into segments.

use super::delimiters::{
    block_end, line_comment_marker, next_stop, regex_len, regex_may_start, rust_char_len,
    string_end, string_open,
};
use super::search::{count_lines, find_any};
use super::{Comment, LexLine, Seg};
use crate::engine::Language;

/// Where the scanner is when a line ends inside a construct.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Code,
    /// Inside a block comment of this nesting depth.
    Block {
        depth: u32,
        doc: bool,
    },
    /// Inside a string closed by `close` (escapes honoured unless `raw`).
    Str {
        close: &'static str,
        raw: bool,
    },
}

/// Splits `text` into lines of segments for `lang`. Configuration files have no comment or
/// string syntax here (every line is code): their formats differ too much to share one.
pub(crate) fn lex(text: &str, lang: Language) -> Vec<LexLine<'_>> {
    let mut state = State::Code;
    let mut out = Vec::with_capacity(count_lines(text));
    // Other lines are scanned into one reused buffer and then copied out at their exact size:
    // one allocation per non-empty line, however many segments it has.
    let mut scratch = Vec::new();
    let mut from = 0;
    while from < text.len() {
        let (line, next, plain) = next_line(text, from, state == State::Code, lang);
        let segs = if plain {
            match line {
                "" => Vec::new(),
                code => vec![Seg::Code(code)],
            }
        } else {
            scratch.clear();
            state = lex_line(line, lang, state, &mut scratch);
            scratch.to_vec()
        };
        out.push(LexLine {
            number: out.len() as u32 + 1,
            text: line,
            segs,
        });
        from = next;
    }
    out
}

/// The line of `text` that starts at `from` (split as [`str::lines`] splits: at `\n`, dropping
/// a `\r` just before it), where the next line starts, and whether the line is plain code
/// throughout. Most lines are: when the scanner starts one in code, a single search finds its
/// end or the first byte on it that may start a comment or literal, whichever comes first.
fn next_line(text: &str, from: usize, in_code: bool, lang: Language) -> (&str, usize, bool) {
    let b = text.as_bytes();
    let first = if in_code {
        next_stop(b, from, lang)
    } else {
        find_any(b, from, [b'\n'])
    };
    let plain = in_code && first.is_none_or(|at| b[at] == b'\n');
    let end = match first {
        Some(at) if b[at] != b'\n' => find_any(b, at, [b'\n']),
        end => end,
    };
    match end {
        Some(end) => {
            let line = &text[from..end];
            (line.strip_suffix('\r').unwrap_or(line), end + 1, plain)
        }
        None => (&text[from..], text.len(), plain),
    }
}

fn lex_line<'a>(line: &'a str, lang: Language, mut state: State, segs: &mut Vec<Seg<'a>>) -> State {
    let b = line.as_bytes();
    // `i` is the scan position; `start` is where the current code or string segment began.
    let mut i = 0;
    let mut start = 0;
    let push_code = |segs: &mut Vec<Seg<'a>>, from: usize, to: usize| {
        if to > from {
            segs.push(Seg::Code(&line[from..to]));
        }
    };
    let slash_comments = matches!(
        lang,
        Language::Rust | Language::TypeScript | Language::JavaScript | Language::Go
    );
    while i < b.len() {
        match state {
            State::Block { depth, doc } => {
                let (end, depth_left) = block_end(b, i, depth, lang == Language::Rust);
                let body_end = if depth_left == 0 { end - 2 } else { end };
                segs.push(Seg::Comment(Comment {
                    body: &line[i..body_end],
                    doc,
                }));
                i = end;
                start = i;
                state = if depth_left == 0 {
                    State::Code
                } else {
                    State::Block {
                        depth: depth_left,
                        doc,
                    }
                };
            }
            State::Str { close, raw } => {
                let end = string_end(b, i, close, raw);
                segs.push(Seg::Str(&line[start..end.unwrap_or(b.len())]));
                match end {
                    Some(e) => {
                        i = e;
                        start = i;
                        state = State::Code;
                    }
                    None => return keep_string(lang, close, raw),
                }
            }
            State::Code => {
                // Plain code up to the next byte that may start something else.
                let Some(stop) = next_stop(b, i, lang) else {
                    break;
                };
                i = stop;
                let rest = &b[i..];
                if (lang == Language::Python && rest[0] == b'#')
                    || (slash_comments && rest.starts_with(b"//"))
                {
                    push_code(segs, start, i);
                    let (skip, doc) = line_comment_marker(rest, lang);
                    segs.push(Seg::Comment(Comment {
                        body: &line[i + skip..],
                        doc,
                    }));
                    return State::Code;
                }
                if slash_comments && rest.starts_with(b"/*") {
                    push_code(segs, start, i);
                    let doc = (rest.starts_with(b"/**") && !rest.starts_with(b"/**/")
                        || rest.starts_with(b"/*!"))
                        && !rest.starts_with(b"/***");
                    let skip = if doc { 3 } else { 2 };
                    state = State::Block { depth: 1, doc };
                    i += skip;
                    start = i;
                    continue;
                }
                if let Some(open) = string_open(b, start, i, lang) {
                    push_code(segs, start, open.at);
                    start = open.at;
                    i = open.at + open.len;
                    state = State::Str {
                        close: open.close,
                        raw: open.raw,
                    };
                    continue;
                }
                if lang == Language::Rust && rest[0] == b'\'' {
                    if let Some(len) = rust_char_len(rest) {
                        push_code(segs, start, i);
                        segs.push(Seg::Str(&line[i..i + len]));
                        i += len;
                        start = i;
                        continue;
                    }
                }
                if matches!(lang, Language::JavaScript | Language::TypeScript)
                    && rest[0] == b'/'
                    && regex_may_start(&b[..i])
                {
                    if let Some(len) = regex_len(rest) {
                        push_code(segs, start, i);
                        segs.push(Seg::Str(&line[i..i + len]));
                        i += len;
                        start = i;
                        continue;
                    }
                }
                i += 1;
            }
        }
    }
    if state == State::Code {
        push_code(segs, start, b.len());
    }
    state
}

/// The state after a line that ends inside a string: only multi-line kinds carry over.
fn keep_string(lang: Language, close: &'static str, raw: bool) -> State {
    let multi_line = match lang {
        Language::Rust => true,
        Language::Python => close.len() == 3,
        Language::JavaScript | Language::TypeScript | Language::Go => close == "`",
        Language::Config => false,
    };
    if multi_line {
        State::Str { close, raw }
    } else {
        State::Code
    }
}
