"""One fight and one hand, warm: Engine.beat and Engine.best_five, and loading the rules, against
pyDatalog (the reference) and treys in this process.

Engine.beat is measured twice: asked of the rules world by world (a fresh engine, before it turns
to its table), and read off the five-card table, as an engine does once it has been asked 200
fights and its table is at hand, the rules proven to allow it (target <= 0.1 ms);
Engine.best_five of seven cards likewise (target <= 0.2 ms).

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
from engine.evaluators import verdicts  # noqa: E402
from engine.judging.policy import ENGINE_AFTER as TABLE_AFTER  # noqa: E402
from engine.judging.table import five_card_table  # noqa: E402


def main() -> None:
    loads = []
    for _ in range(5):
        t = time.perf_counter()
        Engine()
        loads.append(time.perf_counter() - t)
    engine = Engine()
    rng = random.Random(1)
    fights = [[engine.notation.format(h) for h in random_hands(rng)] for _ in range(300)]
    engine.beat(*fights[0])                                   # warm
    it = iter(fights)
    fight_ms = median_ms(lambda: engine.beat(*next(it)), len(fights))
    it = iter(fights)
    rank_ms = median_ms(lambda: engine.get_rank(next(it)[0]), len(fights))
    parsed = [[engine.cards(h) for h in f] for f in fights[:60]]
    verdicts(engine.reference, parsed[:1])                    # build pyDatalog's program
    it = iter(parsed)
    reference_ms = median_ms(lambda: verdicts(engine.reference, [next(it)]), len(parsed))
    t = time.perf_counter()
    treys_judge(fights)
    treys_ms = (time.perf_counter() - t) * 1000 / len(fights)
    five_card_table(engine)                                   # the table at hand (cached after the first run)
    for f in fights[:TABLE_AFTER]:
        engine.beat(*f)                                       # the engine turns to its table
    assert engine.tabled() is not None and engine.tabled().fights and engine.tabled().showdowns
    it = iter(fights)
    table_ms = median_ms(lambda: engine.beat(*next(it)), len(fights))
    sevens = [(" ".join(f[0].split()[:2]), " ".join(f[1].split())) for f in fights]
    engine.best_five(*sevens[0][:1], board=sevens[0][1])
    it = iter(sevens)
    best_ms = median_ms(lambda: engine.best_five((s := next(it))[0], board=s[1]), len(sevens))
    print(f"load the rules (standard), median of 5:          {sorted(loads)[2] * 1000:8.1f} ms")
    print(f"one fight, Engine.beat ({engine.evaluator(1).name}), median of 300: "
          f"{fight_ms:6.2f} ms   (target <= 2 ms)")
    print(f"one hand, Engine.get_rank, median of 300:        {rank_ms:8.2f} ms")
    print(f"one fight, pyDatalog (reference), median of 60:  {reference_ms:8.2f} ms   "
          f"{reference_ms / fight_ms:5.1f}x the compiled program")
    print(f"treys, one fight (same process):                 {treys_ms:8.3f} ms   "
          f"Engine.beat is {fight_ms / treys_ms:,.0f}x treys")
    print(f"one fight, Engine.beat off the table, median:    {table_ms:8.3f} ms   (target <= 0.1 ms; "
          f"{table_ms / treys_ms:.1f}x treys)")
    print(f"best five of seven, Engine.best_five, median:    {best_ms:8.3f} ms   (target <= 0.2 ms)")


if __name__ == "__main__":
    main()
