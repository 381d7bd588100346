"""Small batches asked of the rules: the in-process evaluator against DuckDB, and the one the
engine chooses (engine.judging.policy.in_process, by the sets of cards a batch asserts).

The in-process evaluator's time grows with the sets (a heads-up hold'em showdown on the river
asserts 45: two hands, the board, 42 fives), DuckDB's is mostly a fixed cost a run (its plans,
about a millisecond a statement).  Each line: the CPU of one batch asked of each (median of 3,
warm), and which the engine takes; the choice is right where its time is the lesser one (or
close: the threshold is one number for every rule set).

Run: .venv/bin/python bench/bench_small.py
"""

from __future__ import annotations

import random
import statistics
import time

from engine import Engine
from engine.evaluators import verdicts
from engine.judging import policy

DECK = [v + s for v in "23456789TJQKA" for s in "CDHS"]


def cpu_ms(run) -> float:
    times = []
    for _ in range(3):
        t = time.process_time()
        run()
        times.append(time.process_time() - t)
    return statistics.median(times) * 1000


def main() -> None:
    engine = Engine()
    rng = random.Random(1)
    local, duckdb = engine.evaluator(1), engine.evaluator(10 ** 6)

    def fight() -> list[tuple[int, ...]]:
        c = rng.sample(DECK, 10)
        return [tuple(engine.cards(" ".join(c[:5]))), tuple(engine.cards(" ".join(c[5:])))]

    def showdown(players: int):
        c = rng.sample(DECK, 2 * players + 5)
        return engine.deal([" ".join(c[2 * i:2 * i + 2]) for i in range(players)], " ".join(c[-5:]), "holdem")

    verdicts(local, [fight()])
    verdicts(duckdb, [fight()])
    print(f"{'batch':<34} {'in-process':>11} {'DuckDB':>9}  chosen (IN_PROCESS_SETS = {policy.IN_PROCESS_SETS})")
    for label, batch in [(f"{n} fights", [fight() for _ in range(n)]) for n in (10, 50, 100, 150, 200)] + \
                        [(f"{n} heads-up showdowns", [showdown(2) for _ in range(n)]) for n in (1, 2, 4, 5, 10, 30)] + \
                        [(f"{n} six-handed showdowns", [showdown(6) for _ in range(n)]) for n in (1, 2)]:
        mine = cpu_ms(lambda: verdicts(local, batch))
        theirs = cpu_ms(lambda: verdicts(duckdb, batch))
        chosen = "in-process" if engine.evaluator(batch) is local else "DuckDB"
        best = "in-process" if mine <= theirs else "DuckDB"
        print(f"{label:<34} {mine:9.0f} ms {theirs:6.0f} ms  {chosen}{'' if chosen == best else ' (the other is faster)'}")


if __name__ == "__main__":
    main()
