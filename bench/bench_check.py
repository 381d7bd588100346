"""`poker check` over all 2,598,960 hands: cold (an empty table cache: the five-card table built from
the rules first) and warm (the table cached), with peak memory, for the standard rules and for an
edited rule set (isFlush reading suits through cardId: not provably blind to suits, so its table
asks every hand; its fights still proven).

Targets (issue 19): warm <= 5 s, cold <= 30 s, peak memory < 1 GB.

Run: .venv/bin/python bench/bench_check.py
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import measured  # noqa: E402

from engine.datalog.rulesets import RULES_DIR  # noqa: E402


def run(args: list[str], cache: str) -> tuple[float, float, int, str, str]:
    return measured([sys.executable, "-m", "engine", *args, "check"], dict(os.environ, POKER_CACHE_DIR=cache))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        edited = Path(tmp) / "edited"
        edited.mkdir()
        for f in RULES_DIR.glob("*.dl"):
            shutil.copy(f, edited / f.name)
        text = (edited / "ranking.dl").read_text(encoding="utf-8")
        (edited / "ranking.dl").write_text(text.replace(
            "member(S, X) & getSuit(X, T) & member(S, Y) & getSuit(Y, U)",
            "member(S, X) & cardId(X, V, T) & member(S, Y) & cardId(Y, W, U)"), encoding="utf-8")
        for label, extra in (("standard", []), ("edited (suits via cardId)", ["--rules", str(edited)])):
            cache = tempfile.mkdtemp(dir=tmp)
            for when in ("cold", "warm"):
                secs, peak, status, out, err = run(extra, cache)
                verdict = "all obligations hold" if status == 0 else f"FAILED ({err.strip()})"
                print(f"poker check, {label:<26} {when}  {secs:6.1f} s  peak {peak:5.0f} MB   {verdict}   "
                      f"(target: {'<= 30 s' if when == 'cold' else '<= 5 s'}, < 1 GB)")
                if when == "cold":
                    print("  " + (out.strip().splitlines() or [""])[0])


if __name__ == "__main__":
    main()
