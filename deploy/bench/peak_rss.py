#!/usr/bin/env python3
"""Peak resident memory of every process of one command, by actor.

    python3 deploy/bench/peak_rss.py -- retake review TREE --no-exec --paths '**'

Runs the command, polls /proc every 20 ms for its descendants and keeps each one's VmHWM (the
kernel's own high-water mark, so a peak between two polls is not missed; only a process that
lives less than one poll is). Prints one line per process: its name (`--name` of an actor, else
the program), its peak RSS in MiB, and the command's wall time. Linux only.
"""

import os
import subprocess
import sys
import time


def children_of(pid):
    """Direct children of pid, from /proc/<pid>/task/*/children."""
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out.extend(int(c) for c in f.read().split())
    except OSError:
        pass
    return out


def descendants(pid):
    seen, todo = [], [pid]
    while todo:
        p = todo.pop()
        seen.append(p)
        todo.extend(children_of(p))
    return seen


def label(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        return None
    argv = [a.decode(errors="replace") for a in argv if a]
    if "--name" in argv and argv.index("--name") + 1 < len(argv):
        return argv[argv.index("--name") + 1]
    return os.path.basename(argv[0]) if argv else None


def hwm_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def main():
    argv = sys.argv[1:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        print("usage: peak_rss.py -- COMMAND...", file=sys.stderr)
        sys.exit(2)
    started = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peaks, names = {}, {}
    while proc.poll() is None:
        for pid in descendants(proc.pid):
            kib = hwm_kib(pid)
            if kib is None:
                continue
            # A child read before its exec still shows the parent's command line: read again
            # until it names itself.
            if pid not in names or names[pid] in (None, os.path.basename(argv[0])):
                names[pid] = label(pid) or names.get(pid)
            peaks[pid] = max(peaks.get(pid, 0), kib)
        time.sleep(0.02)
    wall = time.monotonic() - started
    for pid, kib in sorted(peaks.items(), key=lambda kv: -kv[1]):
        print(f"{names.get(pid) or pid:28} {kib / 1024:8.1f} MiB")
    print(f"{'(wall)':28} {wall:8.2f} s   exit {proc.returncode}")


if __name__ == "__main__":
    main()
