"""Range against range (`poker equity "QQ+,AKs" random`) against a treys script in this process.

Ours: engine.equity with the rules' own table (cached), exact.  The peer: a script a player would
write with treys, dealing a hand of each range (no card twice) and a board, and scoring both.
Before the flop the exact count is 46 billion deals, out of treys' reach: it is run on a sample
and extrapolated, and what it would give in our time is its standard error then.  On the turn
both count every deal, and must agree to the last digit.

Run: .venv/bin/python bench/bench_ranges.py
"""

from __future__ import annotations

import itertools
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from engine import Engine  # noqa: E402
from engine.equity import equity  # noqa: E402
from engine.poker.ranges import read_range  # noqa: E402


def treys_hands(engine: Engine, text: str, board: list[int]) -> list[list[int]]:
    from treys import Card
    token = engine.notation.token
    return [[Card.new(token(c)[0] + token(c)[1].lower()) for c in h]
            for h in read_range(engine, text).without(board).combos]


def treys_sampled(first: list[list[int]], second: list[list[int]], deck: list[int], deals: int,
                  seed: int) -> tuple[float, float]:
    """The first range's share over sampled deals, and its standard error."""
    from treys import Evaluator
    ev, rng = Evaluator(), random.Random(seed)
    total = square = 0.0
    done = 0
    while done < deals:
        a, b = rng.choice(first), rng.choice(second)
        if set(a) & set(b):
            continue
        rest = [c for c in deck if c not in a and c not in b]
        board = rng.sample(rest, 5)
        sa, sb = ev.evaluate(a, board), ev.evaluate(b, board)
        x = 1.0 if sa < sb else 0.5 if sa == sb else 0.0
        total, square, done = total + x, square + x * x, done + 1
    mean = total / deals
    return mean, math.sqrt(max(square / deals - mean * mean, 0.0) / (deals - 1))


def treys_exact(first: list[list[int]], second: list[list[int]], deck: list[int], board: list[int]) -> tuple[float, int]:
    """The first range's share over every deal on this board."""
    from treys import Evaluator
    ev = Evaluator()
    total, deals = 0.0, 0
    for a in first:
        for b in second:
            if set(a) & set(b):
                continue
            rest = [c for c in deck if c not in a and c not in b and c not in board]
            for more in itertools.combinations(rest, 5 - len(board)):
                full = board + list(more)
                sa, sb = ev.evaluate(a, full), ev.evaluate(b, full)
                total += 1.0 if sa < sb else 0.5 if sa == sb else 0.0
                deals += 1
    return total / deals, deals


def main() -> None:
    from treys import Card
    engine = Engine()
    equity(engine, ["AA", "KK"], board="2C 3D 4H 5S 7C")            # the table loaded and verified
    deck = [Card.new(r + s) for r in "23456789TJQKA" for s in "hdcs"]
    first, second = "QQ+,AKs", "random"

    t = time.perf_counter()
    ours = equity(engine, [first, second])
    secs = time.perf_counter() - t
    print(f'"{first}" against "{second}" before the flop, exact: {ours.matchups:,} matchups, {ours.boards:,} deals')
    print(f"  ours (exact)                 {secs:8.2f} s   equity {100 * ours.share[0]:.4f}%")
    a, b = treys_hands(engine, first, []), treys_hands(engine, second, [])
    deals = 40_000
    t = time.perf_counter()
    mean, err = treys_sampled(a, b, deck, deals, seed=1)
    peer = time.perf_counter() - t
    rate = deals / peer
    in_ours = rate * secs
    print(f"  treys, {deals:,} sampled deals  {peer:8.2f} s   equity {100 * mean:.2f}% ± {100 * err:.2f}%"
          f" ({rate:,.0f} deals/s)")
    print(f"  treys, every deal (projected) {ours.boards / rate / 86400:8.0f} days: "
          f"{ours.boards / rate / secs:,.0f}x ours")
    print(f"  treys in our {secs:.1f} s: {in_ours:,.0f} deals, ± {100 * err * math.sqrt(deals / in_ours):.2f}%;"
          f" ours is exact  (|ours - treys| = {100 * abs(ours.share[0] - mean):.2f}%)")

    board = "2C 7D 9H TS"
    shown = engine.cards(board)
    t = time.perf_counter()
    ours = equity(engine, [first, second], board=board)
    secs = time.perf_counter() - t
    a, b = treys_hands(engine, first, shown), treys_hands(engine, second, shown)
    t = time.perf_counter()
    theirs, deals = treys_exact(a, b, deck, [Card.new(t[0] + t[1].lower()) for t in board.split()])
    peer = time.perf_counter() - t
    assert deals == ours.boards and abs(theirs - ours.share[0]) < 1e-12, (theirs, ours.share)
    print(f'"{first}" against "{second}" on the turn {board}, exact: {ours.boards:,} deals, both agree')
    print(f"  ours   {secs:8.2f} s   treys {peer:8.2f} s   ratio {peer / secs:.0f}x")


if __name__ == "__main__":
    main()
