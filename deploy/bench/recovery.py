#!/usr/bin/env python3
"""Recovery speed of an Inspector, measured from outside (BENCHMARKS.md, "Recovery").

Runs `retake review` on a copy of deploy/scenarios/fixture with the DEFAULT supervision settings.
The test Inspector's test command is a script that sleeps the first time (so the Inspector is
busy working) and returns at once afterwards (so the replacement's own work costs ~nothing and
the numbers are the recovery's). While the first run sleeps, the script finds the Inspector
process (`--name inspector-test`, carrying this run's tag in its environment) and either
kill -9s it (`kill`) or SIGSTOPs it (`hang`: alive, no work, no heartbeat). It then times:

  detect+respawn  fault -> the replacement process `inspector-test-r1` exists
  report          fault -> the replacement's report is journaled (reports/inspector-test.cpf mtime)
  verdict         fault -> the verdict is journaled (verdict.cpf mtime)

and checks the outcome: a verdict, restarts["inspector-test"] == 1, no PARTIAL note.
Nothing is added to the product for this: only the review's JSON, its journal and /proc.

usage: deploy/bench/recovery.py [--retake target/release/retake] [--runs 5] [--mode kill|hang|both]
"""

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "deploy", "scenarios", "fixture")
TAG_ENV = "RETAKE_BENCH_TAG"


def tagged_actor(tag, name):
    """The pid of the live process carrying `tag` whose argv has `--name NAME`, or None."""
    want = f"{TAG_ENV}={tag}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if want not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        for i, arg in enumerate(argv[:-1]):
            if arg == b"--name" and argv[i + 1] == name.encode():
                return int(entry)
    return None


def wait_for(predicate, timeout, step=0.002):
    until = time.time() + timeout
    while time.time() < until:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return None


def one_run(retake, mode, tmp):
    repo = os.path.join(tmp, "tally")
    shutil.copytree(FIXTURE, repo, ignore=shutil.ignore_patterns("target", ".retake"))
    marker = os.path.join(tmp, "first-run-started")
    script = os.path.join(tmp, "slow-once.sh")
    with open(script, "w") as f:
        f.write(f'#!/bin/sh\n[ -e "{marker}" ] && exit 0\n: > "{marker}"\nexec sleep 60\n')
    os.chmod(script, 0o755)
    with open(os.path.join(repo, "retake.toml"), "w") as f:
        f.write(f'[test]\ncommand = ["{script}"]\n')
    tag = f"{os.getpid()}-{time.time_ns()}"
    env = dict(os.environ, **{TAG_ENV: tag, "NO_COLOR": "1"})
    env = {k: v for k, v in env.items() if not k.startswith("RETAKE__")}  # the defaults
    started = time.time()
    review = subprocess.Popen(
        [retake, "review", repo, "--format", "json"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        if not wait_for(lambda: os.path.exists(marker), 30):
            raise RuntimeError("the test Inspector never started its test command")
        time.sleep(0.2)  # well inside its work
        pid = tagged_actor(tag, "inspector-test")
        if pid is None:
            raise RuntimeError("no inspector-test process carries the tag")
        fault_at = time.time()
        os.kill(pid, signal.SIGKILL if mode == "kill" else signal.SIGSTOP)
        respawned = wait_for(lambda: tagged_actor(tag, "inspector-test-r1") and time.time(), 60)
        out, err = review.communicate(timeout=120)
        ended = time.time()
    finally:
        if review.poll() is None:
            review.kill()
            review.wait()
    result = json.loads(out)
    run_dir = os.path.join(repo, ".retake", "runs", result["run_id"])
    report_at = os.stat(os.path.join(run_dir, "reports", "inspector-test.cpf")).st_mtime_ns / 1e9
    verdict_at = os.stat(os.path.join(run_dir, "verdict.cpf")).st_mtime_ns / 1e9
    problems = []
    if result["restarts"].get("inspector-test") != 1:
        problems.append(f"restarts {result['restarts']}")
    if any(n.startswith("PARTIAL:") for n in result["notes"]):
        problems.append(f"notes {result['notes']}")
    if review.returncode not in (0, 1, 3, 4):
        problems.append(f"exit {review.returncode}: {err.decode()[-300:]}")
    return {
        "detect+respawn": (respawned - fault_at) if respawned else float("nan"),
        "report": report_at - fault_at,
        "verdict": verdict_at - fault_at,
        "review exit": ended - fault_at,
        "whole review": ended - started,
        "verdict_text": result["verdict"],
        "problems": problems,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.path.join(ROOT, "target", "release", "retake")
    if not os.path.exists(default):
        default = os.path.join(ROOT, "target", "debug", "retake")
    ap.add_argument("--retake", default=default)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mode", choices=["kill", "hang", "both"], default="both")
    args = ap.parse_args()
    modes = ["kill", "hang"] if args.mode == "both" else [args.mode]
    failed = False
    print(f"retake: {args.retake}; {args.runs} run(s) per mode; default supervision settings")
    for mode in modes:
        rows = []
        for i in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="retake-bench-") as tmp:
                row = one_run(args.retake, mode, tmp)
            rows.append(row)
            status = "ok" if not row["problems"] else "PROBLEM: " + "; ".join(row["problems"])
            failed |= bool(row["problems"])
            print(f"  {mode} #{i + 1}: detect+respawn {row['detect+respawn'] * 1000:.0f} ms, "
                  f"report {row['report'] * 1000:.0f} ms, verdict {row['verdict'] * 1000:.0f} ms "
                  f"({row['verdict_text']}) {status}")
        print(f"{mode} (median of {len(rows)}, min-max):")
        for key in ["detect+respawn", "report", "verdict", "review exit"]:
            xs = [r[key] * 1000 for r in rows]
            print(f"  {key:15} {statistics.median(xs):7.0f} ms   ({min(xs):.0f}-{max(xs):.0f})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
