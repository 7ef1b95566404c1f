//! A file a finding points at, with a numbered line each (`#L12` is line 12's anchor).

use crate::layout;
use maud::html;

/// The page of `path` (as the repository names it) holding `text`.
pub fn page(path: &str, text: &str) -> String {
    let body = html! {
        table.source {
            caption { code { (path) } }
            thead { tr { th scope="col" { "Line" } th scope="col" { "Text" } } }
            tbody {
                @for (i, line) in text.lines().enumerate() {
                    tr id={"L" (i + 1)} {
                        th scope="row" { a href={"#L" (i + 1)} { (i + 1) } }
                        td { code { (line) } }
                    }
                }
            }
        }
    };
    layout::page_with(&format!("retake — {path}"), &[("/", "Back")], body, None).into_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_line_has_its_anchor_and_the_text_is_escaped() {
        let html = super::page("src/a.rs", "fn a() {}\nlet s = \"<b>\";\n");
        assert!(html.contains("<tr id=\"L2\"><th scope=\"row\"><a href=\"#L2\">2</a></th><td><code>let s = &quot;&lt;b&gt;&quot;;</code></td></tr>"), "{html}");
        assert!(!html.contains("id=\"L3\""));
    }
}
