"""Equity of hand ranges, counted with numpy from a table of five-card values (free of poker, as
engine.sevens is: cards are deck positions, hands rows of them).

A range is a set of hands each weighted equally; a deal is one hand of each range, no card twice,
and a completion of the board from the cards left.  Every matchup of hands has the same number of
completions, so weighting matchups equally is weighting deals equally: equity is a mean over deals.

* :func:`headsup`: two ranges of two-card hands in hold'em, exactly.  It turns the count around:
  board by board (each full board once, not once per matchup), every hand of both ranges gets its
  best of seven from the seven-card table (the five-card table lifted twice, ``sevens._lift``), the
  second range's values are sorted, and each hand of the first counts the hands below and equal to
  it by binary search, less those that share a card with it (found through each card's hands).
  When the rules are proven blind to suits, the suits that nothing else tells apart (none of
  their cards on the board or dead, every range closed under renaming them among themselves)
  are renamed away: each class of boards is counted once with its size (all four suits before
  the flop: about 134,000 boards of 2,598,960; AhKh against random: the other three).
* :class:`Sampler`: any number of ranges, hold'em or Omaha: deals drawn uniformly (a hand of each
  range, redrawn while two share a card, ``random`` dealt from the cards left; then the board).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from engine.poker import sevens
from engine.poker.sevens import _BINOM, _c, _combos, _lift

# headsup counts exactly while boards x hands valued is within CELLS (before the flop, "QQ+,AKs"
# against random by board classes: 178 million, 8 s in all; AhKh against random, three suits
# renamed: 464 million, 19 s, is sampled instead) and boards x first hands x the hands of the
# second that share a card with one is within CLASHES
CELLS = 250_000_000
CLASHES = 1_000_000_000
SEVENS_AFTER = 3_000_000     # boards x hands past which the seven-card table is built (2 s for 52)
SEVENS_MAX = 250_000_000     # the seven-card table's entries at most (C(52, 7) = 133,784,560)
_CHUNK_CELLS = 4_000_000     # boards x hands per chunk
_NONE = np.iinfo(np.int32).max   # the value of a hand that holds a card of the board


class TooMany(ValueError):
    """Counting every deal exactly would take too long (boards x hands past the limit)."""


@dataclass(frozen=True)
class Counts:
    """Deals counted for the first range against the second: ``wins`` (the first's hand wins),
    ``ties``, ``losses``; ``matchups`` (pairs of hands with no card in common) and ``boards``
    completions each: ``deals = matchups * boards = wins + ties + losses``."""
    wins: int
    ties: int
    losses: int
    matchups: int
    boards: int
    # Each hand of the first range, in its order: its wins, ties and deals (the grid of starting
    # hands, engine.grid).  Where suits were renamed away, a hand's counts may be those of the
    # hands a renaming maps it to; summed over such hands (a starting hand: AKs) they are exact.
    by_hand: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(default=None, repr=False, compare=False)

    @property
    def deals(self) -> int:
        return self.wins + self.ties + self.losses


def headsup(table: np.ndarray, n: int, first: np.ndarray, second: np.ndarray, board: Sequence[int] = (),
            dead: Sequence[int] = (), suits: Sequence[int] | None = None, values: Sequence[int] | None = None,
            progress: Callable[[int, int], None] | None = None, limit: int = CELLS) -> Counts:
    """Every deal of a hand of ``first`` against a hand of ``second`` (rows of two positions, each
    hand once, none holding a card of the board or a dead card) on every completion of the board.

    ``suits``/``values``: each position's suit and value, given only when the table is proven
    blind to suits; then the classes of boards under renamings of the suits that nothing else
    tells apart (no board or dead card of theirs, the ranges closed under them) are counted once
    each, times their size.  ``progress(done, total)`` is told of the boards counted.  TooMany when boards
    x hands to count are past ``limit`` (before the flop with dead cards, or ranges not closed
    under renaming the suits, against a wide range).

    A 10-card deck where the higher colex is the better hand: the 9 wins every deal.

    >>> table = np.arange(252)
    >>> headsup(table, 10, np.array([[0, 9]]), np.array([[7, 8], [1, 2]]))
    Counts(wins=12, ties=0, losses=0, matchups=2, boards=6)
    >>> headsup(table, 10, np.array([[0, 1], [7, 8]]), np.array([[1, 2], [6, 9]]))
    Counts(wins=6, ties=0, losses=12, matchups=3, boards=6)
    """
    t = sevens._check_table(table, n)
    a, b = _hands(first, "first"), _hands(second, "second")
    used = set(board) | set(dead)
    if any(set(h) & used for h in map(tuple, np.concatenate([a, b]))):
        raise ValueError("a hand of a range holds a card of the board or a dead card")
    rest = np.array([c for c in range(n) if c not in used], dtype=np.int64)
    need = 5 - len(board)
    fulls = np.sort(np.concatenate([np.broadcast_to(np.array(board, dtype=np.int64), (_c(len(rest), need), len(board))),
                                    rest[_combos(len(rest), need).astype(np.intp)]], axis=1), axis=1)
    weights = np.ones(len(fulls), dtype=np.int64)
    if suits is not None and values is not None:
        su, va = np.asarray(suits), np.asarray(values)
        fulls, weights = _classes(fulls, su, va, _free_suits([a, b], used, su, va))
    hands = np.unique(np.concatenate([a, b]), axis=0)
    clashes = len(fulls) * len(a) * 2 * max(1, max(np.bincount(b.ravel(), minlength=n)))
    if len(fulls) * len(hands) > limit or clashes > CLASHES:
        raise TooMany(f"{len(fulls):,} boards x {len(hands):,} hands")
    place = {tuple(h): i for i, h in enumerate(hands.tolist())}
    ia = np.array([place[tuple(h)] for h in a.tolist()], dtype=np.intp)
    ib = np.array([place[tuple(h)] for h in b.tolist()], dtype=np.intp)
    # the hands of the second range that hold each card (padded with the column of no hand)
    holding = [[j for j, h in enumerate(b.tolist()) if c in h] for c in range(n)]
    width = max(1, max(map(len, holding)))
    through = np.full((n, width), len(b), dtype=np.intp)
    for c, js in enumerate(holding):
        through[c, :len(js)] = js
    second_at = {tuple(h): j for j, h in enumerate(b.tolist())}
    same = np.array([second_at.get(tuple(h), len(b)) for h in a.tolist()], dtype=np.intp)   # a's hand in b
    value = _Sevens(t, n, hands, len(fulls))
    wins = np.zeros(len(a), dtype=np.int64)
    ties, pairs = wins.copy(), wins.copy()
    step = max(1, _CHUNK_CELLS // max(len(hands), len(a) * (2 * width + 2)))
    for lo in range(0, len(fulls), step):
        v = value(fulls[lo:lo + step])                                          # boards x hands
        w = weights[lo:lo + step]
        va, vb = v[:, ia], v[:, ib]
        okb = vb != _NONE
        m = len(v)
        offset = np.arange(m, dtype=np.int64)[:, None] * (1 << 32)
        flat = (np.sort(vb, axis=1).astype(np.int64) + offset).ravel()
        key = va.astype(np.int64) + offset
        below = np.searchsorted(flat, key, "left") - np.arange(m)[:, None] * len(b)
        upto = np.searchsorted(flat, key, "right") - np.arange(m)[:, None] * len(b)
        padded = np.concatenate([vb, np.full((m, 1), _NONE, dtype=vb.dtype)], axis=1)
        clash = padded[:, through[a[:, 0]]], padded[:, through[a[:, 1]]]         # boards x a x width
        lower = sum((c < va[:, :, None]).sum(axis=2) for c in clash)
        equal = sum((c == va[:, :, None]).sum(axis=2) for c in clash)
        shared = sum((c != _NONE).sum(axis=2) for c in clash)
        own = padded[:, same] != _NONE                                          # a's hand is in b too
        ok = va != _NONE
        won = below - lower
        tied = (upto - below) - equal + own
        faced = okb.sum(axis=1)[:, None] - shared + own
        wins += (w[:, None] * (won * ok)).sum(axis=0)
        ties += (w[:, None] * (tied * ok)).sum(axis=0)
        pairs += (w[:, None] * (faced * ok)).sum(axis=0)
        if progress is not None:
            progress(min(lo + step, len(fulls)), len(fulls))
    matchups = int(sum(len(b) - len(holding[x]) - len(holding[y]) + (j < len(b))
                       for (x, y), j in zip(a.tolist(), same.tolist())))
    completions = _c(len(rest) - 4, need)
    won, tie, dealt = int(wins.sum()), int(ties.sum()), int(pairs.sum())
    if dealt != matchups * completions:
        raise AssertionError(f"counted {dealt} deals, not {matchups} x {completions}")
    return Counts(won, tie, dealt - won - tie, matchups, completions, by_hand=(wins, ties, pairs))


def _hands(rows: np.ndarray, name: str) -> np.ndarray:
    h = np.sort(np.asarray(rows, dtype=np.int64).reshape(-1, 2), axis=1)
    if not len(h):
        raise ValueError(f"the {name} range has no hand")
    if (h[:, 0] == h[:, 1]).any():
        raise ValueError(f"a hand of the {name} range holds a card twice")
    if len(np.unique(h, axis=0)) != len(h):
        raise ValueError(f"a hand appears twice in the {name} range")
    return h


def _renamings(suits: np.ndarray, values: np.ndarray, free: Sequence[int]) -> list[np.ndarray]:
    """Two renamings of the ``free`` suits among themselves (swap the first two; shift them all
    by one) as maps of positions: together they make every renaming of them."""
    at = {(int(v), int(s)): p for p, (v, s) in enumerate(zip(values, suits))}
    maps = []
    for rename in ({free[0]: free[1], free[1]: free[0]}, {s: free[(i + 1) % len(free)] for i, s in enumerate(free)}):
        maps.append(np.array([at[(int(v), rename.get(int(s), int(s)))] for v, s in zip(values, suits)]))
    return maps


def _free_suits(ranges: Sequence[np.ndarray], used: set[int], suits: np.ndarray, values: np.ndarray) -> list[int]:
    """The most suits that nothing tells apart: none of them on the board or dead, and every range
    the same range with them renamed among themselves (AhKh against random: the other three)."""
    k = int(suits.max()) + 1
    open_ = [u for u in range(k) if not any(int(suits[c]) == u for c in used)]
    rows = [{tuple(h) for h in r.tolist()} for r in ranges]
    for size in range(len(open_), 1, -1):
        for free in itertools.combinations(open_, size):
            maps = _renamings(suits, values, free)
            if all({tuple(sorted(m[h])) for h in r} == rs for r, rs in zip(ranges, rows) for m in maps):
                return list(free)
    return []


def _classes(fulls: np.ndarray, suits: np.ndarray, values: np.ndarray,
             free: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """One board of each class under renamings of the ``free`` suits among themselves, and the
    size of each class (sevens.suit_classes); every board once when there is nothing to rename."""
    found = sevens.suit_classes(fulls, suits, values, free) if len(free) >= 2 else None
    if found is None:
        return fulls, np.ones(len(fulls), dtype=np.int64)
    first, _, sizes = found
    return fulls[first], sizes.astype(np.int64)


class _Sevens:
    """The best value of each two-card hand with each full board (boards x hands; _NONE where the
    hand holds a card of the board): from the seven-card table when there are many, else the
    best of the 21 fives."""

    def __init__(self, table: np.ndarray, n: int, hands: np.ndarray, boards: int) -> None:
        self.table, self.n, self.hands = table, n, hands
        self.sevens: np.ndarray | None = None
        if boards * len(hands) > SEVENS_AFTER and _c(n, 7) <= SEVENS_MAX:
            dense, _ = sevens._dense(table)
            for j in (5, 6):
                dense = _lift(dense, n, j)
            self.sevens = dense
        # the cards the hands hold, and each hand's two as columns of them
        self.cards, inverse = np.unique(hands, return_inverse=True)
        self.x, self.y = inverse.reshape(hands.shape).T
        self.binom = _BINOM.ravel()
        self.cols = _BINOM.shape[1]

    def __call__(self, fulls: np.ndarray) -> np.ndarray:
        m = len(fulls)
        if self.sevens is None:
            x, y = self.hands[:, 0], self.hands[:, 1]
            hit = ((fulls[:, :, None] == x) | (fulls[:, :, None] == y)).any(axis=1)     # boards x hands
            rows = np.repeat(fulls, len(self.hands), axis=0)
            holes = np.tile(self.hands, (m, 1))
            ok = ~hit.ravel()
            out = np.full(m * len(self.hands), _NONE, dtype=np.int32)
            out[ok] = sevens.best_values(self.table, holes[ok], rows[ok])[0]
            return out.reshape(m, len(self.hands))
        idx = self._place(fulls, 0)[:, self.x] + self._place(fulls, 1)[:, self.y]
        out = self.sevens[np.maximum(idx, 0)].astype(np.int32)
        out[idx < 0] = _NONE
        return out

    def _place(self, fulls: np.ndarray, second: int) -> np.ndarray:
        """Boards x the hands' cards: what a hole card c adds to the colex index of board + {x, y} as x
        (``second`` 0) or as y (1, the higher of the two): C(c, its place + 1) and the change it
        makes to the board cards' terms (those above it move up a place); the board's own terms
        in the second.  Negative for a card of the board (a hand that cannot be dealt).

        The index of a sorted seven is sum C(p_i, i + 1).  With i_c the board cards below c, x
        sits at i_x, y at i_y + 1, and board card j at j + [x < b_j] + [y < b_j]; so with
        S_k(i) = sum over j < i of C(b_j, j + 1 + k), the board adds S_0(i_x) + S_1(i_y) - S_1(i_x)
        + S_2(5) - S_2(i_y): a part of x, a part of y and a constant."""
        m, cols, cards = len(fulls), self.cols, self.cards
        on = (fulls[:, :, None] == cards).any(axis=1)                          # boards x the hands' cards
        below = (fulls[:, :, None] < cards).sum(axis=1)                        # board cards below c
        terms = self.binom[fulls[:, :, None] * cols + np.arange(5)[:, None] + 1 + np.arange(3)]  # m x 5 x 3
        sums = np.concatenate([np.zeros((m, 1, 3), dtype=np.int64), np.cumsum(terms, axis=1)], axis=1)
        at = lambda k: np.take_along_axis(sums[:, :, k], below, axis=1)        # noqa: E731  S_k(i_c)
        place = self.binom[cards * cols + below + 1 + second]
        if second == 0:
            place = place + at(0) - at(1)
        else:
            place = place + at(1) - at(2) + sums[:, 5, 2][:, None]
        place[on] = -(1 << 40)
        return place


# -- sampling -------------------------------------------------------------------------------------

class Sampler:
    """Deals drawn uniformly: a hand of each range, no card twice, and the full board.

    A range that is every hand of the cards nothing else holds (``random``, less the board, the
    dead cards and the known hands) is dealt from the cards left once the other ranges have their
    hands: every choice of those leaves the same number of cards, so the deal stays uniform, and
    ten random hands need no redrawing.  The other ranges' hands are drawn from every matchup of
    them when there are at most ``limit`` (enumerated, clashes left out), else drawn each and drawn
    again while two share a card; ValueError when ``tries`` draws a deal give too few.

    >>> rng = np.random.Generator(np.random.PCG64(0))
    >>> holes, boards = Sampler(10, [np.array([[0, 1]]), np.array([[1, 2], [3, 4]])], [], []).draw(3, rng)
    >>> holes[:, 1].tolist(), sorted(set(boards.ravel().tolist()) & {0, 1, 3, 4})
    ([[3, 4], [3, 4], [3, 4]], [])
    """

    def __init__(self, n: int, ranges: Sequence[np.ndarray], board: Sequence[int], dead: Sequence[int],
                 limit: int = 2_000_000, tries: int = 50) -> None:
        self.n, self.ranges, self.board, self.dead, self.tries = n, list(ranges), list(board), list(dead), tries
        known = {c for r in self.ranges if len(r) == 1 for c in r[0].tolist()}
        left = n - len(set(self.board) | set(self.dead) | known)
        self.full = [len(r) > 1 and len(r) == _c(left, r.shape[1]) for r in self.ranges]
        self.drawn = [r for r, f in zip(self.ranges, self.full) if not f]
        self.grid = matchups(self.drawn, limit) if self.drawn else None
        if self.grid is not None and not len(self.grid):
            raise ValueError("the ranges deal no matchup: every hand of one shares a card with every hand of another")
        self.need = 5 - len(self.board) + sum(r.shape[1] for r, f in zip(self.ranges, self.full) if f)
        if left - sum(r.shape[1] for r in self.drawn if len(r) > 1) < self.need:
            raise ValueError("too few cards left to deal every hand and complete the board")

    def draw(self, count: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``count`` deals: hands (count, players, hole cards) and boards (count, 5)."""
        parts = self._hands(count, rng) if self.drawn else []
        keys = rng.random((count, self.n))                     # the rest: a random order of the cards left
        if parts:
            used = np.concatenate(parts, axis=1)
            keys[np.arange(count)[:, None], used] = 2.0
        if self.board or self.dead:
            keys[:, self.board + self.dead] = 2.0
        rest = np.argsort(keys, axis=1)[:, :self.need] if self.need else np.empty((count, 0), dtype=np.int64)
        hands, at, i = [], 0, 0
        for r, f in zip(self.ranges, self.full):
            if f:
                hands.append(np.sort(rest[:, at:at + r.shape[1]], axis=1))
                at += r.shape[1]
            else:
                hands.append(parts[i])
                i += 1
        fulls = np.sort(np.concatenate([np.broadcast_to(np.array(self.board, dtype=np.int64),
                                                        (count, len(self.board))), rest[:, at:]], axis=1), axis=1)
        return np.stack(hands, axis=1), fulls

    def _hands(self, count: int, rng: np.random.Generator) -> list[np.ndarray]:
        """The drawn ranges' hands of ``count`` deals, one array a range."""
        if self.grid is not None:
            rows = self.grid[rng.integers(0, len(self.grid), size=count)]
            return [r[rows[:, i]] for i, r in enumerate(self.drawn)]
        taken: list[list[np.ndarray]] = []
        have = drawn = 0
        batch = max(1024, min(count, 50_000))
        while have < count:
            if drawn >= self.tries * count + 10 * batch:
                raise ValueError("the ranges hardly ever deal hands with no card in common")
            parts = [r[rng.integers(0, len(r), size=batch)] for r in self.drawn]
            deal = np.concatenate(parts, axis=1)
            drawn += batch
            srt = np.sort(deal, axis=1)
            ok = (np.diff(srt, axis=1) != 0).all(axis=1) if srt.shape[1] > 1 else np.ones(batch, dtype=bool)
            taken.append([p[ok] for p in parts])
            have += int(ok.sum())
        return [np.concatenate([t[i] for t in taken])[:count] for i in range(len(self.drawn))]


def matchups(ranges: Sequence[np.ndarray], limit: int) -> np.ndarray | None:
    """Every deal of one hand of each range with no card twice (rows of hand indices), or None
    when the ranges' product is past ``limit``."""
    if math.prod(len(r) for r in ranges) > limit:
        return None
    grid = np.stack(np.meshgrid(*[np.arange(len(r)) for r in ranges], indexing="ij"), axis=-1).reshape(-1, len(ranges))
    cards = np.concatenate([r[grid[:, i]] for i, r in enumerate(ranges)], axis=1)
    s = np.sort(cards, axis=1)
    return grid[(np.diff(s, axis=1) != 0).all(axis=1)]


__all__ = ["Counts", "TooMany", "headsup", "Sampler", "matchups"]
