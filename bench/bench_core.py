"""Issue 2's targets: loading the rules (<= 2 s) and one fight judged (<= 20 ms median).

Run: .venv/bin/python bench/bench_core.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import median_ms, random_hands, treys_judge  # noqa: E402

from engine import Engine  # noqa: E402


def main() -> None:
    loads = []
    for _ in range(5):
        t = time.perf_counter()
        Engine()
        loads.append(time.perf_counter() - t)
    engine = Engine()
    rng = random.Random(1)
    fights = [[engine.notation.format(h) for h in random_hands(rng)] for _ in range(200)]
    it = iter(fights)
    fight_ms = median_ms(lambda: engine.beat(*next(it)), len(fights))
    it = iter(fights)
    rank_ms = median_ms(lambda: engine.get_rank(next(it)[0]), len(fights))
    t = time.perf_counter()
    treys_judge(fights)
    treys_ms = (time.perf_counter() - t) * 1000 / len(fights)
    print(f"load the rules (standard), median of 5:   {sorted(loads)[2] * 1000:8.1f} ms   (target <= 2000 ms)")
    print(f"one fight, Engine.beat, median of 200:    {fight_ms:8.2f} ms   (target <= 20 ms)")
    print(f"one hand, Engine.get_rank, median of 200: {rank_ms:8.2f} ms")
    print(f"treys, one fight (same process):          {treys_ms:8.3f} ms   ratio {fight_ms / treys_ms:,.0f}x")


if __name__ == "__main__":
    main()
