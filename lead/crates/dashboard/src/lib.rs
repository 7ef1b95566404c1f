//! retake's dashboard pages, rendered on the server from typed values: this crate reads no
//! file and opens no socket (`retake dashboard` in the `lead` crate does both). Every page is a
//! whole HTML document that works without JavaScript — a snapshot — with its styles inline and
//! nothing fetched from elsewhere, so it works offline and from the scratch image. Pages are
//! built for keyboards and screen readers: landmarks, captioned tables with header cells,
//! `<details>` for what expands, and no meaning carried by colour alone (a severity is always
//! written out, a REGRESSION always says so).
//!
//! - [`history`]: a repository's `verdicts.md` — every batch's verdict, findings by severity
//!   (a table and a chart of the same numbers), regressions, tracked and resolved issues.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod history;
mod layout;
