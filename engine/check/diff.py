"""`poker diff A B`: what changes between two rule sets, over every five-card hand of their deck
(of the cards both have, when their decks differ: standard against short-deck compares the
376,992 hands of the 36 cards from 6 to A, and names the 16 cards only standard has).

Each rule set's strength of every hand (its rank, and the tie-break key handKey) comes from its
five-card table (:func:`engine.judging.table.five_card_table`): every hand asked of that rule set's
compiled rules, one integer per hand (``values``: the dense rank of the strength (rank, key), so
equal is a tie and higher is stronger) and its getRank (``ranks``), in colex order.  Python only
compares those integers; the rules decide them.  Hands then compare:

- **categories**: how many hands move from one category to another (``flush -> straight``), and
  how many keep their category under another rank number (``flush: rank 6 -> 5``);
- **fights**: the unordered pairs of distinct hands (2,598,960 x 2,598,959 / 2 of them; the two
  hands of a pair may share cards) whose verdict changes, judged by each rule set's strength
  (rank, then key), by the categories (under A) of the two hands.  Each kind of change
  (``flush vs straight: 1 -> 2``: the flush won, now the straight does) comes with an example
  fight of two disjoint hands, asked of both rule sets' own ``beat``: the example is the rules'
  word, the count is the strength order's (which `poker check` holds to beat on samples).

The counting works on groups, not hands: the hands with the same pair of values (class under A,
class under B), a few thousand of them for the standard rules, counted in numpy by sorting and
merging (no pair of groups is listed, so rule sets with many classes stay fast): under a second
for 2,598,960 hands, examples included.

Two tables to be built are built together (:func:`engine.judging.table.five_card_tables`: one pass over
the hands, what the rule sets define alike computed once).  The tables are memoised per Engine
and kept in the on-disk cache, so a second ``poker diff`` of the same rule sets takes seconds.
The cache is verified on every load (checksum, consistency,
and a fresh sample of hands asked of the rules again), never trusted blindly; what that leaves
(a file altered on purpose that changes only a few hands the sample misses) is stated in
:func:`engine.judging.table.five_card_table`, and such a change would show here as a wrong count.
``diff(..., cache=False)`` (``poker diff --no-cache``) computes the tables afresh, reading and
writing no cache file.

When a rule set gives some hand no single rank, it has no table: then both rule sets are asked
through :func:`engine.check.every_hand`, one DuckDB database each (slower than building the
tables, and nothing is cached; a line on stderr says so), which counts the hands without one rank
(``unranked``) and leaves them out of the comparison.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from engine import interface as I
from engine.check import KEYS, RANKS, Progress, every_hand
from engine.core import Engine
from engine.datalog.ir import STR
from engine.evaluators import verdicts
from engine.judging import policy
from engine.judging.table import (
    FiveTable,
    TableError,
    five_card_tables,
    merge_places,
    say,
)
from engine.judging.tabled import Tabled
from engine.limits import raise_if_stopped
from engine.poker import sevens

REPRESENTATIVES = 8     # hands of the first group tried for a disjoint example fight ...
CANDIDATES = 4096       # ... against this many of the second (spread over each group)
COUNTED = ("unordered pairs of distinct hands (which may share cards), each judged once by each "
           "rule set's strength: rank, then the tie-break key (handKey); the first hand is the one "
           "A finds stronger (B, when A finds them equal)")
# The kinds of change: (verdict under A, verdict under B) of the first hand against the second.
# (0, 2) cannot occur: when A finds two hands equal, the first is the one B finds stronger.
WORSE, EVEN, NEW = (1, 2), (1, 0), (0, 1)
SAMPLES = 100_000       # fights sampled where beat is not proven to be the table's order ...
PER_PAIR = 10           # ... and this many more of each ordered pair of categories (under A)
EXAMPLES = 3            # first examples shown of each kind of change, sampled
Z95 = 1.959964          # the normal quantile of a two-sided 95% interval
NONE = -9               # a sampled fight's verdict where the rules give a hand several ranks


@dataclass
class Diff:
    a: str
    b: str
    hands: int
    categories: list[dict[str, Any]] = field(default_factory=list)   # {from, to, count}
    renumbered: list[dict[str, Any]] = field(default_factory=list)   # {category, from, to, count}
    unranked: dict[str, int] = field(default_factory=dict)           # rule set -> hands without one rank
    pairs: int = 0
    changed: int = 0
    kinds: list[dict[str, Any]] = field(default_factory=list)        # {from, to, count, example}
    unproven: str | None = None     # why the fights are sampled, not counted (engine.judging.policy's "diff-fights")
    only: dict[str, str] = field(default_factory=dict)  # rule set -> the cards only its deck has
    sampled: "Sampled | None" = None  # the fights asked of both rule sets, where they are not counted

    def as_dict(self) -> dict:
        fights = {"unproven": self.unproven, "sampled": self.sampled.as_dict()} if self.sampled else \
            {"unproven": self.unproven} if self.unproven else \
            {"counted": COUNTED, "pairs": self.pairs, "changed": self.changed, "kinds": self.kinds}
        return {"a": self.a, "b": self.b, "hands": self.hands, "only": self.only, "categories": self.categories,
                "renumbered": self.renumbered, "unranked": self.unranked, "fights": fights}

    def lines(self) -> list[str]:
        out = [f"{self.a} -> {self.b}: {self.hands:,} hands"
               + (" (of the cards both decks have)" if self.only else "")]
        out += [f"  only {name}'s deck has {len(cards.split())} more cards: {cards}" for name, cards in self.only.items()]
        moved = sum(c["count"] for c in self.categories)
        out.append(f"categories: {moved:,} hands change category")
        out += [f"  {c['from']} -> {c['to']}: {c['count']:,}" for c in self.categories]
        if self.renumbered:
            out.append("ranks renumbered (same category, another rank number):")
            out += [f"  {r['category']}: rank {r['from']} -> {r['to']}: {r['count']:,}" for r in self.renumbered]
        for name, n in self.unranked.items():
            out.append(f"  {n:,} hands get no single rank from {name}")
        if self.sampled:
            return out + self.sampled.lines(self.a, self.b, self.unproven)
        if self.unproven:
            return out + [f"fights: not counted: {self.unproven}"]
        out.append(f"fights: {self.changed:,} of {self.pairs:,} change their verdict")
        out.append(f"  (counted: {COUNTED})")
        for k in self.kinds:
            out.append(f"  {k['hands'][0]} vs {k['hands'][1]}: {k['from']} -> {k['to']}: {k['count']:,}"
                       f"  ({_words(k['from'])} -> {_words(k['to'])})")
            ex = k.get("example")
            if ex:
                out.append(f"    e.g. {ex['hands'][0]} vs {ex['hands'][1]}: beat is {ex['a']} under {self.a}, "
                           f"{ex['b']} under {self.b}" + ("" if ex["agrees"] else "  (not as the strengths say)"))
        return out


@dataclass
class Sampled:
    """Fights of two disjoint hands asked of both rule sets' beat world by world (a seeded
    sample), where the table's order is not proven to be beat's: how many change their verdict,
    the share of all such fights that estimates with its 95% (Wilson) interval, and the kinds of
    change with their first examples.  ``stratified``: more fights, ``PER_PAIR`` of each ordered
    pair of categories under A, asked too but kept out of the estimate."""
    seed: int
    fights: int
    changed: int
    population: int
    interval: tuple[float, float]
    stratified: int = 0
    stratified_changed: int = 0
    kinds: list[dict[str, Any]] = field(default_factory=list)   # {hands, from, to, count, examples}

    def as_dict(self) -> dict:
        return {"how": "sampled: fights of two disjoint hands asked of both rule sets' beat, world by world",
                "seed": self.seed, "fights": self.fights, "changed": self.changed,
                "fights of the deck": self.population, "share changed, 95% interval": list(self.interval),
                "stratified": self.stratified, "stratified changed": self.stratified_changed, "kinds": self.kinds}

    def lines(self, a: str, b: str, why: str | None) -> list[str]:
        lo, hi = self.interval
        out = [f"fights (sampled, seed {self.seed}): {self.changed:,} of {self.fights:,} sampled fights of two "
               f"disjoint hands change their verdict: {100 * lo:.3f}% to {100 * hi:.3f}% of all {self.population:,} "
               "(95% interval)",
               f"  (sampled, not counted: {why})",
               f"  and {self.stratified_changed:,} of {self.stratified:,} more, drawn pair of categories by pair "
               f"of categories (under {a})"]
        for k in self.kinds:
            out.append(f"  {k['hands'][0]} vs {k['hands'][1]}: {k['from']} -> {k['to']}: {k['count']:,} sampled"
                       f"  ({_words(k['from'])} -> {_words(k['to'])})")
            out += [f"    e.g. {x} vs {y}: beat is {k['from']} under {a}, {k['to']} under {b}"
                    for x, y in k["examples"]]
        return out


def _words(verdict: int) -> str:
    return {1: "the first wins", 2: "the second wins", 0: "fair"}[verdict]


@dataclass
class Strengths:
    """One rule set's word on every hand of the deck, in colex order (``sevens.five_hands``):
    ``ranks`` its getRank, ``classes`` its strength class (higher is stronger, equal is a tie),
    ``ranked`` whether the rules give the hand exactly one rank (None: every hand)."""
    ranks: np.ndarray
    classes: np.ndarray
    ranked: np.ndarray | None = None
    places: Any = None          # where each rank's key values are (FiveTable.places), when known
    all_hands: bool = False     # isHand holds of every hand (asked without a table)


def diff(a: "Engine", b: "Engine", progress: Progress | None = None, cache: bool = True,
         samples: int = SAMPLES, seed: int = 0, per_pair: int = PER_PAIR) -> Diff:
    """Compare two engines' rule sets over every hand (both must be compiled).

    ``cache``: read and write the five-card tables' cache (False: compute them afresh; a table
    already memoised for one of these Engine objects is still reused).  Where a rule set's beat
    is not proven to be its table's order (engine.judging.policy's "diff-fights"), ``samples`` fights
    (seeded by ``seed``) and ``per_pair`` of each pair of categories are asked of both rule sets
    instead of counting them all."""
    tick = progress or (lambda what, total: (lambda n: None))
    for engine in (a, b):
        if engine.fallback is not None:
            raise ValueError(f"{engine.name}: diff needs compiled rules ({engine.fallback})")
    if a.hand_size != b.hand_size:
        raise ValueError(f"{a.name} deals hands of {a.hand_size} cards and {b.name} of {b.hand_size}: "
                         "no hand to compare")
    cards = sorted(set(a.deck) & set(b.deck))     # decks differ (short deck): the cards both have
    if len(cards) < 5:
        raise ValueError(f"{a.name} and {b.name} have {len(cards)} cards in common: no hand to compare")
    tables = _tables((a, b), progress, cache)
    if tables is None:
        strengths = [_every_hand_strengths(e, cards, tick) for e in (a, b)]
        unproven: str | None = next((f"for {e.name}, {p.why}" for e, st in zip((a, b), strengths)
                                     if not (p := policy.untabled_fights(e, st.places, st.all_hands)).holds), None)
    else:
        strengths = [_restricted(t, cards) for t in tables]
        unproven = next((f"for {e.name}, {p.why}" for e, t in zip((a, b), tables)
                         if not (p := policy.allows(e, t, "diff-fights")).holds), None)
    result = compare(a, b, cards, *strengths, unproven=unproven)
    if unproven and samples > 0:
        result.sampled = sample_fights(a, b, cards, strengths[0], tables, samples, seed, tick, per_pair)
    result.only = {e.name: e.notation.format(sorted(set(e.deck) - set(cards))) for e in (a, b)
                   if len(e.deck) > len(cards)}
    return result


def sample_fights(a: "Engine", b: "Engine", cards: Sequence[int], sa: Strengths, tables: Sequence[FiveTable] | None,
                  samples: int, seed: int, tick: Progress, per_pair: int = PER_PAIR) -> Sampled:
    """``samples`` uniform fights of two disjoint hands of ``cards`` and PER_PAIR of each ordered
    pair of A's categories, asked of both rule sets' beat (each off its table only where its
    own "fights" path is proven: engine.policy), compared."""
    rng = np.random.default_rng(seed)
    n, k = len(cards), a.hand_size
    deck = np.asarray(cards, dtype=np.int64)
    uniform = np.argsort(rng.random((samples, n)), axis=1)[:, :2 * k]
    first, second = np.sort(uniform[:, :k], axis=1), np.sort(uniform[:, k:], axis=1)
    extra = []
    if sa.ranked is None and k == 5:                   # stratified: hands of each category under A
        by_rank = {int(r): np.flatnonzero(sa.ranks == r) for r in np.unique(sa.ranks)}
        for ra in sorted(by_rank):
            for rb in sorted(by_rank):
                got = 0
                for _ in range(20 * per_pair):
                    if got == per_pair:
                        break
                    x = sevens.uncolex(rng.choice(by_rank[ra], 1), n, k)[0]      # ascending positions
                    y = sevens.uncolex(rng.choice(by_rank[rb], 1), n, k)[0]
                    if not set(x.tolist()) & set(y.tolist()):
                        extra.append(np.r_[x, y])
                        got += 1
    if extra:
        more = np.array(extra, dtype=np.int64)
        first, second = np.r_[first, more[:, :k]], np.r_[second, more[:, k:]]
    fights = [[tuple(x), tuple(y)] for x, y in zip(deck[first].tolist(), deck[second].tolist())]
    results = []
    for engine, table in zip((a, b), tables or (None, None)):
        step = tick(f"fights asked of {engine.name}", len(fights))
        fast = Tabled(engine, table) if table is not None else None
        got: list[int] = []
        for lo in range(0, len(fights), 25_000):
            got += _results(engine, fights[lo:lo + 25_000], fast)
            step(min(25_000, len(fights) - lo))
        results.append(np.array(got, dtype=np.int64))
    va, vb = results
    single = (va != NONE) & (vb != NONE)                # fights both rule sets give one verdict
    va, vb = np.where(single, va, -1), np.where(single, vb, -1)
    changed = va != vb              # in the order asked: beat need not be antisymmetric, so no fight is turned round
    u = samples
    population = math.comb(n, k) * math.comb(n - k, k) // 2
    kinds: dict[tuple, dict[str, Any]] = {}
    names = a.categories
    for i in np.flatnonzero(changed).tolist():
        x, y = fights[i]
        cats = tuple(names.get(int(sa.ranks[sevens.colex(np.array([sorted(np.searchsorted(deck, h))]), n)[0]]),
                               "?") for h in (x, y)) if sa.ranked is None and k == 5 else ("hand", "hand")
        key = (*cats, int(va[i]), int(vb[i]))
        kind = kinds.setdefault(key, {"hands": list(cats), "from": int(va[i]), "to": int(vb[i]), "count": 0,
                                      "examples": []})
        kind["count"] += 1 if i < u else 0
        if len(kind["examples"]) < EXAMPLES:
            kind["examples"].append((a.notation.format(list(x)), a.notation.format(list(y))))
    hit = int(changed[:u].sum())
    return Sampled(seed, u, hit, population, _wilson(hit, u), len(fights) - u, int(changed[u:].sum()),
                   sorted(kinds.values(), key=lambda kd: (-kd["count"], kd["hands"], kd["from"], kd["to"])))


def _results(engine: "Engine", fights: list, fast: Tabled | None) -> list[int]:
    """Each fight's beat: NONE where the rules give some hand several ranks (the verdict's fault)
    or fail on it (a batch that fails is asked again by halves to find which)."""
    try:
        return [NONE if v.fault else v.result for v in verdicts(engine.evaluator(fights), fights, table=fast)]
    except RuntimeError as exc:
        raise_if_stopped(exc)               # a budget that ran out is a RuntimeError too: it stops
        if len(fights) == 1:
            return [NONE]
        half = len(fights) // 2
        return _results(engine, fights[:half], fast) + _results(engine, fights[half:], fast)


def _wilson(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (hits of n).

    >>> [round(x, 4) for x in _wilson(0, 100_000)]
    [0.0, 0.0]
    >>> [round(x, 3) for x in _wilson(50, 100)]
    [0.404, 0.596]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _restricted(table: FiveTable, cards: Sequence[int]) -> Strengths:
    """A table's strengths of the hands of ``cards`` alone (a subset of its deck), in colex order
    of ``cards``: every hand of the smaller deck is a hand of the larger, where the rules gave it
    its value (values stay comparable: only their order matters here)."""
    if list(table.cards) == list(cards):
        return Strengths(table.ranks, table.values)
    where = {c: i for i, c in enumerate(table.cards)}
    places = np.array([where[c] for c in cards], dtype=np.int64)
    rows = sevens.colex(places[sevens.five_hands(len(cards))], len(table.cards))
    return Strengths(table.ranks[rows], table.values[rows])


def _tables(engines: Sequence["Engine"], progress: Progress | None, cache: bool) -> list[FiveTable] | None:
    """Each rule set's five-card table, or None (said on stderr, with why: the user waits longer)
    when one of them has none, e.g. for a hand without exactly one rank."""
    try:
        return five_card_tables(engines, progress, cache=cache)
    except TableError as exc:
        say(f"no five-card table ({exc}); asking every hand of both rule sets one "
             "chunk at a time instead, which is slower and not cached")
        return None


def compare(a: "Engine", b: "Engine", cards: Sequence[int], sa: Strengths, sb: Strengths,
            unproven: str | None = None) -> Diff:
    """The Diff of two rule sets' strengths of the same hands (colex order of ``cards``); the
    fights are counted by the strengths only where both rule sets are proven to order hands by
    them (``unproven``: why not; engine/judging/proof.py)."""
    total = len(sa.ranks)
    result = Diff(a.name, b.name, total)
    names = (a.categories, b.categories)
    ok = np.ones(total, dtype=bool)
    for name, s in zip((a.name, b.name), (sa, sb)):
        if s.ranked is not None:
            ok &= s.ranked
            missing = int(total - np.count_nonzero(s.ranked))
            if missing:
                result.unranked[name] = missing
    hands = np.flatnonzero(ok)
    ra, rb = sa.ranks[hands], sb.ranks[hands]
    _categories(result, names, ra, rb)
    ranked = len(hands)
    result.pairs = ranked * (ranked - 1) // 2
    result.unproven = unproven
    if not ranked or unproven:
        return result
    groups = _groups(hands, ra, sa.classes[hands], sb.classes[hands])
    labels, lab = np.unique(groups.ra, return_inverse=True)
    counts = _kinds(groups.ga, groups.gb, groups.n, lab, len(labels))
    order = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    for (x, y, va, vb), n in order:
        p, q = _first_pair(groups.ga, groups.gb, lab, x, y, (va, vb))
        xs, ys = groups.spread(p, REPRESENTATIVES), groups.spread(q, CANDIDATES)
        result.changed += n
        rx, ry = int(labels[x]), int(labels[y])
        result.kinds.append({"hands": [names[0].get(rx, f"rank {rx}"), names[0].get(ry, f"rank {ry}")],
                             "from": va, "to": vb, "count": n,
                             "example": _example(a, b, cards, xs, ys, va, vb)})
    return result


def _categories(result: Diff, names: tuple[dict, dict], ra: np.ndarray, rb: np.ndarray) -> None:
    """Hands that change category, and hands that keep it under another rank number."""
    ua, ia = np.unique(ra, return_inverse=True)
    ub, ib = np.unique(rb, return_inverse=True)
    counts = np.bincount(ia.astype(np.int64) * len(ub) + ib, minlength=len(ua) * len(ub))
    moves = [(int(counts[i * len(ub) + j]), int(ua[i]), int(ub[j]))
             for i in range(len(ua)) for j in range(len(ub)) if counts[i * len(ub) + j]]
    for n, r1, r2 in sorted(moves, key=lambda m: (-m[0], m[1], m[2])):
        c1, c2 = names[0].get(r1, f"rank {r1}"), names[1].get(r2, f"rank {r2}")
        if c1 != c2:
            result.categories.append({"from": c1, "to": c2, "count": n})
        elif r1 != r2:
            result.renumbered.append({"category": c1, "from": r1, "to": r2, "count": n})


@dataclass
class _Groups:
    """The hands grouped by (class under A, class under B), the groups in ascending order of that
    pair: ``ga``, ``gb`` the classes (from 0), ``n`` the hands, ``ra`` the rank under A;
    ``hands`` every hand's colex index, group by group (ascending within a group) from ``starts``."""
    ga: np.ndarray
    gb: np.ndarray
    n: np.ndarray
    ra: np.ndarray
    hands: np.ndarray
    starts: np.ndarray

    def spread(self, g: int, k: int) -> np.ndarray:
        """Up to k hands of group g, evenly spread over it (the first ones by index tend to share
        their lowest cards with the first ones of another group: no disjoint fight among them)."""
        lo, n = int(self.starts[g]), int(self.n[g])
        return self.hands[lo + np.unique(np.linspace(0, n - 1, num=min(k, n)).round().astype(np.int64))]


def _groups(hands: np.ndarray, ra: np.ndarray, ga: np.ndarray, gb: np.ndarray) -> _Groups:
    ga = ga.astype(np.int64) - int(ga.min())
    gb = gb.astype(np.int64) - int(gb.min())
    width = int(gb.max()) + 1
    code = ga * width + gb
    order = np.argsort(code, kind="stable")              # stable: hands ascend within a group
    code = code[order]
    starts = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
    n = np.diff(np.r_[starts, len(code)])
    return _Groups(ga=code[starts] // width, gb=code[starts] % width, n=n,
                   ra=np.minimum.reduceat(ra[order], starts), hands=hands[order], starts=starts)


def _kinds(ga: np.ndarray, gb: np.ndarray, n: np.ndarray, lab: np.ndarray, labels: int
           ) -> dict[tuple[int, int, int, int], int]:
    """The changed pairs of hands, counted: {(label of the first, label of the second, verdict
    under A, verdict under B): pairs}, over groups in ascending (ga, gb) order of ``n`` hands each
    and label ``lab`` (0..labels-1).  The first of a pair of groups p > q is p (A finds it
    stronger, or B when A finds them equal), so a pair changes its verdict when
    - ga[p] == ga[q] (then gb[p] > gb[q]): fair under A, the first wins under B (NEW);
    - gb[p] == gb[q] (then ga[p] > ga[q]): the first wins under A, fair under B (EVEN);
    - gb[p] < gb[q]: the first wins under A, the second under B (WORSE: inversions of gb).
    Each is summed over the groups in O(labels * m log(m) ** 2), without listing pairs of groups."""
    m = len(n)
    n = n.astype(np.int64)
    out: dict[tuple[int, int, int, int], int] = {}

    def keep(kind: tuple[int, int], table: np.ndarray) -> None:
        for x, y in zip(*np.nonzero(table)):
            out[(int(x), int(y), *kind)] = int(table[x, y])

    # NEW: pairs within a class under A (one label each).
    new = np.zeros((labels, labels), dtype=np.int64)
    cs = np.flatnonzero(np.r_[True, ga[1:] != ga[:-1]])
    s, s2 = np.add.reduceat(n, cs), np.add.reduceat(n * n, cs)
    np.add.at(new, (lab[cs], lab[cs]), (s * s - s2) // 2)
    keep(NEW, new)
    # EVEN: pairs within a class under B, each group with the earlier groups of its class.
    even = np.zeros((labels, labels), dtype=np.int64)
    o = np.argsort(gb, kind="stable")
    gbo, no, labo = gb[o], n[o], lab[o]
    first = np.maximum.accumulate(np.where(np.r_[True, gbo[1:] != gbo[:-1]], np.arange(m), 0))
    for y in range(labels):
        w = np.where(labo == y, no, 0)
        before = np.cumsum(w) - w                          # weight of label y before each group
        np.add.at(even[:, y], labo, no * (before - before[first]))
    keep(EVEN, even)
    # WORSE: for each group p, the hands of label y in groups q < p with gb[q] > gb[p], by merging
    # halves bottom-up: at block size s, each group of a right half against the left half.
    worse = np.zeros((labels, labels), dtype=np.int64)
    big = int(gb.max()) + 2 if m else 2
    pos = np.arange(m)
    size = 1
    while size < m:
        block = pos // size
        left, right = np.flatnonzero(block % 2 == 0), np.flatnonzero(block % 2 == 1)
        key = (block[left] // 2) * big + gb[left]
        ordered = np.argsort(key, kind="stable")
        key, left = key[ordered], left[ordered]
        sup = block[right] // 2
        lo = np.searchsorted(key, sup * big + gb[right], side="right")
        hi = np.searchsorted(key, (sup + 1) * big, side="left")
        for y in range(labels):
            c = np.r_[0, np.cumsum(np.where(lab[left] == y, n[left], 0))]
            np.add.at(worse[:, y], lab[right], n[right] * (c[hi] - c[lo]))
        size *= 2
    keep(WORSE, worse)
    return out


def _first_pair(ga: np.ndarray, gb: np.ndarray, lab: np.ndarray, x: int, y: int,
                kind: tuple[int, int]) -> tuple[int, int]:
    """The first pair of groups (p, q), p > q (least p, then least q), of labels x and y that
    changes its verdict in this way (see :func:`_kinds`)."""
    m = len(ga)
    pos = np.arange(m)
    of_x, of_y = lab == x, lab == y
    if kind == NEW:
        p = int(np.argmax(of_x & np.r_[False, ga[1:] == ga[:-1]]))
        return p, int(np.searchsorted(ga, ga[p]))
    if kind == EVEN:
        earliest = np.full(int(gb.max()) + 1, m)
        np.minimum.at(earliest, gb[of_y], pos[of_y])
        p = int(np.argmax(of_x & (earliest[gb] < pos)))
        return p, int(earliest[gb[p]])
    most = np.maximum.accumulate(np.where(of_y, gb, -1))     # highest gb of label y so far
    p = int(np.argmax(of_x & (np.r_[-1, most[:-1]] > gb)))
    return p, int(np.argmax(of_y[:p] & (gb[:p] > gb[p])))


def _every_hand_strengths(engine: "Engine", cards: list[int], tick: Progress) -> Strengths:
    """Every hand's rank and strength class through every_hand (the way without a table: it
    copes with hands that get no rank, or several), put in colex order."""
    db = engine.evaluator(10 ** 6).compiled
    db.create("strength", "SELECT 0::BIGINT AS w, 0::BIGINT AS r, TRUE AS ok, [0::BIGINT] AS k, "
                          "[[0::BIGINT]] AS p WHERE FALSE")
    keep = {"keep": f'INSERT INTO "x_strength" SELECT s.w, s.r, s.n = 1, k.k, k.p '
                    f"FROM {RANKS} s LEFT JOIN {KEYS} k USING (w)",
            "not hands": 'SELECT count(*) FROM "_worlds" WHERE w NOT IN (SELECT w FROM {isHand})'}
    k = engine.hand_size
    not_hands = 0
    for out in every_hand(engine, cards, [I.GET_RANK, I.HAND_KEY, I.IS_HAND], keep, tick, k):
        not_hands += int(out["not hands"][0][0] or 0)
    db.create("ranked", 'SELECT w, r, ok, dense_rank() OVER (ORDER BY r, k) AS g FROM "x_strength"')
    rows = db.query('SELECT w, r, ok, g FROM "x_ranked"')
    shapes = db.query('SELECT DISTINCT r, p FROM "x_strength" WHERE ok')
    total = math.comb(len(cards), k)
    ranks = np.full(total, -1, dtype=np.int64)
    classes = np.zeros(total, dtype=np.int64)
    ranked = np.zeros(total, dtype=bool)      # a hand without any getRank row has no row here
    if rows:
        w, r, ok, g = (np.asarray(c) for c in zip(*rows))
        at = _colex_of_lex(w.astype(np.int64), len(cards), k)
        ranks[at], ranked[at], classes[at] = r, ok.astype(bool), g
    return Strengths(ranks, classes, ranked, _places(engine, shapes), not_hands == 0)


def _places(engine: "Engine", shapes: list[tuple]) -> Any:
    """FiveTable.places from every ranked hand's (rank, places of its key), or None (a rank with
    two shapes, a place twice, or places the rules write as strings)."""
    key = engine.evaluator(10 ** 6).compiled.program.preds.get(I.HAND_KEY)
    if key is not None and STR in (key.types[1], key.types[2]):
        return None
    return merge_places((rank, places or []) for rank, places in shapes)


def _colex_of_lex(w: np.ndarray, n: int, k: int = 5) -> np.ndarray:
    """The colex index of the hand of lexicographic index w (every_hand's, :func:`engine.check.unrank`):
    mirrored (position p -> n-1-p), lexicographic order is colex order reversed."""
    mirror = sevens.uncolex(math.comb(n, k) - 1 - w, n, k)
    return sevens.colex((n - 1 - mirror)[:, ::-1], n)


def _example(a: "Engine", b: "Engine", cards: Sequence[int], xs: np.ndarray, ys: np.ndarray, va: int,
             vb: int) -> dict[str, Any] | None:
    """Two disjoint hands, one of xs and one of ys (colex indices; the first such pair), and what
    each rule set's beat says of them."""
    k = a.hand_size
    px, py = sevens.uncolex(xs, len(cards), k), sevens.uncolex(ys, len(cards), k)
    disjoint = ~(px[:, :, None, None] == py[None, None, :, :]).any(axis=(1, 3))
    found = np.argwhere(disjoint)
    if not len(found):
        return None
    i, j = found[0]
    deck = np.asarray(cards, dtype=np.int64)
    hx, hy = deck[px[i]].tolist(), deck[py[j]].tolist()
    got = [e.fights([[hx, hy]])[0].result for e in (a, b)]
    return {"hands": [a.notation.format(hx), a.notation.format(hy)], "a": got[0], "b": got[1],
            "agrees": got == [va, vb]}
