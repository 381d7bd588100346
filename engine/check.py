"""`poker check`: the proof obligations of the Event-B model, discharged by evaluation.

- getRank is total and single-valued: each of the 2,598,960 hands is a hand and gets one rank;
- the categories' frequencies are the combinatorial table;
- beat is antisymmetric and transitive (beat_Bonus), on sampled fights and triples, half of them
  within one category (where the tie-break axioms decide);
- beatRank agrees with getRank, and the class table agrees with the rules, on a plain sample.

Every hand is evaluated through the loaded rules: once per class of the class table when the
analysis of engine.fast finds it sound for these rules (7,462 evaluations stand for all hands), one
hand at a time otherwise (slow: tens of minutes).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from .cli import CommandError, add_rules_option, load_engine, print_json
from .core import Engine, Var
from .fast import ClassKey, Table

# The number of 5-card hands of each category in a 52-card deck (the combinatorial table).
EXPECTED = {"royal flush": 4, "straight flush": 36, "four of a kind": 624, "full house": 3744,
            "flush": 5108, "straight": 10200, "three of a kind": 54912, "two pair": 123552,
            "one pair": 1098240, "high card": 1302540}


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

    @property
    def ok(self) -> bool:
        return all(o.holds for o in self.obligations)

    def as_dict(self) -> dict:
        return {"rules": self.rules, "total": self.total, "frequencies": self.frequencies,
                "obligations": {o.name: {"holds": o.holds, "checked": o.checked,
                                         "counterexample": o.counterexample} for o in self.obligations},
                "method": self.method, "seconds": round(self.seconds, 2)}


Progress = Callable[[str, int], Callable[[int], None]]


def check(engine: Engine, samples: int = 100_000, plain_samples: int = 300, seed: int = 0,
          cache: bool = True, progress: Progress | None = None) -> Report:
    start = time.perf_counter()
    table = Table(engine, cache=cache)
    tick = progress or (lambda what, total: (lambda n: None))
    classes: dict[ClassKey, int] = {}
    if table.usable:
        classes = table.all_classes()
        table.ensure(classes, progress=tick("hands (classes)", len(classes) - len(table.entries)))
        report = _by_classes(engine, table, classes)
        report.method = f"{len(classes):,} classes of hands through the rules (class table)"
    else:
        report = _one_by_one(engine, table, tick)
        report.method = "every hand through the rules, one at a time (" + "; ".join(table.problems) + ")"
    rng = random.Random(seed)
    sampler = _Sampler(engine, table, rng, classes if table.usable else {})
    beat = sampler.beat_by_keys if table.usable and table.fights_usable else sampler.beat_by_rules
    how = "keys of the class table" if beat == sampler.beat_by_keys else "the rules"
    report.obligations += [
        _antisymmetry(sampler, beat, samples, how, tick("fights", samples)),
        _transitivity(sampler, beat, samples, how, tick("triples", samples)),
        _beat_rank(sampler, plain_samples, tick("plain fights", plain_samples)),
    ]
    if table.usable and table.fights_usable:
        report.obligations.append(_table_agrees(sampler, plain_samples, tick("plain fights", plain_samples)))
    report.seconds = time.perf_counter() - start
    return report


# ---- hands --------------------------------------------------------------------------------


def _by_classes(engine: Engine, table: Table, classes: dict[ClassKey, int]) -> Report:
    freq: Counter[str] = Counter()
    bad_rank = bad_hand = None
    for key, count in classes.items():
        entry = table.entries[key]
        if not entry.is_hand and bad_hand is None:
            bad_hand = engine.notation.format(table.representative(key))
        if entry.rank is None:
            if bad_rank is None:
                bad_rank = engine.notation.format(table.representative(key))
            continue
        freq[engine.categories.get(entry.rank, f"rank {entry.rank}")] += count
    return _hand_report(engine, sum(classes.values()), freq, bad_hand, bad_rank, "all hands, by class")


def _one_by_one(engine: Engine, table: Table, tick: Progress) -> Report:
    ids = sorted(table.cards) or list(range(1, 53))
    total = sum(1 for _ in itertools.combinations(ids, 5))
    step = tick("hands", total)
    freq: Counter[str] = Counter()
    bad_rank = bad_hand = None
    for hand in itertools.combinations(ids, 5):
        with engine.sets(list(hand)) as (sid,):
            ranks = {r[0] for r in engine.ask("getRank", sid, Var("R"))}
        if len(ranks) != 1 and bad_rank is None:
            bad_rank = engine.notation.format(hand)
        if ranks == {-1} and bad_hand is None:
            bad_hand = engine.notation.format(hand)
        if len(ranks) == 1:
            r = ranks.pop()
            freq[engine.categories.get(r, f"rank {r}")] += 1
        step(1)
    return _hand_report(engine, total, freq, bad_hand, bad_rank, "all hands, one by one")


def _hand_report(engine: Engine, total: int, freq: Counter, bad_hand, bad_rank, checked: str) -> Report:
    report = Report(engine.name, total, dict(sorted(freq.items(), key=lambda kv: kv[1])))
    report.obligations.append(Obligation("isHand: every 5-card set is a hand", bad_hand is None,
                                         checked, bad_hand))
    report.obligations.append(Obligation("getRank total and single-valued", bad_rank is None,
                                         checked, bad_rank))
    wrong = {c: (freq.get(c, 0), n) for c, n in EXPECTED.items() if freq.get(c, 0) != n}
    extra = {c: (n, 0) for c, n in freq.items() if c not in EXPECTED}
    wrong.update(extra)
    report.obligations.append(Obligation(
        "frequencies equal the combinatorial table", not wrong and total == sum(EXPECTED.values()),
        checked, {c: {"got": g, "expected": e} for c, (g, e) in wrong.items()} or None))
    return report


# ---- fights ------------------------------------------------------------------------------


class _Sampler:
    """Random hands: uniform, or of a given class (for fights within one category)."""

    def __init__(self, engine: Engine, table: Table, rng: random.Random, classes: dict[ClassKey, int]):
        self.engine, self.table, self.rng = engine, table, rng
        self.ids = sorted(table.cards) or list(range(1, 53))
        self.by_vs, self.suits = table.by_value_suit, table.suits
        self.suits_of = {v: [s for s in self.suits if (v, s) in self.by_vs] for v, _ in table.cards.values()}
        self.by_rank: dict[int, list[ClassKey]] = {}
        self.weights: dict[int, list[int]] = {}
        for key, count in classes.items():
            entry = table.entries.get(key)
            if entry is not None and entry.rank is not None:
                self.by_rank.setdefault(entry.rank, []).append(key)
                self.weights.setdefault(entry.rank, []).append(count)

    def hands(self, n: int) -> list[list[int]]:
        """n disjoint hands; every other call, all of one category."""
        if self.by_rank and self.rng.random() < 0.5:
            rank = self.rng.choice(sorted(self.by_rank))
            while True:
                keys = self.rng.choices(self.by_rank[rank], self.weights[rank], k=n)
                hands = [self.realise(k) for k in keys]
                if len({c for h in hands for c in h}) == 5 * n:
                    return hands
        cards = self.rng.sample(self.ids, 5 * n)
        return [cards[5 * i:5 * i + 5] for i in range(n)]

    def realise(self, key: ClassKey) -> list[int]:
        """A random hand of a class."""
        values, flush = key
        while True:
            if flush:
                s = self.rng.choice(self.suits)
                hand = [self.by_vs.get((v, s)) for v in values]
            else:
                hand = []
                for v, n in Counter(values).items():
                    hand += [self.by_vs[(v, s)] for s in self.rng.sample(self.suits_of[v], n)]
            if None not in hand and self.table.class_of(hand) == key:
                return hand

    def beat_by_keys(self, a: list[int], b: list[int]) -> int:
        ka, kb = (self._key(a), self._key(b))
        return 1 if ka > kb else 2 if ka < kb else 0

    def _key(self, hand: list[int]) -> tuple:
        entry = self.table.entries[self.table.class_of(hand)]
        return entry.rank, entry.key

    def beat_by_rules(self, a: list[int], b: list[int]) -> int:
        return self.engine.beat(a, b)

    def show(self, *hands: list[int]) -> list[str]:
        return [self.engine.notation.format(h) for h in hands]


def _antisymmetry(s: _Sampler, beat, n: int, how: str, step) -> Obligation:
    mirror = {1: 2, 2: 1, 0: 0}
    for _ in range(n):
        a, b = s.hands(2)
        ab, ba = beat(a, b), beat(b, a)
        step(1)
        if ab not in mirror or ba != mirror[ab]:
            return Obligation("beat antisymmetric", False, f"{n:,} fights by {how}",
                              {"fight": s.show(a, b), "beat(a,b)": ab, "beat(b,a)": ba})
    return Obligation("beat antisymmetric", True, f"{n:,} fights by {how}")


def _transitivity(s: _Sampler, beat, n: int, how: str, step) -> Obligation:
    for _ in range(n):
        a, b, c = s.hands(3)
        step(1)
        if beat(a, b) == 1 and beat(b, c) == 1 and beat(a, c) != 1:
            return Obligation("beat transitive (beat_Bonus)", False, f"{n:,} triples by {how}",
                              {"hands": s.show(a, b, c), "beat(a,c)": beat(a, c)})
    return Obligation("beat transitive (beat_Bonus)", True, f"{n:,} triples by {how}")


def _beat_rank(s: _Sampler, n: int, step) -> Obligation:
    eng = s.engine
    for _ in range(n):
        a, b = s.hands(2)
        ra, rb = eng.get_rank(a), eng.get_rank(b)
        expected = 1 if ra > rb else 2 if ra < rb else 0
        got = eng.beat_rank(a, b)
        step(1)
        if got != expected:
            return Obligation("beatRank agrees with getRank", False, f"{n:,} fights by the rules",
                              {"fight": s.show(a, b), "ranks": [ra, rb], "beatRank": got})
    return Obligation("beatRank agrees with getRank", True, f"{n:,} fights by the rules")


def _table_agrees(s: _Sampler, n: int, step) -> Obligation:
    for _ in range(n):
        a, b = s.hands(2)
        fast, plain = s.beat_by_keys(a, b), s.engine.beat(a, b)
        step(1)
        if fast != plain:
            return Obligation("class table agrees with the rules", False, f"{n:,} fights",
                              {"fight": s.show(a, b), "table": fast, "rules": plain})
    return Obligation("class table agrees with the rules", True, f"{n:,} fights")


# ---- command -----------------------------------------------------------------------------


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="discharge the proof obligations over all 2,598,960 hands")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--samples", type=int, default=100_000, metavar="N",
                   help="sampled fights and triples for antisymmetry and transitivity (default 100000)")
    p.add_argument("--plain-samples", type=int, default=300, metavar="N",
                   help="fights asked of the rules directly, for beatRank and the table (default 300)")
    p.add_argument("--seed", type=int, default=0, help="seed of the samples (default 0)")
    p.add_argument("--no-cache", action="store_true", help="ignore the cached class table; ask the rules again")
    add_rules_option(p)
    p.set_defaults(run=run_check)


def run_check(args: argparse.Namespace) -> int:
    if args.samples < 1 or args.plain_samples < 0:
        raise CommandError("--samples must be at least 1 and --plain-samples at least 0")
    engine = load_engine(args)
    report = check(engine, args.samples, args.plain_samples, args.seed, cache=not args.no_cache,
                   progress=_bars() if sys.stderr.isatty() else None)
    if args.json:
        print_json(report.as_dict())
    else:
        print(f"rules: {report.rules}; {report.total:,} hands; {report.method}; {report.seconds:.1f} s")
        print(f"{'category':<18}{'hands':>12}{'expected':>12}")
        for category, count in sorted(report.frequencies.items(), key=lambda kv: -EXPECTED.get(kv[0], 0)):
            mark = "" if EXPECTED.get(category) == count else "   <-- differs"
            print(f"{category:<18}{count:>12,}{EXPECTED.get(category, 0):>12,}{mark}")
        print()
        for o in report.obligations:
            print(f"{'holds ' if o.holds else 'FAILS '} {o.name} ({o.checked})")
            if not o.holds:
                print(f"       counterexample: {o.counterexample}")
    return 0 if report.ok else 1


def _bars() -> Progress:
    from tqdm import tqdm
    bars: list = []

    def make(what: str, total: int):
        for bar in bars:
            bar.close()
        bar = tqdm(total=total, desc=what, unit="", file=sys.stderr, leave=False)
        bars.append(bar)
        return bar.update
    return make
