"""`poker diff A B`: what changes between two rule sets, over all 2,598,960 hands.

Each rule set is asked, through its compiled rules, about every hand: its rank (and so its
category) and its tie-break key (handKey).  Hands then compare:

- **categories**: how many hands move from one category to another (``flush -> straight``), and
  how many keep their category under another rank number (``flush: rank 6 -> 5``);
- **fights**: the unordered pairs of distinct hands (2,598,960 x 2,598,959 / 2 of them; the two
  hands of a pair may share cards) whose verdict changes, judged by each rule set's strength
  (rank, then key), by the categories (under A) of the two hands.  Each kind of change
  (``flush vs straight: 1 -> 2``: the flush won, now the straight does) comes with an example
  fight of two disjoint hands, asked of both rule sets' own ``beat``: the example is the rules'
  word, the count is the strength order's (which `poker check` holds to beat on samples).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import interface as I
from .check import RANKS, Progress, every_hand, unrank

if TYPE_CHECKING:
    from .core import Engine

KEYS = "(SELECT w, list(a3 ORDER BY a1, a2) AS k FROM {handKey} WHERE a0 = 1 GROUP BY w)"
REPRESENTATIVES = 8     # hands kept per strength class, to find disjoint example fights
COUNTED = ("unordered pairs of distinct hands (which may share cards), each judged once by each "
           "rule set's strength: rank, then the tie-break key (handKey); the first hand is the one "
           "A finds stronger (B, when A finds them equal)")


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

    def as_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "hands": self.hands, "categories": self.categories,
                "renumbered": self.renumbered, "unranked": self.unranked,
                "fights": {"counted": COUNTED, "pairs": self.pairs, "changed": self.changed,
                           "kinds": self.kinds}}

    def lines(self) -> list[str]:
        out = [f"{self.a} -> {self.b}: {self.hands:,} hands"]
        moved = sum(c["count"] for c in self.categories)
        out.append(f"categories: {moved:,} hands change category")
        out += [f"  {c['from']} -> {c['to']}: {c['count']:,}" for c in self.categories]
        if self.renumbered:
            out.append("ranks renumbered (same category, another rank number):")
            out += [f"  {r['category']}: rank {r['from']} -> {r['to']}: {r['count']:,}" for r in self.renumbered]
        for name, n in self.unranked.items():
            out.append(f"  {n:,} hands get no single rank from {name}")
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


def _words(verdict: int) -> str:
    return {1: "the first wins", 2: "the second wins", 0: "fair"}[verdict]


def diff(a: "Engine", b: "Engine", progress: Progress | None = None) -> Diff:
    """Compare two engines' rule sets over every hand (both must be compiled)."""
    tick = progress or (lambda what, total: (lambda n: None))
    for engine in (a, b):
        if engine.fallback is not None:
            raise ValueError(f"{engine.name}: diff needs compiled rules ({engine.fallback})")
    cards = a.deck
    if cards != b.deck:
        raise ValueError("the two rule sets have different decks")
    strengths = [_strengths(e, cards, tick) for e in (a, b)]
    result = Diff(a.name, b.name, len(strengths[0][0]))
    db = b.evaluator(10 ** 6).compiled          # compare in B's database: A's columns moved over
    ra, ga = strengths[0]
    db.create_columns("a", {"w": range(len(ra)), "ra": ra, "ga": ga})
    db.create("joined", 'SELECT x.w, x.ra, x.ga, s.r AS rb, s.g AS gb FROM "x_a" x JOIN "x_ranked" s USING (w)')
    names = (a.categories, b.categories)
    for r1, r2, n in db.query('SELECT ra, rb, count(*) FROM "x_joined" GROUP BY ra, rb ORDER BY 3 DESC'):
        c1, c2 = names[0].get(r1, f"rank {r1}"), names[1].get(r2, f"rank {r2}")
        if r1 < 0 or r2 < 0:
            continue
        if c1 != c2:
            result.categories.append({"from": c1, "to": c2, "count": n})
        elif r1 != r2:
            result.renumbered.append({"category": c1, "from": r1, "to": r2, "count": n})
    for name, (ranks, _) in zip((a.name, b.name), strengths):
        missing = sum(1 for r in ranks if r < 0)
        if missing:
            result.unranked[name] = missing
    db.create("groups", f'SELECT row_number() OVER () AS id, ga, gb, min(ra) AS ra, count(*) AS n, '
                        f'list(w ORDER BY w)[1:{REPRESENTATIVES}] AS ws FROM "x_joined" WHERE ra >= 0 AND rb >= 0 '
                        'GROUP BY ga, gb')
    # Every unordered pair of hands once, the stronger under A first (under B when A finds them equal).
    kinds = db.query('SELECT x.ra, y.ra, CASE WHEN x.ga > y.ga THEN 1 ELSE 0 END AS va, '
                     'CASE WHEN x.gb > y.gb THEN 1 WHEN x.gb < y.gb THEN 2 ELSE 0 END AS vb, '
                     'sum(x.n * y.n), min(x.id * 4294967296 + y.id) '
                     'FROM "x_groups" x, "x_groups" y WHERE (x.ga > y.ga OR (x.ga = y.ga AND x.gb > y.gb)) '
                     'AND (CASE WHEN x.ga > y.ga THEN 1 ELSE 0 END) <> '
                     '(CASE WHEN x.gb > y.gb THEN 1 WHEN x.gb < y.gb THEN 2 ELSE 0 END) '
                     'GROUP BY ALL ORDER BY 5 DESC')
    ranked = db.query('SELECT sum(n) FROM "x_groups"')[0][0] or 0
    result.pairs = int(ranked) * (int(ranked) - 1) // 2
    for rx, ry, va, vb, n, ids in kinds:
        xs, ys = (db.query(f'SELECT ws FROM "x_groups" WHERE id = {i}')[0][0] for i in divmod(int(ids), 4294967296))
        result.changed += int(n)
        result.kinds.append({"hands": [names[0][rx], names[0][ry]], "from": va, "to": vb, "count": int(n),
                             "example": _example(a, b, cards, xs, ys, va, vb)})
    return result


def _strengths(engine: "Engine", cards: list[int], tick: Progress) -> tuple[list[int], list[int]]:
    """Every hand's rank (-1: not exactly one) and strength class (dense, by rank then key)."""
    db = engine.evaluator(10 ** 6).compiled
    db.create("strength", "SELECT 0::BIGINT AS w, 0::BIGINT AS r, [0::BIGINT] AS k WHERE FALSE")
    keep = {"keep": f'INSERT INTO "x_strength" SELECT s.w, CASE WHEN s.n = 1 THEN s.r ELSE -1 END, k.k '
                    f"FROM {RANKS} s LEFT JOIN {KEYS} k USING (w)"}
    for _ in every_hand(engine, cards, [I.GET_RANK, I.HAND_KEY], keep, tick):
        pass
    db.create("ranked", 'SELECT w, r, dense_rank() OVER (ORDER BY r, k) AS g FROM "x_strength"')
    rows = db.query('SELECT r, g FROM "x_ranked" ORDER BY w')
    return [r for r, _ in rows], [g for _, g in rows]


def _example(a: "Engine", b: "Engine", cards: list[int], xs: list[int], ys: list[int], va: int, vb: int
             ) -> dict[str, Any] | None:
    """Two disjoint hands of the two classes, and what each rule set's beat says of them."""
    for x, y in itertools.product(xs, ys):
        hx, hy = unrank(x, cards), unrank(y, cards)
        if not set(hx) & set(hy):
            got = [e.fights([[hx, hy]])[0].result for e in (a, b)]
            return {"hands": [a.notation.format(hx), a.notation.format(hy)], "a": got[0], "b": got[1],
                    "agrees": got == [va, vb]}
    return None
