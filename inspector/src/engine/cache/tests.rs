use super::*;
use crate::engine::file_pass::run_file_rules;
use crate::engine::testing::write;
use crate::engine::{inspect, Context, Rule, RuleMeta, SourceFile};
use protocol::message::InspectOptions;
use protocol::{InspectorKind, Location, Scope, Severity};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

static META: RuleMeta = RuleMeta {
    id: "test/cache-probe",
    category: protocol::Category::Lint,
    severity: Severity::Low,
    languages: &[crate::engine::Language::Rust],
    dimensions: &[],
    explanation: "cache probe",
};

/// Hits every line saying `alpha`, notes and keeps (path, line count) per file, and counts
/// the files it was run on.
#[derive(Default, Clone)]
struct Probe {
    checked: Arc<AtomicUsize>,
}

impl Probe {
    fn checked(&self) -> usize {
        self.checked.load(Ordering::Relaxed)
    }
}

impl Rule for Probe {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        self.checked.fetch_add(1, Ordering::Relaxed);
        for (i, line) in file.lines().enumerate() {
            if line.contains("alpha") {
                let at = Location::at(&file.rel_path, i as u32 + 1);
                out.hit(Hit::new(at, "alpha", line.trim()).suggest("drop it"));
            }
        }
        out.note(format!("saw {}", file.rel_path));
        out.keep((file.rel_path.clone(), file.lines().count() as u32));
    }
}

/// (hits, notes, kept facts) of one run of `probe` over the files under `root`.
type Outcome = (Vec<Hit>, Vec<String>, Vec<(String, u32)>);

fn run(root: &Path, probe: &Probe, ids: &[&str], max_bytes: Option<usize>) -> Outcome {
    let mut ctx =
        Context::build(root, &Scope::repository(), &InspectOptions::default()).expect("context");
    let cache = ResultCache::open(root, "quality", ids).map(|mut c| {
        c.max_bytes = max_bytes.unwrap_or(c.max_bytes);
        c
    });
    let rules: Vec<Box<dyn Rule>> = vec![Box::new(probe.clone())];
    let mut sinks = run_file_rules(&rules, &mut ctx, cache);
    let mut sink = sinks.remove(0);
    let kept: Vec<(String, u32)> = sink.kept(&ctx, probe);
    (sink.hits, sink.notes, kept)
}

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "src/a.rs", "fn a() {}\n// alpha one\n");
    write(dir.path(), "src/b.rs", "fn b() {}\n");
    write(dir.path(), "src/c.rs", "// alpha\n// alpha\nfn c() {}\n");
    dir
}

const IDS: &[&str] = &["test/cache-probe"];

#[test]
fn a_second_pass_reuses_every_file_and_finds_the_same() {
    let dir = tree();
    let cold = Probe::default();
    let first = run(dir.path(), &cold, IDS, None);
    assert_eq!(cold.checked(), 3);
    assert!(dir.path().join(".retake/cache/quality.bin").is_file());
    let warm = Probe::default();
    let second = run(dir.path(), &warm, IDS, None);
    assert_eq!(warm.checked(), 0);
    assert_eq!(second, first);
    assert_eq!(first.0.len(), 3);
    assert_eq!(first.0[0].suggestion.as_deref(), Some("drop it"));
    assert_eq!(
        first.2,
        vec![
            ("src/a.rs".into(), 2),
            ("src/b.rs".into(), 1),
            ("src/c.rs".into(), 3)
        ]
    );
}

#[test]
fn only_changed_files_are_checked_again() {
    let dir = tree();
    run(dir.path(), &Probe::default(), IDS, None);
    write(dir.path(), "src/b.rs", "fn b() {}\n// alpha now\n");
    let probe = Probe::default();
    let (hits, _, kept) = run(dir.path(), &probe, IDS, None);
    assert_eq!(probe.checked(), 1);
    let lines: Vec<(&str, Option<u32>)> = hits
        .iter()
        .map(|h| (h.location.path.as_str(), h.location.line))
        .collect();
    assert_eq!(
        lines,
        vec![
            ("src/a.rs", Some(2)),
            ("src/b.rs", Some(2)),
            ("src/c.rs", Some(1)),
            ("src/c.rs", Some(2))
        ]
    );
    assert_eq!(kept[1], ("src/b.rs".into(), 2));
    // The changed entry was written back: a third pass checks nothing.
    let again = Probe::default();
    run(dir.path(), &again, IDS, None);
    assert_eq!(again.checked(), 0);
}

#[test]
fn another_rule_list_does_not_reuse_the_cache() {
    let dir = tree();
    run(dir.path(), &Probe::default(), IDS, None);
    let probe = Probe::default();
    run(
        dir.path(),
        &probe,
        &["test/cache-probe", "test/other"],
        None,
    );
    assert_eq!(probe.checked(), 3);
}

#[test]
fn corrupt_truncated_or_foreign_cache_files_are_ignored_and_replaced() {
    let dir = tree();
    let expected = run(dir.path(), &Probe::default(), IDS, None);
    let file = dir.path().join(".retake/cache/quality.bin");
    let good = std::fs::read(&file).expect("cache file");
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x40;
    let damaged: Vec<Vec<u8>> = vec![
        flipped,
        good[..good.len() / 2].to_vec(),
        good[..10].to_vec(),
        b"not a cache at all".to_vec(),
        Vec::new(),
    ];
    for bytes in damaged {
        std::fs::write(&file, &bytes).expect("damage");
        let probe = Probe::default();
        assert_eq!(run(dir.path(), &probe, IDS, None), expected);
        assert_eq!(probe.checked(), 3);
        assert_eq!(std::fs::read(&file).expect("rewritten"), good);
    }
}

#[test]
fn the_file_stays_under_its_bound() {
    let dir = tree();
    run(dir.path(), &Probe::default(), IDS, None);
    let file = dir.path().join(".retake/cache/quality.bin");
    let identity = identity(dir.path(), "quality", IDS).expect("identity");
    let all = parse(&std::fs::read(&file).expect("cache file"), identity).expect("entries");
    assert_eq!(all.len(), 3);
    // Room for the first file's entry only: the others are left out, not the bound exceeded.
    let (_, first) = &all["src/a.rs"];
    let bound = HEADER_BYTES + VARINT_BYTES + entry_bytes("src/a.rs", first);
    std::fs::remove_file(&file).expect("remove");
    run(dir.path(), &Probe::default(), IDS, Some(bound));
    let bytes = std::fs::read(&file).expect("cache file");
    assert!(bytes.len() <= bound, "{} > {bound}", bytes.len());
    let kept = parse(&bytes, identity).expect("entries");
    assert_eq!(kept.keys().collect::<Vec<_>>(), vec!["src/a.rs"]);
    let probe = Probe::default();
    run(dir.path(), &probe, IDS, None);
    assert_eq!(probe.checked(), 2);
}

#[test]
fn a_review_with_the_cache_reports_what_one_without_it_reports() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "src/lib.rs",
        "pub fn a() {\n    todo!()\n}\n\npub fn b() -> u8 {\n    unsafe { std::process::exit(1) }\n}\n",
    );
    write(
        dir.path(),
        "src/log.rs",
        "pub fn l() {\n    tracing::info!(\"x\");\n}\n",
    );
    write(
        dir.path(),
        "src/out.rs",
        "pub fn o() {\n    println!(\"y\");\n}\n",
    );
    let report = |cache: bool| {
        // Pedantic: `quality/logging-violation` below is off by default.
        let options = InspectOptions {
            no_exec: true,
            cache,
            profile: protocol::message::RuleProfile::Pedantic,
            ..InspectOptions::default()
        };
        let mut ctx = Context::build(dir.path(), &Scope::repository(), &options).expect("context");
        let mut reports = Vec::new();
        for kind in InspectorKind::ALL {
            let mut r = inspect(kind, &mut ctx, "inspector", "r1");
            r.findings.sort_by(|a, b| a.fingerprint.cmp(&b.fingerprint));
            reports.push((r.findings, r.notes, r.claims));
        }
        reports
    };
    let plain = report(false);
    assert!(!dir.path().join(".retake/cache").exists());
    let cold = report(true);
    let warm = report(true);
    assert_eq!(cold, plain);
    assert_eq!(warm, plain);
    let rules: Vec<&str> = plain
        .iter()
        .flat_map(|(f, _, _)| f.iter().map(|f| f.rule.as_str()))
        .collect();
    assert!(rules.contains(&"holistic/todo-macro"), "{rules:?}");
    // Found in `check_project` from facts kept in the file pass (stored in the cache).
    assert!(rules.contains(&"quality/logging-violation"), "{rules:?}");
    assert!(dir.path().join(".retake/cache/holistic.bin").is_file());
    // Inspectors without file rules store nothing.
    assert!(!dir.path().join(".retake/cache/rulebase.bin").exists());
}

#[test]
fn a_file_whose_role_changed_is_checked_again() {
    let dir = tree();
    run(dir.path(), &Probe::default(), IDS, None);
    // Same texts; `src/lib.rs` now declares `b` a `#[cfg(test)]` module, so the model makes
    // `src/b.rs` test support, and a rule that reads the role may answer otherwise.
    write(
        dir.path(),
        "src/lib.rs",
        "mod a;\n#[cfg(test)]\nmod b;\nmod c;\n",
    );
    let probe = Probe::default();
    run(dir.path(), &probe, IDS, None);
    assert_eq!(
        probe.checked(),
        2,
        "the new src/lib.rs and the re-roled src/b.rs"
    );
    assert_ne!(
        Digest::of("fn b() {}\n", protocol::project::FileRole::Library),
        Digest::of("fn b() {}\n", protocol::project::FileRole::TestSupport)
    );
}

#[test]
fn a_cache_file_made_with_another_key_is_foreign() {
    let dir = tree();
    run(dir.path(), &Probe::default(), IDS, None);
    let file = dir.path().join(".retake/cache/quality.bin");
    let ours = identity(dir.path(), "quality", IDS).expect("identity");
    let entries: Vec<Entry> = parse(&std::fs::read(&file).expect("cache file"), ours)
        .expect("entries")
        .into_iter()
        .map(|(path, (digest, results))| Entry {
            path,
            digest,
            results,
        })
        .collect();
    // What a repository could carry: the same entries under the identity of the same build
    // and rules, but without this machine's key.
    let mut h = DefaultHasher::new();
    (MAGIC, env!("CARGO_PKG_VERSION")).hash(&mut h);
    super::write(&file, h.finish(), &entries).expect("write");
    let probe = Probe::default();
    run(dir.path(), &probe, IDS, None);
    assert_eq!(probe.checked(), 3, "every file checked again");
}
