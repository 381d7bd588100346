"""Judging batches of fights: N fights in, N results out, in order, bad ones marked.

A fight whose hands are five distinct cards each, sharing none, is judged from the class table
(engine.fast) when the analysis found the table sound for the loaded rules; every other fight, and
every fight under a rule set the table cannot speak for, is asked of the rules directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from .core import Engine
from .fast import Table
from .notation import InvalidCards

MIN_HANDS, MAX_HANDS = 2, 10


@dataclass
class Result:
    id: Any
    result: int
    winners: list[int]
    ranks: list[int]
    categories: list[str | None]
    error: str | None = None

    def as_dict(self) -> dict:
        out = {"id": self.id, "result": self.result, "winners": self.winners,
               "ranks": self.ranks, "categories": self.categories}
        if self.error:
            out["error"] = self.error
        return out


def verdict(winners: list[int], n: int) -> int:
    """The result code: two hands, the spec's beat (1, 2, 0); more, the single winner's number or 0."""
    if n == 2:
        return 1 if winners == [0] else 2 if winners == [1] else 0
    return winners[0] + 1 if len(winners) == 1 else 0


class Judge:
    """Judges fights with one engine, using its class table where that is sound."""

    def __init__(self, engine: Engine, fast: bool = True, table: Table | None = None):
        self.engine = engine
        self.table = table if table is not None else (Table(engine) if fast else None)
        self.fast = bool(self.table and self.table.fights_sound)

    def judge(self, fights: Sequence[Any], progress: Callable[[int], None] | None = None,
              building: Callable[[int], Callable[[int], None]] | None = None) -> list[Result]:
        """Judge fights in order; ``progress(n)`` after each, ``building(count)`` before the
        rules are asked about classes not yet in the table (it returns a progress function)."""
        parsed = [self._parse(i, f) for i, f in enumerate(fights)]
        if self.fast:
            keys = {self.table.class_of(h) for p in parsed if isinstance(p, tuple) for h in p[1]}
            keys.discard(None)
            missing = len(keys - set(self.table.entries))
            self.table.ensure(keys, progress=building(missing) if building and missing else None)
            self.fast = self.table.fights_usable
        out = []
        for p in parsed:
            out.append(p if isinstance(p, Result) else self._judge_one(*p))
            if progress:
                progress(1)
        return out

    def _parse(self, index: int, fight: Any) -> Result | tuple[Any, list[list[int]]]:
        ident = index + 1
        try:
            if not isinstance(fight, dict):
                raise InvalidCards("a fight is a mapping with `hands:`")
            ident = fight.get("id", ident)
            hands = fight.get("hands")
            if not isinstance(hands, list):
                raise InvalidCards("`hands` must be a list of hands")
            if not MIN_HANDS <= len(hands) <= MAX_HANDS:
                raise InvalidCards(f"a fight takes {MIN_HANDS} to {MAX_HANDS} hands, not {len(hands)}")
            return ident, [self.engine.cards(h) for h in hands]
        except InvalidCards as exc:
            n = len(fight.get("hands")) if isinstance(fight, dict) and isinstance(fight.get("hands"), list) else 0
            return Result(ident, -1, [], [-1] * n, [None] * n, str(exc))

    def _judge_one(self, ident: Any, hands: list[list[int]]) -> Result:
        if self.fast:
            entries = self._entries(hands)
            if entries is not None:
                keys = [(e.rank, e.key) for e in entries]
                best = max(keys)
                winners = [i for i, k in enumerate(keys) if k == best]
                ranks = [e.rank for e in entries]
                return Result(ident, verdict(winners, len(hands)), winners, ranks,
                              [self.engine.categories.get(r) for r in ranks])
        return self._plain(ident, hands)

    def _entries(self, hands: list[list[int]]):
        """The table's entries when it can speak for this fight: valid hands, no shared card."""
        seen: set[int] = set()
        entries = []
        for h in hands:
            key = self.table.class_of(h)
            if key is None or seen & set(h):
                return None
            seen.update(h)
            entry = self.table.entries.get(key)
            if entry is None or not entry.is_hand or entry.rank is None:
                return None
            entries.append(entry)
        return entries

    def _plain(self, ident: Any, hands: list[list[int]]) -> Result:
        ranks = [self.engine.get_rank(h) for h in hands]
        categories = [self.engine.categories.get(r) for r in ranks]
        try:
            winners = self.engine.winners(hands)
        except InvalidCards as exc:
            return Result(ident, -1, [], ranks, categories, str(exc))
        result = self.engine.beat(*hands) if len(hands) == 2 else verdict(winners, len(hands))
        return Result(ident, result, winners, ranks, categories)


def judge(engine: Engine, fights: Iterable[Any], fast: bool = True) -> list[Result]:
    """Judge fights (mappings with `hands:`) with an engine."""
    return Judge(engine, fast).judge(list(fights))
