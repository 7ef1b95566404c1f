use super::*;
use protocol::{Location, Severity};

const DIFF: &str = "\
diff --git a/src/a.rs b/src/a.rs
index 1111111..2222222 100644
--- a/src/a.rs
+++ b/src/a.rs
@@ -3,0 +4,2 @@ fn a() {
+    let x = 1;
+++ b/not-a-header
@@ -10 +12 @@ fn b() {
-    old();
+    new();
@@ -20,2 +22,0 @@ fn c() {
-    gone();
-    gone();
diff --git a/src/new.rs b/src/new.rs
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/src/new.rs
@@ -0,0 +1,2 @@
+fn n() {}
+fn m() {}
diff --git a/src/old.rs b/src/old.rs
deleted file mode 100644
--- a/src/old.rs
+++ /dev/null
@@ -1 +0,0 @@
-fn o() {}
diff --git a/img.png b/img.png
index 4444444..5555555 100644
Binary files a/img.png and b/img.png differ
diff --git \"a/src/t\\tab.rs\" \"b/src/t\\tab.rs\"
--- \"a/src/t\\tab.rs\"
+++ \"b/src/t\\tab.rs\"
@@ -1 +1 @@
-a
+b
";

#[test]
fn parses_added_ranges_deletions_new_and_deleted_files() {
    let files = parse_unified_zero(DIFF);
    let paths: Vec<&str> = files.keys().map(String::as_str).collect();
    assert_eq!(
        paths,
        vec!["img.png", "src/a.rs", "src/new.rs", "src/t\tab.rs"]
    );
    let a = &files["src/a.rs"];
    assert_eq!(a.added, vec![(4, 5), (12, 12)]);
    assert_eq!(a.removed_after, vec![22]);
    assert!(!a.new_file);
    let new = &files["src/new.rs"];
    assert!(new.new_file);
    assert_eq!(new.added, vec![(1, 2)]);
    assert_eq!(files["src/t\tab.rs"].added, vec![(1, 1)]);
    assert_eq!(files["img.png"], FileChange::default());
}

#[test]
fn added_and_context_lines() {
    let a = &parse_unified_zero(DIFF)["src/a.rs"];
    assert!(a.is_added(4) && a.is_added(5) && a.is_added(12));
    assert!(!a.is_added(3) && !a.is_added(6) && !a.is_added(22));
    // Context: 1..=8 around 4-5, 9..=15 around 12, 19..=26 around the deletion after 22.
    for line in [1, 8, 9, 15, 19, 26] {
        assert!(a.is_near_change(line), "line {line}");
    }
    for line in [16, 18, 27, 100] {
        assert!(!a.is_near_change(line), "line {line}");
    }
}

fn finding(path: &str, line: Option<u32>, category: &str) -> Finding {
    let location = match line {
        Some(l) => Location::at(path, l),
        None => Location::file(path),
    };
    Finding::new("i", "r/x", category, Severity::High, location, "d", "k")
}

#[test]
fn each_filter_keeps_what_the_module_doc_says() {
    let changes = Changes {
        base: "main".into(),
        merge_base: "abc".into(),
        files: parse_unified_zero(DIFF),
    };
    let cases: [(Finding, [bool; 4]); 11] = [
        // [added, diff_context, file, nofilter]
        (
            finding("src/a.rs", Some(4), "dead-code"),
            [true, true, true, true],
        ),
        (
            finding("src/a.rs", Some(7), "dead-code"),
            [false, true, true, true],
        ),
        (
            finding("src/a.rs", Some(40), "dead-code"),
            [false, false, true, true],
        ),
        (
            finding("src/a.rs", None, "dead-code"),
            [false, true, true, true],
        ),
        (
            finding("src/new.rs", None, "missing-test-file"),
            [true, true, true, true],
        ),
        (
            finding("src/other.rs", Some(1), "dead-code"),
            [false, false, false, true],
        ),
        (
            finding("specs/f/tasks.yaml", Some(3), "task-incomplete"),
            [true; 4],
        ),
        (
            finding("", None, "missing-integration-tests"),
            [false, true, true, true],
        ),
        (
            finding("docs/design.md", None, "design-drift"),
            [false, true, true, true],
        ),
        (finding("img.png", None, "large-binary"), [true; 4]),
        (finding("tests/old.rs", Some(9), "test-failure"), [true; 4]),
    ];
    let filters = [
        DiffFilter::Added,
        DiffFilter::DiffContext,
        DiffFilter::File,
        DiffFilter::NoFilter,
    ];
    for (f, expected) in &cases {
        let got: Vec<bool> = filters.iter().map(|&k| changes.keeps(k, f)).collect();
        assert_eq!(&got, expected, "{} {:?}", f.location.path, f.location.line);
    }
}
