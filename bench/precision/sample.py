#!/usr/bin/env python3
"""Chooses the findings to label in one retake JSON report, by the corpus's fixed sampling rule.

    sample.py REPORT.json --repo CHECKOUT [--n 40] [--context 6] [--draft OUT.tsv]

The rule (PRECISION.md, "Sampling"): when the report has at most N findings, all of them; otherwise
the Critical and High findings first (sorted by rule, path, line; every k-th of them when there
are more than N/2), then every k-th of the rest, sorted the same way, until N are chosen. Prints
each chosen finding with the code around its line, to judge it; `--draft` writes the chosen
findings as a labels/<name>.tsv body with the label and reason left for the labeller.
Suppressed findings (`suppression` set) are not shown to a user as findings and are left out.
Standard library only.
"""

import argparse
import json
import os
import sys


def every_kth(items, count):
    """`count` items spread evenly over `items` (all of them when there are not more)."""
    if len(items) <= count:
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def choose(findings, n):
    key = lambda f: (f.get("rule") or "", f.get("path") or "", f.get("line") or 0)
    findings = sorted((f for f in findings if not f.get("suppression")), key=key)
    if len(findings) <= n:
        return findings
    high = [f for f in findings if f.get("severity") in ("C", "H")]
    rest = [f for f in findings if f.get("severity") not in ("C", "H")]
    chosen = every_kth(high, n // 2) if len(high) > n // 2 else high
    chosen += every_kth(rest, n - len(chosen))
    return sorted(chosen, key=key)


def context(repo, path, line, width):
    if not path or not line:
        return "    (no line)"
    try:
        with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        return f"    (cannot read: {e})"
    lo, hi = max(1, line - width), min(len(lines), line + width)
    return "\n".join(f"{'>' if i == line else ' '}{i:5} {lines[i - 1]}" for i in range(lo, hi + 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("--repo", required=True, help="the checkout the report is about")
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--context", type=int, default=6)
    ap.add_argument("--draft", metavar="OUT.tsv")
    args = ap.parse_args()
    with open(args.report, encoding="utf-8") as f:
        findings = json.load(f).get("findings", [])
    chosen = choose(findings, args.n)
    print(f"{len(chosen)} of {len(findings)} findings", file=sys.stderr)
    for i, f in enumerate(chosen, 1):
        print(f"### {i} {f.get('rule')} [{f.get('severity')}] {f.get('path')}:{f.get('line')} fp={f.get('fingerprint')}")
        print(f"    {f.get('description')}")
        print(context(args.repo, f.get("path"), f.get("line"), args.context))
        print()
    if args.draft:
        with open(args.draft, "w", encoding="utf-8") as out:
            out.write("rule\tpath\tline\tfingerprint\tlabel\treason\n")
            for f in chosen:
                out.write(f"{f.get('rule')}\t{f.get('path')}\t{f.get('line') or ''}\t{f.get('fingerprint')}\t\t\n")


if __name__ == "__main__":
    main()
