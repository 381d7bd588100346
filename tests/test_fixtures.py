"""The documents' examples (hands.yaml), table-driven."""

from __future__ import annotations

import pytest

from conftest import cases
from engine import InvalidCards


@pytest.mark.parametrize("case", cases("cards"))
def test_card_ids(engine, case):
    assert engine.get_suit(case["id"]) == case["suit"]
    assert engine.get_value(case["id"]) == case["value"]
    if "token" in case:
        assert engine.notation.token(case["id"]) == case["token"]
        assert engine.cards(case["token"]) == [case["id"]]


@pytest.mark.parametrize("case", cases("notation"))
def test_notation(engine, case):
    assert engine.cards(case["text"]) == case["ids"]


@pytest.mark.parametrize("case", cases("bad_notation"))
def test_bad_notation_names_token(engine, case):
    with pytest.raises(InvalidCards, match=str(case["names"])):
        engine.cards(case["text"])


@pytest.mark.parametrize("case", cases("hands"))
def test_hand_rank_and_category(engine, case):
    assert engine.get_rank(case["hand"]) == case["rank"]
    assert engine.category(case["hand"]) == case["category"]
    assert engine.is_hand(case["hand"])


@pytest.mark.parametrize("case", cases("invalid_hands"))
def test_invalid_hand(engine, case):
    assert engine.get_rank(case["hand"]) == -1
    assert not engine.is_hand(case["hand"])
    with pytest.raises(InvalidCards, match=case["why"]):
        engine.category(case["hand"])


@pytest.mark.parametrize("case", cases("fights"))
def test_fight(engine, case):
    a, b = case["hands"]
    assert engine.beat(a, b) == case["result"]
    mirrored = {0: 0, 1: 2, 2: 1}[case["result"]]
    assert engine.beat(b, a) == mirrored
    assert engine.valid_fighting(a, b)


@pytest.mark.parametrize("case", cases("invalid_fights"))
def test_invalid_fight(engine, case):
    a, b = case["hands"]
    assert engine.beat(a, b) == -1
    assert engine.beat_rank(a, b) == -1
    assert not engine.valid_fighting(a, b)
    with pytest.raises(InvalidCards, match=case["why"]):
        engine.winners([a, b])


@pytest.mark.parametrize("case", cases("tables"))
def test_winners(engine, case):
    assert engine.winners(case["hands"]) == case["winners"]
