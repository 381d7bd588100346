"""`poker judge` end to end on 20,000 fights: the standard rules, the rules right after a one-line
edit of ranking.dl, and rules whose comparator was edited, against treys in this process.

End to end = a `poker judge` process: start, read the YAML, ask the compiled rules (on one worker
a core), write the results.  `--no-table`: every fight asked of the loaded rules, world by world.
Also the standard rules on one worker (``POKER_WORKERS=1``), to show what the workers give, and
the standard rules reading the five-card table (cached), as `poker judge` does by default.
Target: >= 10,000 fights/s.

Run: .venv/bin/python bench/bench_judge.py [N]
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import random_hands, treys_judge  # noqa: E402

from engine import Engine  # noqa: E402
from engine.datalog.rulesets import RULES_DIR  # noqa: E402
from engine.judging.table import five_card_table  # noqa: E402

# As an installed package runs: with its bytecode compiled (pip does it at install time), even
# where the environment says not to write any (PYTHONDONTWRITEBYTECODE).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(args: list[str], **env: str) -> float:
    t = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**ENV, **env})
    return time.perf_counter() - t


def edited(tmp: Path, name: str, file: str, old: str, new: str) -> Path:
    folder = tmp / name
    folder.mkdir()
    for f in RULES_DIR.glob("*.dl"):
        shutil.copy(f, folder / f.name)
    text = (folder / file).read_text(encoding="utf-8")
    assert old in text
    (folder / file).write_text(text.replace(old, new), encoding="utf-8")
    return folder


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    engine = Engine()
    rng = random.Random(54)
    fights = [[engine.notation.format(h) for h in random_hands(rng)] for _ in range(n)]
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "fights.yaml", Path(tmp) / "results.yaml"
        src.write_text("fights:\n" + "".join(f"  - hands: ['{a}', '{b}']\n" for a, b in fights))
        sets = {
            "standard": None,
            "one-line edit of ranking.dl": edited(
                Path(tmp), "ranking", "ranking.dl", "getRank_HightCard: getRank(S, 1) <=",
                "getRank_HightCard: getRank(S, 1) <= isSetCard(S) &"),
            "edited comparator": edited(
                Path(tmp), "comparator", "fighting.dl", "(decidingPart[A, B] == min_(O, order_by=O))",
                "(decidingPart[A, B] == max_(O, order_by=O))"),
        }
        times = {}
        for name, rules in sets.items():
            extra = ["--rules", str(rules)] if rules else []
            times[name] = min(run([sys.executable, "-m", "engine", *extra, "judge", str(src), "-o", str(out),
                                   "--no-table"]) for _ in range(3))
        times["standard, one worker"] = min(
            run([sys.executable, "-m", "engine", "judge", str(src), "-o", str(out), "--no-table"], POKER_WORKERS="1")
            for _ in range(3))
        five_card_table(engine)
        times["standard, five-card table"] = min(
            run([sys.executable, "-m", "engine", "judge", str(src), "-o", str(out)]) for _ in range(3))
        t = time.perf_counter()
        treys_judge(fights)
        peer = time.perf_counter() - t
    print(f"{n:,} fights, `poker judge` end to end (--no-table: every answer asked of the rules, but the last):")
    for name, secs in times.items():
        print(f"  {name:<30} {secs:6.2f} s  {n / secs:8,.0f} fights/s   (target >= 10,000)")
    print(f"  {'treys in-process, judging only':<30} {peer:6.2f} s  {n / peer:8,.0f} fights/s")
    print(f"  ratio standard end-to-end / treys: {times['standard'] / peer:6.1f}x; "
          f"one worker / two: {times['standard, one worker'] / times['standard']:4.2f}x")


if __name__ == "__main__":
    main()
