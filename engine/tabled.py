"""Fights read off the five-card table, where the loaded rules are proven to allow it.

A fight of two hands is, in the rules, a world of two sets and the rules' ``beat``.  When
:func:`engine.proof.fight_proof` holds, that answer is the table's order of the two hands'
values for every fight of two hands that are five different cards of the deck each and share no
card, and each hand's getRank is the table's rank.  :class:`TableFights` answers exactly those
fights by two lookups, and leaves every other one (a card off the deck, a card given twice, four
cards, a shared card) to the rules, which say why it is not a valid fight.

>>> from engine import Engine
>>> fast = Engine().table_fights(build=True)         # doctest: +SKIP
>>> fast.verdicts([[(1, 2, 3, 4, 5), (14, 15, 16, 17, 18)]])[0].result   # doctest: +SKIP
0
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Sequence

import numpy as np

from . import sevens

if TYPE_CHECKING:
    from .evaluators import Verdict
    from .table import FiveTable

WINNERS = {1: (0,), 2: (1,), 0: (0, 1)}


class TableFights:
    """Two-hand fights answered off a table whose fight proof holds (made by Engine.table_fights)."""

    def __init__(self, table: "FiveTable"):
        self.table = table
        cards = np.asarray(table.cards, dtype=np.int64)
        self._low, self._high = int(cards.min()), int(cards.max())
        self._position = np.full(self._high - self._low + 1, -1, dtype=np.int64)   # card id -> deck position
        self._position[cards - self._low] = np.arange(len(cards))
        self._where = {int(c): i for i, c in enumerate(table.cards)}
        n = len(cards)
        self._binom = [[sevens._c(p, k) for p in range(n)] for k in range(6)]
        self._made: dict[tuple[int, int, int], "Verdict"] = {}    # verdicts are values: one of each

    def index(self, hand: Sequence[int]) -> int | None:
        """The colex index of five different cards of the deck, else None."""
        if len(hand) != 5:
            return None
        try:
            p = sorted(self._where[c] for c in hand)
        except (KeyError, TypeError):
            return None
        if p[0] == p[1] or p[1] == p[2] or p[2] == p[3] or p[3] == p[4]:
            return None
        b = self._binom
        return b[1][p[0]] + b[2][p[1]] + b[3][p[2]] + b[4][p[3]] + b[5][p[4]]

    def verdict(self, a: Sequence[int], b: Sequence[int]) -> "Verdict | None":
        """The verdict of one fight, or None when the table does not answer it."""
        from .evaluators import Verdict
        ia, ib = self.index(a), self.index(b)
        if ia is None or ib is None or set(a) & set(b):
            return None
        va, vb = self.table.values[ia], self.table.values[ib]
        result = 1 if va > vb else 2 if va < vb else 0
        ranks = self.table.ranks
        return Verdict(result, WINNERS[result], (int(ranks[ia]), int(ranks[ib])), beats={(0, 1): result})

    def verdicts(self, fights: Sequence[Sequence[Sequence[int]]]) -> list["Verdict | None"]:
        """Each two-hand fight's verdict, or None where the table does not answer it: all at once."""
        from .evaluators import Verdict
        m = len(fights)
        out: list[Verdict | None] = [None] * m
        two = [i for i, f in enumerate(fights) if len(f) == 2 and len(f[0]) == 5 and len(f[1]) == 5]
        if not two:
            return out
        try:
            ids = np.fromiter(itertools.chain.from_iterable(itertools.chain.from_iterable(fights[i] for i in two)),
                              dtype=np.int64, count=10 * len(two)).reshape(-1, 10)
        except (OverflowError, ValueError, TypeError):       # not card ids at all: the rules say why
            return out
        inside = (ids >= self._low) & (ids <= self._high)
        pos = np.where(inside, self._position[np.clip(ids - self._low, 0, len(self._position) - 1)], -1)
        # ten different cards of the deck: five different cards each, and no card shared
        ok = (pos >= 0).all(axis=1) & (np.diff(np.sort(pos, axis=1), axis=1) > 0).all(axis=1)
        pos[~ok] = np.arange(10)
        a, b = np.sort(pos[:, :5], axis=1), np.sort(pos[:, 5:], axis=1)
        n = len(self.table.cards)
        ia, ib = sevens.colex(a, n), sevens.colex(b, n)
        va, vb = self.table.values[ia], self.table.values[ib]
        ra, rb = self.table.ranks[ia].tolist(), self.table.ranks[ib].tolist()
        results = np.where(va > vb, 1, np.where(va < vb, 2, 0)).tolist()
        made = self._made
        for j, i in enumerate(two):
            if ok[j]:
                key = (results[j], ra[j], rb[j])
                v = made.get(key)
                if v is None:
                    r = key[0]
                    v = made[key] = Verdict(r, WINNERS[r], key[1:], beats={(0, 1): r})
                out[i] = v
        return out
