//! CPF — the Compact Pipe-Delimited Format for Inspector reports and Auditor verdicts (the protocol spec).
//!
//! A CPF text is `KEY:VALUE` metadata (`VERDICT:`, `SCOPE:`) followed by sections: a header line
//! (`ISSUES:`) and then rows of `|`-separated fields, or free-text lines (`NOTES:`,
//! `ROADMAP_ADVISORY:`). The writer is strict and canonical; the reader is lenient where agents are
//! sloppy in harmless ways and precise (line number and problem) everywhere else.
//!
//! Decisions the spec leaves open, fixed here and why:
//! - **Escapes.** In rows, `\|`, `\\` and `\n` stand for a pipe, a backslash and a newline; the
//!   writer always escapes. Free-text lines (notes, advisories, the SCOPE value) are one field, so
//!   the writer escapes only `\\` and newlines there and the recovery notes read exactly
//!   `PARTIAL:inspector-quality|reason`. The reader also accepts `\|` there. An unknown escape
//!   (`\d`, a Windows path) is kept as written, because agents write such text unescaped.
//! - **`\:`** stands for a colon. The writer uses it only for a note that would otherwise read as a
//!   section header (`TODO:` alone on a line), so every note survives a round trip.
//! - **Unescaped `|` in the last field** is part of that field: a row is split into at most N
//!   fields, because agents write pipes in descriptions.
//! - **Whitespace.** Blank lines, `\r\n`, and spaces around lines and fields are ignored, so a
//!   field's own leading/trailing whitespace does not survive (it cannot be told from padding).
//! - **Fence.** A ```` ``` ````, ```` ```text ```` or ```` ```cpf ```` as the first non-blank line must
//!   be closed by ```` ``` ```` as the last non-blank line; an unclosed fence is an error, since it
//!   usually means truncated agent output.
//! - **Metadata** (`VERDICT:`, `SCOPE:`) is recognised only before the first section header: after
//!   that every line belongs to its section, so a note may start with `SCOPE:`. A repeated key is
//!   an error; `SCOPE:` with nothing after it is an empty scope.
//! - **Headers.** A known section name followed by `:` and nothing else starts (or resumes: rows
//!   are appended) that section, in any order. Any other line that looks like one (upper-case
//!   letters, digits, `_`, `-`, then `:`) is an unknown section and an error, also inside NOTES,
//!   so a misspelt header never swallows the rows after it.
//! - **Outside sections** only metadata and headers may appear; any other line is an error.
//! - **Empty fields.** Fields that identify a row (severity, category, agents, action, target,
//!   phase, spec, the REMOVED agent) must not be empty; location and the text fields (description,
//!   reason, original issue, resolution, conflicting findings) may be, since a repository-wide
//!   finding has an empty location.
//! - **Representable values.** The writer writes what it is given; a padded field, an empty
//!   required field or note, an agent name containing `+`, or a report verdict of
//!   SPEC-UPDATE-NEEDED (the reader rejects it: only the Auditor asks for a spec update) does not
//!   read back unchanged; nor does a report with no VERDICT, no row and no note (the reader
//!   refuses it, since read as a report it would be a clean one). Everything else does, and `format(parse(x))` is stable (property-tested).
//!
//! Parsing never panics: no indexing, no unwrap; every failure is a [`CpfError`].

mod convert;
mod document;
mod escape;
#[cfg(test)]
mod properties;
mod report;
mod row;
mod verdict;

pub use report::{format_report, parse_report, CpfIssue, CpfQuestion, ReportCpf};
pub use verdict::{format_verdict, parse_verdict, VerdictCpf, VerifiedRow};

/// A CPF text that could not be read: the 1-based line of the original input and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct CpfError {
    /// 1-based line number in the original input (fence and blank lines included).
    pub line: usize,
    /// The problem, in words a user can act on.
    pub problem: String,
}

impl CpfError {
    pub(crate) fn new(line: usize, problem: impl Into<String>) -> CpfError {
        CpfError {
            line,
            problem: problem.into(),
        }
    }
}
