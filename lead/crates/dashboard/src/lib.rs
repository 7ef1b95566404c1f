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
//! - [`live`]: one review or run as it happens, from the live events' fold
//!   (`protocol::live::LiveState`), a part at a time for the event stream; its findings table
//!   and filters are [`findings`]'.
//! - [`source`]: a file a finding points at, its lines numbered.
//! - [`jobs`]: `retake serve`'s jobs, each linking to its own live view.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod findings;
pub mod history;
pub mod jobs;
mod layout;
pub mod live;
mod script;
pub mod source;

/// The sign-in page of a dashboard that needs the API's token: a form that posts it to `/login`
/// (which sets a cookie, as a browser cannot add a header to a page or an event stream).
pub fn login_page() -> String {
    let body = maud::html! {
        p { "This dashboard needs the API's token (" code { "RETAKE_API_TOKEN" } ")." }
        form method="post" action="/login" {
            label { "Token " input type="password" name="token" autocomplete="current-password" required; }
            " " button type="submit" { "Sign in" }
        }
    };
    layout::page("retake — sign in", body).into_string()
}
