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
import threading
from typing import Any, Iterable, Sequence

import numpy as np

from engine.evaluators import Verdict, World
from engine.evaluators.workers import SMALL_BATCH
from engine.interface import EngineView
from engine.judging import policy, proofcache
from engine.judging.fivetable import FiveTable
from engine.judging.shapes import allowed_of, fives_of_shapes, from_allowed
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
        proofcache.adopt(engine, table)       # the proofs a run before made for these rules
        self._where: dict[int, int] | None = None                 # card id -> deck position (beat)
        self._allowed: list[bool | None] = [None, None]            # fights, showdowns (engine.policy)
        n = len(table.cards)
        self._colex = [[sevens._c(p, i + 1) for p in range(n)] for i in range(5)]   # C(p, i + 1)

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
        (game, players' numbers of cards, board cards)): what a process hands its workers
        (engine.history), so that they do not ask them again.  Those not asked yet are asked
        together, in one run of the compiled program on DuckDB: one Omaha showdown of ten
        players takes the in-process run a quarter of a second, nine shapes of two to ten
        players take DuckDB a tenth (docs/performance.md)."""
        with self._lock:
            todo = [shape for shape in dict.fromkeys(asked) if shape not in self._shapes]
        todo = self._from_cache(todo)
        if len(todo) > 1:
            self._ask(todo, self.engine.evaluator(SMALL_BATCH + 1))
        for shape in todo:
            self._shape(shape)
        with self._lock:
            return dict(self._shapes)

    def adopt_shapes(self, shapes: dict[tuple, Any]) -> None:
        """Take the shapes another process asked of the same rules (:meth:`shapes`, for a
        table of the same digest); one asked here already is kept."""
        with self._lock:
            for shape, found in shapes.items():
                self._shapes.setdefault(shape, found)

    def _shape(self, shape: tuple) -> Any:
        """(pick, allowed, chosen) of a showdown shape, asked of the rules once, for each player:
        their fives as getters of their cards from hand + board (World.fives' order), the indices
        of those mayPlay allows, and those fives as rows of places in hand + board; None when the
        rules find a showdown of this shape invalid (or the deck is too short for one)."""
        with self._lock:
            if shape in self._shapes:
                return self._shapes[shape]
        if self._from_cache([shape]):
            self._ask([shape], self.engine.evaluator(1))
        with self._lock:
            return self._shapes[shape]

    def _ask(self, shapes: list[tuple], evaluator: Any) -> None:
        """Ask the rules about a showdown of each shape, all in one run (engine.judging.shapes)."""
        found = fives_of_shapes(shapes, self.table.cards, evaluator)
        with self._lock:
            for shape, f in found.items():
                self._shapes.setdefault(shape, f)
        # kept beside the table for the next process (engine.judging.proofcache); a shape the
        # rules find invalid, or whose run failed, is asked again
        proofcache.note(self.table, {shape: allowed_of(f) for shape, f in found.items() if f is not None})
        proofcache.keep(self.engine, self.table)

    def _from_cache(self, shapes: list[tuple]) -> list[tuple]:
        """The shapes kept beside the table by an earlier process for these rules
        (engine.judging.proofcache: signed, of this digest and engine) taken, each checked to be
        what a shape of its players can have; those left to ask the rules."""
        if not shapes:
            return shapes
        kept = proofcache.shapes(self.table)
        todo = []
        for shape in shapes:
            try:
                found = from_allowed(shape, kept[shape]) if kept.get(shape) is not None else None
            except ValueError:
                found = None
            if found is None:
                todo.append(shape)
                continue
            with self._lock:
                self._shapes.setdefault(shape, found)
        return todo

    def _showdowns(self, shape: tuple, worlds: list["World"]) -> list["Verdict | None"]:
        out: list[Verdict | None] = [None] * len(worlds)
        found = self._shape(shape)
        if found is None:
            return out
        pick, allowed, chosen = found
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
        pos = pos[rows].astype(np.int8)          # a deck of at most 64 cards: small rows sort faster
        n = len(self.table.cards)
        best_value, best_five, best_rank = [], [], []
        start = 0
        for p, h in enumerate(holes):
            mine = np.concatenate([pos[:, start:start + h], pos[:, sum(holes):]], axis=1)   # hand + board
            start += h
            ok_fives = allowed[p]
            if not len(ok_fives):
                best_value.append(np.full(len(rows), -1))
                best_five.append(np.full(len(rows), -1))
                best_rank.append(np.full(len(rows), -1))
                continue
            fives = np.sort(mine[:, chosen[p]], axis=2)                          # (m, f, 5)
            idx = sevens.colex(fives.reshape(-1, 5), n).reshape(len(rows), len(ok_fives))
            values = self.table.values[idx]
            at = values.argmax(axis=1)                                           # the first of the best
            best_value.append(values[np.arange(len(rows)), at])
            best_five.append(ok_fives[at])
            best_rank.append(self.table.ranks[idx[np.arange(len(rows)), at]])
        bv = np.stack(best_value, axis=1)                                        # (m, k)
        top = bv.max(axis=1, keepdims=True)
        wins = (bv == top) | (bv < 0)          # a player with no five to play is outdrawn by no one
        k = len(holes)
        bf = np.stack(best_five, axis=1).tolist()
        br = np.stack(best_rank, axis=1).tolist()
        wl = wins.tolist()
        players = range(k)
        for j, w in enumerate(rows.tolist()):
            world = worlds[w]
            hands, board_cards, five = world.hands, world.board, bf[j]
            best = tuple(pick[p][five[p]](hands[p] + board_cards) if five[p] >= 0 else () for p in players)
            won = wl[j]
            winners = tuple(p for p in players if won[p])
            out[w] = Verdict(winners[0] + 1 if len(winners) == 1 else 0, winners, tuple(br[j]), None, best=best)
        return out
