//! `retake scenario run FILE…`: run recovery scenarios (or a chaos soak over their reviews), print
//! a table, write JUnit XML; exit 0 when every scenario passes, 1 when one fails, 2 on bad input.

use crate::cli::{ScenarioAction, ScenarioRunArgs};
use crate::config::Settings;
use anyhow::Context as _;
use outputs::ExitCode;
use scenario::check::{expected_summary, got_summary};
use scenario::report::{self, Outcome};
use scenario::{soak, Scenario};
use serde::Deserialize as _;
use std::collections::BTreeMap;

/// The Lead's check of a scenario's `config` key (a [`scenario::ConfigCheck`]): `table` is
/// `{ SECTION = { KEY = value } }`, refused with the configuration's own message when the key
/// is unknown or its value of the wrong type.
pub fn config_check(table: &toml::Table) -> Result<(), String> {
    Settings::deserialize(toml::Value::Table(table.clone()))
        .map(drop)
        .map_err(|e| e.message().trim().to_string())
}

/// Runs the command.
pub fn run(action: ScenarioAction) -> anyhow::Result<ExitCode> {
    match action {
        ScenarioAction::Run(args) => run_files(&args),
    }
}

fn run_files(args: &ScenarioRunArgs) -> anyhow::Result<ExitCode> {
    // Every file is checked before anything runs: a typo in the last one costs nothing.
    let loaded = args
        .files
        .iter()
        .map(|f| scenario::load(f, config_check))
        .collect::<Result<Vec<Scenario>, _>>()?;
    if let (Some(_), Some(s)) = (args.soak, loaded.iter().find(|s| s.compose.is_some())) {
        anyhow::bail!(
            "{}: --soak injects faults through the Lead, which a container scenario's remote \
             Lead refuses; soak local scenarios",
            s.file.display()
        );
    }
    if let (Some(_), Some(s)) = (args.soak, loaded.iter().find(|s| s.run.is_some())) {
        anyhow::bail!(
            "{}: --soak checks the invariants of reviews; soak review scenarios (review = …)",
            s.file.display()
        );
    }
    let exe = std::env::current_exe().context("cannot find the retake executable")?;
    let soak_seed = args.soak.map(|runs| {
        let seed = args.seed.unwrap_or_else(clock_seed);
        eprintln!("soak: {runs} run(s), seed {seed} (replay: --soak {runs} --seed {seed})");
        seed
    });
    let list = match (args.soak, soak_seed) {
        (Some(runs), Some(seed)) => soak::scenarios(&loaded, runs, seed),
        _ => loaded,
    };
    let mut outcomes = Vec::new();
    let mut endings: BTreeMap<String, u32> = BTreeMap::new();
    for (i, s) in list.iter().enumerate() {
        let exec = scenario::execute(s, &exe, args.keep)?;
        let got = &exec.observed;
        let mut failures = scenario::check(&s.expect, got);
        let expected = if soak_seed.is_some() {
            failures.extend(soak::invariants(got));
            s.faults.join(" ")
        } else {
            expected_summary(&s.expect)
        };
        let ending = got
            .field("verdict")
            .map_or_else(|| got.ending(), str::to_string);
        *endings.entry(ending).or_default() += 1;
        let outcome = Outcome {
            name: s.name.clone(),
            file: s.file.display().to_string(),
            expected,
            got: got_summary(got),
            seconds: got.seconds,
            failures,
        };
        eprintln!(
            "[{}/{}] {}: {} ({:.1} s)",
            i + 1,
            list.len(),
            s.name,
            outcome.result(),
            got.seconds
        );
        if let Some(dir) = &exec.kept {
            eprintln!("  kept {}", dir.display());
        }
        outcomes.push(outcome);
    }
    if let Some(path) = &args.junit {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        std::fs::write(path, report::junit(&outcomes))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    // The report file first: a closed output pipe ends the command before anything else.
    let mut out = report::table(&outcomes);
    if let Some(seed) = soak_seed {
        let tally: Vec<String> = endings.iter().map(|(e, n)| format!("{e} ×{n}")).collect();
        let violated = outcomes.iter().filter(|o| !o.passed()).count();
        out += &format!(
            "soak seed {seed}: {} run(s), {violated} violated an invariant; endings: {}\n",
            outcomes.len(),
            tally.join(", ")
        );
    }
    super::print_stdout(&out)?;
    Ok(if outcomes.iter().all(Outcome::passed) {
        ExitCode::Success
    } else {
        ExitCode::Failed
    })
}

/// A seed when none is given; printed, so the soak still replays.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scenario_config_key_is_checked_against_the_real_configuration() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("repo")).expect("mkdir");
        let parse = |config: &str| {
            let text = format!("name = \"x\"\nreview = {{ repo = \"repo\" }}\nconfig = {config}\n");
            scenario::file::parse(&text, &dir.path().join("s.toml"), config_check)
        };
        let s = parse(
            r#"{ "supervision.inspect_deadline_secs" = 3, "test.command" = ["sleep", "5"] }"#,
        )
        .expect("valid keys");
        assert_eq!(s.env.len(), 2);
        for (config, wanted) in [
            (
                r#"{ "supervision.inspect_deadline" = 3 }"#,
                "s.toml: config.\"supervision.inspect_deadline\": unknown field `inspect_deadline`",
            ),
            (
                r#"{ "supervision.inspect_deadline_secs" = "soon" }"#,
                "s.toml: config.\"supervision.inspect_deadline_secs\": invalid type",
            ),
        ] {
            let err = parse(config).expect_err(config).to_string();
            assert!(err.contains(wanted), "{config}: {err}");
            assert_eq!(err.lines().count(), 1, "one line: {err}");
        }
    }
}
