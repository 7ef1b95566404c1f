//! The process-runner invariant (ARCHITECTURE.md): everything that starts a process goes through
//! `protocol::exec` — its own process group under the guard, a time limit, no secret in its
//! environment. This test reads the workspace's sources and fails on a `Command::new(` outside
//! `protocol/src/exec/` and test code, except the places listed below, each with the reason it
//! is still there. The list may only shrink.

use std::path::{Path, PathBuf};

/// Files that still start processes themselves, and why.
const KNOWN: [(&str, &str); 1] = [(
    "protocol/src/session/process/binary.rs",
    "clap's `Command` (the actor binary's command line), not a process",
)];
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// Every `.rs` file under `dir`, skipping build output and integration tests.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | "tests" | ".git" | "node_modules") {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(path);
        }
    }
}

/// The lines of `text` before its test code (a `#[cfg(test)]` item, by the workspace's layout
/// the last thing in a file) that start a process with `Command::new(`.
fn process_starts(text: &str) -> Vec<usize> {
    text.lines()
        .take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"))
        .enumerate()
        .filter(|(_, l)| {
            let code = l.split("//").next().unwrap_or_default();
            code.contains("Command::new(")
        })
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn only_the_process_runner_starts_processes() {
    let root = workspace();
    let mut files = Vec::new();
    for krate in ["protocol", "lead", "inspector", "auditor", "implementer"] {
        sources(&root.join(krate).join("src"), &mut files);
    }
    // The Lead's library crates.
    for krate in std::fs::read_dir(root.join("lead/crates")).expect("lead/crates") {
        sources(&krate.expect("entry").path().join("src"), &mut files);
    }
    assert!(files.len() > 100, "read {} files", files.len());
    let mut found = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(&root)
            .expect("in the workspace")
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("protocol/src/exec/") || rel.ends_with("/testing.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable");
        for line in process_starts(&text) {
            found.push(format!("{rel}:{line}"));
        }
    }
    let unknown: Vec<&String> = found
        .iter()
        .filter(|at| {
            !KNOWN
                .iter()
                .any(|(file, _)| at.starts_with(&format!("{file}:")))
        })
        .collect();
    assert!(
        unknown.is_empty(),
        "start processes through protocol::exec, not Command::new: {unknown:?}"
    );
    // A listed file that no longer starts a process leaves the list.
    for (file, why) in KNOWN {
        assert!(
            found.iter().any(|at| at.starts_with(&format!("{file}:"))),
            "{file} no longer starts a process ({why}): take it off the list"
        );
    }
}

#[test]
fn test_code_and_comments_do_not_count() {
    let text = "fn a() {\n    // Command::new(\"x\") in a comment\n    let c = Command::new(\"git\");\n}\n#[cfg(test)]\nmod tests {\n    fn t() { Command::new(\"sh\"); }\n}\n";
    assert_eq!(process_starts(text), vec![3]);
}
