use super::*;
use review::verdicts_md::summaries;

/// Three batches as `verdicts.md` holds them: a TODO tracked, resolved, back as a REGRESSION.
const VERDICTS: &str = "# Verdicts: shop\n\n\
## [B1] impl | 2026-01-01T00:00:00Z | v0.1.0 | runs:1 | threshold:1/1\n\nVerdict: CONDITIONAL (answered 1/1)\n\n\
### Consensus\n\n| sev | category | location | freq | agents | description |\n|---|---|---|---|---|---|\n\
| M | incomplete | src/a.rs:3 | 1 | inspector-quality | TODO <marker> left |\n\n\
### Disposition\n\nCONDITIONAL-TRACKED\n\n### Tracked\n\n- M|incomplete|src/a.rs:3|TODO <marker> left\n\n\
## [B2] impl | 2026-01-02T00:00:00Z | v0.1.0 | runs:1 | threshold:1/1\n\nVerdict: GO (answered 1/1)\n\n\
### Consensus\n\n(none)\n\n### Disposition\n\nGO-ACCEPTED\n\n### Resolved since B1\n\n- M|incomplete|src/a.rs:3|TODO <marker> left\n\n\
## [B3] impl | 2026-01-03T00:00:00Z | v0.1.0 | runs:1 | threshold:1/1\n\nVerdict: NO-GO (answered 1/1)\n\n\
### Consensus\n\n| sev | category | location | freq | agents | description |\n|---|---|---|---|---|---|\n\
| H REGRESSION (was M) | incomplete | src/a.rs:3 | 1 | inspector-quality | TODO <marker> left |\n\
| L | naming-violation | src/b.rs:5 | 1 | inspector-quality | camelCase name |\n\n\
### Disposition\n\nESCALATED\n";

#[test]
fn the_page_lists_every_batch_marks_the_regression_in_words_and_escapes_what_the_file_says() {
    let batches = summaries(VERDICTS);
    let html = page(&HistoryView {
        repository: "shop",
        source: ".retake/verdicts.md",
        batches: &batches,
        links: &[],
    });
    assert!(html.starts_with("<!DOCTYPE html><html lang=\"en\">"));
    assert!(html.contains("<title>retake — review history of shop</title>"));
    assert!(html.contains("3 batches in <code>.retake/verdicts.md</code>. Latest: B3, <strong>NO-GO</strong>, <span class=\"regression\">1 REGRESSION</span>."));
    for seq in 1..=3 {
        assert!(html.contains(&format!("<details id=\"B{seq}\"")), "B{seq}");
    }
    assert!(
        html.contains("<details id=\"B3\" open>"),
        "the latest is open"
    );
    assert!(!html.contains("<details id=\"B1\" open>"));
    assert!(
        html.contains("<td class=\"sev-H\">High <span class=\"regression\">REGRESSION</span> (was Medium)</td>"),
        "{html}"
    );
    assert!(html.contains("<td>1 since B1</td>"));
    assert!(
        html.contains("TODO &lt;marker&gt; left") && !html.contains("<marker>"),
        "text from the file is escaped"
    );
    // The chart: one segment per severity present, each titled in words.
    assert!(
        html.contains("<title>B3: 1 High</title>") && html.contains("<title>B3: 1 Low</title>")
    );
    assert!(html.contains("<title>B1: 1 Medium</title>"));
    assert!(!html.contains("<script"), "a snapshot without JavaScript");
}

#[test]
fn a_repository_without_batches_says_so() {
    let html = page(&HistoryView {
        repository: "new",
        source: ".retake/verdicts.md",
        batches: &[],
        links: &[],
    });
    assert!(html.contains(
        "No review has written a batch yet (looked in <code>.retake/verdicts.md</code>)."
    ));
}
