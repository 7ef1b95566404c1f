//! The file pass: every file of the scope handed to the rules whose pre-filter wants it, the
//! files spread over worker threads.
//!
//! syn's trees are neither `Send` nor `Sync`, so a worker builds its own [`SourceFile`] for
//! each file it takes, the file's rules share its one parse, and the file — tree included — is
//! dropped before the worker takes the next: memory is bounded by the files in flight, not by
//! the scope. What rules produce (hits, notes, claims, kept facts) is plain data; it is merged
//! back in file order, so the result does not depend on the number of workers.

use super::{Context, Rule, Sink, SourceFile, TreeUse};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Stack of each worker: syn recurses deeply on generated or heavily nested code, and a
/// review must not overflow where the 2 MiB default would (as the actor's review thread).
const WORKER_STACK_BYTES: usize = 256 * 1024 * 1024;

/// Below this much text one thread does the pass: starting workers would cost more than it saves.
const PARALLEL_FROM_BYTES: usize = 256 * 1024;

/// The most workers one Inspector starts; six Inspectors run side by side on the machine.
const MAX_WORKERS: usize = 8;

/// What one (file, rule) pair produced, with the indexes to merge it back in order.
struct Produced {
    file: usize,
    rule: usize,
    sink: Sink,
}

/// Runs every rule's [`Rule::check_file`] over the files of `ctx` it wants and returns one
/// sink per rule (in `rules` order), its hits sorted by location and marked as having seen
/// the file pass (see [`Sink::kept`]).
pub(crate) fn run_file_rules(rules: &[Box<dyn Rule>], ctx: &Context) -> Vec<Sink> {
    let bytes: usize = ctx.files.iter().map(|f| f.text.len()).sum();
    run_with(workers(bytes), rules, ctx)
}

/// The file pass on `workers` threads (the calling one included).
fn run_with(workers: usize, rules: &[Box<dyn Rule>], ctx: &Context) -> Vec<Sink> {
    let files: Vec<(&str, &str)> = ctx
        .files
        .iter()
        .map(|f| (f.rel_path.as_str(), f.text.as_str()))
        .collect();
    let next = AtomicUsize::new(0);
    let mut produced: Vec<Produced> = if workers <= 1 {
        review_files(rules, &files, &next)
    } else {
        in_workers(workers, rules, &files, &next)
    };
    // (file, rule) pairs are unique, so this order is the single-threaded one.
    produced.sort_unstable_by_key(|p| (p.file, p.rule));
    let mut sinks: Vec<Sink> = rules.iter().map(|_| Sink::default()).collect();
    for p in produced {
        if let Some(sink) = sinks.get_mut(p.rule) {
            sink.append(p.sink);
        }
    }
    for sink in &mut sinks {
        sink.hits.sort_by(|a, b| a.location.cmp(&b.location));
        sink.file_pass_done();
    }
    sinks
}

/// How many threads the pass uses for `bytes` of text.
fn workers(bytes: usize) -> usize {
    if bytes < PARALLEL_FROM_BYTES {
        return 1;
    }
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_WORKERS)
}

/// The pass on `workers` scoped threads sharing one queue of file indexes. A worker that
/// cannot be started leaves its share to the others (the calling thread works too).
fn in_workers(
    workers: usize,
    rules: &[Box<dyn Rule>],
    files: &[(&str, &str)],
    next: &AtomicUsize,
) -> Vec<Produced> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..workers)
            .filter_map(|i| {
                std::thread::Builder::new()
                    .name(format!("file-pass-{i}"))
                    .stack_size(WORKER_STACK_BYTES)
                    .spawn_scoped(scope, || review_files(rules, files, next))
                    .ok()
            })
            .collect();
        let mut produced = review_files(rules, files, next);
        for handle in handles {
            match handle.join() {
                Ok(mut more) => produced.append(&mut more),
                // A rule panicked on a worker: the same failure as on one thread.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        produced
    })
}

/// Takes files off the shared queue until it is empty; each file is built, checked by every
/// rule that wants it, and dropped (with its syntax tree) before the next.
fn review_files(
    rules: &[Box<dyn Rule>],
    files: &[(&str, &str)],
    next: &AtomicUsize,
) -> Vec<Produced> {
    let mut produced = Vec::new();
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        let Some((path, text)) = files.get(index) else {
            return produced;
        };
        let file = SourceFile::new(*path, *text);
        let wanting: Vec<(usize, &dyn Rule)> = rules
            .iter()
            .enumerate()
            .filter(|(_, rule)| rule.wants(&file))
            .map(|(i, rule)| (i, rule.as_ref()))
            .collect();
        file.set_full_tree_wanted(wanting.iter().any(|(_, r)| r.tree_use() == TreeUse::Full));
        for (rule_index, rule) in wanting {
            let mut sink = Sink::default();
            rule.check_file(&file, &mut sink);
            if !sink.is_empty() {
                produced.push(Produced {
                    file: index,
                    rule: rule_index,
                    sink,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests;
