"""Hand ranges (engine/poker/ranges.py) and their equity (engine/poker/matchups.py, engine/equity.py): the
notation against an independent expander, the counting against treys by brute force, against
the one-matchup-at-a-time equity, and with and without the classes of boards under renamed suits."""

from __future__ import annotations

import itertools
import json
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from truth import EVALUATOR, treys_cards

from engine import Engine
from engine.cli import main
from engine.equity import equity
from engine.judging.proof import suit_symmetry
from engine.judging.table import five_card_table
from engine.poker import matchups, sevens
from engine.poker.notation import InvalidCards
from engine.poker.ranges import Range, read_range

VALUES = "23456789TJQKA"        # the order players write ranges in, lowest first
SUITS = "hdcs"


# -- the notation -------------------------------------------------------------------------------

def expand(item: str) -> set[frozenset[str]]:
    """An independent reading of one range item (standard deck), as sets of tokens."""
    def hands(a: str, b: str, kind: str) -> set[frozenset[str]]:
        out = set()
        for s, t in itertools.product(SUITS, SUITS):
            if a == b and s >= t:
                continue
            if kind == "s" and s != t or kind == "o" and s == t:
                continue
            out.add(frozenset({a + s, b + t}))
        return out
    o = VALUES.index
    if "-" in item:
        left, right = item.split("-")
        kind = left[2:]
        (a, b), (c, d) = sorted([sorted(left[:2], key=o, reverse=True), sorted(right[:2], key=o, reverse=True)],
                                key=lambda p: (o(p[0]), o(p[1])))
        if a == b:
            return set().union(*(hands(v, v, "") for v in VALUES[o(a):o(c) + 1]))
        if a == c:
            return set().union(*(hands(a, v, kind) for v in VALUES[o(b):o(d) + 1]))
        gap = o(a) - o(b)
        return set().union(*(hands(VALUES[i], VALUES[i - gap], kind) for i in range(o(a), o(c) + 1)))
    a, b = sorted(item[:2], key=o, reverse=True)
    kind = item[2:].rstrip("+")
    if not item.endswith("+"):
        return hands(a, b, kind)
    if a == b:
        return set().union(*(hands(v, v, "") for v in VALUES[o(a):]))
    return set().union(*(hands(a, v, kind) for v in VALUES[o(b):o(a)]))


@st.composite
def items(draw) -> str:
    """A range item of any shape, as players write it."""
    shape = draw(st.sampled_from(["pair", "pair+", "pairs", "two", "two+", "kickers", "run"]))
    v = lambda lo=0, hi=12: VALUES[draw(st.integers(lo, hi))]  # noqa: E731
    kind = draw(st.sampled_from(["", "s", "o"]))
    if shape == "pair":
        x = v()
        return x + x
    if shape == "pair+":
        x = v()
        return x + x + "+"
    if shape == "pairs":
        x, y = v(), v()
        return f"{x}{x}-{y}{y}"
    a, b = sorted(draw(st.lists(st.integers(0, 12), min_size=2, max_size=2, unique=True)), reverse=True)
    if shape == "two":
        return VALUES[a] + VALUES[b] + kind if draw(st.booleans()) else VALUES[b] + VALUES[a] + kind
    if shape == "two+":
        return VALUES[a] + VALUES[b] + kind + "+"
    if shape == "kickers":
        c = draw(st.integers(0, a - 1))
        return f"{VALUES[a]}{VALUES[b]}{kind}-{VALUES[a]}{VALUES[c]}{kind}"
    gap = a - b
    top = draw(st.integers(gap, 12))
    return f"{VALUES[a]}{VALUES[b]}{kind}-{VALUES[top]}{VALUES[top - gap]}{kind}"


@settings(max_examples=200, deadline=None)
@given(st.lists(items(), min_size=1, max_size=4))
def test_a_range_is_the_hands_its_items_name(engine, written):
    got = read_range(engine, ",".join(written))
    want = set().union(*(expand(i) for i in written))
    assert {frozenset(engine.notation.format([c]).upper() for c in h) for h in got.combos} == \
        {frozenset(t.upper() for t in h) for h in want}
    assert len(got.combos) == len(set(got.combos)) and all(list(h) == sorted(h) for h in got.combos)


@pytest.mark.parametrize("text, count", [
    ("AA", 6), ("QQ+", 18), ("22-55", 24), ("AKs", 4), ("AKo", 12), ("AK", 16), ("KA", 16), ("ATs+", 16),
    ("A2s-A5s", 16), ("T9s-65s", 20), ("QQ+,AKs", 22), ("AK,AKs", 16), ("random", 1326), ("AhKh", 1),
    ("Ah Kh", 1), ("AhKh, QdQc", 2), (" qq+ , aks ", 22), ("RANDOM", 1326),
])
def test_range_sizes(engine, text, count):
    assert len(read_range(engine, text)) == count


@pytest.mark.parametrize("text, error", [
    ("AKx", "range 'AKx': 'AKx' is not 2 cards, random, or a range such as"),
    ("QQs", "range 'QQs': a pair is neither suited nor offsuit"),
    ("A2s-K5s", "a run keeps the first value (A2s-A5s), keeps the gap (T9s-65s), or is of pairs (22-55)"),
    ("AKs-QJo", "'AKs-QJo': both ends of a run are suited, offsuit, or neither"),
    ("QQ+,", "range 'QQ+,': an empty item between commas"),
    ("", "an empty range"),
    ("Ah Kh Qh", "'Ah Kh Qh': holdem deals 2 hole cards, not 3"),
    ("AhAh", "'AhAh': a card is given twice in one hand"),
    ("A" * 5000, "a range of 5,000 characters: at most 4,096"),
])
def test_a_bad_range_is_one_line_naming_it(engine, text, error):
    with pytest.raises(InvalidCards) as caught:
        read_range(engine, text)
    assert error in str(caught.value) and "\n" not in str(caught.value)


def test_omaha_takes_cards_or_random(engine):
    assert len(read_range(engine, "random", 4, "omaha")) == math.comb(52, 4)
    assert len(read_range(engine, "AhKhQhJh, 2c3c4c5c", 4, "omaha")) == 2
    with pytest.raises(InvalidCards, match="names two hole cards; omaha deals 4"):
        read_range(engine, "AA", 4, "omaha")


def test_the_rules_deck_and_order_make_the_range():
    short = Engine("short-deck")
    assert len(read_range(short, "random")) == math.comb(36, 2)
    assert len(read_range(short, "66+")) == 9 * 6
    with pytest.raises(InvalidCards, match="the value '2' is not in these rules' deck"):
        read_range(short, "22")


# -- equity of ranges against independent counts --------------------------------------------------

def brute(engine: Engine, ranges: list[Range], board: list[int]) -> tuple[list[float], int]:
    """Each player's share by treys over every deal (a hand of each range, no card twice, and a
    completion of the board), and the number of deals."""
    token = engine.notation.token
    hands = [[h for h in r.combos if not set(h) & set(board)] for r in ranges]
    deck = [c for c in engine.deck if c not in board]
    shares, deals = [0.0] * len(ranges), 0
    for deal in itertools.product(*hands):
        cards = [c for h in deal for c in h]
        if len(set(cards)) != len(cards):
            continue
        rest = [c for c in deck if c not in cards]
        for more in itertools.combinations(rest, 5 - len(board)):
            full = treys_cards([token(c) for c in board + list(more)])
            scores = [EVALUATOR.evaluate(treys_cards([token(c) for c in h]), full) for h in deal]
            best = min(scores)
            won = [i for i, s in enumerate(scores) if s == best]
            for i in won:
                shares[i] += 1 / len(won)
            deals += 1
    return [s / deals for s in shares], deals


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_two_ranges_exactly_as_treys_counts_them(engine, data):
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    board = rng.sample(engine.deck, data.draw(st.sampled_from([4, 5])))
    texts = [",".join(data.draw(st.lists(items(), min_size=1, max_size=2))) for _ in range(2)]
    ranges = [read_range(engine, t).without(board) for t in texts]
    if not all(ranges) or not matchups.matchups([np.array(r.combos) for r in ranges], 10**6).size:
        return
    if math.prod(len(r) for r in ranges) > 400:
        return
    got = equity(engine, texts, board=engine.notation.format(board), checked=2)
    want, deals = brute(engine, ranges, board)
    assert got.exact and got.boards == deals and got.hands == tuple(len(r) for r in ranges)
    assert got.share == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("texts, board", [
    (["AA", "KK", "QQ"], "2C 7D 9H TS"),
    (["AhKh", "QQ+", "T9s"], "2C 7D 9H TS"),
])
def test_three_ranges_exactly_as_treys_counts_them(engine, texts, board):
    got = equity(engine, texts, board=board, checked=2)
    ranges = [read_range(engine, t) for t in texts]
    shown = engine.cards(board)
    known = [c for r in ranges if r.exact for c in r.combos[0]]
    want, deals = brute(engine, [r if r.exact else r.without(known) for r in ranges], shown)
    assert got.exact and got.boards == deals
    assert got.share == pytest.approx(want, abs=1e-12)


@pytest.fixture(scope="module")
def short():
    engine = Engine("short-deck")
    table = five_card_table(engine)
    symmetry = suit_symmetry(engine.ruleset.clauses)
    assert not isinstance(symmetry, str)
    return engine, table, symmetry


def test_boards_counted_by_class_are_every_board(short):
    # before the flop of a 36-card deck: the classes of boards under renamed suits, each counted once
    # with its size, and every board one by one, and every matchup one by one, give the same counts
    engine, table, symmetry = short
    at = {c: i for i, c in enumerate(table.cards)}
    a, b = (np.array([[at[c] for c in h] for h in read_range(engine, t).combos]) for t in ("AA,KQs", "TT,A9o"))
    by_class = matchups.headsup(table.values, 36, a, b, suits=symmetry.suits, values=symmetry.values)
    one_by_one = matchups.headsup(table.values, 36, a, b)
    assert by_class == one_by_one
    wins = ties = 0.0
    pairs = [(x, y) for x in a.tolist() for y in b.tolist() if not set(x) & set(y)]
    for x, y in pairs:
        e = sevens.equity(table.values, 36, [x, y])
        wins, ties = wins + e.win[0], ties + e.tie[0]
    assert by_class.matchups == len(pairs)
    assert by_class.wins / by_class.deals == pytest.approx(wins / len(pairs), abs=1e-12)
    assert by_class.ties / by_class.deals == pytest.approx(ties / len(pairs), abs=1e-12)


def test_only_the_suits_nothing_tells_apart_are_renamed(short):
    # AhKh tells hearts apart: the other three suits are renamed among themselves, and the counts
    # are those of every board; a dead card of one of them leaves two
    engine, table, symmetry = short
    at = {c: i for i, c in enumerate(table.cards)}
    suits, values = np.asarray(symmetry.suits), np.asarray(symmetry.values)
    a, b = (np.array([[at[c] for c in h] for h in read_range(engine, t).combos]) for t in ("AhKh,QQ", "JJ+"))
    heart = suits[at[engine.cards("AH")[0]]]
    assert matchups._free_suits([a, b], set(), suits, values) == [u for u in range(4) if u != heart]
    spade = at[engine.cards("6S")[0]]
    assert len(matchups._free_suits([a, b], {spade}, suits, values)) == 2
    assert matchups.headsup(table.values, 36, a, b, suits=symmetry.suits, values=symmetry.values) == \
        matchups.headsup(table.values, 36, a, b)
    assert matchups.headsup(table.values, 36, a, b, dead=[spade], suits=symmetry.suits, values=symmetry.values) == \
        matchups.headsup(table.values, 36, a, b, dead=[spade])


def test_sampled_ranges_agree_with_the_exact_count(engine):
    exact = equity(engine, ["AKs,QQ", "JJ-99,AQo"], board="2C 7D 9H", checked=0)
    sampled = equity(engine, ["AKs,QQ", "JJ-99,AQo"], board="2C 7D 9H", samples=40_000, seed=5, checked=0)
    assert exact.exact and not sampled.exact and sampled.seed == 5 and sampled.boards == 40_000
    for s, e, err in zip(sampled.share, exact.share, sampled.stderr):
        assert 0 < err < 0.01 and abs(s - e) < 5 * err


def test_hi_lo_ranges_are_the_mean_of_their_matchups(engine):
    texts, board = ["AhKh2c3c, AsKs2d3d", "random"], "4H 8D JC QS"
    got = equity(engine, texts, board=board, game="omaha-hilo", samples=10_000, seed=2, checked=4)
    assert not got.exact and got.high is not None and abs(sum(got.share) - 1) < 1e-9
    one = equity(engine, ["AhKh2c3c", "9s9d5c5d"], board=board, game="omaha-hilo")
    mixed = equity(engine, ["AhKh2c3c,AsKs2d3d", "9s9d5c5d"], board=board, game="omaha-hilo", checked=2)
    other = equity(engine, ["AsKs2d3d", "9s9d5c5d"], board=board, game="omaha-hilo")
    assert mixed.exact and mixed.matchups == 2
    for name in ("share", "high", "low", "win", "tie"):
        assert getattr(mixed, name) == pytest.approx([(x + y) / 2 for x, y in zip(getattr(one, name),
                                                                                  getattr(other, name))], abs=1e-12)


def test_random_hands_are_dealt_from_the_cards_left(engine):
    # ten random hold'em hands (most independent draws share a card) and six-handed Omaha
    e = equity(engine, ["random"] * 10, samples=2_000, checked=2)
    assert not e.exact and e.boards == 2_000 and abs(sum(e.share) - 1) < 1e-9
    assert all(abs(s - 0.1) < 0.05 for s in e.share)
    o = equity(engine, ["AhKhQhJh"] + ["random"] * 5, game="omaha", samples=2_000, checked=2)
    assert not o.exact and o.hands[0] == 1 and abs(sum(o.share) - 1) < 1e-9


def test_a_sampler_deals_every_matchup_alike():
    # a 12-card deck: a fixed hand, a range of three (one clashes with it), and random (every
    # hand of the cards left): every matchup as often as every other, and no card twice
    rng = np.random.Generator(np.random.PCG64(4))
    ranges = [np.array([[0, 1]]), np.array([[1, 2], [2, 3], [3, 4]]),
              np.array(list(itertools.combinations(range(2, 12), 2)))]
    sampler = matchups.Sampler(12, ranges, [], [])
    assert sampler.full == [False, False, True]
    holes, boards = sampler.draw(60_000, rng)
    deals = np.concatenate([holes.reshape(len(holes), -1), boards], axis=1)
    assert (np.diff(np.sort(deals, axis=1), axis=1) > 0).all()
    seen: dict[tuple, int] = {}
    for h in map(tuple, holes[:, 1:].reshape(len(holes), -1).tolist()):
        seen[h] = seen.get(h, 0) + 1
    expected = {(a, b, c, d) for a, b in [(2, 3), (3, 4)] for c, d in itertools.combinations(range(2, 12), 2)
                if not {a, b} & {c, d}}
    assert set(seen) == expected
    mean = len(holes) / len(expected)
    assert all(abs(k - mean) < 5 * math.sqrt(mean) for k in seen.values())


def test_equity_refuses_what_cannot_be_dealt(engine, capsys):
    dead = " ".join(engine.notation.token(c) for c in engine.deck if engine.notation.token(c) not in
                    {"AH", "AS", "KH", "KS", "2C", "3C", "4C", "5C"})
    with pytest.raises(InvalidCards, match="8 cards left to deal 2 hands of 2 and complete the board: 9 needed"):
        equity(engine, ["AA", "KK"], dead=dead)
    assert main(["equity", "AA", "KK", "random", "--dead", dead, "--samples", "100"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    with pytest.raises(InvalidCards, match="samples must be a positive number, not 0"):
        equity(engine, ["AA", "KK"], samples=0)
    with pytest.raises(InvalidCards, match="player 1: omaha deals 4 hole cards; the range 'AA' holds other hands"):
        equity(engine, [read_range(engine, "AA"), "random"], game="omaha")
    with pytest.raises(InvalidCards) as caught:
        read_range(engine, "AKs-KQo")
    assert str(caught.value) == "range 'AKs-KQo': both ends of a run are suited, offsuit, or neither"


def test_many_small_matchups_are_sampled_not_counted_one_by_one(engine):
    e = equity(engine, ["random", "AhKhQhJh"], board="2C 3D 4S 5H 9C", game="omaha", checked=2)
    assert not e.exact and e.matchups is None and e.boards == 200_000


def test_ranges_that_deal_nothing_are_one_line(engine):
    with pytest.raises(InvalidCards, match="the ranges deal no matchup"):
        equity(engine, ["AA", "AA", "AA"], board="AH 2C 3D")
    with pytest.raises(InvalidCards, match="player 2: no hand of 'KK' can be dealt"):
        equity(engine, ["AA", "KK"], board="KH KC KD", dead="KS")
    with pytest.raises(InvalidCards, match="player 1: range 'QQ\\+,AKx'"):
        equity(engine, ["QQ+,AKx", "random"])


# -- the command --------------------------------------------------------------------------------

def test_poker_equity_takes_ranges(engine, capsys):
    assert main(["equity", "QQ+,AKs", "JJ,AQs", "--board", "2C 7D 9H"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("holdem, board 2C 7D 9H: exact: every board of every one of ")
    assert out[1].startswith("player 1 (QQ+,AKs: 22 hands): equity ")
    assert out[2].startswith("player 2 (JJ,AQs: 10 hands): equity ")
    assert out[3].startswith("checked: 24 of the deals also judged by the rules' showdown")
    assert main(["equity", "--json", "QQ+,AKs", "random", "--board", "2C 7D 9H TS"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] and [p["hands"] for p in data["players"]] == [22, 1128]
    assert data["boards"] == data["matchups"] * 44 and abs(sum(p["equity"] for p in data["players"]) - 1) < 1e-12


def test_poker_equity_names_a_bad_range(engine, capsys):
    assert main(["equity", "QQ+,AKx", "random"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "player 1: range 'QQ+,AKx': 'AKx' is not 2 cards" in err
