"""Fights and showdowns read off the five-card table, where the loaded rules are proven to allow it.

A fight of two hands is, in the rules, a world of two sets and the rules' ``beat``. When
engine.policy's "fights" path holds (:func:`engine.judging.proof.fight_proof`), that answer is the
table's order of the two hands' values for every fight of two hands that are five different
cards of the deck each and share no card, and each hand's getRank is the table's rank.

A showdown is a world of the players' cards, the board and every five of them. When
engine.policy's "showdowns" path holds (:func:`engine.judging.showdownproof.showdown_proof`, and mayPlay within
candidate: :func:`engine.judging.showdownproof.candidate_proof`) and its cards are all different cards of the
deck, the fives each player may play (mayPlay) and whether the showdown is valid depend only on
its shape (the game, each player's number of cards, the board's): they are asked of the rules
once per shape, about a showdown of the deck's first cards. Each player then plays the first of
the fives of highest table value it may play, and the winners are the players that no other
player's five beats.

:class:`Tabled` answers exactly those fights and showdowns, and leaves every other one (a card
off the deck, a card given twice, a shared card, an invalid shape) to the rules, which also say
why it is not valid.

>>> from engine import Engine
>>> eng = Engine()
>>> tabled = eng.tabled(build=True)      # the table: from the cache, or built in a few seconds
>>> tabled.fights, tabled.showdowns      # both proofs hold for the standard rules
(True, True)
>>> ah_to_5h, ad_to_5d, shared = (1, 2, 3, 4, 5), (14, 15, 16, 17, 18), (1, 15, 16, 17, 18)
>>> [v and v.result for v in tabled.verdicts([[ah_to_5h, ad_to_5d], [ah_to_5h, shared]])]
[0, None]

Two five-high straight flushes tie; a fight that shares a card is left to the rules.
"""

from __future__ import annotations

import itertools
import math
import threading
from typing import Any, Iterable, Sequence

import numpy as np

from engine.evaluators import Verdict, World
from engine.evaluators.workers import SMALL_BATCH
from engine.interface import EngineView
from engine.judging import policy, proofcache
from engine.judging.fivetable import FiveTable
from engine.judging.shapes import fives_of_shapes, of_allowed
from engine.poker import sevens

WINNERS = {1: (0,), 2: (1,), 0: (0, 1)}


class Tabled:
    """Fights and showdowns answered off a table, each kind once its proof holds (made by
    :meth:`Engine.tabled`; each proof is made the first time its kind is asked)."""

    def __init__(self, engine: EngineView, table: "FiveTable"):
        self.engine, self.table = engine, table
        cards = np.asarray(table.cards, dtype=np.int64)
        self._low, self._high = int(cards.min()), int(cards.max())
        self._position = np.full(self._high - self._low + 1, -1, dtype=np.int64)   # card id -> deck position
        self._position[cards - self._low] = np.arange(len(cards))
        self._made: dict[tuple[int, int, int], "Verdict"] = {}    # verdicts are values: one of each
        self._shapes: dict[tuple, Any] = {}
        self._lock = threading.Lock()
        proofcache.adopt(engine, table)       # the proofs (and showdown shapes) a run before made for these rules
        for shape, allowed in proofcache.shapes(table).items():
            self._shapes[shape] = None if allowed is None else of_allowed(shape, allowed)
        self._where: dict[int, int] | None = None                 # card id -> deck position (beat)
        self._allowed: list[bool | None] = [None, None]            # fights, showdowns (engine.policy)
        n = len(table.cards)
        self._colex = [[sevens._c(p, i + 1) for p in range(n)] for i in range(5)]   # C(p, i + 1)
        self._compact: np.ndarray | None = None     # the values in 16 bits where they fit (showdown_arrays)

    @property
    def fights(self) -> bool:
        """Two-hand fights may be read off the table (engine.judging.policy's "fights" path; asked once:
        a proof of these rules and this table does not change)."""
        if self._allowed[0] is None:
            self._allowed[0] = policy.allows(self.engine, self.table, "fights").holds
        return self._allowed[0]

    @property
    def showdowns(self) -> bool:
        """Showdowns may be read off the table (engine.judging.policy's "showdowns" path: the showdown
        proof, and mayPlay within candidate; asked once)."""
        if self._allowed[1] is None:
            self._allowed[1] = policy.allows(self.engine, self.table, "showdowns").holds
        return self._allowed[1]

    # ---- two-hand fights --------------------------------------------------------------------

    def verdicts(self, fights: Sequence[Any]) -> list["Verdict | None"]:
        """Each fight's verdict (two hands, or a showdown World), or None where the table does not
        answer it: all at once."""
        out: list[Verdict | None] = [None] * len(fights)
        two = [i for i, f in enumerate(fights) if not isinstance(f, World) and len(f) == 2
               and len(f[0]) == 5 and len(f[1]) == 5]
        if two and self.fights:
            for i, v in zip(two, self._two([fights[i] for i in two])):
                out[i] = v
        by_shape: dict[tuple, list[int]] = {}
        for i, f in enumerate(fights):
            if isinstance(f, World) and f.board is not None:
                by_shape.setdefault((f.game, tuple(len(h) for h in f.hands), len(f.board)), []).append(i)
        if by_shape and self.showdowns:
            for shape, idx in by_shape.items():
                for i, v in zip(idx, self._showdowns(shape, [fights[i] for i in idx])):
                    out[i] = v
        return out

    def _positions(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Deck positions of card ids (rows), and which rows are all different cards of the deck."""
        inside = (ids >= self._low) & (ids <= self._high)
        pos = np.where(inside, self._position[np.clip(ids - self._low, 0, len(self._position) - 1)], -1)
        ok = (pos >= 0).all(axis=1)
        if pos.shape[1] > 1:
            ok &= (np.diff(np.sort(pos, axis=1), axis=1) > 0).all(axis=1)
        return pos, ok

    def _two(self, fights: list) -> list["Verdict | None"]:
        out: list[Verdict | None] = [None] * len(fights)
        if not fights:
            return out
        try:
            ids = np.fromiter(itertools.chain.from_iterable(itertools.chain.from_iterable(fights)),
                              dtype=np.int64, count=10 * len(fights)).reshape(-1, 10)
        except (OverflowError, ValueError, TypeError):       # not card ids at all: the rules say why
            return out
        ok, results, ra, rb = self.two_arrays(ids)
        verdict = self.verdict
        for j, (good, r, a, b) in enumerate(zip(ok.tolist(), results.tolist(), ra.tolist(), rb.tolist())):
            if good:
                out[j] = verdict(r, a, b)
        return out

    def beat(self, a: tuple[int, ...] | None, b: tuple[int, ...] | None) -> int | None:
        """The result (1, 2, 0) of one fight of two hands given as card ids, read off the table
        in plain Python (Engine.beat, warm); None where the table does not answer it (not two
        disjoint hands of five different cards of the deck, or the fights proof fails)."""
        if a is None or b is None or len(a) != 5 or len(b) != 5:
            return None
        where = self._where
        if where is None:
            where = self._where = {c: p for p, c in enumerate(self.table.cards)}
        try:
            pa = sorted(map(where.__getitem__, a))
            pb = sorted(map(where.__getitem__, b))
        except (KeyError, TypeError):
            return None
        if len(set(pa + pb)) != 10 or not self.fights:
            return None
        c = self._colex
        va = self.table.values.item(c[0][pa[0]] + c[1][pa[1]] + c[2][pa[2]] + c[3][pa[3]] + c[4][pa[4]])
        vb = self.table.values.item(c[0][pb[0]] + c[1][pb[1]] + c[2][pb[2]] + c[3][pb[3]] + c[4][pb[4]])
        return 1 if va > vb else 2 if va < vb else 0

    def two_arrays(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Fights of two hands as rows of ten card ids (the first hand's five, the second's):
        which rows the table answers (ten different cards of the deck: two disjoint hands), and
        for each the result (1, 2, 0) and the two hands' ranks (meaningless where not answered).
        Only where engine.policy's "fights" path holds (:attr:`fights`)."""
        pos, ok = self._positions(ids)
        pos[~ok] = np.arange(10)
        n = len(self.table.cards)
        ia = sevens.colex(np.sort(pos[:, :5], axis=1), n)
        ib = sevens.colex(np.sort(pos[:, 5:], axis=1), n)
        va, vb = self.table.values[ia], self.table.values[ib]
        results = np.where(va > vb, 1, np.where(va < vb, 2, 0))
        return ok, results, self.table.ranks[ia], self.table.ranks[ib]

    def verdict(self, result: int, rank_a: int, rank_b: int) -> "Verdict":
        """The verdict of a fight of two hands the table answers (one object for each answer)."""
        key = (result, rank_a, rank_b)
        v = self._made.get(key)
        if v is None:
            v = self._made[key] = Verdict(result, WINNERS[result], key[1:], beats={(0, 1): result})
        return v

    # ---- showdowns --------------------------------------------------------------------------

    def shapes(self, asked: Iterable[tuple] = ()) -> dict[tuple, Any]:
        """The showdown shapes asked of the rules so far, with ``asked`` asked now (each
        (game, players' numbers of cards, board cards)), so that a batch of hand histories does
        not ask them one by one (engine.history).  Those not asked yet are asked
        together, in one run of the compiled program on DuckDB: one Omaha showdown of ten
        players takes the in-process run a quarter of a second, nine shapes of two to ten
        players take DuckDB a tenth (docs/performance.md)."""
        with self._lock:
            todo = [shape for shape in dict.fromkeys(asked) if shape not in self._shapes]
        if len(todo) > 1:
            self._ask(todo, self.engine.evaluator(SMALL_BATCH + 1))
        for shape in todo:
            self._shape(shape)
        with self._lock:
            return dict(self._shapes)

    def _shape(self, shape: tuple) -> Any:
        """(pick, allowed, chosen) of a showdown shape, asked of the rules once, for each player:
        their fives as getters of their cards from hand + board (World.fives' order), the indices
        of those mayPlay allows, and those fives as rows of places in hand + board; None when the
        rules find a showdown of this shape invalid (or the deck is too short for one)."""
        with self._lock:
            if shape in self._shapes:
                return self._shapes[shape]
        self._ask([shape], self.engine.evaluator(1))
        with self._lock:
            return self._shapes[shape]

    def _ask(self, shapes: list[tuple], evaluator: Any) -> None:
        """Ask the rules about a showdown of each shape, all in one run (engine.judging.shapes)."""
        found = fives_of_shapes(shapes, self.table.cards, evaluator)
        with self._lock:
            for shape, f in found.items():
                self._shapes.setdefault(shape, f)
        proofcache.keep(self.engine, self.table, {shape: [a.tolist() for a in f[1]]     # a valid shape's
                                                  for shape, f in found.items() if f is not None})

    def _showdowns(self, shape: tuple, worlds: list["World"]) -> list["Verdict | None"]:
        out: list[Verdict | None] = [None] * len(worlds)
        found = self._shape(shape)
        if found is None:
            return out
        pick = found[0]
        _, holes, board = shape
        width = sum(holes) + board
        try:
            ids = np.fromiter(itertools.chain.from_iterable(itertools.chain(*w.hands, w.board) for w in worlds),
                              dtype=np.int64, count=width * len(worlds)).reshape(len(worlds), width)
        except (OverflowError, ValueError, TypeError):
            return out
        pos, ok = self._positions(ids)
        if not ok.any():
            return out
        rows = np.flatnonzero(ok)
        five, rank, wins = self.showdown_arrays(shape, pos[rows])
        k = len(holes)
        bf, br, wl = five.tolist(), rank.tolist(), wins.tolist()
        players = range(k)
        for j, w in enumerate(rows.tolist()):
            world = worlds[w]
            hands, board_cards, chosen = world.hands, world.board, bf[j]
            best = tuple(pick[p][chosen[p]](hands[p] + board_cards) if chosen[p] >= 0 else () for p in players)
            won = wl[j]
            winners = tuple(p for p in players if won[p])
            out[w] = Verdict(winners[0] + 1 if len(winners) == 1 else 0, winners, tuple(br[j]), None, best=best)
        return out

    def showdown_arrays(self, shape: tuple, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Showdowns of one shape (asked of the rules: :meth:`_shape`, not None) as rows of deck
        positions, each row all different cards (the hands in order, then the board): for each
        player the five it plays (its place in the shape's ``pick``: the first of the fives of
        highest table value mayPlay allows; -1 where it allows none), that five's rank, and
        whether the player wins (no other player's five is worth more; one with no five to play
        is outdrawn by no one).  Where mayPlay allows every five of hand and board, the fives
        are found by :func:`engine.poker.sevens.best_fives` (each row sorted once)."""
        _, allowed, chosen = self._shape(shape)
        _, holes, board = shape
        m, k, n = len(pos), len(holes), len(self.table.cards)
        every = [len(a) == math.comb(h + board, 5) for a, h in zip(allowed, holes)]
        best_value = np.empty((m, k), dtype=np.int64)
        best_five = np.empty((m, k), dtype=np.int64)
        best_rank = np.empty((m, k), dtype=np.int64)
        starts = np.cumsum((0,) + holes)
        places = [list(range(starts[p], starts[p + 1])) + list(range(starts[k], starts[k] + board)) for p in range(k)]
        mine = [pos[:, places[p]] for p in range(k)]          # hand + board
        same = [p for p in range(k) if every[p] and holes[p] == holes[0]]
        values = self._values()
        if same:                                     # stacked: one call for those players
            stack = pos[:, [places[p] for p in same]].reshape(m * len(same), -1)
            value, first, index = sevens.best_fives(values, stack, n)
            best_value[:, same] = value.reshape(m, len(same))
            best_five[:, same] = first.reshape(m, len(same))
            best_rank[:, same] = np.take(self.table.ranks, index).reshape(m, len(same))
        for p in range(k):
            if p in same:
                continue
            if every[p]:
                value, first, index = sevens.best_fives(values, mine[p], n)
                best_value[:, p], best_five[:, p], best_rank[:, p] = value, first, np.take(self.table.ranks, index)
                continue
            ok_fives = allowed[p]
            if not len(ok_fives):
                best_value[:, p] = best_five[:, p] = best_rank[:, p] = -1
                continue
            fives = np.sort(mine[p].astype(np.int8)[:, chosen[p]], axis=2)     # (m, f, 5)
            idx = sevens.colex(fives.reshape(-1, 5), n).reshape(m, len(ok_fives))
            worth = self.table.values[idx]
            at = worth.argmax(axis=1)                                             # the first of the best
            best_value[:, p] = worth[np.arange(m), at]
            best_five[:, p] = ok_fives[at]
            best_rank[:, p] = self.table.ranks[idx[np.arange(m), at]]
        top = best_value.max(axis=1, keepdims=True)
        wins = (best_value == top) | (best_value < 0)
        return best_five, best_rank, wins

    def _values(self) -> np.ndarray:
        """The table's values, as 16-bit integers where they all fit (a table half the size:
        a batch's random lookups into it are several times faster), else as they are."""
        if self._compact is None:
            values = self.table.values
            small = len(values) and -(1 << 15) <= int(values.min()) and int(values.max()) < (1 << 15)
            self._compact = values.astype(np.int16) if small else np.asarray(values)
        return self._compact
