#!/usr/bin/env bash
# A small change (BENCHMARKS.md "Small change"): `retake review --base HEAD~1 --no-exec` of a
# large repository whose HEAD commit changes one file, cold and warm, beside `--paths` on that
# file and a warm review of the whole repository.
#
#   deploy/bench/small_change.sh TREE [RUNS]
#
# TREE is a clone of a large repository outside this one, checked out at a commit that changes
# exactly one file, e.g.
#   git clone -q https://github.com/rust-lang/rust-analyzer /tmp/ra-small
#   git -C /tmp/ra-small checkout -q 4ad5c8409bff6b4dda3d7d9f8d02aadee535d2c3
# RUNS (default 10) timed runs per command. Needs hyperfine. RETAKE=path/to/retake skips the
# build (else `cargo build --release -p retake-lead`; CARGO_TARGET_DIR is honoured). Writes the
# hyperfine results to target/bench/small-change*.{json,md}.
#
# cold: no .retake/ at all (the result cache written afresh). warm: .retake/ emptied except its
# cache/ (the journal of the last run and verdicts.md removed), the cache of the previous run of
# the same command kept.
set -euo pipefail

tree=${1:?usage: deploy/bench/small_change.sh TREE [RUNS]}
runs=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tree=$(cd "$tree" && pwd)
out="$repo/target/bench"
mkdir -p "$out"

command -v hyperfine >/dev/null || { echo "small_change.sh: hyperfine is not installed" >&2; exit 2; }
case "$tree" in
    "$repo"|"$repo"/*) echo "small_change.sh: review a tree outside this repository" >&2; exit 2 ;;
esac
changed=$(git -C "$tree" diff --name-only HEAD~1 HEAD)
if [ "$(printf '%s\n' "$changed" | grep -c .)" != 1 ]; then
    echo "small_change.sh: HEAD of $tree changes $(printf '%s\n' "$changed" | grep -c .) files, not one" >&2
    exit 2
fi

if [ -z "${RETAKE:-}" ]; then
    (cd "$repo" && cargo build --release -p retake-lead)
    RETAKE="${CARGO_TARGET_DIR:-$repo/target}/release/retake"
fi
retake=$RETAKE

# The index refreshed, as a developer's tree has it after any `git status`: right after a
# checkout its entries may be racily clean, and then every `git diff` of every run re-reads and
# re-hashes those files (retake never writes the reviewed repository's index: GIT_OPTIONAL_LOCKS=0).
git -C "$tree" update-index -q --refresh || true

echo "== machine"
echo "cpus: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== tree $tree at $(git -C "$tree" rev-parse --short HEAD), changing $changed"
"$retake" --version || true

session="$retake review $tree --base HEAD~1 --no-exec --format json"
paths="$retake review $tree --paths $changed --no-exec --format json"
whole="$retake review $tree --paths '**' --no-exec --format json"
cold="rm -rf $tree/.retake"
keep_cache="find $tree/.retake -mindepth 1 -maxdepth 1 ! -name cache -exec rm -rf {} +"

# Each command's warm runs start from the cache its own previous run left.
echo "== cold ($runs runs each)"
hyperfine --warmup 1 --runs "$runs" --ignore-failure \
    --export-json "$out/small-change-cold.json" --export-markdown "$out/small-change-cold.md" \
    --prepare "$cold" -n session-cold "$session" \
    --prepare "$cold" -n paths-cold "$paths"
echo "== warm ($runs runs each)"
hyperfine --warmup 1 --runs "$runs" --ignore-failure \
    --export-json "$out/small-change-warm.json" --export-markdown "$out/small-change-warm.md" \
    --prepare "$keep_cache" -n session-warm "$session" \
    --prepare "$keep_cache" -n paths-warm "$paths"
echo "== the whole repository, cold and warm (3 runs each)"
rm -rf "$tree/.retake"
hyperfine --runs 3 --ignore-failure \
    --export-json "$out/small-change-whole.json" --export-markdown "$out/small-change-whole.md" \
    --prepare "$cold" -n whole-cold "$whole"
"$retake" review "$tree" --paths '**' --no-exec --format json >/dev/null || true
hyperfine --runs 3 --ignore-failure \
    --export-json "$out/small-change-whole-warm.json" \
    --prepare "$keep_cache" -n whole-warm "$whole"

echo "== git processes of one warm session review"
if command -v strace >/dev/null; then
    eval "$keep_cache"
    # -z: successful execs only (a failed one is PATH being searched).
    strace -f -qq -z -e trace=execve -o "$out/small-change.strace" $session >/dev/null || true
    grep -c 'execve("[^"]*/git"' "$out/small-change.strace" | sed 's/^/git processes: /'
fi
rm -rf "$tree/.retake"
