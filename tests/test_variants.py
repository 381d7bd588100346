"""Poker's other games as rule sets (rules/variants/): each held to its published table over its
whole deck, to pokerkit (an independent evaluator, test-only) on the order of every five-card
hand of its deck and on random showdowns, and to the documents' examples (hands.yaml).

The tables below are this suite's own copies of the published figures (combinatorial counts; the
issue and the rule sets' expected.toml cite them); the rule sets' expected.toml must agree with
them, and `poker check` must find them.
"""

from __future__ import annotations

import functools
import json
import os
import random
import shutil
import subprocess
import sys

import numpy as np
import pytest
from published import PUBLISHED

from conftest import FIXTURES
from engine import Engine, InvalidCards
from engine.cli import main
from engine.datalog import rulesets
from engine.evaluators import World, verdicts
from engine.judging.proof import suit_symmetry
from engine.judging.table import five_card_table
from engine.poker import sevens

pokerkit = pytest.importorskip("pokerkit")

# The pokerkit hand of each game that pokerkit has (the triton order it has not).
POKERKIT = {"standard": "StandardHighHand", "short-deck": "ShortDeckHoldemHand",
            "deuce-to-seven": "StandardLowHand", "ace-to-five": "RegularLowHand",
            "eight-or-better": "EightOrBetterLowHand"}
VARIANTS = [name for name in PUBLISHED if name != "standard"]


@functools.cache
def engine_of(name: str) -> Engine:
    return Engine(name)


@pytest.fixture(scope="module", autouse=True)
def engines_let_go_after_the_module():
    """The eight games' engines serve this module's tests; an xdist worker kept them (150 MB) to
    the end of the run."""
    yield
    engine_of.cache_clear()


def pk_token(engine: Engine, card: int) -> str:
    """pokerkit's spelling of a card: rank then lower-case suit (``Th``)."""
    token = engine.notation.token(card)
    return token[:-1] + token[-1].lower()


# ---- the variants are data -------------------------------------------------------------------

def test_every_variant_is_a_named_rule_set_with_a_description():
    names = rulesets.available()
    for name in VARIANTS:
        rs = rulesets.resolve(name)
        assert name in names and rs.description and rs.extends in names
        # only what differs: fewer clauses of its own than the set it extends has
        own = [f for f in rs.files if f.parent.name == name]
        assert own and all(f.suffix == ".dl" for f in own)


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_the_published_tables_of_the_rule_sets_are_the_suites(name):
    hands, distinct, freq = PUBLISHED[name]
    five = rulesets.resolve(name).published.five
    assert (five.hands, five.distinct, five.frequencies) == (hands, distinct, freq)
    assert sum(freq.values()) == hands


def test_a_card_below_six_is_no_card_of_the_short_deck():
    short = engine_of("short-deck")
    assert len(short.deck) == 36
    with pytest.raises(InvalidCards, match="bad card '5H'.*no such card in the deck"):
        short.beat("5H 6D 7C 8S 9H", "6H 7D 8C 9S TH")


@pytest.mark.parametrize("case", FIXTURES["variants"], ids=lambda c: f"{c['rules']}: {c['a']} vs {c['b']}")
def test_the_documents_examples_of_each_game(case):
    engine = engine_of(case["rules"])
    assert engine.beat(case["a"], case["b"]) == case["result"], case.get("why")
    assert [engine.category(case["a"]), engine.category(case["b"])] == case["categories"]


# ---- every hand against the published table and pokerkit ---------------------------------

# `poker check` of a whole deck, in a process of its own: its every-hand arrays and DuckDB
# tables (the joker's 2,869,685 hands) are a transient of 0.5 to 0.7 GB, on top of all that a
# test worker holds by then.
_CHECK = """
import json, sys
from engine import Engine
from engine.check import check
report = check(Engine(sys.argv[1]), samples=200, reference_samples=2)
print(json.dumps({"failed": [o.name for o in report.obligations if not o.holds], "ok": report.ok,
                  "names": [o.name for o in report.obligations], "total": report.total,
                  "frequencies": report.frequencies, "paths": list(report.paths.values())}))
"""


@pytest.mark.parametrize("name", VARIANTS)
def test_check_holds_every_obligation_and_finds_the_published_table(name):
    done = subprocess.run([sys.executable, "-c", _CHECK, name], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    hands, distinct, freq = PUBLISHED[name]
    assert report["ok"] and not report["failed"], report["failed"]
    assert report["total"] == hands and report["frequencies"] == freq
    assert {f"{distinct:,} distinct hand values", "frequencies equal the published table"} <= set(report["names"])
    if engine_of(name).hand_size == 5:
        assert all(how == "off the table (proven)" for how in report["paths"]), report["paths"]
    else:                                         # badugi: the rules' worlds, and the report says why
        assert "a hand of these rules holds 4 cards" in " ".join(report["paths"])


def _pokerkit_strengths(name: str, engine: Engine, ids: np.ndarray) -> np.ndarray:
    """pokerkit's dense rank of every hand (rows of card ids), weakest 0; a hand pokerkit finds
    invalid (no eight-or-better low) is weakest of all.  pokerkit values a hand by its ranks and
    whether it is suited, so one hand of each such key is asked and the answer shared."""
    hand_class = getattr(pokerkit, POKERKIT[name])
    values, suits = ids % 13, (ids - 1) // 13
    flush = (suits == suits[:, :1]).all(axis=1)
    key = np.sort(values, axis=1) @ (13 ** np.arange(5)) * 2 + flush
    keys, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    hands = []
    for row in first:
        try:
            hands.append(hand_class("".join(pk_token(engine, int(c)) for c in ids[row])))
        except ValueError:
            hands.append(None)
    return _dense(hands)[inverse.ravel()]


def _dense(hands: list) -> np.ndarray:
    """The dense rank of pokerkit hands in pokerkit's order, weakest 0 (None: below every hand).
    pokerkit compares two hands by their lookup entries' ``index`` (greater is stronger, reversed
    for a low hand): each hand's entry is read once, not once per comparison of a sort."""
    keys = np.array([-np.inf if h is None else float(-h.entry.index if h.low else h.entry.index) for h in hands])
    return np.unique(keys, return_inverse=True)[1].ravel().astype(np.int64)


@pytest.mark.parametrize("name", list(POKERKIT))
def test_every_five_card_hand_is_ordered_as_pokerkit_orders_it(name):
    """The rules' value of every hand of the deck equals pokerkit's rank of it: the same order of
    all C(n, 5) hands, ties included, not a sample."""
    engine = engine_of(name)
    table = five_card_table(engine)
    ids = np.asarray(table.cards)[sevens.five_hands(len(table.cards))]
    theirs = _pokerkit_strengths(name, engine, ids)
    ours = table.values.astype(np.int64)
    wrong = np.flatnonzero(ours != theirs)
    examples = [engine.notation.format(ids[i].tolist()) for i in wrong[:3]]
    assert not len(wrong), f"{len(wrong)} hands ordered otherwise, e.g. {examples}"


# ---- showdowns ----------------------------------------------------------------------------

# 200 showdowns a game in the default run (each winner still held to pokerkit's);
# POKER_SHOWDOWNS=2000 for the full sample (docs/development.md).
SHOWDOWNS = int(os.environ.get("POKER_SHOWDOWNS") or "200")


@pytest.mark.parametrize("name", list(POKERKIT))
def test_random_holdem_showdowns_agree_with_pokerkit(name):
    """SHOWDOWNS random hold'em rivers (2 to 6 players) of the game's deck, each player's best five
    of seven: the rules' winners are pokerkit's."""
    engine = engine_of(name)
    hand_class = getattr(pokerkit, POKERKIT[name])
    rng = random.Random(name)
    deals = []
    for _ in range(SHOWDOWNS):
        n = rng.randint(2, 6)
        d = rng.sample(engine.deck, 2 * n + 5)
        deals.append(World(tuple(tuple(d[2 * i:2 * i + 2]) for i in range(n)), board=tuple(d[2 * n:]), game=1))
    tok = lambda cs: "".join(pk_token(engine, c) for c in cs)  # noqa: E731
    disagree = []
    for deal, v in zip(deals, verdicts(engine.evaluator(len(deals)), deals, table=engine.tabled(build=True))):
        best = [hand_class.from_game_or_none(tok(h), tok(deal.board)) for h in deal.hands]
        made = [b for b in best if b is not None]
        top = max(made) if made else None
        expected = tuple(i for i, b in enumerate(best) if b is not None and not b < top) if made \
            else tuple(range(len(best)))
        if v.winners != expected:
            disagree.append((tok(deal.board), [tok(h) for h in deal.hands], v.winners, expected))
    assert not disagree, disagree[:3]


def test_poker_diff_says_what_changes_between_two_lowball_games(capsys):
    assert main(["diff", "ace-to-five", "deuce-to-seven"]) == 0
    out = capsys.readouterr().out
    # what 2-7 counts against a hand that ace-to-five does not: straights and flushes
    for line in ("high card -> straight: 9,180", "high card -> flush: 5,112", "high card -> straight flush: 36"):
        assert line in out


def test_poker_diff_compares_decks_over_the_cards_both_have(capsys):
    assert main(["diff", "standard", "short-deck", "--json"]) == 0
    import json
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 376_992 and len(data["only"]["standard"].split()) == 16
    assert {"from": "high card", "to": "straight", "count": 1_020} in data["categories"]   # A-6-7-8-9
    assert {"category": "flush", "from": 6, "to": 7, "count": 480} in data["renumbered"]
    assert {"category": "full house", "from": 7, "to": 6, "count": 1_728} in data["renumbered"]


# ---- the joker, against a brute force ---------------------------------------------------------

def _strengths(values: np.ndarray, suits: np.ndarray, chunk: int = 200_000) -> np.ndarray:
    """An independent evaluator, written here (numpy, no rules): the strength of five cards as one
    integer, higher stronger, for rows of values (2..14, the ace 14) and suits.  Five of a kind
    above the straight flush; a straight ranked by its top card (5 for A-2-3-4-5).  ``chunk`` rows
    at a time: its temporaries for 2.6 million rows at once took 1.2 GB."""
    if len(values) > chunk:
        return np.concatenate([_strengths(values[i:i + chunk], suits[i:i + chunk], chunk)
                               for i in range(0, len(values), chunk)])
    n = len(values)
    counts = np.zeros((n, 15), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(n), 5), values.ravel()), 1)
    groups = np.sort(counts * 16 + np.arange(15), axis=1)[:, ::-1][:, :5]    # (count, value) desc
    groups = np.where(groups >= 16, groups, 0)
    shape, key = groups // 16, groups % 16
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = shape[:, 0] == 1
    high, low = key[:, 0], key[:, 4]
    wheel = distinct & (high == 14) & (key[:, 1] == 5)
    straight = distinct & ((high - low == 4) | wheel)
    top = np.where(wheel, 5, high)
    category = np.select(
        [shape[:, 0] == 5, straight & flush, shape[:, 0] == 4, (shape[:, 0] == 3) & (shape[:, 1] == 2), flush,
         straight, shape[:, 0] == 3, (shape[:, 0] == 2) & (shape[:, 1] == 2), shape[:, 0] == 2],
        [9, 8, 7, 6, 5, 4, 3, 2, 1], 0)
    digits = np.where((straight[:, None]), np.pad(top[:, None], ((0, 0), (0, 4))), key)
    return category * 15 ** 5 + (digits * 15 ** np.arange(4, -1, -1)).sum(axis=1)


def test_every_joker_hand_is_worth_the_best_card_it_can_stand_for():
    """The order of all 2,869,685 hands of the joker deck equals a brute force's: a hand with the
    joker is worth the best of the hands made by every card of the 52 it can stand for (one not
    held), or five of a kind when its four other cards share a value."""
    engine = engine_of("joker")
    table = five_card_table(engine)
    ids = np.asarray(table.cards)[sevens.five_hands(len(table.cards))]
    assert list(table.cards) == list(range(1, 54)) and engine.notation.token(53) == "JK"
    value = lambda c: np.where(c % 13 == 1, 14, np.where(c % 13 == 0, 13, c % 13))  # noqa: E731
    suit = lambda c: (c - 1) // 13  # noqa: E731
    joker = ids[:, 4] == 53                       # ids ascend: the joker last
    theirs = np.empty(len(ids), dtype=np.int64)
    for i in range(0, len(ids), 250_000):         # (the values and suits of every hand at once: 0.6 GB)
        plain = ~joker[i:i + 250_000]
        rows = ids[i:i + 250_000][plain]
        theirs[i:i + 250_000][plain] = _strengths(value(rows), suit(rows))
    real = ids[joker][:, :4]
    best = np.full(len(real), -1, dtype=np.int64)
    for card in range(1, 53):
        free = ~(real == card).any(axis=1)
        rows = np.concatenate([real[free], np.full((int(free.sum()), 1), card)], axis=1)
        best[free] = np.maximum(best[free], _strengths(value(rows), suit(rows)))
    same = (value(real) == value(real[:, :1])).all(axis=1)          # four of a value: five of a kind
    rows = np.concatenate([real[same], real[same][:, :1]], axis=1)
    best[same] = np.maximum(best[same], _strengths(value(rows), suit(rows)))
    theirs[joker] = best
    dense = np.unique(theirs, return_inverse=True)[1].ravel()
    wrong = np.flatnonzero(dense != table.values)
    assert not len(wrong), f"{len(wrong)} hands, e.g. {[engine.notation.format(ids[i].tolist()) for i in wrong[:3]]}"


def test_the_joker_table_is_built_by_suit_class_with_the_joker_left_in_place(tmp_path):
    """The joker's rules are proven blind to suits with the joker, a card of no suit, in a suit of
    its own that no renaming moves (it is read through isJoker(53), which every renaming maps onto
    itself): its table is built from one hand of each class (the brute force above holds every
    hand of it).  A joker rule that names a suited card is not blind, and says where."""
    symmetry = suit_symmetry(engine_of("joker").ruleset.clauses)
    assert not isinstance(symmetry, str) and symmetry.fixed and symmetry.free == (0, 1, 2, 3)
    assert symmetry.suits[-1] == 4 and symmetry.suits.count(4) == 1          # the joker, last
    hands = sevens.five_hands(53)
    first, inverse, _ = sevens.suit_classes(hands, np.array(symmetry.suits), np.array(symmetry.values),
                                            symmetry.free)
    holds = (hands == 52).any(axis=1)
    assert (holds[first][inverse] == holds).all() and len(first) * 15 < len(hands)
    folder = tmp_path / "joker"
    shutil.copytree(rulesets.RULES_DIR / "variants" / "joker", folder)
    text = (folder / "cards.dl").read_text(encoding="utf-8")       # the ace of hearts wild as well
    (folder / "cards.dl").write_text(text.replace("isJoker_D: isJoker(53)", "isJoker_D: isJoker(53)\nisJoker_D: isJoker(1)"),
                                     encoding="utf-8")
    why = suit_symmetry(Engine(folder).ruleset.clauses)
    assert isinstance(why, str) and "isJoker" in why, why


def test_the_joker_is_written_jk_and_wild_in_showdowns():
    joker = engine_of("joker")
    assert joker.category("AH AD AC AS JK") == "five of a kind" and joker.cards("jk 🃏") == [53, 53]
    assert joker.beat("AH AD AC AS JK", "TS JS QS KS 9S") == 1          # five of a kind above all
    assert joker.best_five("JK 2C", board="AH KH QH JH 3S").category == "royal flush"
    assert joker.best_five("JK 2C", board="AH KD QH 7D 3S").category == "one pair"      # aces
    with pytest.raises(InvalidCards, match="a card is given twice"):
        joker.category("JK JK AH KD 2C")


# ---- badugi: hands of four cards --------------------------------------------------------------

def test_every_badugi_hand_is_ordered_as_pokerkit_orders_it():
    """The rules' strength of every one of the 270,725 four-card hands (asked of the compiled
    rules, hand by hand: there is no five-card table for four-card hands) orders them as pokerkit's
    BadugiHand does, ties included.  pokerkit is asked once per hand up to a renaming of suits."""
    from engine.check.diff import _every_hand_strengths
    engine = Engine("badugi")               # its own: the every-hand tables in its DuckDB go with it
    assert engine.hand_size == 4
    cards = engine.deck
    ours = _every_hand_strengths(engine, cards, lambda what, total: (lambda n: None))
    assert ours.ranked is None or ours.ranked.all()
    ids = np.asarray(cards)[sevens.uncolex(np.arange(len(ours.classes)), len(cards), 4)]
    tokens = {c: pk_token(engine, int(c)) for c in cards}
    asked: dict[tuple, int] = {}
    keys = np.empty(len(ids), dtype=np.int64)
    hands: list = []
    for row, hand in enumerate(ids.tolist()):
        labels: dict[str, int] = {}
        key = tuple((t[:-1], labels.setdefault(t[-1], len(labels)))
                    for t in sorted((tokens[c] for c in hand), key=lambda t: ("A23456789TJQK".index(t[0]), t[-1])))
        if key not in asked:
            asked[key] = len(hands)
            hands.append(pokerkit.BadugiHand.from_game("".join(tokens[c] for c in hand)))
        keys[row] = asked[key]
    theirs = _dense(hands)[keys]
    ours_dense = np.unique(ours.classes, return_inverse=True)[1].ravel()
    wrong = np.flatnonzero(ours_dense != theirs)
    assert not len(wrong), f"{len(wrong)} hands, e.g. {[engine.notation.format(ids[i].tolist()) for i in wrong[:3]]}"
    assert int(theirs.max()) + 1 == 1_092


def test_a_rule_set_of_two_hand_sizes_is_refused(tmp_path):
    from conftest import copy_rules
    from engine import RuleError
    rules = copy_rules(tmp_path / "rules")
    with (rules / "ranking.dl").open("a", encoding="utf-8") as f:
        f.write("\nhandSize_Two: handSize(4)\n")
    with pytest.raises(RuleError, match=r"handSize gives \[4, 5\], not one number of cards"):
        Engine(rules).hand_size


def test_badugi_hands_are_four_cards():
    badugi = engine_of("badugi")
    assert badugi.beat("AH 2D 3C 4S", "AD 2C 3S 5H") == 1            # A-2-3-4 is the best hand
    assert badugi.beat("KH QD JC 9S", "AH 2H 3C 4S") == 1            # four cards beat three
    assert badugi.why_not_hand("AH 2D 3C 4S 5H") == "a hand has four cards"
    assert badugi.fights([["AH 2D 3C 4S", "AD 2C 3S 5H 6H"]])[0].result == -1


def test_short_deck_equity_is_pokerkits_enumeration():
    """Exact equity under the short-deck rules (36 cards: its own table) against pokerkit's
    ShortDeckHoldemHand on every turn and river of a flop."""
    import itertools
    from fractions import Fraction

    from engine.equity import equity
    short = engine_of("short-deck")
    holes, flop = ["AS AD", "KS KH"], "6C 7D 9H"
    e = equity(short, holes, flop)
    players, board = [short.cards(h) for h in holes], short.cards(flop)
    rest = [c for c in short.deck if c not in {*board, *players[0], *players[1]}]
    tok = lambda cs: "".join(pk_token(short, c) for c in cs)  # noqa: E731
    total, boards = [Fraction(0)] * 2, 0
    for more in itertools.combinations(rest, 2):
        made = [pokerkit.ShortDeckHoldemHand.from_game(tok(p), tok(board + list(more))) for p in players]
        top = max(made)
        winners = [i for i, h in enumerate(made) if not h < top]
        for i in winners:
            total[i] += Fraction(1, len(winners))
        boards += 1
    assert e.exact and e.boards == boards == 406          # C(29, 2): 36 cards, 7 seen
    assert e.share == pytest.approx([float(t / boards) for t in total], abs=1e-12)
