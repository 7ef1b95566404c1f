#!/usr/bin/env python3
"""Re-runs retake on the labelled corpus and prints per-rule precision (issue #16, item 2).

    precision.py --retake BIN --mirrors /work/.mirror --work DIR [--profile NAME] [--only NAME ...]
                 [--json OUT] [--markdown OUT] [--history N]

Each repository of repos.tsv is cloned from `<mirrors>/<owner>+<name>/repo` into `<work>/<name>`
(reused when present), checked out at its labelled commit with every untracked file (`.retake/`, …)
removed, and reviewed as a new user would: `retake review DIR --no-exec --format json`. Every finding is matched to
`labels/<name>.tsv` by rule + path + fingerprint; precision = TP / (TP + FP + NOISE) over the
labelled findings. With `--history N`, the last N non-merge commits of each repository are
reviewed as changes (`--base C^`) instead, and the findings per commit and the share of commits
the gate stops are printed. Standard library only.
"""

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
LABELS = ("TP", "FP", "NOISE")
DEFAULT_BAR = 0.80  # a rule is on by default only at this precision or above
HIGH_BAR = 0.95  # it may raise High or Critical only at this precision or above
MEDIUM_OR_ABOVE = {"C", "H", "M"}
STOPPING_VERDICTS = {"NO-GO"}
STOPPING_DECISIONS = {"REQUEST_CHANGES", "REJECT"}


def die(message):
    print(f"precision.py: {message}", file=sys.stderr)
    sys.exit(2)


def read_tsv(path, header):
    """The rows of a tab-separated file whose first line must be exactly `header`."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    if not rows or rows[0] != header:
        die(f"{path}: the header must be {'<TAB>'.join(header)}")
    out = []
    for n, row in enumerate(rows[1:], start=2):
        if not row or not "".join(row).strip():
            continue
        if len(row) != len(header):
            die(f"{path}:{n}: {len(row)} columns, expected {len(header)}")
        out.append(dict(zip(header, row)))
    return out


def load_repos(bench, only):
    repos = read_tsv(os.path.join(bench, "repos.tsv"), ["name", "mirror", "commit", "language", "held_out"])
    names = {r["name"] for r in repos}
    unknown = [n for n in only if n not in names]
    if unknown:
        die(f"--only: no repository named {', '.join(unknown)} in repos.tsv")
    return [r for r in repos if not only or r["name"] in only]


def load_labels(bench, name):
    """`{(rule, path, fingerprint): row}` of labels/<name>.tsv (empty when there is none)."""
    path = os.path.join(bench, "labels", f"{name}.tsv")
    if not os.path.exists(path):
        return {}
    labels = {}
    for row in read_tsv(path, ["rule", "path", "line", "fingerprint", "label", "reason"]):
        if row["label"] not in LABELS:
            die(f"{path}: label {row['label']!r} is not one of {', '.join(LABELS)}")
        labels[(row["rule"], row["path"], row["fingerprint"])] = row
    return labels


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


def checkout(args, repo, commit):
    """`<work>/<name>` at `commit`, cloned from the mirror when absent, with no untracked file."""
    dest = os.path.join(args.work, repo["name"])
    if not os.path.isdir(os.path.join(dest, ".git")):
        mirror = os.path.join(args.mirrors, repo["mirror"].replace("/", "+"), "repo")
        if not os.path.isdir(mirror):
            die(f"{repo['name']}: no mirror at {mirror} (fetch github:{repo['mirror']} first)")
        subprocess.run(["git", "clone", "-q", mirror, dest], check=True)
    git(dest, "checkout", "-q", "--force", commit)
    # A review may write into the tree it reviews (`.retake/`, `steering/*.md` it codifies); left
    # there, the next review would see them as a change and review nothing else: every run starts
    # from the pristine commit.
    git(dest, "clean", "-q", "-ffd")
    shutil.rmtree(os.path.join(dest, ".retake"), ignore_errors=True)
    return dest


def review(args, dest, extra=()):
    """The JSON report of one review, or None (with the reason on stderr) when retake failed."""
    cmd = [args.retake, "review", dest, "--no-exec", "--format", "json", *extra]
    if args.profile:
        cmd += ["--profile", args.profile]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1, 3):
        last = (p.stderr.strip().splitlines() or ["no stderr"])[-1]
        print(f"  retake exited {p.returncode} on {dest}: {last}", file=sys.stderr)
        return None
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError as e:
        print(f"  retake printed no JSON on {dest}: {e}", file=sys.stderr)
        return None


def pct(num, den):
    return f"{100.0 * num / den:5.1f}%" if den else "    -"


# --- precision ---------------------------------------------------------------------------------


def measure(args, repos, bench):
    """Per repository: the findings matched to their labels."""
    os.makedirs(os.path.join(args.work, "out"), exist_ok=True)
    results = []
    for repo in repos:
        dest = checkout(args, repo, repo["commit"])
        started = time.time()
        report = review(args, dest)
        elapsed = time.time() - started
        if report is None:
            continue
        with open(os.path.join(args.work, "out", f"{repo['name']}.json"), "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
        labels = load_labels(bench, repo["name"])
        matched, seen = [], set()
        for f in report.get("findings", []):
            key = (f.get("rule"), f.get("path"), f.get("fingerprint"))
            row = labels.get(key)
            if row is not None:
                seen.add(key)
            matched.append((f, row["label"] if row else None))
        stale = [k for k in labels if k not in seen]
        results.append({"repo": repo, "findings": matched, "stale": stale, "seconds": elapsed,
                        "verdict": report.get("verdict"), "decision": report.get("decision"),
                        "scope": report.get("scope")})
        print(f"  {repo['name']:<12} {len(matched):5} findings, {len(seen):4} labelled, "
              f"{len(stale)} labels no longer found, scope {report.get('scope')}, {elapsed:.1f}s",
              file=sys.stderr)
    return results


def tally(results):
    """`{rule: Counter(TP, FP, NOISE, unlabelled, severities...)}` over the given results."""
    per_rule = defaultdict(Counter)
    for r in results:
        for f, label in r["findings"]:
            c = per_rule[f.get("rule")]
            c[label or "unlabelled"] += 1
            c["sev:" + str(f.get("severity"))] += 1
    return per_rule


def precision_of(c):
    judged = sum(c[x] for x in LABELS)
    return (c["TP"] / judged if judged else None), judged


def status(prec):
    if prec is None:
        return "unjudged"
    if prec >= HIGH_BAR:
        return "default, may raise H/C"
    if prec >= DEFAULT_BAR:
        return "default (M/L only)"
    return "pedantic"


def rule_rows(per_rule):
    rows = []
    for rule, c in sorted(per_rule.items(), key=lambda kv: (-precision_of(kv[1])[1], kv[0])):
        prec, judged = precision_of(c)
        sev = "".join(s for s in "CHML" if c["sev:" + s])
        rows.append({"rule": rule, "TP": c["TP"], "FP": c["FP"], "NOISE": c["NOISE"],
                     "unlabelled": c["unlabelled"], "judged": judged, "severities": sev,
                     "precision": prec, "status": status(prec)})
    return rows


def total_row(name, per_rule):
    c = Counter()
    for v in per_rule.values():
        c.update({k: v[k] for k in (*LABELS, "unlabelled")})
    prec, judged = precision_of(c)
    return {"rule": name, "TP": c["TP"], "FP": c["FP"], "NOISE": c["NOISE"],
            "unlabelled": c["unlabelled"], "judged": judged, "severities": "",
            "precision": prec, "status": ""}


def estimate(results):
    """The share of TP over *all* findings, each label weighted by how many findings it stands for.

    The sample of a repository is drawn in two strata (Critical/High, the rest; `sample.py`), so a
    label stands for `findings in its stratum / labels in its stratum` findings. Returns the
    estimate (None when nothing is labelled) and the number of findings in strata with no label,
    which the estimate cannot speak for.
    """
    weighted, unrepresented = Counter(), 0
    for r in results:
        strata = defaultdict(list)
        for f, label in r["findings"]:
            strata[str(f.get("severity")) in ("C", "H")].append(label)
        for labels in strata.values():
            judged = [x for x in labels if x is not None]
            if not judged:
                unrepresented += len(labels)
                continue
            for x in judged:
                weighted[x] += len(labels) / len(judged)
    total = sum(weighted[x] for x in LABELS)
    return (weighted["TP"] / total if total else None), unrepresented


def print_table(title, rows, totals):
    print(f"\n## {title}\n")
    print(f"{'rule':<44} {'TP':>4} {'FP':>4} {'NOISE':>5} {'unlab':>5} {'prec':>6}  sev   status")
    for r in rows + [None] + totals:
        if r is None:
            print("-" * 96)
            continue
        p = pct(r["TP"], r["judged"])
        print(f"{r['rule']:<44} {r['TP']:>4} {r['FP']:>4} {r['NOISE']:>5} {r['unlabelled']:>5} "
              f"{p:>6}  {r['severities']:<5} {r['status']}")


def markdown(out):
    """The per-rule table and the totals of `run_precision`'s figures, as PRECISION.md shows them."""
    lines = ["| rule | TP | FP | NOISE | unlabelled | precision | severities | status |",
             "|---|---:|---:|---:|---:|---:|---|---|"]
    for r in out["rules"]:
        p = pct(r["TP"], r["judged"]).strip().replace("%", " %") if r["judged"] else "–"
        lines.append(f"| {r['rule']} | {r['TP']} | {r['FP']} | {r['NOISE']} | {r['unlabelled']} | {p} "
                     f"| {' '.join(r['severities'])} | {r['status']} |")
    lines += ["", "| | TP | FP | NOISE | precision | estimated over all findings |",
              "|---|---:|---:|---:|---:|---:|"]
    for t in out["totals"]:
        p = pct(t["TP"], t["judged"]).strip().replace("%", " %")
        e = f"{100 * t['estimate']:.1f} %" if t.get("estimate") is not None else "–"
        lines.append(f"| {t['rule']} | {t['TP']} | {t['FP']} | {t['NOISE']} | **{p}** | {e} |")
    return "\n".join(lines) + "\n"


def run_precision(args, repos, bench):
    results = measure(args, repos, bench)
    tuning = [r for r in results if r["repo"]["held_out"] != "yes"]
    held = [r for r in results if r["repo"]["held_out"] == "yes"]
    all_rules, tuning_rules, held_rules = tally(results), tally(tuning), tally(held)
    totals = [total_row("TOTAL tuning repositories", tuning_rules),
              total_row("TOTAL held-out repositories", held_rules),
              total_row("TOTAL all", all_rules)]
    for row, part in zip(totals, (tuning, held, results)):
        row["estimate"], row["unrepresented"] = estimate(part)
    print_table("Per rule, all repositories", rule_rows(all_rules), totals)
    print_table("Per rule, held-out repositories only", rule_rows(held_rules), totals[1:2])
    print("\n## Per repository\n")
    print(f"{'repository':<12} {'held':<4} {'findings':>8} {'TP':>4} {'FP':>4} {'NOISE':>5} {'prec':>6}  "
          f"{'stale':>5}  verdict / decision")
    per_repo = []
    for r in results:
        c = Counter(label or "unlabelled" for _, label in r["findings"])
        prec, judged = precision_of(c)
        per_repo.append({"name": r["repo"]["name"], "held_out": r["repo"]["held_out"] == "yes",
                         "commit": r["repo"]["commit"], "findings": len(r["findings"]),
                         "TP": c["TP"], "FP": c["FP"], "NOISE": c["NOISE"], "precision": prec,
                         "stale_labels": [list(k) for k in r["stale"]], "seconds": round(r["seconds"], 2),
                         "verdict": r["verdict"], "decision": r["decision"], "scope": r["scope"]})
        print(f"{r['repo']['name']:<12} {r['repo']['held_out']:<4} {len(r['findings']):>8} {c['TP']:>4} "
              f"{c['FP']:>4} {c['NOISE']:>5} {pct(c['TP'], judged):>6}  {len(r['stale']):>5}  "
              f"{r['verdict']} / {r['decision']}")
    default_ok = [r["rule"] for r in rule_rows(all_rules) if r["precision"] is not None and r["precision"] >= DEFAULT_BAR]
    high_ok = [r["rule"] for r in rule_rows(all_rules) if r["precision"] is not None and r["precision"] >= HIGH_BAR]
    print("\nestimated share of TP over all findings (labels weighted by their sampling stratum):")
    for t in totals:
        e = f"{100 * t['estimate']:.1f}%" if t["estimate"] is not None else "-"
        print(f"  {t['rule']:<30} {e:>6}  ({t['unrepresented']} findings in strata without a label)")
    print(f"\nrules at >= {DEFAULT_BAR:.0%} (default-worthy): {', '.join(default_ok) or 'none'}")
    print(f"rules at >= {HIGH_BAR:.0%} (may raise High/Critical): {', '.join(high_ok) or 'none'}")
    return {"profile": args.profile, "rules": rule_rows(all_rules), "held_out_rules": rule_rows(held_rules),
            "totals": totals, "repositories": per_repo, "default_worthy": default_ok,
            "may_raise_high": high_ok}


# --- history -----------------------------------------------------------------------------------


def run_history(args, repos):
    """Each of the last N non-merge commits reviewed as a change against its parent."""
    print(f"\n## History: last {args.history} non-merge commits, each `--base C^ --no-exec`\n")
    print(f"{'repository':<12} {'commits':>7} {'find/commit':>11} {'M+/commit':>9} {'stopped':>8}  stopped commits")
    per_repo, all_commits = [], []
    for repo in repos:
        dest = checkout(args, repo, repo["commit"])
        commits = git(dest, "log", "--no-merges", "-n", str(args.history), "--format=%H").split()
        rows = []
        for c in commits:
            if not git(dest, "rev-list", "--parents", "-n", "1", c).split()[1:]:
                continue  # a root commit has no parent to compare with
            checkout(args, repo, c)
            report = review(args, dest, ["--base", c + "^"])
            if report is None:
                continue
            findings = report.get("findings", [])
            medium = sum(1 for f in findings if str(f.get("severity", ""))[:1].upper() in MEDIUM_OR_ABOVE)
            verdict, decision = report.get("verdict"), report.get("decision")
            stopped = verdict in STOPPING_VERDICTS or decision in STOPPING_DECISIONS
            rows.append({"commit": c, "findings": len(findings), "medium_or_above": medium,
                         "verdict": verdict, "decision": decision, "stopped": stopped,
                         "rules": sorted(Counter(f.get("rule") for f in findings).items())})
        checkout(args, repo, repo["commit"])
        all_commits += rows
        per_repo.append({"name": repo["name"], "held_out": repo["held_out"] == "yes", "commits": rows})
        print_history_line(repo["name"], rows)
    print("-" * 70)
    tuning = [c for r in per_repo if not r["held_out"] for c in r["commits"]]
    held = [c for r in per_repo if r["held_out"] for c in r["commits"]]
    print_history_line("tuning", tuning)
    print_history_line("held-out", held)
    print_history_line("all", all_commits)
    return {"history": args.history, "profile": args.profile, "repositories": per_repo,
            "totals": {k: history_figures(v) for k, v in (("tuning", tuning), ("held_out", held), ("all", all_commits))}}


def history_figures(rows):
    n = len(rows)
    return {"commits": n,
            "findings_per_commit": sum(r["findings"] for r in rows) / n if n else None,
            "medium_or_above_per_commit": sum(r["medium_or_above"] for r in rows) / n if n else None,
            "stopped_share": sum(r["stopped"] for r in rows) / n if n else None}


def print_history_line(name, rows):
    h = history_figures(rows)
    if not rows:
        print(f"{name:<12} {0:>7}")
        return
    stopped = [f"{r['commit'][:8]}({r['verdict']}/{r['decision']})" for r in rows if r["stopped"]]
    print(f"{name:<12} {h['commits']:>7} {h['findings_per_commit']:>11.2f} {h['medium_or_above_per_commit']:>9.2f} "
          f"{pct(sum(r['stopped'] for r in rows), h['commits']):>8}  {' '.join(stopped)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--retake", required=True, help="the retake binary under measurement")
    ap.add_argument("--mirrors", required=True, help="directory of <owner>+<name>/repo git mirrors")
    ap.add_argument("--work", required=True,
                    help="the harness's own checkouts (each is reset and cleaned before every review)")
    ap.add_argument("--profile", help="pass --profile NAME to retake")
    ap.add_argument("--only", nargs="+", default=[], metavar="NAME", help="only these repositories")
    ap.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    ap.add_argument("--markdown", metavar="OUT", help="also write the per-rule table as Markdown")
    ap.add_argument("--history", type=int, metavar="N", help="review the last N non-merge commits instead")
    ap.add_argument("--bench", default=HERE, help="the directory holding repos.tsv and labels/")
    args = ap.parse_args()
    if not os.access(args.retake, os.X_OK):
        die(f"--retake {args.retake}: not an executable file")
    args.retake = os.path.abspath(args.retake)
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    repos = load_repos(args.bench, args.only)
    if args.history is not None:
        if args.history < 1:
            die("--history N: N must be at least 1")
        out = run_history(args, repos)
    else:
        out = run_precision(args, repos, args.bench)
    if args.markdown and args.history is None:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(markdown(out))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
