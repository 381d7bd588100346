"""The rules against independent truth: treys on random and same-category fights, Euler 54."""

from __future__ import annotations

import random

import pytest
from truth import (
    TREYS_CATEGORY,
    random_fight,
    same_category_fight,
    treys_beat,
    treys_category,
)

from conftest import EULER

RANDOM_FIGHTS = 1000
SAME_CATEGORY_FIGHTS = 120          # per category; ties decided by the tie-break axioms
CATEGORIES = ["royal flush"] + list(TREYS_CATEGORY.values())


def tokens(engine, hand):
    return [engine.notation.token(c) for c in hand]


def test_random_fights_agree_with_treys(engine):
    rng = random.Random(54)
    disagreements = []
    for _ in range(RANDOM_FIGHTS):
        a, b = random_fight(rng)
        ta, tb = tokens(engine, a), tokens(engine, b)
        if engine.category(a) != treys_category(ta) or engine.beat(a, b) != treys_beat(ta, tb):
            disagreements.append((ta, tb))
    assert not disagreements, disagreements[:5]


@pytest.mark.parametrize("category", CATEGORIES)
def test_same_category_fights_agree_with_treys(engine, category):
    rng = random.Random(category)
    tok = lambda hand: tokens(engine, hand)  # noqa: E731
    results = set()
    for _ in range(SAME_CATEGORY_FIGHTS):
        a, b = same_category_fight(tok, category, rng)
        assert engine.category(a) == category == engine.category(b)
        expected = treys_beat(tok(a), tok(b))
        assert engine.beat(a, b) == expected, (tok(a), tok(b))
        results.add(expected)
    if category not in ("royal flush",):
        assert {1, 2} <= results      # the sample really exercises the tie-breaks


def read_euler():
    fights = []
    for line in EULER.read_text().split("\n"):
        if line.strip():
            cards = line.split()
            fights.append((cards[:5], cards[5:]))
    return fights


def test_euler54_player_one_wins_376(engine):
    fights = read_euler()
    assert len(fights) == 1000
    results = [engine.beat(a, b) for a, b in fights]
    assert results.count(1) == 376
    assert results.count(-1) == 0
    assert all(r == treys_beat(a, b) for r, (a, b) in zip(results, fights))
