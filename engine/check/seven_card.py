"""`poker check --cards 7`: the seven-card proof obligations over all 133,784,560 hands.

Every five-card hand's value comes from the loaded rules (:func:`engine.judging.table.five_card_table`:
each hand's getRank and handKey, asked of the compiled rules, exhaustively).  A seven-card hand's
best five is then the maximum over its 21 fives (:mod:`engine.poker.sevens`, numpy).  That this maximum
is the five the rules' showdown plays is proven first (engine/judging/policy.py's "check7" path: plays is
the best of mayPlay in the table's order, mayPlay within candidate, and mayPlay lets a hold'em
player play all 21 fives), else the command refuses in one line; and it is checked again by
asking the rules about sampled seven-card hands of every category.

Obligations:

- the categories of the best fives have the published frequencies (royal flushes counted apart);
- 4,824 distinct five-card values are the best of some seven cards;
- the rules' showdown plays, for sampled seven-card hands, a five of the table's best value.
"""

from __future__ import annotations

import math
import time
from collections import Counter

import numpy as np

from engine.check import Obligation, Progress, Report, published_obligations
from engine.core import Engine
from engine.evaluators import verdicts
from engine.judging import policy
from engine.judging.table import five_card_table
from engine.poker import sevens

SHOWDOWN_SAMPLES = 400     # seven-card hands asked of the rules' showdown (half by category)
SHAPE = ("holdem", 1, "holdem")   # the showdown counted: one hold'em player, any five of seven cards


def check_seven(engine: "Engine", samples: int = SHOWDOWN_SAMPLES, seed: int = 0,
                progress: Progress | None = None) -> Report:
    """Discharge the seven-card obligations for the engine's rules (compiled rules only)."""
    start = time.perf_counter()
    tick = progress or (lambda what, total: (lambda n: None))
    table = five_card_table(engine, progress=tick)
    # The best of every seven's 21 fives stands for the rules' showdown (mayPlay, plays) only as
    # engine.policy's "check7" path allows; else one line (133,784,560 showdowns are not asked).
    policy.require(engine, table, "check7", "poker check --cards 7", SHAPE)
    n = len(table.cards)
    total = math.comb(n, 7)
    histogram = sevens.best_histogram(table.values, n, 7, progress=tick("seven-card hands", total))
    by_value = np.zeros(len(table.classes), dtype=np.int64)
    by_value[:len(histogram)] = histogram[:len(table.classes)]
    freq: Counter[str] = Counter()
    for (rank, _), count in zip(table.classes, by_value.tolist()):
        if count:
            freq[engine.categories.get(rank, f"rank {rank}")] += count
    report = Report(engine.name, total, dict(sorted(freq.items(), key=lambda kv: kv[1])))
    report.method = ("every five-card hand's rank and key asked of the rules (compiled to SQL); the best "
                     "of each seven's 21 fives counted with numpy")
    checked = f"all {total:,} seven-card hands"
    published = engine.ruleset.published
    sevens_table = published.sevens if published is not None else None
    distinct = int(np.count_nonzero(by_value))
    report.obligations += published_obligations(sevens_table, total, dict(freq), distinct, checked, best=True)
    report.expected = sevens_table.frequencies if sevens_table is not None else None
    report.obligations.append(_showdown_agrees(engine, table, samples, seed, tick))
    for kind, found in policy.proofs(engine, table, "check7", SHAPE):
        assert found is not None and found.holds           # required above
        report.obligations.insert(0, Obligation(f"{policy.PROOFS[kind]} (engine/judging/policy.py)", True, found.why))
    report.seconds = time.perf_counter() - start
    return report


def _showdown_agrees(engine: "Engine", table, samples: int, seed: int, tick: Progress) -> Obligation:
    """The rules' showdown plays a five of the table's best value, for sampled seven-card hands:
    half uniform, half drawn among those whose best five is of each category in turn."""
    name = "the rules' showdown plays the table's best five"
    if samples <= 0:
        return Obligation(name, True, "skipped")
    rng = np.random.default_rng(seed)
    n = len(table.cards)
    pool = np.sort(np.argsort(rng.random((samples * 40, n)), axis=1)[:, :7], axis=1)
    values, _ = sevens.best_values(table.values, pool)
    ranks = np.array([table.classes[v][0] for v in values.tolist()])
    chosen = list(range(samples // 2))
    by_rank = {r: np.flatnonzero(ranks == r) for r in np.unique(ranks).tolist()}
    order = sorted(by_rank)
    for i in range(samples - len(chosen)):
        rows = by_rank[order[i % len(order)]]
        chosen.append(int(rows[rng.integers(len(rows))]))
    hands = [[table.cards[p] for p in pool[i]] for i in chosen]
    step = tick("showdowns asked of the rules", len(hands))
    worlds = [engine.deal([h]) for h in hands]          # hold'em: two own cards, five on the board
    found = verdicts(engine.evaluator(worlds), worlds)
    step(len(hands))
    position = {c: i for i, c in enumerate(table.cards)}
    for i, v in zip(chosen, found):
        five = sorted(position.get(c, -1) for c in v.best[0]) if v.best and v.best[0] else []
        got = int(table.values[sevens.colex(np.array([five]))[0]]) if len(five) == 5 and min(five) >= 0 else None
        if v.error or got != int(values[i]):
            return Obligation(name, False, f"{len(hands):,} seven-card hands asked of the rules", {
                "hand": engine.notation.format([table.cards[p] for p in pool[i]]),
                "rules play": engine.notation.format(v.best[0]) if v.best else None,
                "table's best": list(table.classes[int(values[i])][1]),
                "error": v.error})
    return Obligation(name, True, f"{len(hands):,} seven-card hands asked of the rules (half by category)")

