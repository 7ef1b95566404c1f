use super::*;
use crate::engine::{Hit, RuleMeta, TreeUse};
use protocol::{Location, Severity};
use std::path::Path;

static META: RuleMeta = RuleMeta {
    id: "test/probe",
    category: protocol::Category::Lint,
    severity: Severity::Low,
    languages: &[crate::engine::Language::Rust],
    dimensions: &[],
    explanation: "test probe",
};

/// Hits every line holding `marker`, keeps (path, address of the file's tree) per file.
struct Probe {
    marker: &'static str,
}

impl Rule for Probe {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        file.text.contains(self.marker)
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        for (i, line) in file.lines().enumerate() {
            if line.contains(self.marker) {
                let at = Location::at(&file.rel_path, i as u32 + 1);
                out.hit(Hit::new(at, self.marker, line.trim()));
            }
        }
        let tree = file
            .rust_ast()
            .and_then(Result::ok)
            .map_or(0, |t| t as *const syn::File as usize);
        out.keep((file.rel_path.clone(), tree));
        out.note(format!("{} saw {}", self.marker, file.rel_path));
    }
}

/// 40 files, each with the markers on some lines.
fn context() -> Context {
    let files = (0..40)
        .map(|i| {
            let mut text = String::new();
            for line in 0..30 {
                let marker = if (i + line) % 7 == 0 { "// alpha" } else { "" };
                let other = if (i * line) % 5 == 1 { "// beta" } else { "" };
                text.push_str(&format!("fn f{line}() {{ g({line}); }} {marker}{other}\n"));
            }
            SourceFile::new(format!("src/m{i:02}.rs"), text)
        })
        .collect();
    Context::from_files(Path::new("/r"), files, crate::spec::Specs::default())
}

fn rules() -> Vec<Box<dyn Rule>> {
    vec![
        Box::new(Probe { marker: "alpha" }),
        Box::new(Probe { marker: "beta" }),
    ]
}

type Seen = Vec<(String, usize)>;

/// Hits, notes and kept paths of each rule, as comparable values.
fn outcome(ctx: &Context, mut sinks: Vec<Sink>) -> Vec<(Vec<Hit>, Vec<String>, Vec<String>)> {
    sinks
        .iter_mut()
        .map(|sink| {
            let kept: Seen = sink.kept(ctx, &Probe { marker: "unused" });
            let paths = kept.into_iter().map(|(p, _)| p).collect();
            (sink.hits.clone(), sink.notes.clone(), paths)
        })
        .collect()
}

#[test]
fn the_result_does_not_depend_on_the_number_of_workers() {
    let ctx = context();
    let rules = rules();
    let one = outcome(&ctx, run_with(1, &rules, &ctx, None).sinks);
    let four = outcome(&ctx, run_with(4, &rules, &ctx, None).sinks);
    assert_eq!(one, four);
    let (alpha_hits, alpha_notes, alpha_kept) = &one[0];
    // Lines where (file + line) % 7 == 0: 40 files x 30 lines hold 171 of them.
    assert_eq!(alpha_hits.len(), 171);
    assert!(alpha_hits
        .windows(2)
        .all(|w| w[0].location <= w[1].location));
    assert_eq!(
        alpha_notes.first().map(String::as_str),
        Some("alpha saw src/m00.rs")
    );
    assert_eq!(alpha_kept.len(), 40);
    assert_eq!(alpha_kept.last().map(String::as_str), Some("src/m39.rs"));
}

#[test]
fn rules_of_a_file_share_one_tree_and_the_context_keeps_none() {
    let ctx = context();
    let rules = rules();
    let mut sinks = run_with(3, &rules, &ctx, None).sinks;
    let probe = Probe { marker: "unused" };
    let alpha: Seen = sinks[0].kept(&ctx, &probe);
    let beta: Seen = sinks[1].kept(&ctx, &probe);
    let shared: Vec<bool> = beta
        .iter()
        .filter_map(|(path, tree)| {
            let (_, other) = alpha.iter().find(|(p, _)| p == path)?;
            Some(*tree != 0 && tree == other)
        })
        .collect();
    // The 32 files holding both markers (i * line % 5 == 1 needs i % 5 != 0) were parsed
    // once, for both rules.
    assert_eq!(shared.len(), 32);
    assert!(shared.iter().all(|same| *same));
    assert!(ctx.files.iter().all(|f| !f.is_parsed()));
}

#[test]
fn kept_runs_the_file_pass_when_the_engine_did_not() {
    let ctx = context();
    let probe = Probe { marker: "alpha" };
    let mut sink = Sink::default();
    let kept: Seen = sink.kept(&ctx, &probe);
    assert_eq!(kept.len(), 40);
    assert_eq!(sink.hits.len(), 171);
    // Taken out: a second call finds nothing and does not run the pass again.
    let again: Seen = sink.kept(&ctx, &probe);
    assert!(again.is_empty());
    assert_eq!(sink.hits.len(), 171);
}

#[test]
fn small_scopes_stay_on_one_thread() {
    assert_eq!(workers(PARALLEL_FROM_BYTES - 1), 1);
    assert!(workers(PARALLEL_FROM_BYTES) >= 1);
}

/// Keeps whether the tree it got for each file had its first body kept as tokens.
struct ItemsProbe;

impl Rule for ItemsProbe {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn tree_use(&self) -> TreeUse {
        TreeUse::Items
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let kept_as_tokens = file.rust_items().and_then(Result::ok).is_some_and(|f| {
            f.items.iter().any(|i| {
                matches!(i, syn::Item::Fn(f) if matches!(
                    f.block.stmts.as_slice(),
                    [syn::Stmt::Expr(syn::Expr::Verbatim(_), None)]
                ))
            })
        });
        out.keep(kept_as_tokens);
    }
}

#[test]
fn the_item_level_tree_is_built_only_when_no_rule_of_the_file_reads_more() {
    let ctx = context();
    let alone: Vec<Box<dyn Rule>> = vec![Box::new(ItemsProbe)];
    let mut sinks = run_with(2, &alone, &ctx, None).sinks;
    let kept: Vec<bool> = sinks[0].kept(&ctx, &ItemsProbe);
    assert_eq!(kept.len(), 40);
    assert!(kept.iter().all(|k| *k));

    // With a rule that reads statements on the same files, the one full tree serves both.
    let both: Vec<Box<dyn Rule>> = vec![Box::new(ItemsProbe), Box::new(Probe { marker: "fn" })];
    let mut sinks = run_with(2, &both, &ctx, None).sinks;
    let kept: Vec<bool> = sinks[0].kept(&ctx, &ItemsProbe);
    assert_eq!(kept.len(), 40);
    assert!(kept.iter().all(|k| !*k));
}

#[test]
fn a_file_beyond_the_limits_is_refused_before_any_rule_and_taken_out_of_the_context() {
    let deep = format!("fn f() // alpha\n{}{}\n", "{".repeat(300), "}".repeat(300));
    let mut ctx = context();
    ctx.files.insert(0, SourceFile::new("src/deep.rs", deep));
    let rules = rules();
    let sinks = run_file_rules(&rules, &mut ctx, None);
    let alpha = &sinks[0];
    // The other 40 files' hits stand; the refused file, though it holds the marker, has none.
    assert_eq!(alpha.hits.len(), 171);
    assert!(alpha.hits.iter().all(|h| h.location.path != "src/deep.rs"));
    assert!(alpha.notes.iter().all(|n| !n.contains("deep")));
    assert_eq!(ctx.files.len(), 40);
    assert!(ctx.file("src/deep.rs").is_none());
    let skipped: Vec<(&str, &str)> = ctx
        .skipped
        .iter()
        .map(|s| (s.path.as_str(), s.reason.as_str()))
        .collect();
    assert_eq!(
        skipped,
        vec![(
            "src/deep.rs",
            "not analysable: brackets nested deeper than 256 at line 2"
        )]
    );
    let unanalysable: Vec<(&str, u32)> = ctx
        .unanalysable
        .iter()
        .map(|(path, e)| (path.as_str(), e.line))
        .collect();
    assert_eq!(unanalysable, vec![("src/deep.rs", 2)]);
    // A second kind over the same context finds nothing left to refuse, and lists it once.
    run_file_rules(&rules, &mut ctx, None);
    assert_eq!(ctx.skipped.len(), 1);
    assert_eq!(ctx.unanalysable.len(), 1);
}
