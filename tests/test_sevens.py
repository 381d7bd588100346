"""engine.poker.sevens against brute force (itertools + max) on small decks with random tables, and
against treys (an independent evaluator) on the real 52-card deck."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from truth import treys_five_values

from engine.poker import sevens
from engine.poker.sevens import (
    Equity,
    best_histogram,
    best_values,
    colex,
    equity,
    five_hands,
)


def ref_index(cards) -> int:
    """The colex index of a set of cards, straight from the definition."""
    return sum(math.comb(p, i + 1) for i, p in enumerate(sorted(cards)))


def random_table(n: int, seed: int, top: int = 40) -> np.ndarray:
    """Random values with many ties (top is far below C(n, 5))."""
    return np.random.default_rng(seed).integers(0, top, math.comb(n, 5))


def ref_best(table, cards, subsets) -> tuple[int, list[int]]:
    """The best value over the given column choices, and the first choice that makes it."""
    best = None
    for s in subsets:
        five = sorted(cards[i] for i in s)
        v = int(table[ref_index(five)])
        if best is None or v > best[0]:
            best = (v, five)
    return best


def ref_equity(table, n, holes, board, dead, game):
    """Wins, ties and shares (exact fractions) over every completion, the slow way."""
    used = {c for h in holes for c in h} | set(board) | set(dead)
    rest = [c for c in range(n) if c not in used]
    wins, ties, share, boards = [0] * len(holes), [0] * len(holes), [Fraction(0)] * len(holes), 0
    for more in itertools.combinations(rest, 5 - len(board)):
        full = list(board) + list(more)
        values = []
        for h in holes:
            if game == "holdem":
                cards = list(h) + full
                values.append(ref_best(table, cards, itertools.combinations(range(7), 5))[0])
            else:
                values.append(max(int(table[ref_index(p + q)]) for p in itertools.combinations(h, 2)
                                  for q in itertools.combinations(full, 3)))
        top = max(values)
        who = [i for i, v in enumerate(values) if v == top]
        for i in who:
            share[i] += Fraction(1, len(who))
            if len(who) == 1:
                wins[i] += 1
            else:
                ties[i] += 1
        boards += 1
    return boards, wins, ties, share


# -- colex and the five-card hands ----------------------------------------------------------------

@pytest.mark.parametrize("n", [5, 6, 9, 16, 24])
def test_five_hands_in_colex_order(n):
    hands = five_hands(n)
    assert hands.shape == (math.comb(n, 5), 5)
    expected = sorted(itertools.combinations(range(n), 5), key=ref_index)
    assert [tuple(r) for r in hands.tolist()] == expected
    assert colex(hands).tolist() == list(range(len(hands)))
    assert colex(hands).dtype == np.int64


def test_colex_any_width_and_big_deck():
    rng = random.Random(3)
    rows = [sorted(rng.sample(range(64), 5)) for _ in range(500)]
    assert colex(np.array(rows)).tolist() == [ref_index(r) for r in rows]
    assert colex(np.array([[0, 1, 2, 3, 4, 5, 63]])).tolist() == [ref_index([0, 1, 2, 3, 4, 5, 63])]


def test_deck_size():
    assert sevens.deck_size(np.zeros(math.comb(52, 5))) == 52
    with pytest.raises(ValueError, match="not C\\(n, 5\\)"):
        sevens.deck_size(np.zeros(100))


# -- best_values ----------------------------------------------------------------------------------

@pytest.mark.parametrize("k, nb", [(2, 3), (2, 4), (2, 5), (1, 5), (3, 4), (5, 0), (0, 5)])
@pytest.mark.parametrize("shared", [True, False])
def test_best_values_holdem(k, nb, shared):
    n = 20
    table = random_table(n, k * 10 + nb)
    rng = random.Random(k * 7 + nb)
    boards = [rng.sample(range(n), nb) for _ in range(1 if shared else 200)]
    hands = [rng.sample([c for c in range(n) if c not in boards[0 if shared else i]], k)
             for i in range(200)]
    values, choice = best_values(table, np.array(hands).reshape(200, k),
                                 np.array(boards).reshape(len(boards), nb))
    for i, h in enumerate(hands):
        cards = h + boards[0 if shared else i]
        v, five = ref_best(table, cards, itertools.combinations(range(len(cards)), 5))
        assert (values[i], choice[i].tolist()) == (v, five)


@pytest.mark.parametrize("k", [5, 6, 7, 8])
def test_best_values_without_board(k):
    n = 18
    table = random_table(n, k, top=12)
    rng = random.Random(k)
    hands = [rng.sample(range(n), k) for _ in range(300)]
    values, choice = best_values(table, np.array(hands))
    for i, h in enumerate(hands):
        assert (values[i], choice[i].tolist()) == ref_best(table, h, itertools.combinations(range(k), 5))
    assert (table[colex(choice)] == values).all()


def test_best_values_in_chunks(monkeypatch):
    monkeypatch.setattr(sevens, "_CHUNK", 7)
    table = random_table(16, 2, top=9)
    rng = random.Random(2)
    hands = [rng.sample(range(16), 7) for _ in range(50)]
    values, choice = best_values(table, hands)
    for i, h in enumerate(hands):
        assert (values[i], choice[i].tolist()) == ref_best(table, h, itertools.combinations(range(7), 5))


@pytest.mark.parametrize("nb", [3, 4, 5])
def test_best_values_omaha(nb):
    n = 22
    table = random_table(n, nb, top=25)
    rng = random.Random(nb)
    deals = [rng.sample(range(n), 4 + nb) for _ in range(200)]
    hands, boards = np.array([d[:4] for d in deals]), np.array([d[4:] for d in deals])
    values, choice = best_values(table, hands, boards, game="omaha")
    for i, d in enumerate(deals):
        subsets = [p + q for p in itertools.combinations(range(4), 2)
                   for q in itertools.combinations(range(4, 4 + nb), 3)]
        assert (values[i], choice[i].tolist()) == ref_best(table, d, subsets)


def test_best_values_shared_board_omaha():
    table = random_table(16, 1)
    v, _ = best_values(table, [[0, 1, 2, 3], [4, 5, 6, 7]], [8, 9, 10], game="omaha")
    assert v.tolist() == [max(table[ref_index(list(p) + [8, 9, 10])] for p in itertools.combinations(h, 2))
                          for h in ([0, 1, 2, 3], [4, 5, 6, 7])]


@pytest.mark.parametrize("args, kwargs, message", [
    (([[0, 1, 2, 3, 99]],), {}, "positions 0..15"),
    (([[0, 1, 2, 3, 3]],), {}, "twice"),
    (([[0, 1, 2, 3]],), {}, "at least 5"),
    (([[0, 1]], [2, 3]), {}, "5..7 cards"),
    (([[0, 1]], [2, 3, 4, 5, 6, 7]), {}, "5..7 cards"),
    (([[0, 1, 2, 3]], [4, 5]), {"game": "omaha"}, "omaha needs"),
    (([[0, 1, 2, 3]],), {"game": "omaha"}, "omaha needs"),
    (([[0, 1]], [2, 3, 4]), {"game": "stud"}, "unknown game"),
    (([[0, 1], [2, 3]], [[4, 5, 6]] * 3), {}, "3 boards for 2 hands"),
    (([[0.5, 1, 2, 3, 4]],), {}, "integer"),
])
def test_best_values_rejects(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        best_values(random_table(16, 0), *args, **kwargs)


# -- best_histogram -------------------------------------------------------------------------------

@pytest.mark.parametrize("n, k", [(16, 5), (16, 6), (16, 7), (19, 7), (12, 7), (7, 7), (6, 6)])
def test_best_histogram_brute(n, k):
    table = random_table(n, n * k, top=50)
    ref = Counter(ref_best(table, h, itertools.combinations(range(k), 5))[0]
                  for h in itertools.combinations(range(n), k))
    seen = []
    hist = best_histogram(table, n, k, progress=seen.append)
    assert len(hist) == table.max() + 1
    assert {v: c for v, c in enumerate(hist.tolist()) if c} == dict(ref)
    if k > 5:
        assert seen and seen[-1] == math.comb(n, k) and seen == sorted(seen)


def test_best_histogram_many_distinct_values():
    """Over 65,536 distinct values (ranks no longer fit 16 bits), far apart; k = 6 by numpy brute."""
    n = 26
    table = np.random.default_rng(5).permutation(math.comb(n, 5)) * 3
    binom = np.array([[math.comb(a, b) for b in range(6)] for a in range(n)], dtype=np.int64)
    six = np.array(list(itertools.combinations(range(n), 6)), dtype=np.int64)
    best = np.zeros(len(six), dtype=np.int64)
    for s in itertools.combinations(range(6), 5):
        best = np.maximum(best, table[sum(binom[six[:, c], i + 1] for i, c in enumerate(s))])
    assert (best_histogram(table, n, 6) == np.bincount(best, minlength=table.max() + 1)).all()


def test_best_histogram_far_apart_and_all_equal():
    n = 17
    table = np.random.default_rng(6).permutation(math.comb(n, 5)) * 1000
    ref = Counter(max(int(table[ref_index(f)]) for f in itertools.combinations(h, 5))
                  for h in itertools.combinations(range(n), 7))
    hist = best_histogram(table, n, 7)
    assert {v: c for v, c in enumerate(hist.tolist()) if c} == dict(ref)
    flat = best_histogram(np.full(math.comb(n, 5), 2), n, 6)
    assert flat.tolist() == [0, 0, math.comb(n, 6)]


@pytest.mark.parametrize("args, message", [
    ((np.zeros(4368, dtype=int), 16, 8), "k must be 5, 6 or 7"),
    ((np.zeros(21, dtype=int), 7, 5), None),
    ((np.zeros(6, dtype=int), 6, 7), "no 7-card hands"),
    ((np.zeros(100, dtype=int), 16, 7), "not C\\(16, 5\\)"),
    ((np.full(4368, -1), 16, 7), ">= 0"),
    ((np.zeros(4368), 16, 7), "integers"),
    ((np.zeros(4368, dtype=int), 70, 7), "5..64"),
])
def test_best_histogram_rejects(args, message):
    if message is None:
        assert best_histogram(*args).tolist() == [21]
    else:
        with pytest.raises(ValueError, match=message):
            best_histogram(*args)


# -- equity ---------------------------------------------------------------------------------------

def check_exact(e: Equity, ref) -> None:
    boards, wins, ties, share = ref
    assert e.exact and e.seed is None and e.boards == boards
    assert e.win == tuple(w / boards for w in wins)
    assert e.tie == tuple(t / boards for t in ties)
    assert e.share == pytest.approx(tuple(float(s / boards) for s in share), abs=1e-12)
    assert e.stderr == (0.0,) * len(wins)


@pytest.mark.parametrize("nboard, players, ndead", [(0, 2, 0), (0, 3, 2), (3, 2, 0), (3, 4, 1),
                                                    (4, 3, 0), (5, 2, 3), (1, 2, 0), (2, 5, 0)])
def test_equity_holdem_brute(nboard, players, ndead):
    n = 20
    table = random_table(n, 100 + nboard * 10 + players, top=15)
    cards = random.Random(nboard * 10 + players).sample(range(n), 2 * players + nboard + ndead)
    holes = [cards[2 * i:2 * i + 2] for i in range(players)]
    board = cards[2 * players:2 * players + nboard]
    dead = cards[2 * players + nboard:]
    check_exact(equity(table, n, holes, board, dead), ref_equity(table, n, holes, board, dead, "holdem"))


@pytest.mark.parametrize("nboard, players, n", [(0, 2, 18), (3, 2, 22), (4, 3, 22), (5, 2, 16),
                                                (1, 2, 17), (2, 3, 20)])
def test_equity_omaha_brute(nboard, players, n):
    table = random_table(n, 7 + nboard + players, top=15)
    cards = random.Random(nboard + players).sample(range(n), 4 * players + nboard)
    holes = [cards[4 * i:4 * i + 4] for i in range(players)]
    board = cards[4 * players:]
    check_exact(equity(table, n, holes, board, game="omaha"),
                ref_equity(table, n, holes, board, (), "omaha"))


@pytest.mark.parametrize("game", ["holdem", "omaha"])
def test_equity_sampled_close_to_exact(game):
    n = 24
    table = random_table(n, 9, top=30)
    holes = [[0, 5], [9, 13], [17, 22]] if game == "holdem" else [[0, 5, 6, 7], [9, 13, 14, 15]]
    exact = equity(table, n, holes, game=game)
    sampled = equity(table, n, holes, game=game, samples=40_000, seed=7)
    assert not sampled.exact and sampled.seed == 7 and sampled.boards == 40_000
    for s, se, x in zip(sampled.share, sampled.stderr, exact.share):
        assert 0 < se < 0.01
        assert abs(s - x) < 4 * se
    assert sampled == equity(table, n, holes, game=game, samples=40_000, seed=7)
    assert sampled != equity(table, n, holes, game=game, samples=40_000, seed=8)
    assert sum(sampled.share) == pytest.approx(1.0)


def test_equity_samples_when_over_the_limit():
    table = random_table(20, 3)
    e = equity(table, 20, [[0, 1], [2, 3]], exact_limit=1000)
    assert not e.exact and e.boards == sevens.SAMPLES and e.seed == 0
    assert equity(table, 20, [[0, 1], [2, 3]], board=[4, 5, 6, 7, 8], samples=10).exact  # one board


def test_sampled_boards_are_uniform():
    draws = sevens._sample_completions(9, 3, 84_000, np.random.default_rng(1))
    assert (np.diff(draws, axis=1) > 0).all() and draws.min() == 0 and draws.max() == 8
    counts = np.bincount(colex(draws), minlength=84)
    assert len(counts) == 84
    chi2 = ((counts - 1000) ** 2 / 1000).sum()
    assert chi2 < 140                                   # 83 degrees of freedom: p ~ 1e-4


def test_exact_limit_covers_heads_up_preflop():
    holdem = math.comb(48, 5) * 2 * 21
    omaha = math.comb(44, 5) * 2 * 60
    assert (math.comb(48, 5), math.comb(44, 5)) == (1_712_304, 1_086_008)
    assert max(holdem, omaha) <= sevens.EXACT_LIMIT


@pytest.mark.parametrize("holes, kwargs, message", [
    ([], {}, "no players"),
    ([[0, 1, 2]], {}, "3 hole cards; holdem deals 2"),
    ([[0, 1], [2, 3]], {"game": "omaha"}, "omaha deals 4"),
    ([[0, 1], [2, 20]], {}, "card 20 is not in the deck"),
    ([[0, 1], [2, -1]], {}, "card -1"),
    ([[0, 1], [1, 3]], {}, "card 1 is dealt twice"),
    ([[0, 1], [2, 3]], {"board": [4, 5, 6, 7, 8, 9]}, "at most 5"),
    ([[0, 1], [2, 3]], {"board": [4], "dead": [4]}, "card 4 is dealt twice"),
    ([[0, 1], [2, 3]], {"dead": list(range(4, 18))}, "2 cards left"),
    ([[0, 1], [2, 3]], {"game": "razz"}, "unknown game"),
    ([[0, 1], [2, 3]], {"samples": 0}, "samples"),
    ([[0, 1], [2, "3"]], {}, "not a position"),
    ([[0, 1], [2, 3.0]], {}, "not a position"),
])
def test_equity_rejects(holes, kwargs, message):
    with pytest.raises(ValueError, match=message):
        equity(random_table(20, 0), 20, holes, **kwargs)


def test_equity_table_must_fit_the_deck():
    with pytest.raises(ValueError, match="C\\(21, 5\\)"):
        equity(random_table(20, 0), 21, [[0, 1], [2, 3]])


# -- treys on the 52-card deck --------------------------------------------------------------------

def treys_card(p: int) -> int:
    from treys import Card
    return Card.new("23456789TJQKA"[p // 4] + "shdc"[p % 4])


@pytest.fixture(scope="module")
def treys_table() -> np.ndarray:
    """Every five-card hand's value from treys, higher better: 7463 - treys' rank."""
    return treys_five_values([treys_card(p) for p in range(52)])[0].astype(np.int16)


def test_treys_seven_card_hands(treys_table):
    from treys import Evaluator
    ev = Evaluator()
    rng = random.Random(52)
    hands = [rng.sample(range(52), 7) for _ in range(3000)]
    values, choice = best_values(treys_table, np.array(hands))
    expected = [7463 - ev.evaluate([treys_card(p) for p in h[:2]], [treys_card(p) for p in h[2:]])
                for h in hands]
    assert values.tolist() == expected
    assert all(set(c) <= set(h) for c, h in zip(choice.tolist(), hands))
    # the same hands as hole cards plus a board
    v2, _ = best_values(treys_table, np.array([h[:2] for h in hands]), np.array([h[2:] for h in hands]))
    assert v2.tolist() == expected


def test_treys_omaha(treys_table):
    from treys import Evaluator
    five = Evaluator()._five
    rng = random.Random(4)
    for nb in (3, 4, 5):
        deals = [rng.sample(range(52), 4 + nb) for _ in range(300)]
        values, choice = best_values(treys_table, np.array([d[:4] for d in deals]),
                                     np.array([d[4:] for d in deals]), game="omaha")
        for d, v, c in zip(deals, values.tolist(), choice.tolist()):
            assert v == max(7463 - five([treys_card(x) for x in p + q])
                            for p in itertools.combinations(d[:4], 2)
                            for q in itertools.combinations(d[4:], 3))
            assert len(set(c) & set(d[:4])) == 2


def treys_equity(holes, board, game):
    from treys import Evaluator
    ev = Evaluator()
    used = {c for h in holes for c in h} | set(board)
    rest = [c for c in range(52) if c not in used]
    share, boards = [0.0] * len(holes), 0
    for more in itertools.combinations(rest, 5 - len(board)):
        full = [treys_card(p) for p in list(board) + list(more)]
        if game == "holdem":
            ranks = [ev.evaluate([treys_card(p) for p in h], full) for h in holes]
        else:
            ranks = [min(ev._five([treys_card(x) for x in p] + list(q))
                         for p in itertools.combinations(h, 2) for q in itertools.combinations(full, 3))
                     for h in holes]
        best = min(ranks)
        who = [i for i, r in enumerate(ranks) if r == best]
        for i in who:
            share[i] += 1 / len(who)
        boards += 1
    return boards, [s / boards for s in share]


def test_treys_equity_flop_and_turn(treys_table):
    # As Kh vs 9c 9d vs Js Ts on Qs 9s 2h (hold'em flop); Omaha four-card hands on a turn
    holes = [[48, 45], [31, 30], [36, 32]]
    board = [40, 28, 1]
    e = equity(treys_table, 52, holes, board)
    boards, share = treys_equity(holes, board, "holdem")
    assert e.exact and e.boards == boards == math.comb(52 - 9, 2)
    assert e.share == pytest.approx(share, abs=1e-12)
    holes = [[48, 49, 44, 45], [36, 37, 32, 33]]
    board = [40, 28, 1, 6]
    e = equity(treys_table, 52, holes, board, game="omaha")
    boards, share = treys_equity(holes, board, "omaha")
    assert e.boards == boards == 40
    assert e.share == pytest.approx(share, abs=1e-12)


def brute_values(table: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Best of 7 for each row, all 21 subsets looked up directly (no shortcut of the module)."""
    binom = np.array([[math.comb(a, b) for b in range(6)] for a in range(52)], dtype=np.int64)
    cards = np.sort(cards, axis=1)
    best = None
    for s in itertools.combinations(range(7), 5):
        idx = sum(binom[cards[:, c], i + 1] for i, c in enumerate(s))
        v = table[idx]
        best = v if best is None else np.maximum(best, v)
    return best


def test_aces_against_kings_preflop(treys_table):
    """As Ad vs Ks Kh: the well-known 81.95% / 18.05% (one suit in common), and the exact board
    counts of a plain brute force over all 1,712,304 boards."""
    holes = [[48, 50], [44, 45]]
    e = equity(treys_table, 52, holes)
    assert e.exact and e.boards == 1_712_304
    assert e.share[0] == pytest.approx(0.8195, abs=5e-5)
    assert e.share[1] == pytest.approx(0.1805, abs=5e-5)
    rest = np.array([c for c in range(52) if c not in (48, 50, 44, 45)])
    boards = np.array(list(itertools.combinations(rest, 5)), dtype=np.int64)
    a = brute_values(treys_table, np.concatenate([np.broadcast_to([48, 50], (len(boards), 2)), boards], 1))
    k = brute_values(treys_table, np.concatenate([np.broadcast_to([44, 45], (len(boards), 2)), boards], 1))
    assert e.win == (float((a > k).mean()), float((k > a).mean()))
    assert e.tie == (float((a == k).mean()),) * 2


def test_seven_card_categories(treys_table):
    """The published counts of the best hand of all 133,784,560 seven-card hands."""
    from treys import Evaluator
    ev = Evaluator()
    hist = best_histogram(treys_table, 52, 7)
    assert hist.sum() == math.comb(52, 7)
    assert np.count_nonzero(hist) == 4824
    by_class = Counter()
    for v in np.flatnonzero(hist):
        by_class[ev.class_to_string(ev.get_rank_class(7463 - int(v)))] += int(hist[v])
    by_class["Straight Flush"] += by_class.pop("Royal Flush")
    assert dict(by_class) == {
        "Straight Flush": 41_584, "Four of a Kind": 224_848, "Full House": 3_473_184,
        "Flush": 4_047_644, "Straight": 6_180_020, "Three of a Kind": 6_461_620,
        "Two Pair": 31_433_400, "Pair": 58_627_800, "High Card": 23_294_460}
    six = best_histogram(treys_table, 52, 6)
    assert six.sum() == math.comb(52, 6)
