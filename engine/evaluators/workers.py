"""How many DuckDB databases run side by side, and with how many threads each: the one place
that decides the cores a batch uses (``$POKER_WORKERS``)."""

from __future__ import annotations

import os


def cores() -> int:
    """The cores this process may run on: how many DuckDB databases of one thread each run side
    by side (the five-card table, `poker judge`).  DuckDB's own threads gain little on these many
    small joins (a run of 20,000 fights: 1.36 s on two threads, 1.38 s on one, for 1.7 s of CPU
    against 1.4), while separate databases on separate worlds scale with the cores."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


SMALL_BATCH = 50                 # worlds: up to this many, the compiled program runs in Python (local.py)
WORKERS_ENV = "POKER_WORKERS"   # how many databases side by side (1: one, with DuckDB's own threads)
DEFAULT_THREADS: int | None = None   # a database's threads when not told (None: DuckDB's, one a core);
                                     # a worker process of a batch sets 1: its siblings use the other cores


def worker_count(most: int) -> int:
    """How many DuckDB databases run side by side: ``$POKER_WORKERS``, else one a core, at most
    ``most``.  A bad ``$POKER_WORKERS`` raises ValueError naming it."""
    text = os.environ.get(WORKERS_ENV, "").strip()
    if not text:
        return min(cores(), most)
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 64):
        raise ValueError(f"${WORKERS_ENV}: {text[:40]!r} is not a number of workers (1 to 64)")
    return int(text)


def idle_cores() -> float:
    """The cores no other process keeps busy, as the load average of the last minute says
    (``cores() - load``, at least 0); every core where the load cannot be read."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return float(cores())
    return max(cores() - load, 0.0)


def process_count(most: int) -> int:
    """How many processes judge a long batch of hand histories: ``$POKER_WORKERS`` when it is
    set; else this one and a worker for each core idle besides the one this process takes
    (``cores() - 1 - load``, rounded), at most ``most`` in all.  A worker runs at a lower
    priority (engine.history), so on a core that other processes keep busy it runs late and the
    batch ends no sooner, while its own start-up (a database, the pages it copies) is CPU spent
    for nothing: 10,000 hand histories on 2 cores at a load of 5 took 2.13 s of CPU and 3.41 s
    wall with a worker, 1.82 s and 2.78 s in one process (docs/performance.md)."""
    if os.environ.get(WORKERS_ENV, "").strip():
        return worker_count(most)
    spare = int(idle_cores() - 1 + 0.5)
    return max(1, min(worker_count(most), 1 + spare))
