//! `retake dashboard`'s view of what the repository's state folder recorded last, read on the
//! request, nothing run: the last run's task board and each task's judgments (`tasks.json`,
//! `timeline.jsonl`), and the last review's verdict from its journal
//! (`.retake/runs/<id>/verdict.cpf`, the newest run id). A file that is there but cannot be read
//! is an error, never an empty view.

use protocol::live::{FindingLine, LiveEvent, LiveState, ReviewView};
use protocol::Location;
use std::path::Path;

/// The state of the last run and review recorded under `repo/.retake`.
pub(super) fn last(repo: &Path, name: &str) -> Result<LiveState, String> {
    let state_dir = repo.join(".retake");
    let mut live = LiveState::default();
    live.apply(&LiveEvent::Watching {
        title: format!("retake — the last run and review of {name}"),
    });
    let run = run::RunState::new(&state_dir);
    if run.tasks_path().exists() {
        let (_, tasks) = run
            .read_tasks()
            .map_err(|e| format!("cannot read {}: {e}", super::shown(repo, &run.tasks_path())))?;
        live.apply(&run::live::board(&tasks));
        for event in run
            .timeline()
            .lines()
            .filter_map(protocol::live::of_timeline)
        {
            live.apply(&event);
        }
    }
    if let Some((id, verdict)) = last_verdict(&state_dir.join("runs"))? {
        let view = review_of(&verdict).map_err(|e| format!("cannot read {id}/verdict.cpf: {e}"))?;
        live.apply(&LiveEvent::Happened {
            at_ms: 0,
            text: format!("the last review journaled is {id}"),
        });
        live.apply(&LiveEvent::Review(view));
    }
    live.apply(&LiveEvent::Ended {
        text: "read from the state folder; nothing runs".into(),
    });
    Ok(live)
}

/// The newest journal's id and verdict text, if any journal holds a verdict.
fn last_verdict(runs: &Path) -> Result<Option<(String, String)>, String> {
    let Ok(entries) = std::fs::read_dir(runs) else {
        return Ok(None);
    };
    let mut ids: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().join("verdict.cpf").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    let Some(id) = ids.pop() else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(runs.join(&id).join("verdict.cpf"))
        .map_err(|e| format!("cannot read {id}/verdict.cpf: {e}"))?;
    Ok(Some((id, text)))
}

/// A journaled CPF verdict as the page shows it (CPF names categories, not rules).
fn review_of(text: &str) -> Result<ReviewView, String> {
    let v = protocol::cpf::parse_verdict(text).map_err(|e| e.to_string())?;
    Ok(ReviewView {
        verdict: v.verdict.to_string(),
        explanation: format!("{} verified finding(s), as journaled", v.verified.len()),
        answered: 0,
        expected: 0,
        findings: v
            .verified
            .iter()
            .map(|r| {
                let at = Location::parse(&r.location);
                FindingLine {
                    severity: r.severity,
                    rule: r.category.clone(),
                    inspectors: r.agents.clone(),
                    path: at.path,
                    line: at.line,
                    description: r.description.clone(),
                }
            })
            .collect(),
        notes: v.notes,
    })
}
