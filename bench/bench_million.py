"""`poker judge` of N two-hand fights (default 1,000,000), JSON Lines in and out, end to end
(start-up included), against scripts of the hand-coded evaluators doing the same work in this
process, one after the other: read the JSON Lines with json, judge, write JSON Lines.  The peers:
treys (pure Python), eval7 (Cython) and phevaluator (C), each token converted to the peer's card
once, as a script would; a peer not installed is named and skipped (`pip install -e '.[bench]'`).

The rules' five-card table is made first (or found in the cache), as a user's second batch finds
it; `poker judge` reads fights off it because the rules are proven to allow it (engine/judging/proof.py),
in blocks (engine/judge/columnar.py).  Also the same file as YAML.  Peak memory is the judge process's
maximum resident set.  The outputs are checked: every judge result agrees with treys'.
Targets (issue 35): JSON Lines >= 2x the treys script's rate and >= the fastest peer's, < 500 MB.

Run: .venv/bin/python bench/bench_million.py [N]
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
from common import compiled_peers, measured, random_hands  # noqa: E402

from engine import Engine  # noqa: E402
from engine.judging.table import five_card_table  # noqa: E402

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def judge(src: Path, out: Path) -> tuple[float, float]:
    """Seconds and peak MB of one `poker judge` process."""
    secs, peak, status, _, err = measured([sys.executable, "-m", "engine", "judge", str(src), "-o", str(out)], ENV)
    assert status == 0, err
    return secs, peak


def script(src: Path, out: Path, card: Callable[[str], Any], score: Callable[[list], int]) -> float:
    """What a user would write with an evaluator: read JSON Lines, judge, write JSON Lines.
    ``score``: a hand's strength, higher is stronger."""
    memo: dict[str, Any] = {}

    def cards(text: str) -> list:
        out = []
        for t in text.split():
            c = memo.get(t)
            if c is None:
                c = memo[t] = card(t[0] + t[1].lower())
            out.append(c)
        return out
    t0 = time.perf_counter()
    with open(src, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as g:
        for line in f:
            fight = json.loads(line)
            a, b = fight["hands"]
            sa, sb = score(cards(a)), score(cards(b))
            r = 1 if sa > sb else 2 if sa < sb else 0
            g.write(json.dumps({"id": fight["id"], "result": r}) + "\n")
    return time.perf_counter() - t0


def peers() -> dict[str, tuple[Callable[[str], Any], Callable[[list], int]] | None]:
    """Each peer's card and score (higher is stronger), or None where it is not installed."""
    out: dict[str, Any] = {}
    from treys import Card, Evaluator
    ev = Evaluator()
    out["treys"] = (Card.new, lambda cs: -ev.evaluate([], cs))
    out.update(compiled_peers())
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    engine = Engine()
    t = time.perf_counter()
    five_card_table(engine)
    made = time.perf_counter() - t
    rng = random.Random(19)
    names = [engine.notation.format(c).split()[0] for c in ([x] for x in engine.deck)]
    times: dict[str, float | None] = {}
    with tempfile.TemporaryDirectory() as tmp:
        src, yml = Path(tmp) / "fights.jsonl", Path(tmp) / "fights.yaml"
        with open(src, "w", encoding="utf-8") as f, open(yml, "w", encoding="utf-8") as g:
            g.write("fights:\n")
            for i in range(n):
                a, b = (" ".join(names[c - 1] for c in h) for h in random_hands(rng))
                f.write(json.dumps({"id": i + 1, "hands": [a, b]}) + "\n")
                g.write(f"  - {{id: {i + 1}, hands: ['{a}', '{b}']}}\n")
        secs, peak = judge(src, Path(tmp) / "out.jsonl")
        ysecs, ypeak = judge(yml, Path(tmp) / "out.yaml")
        for name, peer in peers().items():
            times[name] = None if peer is None else script(src, Path(tmp) / f"{name}.jsonl", *peer)
        with open(Path(tmp) / "out.jsonl", encoding="utf-8") as f, open(Path(tmp) / "treys.jsonl", encoding="utf-8") as g:
            mine = [json.loads(line)["result"] for line in f]
            theirs = [json.loads(line)["result"] for line in g]
    agree = sum(a == b for a, b in zip(mine, theirs))
    print(f"{n:,} two-hand fights, `poker judge` end to end, start-up included (five-card table at hand: "
          f"{made:.1f} s to get it)")
    print(f"  JSON Lines   {secs:6.2f} s  {n / secs:9,.0f} fights/s  peak {peak:5.0f} MB  (< 500 MB); "
          f"{len(mine):,} results, {agree:,} agree with treys")
    print(f"  YAML         {ysecs:6.2f} s  {n / ysecs:9,.0f} fights/s  peak {ypeak:5.0f} MB")
    for name, peer in times.items():
        if peer is None:
            print(f"  {name:12} not installed: skipped (pip install -e '.[bench]')")
        else:
            print(f"  {name + ' script':18} {peer:6.2f} s  {n / peer:9,.0f} fights/s   judge's rate / its: "
                  f"{peer / secs:4.2f}" + ("  (target >= 2)" if name == "treys" else "  (target >= 1)"))


if __name__ == "__main__":
    main()
