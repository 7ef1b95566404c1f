//! A file's lines lexed once and shared by every rule of the file: an Inspector's text rules
//! each ask for the lexed lines, and lexing (with its per-line segment vectors) used to run
//! once per rule — about a third of a cold review's CPU on a large tree.

use std::borrow::Cow;

use super::{lex, LexLine};
use crate::engine::Language;

type Lines<'a> = Vec<LexLine<'a>>;

self_cell::self_cell!(
    /// The lexed lines together with the copy of the text they borrow from.
    pub(crate) struct LexedText {
        owner: String,
        #[covariant]
        dependent: Lines,
    }
);

impl std::fmt::Debug for LexedText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LexedText({} lines)", self.borrow_dependent().len())
    }
}

impl LexedText {
    /// Lexes `text` as `lang`.
    pub(crate) fn of(text: &str, lang: Language) -> LexedText {
        LexedText::new(text.to_owned(), |t| lex(t, lang))
    }

    /// The lines.
    pub(crate) fn lines(&self) -> &[LexLine<'_>] {
        self.borrow_dependent()
    }
}

/// The cached lines when `lang` is the one they were lexed as, else `text` lexed afresh.
pub(crate) fn lines_as<'a>(
    cached: &'a LexedText,
    cached_lang: Language,
    text: &'a str,
    lang: Language,
) -> Cow<'a, [LexLine<'a>]> {
    if cached_lang == lang {
        Cow::Borrowed(cached.lines())
    } else {
        Cow::Owned(lex(text, lang))
    }
}
