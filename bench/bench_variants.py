"""Poker's other games (rules/variants/) against the standard rules on the same paths: `poker check
--rules NAME` cold (an empty table cache: the game's five-card table built from its rules first)
and warm, with peak memory, and `poker judge --rules NAME` of N two-hand fights of the game's deck
(JSON Lines, the table cached), with each game's rate as a ratio of the standard rules' rate
measured in the same run.

Target (issue 20): a variant is as fast as the standard rules on the same paths.  Badugi's hands of
four cards have no five-card table: its fights are asked of the rules world by world (the path of
`--no-table`), so its figure is set against that path's.

Run: .venv/bin/python bench/bench_variants.py [N [GAME ...]]   (default 300,000 fights, every game;
the standard rules are always measured, as the peer)
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import measured  # noqa: E402

from engine import Engine  # noqa: E402

GAMES = ["standard", "short-deck", "short-deck-triton", "deuce-to-seven", "ace-to-five", "eight-or-better", "joker",
         "badugi"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def poker(args: list[str], cache: str) -> tuple[float, float, int, str, str]:
    return measured([sys.executable, "-m", "engine", *args], dict(ENV, POKER_CACHE_DIR=cache))


def fights(name: str, n: int, path: Path) -> None:
    """n random fights of two disjoint hands of the game's deck (of its hand size), as JSON Lines."""
    engine = Engine(name)
    tokens = {c: engine.notation.token(c) for c in engine.deck}
    k = engine.hand_size
    rng = random.Random(20)
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            cards = rng.sample(engine.deck, 2 * k)
            f.write(json.dumps({"id": i + 1, "hands": [" ".join(tokens[c] for c in cards[:k]),
                                                      " ".join(tokens[c] for c in cards[k:])]}) + "\n")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300_000
    games = ["standard"] + [g for g in (sys.argv[2:] or GAMES) if g != "standard"]
    rates: dict[str, float] = {}
    print(f"{'game':<20}{'check cold':>12}{'check warm':>12}{'peak':>9}   {'judge ' + format(n, ','):>16}{'fights/s':>11}"
          f"{'vs standard':>13}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in games:
            cache = tempfile.mkdtemp(dir=tmp)
            cold, cpeak, status, _, err = poker(["--rules", name, "check"], cache)
            assert status == 0, f"{name}: {err}"
            warm, wpeak, status, _, err = poker(["--rules", name, "check"], cache)
            assert status == 0, f"{name}: {err}"
            src, out = Path(tmp) / f"{name}.jsonl", Path(tmp) / f"{name}.out.jsonl"
            fights(name, n, src)
            secs, jpeak, status, _, err = poker(["--rules", name, "judge", str(src), "-o", str(out)], cache)
            assert status == 0, f"{name}: {err}"
            assert sum(1 for _ in open(out, encoding="utf-8")) == n
            rates[name] = n / secs
            print(f"{name:<20}{cold:10.1f} s{warm:10.1f} s{max(cpeak, wpeak, jpeak):6.0f} MB   {secs:14.2f} s"
                  f"{rates[name]:11,.0f}{rates[name] / rates['standard']:12.2f}x")


if __name__ == "__main__":
    main()
