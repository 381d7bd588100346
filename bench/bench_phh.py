"""`poker judge` of a bulk hand-history file (PHH, default 10,000 hands), end to end, against
pokerkit replaying the same file in this process.

The hands are synthesised by pokerkit (tests/phhsynth.py: dealt and played at random, with
all-ins, side pots and showdowns, every card shown) and carry pokerkit's finishing stacks, so the
run also counts the hands whose payout by the rules equals pokerkit's.  The rules' five-card
table is made first (or found in the cache), as a user's second batch finds it.  Peak memory is
the judge process's maximum resident set.  Target (issue 21): >= 5,000 hands/s; Omaha hi/lo
(`--variant FO/8`, issue 33): >= 1,000 hands/s, within 2x of hold'em's rate per showdown.

Run: .venv/bin/python bench/bench_phh.py [N] [--variant NT --variant PO ...] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from common import measured  # noqa: E402
from phhsynth import cached  # noqa: E402

from engine import Engine  # noqa: E402
from engine.judging.table import five_card_table  # noqa: E402

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def pokerkit_replay(path: Path) -> tuple[float, int]:
    """pokerkit's replay of every hand (what a user of pokerkit runs to get the payouts)."""
    from pokerkit import HandHistory
    t0 = time.perf_counter()
    with warnings.catch_warnings(), open(path, "rb") as f:
        warnings.simplefilter("ignore")
        hands = 0
        for hh in HandHistory.load_all(f):
            for _ in hh:
                pass
            hands += 1
    return time.perf_counter() - t0, hands


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=10_000)
    parser.add_argument("--variant", action="append", default=None)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    variants = tuple(args.variant or ("NT",))
    t = time.perf_counter()
    src = cached(args.n, seed=args.seed, variants=variants)
    print(f"{args.n:,} hands of {', '.join(variants)} synthesised by pokerkit ({src}, "
          f"{src.stat().st_size / 1e6:.1f} MB; {time.perf_counter() - t:.1f} s, cached after)")
    for name in {"NT": "standard", "PO": "standard", "FO/8": "eight-or-better", "NS": "short-deck"}.values():
        five_card_table(Engine(name))                       # built once, cached
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        secs, peak, status, _, err = measured([sys.executable, "-m", "engine", "judge", str(src), "-o", str(out)], ENV)
        assert status == 0, err
        results = [json.loads(line) for line in out.read_text().splitlines()]
    statuses: dict[str, int] = {}
    for r in results:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    agree = sum(1 for r in results if (r.get("record") or {}).get("agrees"))
    showdowns = sum(1 for r in results if any(len(p["contestants"]) > 1 for p in r.get("pots", [])))
    side = sum(1 for r in results if len(r.get("pots", [])) > 1)
    print(f"poker judge: {secs:.2f} s ({len(results) / secs:,.0f} hands/s), peak {peak:.0f} MB; "
          f"{showdowns:,} showdowns, {side:,} hands with side pots; statuses {statuses}")
    print(f"  the rules' payout equals pokerkit's finishing stacks on {agree:,} of {len(results):,} hands")
    print("  " + err.strip().splitlines()[-1])
    pk_secs, pk_hands = pokerkit_replay(src)
    print(f"pokerkit replay, this process: {pk_secs:.2f} s ({pk_hands / pk_secs:,.0f} hands/s): "
          f"poker judge at {pk_secs / secs:.2f}x its rate")


if __name__ == "__main__":
    main()
