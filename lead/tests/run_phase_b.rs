//! Phase B of `retake run` on the real binary: signals, scoped reviews and peer notes.
//!
//! Four tasks, two Implementers (X and Y, whoever claims first): task 1 (`[high]`) adds a shared
//! helper to `src/util.rs`, a file outside its owns; task 4 waits for task 1 (so batch 1 is
//! 1–3, batch 2 is 4) and never satisfies the judge, so the run stops before its full review
//! (exit 5) and keeps `signals.jsonl` for `retake resume`. The scripted agent dumps each prompt
//! and waits at barriers, which fixes the order: X takes 1 while Y takes 2; 1 completes (X's
//! peer note, then the immediate review of the high-priority task); X takes 3; 2 completes
//! (2 of 4: the partial review, and 2 of 3 of batch 1); Y takes 4 — its prompt carries X's note
//! — and escalates it; X takes it over and escalates it too.
//!
//! And a breezing run whose high-priority task swallows an error: its immediate review asks
//! for changes, the fix task is done within the team phase, and the one full review approves.

mod run_fixture;

use run_fixture::*;
use serde_json::Value;
use std::path::Path;

const PLAN: &str = "# Plans\n\n\
- [ ] 1 Add the t1 check `cc:TODO` [high] owns: `tests/t1.rs`\n\
- [ ] 2 Add the t2 check `cc:TODO` owns: `tests/t2.rs`\n\
- [ ] 3 Add the t3 check `cc:TODO` owns: `tests/t3.rs`\n\
- [ ] 4 Add the t4 check `cc:TODO` owns: `tests/t4.rs` depends: 1\n";

const UTIL: &str =
    "//! Shared helpers.\n\n/// The number itself.\npub fn identity(x: i64) -> i64 {\n    x\n}\n";

const LIB: &str = "//! A tiny calculator.\n\npub mod add;\npub mod util;\n";

/// Task 1 appends `clamp` to `src/util.rs`; tasks 1–3 write a finished integration test; task 4
/// only claims "Done." (changing nothing, so the tree the others are judged on stays clean).
/// Each call dumps its prompt to `prompt-<task>-<call>`.
fn script(calls: &Path) -> String {
    format!(
        r#"#!/bin/sh
calls="{calls}"
id="$RETAKE_TASK_ID"
n=$(cat "$calls/calls-$id" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$calls/calls-$id"
cat > "$calls/prompt-$id-$n"
touch "$calls/started-$id"
wait_for() {{
  i=0
  while [ ! -f "$calls/$1" ] && [ $i -lt 900 ]; do sleep 0.1; i=$((i + 1)); done
}}
case "$id" in
  1) wait_for started-2 ;;
  2) wait_for started-3 ;;
  3) wait_for started-4 ;;
esac
mkdir -p tests
if [ "$id" = 4 ]; then
  echo "Done."
  exit 0
fi
if [ "$id" = 1 ]; then
  printf '\n/// The number kept between two bounds.\npub fn clamp(x: i64, lo: i64, hi: i64) -> i64 {{\n    x.max(lo).min(hi)\n}}\n' >> src/util.rs
  printf '//! The t1 check.\n\n#[test]\nfn t1() {{\n    assert_eq!(calc::util::clamp(calc::add::add(5, 5), 0, 7), 7);\n}}\n' > tests/t1.rs
else
  printf '//! The t%s check.\n\n#[test]\nfn t%s() {{\n    assert_eq!(calc::add::add(%s, 1), %s + 1);\n}}\n' "$id" "$id" "$id" "$id" > "tests/t$id.rs"
fi
echo "Wrote tests/t$id.rs, an integration test of the calculator."
"#,
        calls = calls.display()
    )
}

fn timeline(repo: &Path) -> Vec<Value> {
    std::fs::read_to_string(repo.join(".retake/state/timeline.jsonl"))
        .expect("timeline")
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

fn of_type<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["event_type"] == kind).collect()
}

fn position(events: &[Value], kind: &str, task: u64) -> usize {
    events
        .iter()
        .position(|e| e["event_type"] == kind && e["content"]["task"] == task)
        .unwrap_or_else(|| panic!("no {kind} of task {task}"))
}

fn prompt(dir: &Path, task: u32, call: u32) -> String {
    std::fs::read_to_string(dir.join(format!("prompt-{task}-{call}")))
        .unwrap_or_else(|e| panic!("prompt {task}-{call}: {e}"))
}

#[test]
fn signals_scoped_reviews_and_a_peer_note_in_a_four_task_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture_custom(
        dir.path(),
        PLAN,
        &script(dir.path()),
        "max_iterations = 1\n",
        &[("src/util.rs", UTIL), ("src/lib.rs", LIB)],
    );
    // An earlier session's signal: kept, and no reason to stay quiet in this one.
    let earlier = r#"{"signal":"partial_review_recommended","session_id":"retake-20260101-000000","completed":2,"total":4,"timestamp":"2026-01-01T00:00:00Z"}"#;
    std::fs::create_dir_all(repo.join(".retake/state")).expect("mkdir");
    std::fs::write(
        repo.join(".retake/state/signals.jsonl"),
        format!("{earlier}\n"),
    )
    .expect("seed signals");
    let tag = format!("run-phase-b-{}", std::process::id());

    let ran = run_with(&repo, &tag, &["--parallel", "2"]);
    assert_eq!(
        ran.code, 5,
        "task 4 never passes\nstdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );
    assert!(ran.stdout.contains("4 Add the t4 check"), "{}", ran.stdout);
    let settled: Vec<(String, u64, String)> = team_events(&repo)
        .into_iter()
        .filter(|(kind, _, _)| kind == "TASK_COMPLETED")
        .collect();
    let done: Vec<u64> = settled.iter().map(|(_, task, _)| *task).collect();
    assert_eq!(done, [1, 2, 3], "only task 4 fails");

    // signals.jsonl: the earlier line, then exactly this session's two, at task 2's completion.
    let active: Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join(".retake/state/active.json")).expect("active.json"),
    )
    .expect("JSON");
    let session = active["session_id"].as_str().expect("session id");
    let signals =
        std::fs::read_to_string(repo.join(".retake/state/signals.jsonl")).expect("signals");
    let lines: Vec<&str> = signals.lines().collect();
    assert_eq!(lines.len(), 3, "{signals}");
    assert_eq!(lines[0], earlier);
    let mut fresh: Vec<Value> = lines[1..]
        .iter()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    for s in &mut fresh {
        assert!(
            s["timestamp"].as_str().is_some_and(|t| t.ends_with('Z')),
            "{s}"
        );
        s.as_object_mut().expect("object").remove("timestamp");
    }
    assert_eq!(
        fresh,
        [
            serde_json::json!({"signal": "partial_review_recommended", "session_id": session, "completed": 2, "total": 4}),
            serde_json::json!({"signal": "next_batch_recommended", "session_id": session, "batch": 1, "completed": 2, "total": 3}),
        ]
    );

    let events = timeline(&repo);
    let done_1 = position(&events, "TASK_COMPLETED", 1);
    let done_2 = position(&events, "TASK_COMPLETED", 2);
    let x = events[done_1]["content"]["actor"]
        .as_str()
        .expect("actor")
        .to_string();
    let y = events[done_2]["content"]["actor"]
        .as_str()
        .expect("actor")
        .to_string();
    assert_ne!(
        x, y,
        "the barriers give tasks 1 and 2 to different Implementers"
    );

    // The high-priority task is reviewed at once, the finished half on the signal; both scoped
    // to the tasks' files, neither finding anything to fix in that clean code.
    let started = of_type(&events, "SCOPED_REVIEW_STARTED");
    let completed = of_type(&events, "SCOPED_REVIEW_COMPLETED");
    let shape = |e: &&Value| {
        (
            e["content"]["trigger"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            e["content"]["tasks"].clone(),
            e["content"]["files"].clone(),
        )
    };
    let expected = vec![
        (
            "high_priority".to_string(),
            serde_json::json!([1]),
            serde_json::json!(["tests/t1.rs"]),
        ),
        (
            "partial_review_recommended".to_string(),
            serde_json::json!([1, 2]),
            serde_json::json!(["tests/t1.rs", "tests/t2.rs"]),
        ),
    ];
    assert_eq!(started.iter().map(shape).collect::<Vec<_>>(), expected);
    assert_eq!(completed.iter().map(shape).collect::<Vec<_>>(), expected);
    let scopes: Vec<&str> = completed
        .iter()
        .map(|e| e["content"]["scope"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        scopes,
        ["module:tests/t1.rs", "module:tests/t1.rs,tests/t2.rs"]
    );
    for e in &completed {
        assert_eq!(e["content"]["fix_tasks"], serde_json::json!([]), "{e}");
        let review = e["content"]["review"].as_str().expect("review id");
        assert!(!review.is_empty());
    }
    let immediate = events
        .iter()
        .position(|e| e["event_type"] == "SCOPED_REVIEW_STARTED")
        .expect("started");
    assert!(
        done_1 < immediate && immediate < done_2,
        "reviewed as soon as task 1 completed"
    );
    let signal_at = events
        .iter()
        .position(|e| e["event_type"] == "SIGNAL")
        .expect("signal journaled");
    assert!(signal_at > done_2);
    assert_eq!(
        of_type(&events, "NEXT_BATCH")[0]["content"]["tasks"],
        serde_json::json!([4])
    );

    // Pattern D: X's note is routed once (task 2's view of the shared tree holds the same
    // helper: not X's news to repeat) and lands in Y's next prompt, never in X's own.
    let notes = of_type(&events, "PEER_NOTE");
    assert_eq!(notes.len(), 1, "{notes:?}");
    let note = &notes[0]["content"];
    assert_eq!(
        (
            note["task"].clone(),
            note["actor"].as_str(),
            note["to"].clone(),
            note["kind"].as_str(),
            note["about"].as_str()
        ),
        (
            serde_json::json!(1),
            Some(x.as_str()),
            serde_json::json!([y]),
            Some("utility-created"),
            Some("src/util.rs")
        )
    );
    let line = format!(
        "- {x} (utility-created) src/util.rs: new `pub fn clamp(x: i64, lo: i64, hi: i64) -> i64`\n"
    );
    assert!(
        !prompt(dir.path(), 2, 1).contains("Notes from other Implementers"),
        "claimed before the note"
    );
    let first_4 = prompt(dir.path(), 4, 1);
    assert!(
        first_4.contains(&format!("## Notes from other Implementers\nInformation only: use what helps, and do not change their files for them.\n{line}")),
        "{first_4}"
    );
    let claim_4 = events
        .iter()
        .find(|e| e["event_type"] == "TASK_CLAIMED" && e["content"]["task"] == 4)
        .expect("claim of 4");
    assert_eq!(claim_4["content"]["actor"].as_str(), Some(y.as_str()));
    assert_eq!(claim_4["content"]["peer_notes"], 1);
    let escalated: Vec<(u64, String)> = team_events(&repo)
        .into_iter()
        .filter(|(kind, _, _)| kind == "TASK_ESCALATED")
        .map(|(_, task, actor)| (task, actor))
        .collect();
    assert_eq!(
        escalated,
        [(4, y.clone()), (4, x.clone())],
        "Y, then X once reassigned"
    );
    assert!(
        !prompt(dir.path(), 4, 2).contains(&line),
        "X is not told its own news"
    );
    assert!(leftovers(&tag).is_empty(), "every actor is gone");
}

const FIX_PLAN: &str = "# Plans\n\n\
- [ ] 1 Read one from text `cc:TODO` [high] owns: `src/one.rs`\n\
- [ ] 2 Add the t2 check `cc:TODO` owns: `tests/t2.rs`\n\
- [ ] 3 Add the t3 check `cc:TODO` owns: `tests/t3.rs`\n";

const ONE: &str = "//! One.\n\n/// The number one.\npub fn one() -> i64 {\n    1\n}\n";

/// Task 1 swallows a parse error (a High finding); tasks 2–3 write an integration test; a fix
/// task (id 4 and up) writes clean code at once, and the test-writing task the review's
/// missing-test-file finding becomes (it owns `tests/one.rs`) writes a test of `one`.
fn fix_script() -> String {
    r#"#!/bin/sh
mkdir -p tests
case "$RETAKE_TASK_OWNS" in
  *tests/one.rs*) printf '#[test]\nfn one_is_one() {\n    assert_eq!(calc::one::one(), 1);\n}\n' > tests/one.rs
     echo "Wrote tests/one.rs."; exit 0 ;;
esac
case "$RETAKE_TASK_ID" in
  1) printf '//! One.\n\n/// The number one, read from text.\npub fn one() -> i64 {\n    let _ = "2".parse::<i64>();\n    1\n}\n' > src/one.rs ;;
  2|3) printf '//! A check.\n\n#[test]\nfn adds() {\n    assert_eq!(calc::add::add(1, 1), 2);\n}\n' > "tests/t$RETAKE_TASK_ID.rs" ;;
  *) printf '//! One.\n\n/// The number one, as a constant.\npub fn one() -> i64 {\n    1\n}\n' > src/one.rs ;;
esac
echo "Wrote the files of task $RETAKE_TASK_ID."
"#
    .to_string()
}

#[test]
fn the_immediate_review_of_a_high_priority_task_turns_its_findings_into_a_fix_task() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = fixture_custom(
        dir.path(),
        FIX_PLAN,
        &fix_script(),
        "gate = \"breezing\"\n\n[rules]\nprofile = \"pedantic\"\n",
        &[
            ("src/one.rs", ONE),
            (
                "src/lib.rs",
                "//! A tiny calculator.\n\npub mod add;\npub mod one;\n",
            ),
        ],
    );
    let tag = format!("run-phase-b-fix-{}", std::process::id());

    let ran = run_with(&repo, &tag, &["--parallel", "1"]);
    assert_eq!(
        ran.code, 0,
        "stdout: {}\nstderr: {}",
        ran.stdout, ran.stderr
    );

    let events = timeline(&repo);
    let scoped = of_type(&events, "SCOPED_REVIEW_COMPLETED");
    assert_eq!(
        scoped.len(),
        1,
        "2 of 3 done leaves one task: no partial review"
    );
    let c = &scoped[0]["content"];
    assert_eq!(
        (
            c["trigger"].as_str(),
            c["files"].clone(),
            c["decision"].as_str(),
            c["fix_tasks"].clone()
        ),
        (
            Some("high_priority"),
            serde_json::json!(["src/one.rs"]),
            Some("REQUEST_CHANGES"),
            // The High finding's fix, and the test-writing task of src/one.rs's
            // missing-test-file finding.
            serde_json::json!([4, 5])
        )
    );
    assert!(c["findings"].as_u64().is_some_and(|n| n >= 1), "{c}");
    let fix_done = position(&events, "TASK_COMPLETED", 4);
    let full = events
        .iter()
        .position(|e| e["event_type"] == "REVIEW_COMPLETED")
        .expect("the full review");
    assert!(
        fix_done < full,
        "fixed within the team phase, before the full review"
    );
    let rounds: Vec<(&str, &str)> = of_type(&events, "REVIEW_COMPLETED")
        .iter()
        .map(|e| {
            (
                e["content"]["decision"].as_str().unwrap_or_default(),
                e["content"]["grade"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(rounds, [("APPROVE", "A")], "one full review, no retake");
    let tasks: Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join(".retake/state/tasks.json")).expect("tasks.json"),
    )
    .expect("JSON");
    let fix = &tasks["tasks"][3];
    assert_eq!(
        (&fix["origin"], &fix["owns"], &fix["status"]),
        (
            &serde_json::json!("Fix"),
            &serde_json::json!(["src/one.rs"]),
            &serde_json::json!("completed")
        )
    );
    let tests_task = &tasks["tasks"][4];
    assert_eq!(
        (&tests_task["owns"], &tests_task["status"]),
        (
            &serde_json::json!(["src/one.rs", "tests/one.rs"]),
            &serde_json::json!("completed")
        )
    );
    assert!(repo.join("tests/one.rs").is_file());
    assert!(
        !repo.join(".retake/state/signals.jsonl").exists(),
        "Phase C removes the signals"
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("src/one.rs")).expect("one.rs"),
        "//! One.\n\n/// The number one, as a constant.\npub fn one() -> i64 {\n    1\n}\n"
    );
    assert!(leftovers(&tag).is_empty(), "every actor is gone");
}
