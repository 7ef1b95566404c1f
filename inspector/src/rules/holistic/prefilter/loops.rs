//! The loops open at each code token, read from delimiter depth alone.
//!
//! Each loop [`Loops`] reports spans at least the real loop expression (from the `in` of a
//! `for`, from the keyword of a `loop` or `while`), possibly more, so a token inside a loop is
//! always seen inside it. A `for` counts from its `in` at the keyword's depth, so neither
//! `impl X for Y {` nor `for<'a>` opens one. A loop ends when a delimiter around it closes, or at
//! a `}` closing a brace opened at its own depth when the next token cannot continue an
//! expression: a header such as `for x in match y { .. } {` or `while let S { a } = s {` closes
//! a brace at that depth before the body opens, and is followed by `{`, `=`, `.`, `else` and the
//! like, never by a word or a `;`.

use super::{any_token, SourceFile, Tok, Window};

/// The kind of a loop [`Loops`] follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::rules::holistic) enum LoopKind {
    /// `for PAT in EXPR { .. }`
    For,
    /// `loop { .. }`
    Loop,
    /// `while COND { .. }`
    While,
    /// `while let PAT = EXPR { .. }`
    WhileLet,
}

/// A loop open at the current token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Loop {
    kind: LoopKind,
    /// Delimiter depth of its keyword: its header's own tokens are at this depth, its body deeper.
    depth: u32,
    /// It may run for as long as the program does, by the shapes `lifecycle/loops.rs` accepts:
    /// every `loop`; a `while let` whose header calls `recv`, `accept`, `message`, `recv_async`,
    /// or both `next` and `await`; a `for` whose header calls `incoming`. (Exits are not read.)
    endless: bool,
    /// A `while let` header's `next` and `await`, seen so far.
    next: bool,
    awaited: bool,
    /// A token of interest is in it ([`Loops::endless_marked`]).
    mark: bool,
}

impl Loop {
    /// Reads a word of the loop's own header (a word at its depth).
    fn header_word(&mut self, w: &str) {
        match (self.kind, w) {
            (LoopKind::WhileLet, "recv" | "accept" | "message" | "recv_async") => {
                self.endless = true
            }
            (LoopKind::WhileLet, "next") => self.next = true,
            (LoopKind::WhileLet, "await") => self.awaited = true,
            (LoopKind::For, "incoming") => self.endless = true,
            _ => {}
        }
        self.endless |= self.next && self.awaited;
    }
}

/// Tokens after which a `}` at a loop's own depth still belongs to the loop's header expression.
const CONTINUES: &[u8] = b"{.?([+-*/%&|^<>=!";

/// The loops open at each code token, fed one token at a time.
#[derive(Debug, Default)]
pub(in crate::rules::holistic) struct Loops {
    /// Open `(`, `[` and `{` at the current token.
    depth: u32,
    /// Depths of `for` keywords whose `in` has not come yet.
    pending_for: Vec<u32>,
    /// Open loops, outermost first.
    open: Vec<Loop>,
    /// The depth a `}` just returned to, when loops open at that depth may have ended with it.
    closed_brace_at: Option<u32>,
    /// A `while` was the previous token.
    after_while: bool,
}

impl Loops {
    /// How many loops of `kind` are open.
    pub(in crate::rules::holistic) fn count(&self, kind: LoopKind) -> usize {
        self.open.iter().filter(|l| l.kind == kind).count()
    }

    /// Updates the open loops for the current token of `t`.
    pub(in crate::rules::holistic) fn step(&mut self, t: &Window<'_>) {
        let Some(tok) = t.back(0) else {
            return;
        };
        if let Some(at) = self.closed_brace_at.take() {
            let continues = match tok {
                Tok::Punct(p) => CONTINUES.contains(&p),
                Tok::Word(w) => w == "else" || w == "as",
                Tok::Lifetime(_) | Tok::Lit => false,
            };
            if !continues {
                self.open.retain(|l| l.depth != at);
            }
        }
        let after_while = std::mem::take(&mut self.after_while);
        let depth = self.depth;
        match tok {
            Tok::Punct(b'(' | b'[' | b'{') => self.depth += 1,
            Tok::Punct(c @ (b')' | b']' | b'}')) => {
                let depth = depth.saturating_sub(1);
                self.depth = depth;
                self.open.retain(|l| l.depth <= depth);
                self.pending_for.retain(|&d| d <= depth);
                if c == b'}' && self.open.iter().any(|l| l.depth == depth) {
                    self.closed_brace_at = Some(depth);
                }
            }
            Tok::Punct(b';') => self.pending_for.retain(|&d| d != depth),
            Tok::Word("for") => {
                self.pending_for.retain(|&d| d != depth);
                self.pending_for.push(depth);
            }
            Tok::Word("in") if self.pending_for.last() == Some(&depth) => {
                self.pending_for.pop();
                self.enter(LoopKind::For);
            }
            Tok::Word("loop") => self.enter(LoopKind::Loop),
            Tok::Word("while") => {
                self.enter(LoopKind::While);
                self.after_while = true;
            }
            Tok::Word("let") if after_while => {
                if let Some(l) = self.open.last_mut() {
                    l.kind = LoopKind::WhileLet;
                }
            }
            Tok::Word(w) => {
                for l in self.open.iter_mut().filter(|l| l.depth == depth) {
                    l.header_word(w);
                }
            }
            _ => {}
        }
    }

    /// Marks the open loops when `hit` (a token of interest is in them); whether an endless
    /// loop ([`Loop::endless`]) is marked, whichever came first in its header.
    pub(in crate::rules::holistic) fn endless_marked(&mut self, hit: bool) -> bool {
        self.open.iter_mut().fold(false, |any, l| {
            l.mark |= hit;
            any || (l.mark && l.endless)
        })
    }

    fn enter(&mut self, kind: LoopKind) {
        self.open.push(Loop {
            kind,
            depth: self.depth,
            endless: kind == LoopKind::Loop,
            next: false,
            awaited: false,
            mark: false,
        });
    }
}

/// Whether `found` holds at some code token of `file`, given the loops open at that token (or
/// the file's delimiters do not balance, as for [`any_token`]).
pub(in crate::rules::holistic) fn any_token_in_loops(
    file: &SourceFile,
    mut found: impl FnMut(&Window<'_>, &mut Loops) -> bool,
) -> bool {
    let mut loops = Loops::default();
    any_token(file, |t| {
        loops.step(t);
        found(t, &mut loops)
    })
}
