//! Following a test's calls into the file's own helpers, for every language: a test asserts when
//! one of its lines does, or when it calls a function or macro of the same file that does
//! (directly or through another helper, [`HELPER_DEPTH`] deep). What one line does is the
//! language's [`Facts`]; the following and remembering is shared.

/// How deep helpers calling helpers are followed.
const HELPER_DEPTH: usize = 3;

/// What one line of code does that matters here: whether it asserts by itself, and the names
/// it calls — which assert when they are the file's own helpers.
#[derive(Debug)]
pub(super) struct Facts<'c> {
    /// It asserts (an assertion, a checking helper, a mock expectation, …).
    pub(super) direct: bool,
    /// The names it calls.
    pub(super) calls: Vec<&'c str>,
}

/// The file's helpers by name, judged on demand (only those a test calls) and remembered.
pub(super) struct Helpers<'c, F> {
    codes: &'c [String],
    /// (name, first line index, last line index, judgement once made).
    defs: Vec<(String, usize, usize, Option<bool>)>,
    facts: F,
}

impl<'c, F: Fn(&'c str) -> Facts<'c>> Helpers<'c, F> {
    /// The helpers `defs` (name, first and last line index) over the lines' `codes`, each line
    /// read by `facts`.
    pub(super) fn new(codes: &'c [String], defs: Vec<(String, usize, usize)>, facts: F) -> Self {
        let defs = defs
            .into_iter()
            .map(|(name, start, end)| (name, start, end, None))
            .collect();
        Helpers { codes, defs, facts }
    }

    /// Whether lines `start..=end` assert, following calls of the file's helpers.
    pub(super) fn range_asserts(&mut self, start: usize, end: usize, depth: usize) -> bool {
        let codes = self.codes;
        let mut called: Vec<&'c str> = Vec::new();
        for code in &codes[start..=end.min(codes.len() - 1)] {
            let facts = (self.facts)(code);
            if facts.direct {
                return true;
            }
            called.extend(facts.calls);
        }
        depth < HELPER_DEPTH
            && called
                .into_iter()
                .any(|name| self.helper_asserts(name, depth + 1))
    }

    fn helper_asserts(&mut self, name: &str, depth: usize) -> bool {
        let Some(k) = self.defs.iter().position(|d| d.0 == name) else {
            return false;
        };
        let (start, end, known) = (self.defs[k].1, self.defs[k].2, self.defs[k].3);
        if let Some(known) = known {
            return known;
        }
        // Assume no while judging, so recursion through itself ends.
        self.defs[k].3 = Some(false);
        let asserts = self.range_asserts(start, end, depth);
        self.defs[k].3 = Some(asserts);
        asserts
    }
}
