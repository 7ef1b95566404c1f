//! The page shell every view shares: the document head with its inline styles, the header
//! with the page's title, and the main landmark around the view.

use maud::{html, Markup, PreEscaped, DOCTYPE};

/// The inline style sheet: layout and legibility only; every colour repeats something the text
/// already says.
const STYLE: &str = "\
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fafafa}\
header,main{max-width:72rem;margin:0 auto;padding:0 1rem}\
header{border-bottom:1px solid #ccc}\
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}\
caption{text-align:left;font-weight:600;padding:.25rem 0}\
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}\
th{background:#eee}\
td.n{text-align:right;font-variant-numeric:tabular-nums}\
.sev-C{background:#f6d5d5}.sev-H{background:#fbe3cf}.sev-M{background:#fcf3cf}.sev-L{background:#e4eef8}\
.regression{font-weight:700}\
details{margin:.25rem 0 1rem}summary{cursor:pointer}\
figure{margin:1rem 0}svg text{font:12px system-ui,sans-serif}\
:focus{outline:3px solid #2a5db0;outline-offset:2px}\
ul.links{list-style:none;padding:0;display:flex;gap:1rem}\
.state-lost,.j-REJECT{background:#f6d5d5}.state-replaced{background:#fbe3cf}.state-reported,.j-PASS{background:#dcefdc}\
form.filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end;margin:.5rem 0}\
form.filters label{display:flex;flex-direction:column;font-size:.9em}\
pre{white-space:pre-wrap;background:#f0f0f0;padding:.5rem}\
tr.group th{background:#e4e4f0}\
table.source code{white-space:pre}\
#findings{table-layout:fixed}#findings th:nth-child(1){width:6em}#findings th:nth-child(2){width:14em}\
#findings th:nth-child(3){width:10em}#findings th:nth-child(4){width:16em}\
#findings td{overflow-wrap:anywhere}tr:target td{background:#fff3b0}";

/// A whole page: `title` in the head and as the heading, `body` inside `<main>`.
pub(crate) fn page(title: &str, body: Markup) -> Markup {
    page_with(title, &[], body, None)
}

/// A page with links to the other views (`(href, text)`) and, for a live page, the URL of its
/// event stream (the page's script then keeps it current).
pub(crate) fn page_with(
    title: &str,
    links: &[(&str, &str)],
    body: Markup,
    events: Option<&str>,
) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body data-events=[events] {
                header {
                    h1 { (title) }
                    @if !links.is_empty() {
                        nav aria-label="Views" { ul.links { @for (href, text) in links { li { a href=(href) { (text) } } } } }
                    }
                }
                main { (body) }
                @if events.is_some() { script { (PreEscaped(crate::script::SCRIPT)) } }
            }
        }
    }
}
