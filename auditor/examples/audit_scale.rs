//! The Auditor at scale (BENCHMARKS.md "Auditor scale"): N synthetic findings spread over six
//! Inspector reports, deterministic for a given N.
//!
//! ```text
//! cargo run -p retake-auditor --example audit_scale -- cpf N DIR   # six CPF files for `retake audit DIR`
//! cargo run -p retake-auditor --example audit_scale -- run N       # audit() in process, time per step
//! ```
//!
//! The mix is what a large review produces: a few thousand files, most categories opaque to the
//! audit, one finding in ten reported by a second Inspector at the same place (dedup), neighbours
//! a few lines apart (close variants), and the categories the contradiction, false-positive and
//! severity steps look at (test failures, dead code, signature mismatches, test-code findings).

use protocol::{Finding, InspectorReport, Location, Severity};
use std::cell::Cell;
use std::fmt::Write as _;
use std::time::Instant;

const INSPECTORS: [&str; 6] = [
    "rulebase",
    "interface",
    "test",
    "quality",
    "consistency",
    "holistic",
];

const CATEGORIES: [&str; 16] = [
    "dead-code",
    "error-handling-drift",
    "naming-violation",
    "incomplete",
    "weak-assertion",
    "false-positive-risk",
    "test-failure",
    "signature-mismatch",
    "call-site-error",
    "operational-risk",
    "magic-number",
    "duplicated-logic",
    "interface-inconsistency",
    "error-handling-inconsistency",
    "over-implementation",
    "todo",
];

/// A small deterministic generator (xorshift64*), so the same N gives the same input.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One finding row: (inspector index, severity, category, path, line, description).
type Row = (usize, Severity, &'static str, String, u32, String);

fn rows(n: usize) -> Vec<Row> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let files = (n / 40).max(10) as u64;
    let mut out: Vec<Row> = Vec::with_capacity(n);
    while out.len() < n {
        let inspector = rng.below(6) as usize;
        let severity = match rng.below(100) {
            0..=1 => Severity::Critical,
            2..=11 => Severity::High,
            12..=51 => Severity::Medium,
            _ => Severity::Low,
        };
        let category = CATEGORIES[rng.below(CATEGORIES.len() as u64) as usize];
        let file = rng.below(files);
        let path = if file.is_multiple_of(7) {
            format!("tests/t{file}.rs")
        } else {
            format!("src/m{}/f{file}.rs", file % 50)
        };
        let line = 1 + rng.below(400) as u32;
        let description = format!("{category} in f{file} near line {line}");
        out.push((
            inspector,
            severity,
            category,
            path.clone(),
            line,
            description.clone(),
        ));
        // One in ten is seen by a second Inspector at the same place (a merge for dedup).
        if rng.below(10) == 0 && out.len() < n {
            let other = (inspector + 1 + rng.below(5) as usize) % 6;
            out.push((other, severity, category, path, line, description));
        }
    }
    out
}

fn reports(n: usize) -> Vec<InspectorReport> {
    let mut by: Vec<Vec<Finding>> = vec![Vec::new(); 6];
    for (i, (inspector, severity, category, path, line, description)) in
        rows(n).into_iter().enumerate()
    {
        let agent = format!("inspector-{}", INSPECTORS[inspector]);
        let finding = Finding::new(
            &agent,
            format!("{}/{category}", INSPECTORS[inspector]),
            category,
            severity,
            Location::at(&path, line),
            description,
            &format!("{category}:{line}:{i}"),
        );
        by[inspector].push(finding);
    }
    by.into_iter()
        .enumerate()
        .map(|(i, findings)| InspectorReport {
            review: "bench".into(),
            inspector: format!("inspector-{}", INSPECTORS[i]),
            kind: INSPECTORS[i].parse().ok(),
            scope: "repository".into(),
            findings,
            notes: Vec::new(),
            claims: Vec::new(),
            coverage: Default::default(),
            preexisting: Vec::new(),
        })
        .collect()
}

fn write_cpf(n: usize, dir: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut texts: Vec<String> = vec!["ISSUES:\n".to_string(); 6];
    for (inspector, severity, category, path, line, description) in rows(n) {
        let _ = writeln!(
            texts[inspector],
            "{}|{category}|{path}:{line}|{description}",
            severity.letter()
        );
    }
    for (i, text) in texts.iter().enumerate() {
        std::fs::write(format!("{dir}/{}.cpf", INSPECTORS[i]), text)?;
    }
    Ok(())
}

fn run(n: usize) {
    let started = Instant::now();
    let reports = reports(n);
    eprintln!("generated {n} findings in {:.2?}", started.elapsed());
    let config = auditor::AuditConfig::default();
    let expected: Vec<String> = reports.iter().map(|r| r.inspector.clone()).collect();
    let last = Cell::new(Instant::now());
    let step = Cell::new(0u8);
    // The budget is asked before each step: the time since the last ask is the previous step's.
    let clock = || {
        let now = Instant::now();
        if step.get() > 0 {
            eprintln!(
                "  step {}: {:.2?}",
                step.get(),
                now.duration_since(last.get())
            );
        }
        step.set(step.get() + 1);
        last.set(now);
        false
    };
    let began = Instant::now();
    let outcome = auditor::audit(
        &auditor::AuditInput::new("repository", &reports, &expected, &[], &config)
            .with_budget(auditor::Budget::Check(&clock)),
    );
    eprintln!("  step 9 and 10: {:.2?}", last.get().elapsed());
    println!(
        "audit of {n} findings: {:.2?}, {} verified, {} removed, verdict {}",
        began.elapsed(),
        outcome.findings.len(),
        outcome.removed.len(),
        outcome.verdict
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n = |s: &str| s.parse::<usize>().unwrap_or_else(|_| usage());
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["cpf", count, dir] => {
            if let Err(e) = write_cpf(n(count), dir) {
                eprintln!("audit_scale: cannot write {dir}: {e}");
                std::process::exit(2);
            }
        }
        ["run", count] => run(n(count)),
        _ => usage(),
    }
}

fn usage() -> ! {
    eprintln!("usage: audit_scale cpf N DIR | audit_scale run N");
    std::process::exit(2)
}
