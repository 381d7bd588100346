"""The `eventb` rule set (issue 4): the literal reading of the Event-B contexts, against standard.

Its documented differences from the standard set (section 1.2 of the report):
  * the Rank axiom's numbers, 5 flush and 6 straight, so a straight beats a flush;
  * beat_Straight compares the whole sets with compareSetCard, which puts a set with an ace first,
    so A-2-3-4-5 beats every straight but 10-J-Q-K-A;
  * beat_StraightFlush compares getMax_Card with the ace as 1 (same outcome: A-2-3-4-5 lowest).
Everything else is the standard set's clauses.  The expected answers below are computed
independently (treys for the standard order, plain Python for the Event-B readings).
"""

from __future__ import annotations

import ast
import random

import pytest
from truth import DECK, random_fight, same_category_fight, treys_beat, treys_category

from conftest import EULER, FIXTURES
from engine import Engine
from engine.cli import main
from engine.datalog import loader, rulesets

OVERRIDDEN = {"Rank_D", "getRank_Flush", "getRank_Straight",
              "beat_StraightFlush", "beat_Straight", "beat_Flush"}
EVENTB_RANK = {"high card": 1, "one pair": 2, "two pair": 3, "three of a kind": 4, "flush": 5,
               "straight": 6, "full house": 7, "four of a kind": 8, "straight flush": 9, "royal flush": 10}
VALUE = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
RANDOM_FIGHTS = 1000
WHEEL, BROADWAY, KING_HIGH, SIX_HIGH = "AH 2D 3C 4S 5H", "TH JD QC KS AS", "9S TC JH QD KH", "2H 3D 4C 5S 6H"
FLUSH = "3D 6D 7D 8D JD"


@pytest.fixture(scope="session")
def eventb() -> Engine:
    return Engine("eventb")


# ---- an independent model of the Event-B reading -------------------------------------------

def tokens(hand: list[int]) -> list[str]:
    """Card ids -> 'AH'-style tokens (report 2.1: suit (id-1) div 13, value id mod 13)."""
    return ["A23456789TJQK"[(c - 1) % 13] + "HDCS"[(c - 1) // 13] for c in hand]


def values(hand: list[str]) -> list[int]:
    """The values of a hand with the ace as 1 (getValue)."""
    return [VALUE.get(t[:-1], None) or int(t[:-1]) for t in hand]


def eventb_expected(a: list[str], b: list[str]) -> int:
    """beat(a, b) as the Event-B contexts read, computed without the rules."""
    ca, cb = treys_category(a), treys_category(b)
    if EVENTB_RANK[ca] != EVENTB_RANK[cb]:
        return 1 if EVENTB_RANK[ca] > EVENTB_RANK[cb] else 2
    va, vb = values(a), values(b)
    if ca == "straight":            # compareSetCard(a, b): an ace first, then values high to low (ace 1)
        ka, kb = (1 in va, sorted(va, reverse=True)), (1 in vb, sorted(vb, reverse=True))
    elif ca == "straight flush":    # compareSetCard(getMax_Card(a), getMax_Card(b)), the ace 1
        ka, kb = max(va), max(vb)
    else:
        return treys_beat(a, b)     # the other tie-breaks are the standard ones
    return 1 if ka > kb else 2 if ka < kb else 0


def documented_difference(a: list[str], b: list[str]) -> bool:
    """Does a documented difference decide this fight (so eventb must disagree with standard)?"""
    ca, cb = treys_category(a), treys_category(b)
    if {ca, cb} == {"straight", "flush"}:
        return True
    if ca == cb == "straight":
        wheel = [set(values(h)) == {1, 2, 3, 4, 5} for h in (a, b)]
        broadway = [set(values(h)) == {1, 10, 11, 12, 13} for h in (a, b)]
        return wheel[0] != wheel[1] and not any(broadway)
    return False


def straight_hand(rng: random.Random, low: int, suited: bool) -> list[int]:
    """Five values low..low+4 (low 1: A-2-3-4-5; low 10: 10-J-Q-K-A), one suit or mixed suits."""
    vals = [(low + k - 1) % 13 + 1 for k in range(5)]
    while True:
        suits = [rng.randrange(4)] * 5 if suited else [rng.randrange(4) for _ in vals]
        if suited or len(set(suits)) > 1:
            return [13 * s + v for s, v in zip(suits, vals)]


def biased_fight(rng: random.Random) -> list[list[int]]:
    """Two disjoint hands among the kinds where the readings can differ (and a few others)."""
    def kind(name: str) -> list[int]:
        if name == "wheel":
            return straight_hand(rng, 1, False)
        if name == "broadway":
            return straight_hand(rng, 10, False)
        if name == "straight":
            return straight_hand(rng, rng.randint(2, 9), False)
        if name == "wheel-sf":
            return straight_hand(rng, 1, True)
        if name == "sf":
            return straight_hand(rng, rng.randint(2, 9), True)
        return same_category_fight(tokens, name, rng)[0]      # flush, one pair, ...
    kinds = ["wheel", "broadway", "straight", "straight", "wheel-sf", "sf", "flush", "flush", "one pair"]
    while True:
        a, b = kind(rng.choice(kinds)), kind(rng.choice(kinds))
        if not set(a) & set(b):
            return [a, b]


# ---- the differences -----------------------------------------------------------------------

def test_straight_is_rank_6_and_beats_a_flush_rank_5(eventb, engine):
    assert (eventb.get_rank(FLUSH), eventb.category(FLUSH)) == (5, "flush")
    assert (eventb.get_rank(KING_HIGH), eventb.category(KING_HIGH)) == (6, "straight")
    assert eventb.categories[5] == "flush" and eventb.categories[6] == "straight"
    assert eventb.beat(KING_HIGH, FLUSH) == 1 and eventb.beat(FLUSH, KING_HIGH) == 2
    assert engine.beat(KING_HIGH, FLUSH) == 2          # the standard set ranks the flush higher


def test_wheel_straight_beats_a_king_high_straight_but_loses_to_broadway(eventb, engine):
    assert eventb.beat(WHEEL, KING_HIGH) == 1 and eventb.beat(KING_HIGH, WHEEL) == 2
    assert eventb.beat(WHEEL, SIX_HIGH) == 1
    assert eventb.beat(WHEEL, BROADWAY) == 2 and eventb.beat(BROADWAY, WHEEL) == 1
    assert eventb.beat(WHEEL, "AD 2C 3H 4D 5S") == 0
    assert engine.beat(WHEEL, KING_HIGH) == 2 and engine.beat(WHEEL, SIX_HIGH) == 2


def test_wheel_straight_flush_is_the_lowest(eventb):
    wheel_sf = "AD 2D 3D 4D 5D"
    assert eventb.get_rank(wheel_sf) == 9
    for other in ("2S 3S 4S 5S 6S", "9C TC JC QC KC"):
        assert eventb.beat(wheel_sf, other) == 2 and eventb.beat(other, wheel_sf) == 1
    assert eventb.beat(wheel_sf, "AH 2H 3H 4H 5H") == 0
    assert eventb.beat(wheel_sf, "AS KS QS JS TS") == 2           # royal flush, rank 10


@pytest.mark.parametrize("case", FIXTURES["hands"], ids=lambda c: c["id"])
def test_every_other_hand_ranks_as_standard(eventb, case):
    """hands.yaml's standard hands: eventb's rank is the Event-B number of the same category."""
    assert eventb.category(case["hand"]) == case["category"]
    assert eventb.get_rank(case["hand"]) == EVENTB_RANK[case["category"]]


@pytest.mark.parametrize("case", FIXTURES["fights"], ids=lambda c: c["id"])
def test_the_standard_fixture_fights_under_eventb(eventb, case):
    """hands.yaml's standard fights: the same result unless a documented difference applies."""
    a, b = (h.split() for h in case["hands"])
    expected = eventb_expected(a, b)
    assert eventb.beat(case["hands"][0], case["hands"][1]) == expected
    assert (expected != case["result"]) == documented_difference(a, b)


# ---- sharing: only the overridden labels differ ---------------------------------------------

def _key(c: loader.Clause) -> tuple:
    return (c.label, str(c.path), c.line, c.head, ast.dump(c.node))


def test_eventb_shares_every_clause_but_the_overridden_labels(eventb):
    standard = rulesets.resolve("standard").clauses
    clauses = eventb.ruleset.clauses
    variant_dir = rulesets.RULES_DIR / "variants" / "eventb"
    own = [c for c in clauses if c.path.parent == variant_dir]
    assert {c.label for c in own} == OVERRIDDEN
    # the rest is the standard set's clauses, the same files and lines, in the same order
    assert [_key(c) for c in clauses if c.label not in OVERRIDDEN] == \
           [_key(c) for c in standard if c.label not in OVERRIDDEN]
    # every overridden label exists in standard, and eventb replaced all of its clauses
    assert all(c.path.parent == variant_dir for c in clauses if c.label in OVERRIDDEN)
    for label in OVERRIDDEN:
        mine = [ast.dump(c.node) for c in clauses if c.label == label]
        theirs = [ast.dump(c.node) for c in standard if c.label == label]
        assert theirs and mine != theirs, label            # a real change, not a copy
    # the labels keep the standard's order (an override stands where the label stood)
    assert eventb.ruleset.labels() == rulesets.RuleSet("standard", [], standard).labels()
    assert eventb.ruleset.files == rulesets.rule_files(rulesets.RULES_DIR) + rulesets.rule_files(variant_dir)
    assert eventb.ruleset.extends == "standard"
    assert eventb.ruleset.description.startswith("the literal reading of the Event-B contexts")


def test_eventb_is_named_in_the_cli_and_available(capsys):
    assert "eventb" in rulesets.available()
    assert main(["rank", "--rules", "eventb", WHEEL]) == 0
    assert capsys.readouterr().out.strip() == "straight (rank 6)"
    assert main(["--rules", "eventb", "rank", FLUSH]) == 0
    assert capsys.readouterr().out.strip() == "flush (rank 5)"


# ---- the hands.yaml section eventb ---------------------------------------------------------

@pytest.mark.parametrize("case", FIXTURES["eventb"]["hands"], ids=lambda c: c["id"])
def test_eventb_fixture_hands(eventb, engine, case):
    assert eventb.get_rank(case["hand"]) == case["rank"]
    assert eventb.category(case["hand"]) == case["category"]
    assert engine.get_rank(case["hand"]) == case["standard"] != case["rank"]


@pytest.mark.parametrize("case", FIXTURES["eventb"]["fights"], ids=lambda c: c["id"])
def test_eventb_fixture_fights(eventb, engine, case):
    a, b = case["hands"]
    assert eventb.beat(a, b) == case["result"] == eventb_expected(a.split(), b.split())
    assert eventb.beat(b, a) == {0: 0, 1: 2, 2: 1}[case["result"]]
    assert engine.beat(a, b) == case["standard"] != case["result"]


# ---- agreement with standard on many fights ------------------------------------------------

def test_biased_fights_agree_with_standard_but_for_the_documented_differences(eventb, engine):
    """Straights, wheels, flushes and straight flushes against each other: both engines run."""
    rng = random.Random(4)
    differing = 0
    for _ in range(150):
        a, b = biased_fight(rng)
        ta, tb = tokens(a), tokens(b)
        standard, result = engine.beat(a, b), eventb.beat(a, b)
        assert standard == treys_beat(ta, tb), (ta, tb)
        assert result == eventb_expected(ta, tb), (ta, tb)
        assert (result != standard) == documented_difference(ta, tb), (ta, tb, result, standard)
        differing += result != standard
    assert differing >= 20            # the sample really exercises the differences


def test_random_fights_agree_with_standard_but_for_the_documented_differences(eventb):
    """Random deals.  Standard's answer is treys' (test_independent holds the standard set to it)."""
    rng = random.Random(44)
    for _ in range(RANDOM_FIGHTS):
        a, b = random_fight(rng)
        ta, tb = tokens(a), tokens(b)
        result = eventb.beat(a, b)
        assert result == eventb_expected(ta, tb), (ta, tb)
        assert (result != treys_beat(ta, tb)) == documented_difference(ta, tb), (ta, tb)


def test_euler54_under_eventb_player_one_still_wins_376(eventb):
    """No Euler fight sets a straight against a flush or holds A-2-3-4-5: nothing differs."""
    fights = [(line.split()[:5], line.split()[5:]) for line in EULER.read_text().splitlines() if line.strip()]
    assert len(fights) == 1000
    results = [eventb.beat(a, b) for a, b in fights]
    assert results.count(1) == 376 and results.count(2) == 624
    assert results == [eventb_expected(a, b) for a, b in fights]
    assert not any(documented_difference(a, b) for a, b in fights)
    assert sum(treys_category(h) in ("straight", "flush") for a, b in fights for h in (a, b)) == 14


def test_tokens_match_the_engine_notation(eventb):
    assert [eventb.notation.token(c) for c in DECK] == tokens(DECK)
