"""`poker judge` of real hand histories (the 10,000 Pluribus hands: six-max no-limit hold'em,
most of them ending before a showdown), end to end, against pokerkit replaying the same file in
this process.  Target (issue 35): CPU at most a fifth of pokerkit's.

The judge runs as a subprocess (`python -m engine judge FILE -o OUT`, once untimed first, so that
the five-card table and its proofs are cached as a user's second batch finds them); its CPU is this process's RUSAGE_CHILDREN before and
after (the judge and every worker it forks), its wall time the subprocess's.  pokerkit's CPU is
this process's own (time.process_time) around its replay of every hand.  A hand agrees when the
rules' payout (starting stack - put in + returned + won, from the judge's output) equals both
the file's finishing stacks and the stacks pokerkit's replay ends with.  Each is run ``--runs``
times (default 3) and the medians printed.

The file is made once by bench/pluribus.py (from a pokerkit git directory or a folder of .phh).

Run: .venv/bin/python bench/bench_real.py [SOURCE] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pluribus import pluribus  # noqa: E402

from engine import Engine  # noqa: E402
from engine.judging.table import five_card_table  # noqa: E402

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def judged(path: Path, out: Path) -> tuple[float, float, str]:
    """`poker judge` of the file: (wall seconds, CPU seconds of it and its workers, its stderr)."""
    cpu, t = children_cpu(), time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "engine", "judge", str(path), "-o", str(out)],
                          env=ENV, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t, children_cpu() - cpu
    assert proc.returncode == 0, proc.stderr
    return wall, cpu, proc.stderr


def pokerkit_replay(path: Path) -> tuple[float, float, list[tuple[list, list, list]]]:
    """pokerkit's replay of every hand (what a user of pokerkit runs to get the payouts): its
    (wall, CPU) seconds, and each hand's (starting stacks, the file's finishing stacks, the
    stacks pokerkit ends with)."""
    from pokerkit import HandHistory
    t, cpu = time.perf_counter(), time.process_time()
    stacks = []
    with warnings.catch_warnings(), open(path, "rb") as f:
        warnings.simplefilter("ignore")
        for hh in HandHistory.load_all(f):
            state = None
            for state in hh:
                pass
            stacks.append((list(hh.starting_stacks), list(hh.finishing_stacks or ()), list(state.stacks)))
    return time.perf_counter() - t, time.process_time() - cpu, stacks


def agreements(results: list[dict], stacks: list[tuple[list, list, list]]) -> tuple[int, int]:
    """Hands whose payout by the rules (starting stack - put in + returned + won, exact:
    amounts may be halves) equals the
    file's finishing stacks; and those whose payout equals the stacks pokerkit ends with."""
    file_ok = kit_ok = 0
    for r, (start, finishing, kit) in zip(results, stacks, strict=True):
        if r["status"] != "judged":
            continue
        ours = [Fraction(s) - Fraction(p["put"]) + Fraction(p["returned"]) + Fraction(p["won"])
                for s, p in zip(start, r["players"])]
        file_ok += ours == [Fraction(x) for x in finishing]
        kit_ok += ours == [Fraction(x) for x in kit]
    return file_ok, kit_ok


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("source", nargs="?", type=Path, help="a pokerkit git directory or a folder of .phh")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    path = pluribus(args.source)
    print(f"{path} ({path.stat().st_size / 1e6:.1f} MB); load: {os.getloadavg()[0]:.2f}")
    five_card_table(Engine("standard"))                     # built once, cached
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        judged(path, out)               # not timed: the proofs kept beside the table, as a second batch finds them
        for _ in range(args.runs):
            wall, cpu, err = judged(path, out)
            walls.append(wall)
            cpus.append(cpu)
            print(f"  poker judge: {wall:.2f} s wall, {cpu:.2f} s CPU")
        results = [json.loads(line) for line in out.read_text().splitlines()]
    print("  " + err.strip().splitlines()[-1])
    kit_walls, kit_cpus = [], []
    for _ in range(args.runs):
        kit_wall, kit_cpu, stacks = pokerkit_replay(path)
        kit_walls.append(kit_wall)
        kit_cpus.append(kit_cpu)
        print(f"  pokerkit replay: {kit_wall:.2f} s wall, {kit_cpu:.2f} s CPU")
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    kit_wall, kit_cpu = statistics.median(kit_walls), statistics.median(kit_cpus)
    print(f"poker judge, median of {args.runs}: {wall:.2f} s wall ({len(results) / wall:,.0f} hands/s), "
          f"{cpu:.2f} s CPU; pokerkit {kit_wall:.2f} s wall, {kit_cpu:.2f} s CPU: "
          f"{kit_cpu / cpu:.2f}x its CPU, {kit_wall / wall:.2f}x its wall time")
    file_ok, kit_ok = agreements(results, stacks)
    showdowns = sum(1 for r in results if any(len(p["contestants"]) > 1 for p in r.get("pots", [])))
    print(f"  {len(results):,} hands, {showdowns:,} showdowns; the rules' payout equals the file's "
          f"finishing stacks on {file_ok:,} and pokerkit's on {kit_ok:,}")


if __name__ == "__main__":
    main()
