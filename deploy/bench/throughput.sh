#!/usr/bin/env bash
# Review throughput (BENCHMARKS.md "Review throughput"): `retake review --no-exec` against
# ast-grep and semgrep running the six simple rules of deploy/bench/{ast-grep,semgrep}/, and rg
# scanning the same tree for the same markers (the I/O floor), side by side in one run.
#
#   deploy/bench/throughput.sh TREE [RUNS]
#
# TREE is a large Rust repository outside this one, e.g.
#   git clone --depth 1 https://github.com/rust-lang/rust-analyzer /tmp/ra
# RUNS (default 5) is the number of timed runs per tool; SEMGREP_RUNS (default 1) for semgrep,
# which takes minutes; SEMGREP=0 skips it. Needs hyperfine; ast-grep and semgrep come with
# `pip install ast-grep-cli semgrep`. Writes the hyperfine results to target/bench/
# (throughput-*.json, throughput-*.md) and prints the per-actor peak memory of one review.
#
# retake is measured cold (no .retake/ at all: every file reviewed, the result cache written)
# and warm (the result cache of the previous run kept): on the unchanged tree, and with
# EDITED (default 15) of its Rust files changed before every run (a comment appended; the
# files are restored when the script ends). A small change — a session review of a one-file
# commit, `--base HEAD~1` — is measured by the sibling deploy/bench/small_change.sh.
set -euo pipefail

tree=${1:?usage: deploy/bench/throughput.sh TREE [RUNS]}
runs=${2:-5}
semgrep_runs=${SEMGREP_RUNS:-1}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tree=$(cd "$tree" && pwd)
out="$repo/target/bench"
mkdir -p "$out"

for tool in hyperfine ast-grep rg; do
    command -v "$tool" >/dev/null || { echo "throughput.sh: $tool is not installed" >&2; exit 2; }
done
case "$tree" in
    "$repo"|"$repo"/*) echo "throughput.sh: review a tree outside this repository" >&2; exit 2 ;;
esac

(cd "$repo" && cargo build --release -p retake-lead)
retake="${CARGO_TARGET_DIR:-$repo/target}/release/retake"

echo "== machine"
echo "cpus: $(nproc) ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== tree $tree"
if command -v tokei >/dev/null; then
    tokei --type Rust "$tree"
else
    find "$tree" -name '*.rs' -not -path '*/.git/*' -print0 | xargs -0 cat | wc -l |
        sed 's/^/Rust lines: /'
    find "$tree" -name '*.rs' -not -path '*/.git/*' | wc -l | sed 's/^/Rust files: /'
fi
echo "== versions"
"$retake" --version || true
ast-grep --version
rg --version | head -1
hyperfine --version

review="$retake review $tree --no-exec --paths '**' --format json"
# Keep the result cache, drop the rest of the last review's state (journal, verdicts.md).
keep_cache="find $tree/.retake -mindepth 1 -maxdepth 1 ! -name cache -exec rm -rf {} +"
sg="ast-grep scan -c $here/ast-grep/sgconfig.yml $tree"
floor="rg -c -e 'todo!' -e 'unimplemented!' -e '\.unwrap\(\)' -e 'let _ =' -e 'unsafe \{' -e 'static mut' $tree"

# A review leaves .retake/ in the tree (journal, verdicts.md, the result cache): the cold runs
# start from none, so every run does the same work.
echo "== retake (cold) vs ast-grep vs rg ($runs runs each, 1 warm-up)"
hyperfine --warmup 1 --runs "$runs" --ignore-failure \
    --prepare "rm -rf $tree/.retake" \
    --export-json "$out/throughput-tools.json" --export-markdown "$out/throughput-tools.md" \
    -n retake "$review" -n ast-grep "$sg" -n rg "$floor"

# Warm: a re-review with the cache of the previous one, the tree unchanged or with a few
# files edited (each run edits the same files afresh, so each reviews them again).
edited=${EDITED:-15}
saved=$(mktemp -d)
(cd "$tree" && find . -name '*.rs' -not -path './.git/*' | sort | awk -v n="$edited" \
    'NR % 97 == 1 && c < n { print; c++ }') >"$saved/list"
(cd "$tree" && tar cf "$saved/orig.tar" -T "$saved/list")
restore="tar xf $saved/orig.tar -C $tree"
trap '$restore; rm -rf "$saved"' EXIT
edit="$keep_cache; $restore; while read -r f; do echo \"// edited \$(date +%s%N)\" >>\"$tree/\$f\"; done <$saved/list"
echo "== retake warm: unchanged tree, $(wc -l <"$saved/list") Rust files edited ($runs runs each)"
rm -rf "$tree/.retake"
"$retake" review "$tree" --no-exec --paths '**' --format json >/dev/null || true
hyperfine --runs "$runs" --ignore-failure \
    --export-json "$out/throughput-warm.json" --export-markdown "$out/throughput-warm.md" \
    --prepare "$keep_cache" -n retake-warm "$review" \
    --prepare "$edit" -n retake-warm-edited "$review" \
    --prepare "true" -n ast-grep "$sg"
$restore

# --disable-version-check: without network access the check alone waits minutes.
if [ "${SEMGREP:-1}" != 0 ] && command -v semgrep >/dev/null; then
    echo "== semgrep ($semgrep_runs run)"
    hyperfine --runs "$semgrep_runs" --ignore-failure \
        --export-json "$out/throughput-semgrep.json" --export-markdown "$out/throughput-semgrep.md" \
        -n semgrep "semgrep scan --config $here/semgrep/rules.yml --metrics=off --disable-version-check --quiet --json $tree"
fi

echo "== peak RSS per actor (one review)"
rm -rf "$tree/.retake"
python3 "$here/peak_rss.py" -- "$retake" review "$tree" --no-exec --paths '**' --format json

echo "== findings of the simple rules (same tree)"
ast-grep scan -c "$here/ast-grep/sgconfig.yml" --json=stream "$tree" |
    python3 -c 'import sys, json, collections
print(dict(collections.Counter(json.loads(l)["ruleId"] for l in sys.stdin)))'

echo "== pipeline overhead: an empty scope, local vs inproc ($runs runs each)"
empty=$(mktemp -d)
trap '$restore; rm -rf "$saved" "$empty"' EXIT
hyperfine --warmup 1 --runs "$runs" --ignore-failure \
    --prepare "rm -rf $empty/.retake" \
    --export-json "$out/throughput-overhead.json" --export-markdown "$out/throughput-overhead.md" \
    -n local "$retake review $empty --no-exec --paths '**' --runtime local" \
    -n inproc "$retake review $empty --no-exec --paths '**' --runtime inproc"
rm -rf "$tree/.retake"
