//! What TLS code says of itself about turning verification off — trusted only on lines the
//! change under review did not write (`tls_disabled` reports these as excuses): a function named
//! or documented as making an unverified connection, and verification handed to the code's own
//! callback.

use crate::lexical::functions::FnSpan;
use crate::lexical::{LexLine, Seg};

/// Words of a function's name or its doc that say it makes an unverified connection on purpose.
const UNVERIFIED_WORDS: [&str; 8] = [
    "unverified",
    "insecure",
    "noverify",
    "no_verify",
    "skip_verify",
    "not verify",
    "doesn't verify",
    "without verif",
];

/// Whether the innermost function around `number` says, by its name or the lines of its doc
/// (comments above it, a docstring below its header), that it makes an unverified connection
/// — Python's own `ssl._create_unverified_context`, a crawler's "context that doesn't verify
/// certificates": the function exists to offer that choice, and its callers make it.
pub(super) fn says_unverified(lexed: &[LexLine<'_>], functions: &[FnSpan], number: u32) -> bool {
    let Some(f) = functions
        .iter()
        .filter(|f| f.start <= number && number <= f.end)
        .max_by_key(|f| f.start)
    else {
        return false;
    };
    // Comments and strings only, from three lines above the header to the line before the hit.
    let header = f.start as usize - 1;
    let until = (header + 5).min(number as usize - 1).max(header);
    let doc: String = lexed[header.saturating_sub(3)..until]
        .iter()
        .flat_map(|l| l.segs.iter())
        .filter_map(|s| match s {
            Seg::Comment(c) => Some(c.body.to_lowercase()),
            Seg::Str(t) => Some(t.to_lowercase()),
            Seg::Code(_) => None,
        })
        .collect();
    let name = f.name.to_lowercase();
    UNVERIFIED_WORDS
        .iter()
        .any(|w| name.contains(w) || doc.contains(w))
}

/// Whether the next lines hand verification to the code's own check (Go's
/// `InsecureSkipVerify = true` then `VerifyPeerCertificate = func…`, the documented way to
/// verify the chain without the host name): verification moved, not turned off.
pub(super) fn verifies_itself(after: &[LexLine<'_>]) -> bool {
    after
        .iter()
        .filter(|l| !l.code().trim().is_empty())
        .take(3)
        .any(|l| {
            let code = l.code();
            code.contains("VerifyPeerCertificate") || code.contains("VerifyConnection")
        })
}
