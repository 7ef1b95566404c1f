//! The file pass: every file of the scope handed to the rules whose pre-filter wants it, the
//! files spread over worker threads.
//!
//! syn's trees are neither `Send` nor `Sync`, so a worker builds its own [`SourceFile`] for
//! each file it takes, the file's rules share its one parse, and the file — tree included — is
//! dropped before the worker takes the next: memory is bounded by the files in flight, not by
//! the scope. What rules produce (hits, notes, claims, kept facts) is plain data; it is merged
//! back in file order, so the result does not depend on the number of workers.
//!
//! With the result cache on, a file whose text the cache has seen is not built at all: its
//! rules' stored results stand in for a new pass over it (`cache.rs`).
//!
//! Every other file is measured against the limits (`limits.rs`) before any rule sees it, on
//! the lexed lines its rules then share, and a file beyond them is refused: no rule runs on it,
//! nothing is cached for it, and the pass takes it out of the context's files (listed as
//! skipped, kept for `quality/unreviewed-file`) before any project rule runs. A cached file
//! needs no measure: the cache's key includes the build, and this build stores results only
//! for files it measured within the limits. (The walk used to measure every file on its one
//! thread, a second lexing pass that also ran on every warm re-review: BENCHMARKS.md.)

use super::cache::{encode_results, Digest, ResultCache};
use super::limits::{self, Exceeded};
use super::{Context, Progress, Rule, Sink, SourceFile, TreeUse};
use protocol::project::FileRole;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Stack of each worker: syn recurses deeply on generated or heavily nested code, and a
/// review must not overflow where the 2 MiB default would (as the actor's review thread).
/// `limits` keeps every file it is handed far inside this.
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

/// What a worker did: the (file, rule) results, for the files it reviewed rather than took
/// from the cache their encoded results to store, and the files it refused (beyond the limits).
#[derive(Default)]
struct Done {
    produced: Vec<Produced>,
    fresh: Vec<(usize, Digest, Vec<u8>)>,
    refused: Vec<(usize, Exceeded)>,
}

/// What a pass produced: one sink per rule, and the files it refused with the limit each
/// exceeded, in file order.
pub(crate) struct Passed {
    pub(crate) sinks: Vec<Sink>,
    pub(crate) refused: Vec<(String, Exceeded)>,
}

/// What every worker shares.
struct Pass<'a> {
    rules: &'a [Box<dyn Rule>],
    files: &'a [(&'a str, &'a str, FileRole)],
    next: AtomicUsize,
    cache: Option<&'a ResultCache>,
    progress: &'a Progress,
}

/// Runs every rule's [`Rule::check_file`] over the files of `ctx` it wants and returns one
/// sink per rule (in `rules` order), its hits sorted by location and marked as having seen
/// the file pass (see [`Sink::kept`]). With a `cache`, files it holds are not reviewed again,
/// and what was reviewed is stored in it for the next pass. Files beyond the limits are taken
/// out of `ctx` ([`Context::refuse`]); with no `rules` the pass only measures.
pub(crate) fn run_file_rules(
    rules: &[Box<dyn Rule>],
    ctx: &mut Context,
    cache: Option<ResultCache>,
) -> Vec<Sink> {
    let bytes: usize = ctx.files.iter().map(|f| f.text.len()).sum();
    let Passed { sinks, refused } = run_with(workers(bytes), rules, ctx, cache);
    ctx.refuse(refused);
    sinks
}

/// Measures every file of `ctx` against the limits and takes out those beyond them, running no
/// rule: for a review whose built-in rules do not run (an agent-only backend), so that its
/// files are listed as not reviewed exactly as the rules' file pass would list them.
pub(crate) fn refuse_unanalysable(ctx: &mut Context) {
    run_file_rules(&[], ctx, None);
}

/// The file pass on `workers` threads (the calling one included).
fn run_with(
    workers: usize,
    rules: &[Box<dyn Rule>],
    ctx: &Context,
    cache: Option<ResultCache>,
) -> Passed {
    let files: Vec<(&str, &str, FileRole)> = ctx
        .files
        .iter()
        .map(|f| (f.rel_path.as_str(), f.text.as_str(), f.role))
        .collect();
    let pass = Pass {
        rules,
        files: &files,
        next: AtomicUsize::new(0),
        cache: cache.as_ref(),
        progress: &ctx.progress,
    };
    let Done {
        mut produced,
        mut fresh,
        mut refused,
    } = in_workers(workers, &pass);
    refused.sort_unstable_by_key(|(file, _)| *file);
    let refused = refused
        .into_iter()
        .filter_map(|(file, exceeded)| Some((files.get(file)?.0.to_string(), exceeded)))
        .collect();
    if let Some(cache) = cache {
        fresh.sort_unstable_by_key(|(file, _, _)| *file);
        let fresh = fresh
            .into_iter()
            .filter_map(|(file, digest, results)| {
                let (path, _, _) = files.get(file)?;
                Some((path.to_string(), digest, results))
            })
            .collect();
        cache.store(&ctx.root, fresh);
    }
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
    Passed { sinks, refused }
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
/// cannot be started leaves its share to the others; the calling thread only works when none
/// could be started, since its stack is whatever its caller gave it (a test's 2 MiB) and the
/// workers' is sized for syn's recursion up to the nesting `limits` allows.
fn in_workers(workers: usize, pass: &Pass<'_>) -> Done {
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers.max(1))
            .filter_map(|i| {
                std::thread::Builder::new()
                    .name(format!("file-pass-{i}"))
                    .stack_size(WORKER_STACK_BYTES)
                    .spawn_scoped(scope, || review_files(pass))
                    .ok()
            })
            .collect();
        let mut done = if handles.is_empty() {
            review_files(pass)
        } else {
            Done::default()
        };
        for handle in handles {
            match handle.join() {
                Ok(mut more) => {
                    done.produced.append(&mut more.produced);
                    done.fresh.append(&mut more.fresh);
                    done.refused.append(&mut more.refused);
                }
                // A rule panicked on a worker: the same failure as on one thread.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        done
    })
}

/// Takes files off the shared queue until it is empty; each file is built, measured against
/// the limits, checked by every rule that wants it, and dropped (with its syntax tree) before
/// the next — or, when the cache holds its text, its stored results are taken instead.
fn review_files(pass: &Pass<'_>) -> Done {
    let rules = pass.rules;
    let mut done = Done::default();
    loop {
        let index = pass.next.fetch_add(1, Ordering::Relaxed);
        let Some(&(path, text, role)) = pass.files.get(index) else {
            return done;
        };
        pass.progress.advance();
        let held = pass.cache.filter(|c| c.holds(path));
        if let Some(stored) = held.and_then(|c| c.lookup(path, Digest::of(text, role))) {
            for (id, sink) in stored {
                if let Some(rule) = rules.iter().position(|r| r.meta().id == id) {
                    done.produced.push(Produced {
                        file: index,
                        rule,
                        sink,
                    });
                }
            }
            continue;
        }
        let first = done.produced.len();
        let file = SourceFile::with_role(path, text, role);
        // On the lines the rules will share: lexed here once, not a second time by them.
        let exceeded = file
            .language
            .and_then(|lang| limits::check_lines(&file.lexed(lang), lang));
        if let Some(exceeded) = exceeded {
            done.refused.push((index, exceeded));
            continue;
        }
        let wanting: Vec<(usize, &dyn Rule)> = rules
            .iter()
            .enumerate()
            .filter(|(_, rule)| super::sees(rule.as_ref(), &file))
            .map(|(i, rule)| (i, rule.as_ref()))
            .collect();
        // Files no rule wants are not worth an entry (nor hashing, in Inspectors without file rules).
        let store = pass.cache.is_some() && !wanting.is_empty();
        file.set_full_tree_wanted(wanting.iter().any(|(_, r)| r.tree_use() == TreeUse::Full));
        for (rule_index, rule) in wanting {
            let mut sink = Sink::default();
            rule.check_file(&file, &mut sink);
            if !sink.is_empty() {
                done.produced.push(Produced {
                    file: index,
                    rule: rule_index,
                    sink,
                });
            }
        }
        if store {
            let results: Vec<(&str, &Sink)> = done.produced[first..]
                .iter()
                .filter_map(|p| Some((rules.get(p.rule)?.meta().id, &p.sink)))
                .collect();
            if let Some(encoded) = encode_results(&results) {
                done.fresh.push((index, Digest::of(text, role), encoded));
            }
        }
        drop(file);
        release_spans();
    }
}

/// Forgets the source text proc-macro2 keeps for every file tokenised on this thread (a copy
/// of the text and a table of its line starts, kept for the thread's lifetime so spans can
/// report lines): once a file's tree is dropped nothing reads them, and on a large tree they
/// grew each parsing thread by the whole tree's text. Only the file pass calls this, between
/// files; no syntax tree or span outlives its file there (kept facts and hits are plain data).
fn release_spans() {
    proc_macro2::extra::invalidate_current_thread_spans();
}

#[cfg(test)]
mod tests;
