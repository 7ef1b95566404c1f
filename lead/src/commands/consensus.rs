//! `retake consensus VERDICT.cpf…`: the Auditor verdicts of N pipelines, from anywhere, become the
//! consensus verdict of the Auditor spec. Malformed CPF is one error line naming the file and line.
//!
//! Decisions the spec leaves open, fixed here and why:
//! - **Exit codes** follow the consensus verdict as for `retake review` (the outputs spec): GO 0,
//!   CONDITIONAL 0 (3 with `--strict`), NO-GO 1, SPEC-UPDATE-NEEDED 4 — the latter only when at
//!   least K verdicts ask for a spec update (one pipeline's spec defect is Noise like any finding).
//! - **`--runs N`** names the pipelines run when some failed and left no file: they count in N and
//!   in "answered k/N" but add nothing else. Without it, N is the number of files.
//! - **verdicts.md** is appended only with `--verdicts FILE`: files from anywhere have no
//!   repository to infer a place from, and a read-only aggregation should not write by surprise.
//!   The batch's regressions raise the verdict printed and the exit code.

use crate::cli::{ConsensusArgs, ConsensusFormat};
use anyhow::{bail, Context as _};
use auditor::consensus::{consensus, Consensus, ConsensusRow};
use outputs::exit_code;
use outputs::ExitCode;
use review::verdicts_md::{self, Appended};
use serde_json::{json, Value};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Runs the command.
pub fn run(args: ConsensusArgs) -> anyhow::Result<ExitCode> {
    let mut texts = Vec::new();
    let mut verdicts = Vec::new();
    for file in &args.files {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let verdict = protocol::cpf::parse_verdict(&text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        verdicts.push(Some(verdict));
        texts.push(Some(text));
    }
    let files = verdicts.len();
    if let Some(runs) = args.runs {
        if (runs as usize) < files {
            bail!("--runs {runs} is fewer than the {files} verdict files given");
        }
        verdicts.resize(runs as usize, None);
        texts.resize(runs as usize, None);
    }
    let mut result = consensus(&verdicts, args.threshold)?;
    let appended = match &args.verdicts {
        Some(md) => {
            let timestamp = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
            let batch = verdicts_md::Batch {
                title: &title_for(md),
                timestamp: &timestamp,
                version: env!("CARGO_PKG_VERSION"),
                raw: &texts,
                consensus: &result,
                disposition: None,
                // CPF verdicts carry no fingerprints: rows match by category, path, description.
                findings: &[],
                already_there: &[],
            };
            let appended = verdicts_md::append(md, &batch)
                .with_context(|| format!("cannot append to {}", md.display()))?;
            result = appended.consensus.clone();
            Some((md.as_path(), appended))
        }
        None => None,
    };
    let batch = appended.as_ref().map(|(md, a)| (*md, a));
    let mut stdout = std::io::stdout().lock();
    match args.format {
        ConsensusFormat::Terminal => {
            stdout.write_all(terminal(&result, &args.files, batch).as_bytes())?
        }
        ConsensusFormat::Json => {
            serde_json::to_writer_pretty(&mut stdout, &to_json(&result, &args.files, batch))?;
            stdout.write_all(b"\n")?;
        }
    }
    stdout.flush()?;
    Ok(exit_code(result.verdict, args.strict))
}

/// The title of a new verdicts.md: its folder (`specs/<feature>/` → the feature), or the
/// repository's folder for `.retake/verdicts.md`.
fn title_for(md: &Path) -> String {
    // Absolute but not canonical: the folder may not exist yet.
    let md = std::path::absolute(md).unwrap_or_else(|_| md.to_path_buf());
    let name = |p: Option<&Path>| {
        p.and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
    };
    let parent = md.parent();
    let folder = match name(parent) {
        Some(dot) if dot == ".retake" => name(parent.and_then(Path::parent)),
        other => other,
    };
    folder.unwrap_or_else(|| "consensus".to_string())
}

/// The terminal report: verdict, answered/N and threshold, each pipeline's verdict, Consensus and
/// Noise rows with their frequency.
fn terminal(c: &Consensus, files: &[PathBuf], batch: Option<(&Path, &Appended)>) -> String {
    let n = c.runs;
    let mut out = format!(
        "CONSENSUS VERDICT: {}\nanswered {}/{n} · threshold {}/{n}\n",
        c.verdict, c.answered, c.threshold
    );
    if c.partial {
        out.push_str("PARTIAL: fewer than half of the pipelines answered\n");
    }
    for (i, v) in c.produced.iter().enumerate() {
        let (verdict, file) = match (v, files.get(i)) {
            (Some(v), Some(f)) => (v.as_str(), f.display().to_string()),
            _ => ("no verdict", "pipeline failed".to_string()),
        };
        out.push_str(&format!("  V{} {verdict} ({file})\n", i + 1));
    }
    for (title, rows) in [("Consensus", &c.consensus), ("Noise", &c.noise)] {
        out.push_str(&format!("\n{title} ({}):\n", rows.len()));
        if rows.is_empty() {
            out.push_str("  (none)\n");
        }
        for r in rows.iter() {
            let mark = if r.regression {
                format!(" [REGRESSION, was {}]", r.reported)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "  {} {} {} freq {}/{n} [{}] {}{mark}\n",
                r.severity,
                r.category,
                if r.location.is_empty() {
                    "-"
                } else {
                    &r.location
                },
                r.freq,
                r.agents.join("+"),
                r.description
            ));
        }
    }
    if let Some((md, a)) = batch {
        out.push_str(&format!("\nappended [B{}] to {}\n", a.seq, md.display()));
    }
    out
}

/// The JSON object: verdict, counts, each pipeline's verdict, the rows, and the batch appended.
fn to_json(c: &Consensus, files: &[PathBuf], batch: Option<(&Path, &Appended)>) -> Value {
    let pipelines: Vec<Value> = c
        .produced
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let file = v.and(files.get(i)).map(|f| f.display().to_string());
            json!({ "file": file, "verdict": v.map(|v| v.as_str()) })
        })
        .collect();
    let rows = |rows: &[ConsensusRow]| -> Vec<Value> {
        rows.iter()
            .map(|r| {
                json!({
                    "key": r.key, "category": r.category, "location": r.location,
                    "severity": r.severity.letter(), "reported": r.reported.letter(),
                    "freq": r.freq, "agents": r.agents, "description": r.description,
                    "regression": r.regression,
                })
            })
            .collect()
    };
    let batch = batch.map(|(md, a)| {
        json!({
            "file": md.display().to_string(), "seq": a.seq,
            "regressions": a.regressions, "resolved": a.resolved,
        })
    });
    json!({
        "verdict": c.verdict.as_str(),
        "runs": c.runs,
        "answered": c.answered,
        "threshold": c.threshold,
        "partial": c.partial,
        "aggregated": c.aggregated(),
        "pipelines": pipelines,
        "consensus": rows(&c.consensus),
        "noise": rows(&c.noise),
        "batch": batch,
    })
}
