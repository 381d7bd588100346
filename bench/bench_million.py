"""`poker judge` of N two-hand fights (default 1,000,000), JSON Lines in and out, end to end, against
a treys script doing the same work (read the JSON Lines, judge, write JSON Lines) in this process.

The rules' five-card table is made first (or found in the cache), as a user's second batch finds
it; `poker judge` reads fights off it because the rules are proven to allow it (engine/judging/proof.py).
Also the same file as YAML.  Peak memory is the judge process's maximum resident set.
Targets (issue 19): JSON Lines <= 20 s, >= half treys' rate, < 500 MB; YAML <= 45 s.

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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import measured, random_hands, treys_cards  # noqa: E402

from engine import Engine  # noqa: E402
from engine.judging.table import five_card_table  # noqa: E402

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def judge(src: Path, out: Path) -> tuple[float, float]:
    """Seconds and peak MB of one `poker judge` process."""
    secs, peak, status, _, err = measured([sys.executable, "-m", "engine", "judge", str(src), "-o", str(out)], ENV)
    assert status == 0, err
    return secs, peak


def treys_script(src: Path, out: Path) -> float:
    """What a user would write with treys: read JSON Lines, judge, write JSON Lines."""
    from treys import Evaluator
    ev = Evaluator()
    cards = treys_cards()
    t0 = time.perf_counter()
    with open(src, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as g:
        for line in f:
            fight = json.loads(line)
            a, b = fight["hands"]
            sa, sb = ev.evaluate([], cards(a)), ev.evaluate([], cards(b))
            r = 1 if sa < sb else 2 if sa > sb else 0
            g.write(json.dumps({"id": fight["id"], "result": r}) + "\n")
    return time.perf_counter() - t0


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    engine = Engine()
    t = time.perf_counter()
    five_card_table(engine)
    made = time.perf_counter() - t
    rng = random.Random(19)
    names = [engine.notation.format(c).split()[0] for c in ([x] for x in engine.deck)]
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
        peer = treys_script(src, Path(tmp) / "treys.jsonl")
        lines = sum(1 for _ in open(Path(tmp) / "out.jsonl", encoding="utf-8"))
    print(f"{n:,} two-hand fights, `poker judge` end to end (five-card table at hand: {made:.1f} s to get it)")
    print(f"  JSON Lines   {secs:6.2f} s  {n / secs:9,.0f} fights/s  peak {peak:5.0f} MB  "
          f"(target <= 20 s, < 500 MB); {lines:,} results")
    print(f"  YAML         {ysecs:6.2f} s  {n / ysecs:9,.0f} fights/s  peak {ypeak:5.0f} MB  (target <= 45 s)")
    print(f"  treys script {peer:6.2f} s  {n / peer:9,.0f} fights/s  (JSON Lines in and out, same file)")
    print(f"  rate judge / treys: {peer / secs:4.2f} (target >= 0.5)")


if __name__ == "__main__":
    main()
