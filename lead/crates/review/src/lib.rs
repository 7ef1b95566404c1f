//! One review, from a typed request to its verdict, and what a review leaves behind.
//!
//! [`run`] takes a [`ReviewRequest`] — the repository, the scope, the runtime and a
//! [`config::ReviewConfig`] the application derived from its settings — validates the scope,
//! builds the project model once ([`project_model`]), starts six Inspectors and an Auditor in
//! the chosen runtime (`host`), and lets the [`coordinator`] hub journal each report before
//! forwarding it, supervise the actors and collect the verdict; `--consensus N` runs N such
//! pipelines side by side ([`merge`]). Around it: [`state`] (`.retake/state/active.json`, what
//! an interrupted review or run needs to resume), [`verdicts_md`] (the batches of
//! `verdicts.md`), [`steering`] (the Auditor's STEERING rows applied) and [`review_cycle`] (the
//! per-dimension aggregation and deep dive).
//!
//! This crate knows no configuration file, command line or output format: the application
//! hands it typed values and renders what it returns.

#![warn(missing_docs, rust_2018_idioms)]

pub mod config;
pub mod context;
pub mod coordinator;
pub mod handover;
pub mod merge;
pub mod plan;
pub mod prepare;
pub mod questions;
pub mod review_cycle;
pub mod state;
pub mod steering;
pub mod verdicts_md;

use crate::state::ActiveReview;
use actix::Actor;
use config::ReviewConfig;
use coordinator::{Coordinator, Finished, ReviewFailure, Stop};
use host::journal::{new_run_id, Journal};
use host::lock::RepoLock;
use host::{ActorKind, Runtime};
use plan::ReviewPlan;
use prepare::Prepared;
use protocol::chaos::FaultPlan;
use protocol::message::InspectOptions;
use protocol::Scope;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The Auditor's actor name in a single-pipeline review.
pub const AUDITOR: &str = "auditor";

/// What to review and how.
#[derive(Debug, Clone)]
pub struct ReviewRequest {
    /// Repository root (absolute).
    pub repo: PathBuf,
    /// The scope.
    pub scope: Scope,
    /// Runtime.
    pub runtime: Runtime,
    /// Run no external command.
    pub no_exec: bool,
    /// The review's configuration.
    pub config: ReviewConfig,
    /// Pipelines to run side by side (`--consensus N`); 1 is a plain review.
    pub pipelines: u32,
    /// Faults to inject (empty unless chaos is enabled).
    pub faults: FaultPlan,
    /// Resume this interrupted run: its journaled reports are not re-run.
    pub resume: Option<String>,
    /// Part of a team run that already holds the repository lock and owns the state file:
    /// neither is touched by the review.
    pub nested: bool,
    /// The commit whose repository-level files (`.retake/decisions.yaml`) the Inspectors read;
    /// `None`: the work tree (`config::Loaded::repo_files_rev`).
    pub repo_files_rev: Option<String>,
    /// Notes the report carries from before the review (where its configuration came from).
    pub notes: Vec<String>,
    /// The dashboard's feed, when one watches: every pipeline's actors are published to it.
    pub live: Option<host::live::Feed>,
    /// Who answers the Inspectors' questions (a run's Implementers); `None`: the configured
    /// agent stands in for the author, unless commands may not run.
    pub author: Option<questions::AuthorRef>,
}

/// A finished review with where it was journaled.
#[derive(Debug, Clone)]
pub struct ReviewOutput {
    /// The run id.
    pub run_id: String,
    /// The run's journal folder.
    pub journal_dir: PathBuf,
    /// Each pipeline's result (one unless consensus); a failed pipeline is `None`.
    pub pipelines: Vec<Option<Finished>>,
}

/// Why a review did not produce a verdict.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The scope is not reviewable (bad glob, phase gate, malformed spec).
    #[error("{0}")]
    Scope(String),
    /// An actor failed.
    #[error(transparent)]
    Failed(#[from] ReviewFailure),
    /// The state file could not be written.
    #[error("{0}")]
    State(String),
    /// Another Lead holds the repository.
    #[error(transparent)]
    Locked(#[from] host::lock::LockError),
    /// The actors cannot be hosted as asked (the remote runtime without a secret or with its
    /// address in use, faults where workers are not this Lead's).
    #[error(transparent)]
    Remote(#[from] host::remote::HostingError),
    /// The whole review ran past its deadline.
    #[error("the review did not finish within {0} s")]
    TimedOut(u64),
    /// Local I/O failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The error.
        source: std::io::Error,
    },
}

fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> ReviewError {
    let context = context.into();
    move |source| ReviewError::Io { context, source }
}

/// Checks the scope before any actor starts, so a bad glob or a refused phase gate is one clear
/// error and not six failing actors.
/// `repo_files_rev` is where `.retake/decisions.yaml` is read (see [`ReviewRequest`]); a
/// session's changes are the ones `prepared` read.
pub fn validate_scope(
    repo: &Path,
    scope: &Scope,
    repo_files_rev: Option<&str>,
    prepared: &Prepared,
) -> Result<(), ReviewError> {
    if let Scope::Feature { feature, .. } = scope {
        inspector::spec::phase_gate(repo, feature)
            .map_err(|e| ReviewError::Scope(e.to_string()))?;
    }
    let probe = prepared.ship(InspectOptions {
        max_file_bytes: 0,
        repo_files_rev: repo_files_rev.map(str::to_string),
        ..InspectOptions::default()
    });
    // Building a context with a zero size limit resolves the scope and parses the specs without
    // reading any file content.
    inspector::Context::build(repo, scope, &probe)
        .map(|_| ())
        .map_err(|e| ReviewError::Scope(e.to_string()))
}

/// Runs one review: one pipeline, or `req.pipelines` side by side for consensus (each with its
/// own six Inspectors and an Auditor named `auditor-impl-K`, its own hub and journal folder).
pub fn run(req: ReviewRequest) -> Result<ReviewOutput, ReviewError> {
    let prepared = Prepared::build(&req)?;
    validate_scope(
        &req.repo,
        &req.scope,
        req.repo_files_rev.as_deref(),
        &prepared,
    )?;
    let state_dir = req.repo.join(".retake");
    let _lock = if req.nested {
        None
    } else {
        Some(RepoLock::acquire(&state_dir)?)
    };
    let (run_id, journal, preloaded) = match &req.resume {
        Some(run_id) => {
            let journal = Journal::open(&state_dir, run_id).map_err(io("cannot resume"))?;
            let reports = journal
                .reports()
                .map_err(io("cannot read the journaled reports"))?;
            (run_id.clone(), journal, reports)
        }
        None => {
            let run_id = new_run_id();
            let journal = Journal::create(&state_dir, &run_id)
                .map_err(io("cannot create the run journal"))?;
            (run_id, journal, Default::default())
        }
    };
    let active = ActiveReview {
        kind: "review".into(),
        run_id: run_id.clone(),
        scope: req.scope.clone(),
        runtime: ActiveReview::runtime_name(req.runtime).into(),
        no_exec: req.no_exec,
        pipelines: req.pipelines,
        started_at: state::now(),
        profile: Some(req.config.profile().to_string()),
    };
    if req.nested {
        return run_pipelines(&req, &run_id, journal, preloaded, &prepared);
    }
    active
        .write(&state_dir)
        .map_err(|e| ReviewError::State(e.to_string()))?;
    let result = run_pipelines(&req, &run_id, journal, preloaded, &prepared);
    ActiveReview::clear(&state_dir);
    result
}

/// Builds the review's project model once and writes it where every Inspector reads it
/// (`.retake/cache/project-<hash>.bin`); its hash, or `None` when it could not be written —
/// then each Inspector builds the same model itself.
pub(crate) fn project_model(repo: &std::path::Path) -> Option<String> {
    let started = std::time::Instant::now();
    let model = inspector::project::build_at(repo);
    let built = started.elapsed();
    match inspector::project::store(repo, &model) {
        Ok(hash) => {
            tracing::debug!(
                files = model.files.len(),
                packages = model.packages.len(),
                build_ms = built.as_millis() as u64,
                total_ms = started.elapsed().as_millis() as u64,
                "project model built"
            );
            Some(hash)
        }
        Err(e) => {
            tracing::warn!("project model not shared, each Inspector builds it: {e}");
            None
        }
    }
}

fn run_pipelines(
    req: &ReviewRequest,
    run_id: &str,
    journal: Journal,
    preloaded: std::collections::BTreeMap<String, protocol::InspectorReport>,
    prepared: &Prepared,
) -> Result<ReviewOutput, ReviewError> {
    let run_id = run_id.to_string();
    let journal_dir = journal.dir().to_path_buf();
    let n = req.pipelines.max(1);
    let c = &req.config;
    let setup = c
        .hosting
        .open(req.runtime, &req.faults)
        .map_err(ReviewError::Remote)?;
    // Only on a terminal; dropped (and so erased) before anything reports the result.
    let display = outputs::progress::Display::on_terminal();
    let mut pipelines = Vec::new();
    for k in 1..=n {
        let mut plan = ReviewPlan::build_with(req, &run_id, setup.heartbeat, prepared);
        let journal = if n == 1 {
            // Only a single pipeline resumes from its journal; consensus pipelines re-run.
            plan.preloaded = preloaded.clone();
            journal.clone()
        } else {
            plan.rename_auditor(&format!("auditor-impl-{k}"));
            plan.seed_agents(k as u64);
            Journal::create(&req.repo.join(".retake"), &format!("{run_id}/pipeline-{k}"))
                .map_err(io("cannot create the run journal"))?
        };
        let progress = display.as_ref().map(|d| d.reporter((n > 1).then_some(k)));
        let hub = if n > 1 {
            format!("review p{k}")
        } else {
            "review".into()
        };
        let watch = req
            .live
            .as_ref()
            .map(|feed| host::live::ActorWatch::new(feed.clone(), hub));
        pipelines.push((plan, journal, progress, watch));
    }
    let timeout = c.timeout;
    let grace = c.supervision.shutdown_grace;
    let results = actix::System::new().block_on(async move {
        let runs = pipelines
            .into_iter()
            .map(|(plan, journal, progress, watch)| {
                let setup = setup.clone();
                async move {
                    let (done_tx, done_rx) = tokio::sync::oneshot::channel();
                    // The actors this pipeline still needs: a resumed review's reported Inspectors
                    // are not started again.
                    let kinds: Vec<_> = plan
                        .inspections
                        .iter()
                        .filter(|(logical, _, _)| !plan.preloaded.contains_key(logical))
                        .map(|(_, kind, _)| ActorKind::Inspector(*kind))
                        .chain([ActorKind::Auditor])
                        .collect();
                    let (spawner, accepting) = setup
                        .spawner(&kinds)
                        .await
                        .map_err(io("cannot start the review's actors"))?;
                    let addr = Coordinator::new(plan, journal, spawner, done_tx)
                        .with_progress(progress)
                        .with_watch(watch)
                        .start();
                    if let Some(accepting) = accepting {
                        accepting.serve(std::sync::Arc::new(addr.clone()));
                    }
                    finish(addr, done_rx, timeout, grace).await
                }
            });
        futures::future::join_all(runs).await
    });
    drop(display);
    if n == 1 {
        // A single review has no other pipeline to fall back on: its failure is the command's.
        let finished = results
            .into_iter()
            .next()
            .unwrap_or(Err(ReviewError::TimedOut(0)))?;
        return Ok(ReviewOutput {
            run_id,
            journal_dir,
            pipelines: vec![Some(finished)],
        });
    }
    let pipelines = results
        .into_iter()
        .enumerate()
        .map(|(k, r)| {
            r.map_err(|e| tracing::warn!(pipeline = k + 1, error = %e, "pipeline failed: it counts for nothing"))
                .ok()
        })
        .collect();
    Ok(ReviewOutput {
        run_id,
        journal_dir,
        pipelines,
    })
}

/// Waits for the review's result (or its deadline), then shuts every actor down and reaps them.
async fn finish(
    coordinator: actix::Addr<Coordinator>,
    done: tokio::sync::oneshot::Receiver<Result<Finished, ReviewFailure>>,
    timeout: Duration,
    grace: Duration,
) -> Result<Finished, ReviewError> {
    let result = match tokio::time::timeout(timeout, done).await {
        Ok(Ok(result)) => result.map_err(ReviewError::from),
        Ok(Err(_)) => Err(ReviewError::Failed(ReviewFailure::Journal(
            "the hub stopped".into(),
        ))),
        Err(_) => Err(ReviewError::TimedOut(timeout.as_secs())),
    };
    if let Ok(Some(spawner)) = coordinator.send(Stop).await {
        spawner.reap(grace).await;
    }
    result
}
