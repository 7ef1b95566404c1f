//! `retake review`: resolve the scope, run the review, append verdicts.md, print, exit.

use crate::cli::ReviewArgs;
use crate::exit::{Failure, Reviewed};
use anyhow::Context as _;
use outputs::ExitCode;
use outputs::Summary;
use protocol::Scope;
use review::verdicts_md;
use review::{self, ReviewError, ReviewRequest};

/// Runs the command, then drafts the session handover (`crate::handover`).
pub fn run(args: ReviewArgs) -> Result<ExitCode, Failure> {
    let path = args.path.clone().unwrap_or_else(|| ".".into());
    let command = if args.fix {
        "retake review --fix"
    } else {
        "retake review"
    };
    let reviewed = reviewed(args)?;
    crate::handover::after_review(&path, command, &reviewed);
    Ok(reviewed.code)
}

/// Runs the command, returning what it ended with.
pub fn reviewed(args: ReviewArgs) -> Result<Reviewed, Failure> {
    let fail2 = |error: anyhow::Error| Failure {
        code: ExitCode::Error,
        error,
    };
    if args.fix && args.consensus > 1 {
        return Err(fail2(anyhow::anyhow!(
            "--fix works on a single review: drop --consensus (or run `retake fix` on one pipeline's folder)"
        )));
    }
    // --no-exec promises that no command of the repository runs; the fix pipeline runs its
    // executor, test gate and checks, so the two cannot be combined.
    if args.no_exec && args.fix {
        return Err(fail2(anyhow::anyhow!(
            "--fix runs the repository's executor and tests, which --no-exec forbids: drop one of them"
        )));
    }
    // Bad output options (formats, --baseline) fail before any actor starts.
    super::plan(&args.output).map_err(fail2)?;
    let path = args.path.clone().unwrap_or_else(|| ".".into());
    let repo = std::fs::canonicalize(&path)
        .with_context(|| format!("cannot review '{}': no such directory", path.display()))
        .map_err(fail2)?;
    if !repo.is_dir() {
        return Err(fail2(anyhow::anyhow!(
            "cannot review '{}': not a directory",
            path.display()
        )));
    }
    let scope = scope_of(&args, &repo);
    // The gate's configuration comes from committed history, never from the change under
    // review: the session's base, else HEAD (`config/source.rs`).
    let base = match &scope {
        Scope::Session { base, .. } => Some(base.as_str()),
        _ => None,
    };
    let trust = crate::config::Trust {
        work_tree: args.trust_repo_config,
        commands: !args.untrusted_repo,
    };
    let loaded = crate::config::load_repo(&repo, base, trust).map_err(|e| fail2(e.into()))?;
    let mut settings = loaded.settings;
    // Checked before any actor starts: faults are refused unless chaos is enabled.
    let faults = crate::chaos::fault_plan(&args.chaos, &settings).map_err(|e| fail2(e.into()))?;
    if args.no_cache {
        settings.inspector.cache = false;
    }
    if !args.dimensions.is_empty() {
        settings.review.dimensions = args.dimensions.clone();
    }
    if let Some(profile) = args.profile {
        settings.rules.profile = profile;
    }
    let runtime = args.runtime.unwrap_or(settings.review.runtime);
    let cycle = cycle_of(&settings.review.dimensions, args.max_iterations).map_err(fail2)?;
    // The feed the review is watched on: its own dashboard's, or the caller's.
    let (live, served) = match (&args.dashboard, &args.live) {
        (Some(listen), _) => {
            let (feed, served) =
                crate::dashboard::live(&repo, listen, "retake review").map_err(fail2)?;
            (Some(feed), Some(served))
        }
        (None, feed) => (feed.clone(), None),
    };
    let request = ReviewRequest {
        repo: repo.clone(),
        scope: scope.clone(),
        runtime,
        no_exec: args.no_exec,
        config: settings.review_config(),
        pipelines: args.consensus,
        faults,
        resume: None,
        nested: false,
        repo_files_rev: loaded.repo_files_rev,
        notes: loaded.notes,
        live,
        author: None,
    };
    let answers = review::steering::Answers {
        yes: args.yes,
        given: args.answer.clone(),
    };
    let reviewed = execute_reviewed(
        request,
        &args.output,
        args.threshold,
        &answers,
        cycle.as_ref(),
    );
    if let Some(served) = served {
        served.end(match &reviewed {
            Ok((r, _)) => format!("exit {}", r.code.code()),
            Err(f) => format!("exit {}: {:#}", f.code.code(), f.error),
        });
    }
    let (review, review_dir) = reviewed?;
    if !args.fix {
        return Ok(review);
    }
    // The review's report is printed; the command's outcome is now the fix session's.
    let code = super::fix::after_review(&review_dir).map_err(fail2)?;
    Ok(Reviewed { code, ..review })
}

/// Runs a review request (fresh or resumed) and reports it: verdicts.md, the outputs, the exit code.
pub fn execute(
    request: ReviewRequest,
    output: &crate::cli::OutputArgs,
    threshold: Option<u32>,
) -> Result<ExitCode, Failure> {
    execute_with(
        request,
        output,
        threshold,
        &review::steering::Answers::default(),
    )
    .map(|r| r.code)
}

/// As [`execute`], answering the Auditor's PROPOSE rows as `answers` says.
pub fn execute_with(
    request: ReviewRequest,
    output: &crate::cli::OutputArgs,
    threshold: Option<u32>,
    answers: &review::steering::Answers,
) -> Result<Reviewed, Failure> {
    let fail2 = |error: anyhow::Error| Failure {
        code: ExitCode::Error,
        error,
    };
    let cycle = cycle_of(&request.config.inspect.dimensions, None).map_err(fail2)?;
    execute_reviewed(request, output, threshold, answers, cycle.as_ref()).map(|(r, _)| r)
}

/// The review cycle of the review-cycle spec (`review::review_cycle`): it runs after a review with
/// dimensions (`--dimensions` or `[review] dimensions`), the dimension view the cycle is
/// about; `--max-iterations` without dimensions is bad input.
#[derive(Debug, Clone)]
struct CycleOptions {
    dimensions: Vec<protocol::Dimension>,
    max_iterations: u32,
}

fn cycle_of(
    dimensions: &[protocol::Dimension],
    max_iterations: Option<u32>,
) -> anyhow::Result<Option<CycleOptions>> {
    if dimensions.is_empty() {
        return match max_iterations {
            Some(_) => Err(anyhow::anyhow!(
                "--max-iterations applies to the review cycle, which runs with --dimensions (or [review] dimensions)"
            )),
            None => Ok(None),
        };
    }
    Ok(Some(CycleOptions {
        dimensions: dimensions.to_vec(),
        max_iterations: max_iterations.unwrap_or(review::review_cycle::DEFAULT_MAX_ITERATIONS),
    }))
}

/// As [`execute_with`], also returning the folder a fix works from: the review cycle's
/// `.retake/reviews/<id>/` when it ran, else the review's journal folder.
fn execute_reviewed(
    request: ReviewRequest,
    output: &crate::cli::OutputArgs,
    threshold: Option<u32>,
    answers: &review::steering::Answers,
    cycle: Option<&CycleOptions>,
) -> Result<(Reviewed, std::path::PathBuf), Failure> {
    let fail2 = |error: anyhow::Error| Failure {
        code: ExitCode::Error,
        error,
    };
    let repo = request.repo.clone();
    let scope = request.scope.clone();
    let live = request.live.clone();
    let mut header = request.notes.clone();
    let out = review::run(request).map_err(|e| match e {
        ReviewError::TimedOut(_) => Failure {
            code: ExitCode::TimedOut,
            error: e.into(),
        },
        other => fail2(other.into()),
    })?;
    // No Inspector report in any pipeline: nothing was checked, so there is no verdict to
    // append or print (the supervision spec) — exit 2 naming each Inspector and why, the journal kept.
    if let Some(err) = unreported(&out.pipelines) {
        return Err(fail2(anyhow::anyhow!(err)));
    }
    let Recorded {
        first,
        mut outcome,
        seq,
    } = record(&repo, &scope, &out, threshold)?;
    // Where the configuration came from and what the change suppressed itself open the notes.
    header.extend(outputs::suppressed::note(&first.reports));
    outcome.notes.splice(0..0, header);
    // Step 9 after the verdict: CODIFY rows applied, PROPOSE rows answered or recorded pending.
    let steering =
        review::steering::apply_after_review(&repo, &outcome.steering, &out.run_id, answers)
            .map_err(|e| fail2(e.into()))?;
    outcome.notes.extend(steering);
    let outcome = &outcome;
    // After the verdict and before any output, so a folder that cannot be written is exit 2
    // like an unwritable verdicts.md; the verdict and exit code stay the Auditor's.
    let written = match cycle {
        Some(c) => Some(
            review::review_cycle::run(&review::review_cycle::Input {
                repo: &repo,
                run_id: &out.run_id,
                scope: &scope,
                scope_label: &outcome.scope,
                verdict: outcome.verdict,
                findings: &outcome.findings,
                dimensions: &c.dimensions,
                max_iterations: c.max_iterations,
            })
            .map_err(|e| fail2(e.into()))?,
        ),
        None => None,
    };
    let head = protocol::exec::git::head_commit(&repo);
    let expected: Vec<String> = protocol::InspectorKind::ALL
        .iter()
        .map(|k| k.actor_name())
        .collect();
    let summary = Summary {
        run_id: Some(&out.run_id),
        outcome,
        reports: &first.reports,
        expected: &expected,
        restarts: &review::merge::total_restarts(&out.pipelines),
        round: seq,
        head: head.as_deref(),
        baseline: None,
    };
    let code = super::emit(&summary, output).map_err(fail2)?;
    if let Some(feed) = &live {
        let mut view = protocol::live::ReviewView::of_outcome(outcome);
        view.verdict = summary.verdict_line();
        view.explanation = format!("exit {}, {}", code.code(), view.explanation);
        feed.publish(protocol::live::LiveEvent::Review(view));
    }
    let reviewed = Reviewed {
        code,
        verdict: Some(outcome.verdict),
        decision: Some((outcome.decision, outcome.grade)),
        journal: Some(out.journal_dir.clone()),
    };
    match written {
        Some(w) => {
            eprintln!("retake: {}", w.summary());
            Ok((reviewed, w.dir))
        }
        None => Ok((reviewed, out.journal_dir.clone())),
    }
}

/// A review's verdict once recorded in verdicts.md.
struct Recorded<'o> {
    /// The first pipeline that produced a verdict (its reports are the review's).
    first: &'o review::coordinator::Finished,
    /// The verdict (the pipelines' consensus when there are several), with its regressions.
    outcome: protocol::AuditOutcome,
    /// The batch's number in verdicts.md.
    seq: u32,
}

/// Takes the pipelines' verdicts as one (consensus over several) and appends the batch to the
/// review's verdicts.md.
fn record<'o>(
    repo: &std::path::Path,
    scope: &Scope,
    out: &'o review::ReviewOutput,
    threshold: Option<u32>,
) -> Result<Recorded<'o>, Failure> {
    let fail2 = |error: anyhow::Error| Failure {
        code: ExitCode::Error,
        error,
    };
    let feature = match scope {
        Scope::Feature { feature, .. } => Some(feature.as_str()),
        _ => None,
    };
    let md = verdicts_md::location(repo, &repo.join(".retake"), feature);
    let title = feature.map(str::to_string).unwrap_or_else(|| {
        repo.file_name()
            .map_or_else(|| "repository".into(), |n| n.to_string_lossy().into_owned())
    });
    let produced: Vec<Option<protocol::cpf::VerdictCpf>> = out
        .pipelines
        .iter()
        .map(|p| p.as_ref().map(|f| f.outcome.to_cpf()))
        .collect();
    let raw: Vec<Option<String>> = produced
        .iter()
        .map(|c| c.as_ref().map(protocol::cpf::format_verdict))
        .collect();
    let timestamp = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let consensus = match produced.as_slice() {
        [Some(only)] => auditor::consensus::Consensus::single(only),
        _ => auditor::consensus::consensus(&produced, threshold).map_err(|e| fail2(e.into()))?,
    };
    let merged = review::merge::consensus_outcome(&out.pipelines, &consensus)
        .ok_or_else(|| fail2(anyhow::anyhow!("no pipeline produced a verdict")))?;
    let first = out
        .pipelines
        .iter()
        .flatten()
        .next()
        .ok_or_else(|| fail2(anyhow::anyhow!("no pipeline produced a verdict")))?;
    let outcome = if out.pipelines.len() == 1 {
        &first.outcome
    } else {
        &merged
    };
    let findings: Vec<protocol::Finding> = out
        .pipelines
        .iter()
        .flatten()
        .flat_map(|p| p.outcome.findings.iter().cloned())
        .collect();
    let active: std::collections::BTreeSet<&str> = outcome
        .findings
        .iter()
        .map(|f| f.fingerprint.as_str())
        .collect();
    let already_there: Vec<protocol::Finding> =
        outputs::already_there::collect(&first.reports, &active)
            .into_iter()
            .cloned()
            .collect();
    let batch = verdicts_md::Batch {
        title: &title,
        timestamp: &timestamp,
        version: env!("CARGO_PKG_VERSION"),
        raw: &raw,
        consensus: &consensus,
        disposition: None,
        findings: &findings,
        already_there: &already_there,
    };
    let appended = verdicts_md::append(&md, &batch)
        .with_context(|| format!("cannot append to {}", md.display()))
        .map_err(fail2)?;
    Ok(Recorded {
        first,
        outcome: with_regressions(outcome, &appended),
        seq: appended.seq,
    })
}

/// The first pipeline's [`auditor::NoReport`] when no produced pipeline has any Inspector
/// report; `None` when one has, or when none produced a verdict (that is reported later).
fn unreported(pipelines: &[Option<review::coordinator::Finished>]) -> Option<auditor::NoReport> {
    let mut first = None;
    for p in pipelines.iter().flatten() {
        match auditor::unreported(&p.outcome) {
            Ok(()) => return None,
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    first
}

/// The scope the flags ask for. Without a scope flag, a git repository with uncommitted
/// changes or commits over its default branch gets a session review against that base
/// (the Inspectors spec); anything else is reviewed whole.
fn scope_of(args: &ReviewArgs, repo: &std::path::Path) -> Scope {
    let session = |base: String| Scope::Session {
        base,
        filter: args.filter.map(Into::into).unwrap_or_default(),
    };
    if let Some(feature) = &args.feature {
        Scope::Feature {
            feature: feature.clone(),
            tasks: args.tasks.clone(),
        }
    } else if args.cross_check {
        Scope::CrossCheck
    } else if let Some(wave) = args.wave {
        Scope::WaveCrossCheck { wave }
    } else if let Some(base) = &args.base {
        session(base.clone())
    } else if !args.paths.is_empty() {
        Scope::Module {
            globs: args.paths.clone(),
        }
    } else if let Some(base) = inspector::engine::default_session_base(repo) {
        session(base)
    } else {
        Scope::repository()
    }
}

/// A resolved issue that came back is a REGRESSION, one severity level higher (the Auditor spec): the
/// batch records it, and the reported finding and the verdict follow.
fn with_regressions(
    outcome: &protocol::AuditOutcome,
    appended: &verdicts_md::Appended,
) -> protocol::AuditOutcome {
    let mut outcome = outcome.clone();
    for f in &mut outcome.findings {
        let key = auditor::consensus::consensus_key(&f.category, &f.location.to_string());
        if appended.regressions.contains(&key) {
            f.severity = f.severity.raised();
            f.description = format!("REGRESSION: {}", f.description);
        }
    }
    outcome.verdict = outcome.verdict.worst(appended.consensus.verdict);
    outcome
}
