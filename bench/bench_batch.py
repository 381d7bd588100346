"""Issue 11's batch I/O targets: 1,000,000 fights read and written end to end within 500 MB peak
memory in each format (YAML, JSON, JSON Lines), in at most 60 s for YAML and 20 s for JSON Lines.

Each format runs in a fresh process that reads the file with engine.io.fights.read_fights, checks
every fight (engine.io.fights.check_fight), and writes one result per fight with write_results in the
same format, to a file: the batch I/O of `poker judge` without the judging (bench_judge.py times
that).  Reported: wall time, fights/s, and peak RSS (resource.getrusage) of that process.

Run: .venv/bin/python bench/bench_batch.py [N]        (N defaults to 1,000,000)
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANKS, SUITS = "23456789TJQKA", "HDCS"
DECK = [r + s for r in RANKS for s in SUITS]
LIMITS = {"yaml": 60.0, "json": None, "jsonl": 20.0}
PEAK_MB = 500

CHILD = """
import resource, sys, time
from engine.io.fights import check_fight, read_fights
from engine.io.results import write_results
src, out, form = sys.argv[1:4]
start = time.perf_counter()

def results():
    for i, fight in enumerate(read_fights(src)):
        reason = check_fight(fight)
        yield {"id": fight.get("id", i + 1), "result": -1 if reason else 1, "winners": [0],
               "ranks": [1, 1], "categories": ["high card", "high card"], **({"error": reason} if reason else {})}

with open(out, "w", encoding="utf-8") as stream:
    n = write_results(stream, results(), form)
print(n, time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def write_inputs(folder: Path, n: int) -> dict[str, Path]:
    rng = random.Random(11)
    paths = {form: folder / f"fights.{form}" for form in LIMITS}
    with open(paths["yaml"], "w") as y, open(paths["json"], "w") as j, open(paths["jsonl"], "w") as jl:
        y.write("fights:\n")
        j.write('{"fights": [\n')
        for i in range(n):
            cards = rng.sample(DECK, 10)
            a, b = " ".join(cards[:5]), " ".join(cards[5:])
            y.write(f'  - id: f{i}\n    hands: ["{a}", "{b}"]\n')
            line = json.dumps({"id": f"f{i}", "hands": [a, b]})
            jl.write(line + "\n")
            j.write(("," if i else "") + line + "\n")
        j.write("]}\n")
    return paths


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        t = time.perf_counter()
        paths = write_inputs(folder, n)
        print(f"{n:,} fights written in {time.perf_counter() - t:.1f} s: "
              + ", ".join(f"{form} {p.stat().st_size / 1e6:.0f} MB" for form, p in paths.items()))
        print(f"{'format':<7} {'time':>8} {'fights/s':>10} {'peak RSS':>9}  target")
        for form, path in paths.items():
            out = folder / f"results.{form}"
            t = time.perf_counter()
            done = subprocess.run([sys.executable, "-c", CHILD, str(path), str(out), form], cwd=ROOT,
                                  capture_output=True, text=True, check=True)
            wall = time.perf_counter() - t
            count, _inner, peak = done.stdout.split()
            assert int(count) == n, done.stdout
            limit = LIMITS[form]
            ok = float(peak) <= PEAK_MB and (limit is None or wall <= limit)
            failed |= not ok
            target = f"<= {limit:g} s, " if limit else ""
            print(f"{form:<7} {wall:>7.1f}s {n / wall:>10,.0f} {float(peak):>7.0f}MB  "
                  f"{target}<= {PEAK_MB} MB: {'ok' if ok else 'NOT MET'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
