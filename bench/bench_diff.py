"""`poker diff standard eventb` over all 2,598,960 hands, end to end (target <= 60 s).

Two runs of ``python -m engine diff standard eventb``, each a process of its own, sharing a fresh
temporary cache directory ($POKER_CACHE_DIR, never the user's): the first with the cache empty
(both rule sets' five-card tables built from the rules, then written), the second with them
cached (read back and verified).  The two outputs must be the same.

Run: .venv/bin/python bench/bench_diff.py
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 60.0
COMMAND = [sys.executable, "-m", "engine", "diff", "standard", "eventb"]


def cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_run(cache: str) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall and CPU seconds of one run (CPU: the child's, every thread; other loads on the
    machine stretch the wall time, hardly the CPU time)."""
    env = dict(os.environ, POKER_CACHE_DIR=cache)
    c, t = cpu(), time.perf_counter()
    done = subprocess.run(COMMAND, capture_output=True, text=True, cwd=ROOT, env=env)
    return time.perf_counter() - t, cpu() - c, done


def report(what: str, elapsed: float, used: float, done: subprocess.CompletedProcess) -> None:
    mark = "met" if elapsed <= TARGET else "NOT met"
    print(f"poker diff standard eventb, {what}: {elapsed:6.1f} s   (target <= {TARGET:.0f} s: {mark}; "
          f"{used:.1f} s of CPU: {used / elapsed:.2f} cores busy)"
          + ("" if done.returncode == 0 else f"   FAILED: {done.stderr.strip()}"))


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="poker-bench-diff-") as cache:
        cold, cold_cpu, first = timed_run(cache)
        report("cache empty (both tables built)", cold, cold_cpu, first)
        warm, warm_cpu, second = timed_run(cache)
        report("tables cached (read, verified)  ", warm, warm_cpu, second)
    if first.stdout != second.stdout:
        print("the two runs' outputs differ!")
    print(f"cached run {cold / warm:.1f}x faster than the cold one\n")
    print(first.stdout)


if __name__ == "__main__":
    main()
