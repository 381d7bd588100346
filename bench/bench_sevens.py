"""Hands of more than five cards (engine.poker.sevens) against treys in this process: the best hand of
all 133,784,560 seven-card hands, and exact heads-up preflop equity (1,712,304 boards).

The five-card table is treys' own (7463 - rank), so both sides judge the same hands; what is
measured is the counting.  treys runs on a random sample and is extrapolated to the whole.

Run: .venv/bin/python bench/bench_sevens.py
"""

from __future__ import annotations

import math
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from engine.poker.sevens import best_histogram, equity, five_hands  # noqa: E402

SEVENS = math.comb(52, 7)
BOARDS = math.comb(48, 5)


def treys_card(p: int) -> int:
    from treys import Card
    return Card.new("23456789TJQKA"[p // 4] + "shdc"[p % 4])


def treys_table() -> np.ndarray:
    from treys import Evaluator
    five = Evaluator()._five
    cards = [treys_card(p) for p in range(52)]
    hands = five_hands(52).tolist()
    return np.fromiter((7463 - five([cards[p] for p in h]) for h in hands), np.int16, count=len(hands))


def main() -> None:
    from treys import Evaluator
    ev = Evaluator()
    t = time.perf_counter()
    table = treys_table()
    print(f"five-card table from treys (2,598,960 hands, setup): {time.perf_counter() - t:8.2f} s")

    t = time.perf_counter()
    hist = best_histogram(table, 52, 7)
    ours = time.perf_counter() - t
    assert hist.sum() == SEVENS
    rng = random.Random(7)
    sample = [[treys_card(p) for p in rng.sample(range(52), 7)] for _ in range(30_000)]
    t = time.perf_counter()
    for h in sample:
        ev.evaluate(h[:2], h[2:])
    treys_rate = len(sample) / (time.perf_counter() - t)
    print(f"best_histogram(52, 7), {SEVENS:,} hands:       {ours:8.2f} s   "
          f"{SEVENS / ours / 1e6:6.1f} M hands/s")
    print(f"treys, 30,000 random 7-card hands:               {treys_rate / 1e6:8.3f} M hands/s"
          f"   all hands ~{SEVENS / treys_rate:,.0f} s: {SEVENS / treys_rate / ours:,.0f}x slower")

    holes = [[48, 50], [44, 45]]                                  # As Ad vs Ks Kh
    equity(table, 52, holes)                                      # warm
    times = []
    for _ in range(5):
        t = time.perf_counter()
        e = equity(table, 52, holes)
        times.append(time.perf_counter() - t)
    ours = sorted(times)[2]
    rest = [c for c in range(52) if c not in (48, 50, 44, 45)]
    boards = [[treys_card(p) for p in rng.sample(rest, 5)] for _ in range(20_000)]
    a, k = [treys_card(p) for p in (48, 50)], [treys_card(p) for p in (44, 45)]
    t = time.perf_counter()
    for b in boards:
        ev.evaluate(a, b) < ev.evaluate(k, b)
    per_board = (time.perf_counter() - t) / len(boards)
    print(f"exact heads-up preflop equity, {BOARDS:,} boards, median of 5: {ours:6.3f} s   "
          f"AA {e.share[0]:.4%}  (target <= 3 s)")
    print(f"treys, 20,000 random boards (2 hands each):      {per_board * 1e6:8.1f} us/board"
          f"   all boards ~{per_board * BOARDS:,.0f} s: {per_board * BOARDS / ours:,.0f}x slower")

    t = time.perf_counter()
    e = equity(table, 52, [[48, 49, 44, 45], [40, 41, 36, 37]], game="omaha")
    print(f"exact heads-up Omaha preflop equity, {e.boards:,} boards: {time.perf_counter() - t:6.3f} s")


if __name__ == "__main__":
    main()
