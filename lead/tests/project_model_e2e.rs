//! The project model end to end: one review builds it once, in the Lead, writes it as
//! `.retake/cache/project-<sha256>.bin`, and every Inspector (separate processes) reads that
//! file instead of building its own — and the rules answer from it.

mod support;

use std::path::Path;
use std::process::Command;
use support::write;

/// A library whose `#[cfg(test)] mod testutil;` lives in its own file: only the model (the
/// declaration in the parent) says that file is test code.
fn repo(root: &Path) {
    write(
        root,
        "Cargo.toml",
        "[package]\nname = \"store\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(
        root,
        "src/lib.rs",
        "//! A store.\n\n#[cfg(test)]\nmod testutil;\n\n/// Loads the store.\npub fn load(path: &str) -> String {\n    std::fs::read_to_string(path).unwrap()\n}\n",
    );
    write(
        root,
        "src/testutil.rs",
        "/// A fixture.\npub fn fixture(path: &str) -> String {\n    std::fs::read_to_string(path).unwrap()\n}\n",
    );
}

fn models(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root.join(".retake/cache"))
        .expect("cache folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("project-"))
        .collect();
    names.sort();
    names
}

#[test]
fn the_inspectors_of_a_review_all_read_the_leads_model() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    repo(root);
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(root)
        .args(["--runtime", "local", "--format", "json", "--no-exec"])
        .env("RUST_LOG", "inspector::engine::context=debug")
        .output()
        .expect("run retake");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("json ({e}); stderr: {stderr}"));

    let names = models(root);
    assert_eq!(names.len(), 1, "one model per review: {names:?}");
    let hash = names[0]
        .strip_prefix("project-")
        .and_then(|n| n.strip_suffix(".bin"))
        .expect("project-<hash>.bin");
    assert_eq!(hash.len(), 64);

    // Each Inspector process (their logs go to the Lead's standard error) loaded that file, and
    // so did the Lead's two scope probes (the scope check and the Auditor's spec context): eight
    // loads, and no model built anywhere else.
    let loaded = stderr
        .lines()
        .filter(|l| l.contains("project model loaded") && l.contains(hash))
        .count();
    assert_eq!(loaded, 8, "stderr: {stderr}");

    // An Inspector that could not read the named model says so in its report; none did.
    let reports = std::fs::read_dir(root.join(".retake/runs"))
        .expect("runs")
        .flatten()
        .flat_map(|run| {
            std::fs::read_dir(run.path().join("reports"))
                .into_iter()
                .flatten()
                .flatten()
        })
        .filter(|r| r.path().extension().is_some_and(|e| e == "json"))
        .map(|r| std::fs::read_to_string(r.path()).expect("report"))
        .collect::<Vec<_>>();
    assert_eq!(reports.len(), 6, "six Inspector reports journaled");
    for report in &reports {
        assert!(report.contains("\"notes\""), "a report: {report}");
        assert!(
            !report.contains("built again here"),
            "an Inspector rebuilt the model: {report}"
        );
    }

    // The rules asked the model: the library's unwrap is found, the test support's is not.
    let unwraps: Vec<String> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "quality/unwrap-in-library")
        .map(|f| f["path"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(unwraps, vec!["src/lib.rs".to_string()], "json: {json}");

    // A second review of the same tree names the same model (content-addressed).
    let again = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("review")
        .arg(root)
        .args(["--runtime", "inproc", "--format", "json", "--no-exec"])
        .output()
        .expect("run retake");
    assert!(again.status.code().is_some());
    assert_eq!(models(root), names);
}
