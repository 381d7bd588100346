"""`poker judge` of N hold'em river showdowns of 2 to 9 players (default 100,000), JSON Lines in
and out, end to end, against a treys script doing the same work in this process (read the JSON
Lines, find each player's best five of seven and the winners, write JSON Lines).

The rules' five-card table is made first (or found in the cache), as a user's second batch finds
it; `poker judge` reads showdowns off it because the rules are proven to allow it
(engine/judging/showdownproof.py, showdown_proof).  Peak memory is the judge process's maximum resident set.
Targets (issue 35): 20,000 showdowns >= 1x the treys script end to end, start-up included; 100,000 >= 1x
eval7's; < 500 MB.
Also eval7 and phevaluator scripts, where installed (`pip install -e '.[bench]'`).

Run: .venv/bin/python bench/bench_showdowns.py [N]
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import compiled_peers, measured, treys_cards  # noqa: E402

from engine import Engine  # noqa: E402
from engine.judging.table import five_card_table  # noqa: E402

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def treys_script(src: Path, out: Path) -> float:
    """What a user would write with treys: each player's best of seven, the winners."""
    from treys import Evaluator
    ev = Evaluator()
    cards = treys_cards()
    t0 = time.perf_counter()
    with open(src, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as g:
        for line in f:
            fight = json.loads(line)
            board = cards(fight["board"])
            scores = [ev.evaluate(board, cards(h)) for h in fight["hands"]]
            best = min(scores)
            winners = [i for i, s in enumerate(scores) if s == best]
            g.write(json.dumps({"id": fight["id"], "result": winners[0] + 1 if len(winners) == 1 else 0,
                                "winners": winners, "ranks": [ev.get_rank_class(s) for s in scores]}) + "\n")
    return time.perf_counter() - t0


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    engine = Engine()
    t = time.perf_counter()
    five_card_table(engine)
    made = time.perf_counter() - t
    rng = random.Random(20)
    names = [engine.notation.format([c]) for c in engine.deck]
    players = 0
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "showdowns.jsonl"
        with open(src, "w", encoding="utf-8") as f:
            for i in range(n):
                k = rng.randint(2, 9)
                players += k
                c = rng.sample(names, 2 * k + 5)
                f.write(json.dumps({"id": i + 1, "hands": [" ".join(c[2 * j:2 * j + 2]) for j in range(k)],
                                    "board": " ".join(c[2 * k:])}) + "\n")
        out = Path(tmp) / "out.jsonl"
        secs, peak, status, _, err = measured([sys.executable, "-m", "engine", "judge", str(src), "-o", str(out)], ENV)
        assert status == 0, err
        results = [json.loads(line) for line in open(out, encoding="utf-8")]
        peer = treys_script(src, Path(tmp) / "treys.jsonl")
        theirs = [json.loads(line) for line in open(Path(tmp) / "treys.jsonl", encoding="utf-8")]
        others = {name: None if score is None else peer_script(src, Path(tmp) / f"{name}.jsonl", *score)
                  for name, score in compiled_peers().items()}
    agree = sum(a["winners"] == b["winners"] for a, b in zip(results, theirs))
    print(f"{n:,} hold'em river showdowns of 2-9 players ({players / n:.1f} on average), `poker judge` end to end, "
          f"start-up included (five-card table at hand: {made:.1f} s to get it)")
    print(f"  poker judge  {secs:6.2f} s  {n / secs:8,.0f} showdowns/s  peak {peak:4.0f} MB  (< 500 MB)")
    print(f"  treys script {peer:6.2f} s  {n / peer:8,.0f} showdowns/s   judge's rate / its: {peer / secs:4.2f} "
          f"(target >= 1 at 20,000); winners agree on {agree:,} of {n:,}")
    for name, t in others.items():
        print(f"  {name} script" + (" not installed: skipped (pip install -e '.[bench]')" if t is None else
                                     f" {t:6.2f} s  {n / t:8,.0f} showdowns/s   judge's rate / its: {secs and t / secs:4.2f}"))


def peer_script(src: Path, out: Path, card: Callable[[str], Any], score: Callable[[list], int]) -> float:
    """The treys script's work with another evaluator: each player's best of seven, the winners."""
    memo: dict[str, Any] = {}

    def cards(text: str) -> list:
        return [memo[t] if t in memo else memo.setdefault(t, card(t[0] + t[1].lower())) for t in text.split()]
    t0 = time.perf_counter()
    with open(src, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as g:
        for line in f:
            fight = json.loads(line)
            board = cards(fight["board"])
            scores = [score(cards(h) + board) for h in fight["hands"]]
            best = max(scores)
            winners = [i for i, s in enumerate(scores) if s == best]
            g.write(json.dumps({"id": fight["id"], "result": winners[0] + 1 if len(winners) == 1 else 0,
                                "winners": winners}) + "\n")
    return time.perf_counter() - t0

if __name__ == "__main__":
    main()
