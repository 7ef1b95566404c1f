//! `retake resume [PATH]`: continue what `.retake/state/active.json` records as interrupted — a
//! review (the Inspectors whose reports were journaled are not run again; the rest run, then
//! the Auditor) or a run of the team loop (`run::resume`: finished tasks are not run
//! again; output and exit codes as `retake run`). `--yes` and `--no-discuss` are `retake run`'s
//! flags for an unattended run: a review's proposals are then recorded pending, a run keeps them
//! in its options.

use crate::cli::{Format, ResumeArgs};
use crate::exit::{Failure, Reviewed};
use anyhow::Context as _;
use host::Runtime;
use outputs::ExitCode;
use review::state::ActiveReview;
use review::ReviewRequest;
use std::path::PathBuf;

/// Runs the command, then drafts the session handover (`crate::handover`).
pub fn run(args: ResumeArgs) -> Result<ExitCode, Failure> {
    let path = args.path.clone().unwrap_or_else(|| ".".into());
    // What is resumed, read before the resumed command replaces the state.
    let kind = review::state::kind(&path.join(".retake")).ok();
    let reviewed = reviewed(args)?;
    match kind.as_deref() {
        Some("run") => crate::handover::after_command(
            &path,
            "retake resume",
            crate::handover::Kind::Run,
            reviewed.code,
            Vec::new(),
        ),
        _ => crate::handover::after_review(&path, "retake resume", &reviewed),
    }
    Ok(reviewed.code)
}

/// Runs the command, returning what it ended with (a resumed run has no verdict of its own).
pub fn reviewed(args: ResumeArgs) -> Result<Reviewed, Failure> {
    let fail2 = |error: anyhow::Error| Failure {
        code: ExitCode::Error,
        error,
    };
    super::plan(&args.output).map_err(fail2)?;
    let path = args.path.clone().unwrap_or_else(|| ".".into());
    let repo = std::fs::canonicalize(&path)
        .with_context(|| format!("cannot resume in '{}': no such directory", path.display()))
        .map_err(fail2)?;
    let kind = review::state::kind(&repo.join(".retake")).map_err(|e| fail2(e.into()))?;
    if kind == "run" {
        return resume_run(repo, &args).map_err(fail2).map(|code| Reviewed {
            code,
            verdict: None,
            decision: None,
            journal: None,
        });
    }
    let active = ActiveReview::read(&repo.join(".retake")).map_err(|e| fail2(e.into()))?;
    let base = match &active.scope {
        protocol::Scope::Session { base, .. } => Some(base.as_str()),
        _ => None,
    };
    let trust = crate::config::Trust {
        work_tree: args.trust_repo_config,
        commands: !args.untrusted_repo,
    };
    let loaded = crate::config::load_repo(&repo, base, trust).map_err(|e| fail2(e.into()))?;
    let mut settings = loaded.settings;
    // The interrupted review's rules, whatever flag chose them.
    // A profile this version cannot read means the default, as it always has.
    if let Some(profile) = &active.profile {
        settings.rules.profile = profile.parse().unwrap_or_default();
    }
    let runtime = active
        .runtime
        .parse::<Runtime>()
        .map_err(|e| fail2(anyhow::anyhow!(e)))?;
    eprintln!(
        "retake: resuming review {} ({})",
        active.run_id,
        active.scope.label()
    );
    let request = ReviewRequest {
        repo,
        scope: active.scope,
        runtime,
        no_exec: active.no_exec,
        config: settings.review_config(),
        pipelines: active.pipelines,
        faults: Default::default(),
        resume: Some(active.run_id),
        nested: false,
        repo_files_rev: loaded.repo_files_rev,
        notes: loaded.notes,
        live: None,
        author: None,
    };
    let answers = review::steering::Answers {
        yes: args.yes,
        given: Vec::new(),
    };
    super::review::execute_with(request, &args.output, None, &answers)
}

/// Continues an interrupted run and prints its report, as `retake run` does.
fn resume_run(repo: PathBuf, args: &ResumeArgs) -> anyhow::Result<ExitCode> {
    let out = &args.output;
    if out.format.iter().any(|f| *f != Format::Terminal)
        || out.output_dir.is_some()
        || out.baseline.is_some()
    {
        anyhow::bail!(
            "--format, --output and --baseline apply to an interrupted review; the interrupted run in {} reports as `retake run` does",
            repo.display()
        );
    }
    // The run's configuration is the one committed where it started (its base commit), so
    // nothing its Implementers committed since configures its gate; without a readable state
    // file `run::resume` refuses with its own message, and HEAD stands in until then.
    let state = run::state::RunState::new(&repo.join(".retake"));
    let base = state.read_active().ok().map(|a| a.base_commit);
    let trust = crate::config::Trust {
        work_tree: args.trust_repo_config,
        commands: true,
    };
    let settings = crate::config::load_repo(&repo, base.as_deref(), trust)?.settings;
    let unattended = run::resume::Unattended {
        yes: args.yes,
        no_discuss: args.no_discuss,
    };
    let end = run::resume(repo, settings.run_config(), unattended)?;
    super::print_stdout(&end.report)?;
    Ok(end.code)
}

#[cfg(test)]
mod tests {
    use crate::cli::{Cli, Command};
    use clap::Parser as _;

    #[test]
    fn resume_takes_runs_unattended_flags() {
        let cli = Cli::try_parse_from(["retake", "resume", "--yes", "--no-discuss", "repo"])
            .expect("parses");
        let Command::Resume(args) = cli.command else {
            panic!("not resume");
        };
        assert!(args.yes && args.no_discuss);
        assert_eq!(args.path.as_deref(), Some(std::path::Path::new("repo")));
    }
}
