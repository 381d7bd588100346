"""Issue 4's target: `poker check` over all 2,598,960 hands in <= 300 s (goal 60 s).

Timed twice: with an empty cache (every class asked of the rules) and with the table cached.

Run: .venv/bin/python bench/bench_check.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, POKER_CACHE_DIR=tmp)
        for label in ("cold (empty cache)", "warm (table cached)"):
            t = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "engine", "check"], env=env,
                                  capture_output=True, text=True)
            elapsed = time.perf_counter() - t
            verdict = "all obligations hold" if done.returncode == 0 else "FAILED"
            print(f"poker check, {label:<20} {elapsed:6.1f} s   {verdict}   (target <= 300 s, goal 60 s)")
    print(done.stdout.strip().splitlines()[0])


if __name__ == "__main__":
    main()
