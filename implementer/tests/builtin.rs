//! The builtin executor on a real (tiny) Cargo crate: it removes an unused import through the
//! compiler's suggestion and formats the owned file, leaves the file it does not own alone,
//! and the runner judges the result PASS with `cargo check` as Q9.

use implementer::timeline::VecSink;
use implementer::{
    EvaluatorRegistry, ExecutorConfig, ExecutorKind, LoopConfig, LoopStatus, TaskJob, TaskRunner,
};
use protocol::domain::{Task, TaskOrigin, TaskStatus};
use std::path::Path;

const LIB: &str = "use std::collections::HashMap;\nuse std::fmt::Display;\npub mod other;\n\n\
pub fn show(d: &dyn Display) -> String {   format!(\"<{}>\", d) }\n\
pub fn add(a: i32,b: i32)->i32{a+b}\n";

const FIXED: &str = "use std::fmt::Display;\npub mod other;\n\n\
pub fn show(d: &dyn Display) -> String {\n    format!(\"<{}>\", d)\n}\n\
pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";

/// Not owned by the task: badly formatted, and it must stay so.
const OTHER: &str = "pub fn   twice(x: i32)->i32{x*2}\n";

fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
    std::fs::write(full, text).expect("write");
}

#[test]
fn builtin_fixes_an_unused_import_and_formatting_in_the_owned_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "Cargo.toml",
        "[package]\nname = \"fixture\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(root, "src/lib.rs", LIB);
    write(root, "src/other.rs", OTHER);
    let task = Task {
        id: 3,
        subject: "Fix src/lib.rs".into(),
        description: "- unused import `std::collections::HashMap`\n- formatting".into(),
        owns: vec!["src/lib.rs".into()],
        blocked_by: Vec::new(),
        status: TaskStatus::Pending,
        attempts: 0,
        origin: TaskOrigin::Fix,
        active_form: "Fixing src/lib.rs".into(),
    };
    let mut job = TaskJob::new(task, root);
    job.checks.typecheck = Some(["cargo", "check"].map(String::from).to_vec());
    let config = LoopConfig {
        retry_delay_ms: 0,
        ..LoopConfig::default()
    };
    let registry = EvaluatorRegistry::with_builtins();
    let mut executor = ExecutorConfig {
        kind: ExecutorKind::Builtin,
        command: Vec::new(),
        timeout_secs: 300,
        fallback: Vec::new(),
        url: String::new(),
        model: String::new(),
        api_key_env: None,
        max_tokens: 4096,
        idle_timeout_secs: 0,
    }
    .build()
    .expect("builtin");
    let mut sink = VecSink::default();
    let result = TaskRunner::new(&config, &registry)
        .run(&job, executor.as_mut(), &mut sink)
        .expect("runs");

    assert_eq!(result.final_status, LoopStatus::Complete, "{result:#?}");
    assert_eq!(result.total_iterations, 1);
    let criteria: Vec<&str> = result.iteration_history[0]
        .criteria_results
        .iter()
        .map(|c| c.criteria_id.as_str())
        .collect();
    assert_eq!(criteria, ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q9"]);
    assert_eq!(
        result.final_output,
        "builtin fixes:\n- src/lib.rs:1 unused_imports: remove the whole `use` item\n\
         - formatted src/lib.rs (rustfmt)\n"
    );
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect("read");
    assert_eq!(read("src/lib.rs"), FIXED);
    assert_eq!(read("src/other.rs"), OTHER);

    let check = std::process::Command::new("cargo")
        .args(["check", "--message-format=json"])
        .current_dir(root)
        .output()
        .expect("cargo check runs");
    assert!(check.status.success());
    let stdout = String::from_utf8_lossy(&check.stdout);
    let messages = stdout
        .lines()
        .filter(|l| l.contains("\"reason\":\"compiler-message\""))
        .count();
    assert_eq!(messages, 0, "cargo check is not clean:\n{stdout}");
}
