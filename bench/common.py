"""Shared by the benchmarks: random fights, and treys (the peer, run in the same process)."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any, Callable

DECK = list(range(1, 53))


def random_hands(rng: random.Random, n: int = 2) -> list[list[int]]:
    cards = rng.sample(DECK, 5 * n)
    return [cards[5 * i:5 * i + 5] for i in range(n)]


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def treys_cards() -> Callable[[str], list[int]]:
    """A hand's text as treys' cards, each token converted once, as a treys script would."""
    from treys import Card
    memo: dict[str, int] = {}

    def cards(text: str) -> list[int]:
        out = []
        for t in text.split():
            c = memo.get(t)
            if c is None:
                c = memo[t] = Card.new(t[0] + t[1].lower())
            out.append(c)
        return out
    return cards


def treys_judge(fights: list[list[str]]) -> list[int]:
    """The same fights judged by treys (a hand-coded evaluator): 1, 2 or 0."""
    from treys import Card, Evaluator
    ev = Evaluator()
    out = []
    for a, b in fights:
        sa = ev.evaluate([], [Card.new(t[0] + t[1].lower()) for t in a.split()])
        sb = ev.evaluate([], [Card.new(t[0] + t[1].lower()) for t in b.split()])
        out.append(1 if sa < sb else 2 if sa > sb else 0)
    return out


def measured(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int, str, str]:
    """Run a command: (seconds, its own peak resident set in MB, exit status, stdout, stderr)."""
    import os
    import subprocess
    import tempfile
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        proc = subprocess.Popen(args, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        secs = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return secs, usage.ru_maxrss / 1024, proc.returncode, out.read().decode(), err.read().decode()


def compiled_peers() -> dict[str, Any]:
    """eval7 and phevaluator: each one's card of a token and score of a hand (five to seven cards;
    higher is stronger), or None where it is not installed (`pip install -e '.[bench]'`)."""
    out: dict[str, Any] = {}
    try:
        import eval7
        out["eval7"] = (eval7.Card, eval7.evaluate)
    except ImportError:
        out["eval7"] = None
    try:
        from phevaluator import Card as PhCard
        from phevaluator import evaluate_cards
        out["phevaluator"] = (lambda t: PhCard(t).id_, lambda cs: -evaluate_cards(*cs))
    except ImportError:
        out["phevaluator"] = None
    return out
