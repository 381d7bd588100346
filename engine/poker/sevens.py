"""Hands of more than five cards, counted fast with numpy, from a table of five-card values.

The rules give one integer VALUE to every five-card hand of a deck (higher is stronger, equal is a
tie).  Everything bigger (the best five of seven, Omaha's two-plus-three, all-in equity) is only
subsets and maxima over that table, so it lives here, free of any poker knowledge: cards are the
positions 0..n-1 of an n-card deck, and a set of cards is found in a table by its colex index.

Colex order lists the k-subsets of 0..n-1 so that those of 0..t-1 come first: the k-subsets of a
smaller deck are a prefix of the bigger deck's list.  That nesting is what makes the counting
cheap: the sets with the same two top cards u < t form one contiguous block, and every subset of
such a set, one card short, lies in a contiguous slice of the table below it (see `_lift_blocks`).

The public functions: `colex` and `five_hands` (the table's order), `best_values` (the best five
of a batch of hands, e.g. sampled 7-card hands to cross-check against the rules), `best_fives` (the
same, and which five makes it, for the showdowns of a batch), `best_histogram` (every k-card hand
of the deck) and `equity`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

import numpy as np

MAX_DECK = 64
MAX_K = 7
# Binomials C(a, b) for a < 65 and b < 8 (b = -1 is 0 too), so index arithmetic is a lookup.
_BINOM = np.array([[math.comb(a, b) for b in range(MAX_K + 2)] for a in range(MAX_DECK + 1)],
                  dtype=np.int64)
GAMES = ("holdem", "omaha")
# Exact when completions x players x subsets per player is within this: heads-up Omaha preflop
# (1,086,008 boards x 2 x 60 = 130,320,960) and heads-up hold'em preflop (71,916,768) both are.
EXACT_LIMIT = 150_000_000
SAMPLES = 200_000
_CHUNK = 50_000          # rows of best_values at a time: 50,000 x 21 x 5 positions


def _c(a: int, b: int) -> int:
    """C(a, b), 0 when b < 0 or b > a (the block arithmetic needs both edges)."""
    return math.comb(a, b) if 0 <= b <= a else 0


def _binom(n: int) -> np.ndarray:
    """C(a, b) for a <= n and b < MAX_K + 2: the shared table, or one made for a larger deck."""
    if n <= MAX_DECK:
        return _BINOM
    return np.array([[math.comb(a, b) for b in range(MAX_K + 2)] for a in range(n + 1)], dtype=np.int64)


def colex(hands: np.ndarray, n: int = MAX_DECK) -> np.ndarray:
    """The colex index sum_i C(p_i, i+1) of each row (strictly increasing positions), as int64.

    It is the row's place in the table of all hands of its size, whatever the deck's size
    (``n`` bounds the positions: decks past MAX_DECK cards are only indexed, never tabled).

    >>> colex(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 5], [1, 2, 3, 4, 5]]))
    array([0, 1, 5])
    """
    h = np.asarray(hands, dtype=np.int64)
    if h.ndim != 2:
        raise ValueError(f"hands must be a 2-d array of positions, not of shape {h.shape}")
    if h.size and (h.min() < 0 or h.max() > n):
        raise ValueError(f"positions must be in 0..{n - 1}")
    binom = _binom(n)
    out = np.zeros(len(h), dtype=np.int64)
    for i in range(h.shape[1]):
        out += binom[h[:, i], i + 1]
    return out


def uncolex(indices: Sequence[int] | np.ndarray, n: int, k: int = 5) -> np.ndarray:
    """The hands (ascending positions in an n-card deck, one row each) of these colex indices:
    the inverse of :func:`colex`, for any deck (the rows of ``five_hands(n)`` for k = 5).

    >>> uncolex([0, 1, 5], 6).tolist()
    [[0, 1, 2, 3, 4], [0, 1, 2, 3, 5], [1, 2, 3, 4, 5]]
    """
    left = np.array(indices, dtype=np.int64).reshape(-1)
    binom = _binom(n)[:n]
    out = np.empty((len(left), k), dtype=np.int64)
    for j in range(k, 0, -1):              # the highest position p with C(p, j) <= what is left
        p = np.searchsorted(binom[:, j], left, side="right") - 1
        out[:, j - 1] = p
        left = left - binom[p, j]
    return out


def _combos(n: int, k: int) -> np.ndarray:
    """All k-subsets of 0..n-1 as rows, in colex order: those with top card t are the
    (k-1)-subsets of 0..t-1 (a prefix of the previous level) followed by t."""
    rows = np.zeros((1, 0), dtype=np.int8)
    for j in range(1, k + 1):
        out = np.empty((_c(n, j), j), dtype=np.int8)
        for t in range(j - 1, n):
            start, m = _c(t, j), _c(t, j - 1)
            out[start:start + m, :j - 1] = rows[:m]
            out[start:start + m, j - 1] = t
        rows = out
    return rows


def five_hands(n: int) -> np.ndarray:
    """All C(n, 5) five-card hands of an n-card deck, row r being the hand of colex index r,
    so a table built row by row from the rules is indexed the way this module reads it.

    >>> h = five_hands(6)
    >>> h
    array([[0, 1, 2, 3, 4],
           [0, 1, 2, 3, 5],
           [0, 1, 2, 4, 5],
           [0, 1, 3, 4, 5],
           [0, 2, 3, 4, 5],
           [1, 2, 3, 4, 5]], dtype=int8)
    >>> colex(h).tolist()
    [0, 1, 2, 3, 4, 5]
    """
    _check_deck(n)
    return _combos(n, 5)


def deck_size(table: np.ndarray) -> int:
    """The n with C(n, 5) == len(table): a table says which deck it is for.

    >>> deck_size(np.zeros(21))
    7
    """
    size = len(table)
    for n in range(5, MAX_DECK + 1):
        if _c(n, 5) == size:
            return n
    raise ValueError(f"a table of {size} values is not C(n, 5) for any deck of 5..{MAX_DECK} cards")


def _check_deck(n: int) -> None:
    if not 5 <= n <= MAX_DECK:
        raise ValueError(f"the deck must have 5..{MAX_DECK} cards, not {n}")


def _check_table(table: np.ndarray, n: int | None = None) -> np.ndarray:
    t = np.asarray(table)
    if t.ndim != 1 or not np.issubdtype(t.dtype, np.integer):
        raise ValueError("the table must be a 1-d array of integers")
    if n is not None:
        _check_deck(n)
        if len(t) != _c(n, 5):
            raise ValueError(f"the table has {len(t)} values, not C({n}, 5) = {_c(n, 5)}")
    else:
        deck_size(t)
    return t


def suit_classes(rows: np.ndarray, suits: np.ndarray, values: np.ndarray, free: Sequence[int] | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The classes of rows of cards (deck positions; ``suits[p]``, ``values[p]`` numbered from 0)
    under the renamings of the ``free`` suits among themselves (every suit when None): the first
    row of each class, each row's class, and each class's size; None when the suits' values
    (each fixed suit's own, the free suits' widest for each of them) pass 64 bits.  A row's class is its other suits' sets of values in order, then the free
    suits' sets sorted (as bits): two rows share it exactly when such a renaming takes one to the
    other.

    Two values in two suits: a pair of one suit and the pair of the other are one class.

    >>> suits, values = np.array([0, 1, 0, 1]), np.array([0, 0, 1, 1])
    >>> first, inverse, sizes = suit_classes(np.array([[0, 1], [0, 2], [1, 3], [0, 3]]), suits, values)
    >>> inverse.tolist(), sizes.tolist()
    ([0, 2, 2, 1], [1, 1, 2])
    """
    k = int(suits.max()) + 1
    free = list(range(k)) if free is None else list(free)
    fixed = [u for u in range(k) if u not in free]
    span = [int(values[suits == u].max(initial=0)) + 1 for u in range(k)]     # each suit's bits
    shared = max((span[u] for u in free), default=0)                          # the free suits' alike
    widths = [span[u] for u in fixed] + [shared] * len(free)
    if sum(widths) > 64:
        return None
    at = np.arange(len(rows))
    masks = np.zeros((len(rows), k), dtype=np.uint64)
    for j in range(rows.shape[1]):
        p = rows[:, j]
        masks[at, suits[p]] |= np.left_shift(np.uint64(1), values[p].astype(np.uint64))
    masks = np.concatenate([masks[:, fixed], np.sort(masks[:, free], axis=1)], axis=1)
    key = np.zeros(len(rows), dtype=np.uint64)
    shift = 0
    for i, width in enumerate(widths):
        key |= np.left_shift(masks[:, i], np.uint64(shift))
        shift += width
    _, first, inverse, sizes = np.unique(key, return_index=True, return_inverse=True, return_counts=True)
    return first, inverse.ravel(), sizes


# -- best five of a batch of hands ----------------------------------------------------------------

def _rows(a: np.ndarray | Sequence, name: str) -> np.ndarray:
    r = np.asarray(a)
    if r.size and not np.issubdtype(r.dtype, np.integer):
        raise ValueError(f"{name} must be integer positions, not {r.dtype}")
    r = r.astype(np.int64)
    if r.ndim == 1:
        r = r[None, :]
    if r.ndim != 2:
        raise ValueError(f"{name} must be a 2-d array of positions")
    return r


def best_values(table: np.ndarray, hands: np.ndarray, board: np.ndarray | Sequence[int] | None = None,
                game: str = "holdem") -> tuple[np.ndarray, np.ndarray]:
    """The best value of each row of players' cards, and the five positions (ascending) that
    make it: the first best subset in the lexicographic order of the choice of columns (hand
    columns, then board columns), so the answer is the same from run to run.

    holdem: any five of hand + board (5 to 7 cards); omaha: two of the four hand cards and three
    of the 3..5 board cards; board None: any five of the hand's k >= 5 cards.  The board is one
    row shared by all hands, or one row per hand.

    >>> table = np.zeros(21, dtype=int)     # a 7-card deck where one hand is worth 9
    >>> table[colex([[1, 2, 3, 5, 6]])] = 9
    >>> best_values(table, [[6, 5, 4, 3, 2, 1, 0]])
    (array([9]), array([[1, 2, 3, 5, 6]]))
    >>> best_values(table, [[1, 2]], board=[3, 5, 6])[0]
    array([9])
    """
    t = _check_table(table)
    n = deck_size(t)
    h = _rows(hands, "hands")
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: one of {', '.join(GAMES)}")
    if board is None:
        if game == "omaha":
            raise ValueError("omaha needs a board of 3..5 cards")
        cards, subsets = h, list(itertools.combinations(range(h.shape[1]), 5))
        if h.shape[1] < 5:
            raise ValueError(f"without a board a hand needs at least 5 cards, not {h.shape[1]}")
    else:
        b = _rows(board, "board")
        if len(b) == 1:
            b = np.broadcast_to(b, (len(h), b.shape[1]))
        if len(b) != len(h):
            raise ValueError(f"{len(b)} boards for {len(h)} hands")
        cards = np.concatenate([h, b], axis=1)
        k, nb = h.shape[1], b.shape[1]
        if game == "holdem":
            if not 5 <= k + nb <= 7:
                raise ValueError(f"hold'em takes the best five of 5..7 cards, not {k + nb}")
            subsets = list(itertools.combinations(range(k + nb), 5))
        else:
            if k != 4 or not 3 <= nb <= 5:
                raise ValueError(f"omaha needs 4 hand cards and 3..5 board cards, not {k} and {nb}")
            subsets = [p + tuple(k + i for i in q) for p in itertools.combinations(range(4), 2)
                       for q in itertools.combinations(range(nb), 3)]
    if cards.size and (cards.min() < 0 or cards.max() >= n):
        raise ValueError(f"cards must be positions 0..{n - 1} of the table's {n}-card deck")
    s = np.sort(cards, axis=1)
    if cards.shape[1] > 1 and (np.diff(s, axis=1) == 0).any():
        raise ValueError("a card appears twice in a row of cards")
    cols = np.array(subsets)
    best, choice = np.empty(len(h), dtype=t.dtype), np.empty((len(h), 5), dtype=np.int64)
    for lo in range(0, len(h), _CHUNK):                             # bounded memory
        chosen = np.sort(cards[lo:lo + _CHUNK, cols], axis=2)       # (rows, subsets, 5)
        values = t[colex(chosen.reshape(-1, 5)).reshape(chosen.shape[:2])]
        first = values.argmax(axis=1)
        rows = np.arange(len(chosen))
        best[lo:lo + _CHUNK], choice[lo:lo + _CHUNK] = values[rows, first], chosen[rows, first]
    return best, choice


_BLOCK = 1 << 15         # rows of best_fives at a time: its arrays stay in the processor's cache


def subsets(r: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 5-subsets of r columns in itertools.combinations' order, as rows; each one's bit
    mask; and mask -> its place in that order (-1 for a mask of no subset)."""
    found = _SUBSETS.get(r)
    if found is None:
        combos = np.array(list(itertools.combinations(range(r), 5)), dtype=np.int64).reshape(-1, 5)
        masks = (1 << combos).sum(axis=1)
        where = np.full(1 << r, -1, dtype=np.int64)
        where[masks] = np.arange(len(combos))
        found = _SUBSETS[r] = (combos, masks, where)
    return found


_SUBSETS: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _sort_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row of different positions sorted, and the column each sorted entry came from:
    a column and its position packed into one integer, sorted by compare-exchanges of whole
    columns (a few times faster than argsort along rows of seven).

    >>> [a.tolist() for a in _sort_rows(np.array([[5, 0, 9]]))]
    [[[0, 5, 9]], [[1, 0, 2]]]
    """
    r = rows.shape[1]
    kind = np.int16 if r <= 16 and (not rows.size or rows.max() < (1 << 11)) else np.int64
    packed = np.ascontiguousarray((rows.astype(kind) << 4 | np.arange(r, dtype=kind)).T) if kind == np.int16 \
        else np.ascontiguousarray((rows.astype(np.int64) << 8 | np.arange(r)).T)
    cols = list(packed)
    for i in range(r - 1):
        for j in range(r - 1 - i):
            a, b = cols[j], cols[j + 1]
            cols[j], cols[j + 1] = np.minimum(a, b), np.maximum(a, b)
    out = np.stack(cols, axis=1)
    shift, low = (4, 15) if kind == np.int16 else (8, 255)
    return out >> shift, out & low


def best_fives(values: np.ndarray, cards: np.ndarray, n: int = MAX_DECK) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each row of r >= 5 different positions (in any order): the best value of its fives
    in ``values`` (a table indexed by colex), which five makes it first (its place in
    ``itertools.combinations(range(r), 5)`` over the row's columns) and that five's colex index.

    The same answer as sorting every five and taking the first maximum (:func:`best_values`), at a
    fraction of the work: each row is sorted once, so that every five of its sorted columns is
    sorted already, and only rows where several fives share the best value are asked which of
    them comes first in the columns' own order.

    >>> table = np.zeros(21, dtype=int)     # a 7-card deck where two hands are worth 9
    >>> table[colex([[0, 1, 2, 3, 4], [2, 3, 4, 5, 6]])] = 9
    >>> best, first, index = best_fives(table, np.array([[6, 5, 4, 3, 2, 1, 0]]), 7)
    >>> best.tolist(), list(itertools.combinations(range(7), 5))[first[0]], uncolex(index, 7).tolist()
    ([9], (0, 1, 2, 3, 4), [[2, 3, 4, 5, 6]])
    """
    h = np.asarray(cards)
    m, r = h.shape
    combos, _, where = subsets(r)
    binom = _binom(n)[:, 1:6].astype(np.int32 if _c(n, 5) < (1 << 31) else np.int64)   # C(p, i + 1)
    columns = [combos[:, i] * 5 + i for i in range(5)]
    best = np.empty(m, dtype=values.dtype)
    first = np.empty(m, dtype=np.int64)
    index = np.empty(m, dtype=binom.dtype)
    for lo in range(0, m, _BLOCK):
        part = h[lo:lo + _BLOCK]
        rows = np.arange(len(part))
        ranked, order = _sort_rows(part)
        c = np.take(binom, ranked, axis=0).reshape(len(part), 5 * r)
        col = np.take(c, columns[0], axis=1)
        for i in range(1, 5):
            col += np.take(c, columns[i], axis=1)      # colex of each sorted five: (rows, fives)
        v = np.take(values, col)                       # (np.take: several times faster than v[col])
        at = v.argmax(axis=1)                          # the first best in sorted order
        top = v[rows, at]
        mask = (1 << order)[rows[:, None], combos[at]].sum(axis=1)
        place = where[mask]
        tied = np.flatnonzero(np.count_nonzero(v == top[:, None], axis=1) > 1)
        if len(tied):                                  # which tied five comes first in the columns' order
            bits = (1 << order[tied])
            every = sum(np.take(bits, combos[:, i], axis=1) for i in range(5))
            ranked = np.where(v[tied] == top[tied, None], where[every], len(combos))
            at[tied] = ranked.argmin(axis=1)
            place[tied] = ranked[np.arange(len(tied)), at[tied]]
        best[lo:lo + _BLOCK], first[lo:lo + _BLOCK], index[lo:lo + _BLOCK] = top, place, col[rows, at]
    return best, first, index


# -- all hands of a deck --------------------------------------------------------------------------

def _drops(r: int, j: int) -> np.ndarray:
    """For each j-subset of 0..r-1 (colex order), the colex index of it less its i-th card:
    shape (j, C(r, j)), one contiguous row per dropped card, as intp (the fastest to gather by).
    Cards below the dropped one keep their place (C(p, c+1)); those above move down (C(p, c))."""
    rows = _combos(r, j)
    out = np.zeros((j, len(rows)), dtype=np.intp)
    for i in range(j):
        for c in range(j):
            if c != i:
                out[i] += _BINOM[rows[:, c], c + 1 if c < i else c]
    return out


def _lift_blocks(w: np.ndarray, r: int, j: int,
                 drops: np.ndarray | None = None) -> Iterator[tuple[int, np.ndarray]]:
    """From w over the j-subsets of 0..r-1, the max of w over the j-subsets of each (j+1)-subset,
    yielded as (colex start, values) blocks in order.

    A block is the sets R + {u, t} with the same top two cards u < t, R a (j-1)-subset of 0..u-1
    taken in colex order.  Dropping t gives R + {u}: w[C(u,j) + colex(R)], a contiguous slice;
    dropping u gives R + {t}: w[C(t,j) + colex(R)], contiguous too; dropping a card of R gives
    (R less it) + {u, t}, which lies in the small slice of w at C(t,j) + C(u,j-1), gathered by
    the same drop indices for every block.  So each block is two slices and j-1 gathers from
    a piece of the table that stays in cache.
    """
    if j == 0:
        yield 0, np.full(r, w[0], dtype=w.dtype)
        return
    if drops is None:
        drops = _drops(max(r - 2, 0), j - 1)
    for t in range(j, r):
        for u in range(j - 1, t):
            m = _c(u, j - 1)
            out = np.maximum(w[_c(u, j):_c(u, j) + m], w[_c(t, j):_c(t, j) + m])
            lo = _c(t, j) + m
            sub = w[lo:lo + _c(u, j - 2)]
            for i in range(j - 1):
                np.maximum(out, sub[drops[i, :m]], out=out)
            yield _c(t, j + 1) + _c(u, j), out


def _lift(w: np.ndarray, r: int, j: int) -> np.ndarray:
    """The whole (j+1)-level of `_lift_blocks`, as one array in colex order."""
    out = np.empty(_c(r, j + 1), dtype=w.dtype)
    for start, block in _lift_blocks(w, r, j):
        out[start:start + len(block)] = block
    return out


def _dense(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The table as ranks 0..d-1 in the smallest dtype (the distinct values in order, too):
    fewer bytes per value keep the hot slices in cache; order is all a max needs."""
    values, ranks = np.unique(table, return_inverse=True)
    dtype = np.uint16 if len(values) <= 1 << 16 else np.int32
    return ranks.astype(dtype).ravel(), values


def best_histogram(table: np.ndarray, n: int, k: int = 7,
                   progress: Callable[[int], object] | None = None) -> np.ndarray:
    """How many k-card hands of the n-card deck have each best five-card value: np.bincount of
    the best value of every hand, of length table.max() + 1.

    The k-level is built from the five-card table one card at a time, each set the max of its
    subsets one card short (`_lift_blocks`): a 7-card hand is 7 looks into the 6-card table,
    not 21 into the 5-card one.  The last level is counted block by block, never stored.
    `progress(done)` gets the number of k-card hands counted so far, now and then.

    >>> table = np.zeros(21, dtype=int)     # a 7-card deck where one hand is worth 3
    >>> table[colex([[1, 2, 3, 5, 6]])] = 3
    >>> best_histogram(table, 7, 5).tolist()
    [20, 0, 0, 1]
    >>> best_histogram(table, 7, 6).tolist()     # {1, 2, 3, 5, 6} plus 0 or 4
    [5, 0, 0, 2]
    >>> best_histogram(table, 7, 7).tolist()
    [0, 0, 0, 1]
    """
    t = _check_table(table, n)
    if k not in (5, 6, 7):
        raise ValueError(f"k must be 5, 6 or 7, not {k}")
    if k > n:
        raise ValueError(f"no {k}-card hands in a {n}-card deck")
    if t.min() < 0:
        raise ValueError("table values must be >= 0 to be counted")
    w, values = _dense(t)
    counts = np.zeros(len(values), dtype=np.int64)
    if k == 5:
        counts += np.bincount(w, minlength=len(values))
    else:
        for j in range(5, k - 1):
            w = _lift(w, n, j)
        done = 0
        for _, block in _lift_blocks(w, n, k - 1):
            counts += np.bincount(block, minlength=len(values))
            done += len(block)
            if progress is not None and done % 4_000_000 < len(block):
                progress(done)
        if progress is not None:
            progress(done)
    hist = np.zeros(int(t.max()) + 1, dtype=np.int64)
    hist[values] = counts
    return hist


# -- equity ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Equity:
    """Each player's share of the pot over the completions of the board.

    win: boards won alone; tie: boards shared; share: the pot won, a split board counting
    1/(winners); all as fractions of `boards`.  stderr is the standard error of share when the
    boards were sampled (exact: 0.0, and seed None).
    """
    boards: int
    exact: bool
    seed: int | None
    win: tuple[float, ...]
    tie: tuple[float, ...]
    share: tuple[float, ...]
    stderr: tuple[float, ...]
    # A split pot (hi/lo): the share of the pot each player takes with the high half and with
    # the low half (share = high + low), and the boards where some low qualifies.
    high: tuple[float, ...] | None = None
    low: tuple[float, ...] | None = None
    low_boards: float | None = None


def _fixed_parts(game: str, hole: Sequence[int], board: Sequence[int], j: int) -> list[tuple[int, ...]]:
    """The cards a five-card hand takes from a player's known cards when it takes j cards from
    the board still to come: any 5-j of hole + board (hold'em); 2 of the hole and 3-j of the
    board (Omaha).  Empty when the game allows no such hand."""
    if game == "holdem":
        return list(itertools.combinations(tuple(hole) + tuple(board), 5 - j)) if j <= 5 else []
    if j > 3:
        return []
    return [p + q for p in itertools.combinations(hole, 2) for q in itertools.combinations(board, 3 - j)]


def _best_with(table: np.ndarray, parts: list[tuple[int, ...]], ys: np.ndarray) -> np.ndarray:
    """For rows ys of cards to come (positions), the best value of part + row over the parts."""
    best = None
    for part in parts:
        rows = np.concatenate([np.broadcast_to(np.array(part, dtype=np.int64), (len(ys), len(part))),
                               ys], axis=1)
        if part:
            rows.sort(axis=1)
        v = table[colex(rows)]
        best = v if best is None else np.maximum(best, v)
    return best


def _player_values(table: np.ndarray, game: str, hole: Sequence[int], board: Sequence[int],
                   rest: np.ndarray, need: int, sample: np.ndarray | None) -> np.ndarray:
    """The player's best value on every completion of the board (colex order over the cards
    left, `rest`), or on the sampled ones (rows of indices into rest).

    A hand is its part from the known cards plus Y, its part of the cards to come.  g_j[Y] is the
    best over the known parts for each j-set Y; h_j[S] = max(g_j[S], h_{j-1} over S's subsets one
    card short) is the best over every Y within S, built level by level with `_lift`.
    """
    r = len(rest)
    top = need if sample is None else need - 1
    h = None
    for j in range(top + 1):
        parts = _fixed_parts(game, hole, board, j)
        g = _best_with(table, parts, rest[_combos(r, j).astype(np.intp)]) if parts else None
        if h is not None:
            h = _lift(h, r, j - 1)
            if g is not None:
                np.maximum(h, g, out=h)
        else:
            h = g
    if sample is None:
        return h
    parts = _fixed_parts(game, hole, board, need)
    best = _best_with(table, parts, rest[sample]) if parts else None
    if h is not None:
        for i in range(need):
            v = h[colex(np.delete(sample, i, axis=1))]
            best = v if best is None else np.maximum(best, v)
    return best


def _sample_completions(r: int, need: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """count uniform need-subsets of 0..r-1 (rows ascending): a uniform colex index, unranked
    by taking the top card first."""
    idx = rng.integers(0, _c(r, need), size=count, dtype=np.int64)
    out = np.empty((count, need), dtype=np.intp)
    for i in range(need, 0, -1):
        col = _BINOM[:r, i]
        p = np.searchsorted(col, idx, side="right") - 1
        out[:, i - 1] = p
        idx = idx - col[p]
    return out


def _check_cards(n: int, game: str, holes: Sequence[Sequence[int]], board: Sequence[int],
                 dead: Sequence[int]) -> None:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: one of {', '.join(GAMES)}")
    if not holes:
        raise ValueError("no players")
    size = 2 if game == "holdem" else 4
    for i, hole in enumerate(holes):
        if len(hole) != size:
            raise ValueError(f"player {i + 1} has {len(hole)} hole cards; {game} deals {size}")
    if len(board) > 5:
        raise ValueError(f"the board has {len(board)} cards; at most 5")
    seen: set[int] = set()
    for card in [c for hole in holes for c in hole] + list(board) + list(dead):
        if isinstance(card, (bool, np.bool_)) or not isinstance(card, (int, np.integer)):
            raise ValueError(f"card {card!r} is not a position")
        if not 0 <= card < n:
            raise ValueError(f"card {card} is not in the deck's positions 0..{n - 1}")
        if card in seen:
            raise ValueError(f"card {card} is dealt twice")
        seen.add(int(card))


def equity(table: np.ndarray, n: int, holes: Sequence[Sequence[int]], board: Sequence[int] = (),
           dead: Sequence[int] = (), game: str = "holdem", samples: int | None = None, seed: int = 0,
           exact_limit: int = EXACT_LIMIT, low: tuple[np.ndarray, np.ndarray] | None = None) -> Equity:
    """Each player's wins, ties and share of the pot over the completions of the board (to five
    cards, from the cards not held, not on the board and not dead).

    Exact (every completion) when samples is None and completions x players x subsets per player
    is within exact_limit; else `samples` completions (200,000 when None) drawn uniformly with
    PCG64(seed).  Each player's values on all completions come from small tables over the cards
    left (`_player_values`), so heads-up preflop takes a fraction of a second.

    >>> table = np.arange(252)              # a 10-card deck where higher colex is better
    >>> e = equity(table, 10, [[0, 9], [7, 8]])  # the board: 5 of the 6 cards 1..6
    >>> e.boards, e.exact, e.win, e.share
    (6, True, (1.0, 0.0), (1.0, 0.0))
    >>> equity(np.zeros(252, dtype=int), 10, [[0, 9], [7, 8]]).share   # every hand ties
    (0.5, 0.5)

    ``low``: a split pot, (the low table, whether each of its values qualifies for the low
    half): on each board the pot is halved between the best high and the best qualifying low,
    all to the high when no low qualifies.  The lower the colex, the better the low, and only
    the two lowest hands (0-1-2-3-4, 0-1-2-3-5) qualify: player 1 makes one on the three boards
    that hold 1, 2 and 3, and takes half of those pots with it:

    >>> lows = (np.arange(252)[::-1].copy(), np.arange(252) >= 250)
    >>> e = equity(table, 10, [[0, 9], [7, 8]], low=lows)
    >>> e.share, e.high, e.low, e.low_boards
    ((1.0, 0.0), (0.75, 0.0), (0.25, 0.0), 0.5)
    """
    t = _check_table(table, n)
    holes = [list(h) for h in holes]
    board, dead = list(board), list(dead)
    _check_cards(n, game, holes, board, dead)
    if samples is not None and (isinstance(samples, bool) or samples < 1):
        raise ValueError(f"samples must be a positive number, not {samples}")
    used = {c for h in holes for c in h} | set(board) | set(dead)
    rest = np.array([c for c in range(n) if c not in used], dtype=np.int64)
    need = 5 - len(board)
    if len(rest) < need:
        raise ValueError(f"{len(rest)} cards left to complete a board that needs {need}")
    total = _c(len(rest), need)
    per_player = math.comb(2 + 5, 5) if game == "holdem" else math.comb(4, 2) * math.comb(5, 3)
    exact = samples is None and total * len(holes) * per_player <= exact_limit
    if exact or need == 0:
        exact, sample, seed_used = True, None, None
    else:
        rng = np.random.Generator(np.random.PCG64(seed))
        sample = _sample_completions(len(rest), need, samples or SAMPLES, rng)
        seed_used = seed
    values = np.stack([_player_values(t, game, h, board, rest, need, sample) for h in holes])
    lows = None
    if low is not None:
        low_table, qualifies = _check_table(low[0], n), np.asarray(low[1], dtype=bool)
        lows = np.stack([_player_values(low_table, game, h, board, rest, need, sample) for h in holes])
        lows = np.where(qualifies[lows], lows, -1)
    return summarise(values, lows, exact, seed_used)


def summarise(values: np.ndarray, lows: np.ndarray | None = None, exact: bool = True,
              seed: int | None = None) -> Equity:
    """Each player's wins, ties and share of the pot from their values on each deal (players x
    deals, higher is better; a tie shares the pot equally), and on a split pot their lows (-1
    where the low does not qualify, higher is better): the pot halved between the best high and
    the best qualifying low, all to the high when no low qualifies.

    >>> summarise(np.array([[3, 1, 2], [1, 2, 2]])).share
    (0.5, 0.5)
    """
    tally = Tally(len(values), lows is not None)
    tally.add(values, lows)
    return tally.equity(exact, seed)


class Tally:
    """Sums over deals added chunk by chunk (so a large sample needs no more memory than a
    chunk): each player's wins, ties, pot shares and their squares (for the standard error),
    and on a split pot the high and low halves taken and the deals where a low qualifies."""

    def __init__(self, players: int, split: bool = False) -> None:
        self.split = split
        self.deals = 0
        self.win, self.tie, self.share, self.square, self.high, self.low = (np.zeros(players) for _ in range(6))
        self.low_deals = 0

    def add(self, values: np.ndarray, lows: np.ndarray | None = None) -> None:
        """Add deals: each player's value on each (players x deals), and on a split pot each
        player's low (-1 where it does not qualify), read as :func:`summarise` reads them."""
        winners = values == values.max(axis=0)
        count = winners.sum(axis=0)
        shares = winners / count
        if lows is not None:
            made = lows >= 0                                    # players x deals: a qualifying low
            any_low = made.any(axis=0)
            low_winners = made & (lows == lows.max(axis=0))
            low_shares = np.where(any_low, low_winners / np.maximum(low_winners.sum(axis=0), 1) / 2, 0.0)
            high_shares = np.where(any_low, shares / 2, shares)
            shares = high_shares + low_shares
            self.high += high_shares.sum(axis=1)
            self.low += low_shares.sum(axis=1)
            self.low_deals += int(any_low.sum())
            self.win += (shares == 1).sum(axis=1)               # scoops: the whole pot
            self.tie += ((shares > 0) & (shares < 1)).sum(axis=1)
        else:
            self.win += (winners & (count == 1)).sum(axis=1)
            self.tie += (winners & (count > 1)).sum(axis=1)
        self.share += shares.sum(axis=1)
        self.square += (shares * shares).sum(axis=1)
        self.deals += values.shape[1]

    def equity(self, exact: bool, seed: int | None) -> Equity:
        b = self.deals
        as_tuple = lambda a: tuple(float(x) for x in a)   # noqa: E731
        halves: dict[str, Any] = {}
        if self.split:
            halves = {"high": as_tuple(self.high / b), "low": as_tuple(self.low / b), "low_boards": self.low_deals / b}
        if exact or b < 2:
            stderr = np.zeros(len(self.share))
        else:
            mean = self.share / b
            stderr = np.sqrt(np.maximum(self.square / b - mean * mean, 0.0) * b / (b - 1) / b)
        return Equity(b, exact, None if exact else seed, as_tuple(self.win / b), as_tuple(self.tie / b),
                      as_tuple(self.share / b), as_tuple(stderr), **halves)
