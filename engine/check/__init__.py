"""`poker check`: the proof obligations of the Event-B model, discharged by asking the rules.

- isHand and getRank over every one of the 2,598,960 hands: each is a hand and gets exactly one
  rank, and the categories' frequencies are the combinatorial table;
- beat is antisymmetric and transitive (beat_Bonus), and beatRank agrees with getRank: proven for
  every fight of two disjoint hands where engine/judging/proof.py proves beat (and beatRank) to be the
  five-card table's order, and checked on sampled fights and triples (half of them within one
  category, where the tie-break axioms decide): 2,000 then, 100,000 where the proof fails;
- the compiled evaluator agrees with pyDatalog, the reference, on hands and fights of every
  category.

Every answer comes from the loaded rules: every hand's rank, key and isHand are those of the
five-card table (engine/judging/table.py: the compiled rules asked about every hand, or about one hand of
each class of hands alike but for their suits where the rules are proven blind to suits; read
from the verified cache when it is there), and every sampled fight is asked through the one
verdict function.  Where there is no table (a hand without exactly one rank, a hand that is not
one), every hand is asked again in SQL for a counterexample; when the rules cannot be compiled,
pyDatalog is asked about every hand, one at a time (slow).  The report also says which of the
engine's fast paths the loaded rules allow (:func:`paths`).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from engine import interface as I
from engine.core import Engine
from engine.datalog.loader import RuleError
from engine.evaluators import Ask, World, verdicts
from engine.evaluators.sql.duckdb import Worlds
from engine.evaluators.sql.evaluator import CompiledEvaluator
from engine.evaluators.workers import SMALL_BATCH
from engine.judging import policy
from engine.judging.fivetable import TableError
from engine.judging.proof import fight_proof, suit_symmetry
from engine.judging.table import five_card_table
from engine.poker import sevens

CHUNK = 100_000       # hands per run of the compiled rules (badugi: a hand asks its 15 subsets; 1,300,000 took 1.5 GB)
SMALL_CHUNK = 25_000  # hands of fewer than five cards per run: badugi's every hand 745 MB -> 311 MB, 14.9 s -> 12.3 s
POOL = 4_000          # hands of each rank kept for sampling fights within a category
PROVEN_SAMPLES = 2_000   # fights and triples still asked of the rules where the proofs cover them all
FIGHT_CHUNK = 25_000     # sampled fights (or triples) per run of the compiled rules


@dataclass
class Obligation:
    name: str
    holds: bool
    checked: str
    counterexample: Any = None


@dataclass
class Report:
    rules: str
    total: int
    frequencies: dict[str, int]
    obligations: list[Obligation] = field(default_factory=list)
    method: str = ""
    seconds: float = 0.0
    paths: dict[str, str] = field(default_factory=dict)
    proofs: dict[str, list[str]] = field(default_factory=dict)   # each path's proofs: held, or why not
    expected: dict[str, int] | None = None     # the published frequencies, where the game has them
    expected_from: str | None = None           # where they come from (RuleSet.published_from)
    expected_failed: bool = False              # the rules' counts differ from them

    @property
    def ok(self) -> bool:
        return all(o.holds for o in self.obligations)

    def as_dict(self) -> dict:
        return {"rules": self.rules, "total": self.total, "frequencies": self.frequencies,
                "obligations": {o.name: {"holds": o.holds, "checked": o.checked,
                                         "counterexample": o.counterexample} for o in self.obligations},
                "expected": self.expected, "expected_from": self.expected_from, "method": self.method,
                "seconds": round(self.seconds, 2),
                "paths": self.paths, "proofs": self.proofs}


Progress = Callable[[str, int], Callable[[int], None]]


def unrank(index: int, cards: Sequence[int], k: int = 5) -> list[int]:
    """The index-th k-subset of cards in lexicographic order (what SQL's ORDER BY c1..c5 numbers).

    >>> unrank(0, range(1, 53)), unrank(2598959, range(1, 53))
    ([1, 2, 3, 4, 5], [48, 49, 50, 51, 52])
    """
    out, start, n = [], 0, len(cards)
    for slot in range(k, 0, -1):
        for i in range(start, n):
            block = math.comb(n - i - 1, slot - 1)
            if index < block:
                out.append(cards[i])
                start = i + 1
                break
            index -= block
    return out


def check(engine: "Engine", samples: int = 100_000, reference_samples: int = 10, seed: int = 0,
          progress: Progress | None = None) -> Report:
    start = time.perf_counter()
    tick = progress or (lambda what, total: (lambda n: None))
    cards = engine.deck
    if not 1 <= engine.hand_size <= len(cards):
        raise RuleError(f"the rule set {engine.name!r} holds hands of {engine.hand_size} cards, of a deck of "
                        f"{len(cards)}: there is no hand to check")
    rng = random.Random(seed)
    table, no_table = _table(engine, tick) if engine.fallback is None else (None, engine.fallback)
    if table is not None and table.all_hands:
        report, pools = _from_table(engine, table, rng)
        proofs = [fight_proof(engine, table), fight_proof(engine, table, I.BEAT_RANK)]
        sampler = _Sampler(cards, pools, rng, engine.hand_size)
        n = min(samples, PROVEN_SAMPLES) if all(p.holds for p in proofs) else samples
        report.obligations += _fights_compiled(engine, sampler, n, tick, proofs)
    elif engine.fallback is None:
        report, pools = _all_hands(engine, cards, seed, tick)
        report.method = "every hand asked of the rules, compiled to SQL (DuckDB)"
        sampler = _Sampler(cards, pools, rng, engine.hand_size)
        report.obligations += _fights_compiled(engine, sampler, samples, tick)
    else:
        report, pools = _one_by_one(engine, cards, rng, tick)
        report.method = f"every hand asked of pyDatalog, one at a time ({engine.fallback})"
        sampler = _Sampler(cards, pools, rng, engine.hand_size)
        report.obligations += _fights(engine, sampler, samples, tick)
    report.obligations.append(_evaluators_agree(engine, sampler, reference_samples,
                                                tick("compiled vs pyDatalog", reference_samples)))
    found = paths(engine, table, no_table)
    report.paths = {path: how for path, (how, *_) in found.items()}
    report.proofs = {path: used for path, (_, *used) in found.items() if used}
    report.seconds = time.perf_counter() - start
    return report


def paths(engine: "Engine", table: Any, no_table: str | None = None) -> dict[str, list[str]]:
    """Which of the engine's paths read answers off the five-card table for these rules, and
    which ask the rules world by world: for each path of :mod:`engine.judging.policy`, how it answers
    (and why not off the table), then each proof it used and whether it held (why not, when
    not); ``no_table``: why there is no table."""
    if table is None:
        why = no_table or "the table cannot be made"
        return {"fights, showdowns, equity, diff": [f"the rules' worlds (no five-card table: {why})"]}
    return policy.report(engine, table)


def _table(engine: "Engine", tick: Progress) -> tuple[Any, str | None]:
    """The rules' five-card table (built, or read from the verified cache) and None, or None and
    why there is none (a hand without exactly one rank, hands of four cards; every hand is then
    asked again, for a counterexample)."""
    try:
        return five_card_table(engine, progress=tick), None
    except TableError as exc:
        return None, str(exc)


def _duckdb(engine: "Engine", n: int) -> Any:
    """The compiled evaluator on DuckDB (a batch past SMALL_BATCH), even for a few questions."""
    return engine.evaluator(max(n, SMALL_BATCH + 1))


def _from_table(engine: "Engine", table: Any, rng: random.Random) -> tuple[Report, dict[int, list[list[int]]]]:
    """The hands' obligations read off the table (each hand one rank, isHand of every hand: the
    table holds that), and a pool of hands of each rank for the fights."""
    import numpy as np
    n = len(table.cards)
    freq = Counter(dict(zip(*(a.tolist() for a in np.unique(table.ranks, return_counts=True)))))
    report = _hand_report(engine, len(table.values), freq, None, None, "all hands", len(table.classes))
    pools: dict[int, list[list[int]]] = {}
    np_rng = np.random.default_rng(rng.randrange(1 << 32))
    ids = np.asarray(table.cards)
    for r in sorted(freq):
        rows = np.flatnonzero(table.ranks == r)
        picked = np_rng.choice(rows, size=min(POOL, len(rows)), replace=False)
        pools[r] = ids[sevens.uncolex(picked, n)].tolist()
    symmetric = not isinstance(suit_symmetry(engine.ruleset.clauses), str)
    report.method = ("every hand's rank, key and isHand from the five-card table: the rules compiled to SQL "
                     "(DuckDB), asked about " + ("one hand of each class of hands alike but for their suits "
                                                 "(the rules are proven blind to suits)" if symmetric else "every hand"))
    return report, pools


# ---- hands --------------------------------------------------------------------------------


def every_hand(engine: "Engine", cards: list[int], compute: Sequence[str], reduce: dict[str, str],
               tick: Progress, k: int = 5) -> Iterator[dict[str, list[tuple]]]:
    """Ask the compiled rules about every k-card hand, each its own world, a chunk at a time.

    Hand w is the w-th in lexicographic order (:func:`unrank`); set 1 of world w.  ``reduce``
    holds SELECTs over the computed relations (see Database.run); each chunk yields their rows.
    """
    chunk = CHUNK if k >= 5 else SMALL_CHUNK
    compiled = engine.evaluator(chunk)
    assert isinstance(compiled, CompiledEvaluator)
    db = compiled.compiled
    db.create("deck", "SELECT * FROM (VALUES " + ", ".join(f"({int(c)})" for c in cards) + ") d(c)")
    columns = [f"d{j}.c" for j in range(k)]
    db.create("hands", f'SELECT (row_number() OVER (ORDER BY {", ".join(columns)}) - 1)::BIGINT AS w, '
                       + ", ".join(f"{c} AS c{j + 1}" for j, c in enumerate(columns))
                       + " FROM " + ", ".join(f'"x_deck" d{j}' for j in range(k))
                       + " WHERE " + " AND ".join(f"{a} < {b}" for a, b in zip(columns, columns[1:])))
    total = math.comb(len(cards), k)
    step = tick("hands", total)
    pick = "CASE i " + " ".join(f"WHEN {j} THEN c{j + 1}" for j in range(k - 1)) + f" ELSE c{k} END"
    for lo in range(0, total, chunk):
        span = f"w >= {lo} AND w < {lo + chunk}"
        worlds = Worlds(sql={
            I.DECLARED: f'SELECT w, 1 FROM "x_hands" WHERE {span}',
            I.HOLDS: f'SELECT w, 1, i, {pick} FROM "x_hands", range({k}) r(i) WHERE {span}',
            I.SEAT: "SELECT 0, 0, 0 WHERE FALSE",
            "worlds": f'SELECT w FROM "x_hands" WHERE {span}'})
        yield db.run(worlds, [], compute=compute, reduce=reduce)
        step(min(chunk, total - lo))


# Each hand's rank when the rules give it exactly one (n: how many they give).
RANKS = "(SELECT w, count(DISTINCT a1) AS n, min(a1) AS r FROM {getRank} GROUP BY w)"
# Each hand's tie-break key (k: its values in order, p: their places (order, index)).
KEYS = ("(SELECT w, list(a3 ORDER BY a1, a2, a3) AS k, list([a1, a2] ORDER BY a1, a2, a3) AS p "
        "FROM {handKey} WHERE a0 = 1 GROUP BY w)")


def _all_hands(engine: "Engine", cards: list[int], seed: int, tick: Progress
               ) -> tuple[Report, dict[int, list[list[int]]]]:
    """Every hand asked of the compiled rules; counted in SQL (with the distinct strengths:
    rank and handKey), a pool of each rank kept."""
    k = engine.hand_size
    total = math.comb(len(cards), k)
    freq: Counter[int] = Counter()
    bad: dict[str, str] = {}
    pools: dict[int, list[int]] = {}
    strengths: set[tuple] | None = set()
    reduce = {
        "freq": f"SELECT r, count(*) FROM {RANKS} WHERE n = 1 GROUP BY r",
        "no rank": f'SELECT min(w) FROM "_worlds" WHERE w NOT IN (SELECT w FROM {RANKS} WHERE n = 1)',
        "no hand": 'SELECT min(w) FROM "_worlds" WHERE w NOT IN (SELECT w FROM {isHand})',
        "pool": f"SELECT r, w FROM (SELECT r, w, row_number() OVER (PARTITION BY r ORDER BY hash(w + {seed})) "
                f"AS k FROM {RANKS} WHERE n = 1) WHERE k <= {POOL}",
        "strengths": f"SELECT DISTINCT r.r, k.k FROM {RANKS} r LEFT JOIN {KEYS} k ON k.w = r.w WHERE r.n = 1"}
    compute = [I.GET_RANK, I.IS_HAND, I.HAND_KEY]
    if not any(c.head == I.HAND_KEY for c in engine.ruleset.clauses):      # no tie-break key to count
        compute, strengths = compute[:2], None
        del reduce["strengths"]
    for out in every_hand(engine, cards, compute, reduce, tick, k):
        freq.update(dict(out["freq"]))
        for key in ("no rank", "no hand"):
            w = out[key][0][0]
            if w is not None and key not in bad:
                bad[key] = engine.notation.format(unrank(w, cards, k))
        for r, w in out["pool"]:
            pools.setdefault(r, []).append(unrank(w, cards, k))
        if strengths is not None:
            strengths.update((r, tuple(key or ())) for r, key in out["strengths"])
    report = _hand_report(engine, total, freq, bad.get("no hand"), bad.get("no rank"), "all hands",
                          None if bad or strengths is None else len(strengths))
    return report, pools


def _one_by_one(engine: "Engine", cards: list[int], rng: random.Random, tick: Progress
                ) -> tuple[Report, dict[int, list[list[int]]]]:
    """Every hand asked of pyDatalog (when the rules cannot be compiled): tens of minutes."""
    total = math.comb(len(cards), engine.hand_size)
    step = tick("hands", total)
    freq: Counter[int] = Counter()
    bad_hand = bad_rank = None
    pools: dict[int, list[list[int]]] = {}
    asks = [Ask(I.GET_RANK, (1, None)), Ask(I.IS_HAND, (1,))]
    for hand in itertools.combinations(cards, engine.hand_size):
        answers = engine.reference.answers([World((hand,))], asks)[0]
        ranks = {r for _, r in answers[asks[0]]}
        if len(ranks) != 1:
            bad_rank = bad_rank or engine.notation.format(hand)
        else:
            r = ranks.pop()
            freq[r] += 1
            pool = pools.setdefault(r, [])
            if len(pool) < POOL:
                pool.append(list(hand))
            elif rng.random() < POOL / freq[r]:
                pool[rng.randrange(POOL)] = list(hand)
        if not answers[asks[1]]:
            bad_hand = bad_hand or engine.notation.format(hand)
        step(1)
    return _hand_report(engine, total, freq, bad_hand, bad_rank, "all hands, one by one"), pools


def _hand_report(engine: "Engine", total: int, by_rank: Counter, bad_hand, bad_rank, checked: str,
                 distinct: int | None = None) -> Report:
    freq: Counter[str] = Counter()
    for r, n in by_rank.items():
        freq[engine.categories.get(r, f"rank {r}")] += n
    report = Report(engine.name, total, dict(sorted(freq.items(), key=lambda kv: kv[1])))
    report.obligations.append(Obligation(f"isHand: every {engine.hand_size}-card set is a hand", bad_hand is None,
                                         checked, bad_hand))
    report.obligations.append(Obligation("getRank total and single-valued", bad_rank is None,
                                         checked, bad_rank))
    published = engine.ruleset.published
    table = published.five if published is not None else None
    published_ones = published_obligations(table, total, dict(freq), distinct, checked)
    report.obligations += published_ones
    report.expected_failed = not all(o.holds for o in published_ones)
    report.expected = table.frequencies if table is not None else None
    report.expected_from = engine.ruleset.published_from()
    return report


def published_obligations(table: Any, total: int, freq: dict[str, int], distinct: int | None,
                          checked: str, best: bool = False) -> list[Obligation]:
    """The obligations of a game's published table (rulesets.Table; None: the rule set has
    none, and nothing is claimed): the number of hands, each category's count, the number of
    distinct values (where it was counted)."""
    out: list[Obligation] = []
    if table is None:
        return out
    if table.hands is not None:
        out.append(Obligation(f"{table.hands:,} {'seven-card ' if best else ''}hands in the deck",
                              total == table.hands, checked, None if total == table.hands else {"got": total}))
    if table.frequencies is not None:
        expected = table.frequencies
        wrong = {c: {"got": freq.get(c, 0), "expected": n} for c, n in expected.items() if freq.get(c, 0) != n}
        wrong.update({c: {"got": n, "expected": 0} for c, n in freq.items() if c not in expected})
        out.append(Obligation("frequencies of the best five equal the published table" if best else
                              "frequencies equal the published table", not wrong, checked, wrong or None))
    if table.distinct is not None and distinct is not None:
        out.append(Obligation(f"{table.distinct:,} distinct {'best' if best else 'hand'} values", distinct == table.distinct,
                              checked, None if distinct == table.distinct else {"got": distinct}))
    return out


# ---- fights ------------------------------------------------------------------------------


class _Sampler:
    """Disjoint random hands: uniform, or every other time all of one rank (drawn from the pools
    of each rank's hands)."""

    def __init__(self, cards: list[int], pools: dict[int, list[list[int]]], rng: random.Random, k: int = 5):
        self.cards, self.rng, self.k = cards, rng, k
        self.pools = {r: p for r, p in sorted(pools.items()) if p}
        self.ranks = sorted(self.pools)

    def hands(self, n: int) -> list[list[int]]:
        """n disjoint hands."""
        if self.ranks and self.rng.random() < 0.5:
            pool = self.pools[self.rng.choice(self.ranks)]
            for _ in range(100):
                hands = [self.rng.choice(pool) for _ in range(n)]
                if len({c for h in hands for c in h}) == self.k * n:
                    return hands
        k = self.k
        drawn = self.rng.sample(self.cards, k * n)
        return [sorted(drawn[k * i:k * i + k]) for i in range(n)]

    def fight_of(self, rank: int) -> list[list[int]]:
        """Two disjoint hands of one rank (or a uniform fight when the pool has none)."""
        pool = self.pools[rank]
        for _ in range(100):
            a, b = self.rng.choice(pool), self.rng.choice(pool)
            if not set(a) & set(b):
                return [a, b]
        return self.hands(2)


def _fights_compiled(engine: "Engine", s: _Sampler, n: int, tick: Progress,
                     proofs: Sequence[Any] = ()) -> list[Obligation]:
    """Antisymmetry and beatRank on n fights, transitivity on n triples: the rules' beat and
    beatRank computed for the sampled fights (each its own world, its hands seated at a table),
    and every violation looked for in SQL; only a counterexample is fetched.  ``proofs``: beat's
    and beatRank's fight proofs, which, where they hold, give the obligations for every fight of
    two disjoint hands (the table's order is a total preorder; beatRank the order of the ranks)."""
    db = _duckdb(engine, n).compiled
    step = tick("fights and triples", 2 * n)
    show = engine.notation.format
    proven = {key: p for key, p in zip((I.BEAT, I.BEAT_RANK), proofs) if p.holds}
    out: list[Obligation] = []
    for size in (2, 3):
        fights = [s.hands(size) for _ in range(n)]
        k = s.k
        worlds = Worlds(sql={
            I.DECLARED: 'SELECT DISTINCT w, s FROM "x_fights"',
            I.HOLDS: 'SELECT w, s, i, c FROM "x_fights"',
            I.SEAT: 'SELECT DISTINCT w, 0, s FROM "x_fights"',
            "worlds": 'SELECT DISTINCT w FROM "x_fights"'})
        beats = ("(SELECT w, a0, a1, count(*) AS n, min(a2) AS r FROM {beat} WHERE a0 <> a1 "
                 "GROUP BY w, a0, a1)")
        if size == 2:
            reduce = {
                "anti": f"SELECT min(x.w) FROM \"_worlds\" x LEFT JOIN {beats} ab ON ab.w = x.w AND ab.a0 = 1 "
                        f"LEFT JOIN {beats} ba ON ba.w = x.w AND ba.a0 = 2 WHERE ab.n IS DISTINCT FROM 1 OR "
                        "ba.n IS DISTINCT FROM 1 OR ab.r NOT IN (0, 1, 2) OR "
                        "ba.r <> CASE ab.r WHEN 1 THEN 2 WHEN 2 THEN 1 ELSE 0 END",
                "rank": "SELECT min(x.w) FROM \"_worlds\" x "
                        "LEFT JOIN (SELECT w, min(a1) AS r FROM {getRank} WHERE a0 = 1 GROUP BY w) ra ON ra.w = x.w "
                        "LEFT JOIN (SELECT w, min(a1) AS r FROM {getRank} WHERE a0 = 2 GROUP BY w) rb ON rb.w = x.w "
                        "LEFT JOIN (SELECT w, count(*) AS n, min(a2) AS r FROM {beatRank} WHERE a0 = 1 AND a1 = 2 "
                        "GROUP BY w) br ON br.w = x.w WHERE br.n IS DISTINCT FROM 1 OR br.r <> "
                        "CASE WHEN ra.r > rb.r THEN 1 WHEN ra.r < rb.r THEN 2 ELSE 0 END"}
        else:
            reduce = {"trans": f"SELECT min(ab.w) FROM {beats} ab JOIN {beats} bc ON bc.w = ab.w AND bc.a0 = ab.a1 "
                               f"JOIN {beats} ac ON ac.w = ab.w AND ac.a0 = ab.a0 AND ac.a1 = bc.a1 "
                               "WHERE ab.r = 1 AND bc.r = 1 AND ab.a0 <> bc.a1 AND ac.r <> 1"}
        found: dict[str, list[tuple]] = {}
        for lo in range(0, n, FIGHT_CHUNK):          # a chunk a run: memory bounded (badugi: 2 GB at once)
            part = fights[lo:lo + FIGHT_CHUNK]
            db.create_columns("fights", {
                "w": [lo + w for w in range(len(part)) for _ in range(size) for _ in range(k)],
                "s": [i + 1 for _ in part for i in range(size) for _ in range(k)],
                "i": [j for _ in part for _ in range(size) for j in range(k)],
                "c": [c for f in part for h in f for c in h]})
            for key, rows in db.run(worlds, [], reduce=reduce, compute=[I.BEAT, I.BEAT_RANK, I.GET_RANK]).items():
                if key not in found or (found[key][0][0] is None and rows[0][0] is not None):
                    found[key] = rows
            step(len(part))
        for key, name, what, by in (("anti", "beat antisymmetric", "fights", I.BEAT),
                                    ("trans", "beat transitive (beat_Bonus)", "triples", I.BEAT),
                                    ("rank", "beatRank agrees with getRank", "fights", I.BEAT_RANK)):
            if key not in found:
                continue
            w = found[key][0][0]
            example = None
            if w is not None:
                v = engine.fights([fights[w]], matrix=True)[0]
                example = {"hands": [show(h) for h in fights[w]], "ranks": list(v.ranks),
                           "beat": {f"{a + 1}{b + 1}": r for (a, b), r in sorted(v.beats.items()) if a != b}}
            checked = f"{n:,} {what} asked of the rules"
            if by in proven:
                order = "the five-card table's order" if by == I.BEAT else "the order of the table's ranks"
                checked = (f"proven for every fight of two disjoint hands: {by} is {order} "
                           f"({proven[by].patterns:,} patterns, engine/judging/proof.py); {checked}")
            out.append(Obligation(name, w is None, checked, example))
    order = ["beat antisymmetric", "beat transitive (beat_Bonus)", "beatRank agrees with getRank"]
    return sorted(out, key=lambda o: order.index(o.name))


def _fights(engine: "Engine", s: _Sampler, n: int, tick: Progress) -> list[Obligation]:
    """Antisymmetry and beatRank on n fights, transitivity on n triples, all asked of beat."""
    pairs = [s.hands(2) for _ in range(n)]
    triples = [s.hands(3) for _ in range(n)]
    step = tick("fights and triples", 2 * n)
    pair_verdicts = engine.fights(pairs, matrix=True)
    step(n)
    triple_verdicts = engine.fights(triples, matrix=True)
    step(n)
    show = engine.notation.format
    mirror = {1: 2, 2: 1, 0: 0}
    how = f"{n:,} fights asked of the rules' beat"
    anti = Obligation("beat antisymmetric", True, how)
    for hands, v in zip(pairs, pair_verdicts):
        ab, ba = v.beats.get((0, 1)), v.beats.get((1, 0))
        if ab not in mirror or ba != mirror[ab]:
            anti.holds = False
            anti.counterexample = {"fight": [show(h) for h in hands], "beat(a,b)": ab, "beat(b,a)": ba}
            break
    ranked = _beat_rank(engine, pairs, pair_verdicts)
    trans = Obligation("beat transitive (beat_Bonus)", True, f"{n:,} triples asked of the rules' beat")
    for hands, v in zip(triples, triple_verdicts):
        b = v.beats
        if b.get((0, 1)) == 1 and b.get((1, 2)) == 1 and b.get((0, 2)) != 1:
            trans.holds = False
            trans.counterexample = {"hands": [show(h) for h in hands], "beat(a,c)": b.get((0, 2))}
            break
    return [anti, trans, ranked]


def _beat_rank(engine: "Engine", pairs: list[list[list[int]]], pair_verdicts) -> Obligation:
    """beatRank, asked of the rules for the same fights, against the ranks they gave."""
    ask = Ask("beatRank", (1, 2, None))
    answers = engine.evaluator(len(pairs)).answers([World(tuple(map(tuple, p))) for p in pairs], [ask])
    for hands, v, a in zip(pairs, pair_verdicts, answers):
        got = {r for _, _, r in a[ask]}
        ra, rb = v.ranks
        want = 1 if ra > rb else 2 if ra < rb else 0
        if got != {want}:
            return Obligation("beatRank agrees with getRank", False, f"{len(pairs):,} fights asked of the rules",
                              {"fight": [engine.notation.format(h) for h in hands], "ranks": [ra, rb],
                               "beatRank": sorted(got)})
    return Obligation("beatRank agrees with getRank", True, f"{len(pairs):,} fights asked of the rules")


def _evaluators_agree(engine: "Engine", s: _Sampler, n: int, step) -> Obligation:
    """The compiled rules and pyDatalog give the same verdicts, ranks and keys (n fights)."""
    name = "compiled evaluator agrees with pyDatalog"
    if engine.fallback is not None or n == 0:
        return Obligation(name, True, "not compiled: every answer came from pyDatalog" if n else "skipped")
    fights = [s.fight_of(s.ranks[i % len(s.ranks)]) if s.ranks else s.hands(2) for i in range(n)]
    compiled = verdicts(_duckdb(engine, n), fights)
    reference = verdicts(engine.reference, fights)
    asks = [Ask(I.GET_RANK, (1, None)), Ask(I.HAND_KEY, (1, None, None, None))]
    hands = [World((tuple(h),)) for f in fights for h in f]
    mine = _duckdb(engine, len(hands)).answers(hands, asks)
    theirs = engine.reference.answers(hands, asks)
    step(n)
    for f, a, b in zip(fights, compiled, reference):
        if a != b:
            return Obligation(name, False, f"{n:,} fights",
                              {"fight": [engine.notation.format(h) for h in f], "compiled": str(a), "pyDatalog": str(b)})
    for w, a, b in zip(hands, mine, theirs):
        if a != b:
            return Obligation(name, False, f"{len(hands):,} hands",
                              {"hand": engine.notation.format(w.hands[0]), "compiled": str(a), "pyDatalog": str(b)})
    return Obligation(name, True, f"{n:,} fights and {len(hands):,} hands of every category")
