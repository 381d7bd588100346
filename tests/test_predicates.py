"""The spec's predicates one by one (report section 2, Event-B Ranking and Fighting)."""

from __future__ import annotations

import pytest

from engine import InvalidCards


def test_is_empty(engine):
    assert engine.is_empty([])
    assert not engine.is_empty("AH")


def test_is_set_card(engine):
    assert engine.is_set_card([])
    assert engine.is_set_card("AH KD")
    assert not engine.is_set_card("AH AH")
    assert not engine.is_set_card([1, 99])


@pytest.mark.parametrize("cards, pair, three, four", [
    ("AH AD", True, False, False),
    ("AH KD", False, False, False),
    ("AH AD AC", True, True, False),
    ("AH AD AC AS", True, True, True),
    ("AH AD AC AS KH", True, True, True),
    ("AH AH", False, False, False),          # not a valid set: x and y must be different cards
    ("AH", False, False, False),
])
def test_is_pair_three_four(engine, cards, pair, three, four):
    assert (engine.is_pair(cards), engine.is_three(cards), engine.is_four(cards)) == (pair, three, four)


@pytest.mark.parametrize("cards, a, k", [("AH 5D", True, False), ("KH 5D", False, True),
                                         ("AH KD", True, True), ([], False, False), ("AH AH", False, False)])
def test_is_a_is_k(engine, cards, a, k):
    assert (engine.is_a(cards), engine.is_k(cards)) == (a, k)


@pytest.mark.parametrize("cards, top", [("AH 5D 9C", 9), ("AH", 1), ("KH QD", 13), ([], 0), ("AH AH", 0)])
def test_get_max(engine, cards, top):
    assert engine.get_max(cards) == top


def test_get_max_card(engine):
    assert engine.get_max_card("AH 5D 9C") == engine.cards("9C")
    assert engine.get_max_card("KH KD 5C") == sorted(engine.cards("KH KD"))


@pytest.mark.parametrize("a, b, result", [
    ("AH KD", "AS KC", 0),
    ("AH 2D", "KS QC", 1),          # an ace beats no ace
    ("KS QC", "AH 2D", 2),
    ("KH 9D", "KS 8C", 1),          # then the max values, one by one
    ("AH KD 3C", "AS KC 2C", 1),
    ("AH", "AH 2D", -1),            # different sizes
    ("AH AH", "KD QC", -1),         # invalid set
    ([], [], 0),
    ("AH AD KC", "AS KH KD", 2),    # both have an ace; drop the kings; {A,A} vs {A,K}: K is the max
])
def test_compare_set_card(engine, a, b, result):
    assert engine.compare_set_card(a, b) == result


@pytest.mark.parametrize("hand, flush, straight", [
    ("2H 5H 7H 9H JH", True, False),
    ("AH 2D 3C 4S 5H", False, True),
    ("TH JD QC KS AH", False, True),
    ("JH TH 9H 8H 7H", True, True),
    ("QH KD AC 2S 3H", False, False),
    ("2H 5H 7H 9H", False, False),      # not a hand: neither
])
def test_is_flush_is_straight(engine, hand, flush, straight):
    assert (engine.is_flush(hand), engine.is_straight(hand)) == (flush, straight)


def test_is_hand(engine):
    assert engine.is_hand("AH KD QS JC TH")
    assert not engine.is_hand("AH KD QS JC")
    assert not engine.is_hand("AH AH QS JC TH")


def test_valid_fighting_and_beat_rank(engine):
    assert engine.valid_fighting("AH KD QS JC TH", "2C 3H 4D 5S 7H")
    assert not engine.valid_fighting("AH KD QS JC TH", "AH 3H 4D 5S 7H")
    assert engine.beat_rank("AH AD QS JC TH", "2C 3H 4D 5S 7H") == 1
    assert engine.beat_rank("2C 3H 4D 5S 7H", "AH AD QS JC TH") == 2
    assert engine.beat_rank("AH AD QS JC TH", "KH KD 4D 5S 7H") == 0


def test_winners_needs_two_to_ten_hands(engine):
    with pytest.raises(InvalidCards, match="2 to 10"):
        engine.winners(["AH KD QS JC TH"])


def test_every_category_is_named(engine):
    assert sorted(engine.categories) == list(range(1, 11))
