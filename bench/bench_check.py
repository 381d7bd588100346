"""`poker check` over all 2,598,960 hands, every hand asked of the rules (target <= 60 s), for the
standard rules and for an edited rule set (isFlush reading suits through cardId: the edit that
fooled the old class table's analysis).  There is no cache: each run asks the loaded rules.

Run: .venv/bin/python bench/bench_check.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.rulesets import RULES_DIR


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
            t = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "engine", *extra, "check"], capture_output=True, text=True)
            elapsed = time.perf_counter() - t
            verdict = "all obligations hold" if done.returncode == 0 else f"FAILED ({done.stderr.strip()})"
            print(f"poker check, {label:<26} {elapsed:6.1f} s   {verdict}   (target <= 60 s)")
            print("  " + (done.stdout.strip().splitlines() or [""])[0])


if __name__ == "__main__":
    main()
