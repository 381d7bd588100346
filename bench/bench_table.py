"""The five-card table of the standard rules (engine.judging.table): every one of the 2,598,960 hands asked
of the compiled rules (target < 20 s on two cores), then read back from the verified cache (load,
checksum, consistency, and 2,000+ hands asked of the rules again), then from the in-process memo;
and the proof that the rules' comparator is the table's order (engine.judging.proof).

The cache goes to a temporary directory ($POKER_CACHE_DIR), never to the user's.

Run: .venv/bin/python bench/bench_table.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from engine import Engine  # noqa: E402
from engine.judging import table as T  # noqa: E402
from engine.judging import tablecache as TC  # noqa: E402
from engine.judging.proof import prove  # noqa: E402


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def cpu_timed(fn):
    """Wall and CPU seconds (CPU: every thread of this process; other loads on the machine
    stretch the wall time, hardly the CPU time)."""
    c = time.process_time()
    out, wall = timed(fn)
    return out, wall, time.process_time() - c


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["POKER_CACHE_DIR"] = folder
        engine = Engine()
        cold, built, cpu = cpu_timed(lambda: T.five_card_table(engine))
        assert T.STATS["built"] == 1
        size = TC.cache_path(cold.rules_digest).stat().st_size
        warm, loaded = timed(lambda: T.five_card_table(Engine()))       # a new engine: no memo
        assert T.STATS["loaded"] == 1 and (warm.values == cold.values).all() and warm.classes == cold.classes
        _, memo = timed(lambda: T.five_card_table(engine))
        assert T.STATS["memo"] == 1
        proof, proving = timed(lambda: prove(engine.ruleset.clauses, cold.places))
        assert proof.holds, proof.why
    hands = len(cold.values)
    print(f"five-card table, standard rules, {hands:,} hands, {len(cold.classes):,} classes "
          f"({T._workers(hands)} workers, chunks of {T.CHUNK:,} hands)")
    print(f"  cold (every hand asked of the rules, cache written): {built:8.2f} s   (target < 20 s; "
          f"{cpu:.1f} s of CPU: {cpu / built:.2f} cores busy)")
    print(f"  warm (cache file of {size / 1e6:.1f} MB read and verified):  {loaded:8.2f} s   "
          f"{built / loaded:8.1f}x faster than cold")
    print(f"  memo (the same Engine again):                       {memo * 1e6:8.1f} us  "
          f"{built / memo:8.0f}x faster than cold")
    print(f"  the proof that compareHands orders hands by it (engine/judging/proof.py), {proof.patterns:,} patterns: "
          f"{proving:8.2f} s")


if __name__ == "__main__":
    main()
