"""The class table (fast path): sound only where the analysis says so, and then exact."""

from __future__ import annotations

import random

import pytest

from conftest import copy_rules, edit
from engine import Engine
from engine.fast import Table, analyse
from engine.judge import Judge
from truth import random_fight


def fights(engine: Engine, n: int, seed: int) -> list[dict]:
    """Random fights of 2..5 hands, plus ones the table must leave to the rules."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        hands = random_fight(rng, rng.choice([2, 2, 2, 3, 5]))
        out.append({"hands": [[engine.notation.token(c) for c in h] for h in hands]})
    out += [{"hands": ["AH AH KD QS JC", "2C 3C 4C 5C 7D"]},       # a card twice
            {"hands": ["AH KD QS JC TH", "AH 3C 4C 5C 7D"]},       # a shared card
            {"hands": ["AH KD QS JC", "2C 3C 4C 5C 7D"]},          # four cards
            {"hands": ["AH KH QH JH TH", "AS KS QS JS TS", "2C 2D 2H 2S 3C"]}]
    return out


def same_results(engine: Engine, batch: list[dict]) -> None:
    fast, plain = Judge(engine), Judge(engine, fast=False)
    assert fast.fast, fast.table.problems
    got, want = fast.judge(batch), plain.judge(batch)
    assert [r.as_dict() for r in got] == [r.as_dict() for r in want]


def test_standard_rules_are_sound_for_the_table(engine):
    assert analyse(engine.ruleset).ranks == [] and analyse(engine.ruleset).fights == []
    table = Table(engine)
    assert table.usable and table.fights_sound and table.flush_ok


def test_classes_cover_every_hand_once(engine):
    classes = Table(engine).all_classes()
    assert len(classes) == 7462
    assert sum(classes.values()) == 2598960


def test_fast_path_equals_plain_evaluation(engine):
    same_results(engine, fights(engine, 700, seed=3))


@pytest.mark.parametrize("old, new", [
    # tie-breaks edited: two pair compares the odd card first
    ("beat_TwoPair2: keyPart(3, 1, 'pairs')", "beat_TwoPair2: keyPart(3, 3, 'pairs')"),
    # ranks edited: the Event-B numbers (straight above flush)
    ("getRank_Flush: getRank(S, 6)", "getRank_Flush: getRank(S, 5)"),
])
def test_fast_path_follows_edited_rules(tmp_path, old, new):
    rules = copy_rules(tmp_path / "rules")
    edit(rules / ("fighting.dl" if "keyPart" in old else "ranking.dl"), old, new)
    if "getRank_Flush" in old:
        edit(rules / "ranking.dl", "getRank_Straight: getRank(S, 5)", "getRank_Straight: getRank(S, 6)")
    edited = Engine(rules)
    same_results(edited, fights(edited, 150, seed=4))


def test_id_order_disables_the_table(tmp_path):
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "poker.dl", "member(S, Y) & (X != Y) & getValue(Y, V)", "member(S, Y) & (X < Y) & getValue(Y, V)")
    table = Table(Engine(rules))
    assert not table.usable
    assert any("compared other than for (in)equality" in p for p in table.problems)


def test_suits_outside_isflush_disable_the_table(tmp_path):
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "ranking.dl", "getRank_HightCard: getRank(S, 1) <= isHand(S)",
         "getRank_HightCard: getRank(S, 1) <= isHand(S) & mixedSuits(S)")
    table = Table(Engine(rules))
    assert any("suits other than through isFlush" in p for p in table.problems)


def test_an_isflush_that_is_not_same_suit_disables_the_table(tmp_path):
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "ranking.dl", "isFlush_F2: isFlush(S) <= isHand(S) & ~mixedSuits(S)",
         "isFlush_F2: isFlush(S) <= isHand(S) & ~mixedSuits(S) & member(S, C) & getSuit(C, 1)")
    table = Table(Engine(rules))
    assert table.flush_ok is False and not table.usable


def test_an_edited_comparator_keeps_ranks_but_not_fights(tmp_path):
    rules = copy_rules(tmp_path / "rules")
    # the lower rank wins: swap the comparisons of beatRank_F1 and beatRank_F2
    edit(rules / "fighting.dl", "& (RA > RB)", "& (RA >> RB)")
    edit(rules / "fighting.dl", "& (RA < RB)", "& (RA > RB)")
    edit(rules / "fighting.dl", "& (RA >> RB)", "& (RA < RB)")
    edited = Engine(rules)
    judge = Judge(edited)
    assert judge.table.usable and not judge.fast
    assert any("beatRank" in p for p in judge.table.soundness.fights)
    batch = [{"hands": ["AH AD KC QS JH", "2S 4S 6S 8S TS"]}]
    assert judge.judge(batch)[0].result == 1               # asked of the edited rules: the pair wins
