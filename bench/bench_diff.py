"""`poker diff standard eventb` over all 2,598,960 hands (target <= 60 s).

Run: .venv/bin/python bench/bench_diff.py
"""

from __future__ import annotations

import subprocess
import sys
import time


def main() -> None:
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "engine", "diff", "standard", "eventb"],
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    print(f"poker diff standard eventb: {elapsed:6.1f} s   (target <= 60 s)"
          + ("" if done.returncode == 0 else f"   FAILED: {done.stderr.strip()}"))
    print(done.stdout)


if __name__ == "__main__":
    main()
