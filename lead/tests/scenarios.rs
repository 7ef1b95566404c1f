//! `retake scenario run` end to end: the real binary runs scenario files — shipped ones from
//! deploy/scenarios/ and ones written here — and reports them in a table, JUnit XML and its exit
//! code.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../deploy/scenarios")
        .join(name)
}

/// A scenario file loaded as `retake scenario run` loads it: its `config` keys checked by the
/// Lead's configuration.
fn load(path: &Path) -> Result<scenario::Scenario, scenario::ScenarioError> {
    scenario::load(path, lead::commands::scenario::config_check)
}

fn retake(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retake"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run retake")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The table row of a scenario.
fn row<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no row for {name} in:\n{stdout}"))
}

#[test]
fn every_shipped_scenario_is_a_valid_file() {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(shipped("")).expect("deploy/scenarios") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "toml") {
            let s = load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                Some(s.name.as_str()),
                path.file_stem().and_then(|n| n.to_str()),
                "a scenario is named by its file"
            );
            names.push(s.name);
        }
    }
    // The recovery table for the six Inspector kinds, the Auditor and the Implementer: six
    // faults each; the Lead: a crash, then `retake resume`.
    assert!(
        names.iter().any(|n| n == "lead-crash"),
        "lead-crash is missing"
    );
    for actor in [
        "rulebase",
        "interface",
        "test",
        "quality",
        "consistency",
        "holistic",
    ]
    .iter()
    .map(|k| format!("inspector-{k}"))
    .chain(["auditor".to_string(), "implementer".to_string()])
    {
        for fault in [
            "crash",
            "hang",
            "stall-output",
            "garbage-frame",
            "slow",
            "fails-twice",
        ] {
            let name = format!("{actor}-{fault}");
            assert!(
                names.contains(&name),
                "{name} is missing from deploy/scenarios"
            );
        }
    }
}

#[test]
fn every_shipped_container_scenario_is_valid_and_named_by_its_file() {
    let dir = shipped("containers");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("deploy/scenarios/containers") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "toml") {
            let s = load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(s.compose.is_some(), "{} runs in a stack", s.name);
            assert_eq!(
                Some(s.name.as_str()),
                path.file_stem().and_then(|n| n.to_str())
            );
            names.push(s.name);
        }
    }
    names.sort();
    // The container fault kinds: killed (and crashed), paused, cut off, the Auditor killed mid-audit, the
    // Lead restarted; idle workers paused or cut off before a job claims them; a change
    // reviewed against its base with the image's git.
    assert_eq!(
        names,
        vec![
            "container-auditor-killed",
            "container-base-change",
            "container-inspector-crashed",
            "container-inspector-disconnected",
            "container-inspector-killed",
            "container-inspector-paused",
            "container-lead-restarted",
            "container-oneshot-beside-job",
            "container-worker-disconnected-idle",
            "container-worker-paused-idle",
        ]
    );
}

#[test]
fn a_bad_key_exits_2_naming_the_file_and_the_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("repo")).expect("mkdir");
    let file = dir.path().join("typo.toml");
    std::fs::write(
        &file,
        "name = \"typo\"\nreview = { repo = \"repo\" }\n[expect]\nverdit = \"GO\"\n",
    )
    .expect("write");
    let out = retake(&["scenario", "run", file.to_str().expect("utf-8")]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("typo.toml: line 4: unknown field `verdit`"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one error line: {err}");
    assert!(out.stdout.is_empty(), "nothing ran");
}

#[test]
fn the_baseline_scenario_passes_with_the_fixture_verdict_and_leaves_it_clean() {
    let dir = tempfile::tempdir().expect("tempdir");
    let junit = dir.path().join("out/scenarios.xml");
    let out = retake(&[
        "scenario",
        "run",
        shipped("baseline.toml").to_str().expect("utf-8"),
        "--junit",
        junit.to_str().expect("utf-8"),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let baseline = row(&stdout, "baseline");
    assert!(baseline.contains("GO REQUEST_CHANGES exit 0"), "{baseline}");
    assert!(baseline.ends_with("PASS"), "{baseline}");
    assert!(
        stdout.contains("1 scenario(s): 1 passed, 0 failed"),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    assert!(xml.contains("tests=\"1\" failures=\"0\""), "{xml}");
    assert!(
        !shipped("fixture/.retake").exists(),
        "the shipped fixture is reviewed as a copy"
    );
    assert!(!shipped("fixture/target").exists());
}

#[test]
fn a_wrong_expectation_exits_1_and_the_junit_file_names_the_failed_checks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fixture = std::fs::canonicalize(shipped("fixture")).expect("fixture");
    let file = dir.path().join("wrong.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"wrong\"\nreview = {{ repo = {:?}, args = [\"--no-exec\"] }}\n[expect]\nverdict = \"NO-GO\"\nnotes = [\"PARTIAL:inspector-quality\"]\nrestarts = {{ inspector-quality = 0 }}\nmax_seconds = 30\n",
            fixture.to_str().expect("utf-8")
        ),
    )
    .expect("write");
    let junit = dir.path().join("wrong.xml");
    let out = retake(&[
        "scenario",
        "run",
        file.to_str().expect("utf-8"),
        "--junit",
        junit.to_str().expect("utf-8"),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        row(&stdout, "wrong").ends_with("FAIL: verdict: expected NO-GO, got GO"),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    assert!(xml.contains("tests=\"1\" failures=\"1\""), "{xml}");
    assert!(
        xml.contains("<failure message=\"verdict: expected NO-GO, got GO\" type=\"scenario\">verdict: expected NO-GO, got GO\nnote 'PARTIAL:inspector-quality' missing"),
        "{xml}"
    );
}

#[test]
fn a_crashed_inspector_scenario_passes_with_one_restart() {
    let out = retake(&[
        "scenario",
        "run",
        shipped("inspector-quality-crash.toml")
            .to_str()
            .expect("utf-8"),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let r = row(&stdout, "inspector-quality-crash");
    assert!(r.contains("r:inspector-quality=1"), "{r}");
    assert!(r.ends_with("PASS"), "{r}");
}

#[test]
fn a_short_soak_replays_from_its_seed_and_keeps_the_invariants() {
    let base = shipped("baseline.toml");
    let out = retake(&[
        "scenario",
        "run",
        base.to_str().expect("utf-8"),
        "--soak",
        "2",
        "--seed",
        "5",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("soak seed 5: 2 run(s), 0 violated an invariant"),
        "{stdout}"
    );
    // The faults are a function of the seed: the same as planned here.
    let bases = vec![load(&base).expect("baseline")];
    for s in scenario::soak::scenarios(&bases, 2, 5) {
        assert!(
            row(&stdout, &s.name).contains(&s.faults.join(" ")),
            "{stdout}"
        );
    }
}

#[test]
fn run_scenarios_recover_an_implementer_and_resume_a_killed_lead_and_refuse_the_soak() {
    let files = ["implementer-stall-output.toml", "lead-crash.toml"].map(shipped);
    let mut args = vec!["scenario", "run"];
    args.extend(files.iter().map(|f| f.to_str().expect("utf-8")));
    let out = retake(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let stall = row(&stdout, "implementer-stall-output");
    assert!(
        stall.contains("GO APPROVE exit 0 r:implementer-1=1 done:2/2 commits:1"),
        "{stall}"
    );
    let crash = row(&stdout, "lead-crash");
    assert!(
        crash.contains("exit 0 done:2/2 commits:1 lead-killed("),
        "{crash}"
    );
    assert!(crash.ends_with("PASS"), "{crash}");
    assert!(
        !shipped("run-fixture/.git").exists() && !shipped("run-fixture/.retake").exists(),
        "the shipped run fixture is run as a copy"
    );
    let soak = retake(&[
        "scenario",
        "run",
        files[1].to_str().expect("utf-8"),
        "--soak",
        "1",
    ]);
    let err = text(&soak.stderr);
    assert_eq!(soak.status.code(), Some(2), "{err}");
    assert!(
        err.contains("lead-crash.toml: --soak checks the invariants of reviews"),
        "{err}"
    );
}
