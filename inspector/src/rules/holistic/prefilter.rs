//! Cheap pre-filters for the holistic rules that read the syntax tree: necessary conditions on a
//! Rust file's code, so `Rule::wants` skips the syn parse of every file a rule provably cannot
//! fire on. A check may answer `true` for a file the rule then finds nothing in; it must never
//! answer `false` for a file the rule would fire on.
//!
//! Two stages, both linear. First a [`Needle`]'s gate on the raw text: a substring search for its
//! words (fast), each hit checked as a whole word with the neighbours the needle needs (`!` after
//! a macro name, `.` before a method), where a comment or a line break in between always passes.
//! Then, for files that pass, a scan of the code tokens: the file's lexed lines (cached on the
//! file, so no extra lexing) with comments skipped and every string or char literal one opaque
//! [`Tok::Lit`], so a needle in a doc comment or a message never lets a file through. A file whose
//! delimiters do not balance is always wanted: its lexing (or the file) is off, and no token can
//! be trusted to be absent.
//!
//! [`loops::Loops`] follows the loops of the code by delimiter depth.

mod loops;

pub(super) use loops::{any_token_in_loops, LoopKind};

use crate::engine::{Language, SourceFile};
use crate::lexical::{LexLine, Seg};

/// A code token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tok<'a> {
    /// An identifier, keyword or number.
    Word(&'a str),
    /// A lifetime or loop label, without its `'`.
    Lifetime(&'a str),
    /// A string, char or byte literal (a multi-line one gives one per line).
    Lit,
    /// Any other byte of code: `{`, `.`, `!`, `:` (so `::` is two).
    Punct(u8),
}

/// Bytes that belong to a word: identifier bytes (as `lexical::is_ident`) and any non-ASCII byte
/// (Rust identifiers may be Unicode; a word never ends inside a UTF-8 sequence). A table: the
/// scans ask it of every byte.
const WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80;
        b += 1;
    }
    table
};

/// Whether a byte belongs to a word ([`WORD_BYTES`]).
fn is_word_byte(b: u8) -> bool {
    WORD_BYTES[usize::from(b)]
}

/// The next token of a code segment from byte `i`: the token and the index after it.
fn next_in_code(code: &str, mut i: usize) -> Option<(Tok<'_>, usize)> {
    let b = code.as_bytes();
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    let first = *b.get(i)?;
    let lifetime = first == b'\'' && b.get(i + 1).is_some_and(|&c| is_word_byte(c));
    if !(lifetime || is_word_byte(first)) {
        return Some((Tok::Punct(first), i + 1));
    }
    let start = i + usize::from(lifetime);
    let mut end = start + 1;
    while end < b.len() && is_word_byte(b[end]) {
        end += 1;
    }
    let text = &code[start..end];
    let tok = if lifetime {
        Tok::Lifetime(text)
    } else {
        Tok::Word(text)
    };
    Some((tok, end))
}

/// The code tokens of lexed Rust lines, in order.
struct Tokens<'l, 'a> {
    lines: std::slice::Iter<'l, LexLine<'a>>,
    segs: std::slice::Iter<'l, Seg<'a>>,
    /// The code segment being read, and where.
    code: &'a str,
    at: usize,
}

impl<'l, 'a> Tokens<'l, 'a> {
    fn new(lines: &'l [LexLine<'a>]) -> Self {
        Tokens {
            lines: lines.iter(),
            segs: [].iter(),
            code: "",
            at: 0,
        }
    }
}

impl<'a> Iterator for Tokens<'_, 'a> {
    type Item = Tok<'a>;

    fn next(&mut self) -> Option<Tok<'a>> {
        loop {
            if let Some((tok, end)) = next_in_code(self.code, self.at) {
                self.at = end;
                return Some(tok);
            }
            match self.segs.next() {
                Some(Seg::Code(code)) => (self.code, self.at) = (code, 0),
                Some(Seg::Str(_)) => {
                    (self.code, self.at) = ("", 0);
                    return Some(Tok::Lit);
                }
                Some(Seg::Comment(_)) => {}
                None => self.segs = self.lines.next()?.segs.iter(),
            }
        }
    }
}

/// The current token and the ones just before it.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Window<'a> {
    /// A ring of the last tokens, the current one at `head`.
    toks: [Option<Tok<'a>>; 4],
    head: usize,
}

impl<'a> Window<'a> {
    fn push(&mut self, tok: Tok<'a>) {
        self.head = (self.head + 1) % self.toks.len();
        self.toks[self.head] = Some(tok);
    }

    /// The token `n` places before the current one (0: the current one; at most 3).
    pub(super) fn back(&self, n: usize) -> Option<Tok<'a>> {
        let len = self.toks.len();
        self.toks[(self.head + len - n % len) % len]
    }

    /// The word `n` places back, if that token is one.
    pub(super) fn word_back(&self, n: usize) -> Option<&'a str> {
        match self.back(n) {
            Some(Tok::Word(w)) => Some(w),
            _ => None,
        }
    }

    /// Whether the token `n` places back is the punctuation `p`.
    pub(super) fn punct_back(&self, n: usize, p: u8) -> bool {
        self.back(n) == Some(Tok::Punct(p))
    }

    /// The current token's word.
    pub(super) fn word(&self) -> Option<&'a str> {
        self.word_back(0)
    }

    /// The name of a method at the current token: a word just after a `.`.
    pub(super) fn method(&self) -> Option<&'a str> {
        self.word().filter(|_| self.punct_back(1, b'.'))
    }
}

/// Whether `found` holds at some code token of `file` (read as Rust), or the file's delimiters
/// do not balance (see the module docs).
pub(super) fn any_token(file: &SourceFile, mut found: impl FnMut(&Window<'_>) -> bool) -> bool {
    let lines = file.lexed(Language::Rust);
    let mut window = Window::default();
    let mut open = Vec::new();
    let mut balanced = true;
    let hit = Tokens::new(&lines).any(|tok| {
        window.push(tok);
        match tok {
            Tok::Punct(b'(') => open.push(b')'),
            Tok::Punct(b'[') => open.push(b']'),
            Tok::Punct(b'{') => open.push(b'}'),
            Tok::Punct(close @ (b')' | b']' | b'}')) => balanced &= open.pop() == Some(close),
            _ => {}
        }
        found(&window)
    });
    hit || !balanced || !open.is_empty()
}

/// A token the pre-filters look for.
#[derive(Debug, Clone, Copy)]
pub(super) enum Needle<'n> {
    /// One of these words.
    Word(&'n [&'n str]),
    /// One of these names after a `.`: a method call's (or field's) name.
    Method(&'n [&'n str]),
    /// One of these names before a `!`: a macro invocation.
    Macro(&'n [&'n str]),
    /// One of these words before a `:`: a path's head (`String` of `String::from`).
    PathHead(&'n [&'n str]),
    /// One of these words after a `:`: the tail of a path (`spawn` of `tokio::spawn`).
    PathTail(&'n [&'n str]),
    /// The first word directly followed by the second: `static mut`.
    Pair(&'n str, &'n str),
}

impl Needle<'_> {
    /// Whether the current token of `t` completes the needle.
    pub(super) fn matches(&self, t: &Window<'_>) -> bool {
        let word_in = |n: usize, words: &[&str]| t.word_back(n).is_some_and(|w| words.contains(&w));
        match *self {
            Needle::Word(words) => word_in(0, words),
            Needle::Method(names) => t.method().is_some_and(|m| names.contains(&m)),
            Needle::Macro(names) => t.punct_back(0, b'!') && word_in(1, names),
            Needle::PathHead(heads) => t.punct_back(0, b':') && word_in(1, heads),
            Needle::PathTail(tails) => {
                word_in(0, tails) && t.punct_back(1, b':') && t.punct_back(2, b':')
            }
            Needle::Pair(first, second) => {
                t.word() == Some(second) && t.word_back(1) == Some(first)
            }
        }
    }

    /// The raw-text gate: whether `file`'s text holds the needle's word at a site it may be
    /// in code (a necessary condition for [`Needle::matches`] on some token of the file).
    pub(super) fn in_text(&self, file: &SourceFile) -> bool {
        let text = &file.text;
        let any = |words: &[&str], fits: fn(&str, &str) -> bool| {
            words.iter().any(|w| word_site(text, w, fits))
        };
        match *self {
            Needle::Word(words) => any(words, |_, _| true),
            Needle::Method(names) => any(names, |before, _| may_end_with(before, '.')),
            Needle::Macro(names) => any(names, |_, after| may_start_with(after, "!")),
            Needle::PathHead(heads) => any(heads, |_, after| may_start_with(after, ":")),
            Needle::PathTail(tails) => any(tails, |before, _| may_end_with(before, ':')),
            Needle::Pair(first, second) => {
                word_site(text, first, |_, after| may_start_with(after, second))
            }
        }
    }
}

/// Whether `text` holds `word` as a whole word where `fits(text before, text after)`.
fn word_site(text: &str, word: &str, fits: impl Fn(&str, &str) -> bool) -> bool {
    // `contains` is vectorised where `find` is not: most files are turned down here.
    if !text.contains(word) {
        return false;
    }
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find(word).map(|p| p + from) {
        let end = at + word.len();
        let whole =
            (at == 0 || !is_word_byte(b[at - 1])) && b.get(end).is_none_or(|&c| !is_word_byte(c));
        if whole && fits(&text[..at], &text[end..]) {
            return true;
        }
        from = end;
    }
    false
}

/// Whether code may go on from `after` with `what`: it does once spaces are skipped, or a
/// comment or a line break comes first (what follows it is not read).
fn may_start_with(after: &str, what: &str) -> bool {
    let rest = after.trim_start_matches([' ', '\t']);
    rest.is_empty() || rest.starts_with(['\n', '\r', '/']) || rest.starts_with(what)
}

/// Whether the code before `before`'s end may end with `what` (the mirror of
/// [`may_start_with`]; a block comment ends with `/`).
fn may_end_with(before: &str, what: char) -> bool {
    let rest = before.trim_end_matches([' ', '\t']);
    rest.is_empty() || rest.ends_with(['\n', '\r', '/']) || rest.ends_with(what)
}

/// Whether `file`'s code holds tokens matching each of `needles`, in this order: the first
/// somewhere, the second after it, and so on. Files whose text fails a needle's gate are not
/// scanned.
pub(super) fn code_has(file: &SourceFile, needles: &[Needle<'_>]) -> bool {
    if !needles.iter().all(|n| n.in_text(file)) {
        return false;
    }
    let mut next = 0;
    any_token(file, |t| {
        if needles.get(next).is_some_and(|n| n.matches(t)) {
            next += 1;
        }
        next == needles.len()
    })
}

/// Whether `rule` wants a library file `src/a.rs` holding `text` (for the rules' tests).
#[cfg(test)]
pub(super) fn wanted(rule: &dyn crate::engine::Rule, text: &str) -> bool {
    rule.wants(&SourceFile::new("src/a.rs", text))
}

#[cfg(test)]
mod tests;
