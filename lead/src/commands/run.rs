//! `retake run [RANGE]`. `--dry-run` plans the run — Phase 0's discussion (unless
//! `--no-discuss`), then Phase A: the plan read from the repository, the range selected,
//! granularity validated (V5 repaired), tasks registered, Implementers counted — and prints
//! that plan without starting anything or writing any state.
//! Without it, the `run` crate drives the plan end to end: exit 0 when the result is committed,
//! 5 when the run escalates to a human, 2 when it cannot start.

use crate::cli::{RunArgs, RunFormat};
use anyhow::Context as _;
use outputs::ExitCode;
use std::path::{Path, PathBuf};
use team::granularity::Limits;
use team::plan::{parse_range, source};
use team::prepare::{prepare, Parallelism};
use team::{dry_run, verification};

/// Runs `retake run`; exit 0 for a dry run or a committed run, 5 for an escalated one, errors
/// (exit 2) for a bad plan, range or environment.
pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let root = work_tree_root(&cwd).unwrap_or(cwd);
    // The snapshot the whole run uses: retake.toml as committed at HEAD when it starts, so an
    // Implementer's edits never configure its own run.
    let loaded = crate::config::load_repo(&root, None, crate::config::Trust::default())?;
    for note in &loaded.notes {
        eprintln!("retake: note: {note}");
    }
    let mut settings = loaded.settings;
    if let Some(profile) = args.profile {
        settings.rules.profile = profile;
    }
    if !args.dry_run {
        let code = drive(args, root.clone(), settings)?;
        crate::handover::after_command(
            &root,
            "retake run",
            crate::handover::Kind::Run,
            code,
            Vec::new(),
        );
        return Ok(code);
    }
    let range = parse_range(Some(&args.range.join(" ")));
    let plan = source::load(&root)?;
    // Phase 0 runs as in a real run (it writes nothing); its recommendation bounds the team.
    let discussion = if args.no_discuss {
        None
    } else {
        let agent = (settings.team_loop.discussion == team::discussion::DiscussionMode::Agent)
            .then(|| settings.executor.spec())
            .flatten();
        Some(run::phase_a::discuss(
            &root,
            &plan,
            &range,
            agent.as_ref(),
            &settings.agent.roles,
        )?)
    };
    let reference = discussion
        .as_ref()
        .map_or_else(|| plan.clone(), |d| d.reference(&plan));
    let parallelism = Parallelism {
        parallel: args.parallel,
        planner_max_parallel: discussion.as_ref().and_then(|d| d.bound()),
    };
    let prepared = prepare(&reference, &range, parallelism, &Limits::default())?;
    let warnings = environment_warnings(&root, settings.test.command.as_deref());
    let discussion = discussion.as_ref();
    let text = match args.format {
        RunFormat::Terminal => dry_run::render_terminal(&prepared, &warnings, discussion),
        RunFormat::Json => {
            let json = dry_run::to_json(&prepared, &warnings, discussion);
            serde_json::to_string_pretty(&json)? + "\n"
        }
    };
    super::print_stdout(&text)?;
    Ok(ExitCode::Success)
}

/// Drives the plan with the team loop and prints its report.
fn drive(
    args: RunArgs,
    root: PathBuf,
    settings: crate::config::Settings,
) -> anyhow::Result<ExitCode> {
    let faults = crate::chaos::fault_plan(&args.chaos, &settings)?;
    let runtime = args.runtime.unwrap_or(settings.review.runtime);
    let range = if args.range.is_empty() {
        "all".to_string()
    } else {
        args.range.join(" ")
    };
    let live = match &args.dashboard {
        Some(listen) => Some(crate::dashboard::live(&root, listen, "retake run")?),
        None => None,
    };
    let ended = run::execute(run::RunRequest {
        repo: root,
        range,
        parallel: args.parallel,
        no_discuss: args.no_discuss,
        yes: args.yes,
        runtime,
        config: settings.run_config(),
        faults,
        live: live.as_ref().map(|(feed, _)| feed.clone()),
    });
    if let Some((_, served)) = live {
        served.end(match &ended {
            Ok(end) => format!("exit {}", end.code.code()),
            Err(e) => format!("exit 2: {e}"),
        });
    }
    let end = ended?;
    super::print_stdout(&end.report)?;
    Ok(end.code)
}

/// The git work tree's top folder, so that `retake run` finds Plans.md from a subfolder.
fn work_tree_root(dir: &Path) -> Option<PathBuf> {
    let out = protocol::exec::git::git(dir, &["rev-parse", "--show-toplevel"]).ok()?;
    let top = out.trim().to_string();
    (!top.is_empty()).then(|| PathBuf::from(top))
}

/// Phase A's environment check; a dry run reports its problems instead of stopping.
fn environment_warnings(root: &Path, configured_test: Option<&[String]>) -> Vec<String> {
    let mut warnings = Vec::new();
    if work_tree_root(root).is_none() {
        warnings.push(format!(
            "{} is not a git work tree: a run commits its result and needs one",
            root.display()
        ));
    }
    if verification::test_command(root, configured_test).is_none() {
        warnings.push(
            "no test command is known: set [test] command in retake.toml (a run tests every task)"
                .to_string(),
        );
    }
    warnings
}
