//! `retake review`: resolve the scope, run the review, append verdicts.md, print, exit.

use crate::cli::ReviewArgs;
use crate::output::Summary;
use crate::review::{self, ReviewError, ReviewRequest};
use crate::runtime::Runtime;
use crate::verdicts_md;
use anyhow::Context as _;
use protocol::Scope;
use std::collections::BTreeMap;

/// What went wrong, with the exit code it maps to.
pub struct Failure {
    /// Exit code: 2, or 124 for a timeout.
    pub code: u8,
    /// The one-line message.
    pub error: anyhow::Error,
}

/// Runs the command.
pub fn run(args: ReviewArgs) -> Result<u8, Failure> {
    let fail2 = |error: anyhow::Error| Failure { code: 2, error };
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
    let settings = crate::config::load(&repo).map_err(|e| fail2(e.into()))?;
    let runtime = match args.runtime {
        Some(r) => r,
        None => settings
            .review
            .runtime
            .parse::<Runtime>()
            .map_err(|e| fail2(anyhow::anyhow!(e)))?,
    };
    let scope = scope_of(&args);
    let request = ReviewRequest {
        repo: repo.clone(),
        scope: scope.clone(),
        runtime,
        no_exec: args.no_exec,
        settings,
    };
    let out = review::run(request).map_err(|e| match e {
        ReviewError::TimedOut(_) => Failure {
            code: 124,
            error: e.into(),
        },
        other => fail2(other.into()),
    })?;
    let outcome = &out.finished.outcome;
    let feature = match &scope {
        Scope::Feature { feature, .. } => Some(feature.as_str()),
        _ => None,
    };
    let md = verdicts_md::location(&repo, &repo.join(".retake"), feature);
    let title = feature.map(str::to_string).unwrap_or_else(|| {
        repo.file_name()
            .map_or_else(|| "repository".into(), |n| n.to_string_lossy().into_owned())
    });
    let cpf = protocol::cpf::format_verdict(&outcome.to_cpf());
    let timestamp = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let raw = [(outcome.clone(), cpf)];
    let batch = verdicts_md::Batch {
        title: &title,
        timestamp: &timestamp,
        version: env!("CARGO_PKG_VERSION"),
        raw: &raw,
        threshold: 1,
    };
    verdicts_md::append(&md, &batch)
        .with_context(|| format!("cannot append to {}", md.display()))
        .map_err(fail2)?;
    let expected: Vec<String> = protocol::InspectorKind::ALL
        .iter()
        .map(|k| k.actor_name())
        .collect();
    let restarts: BTreeMap<String, u32> = expected
        .iter()
        .chain(std::iter::once(&review::AUDITOR.to_string()))
        .map(|n| (n.clone(), 0))
        .collect();
    let summary = Summary {
        run_id: Some(&out.run_id),
        outcome,
        reports: &out.finished.reports,
        expected: &expected,
        restarts: &restarts,
    };
    super::emit(&summary, &args.output).map_err(fail2)
}

fn scope_of(args: &ReviewArgs) -> Scope {
    if let Some(feature) = &args.feature {
        Scope::Feature {
            feature: feature.clone(),
            tasks: args.tasks.clone(),
        }
    } else if args.cross_check {
        Scope::CrossCheck
    } else if let Some(wave) = args.wave {
        Scope::WaveCrossCheck { wave }
    } else {
        Scope::Module {
            globs: args.paths.clone(),
        }
    }
}
