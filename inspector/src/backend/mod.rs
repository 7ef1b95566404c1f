//! Backends: which reviewer an Inspector kind runs — the built-in catalog, an agent, or both
//! (the Inspectors spec, "Backends").
//!
//! An agent is a command (argv, no shell, the prompt on stdin, CPF on stdout) or an
//! OpenAI-compatible chat endpoint (the prompt as a user message, CPF in the reply). Its
//! findings carry the agent name `<kind>-agent`, which the Auditor recognises as an agent
//! backend's. Fail-closed: an empty or unusable reply is retried, and an agent that gives none
//! in [`MAX_ATTEMPTS`] attempts, times out, or cannot run at all fails the Inspector — it never
//! becomes a clean report. `--no-exec` runs no agent (command or endpoint), and the report
//! says so in the Inspector's one "not run (--no-exec)" note.

mod command;
mod http;
mod prompt;
mod questions;
mod reply;
mod structured;

pub use prompt::{default_template, render_prompt, PLACEHOLDERS};
pub use questions::Asker;
pub use reply::read_reply;

use crate::engine::file_pass::refuse_unanalysable;
use crate::engine::run::collect;
use crate::engine::{finish, Context};
use protocol::cpf::ReportCpf;
use protocol::message::{AgentTransport, Backend};
use protocol::{Coverage, Finding, InspectorKind, InspectorReport, Location};

/// Attempts an agent gets for a usable reply: the first and one retry. The spec allows at most
/// two retries; one keeps a review's time bounded and makes "garbage twice" a failure.
pub const MAX_ATTEMPTS: u32 = 2;

/// Why an agent backend produced no report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    /// `backend` is `agent` or `both` but no `[agent]` is configured.
    #[error("{agent}: the backend is '{backend}' but no [agent] command or url is configured")]
    NotConfigured {
        /// The agent name.
        agent: String,
        /// The configured backend.
        backend: String,
    },
    /// Every attempt gave empty or unusable output.
    #[error("{agent}: no usable CPF in {attempts} attempt(s); last: {last}")]
    Unusable {
        /// The agent name.
        agent: String,
        /// Attempts made.
        attempts: u32,
        /// What was wrong with the last one.
        last: String,
    },
    /// The agent could not run or did not finish (timeout, missing command, unreachable).
    #[error("{agent}: {reason}")]
    Failed {
        /// The agent name.
        agent: String,
        /// What happened.
        reason: String,
    },
}

/// How one attempt went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AttemptError {
    /// Worth another attempt: empty or unusable output, a non-success HTTP status.
    Retry(String),
    /// Not worth another attempt: a timeout, a command that does not exist.
    Fatal(String),
}

/// Runs the kind's configured backend over `ctx` and returns its report, agent = `name`; an
/// agent's questions to the author go through `asker` (none: nobody answers them).
pub fn review(
    kind: InspectorKind,
    ctx: &mut Context,
    name: &str,
    review: &str,
    asker: Option<&dyn Asker>,
) -> Result<InspectorReport, BackendError> {
    let backend = ctx.options.backend;
    // The built-in rules' file pass takes out the files beyond the limits; without it, so
    // must this (an agent is handed only files the rules could have analysed).
    if backend == Backend::Agent {
        refuse_unanalysable(ctx);
    }
    // `--no-exec` runs no external command at all, an agent included: said in the one note.
    let skip_agent = backend != Backend::Builtin && ctx.options.no_exec;
    let not_run = if skip_agent {
        vec![format!("the agent backend ({})", agent_name(kind))]
    } else {
        Vec::new()
    };
    let mut report = match backend {
        Backend::Builtin | Backend::Both => collect(kind, ctx, name, review, &not_run),
        Backend::Agent if skip_agent => {
            let mut report = empty_report(kind, ctx, name, review);
            report.notes.push(format!(
                "{kind}: not run (--no-exec): {}",
                not_run.join(", ")
            ));
            report
        }
        Backend::Agent => empty_report(kind, ctx, name, review),
    };
    if backend != Backend::Builtin && !skip_agent {
        add_agent_findings(kind, ctx, &mut report, asker)?;
    }
    // Finished once, so suppressions and the session filter treat both sources alike.
    finish(ctx, &mut report);
    // What this Inspector read, so the Auditor's coverage step can tell a design file nobody
    // reviewed from one that was reviewed and found clean.
    report.claims.push(protocol::Claim::FilesCovered {
        paths: ctx.files.iter().map(|f| f.rel_path.clone()).collect(),
    });
    Ok(report)
}

/// Asks `spec`'s agent `prompt` once in `root` and returns its answer as text, or why there
/// is none: the agent standing in for the author when a reviewer asks (pattern A).
pub fn ask_text(
    spec: &protocol::message::AgentSpec,
    root: &std::path::Path,
    prompt: &str,
) -> Result<String, String> {
    let timeout = std::time::Duration::from_millis(spec.timeout_ms);
    let failed = |e: AttemptError| match e {
        AttemptError::Retry(r) | AttemptError::Fatal(r) => r,
    };
    match &spec.transport {
        AgentTransport::Command { argv } => {
            command::ask(argv, root, prompt, timeout).map_err(failed)
        }
        AgentTransport::Http {
            url,
            model,
            api_key_env,
        } => {
            let limits = crate::chat::Limits {
                timeout,
                idle: (spec.idle_timeout_ms > 0)
                    .then(|| std::time::Duration::from_millis(spec.idle_timeout_ms)),
            };
            http::ask_text(
                url,
                model,
                api_key_env.as_deref(),
                prompt,
                spec.max_tokens,
                limits,
            )
        }
    }
}

/// The agent's name for `kind`: `quality-agent`.
pub fn agent_name(kind: InspectorKind) -> String {
    format!("{kind}-agent")
}

/// A report with no findings yet, covering the context's files.
fn empty_report(kind: InspectorKind, ctx: &Context, name: &str, review: &str) -> InspectorReport {
    InspectorReport {
        review: review.to_string(),
        inspector: name.to_string(),
        kind: Some(kind),
        scope: ctx.scope.label(),
        findings: Vec::new(),
        notes: Vec::new(),
        claims: Vec::new(),
        coverage: Coverage {
            files_reviewed: ctx.files.len() as u32,
            skipped: ctx.skipped.clone(),
        },
        preexisting: Vec::new(),
    }
}

/// Asks the configured agent and adds its findings and notes to `report` — after its questions
/// to the author, when it asks any, the reply it gives with the answers; what the calls cost
/// goes to `ctx.agent_usage`.
fn add_agent_findings(
    kind: InspectorKind,
    ctx: &mut Context,
    report: &mut InspectorReport,
    asker: Option<&dyn Asker>,
) -> Result<(), BackendError> {
    let agent = agent_name(kind);
    let spec = ctx
        .options
        .agent
        .as_ref()
        .ok_or_else(|| BackendError::NotConfigured {
            agent: agent.clone(),
            backend: format!("{:?}", ctx.options.backend).to_lowercase(),
        })?;
    let prompt = render_prompt(kind, ctx, spec);
    let timeout = std::time::Duration::from_millis(spec.timeout_ms);
    let limits = crate::chat::Limits {
        timeout,
        idle: (spec.idle_timeout_ms > 0)
            .then(|| std::time::Duration::from_millis(spec.idle_timeout_ms)),
    };
    let (mut calls, mut tokens) = (0u32, (0u64, 0u64));
    let started = std::time::Instant::now();
    let mut ask = |prompt: &str| {
        calls += 1;
        match &spec.transport {
            AgentTransport::Command { argv } => command::ask(argv, &ctx.root, prompt, timeout),
            AgentTransport::Http {
                url,
                model,
                api_key_env,
            } => http::ask(
                url,
                model,
                api_key_env.as_deref(),
                prompt,
                (spec.seed, spec.max_tokens),
                limits,
                &mut tokens,
            ),
        }
    };
    let mut asked = with_retries(&agent, || ask(&prompt));
    if let Ok((first, _)) = &asked {
        if !first.questions.is_empty() {
            let wait = std::time::Duration::from_millis(spec.question_timeout_ms);
            let (exchanges, notes) =
                questions::put(&agent, &report.review, &first.questions, asker, wait);
            report.notes.extend(notes);
            if exchanges.iter().any(|e| e.answer.is_some()) {
                let again = questions::follow_up(&prompt, &exchanges);
                match with_retries(&agent, || ask(&again)) {
                    Ok(reply) => asked = Ok(reply),
                    // The first reply is a report: it stands, and the report says why.
                    Err(e) => report
                        .notes
                        .push(format!("{agent}: asked again with the answers, no report ({e}); its first reply stands")),
                }
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    ctx.agent_usage = protocol::session::AgentUsage {
        calls: calls.into(),
        prompt_tokens: tokens.0,
        completion_tokens: tokens.1,
        millis: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    };
    tracing::info!(
        agent,
        calls,
        seconds,
        prompt_tokens = tokens.0,
        completion_tokens = tokens.1,
        "agent calls"
    );
    let (cpf, retries) = asked?;
    let (found, nowhere) = findings_of(&agent, &ctx.root, &cpf);
    report.findings.extend(found);
    report.notes.extend(retries);
    report.notes.extend(nowhere_note(&agent, &nowhere));
    report
        .notes
        .extend(usage_note(&agent, calls, tokens, seconds));
    report
        .notes
        .extend(cpf.notes.iter().map(|n| format!("{agent}: {n}")));
    Ok(())
}

/// What the agent cost, for the report (and so the journal; `/metrics` counts the same), when
/// an endpoint reported its tokens: calls, tokens and the seconds spent waiting for them — the
/// one part of the note a deterministic model does not repeat exactly.
fn usage_note(agent: &str, calls: u32, tokens: (u64, u64), seconds: f64) -> Option<String> {
    (tokens != (0, 0)).then(|| {
        format!(
            "{agent}: {calls} call(s), {} prompt + {} completion tokens, {seconds:.1} s",
            tokens.0, tokens.1
        )
    })
}

/// Asks until a reply reads as CPF, at most [`MAX_ATTEMPTS`] times; a fatal error ends at
/// once. Returns the report and a note per failed attempt.
pub(crate) fn with_retries(
    agent: &str,
    mut ask: impl FnMut() -> Result<String, AttemptError>,
) -> Result<(ReportCpf, Vec<String>), BackendError> {
    let mut notes = Vec::new();
    let mut last = String::new();
    for attempt in 1..=MAX_ATTEMPTS {
        let outcome = ask().and_then(|text| read_reply(&text).map_err(AttemptError::Retry));
        match outcome {
            Ok(cpf) => return Ok((cpf, notes)),
            Err(AttemptError::Fatal(reason)) => {
                return Err(BackendError::Failed {
                    agent: agent.to_string(),
                    reason,
                })
            }
            Err(AttemptError::Retry(reason)) => {
                tracing::warn!(agent, attempt, %reason, "agent reply unusable");
                notes.push(format!("{agent}: attempt {attempt} unusable ({reason})"));
                last = reason;
            }
        }
    }
    Err(BackendError::Unusable {
        agent: agent.to_string(),
        attempts: MAX_ATTEMPTS,
        last,
    })
}

/// The CPF issues as findings of `agent` (absolute paths under `root` made relative), and the
/// locations of those that name no file of the repository: a model that invents a path (or
/// copies the prompt's `<path>:<line>`) says nothing about this code, so they are left out —
/// never findings that could fail the gate on a file that does not exist.
fn findings_of(
    agent: &str,
    root: &std::path::Path,
    cpf: &ReportCpf,
) -> (Vec<Finding>, Vec<String>) {
    let root_prefix = format!("{}/", root.display());
    let (mut found, mut nowhere) = (Vec::new(), Vec::new());
    for issue in &cpf.issues {
        let mut location = Location::parse(&issue.location);
        let path = location.path.as_str();
        let path = path.strip_prefix(&root_prefix).unwrap_or(path);
        location.path = path.strip_prefix("./").unwrap_or(path).to_string();
        let exists =
            location.path.is_empty() || location.resolve(root).is_ok_and(|file| file.is_file());
        if !exists {
            nowhere.push(issue.location.clone());
            continue;
        }
        found.push(Finding::new(
            agent,
            format!("cpf/{}", issue.category),
            issue.category.clone(),
            issue.severity,
            location,
            issue.description.clone(),
            &issue.description,
        ));
    }
    (found, nowhere)
}

/// The note on findings left out for naming no file of the repository.
fn nowhere_note(agent: &str, nowhere: &[String]) -> Option<String> {
    let first: Vec<&str> = nowhere.iter().take(3).map(String::as_str).collect();
    (!nowhere.is_empty()).then(|| {
        format!(
            "{agent}: {} finding(s) left out: no such file in the repository ({}{})",
            nowhere.len(),
            first.join(", "),
            if nowhere.len() > 3 { ", …" } else { "" }
        )
    })
}

#[cfg(test)]
mod tests;
