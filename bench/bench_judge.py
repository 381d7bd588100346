"""Issue 3's target: batch judging at >= 3,000 fights/s end to end for a 20,000-fight file.

End to end = a `poker judge` process: start, read the YAML, judge, write the results.  Timed with
the class table cold (built for these rules, into an empty cache) and warm (read from the cache),
and against treys judging the same fights in this process.

Run: .venv/bin/python bench/bench_judge.py [N]
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import random_hands, treys_judge  # noqa: E402

from engine import Engine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], env: dict) -> float:
    t = time.perf_counter()
    subprocess.run(args, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    engine = Engine()
    rng = random.Random(54)
    fights = [[engine.notation.format(h) for h in random_hands(rng)] for _ in range(n)]
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "fights.yaml", Path(tmp) / "results.yaml"
        src.write_text("fights:\n" + "".join(f"  - hands: ['{a}', '{b}']\n" for a, b in fights))
        env = dict(os.environ, POKER_CACHE_DIR=str(Path(tmp) / "cache"))
        poker = [sys.executable, "-m", "engine", "judge", str(src), "-o", str(out)]
        cold = run(poker, env)
        warm = min(run(poker, env) for _ in range(3))
        t = time.perf_counter()
        treys_judge(fights)
        peer = time.perf_counter() - t
    print(f"{n:,} fights, `poker judge` end to end:")
    print(f"  class table cold (built, 2 cores): {cold:6.2f} s  {n / cold:8,.0f} fights/s")
    print(f"  class table warm (cached):         {warm:6.2f} s  {n / warm:8,.0f} fights/s   (target >= 3,000)")
    print(f"  treys in-process, judging only:    {peer:6.2f} s  {n / peer:8,.0f} fights/s")
    print(f"  ratio warm end-to-end / treys:     {warm / peer:6.1f}x   (goal within 10x)")


if __name__ == "__main__":
    main()
