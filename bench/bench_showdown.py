"""More than five cards, end to end, against treys run in the same process:

- `poker check --cards 7` over all 133,784,560 seven-card hands (target <= 300 s), with an empty
  table cache: every five-card hand asked of the rules;
- `poker equity "AS AD" "KS KH"`, exact over 1,712,304 boards (target <= 10 s), with an empty
  cache (the rules asked about every five-card hand first) and again with the table cached;
- hold'em showdowns judged by the rules' showdown (showdown.dl, compiled), per second.

Run: .venv/bin/python bench/bench_showdown.py
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time

from treys import Card, Evaluator

from engine import Engine
from engine.evaluators import World, verdicts


def poker(args: list[str], cache: str) -> tuple[float, subprocess.CompletedProcess]:
    env = dict(os.environ, POKER_CACHE_DIR=cache)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True, env=env)
    return time.perf_counter() - t, done


def treys_rate_seven(n: int = 20_000) -> float:
    """treys' seven-card evaluations per second."""
    rng = random.Random(7)
    ev = Evaluator()
    deck = [Card.new(v + s) for v in "23456789TJQKA" for s in "shdc"]
    hands = [rng.sample(deck, 7) for _ in range(n)]
    t = time.perf_counter()
    for h in hands:
        ev.evaluate(h[:2], h[2:])
    return n / (time.perf_counter() - t)


def main() -> None:
    rate = treys_rate_seven()
    print(f"treys: {rate:,.0f} seven-card evaluations/s in this process")
    with tempfile.TemporaryDirectory() as cold, tempfile.TemporaryDirectory() as cold7:
        for label, cache in (("empty cache", cold), ("table cached", cold)):
            elapsed, done = poker(["equity", "AS AD", "KS KH"], cache)
            ok = "ok" if done.returncode == 0 else f"FAILED: {done.stderr.strip()}"
            treys = 2 * 1_712_304 / rate
            print(f"poker equity AS AD vs KS KH, exact, {label:<13} {elapsed:6.1f} s   (target <= 10 s; "
                  f"treys, extrapolated: {treys:.0f} s, {treys / elapsed:.1f}x)   {ok}")
            if done.returncode == 0:
                print("  " + done.stdout.strip().splitlines()[1])
        elapsed, done = poker(["check", "--cards", "7"], cold7)
        ok = "all obligations hold" if done.returncode == 0 else f"FAILED {done.stdout[-500:]} {done.stderr.strip()}"
        treys = 133_784_560 / rate
        print(f"poker check --cards 7, empty cache     {elapsed:6.1f} s   (target <= 300 s; treys, "
              f"extrapolated: {treys:.0f} s, {treys / elapsed:.1f}x)   {ok}")

    engine = Engine()
    rng = random.Random(12)
    deals = []
    for _ in range(2_000):
        d = rng.sample(range(1, 53), 9)
        deals.append(World((tuple(d[:2]), tuple(d[2:4])), board=tuple(d[4:]), game=1))
    evaluator = engine.evaluator(len(deals))
    verdicts(evaluator, deals[:50])
    t = time.perf_counter()
    verdicts(evaluator, deals)
    elapsed = time.perf_counter() - t
    print(f"heads-up river showdowns asked of the rules (compiled): {len(deals) / elapsed:,.0f}/s; "
          f"treys: {rate / 2:,.0f}/s ({rate / 2 / (len(deals) / elapsed):.0f}x)")


if __name__ == "__main__":
    main()
