"""`poker judge` of a folder of hand-history files: in one process, and on a local Dask cluster
of 1 and 2 worker processes (issue 35), with the outputs held byte for byte to each other.

The hands are synthesised by pokerkit (tests/phhsynth.py, as bench_phh.py does) and split into
FILES files.  Each run is the command end to end (its start-up, the cluster's, every worker's
engine); the steady rate is counted between the first output written and the last (what a long
archive sees).  From the rate of one worker the last lines say, on paper, what N machines give on
an archive of 21 million hands (the public PHH dataset's size).

Run: .venv/bin/python bench/bench_cluster.py [HANDS] [--files F] [--cores C]   (needs the [cluster] extra)
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from common import measured  # noqa: E402
from phhsynth import cached  # noqa: E402

from engine import Engine  # noqa: E402
from engine.cluster import JOURNAL  # noqa: E402
from engine.io.phh import read_sections  # noqa: E402
from engine.judging.table import five_card_table  # noqa: E402

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ARCHIVE = 21_000_000
NETWORK = 1e9 / 8           # bytes/s through the client: 1 Gb/s


def split(src: Path, folder: Path, files: int) -> list[int]:
    """The hands of a bulk file split into ``files`` files (each hand its section again, as read
    by engine.phh.read_sections); their counts."""
    with src.open(encoding="utf-8") as f:
        hands = [(ident, text) for ident, text in read_sections(f, str(src))]
    step = -(-len(hands) // files)
    counts = []
    for i in range(files):
        chunk = hands[i * step:(i + 1) * step]
        (folder / f"part{i:03}.phhs").write_text("".join(f"[{ident}]\n{text}\n" for ident, text in chunk),
                                                 encoding="utf-8")
        counts.append(len(chunk))
    return counts


def run(folder: Path, out: Path, cluster: str | None) -> tuple[float, float, float]:
    """(seconds end to end, seconds from the first output to the last, CPU seconds of the command
    and every process it started: its workers, a local cluster's scheduler)."""
    argv = [sys.executable, "-m", "engine", "judge", str(folder), "--out-dir", str(out), "--format", "jsonl",
            "--timeout", "0"] + (["--cluster", cluster] if cluster else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    secs, _, status, _, err = measured(argv, ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert status == 0, err
    times = sorted(p.stat().st_mtime for p in out.iterdir() if p.name != JOURNAL)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return secs, times[-1] - times[0], cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("hands", nargs="?", type=int, default=8_000)
    parser.add_argument("--files", type=int, default=16)
    parser.add_argument("--cores", type=int, default=16, help="cores a machine, for the projection")
    args = parser.parse_args()
    src = cached(args.hands, seed=35)
    five_card_table(Engine())                       # built once, cached (as a user's second run finds it)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "in"
        folder.mkdir()
        counts = split(src, folder, args.files)
        per_file = sum(counts) / len(counts)
        print(f"{sum(counts):,} hands (pokerkit, seed 35) in {len(counts)} files of about {per_file:,.0f}")
        rates: dict[str, float] = {}
        cpu_rates: dict[str, float] = {}
        first = None
        for label, cluster in (("one process, no cluster", None), ("local cluster, 1 worker", "local:1"),
                               ("local cluster, 2 workers", "local:2")):
            out = Path(tmp) / (cluster or "here").replace(":", "")
            secs, steady, cpu = run(folder, out, cluster)
            rest = sum(counts) - per_file            # hands written after the first output
            rates[label] = rest / steady if steady > 0 else float("nan")
            cpu_rates[label] = sum(counts) / cpu
            print(f"{label}: {secs:.2f} s end to end ({sum(counts) / secs:,.0f} hands/s); steady "
                  f"{rates[label]:,.0f} hands/s; {cpu:.1f} s of CPU in all ({cpu_rates[label]:,.0f} hands "
                  "a CPU second, start-up included)")
            names = sorted(p.name for p in out.iterdir())
            if first is None:
                first = out
            else:
                same = filecmp.cmpfiles(first, out, names, shallow=False)[0]
                assert len(same) == len(names), f"{label}: outputs differ from one process's"
        print("outputs byte-identical across the three runs")
        # a core's rate, load aside: the CPU of one process judging the folder, less its start-up
        # (the CPU of the same command on one file of 20 hands)
        tiny = Path(tmp) / "tiny"
        tiny.mkdir()
        (tiny / "part.phhs").write_text("".join(f"[{i}]\n{text}\n" for i, text in
                                                 list(read_sections(src.open(encoding="utf-8"), str(src)))[:20]))
        _, _, start_cpu = run(tiny, Path(tmp) / "tiny-out", None)
        whole_cpu = sum(counts) / cpu_rates["one process, no cluster"]
        one = sum(counts) / max(whole_cpu - start_cpu, 1e-9)
        print(f"start-up (the command on 20 hands): {start_cpu:.1f} s of CPU; judging alone: {one:,.0f} hands "
              "a CPU second")
        hands = sum(counts)
        moved = (sum(p.stat().st_size for p in folder.iterdir())
                 + sum(p.stat().st_size for p in first.iterdir() if p.name != JOURNAL)) / hands
        print(f"on paper, {ARCHIVE / 1e6:.0f} million hands at {one:,.0f} hands/s a worker (a core's, as above), "
              f"{args.cores} workers a machine; the client moves {moved:,.0f} bytes a hand (file in, results out), "
              f"{ARCHIVE * moved / 1e9:,.0f} GB in all: {ARCHIVE * moved / NETWORK / 60:,.1f} min at 1 Gb/s")
        for machines in (1, 4, 16, 64):
            secs = max(ARCHIVE / (one * args.cores * machines), ARCHIVE * moved / NETWORK)
            print(f"  {machines:3} machines: {secs / 60:7.1f} min")


if __name__ == "__main__":
    main()
