//! `retake audit DIR|FILE…`: the Auditor on CPF reports from anywhere; each file's stem names
//! the agent. Malformed CPF is one error line naming the file and line. `--expect AGENT` names
//! the team whose reports should be there, so that a missing file counts as a lost Inspector.

use crate::cli::AuditArgs;
use anyhow::{bail, Context as _};
use outputs::ExitCode;
use outputs::Summary;
use protocol::InspectorReport;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Runs the command.
pub fn run(args: AuditArgs) -> anyhow::Result<ExitCode> {
    super::plan(&args.output)?;
    let files = cpf_files(&args.inputs)?;
    let mut reports = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let cpf = protocol::cpf::parse_report(&text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let agent = file
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        if reports.contains_key(&agent) {
            bail!("{}: a second report from agent '{agent}'", file.display());
        }
        reports.insert(
            agent.clone(),
            InspectorReport::from_cpf(&agent, "audit", cpf),
        );
    }
    // The reports once, in agent order: audited as a list, then moved into the map the outputs
    // read (a second copy of a million findings is hundreds of megabytes).
    let list: Vec<InspectorReport> = std::mem::take(&mut reports).into_values().collect();
    let scope = list
        .iter()
        .map(|r| r.scope.as_str())
        .find(|s| !s.is_empty())
        .unwrap_or("audit")
        .to_string();
    let config = auditor::AuditConfig {
        // clap accepted only `TestFailurePolicy::NAMES`.
        test_failure: args.test_failure.parse().unwrap_or_default(),
    };
    // Without --expect the files are the whole team by definition; with it, a missing agent is
    // partial coverage and no expected agent at all is no verdict.
    let expected: Vec<String> = if args.expect.is_empty() {
        list.iter().map(|r| r.inspector.clone()).collect()
    } else {
        let mut names: Vec<String> = Vec::new();
        for name in &args.expect {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
        names
    };
    let outcome = auditor::audit(&auditor::AuditInput::new(
        &scope,
        &list,
        &expected,
        &[],
        &config,
    ));
    auditor::unreported(&outcome)?;
    let reports: BTreeMap<String, InspectorReport> =
        list.into_iter().map(|r| (r.inspector.clone(), r)).collect();
    let restarts = BTreeMap::new();
    let summary = Summary {
        run_id: None,
        outcome: &outcome,
        reports: &reports,
        expected: &expected,
        restarts: &restarts,
        round: 1,
        head: None,
        baseline: None,
    };
    super::emit(&summary, &args.output)
}

/// The .cpf files named directly or found (not recursively) in named folders, sorted.
fn cpf_files(inputs: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(input)
                .with_context(|| format!("cannot read {}", input.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cpf") && p.is_file())
                .collect();
            if found.is_empty() {
                bail!("{}: no .cpf files in this folder", input.display());
            }
            found.sort();
            files.extend(found);
        } else if input.is_file() {
            files.push(input.clone());
        } else {
            bail!("{}: no such file or folder", input.display());
        }
    }
    Ok(files)
}
