"""`poker diff A B`: category transitions, renumbered ranks and changed fights, with examples
asked of both rule sets' beat.  On a 26-card deck (hearts and diamonds), so that it runs in
seconds; the full standard/eventb run is bench/bench_diff.py (and the README's example)."""

from __future__ import annotations

import json
import math

import pytest

from conftest import copy_rules, edit
from engine import Engine
from engine.cli import main
from engine.diff import diff

DECK = "cardId_F: cardId(C, V, S) <= valueName(V, N, P) & suitName(S, M, Q) & (C == 13 * (S - 1) + V)"


def small_deck(tmp_path, name: str):
    rules = copy_rules(tmp_path / name)
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")
    return rules


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("diff")
    a = small_deck(tmp, "a")
    b = small_deck(tmp, "b")          # the Event-B numbering: 5 flush, 6 straight
    for old, new in (("categoryName(5, 'straight')", "categoryName(5, 'flush')"),
                     ("categoryName(6, 'flush')", "categoryName(6, 'straight')"),
                     ("getRank_Flush: getRank(S, 6)", "getRank_Flush: getRank(S, 5)"),
                     ("getRank_Straight: getRank(S, 5)", "getRank_Straight: getRank(S, 6)")):
        edit(b / "ranking.dl", old, new)
    for old, new in (("beat_Flush: keyPart(6, 1, 'all')", "beat_Flush: keyPart(5, 1, 'all')"),
                     ("beat_Straight: keyPart(5, 1, 'top')", "beat_Straight: keyPart(6, 1, 'top')")):
        edit(b / "fighting.dl", old, new)
    return a, b


def test_the_swap_of_flush_and_straight(pair):
    a, b = (Engine(p) for p in pair)
    result = diff(a, b)
    hands = math.comb(26, 5)
    flushes, straights = 2 * (math.comb(13, 5) - 10), 10 * 2 ** 5 - 2 * 10
    assert result.hands == hands
    assert result.categories == []                                  # no hand changes category
    assert {(r["category"], r["from"], r["to"], r["count"]) for r in result.renumbered} == {
        ("flush", 6, 5, flushes), ("straight", 5, 6, straights)}
    assert result.pairs == hands * (hands - 1) // 2
    assert [(k["hands"], k["from"], k["to"], k["count"]) for k in result.kinds] == [
        (["flush", "straight"], 1, 2, flushes * straights)]
    assert result.changed == flushes * straights
    example = result.kinds[0]["example"]
    assert example["agrees"] and (example["a"], example["b"]) == (1, 2)
    x, y = example["hands"]
    assert a.category(x) == "flush" and a.category(y) == "straight"
    assert a.beat(x, y) == 1 and b.beat(x, y) == 2              # the rules' own word


def test_a_rule_set_against_itself_changes_nothing(pair):
    a = Engine(pair[0])
    result = diff(a, a)
    assert result.categories == result.renumbered == result.kinds == [] and result.changed == 0


def test_diff_command_text_and_json(pair, capsys):
    a, b = map(str, pair)
    assert main(["diff", a, b]) == 0
    out = capsys.readouterr().out
    assert "flush: rank 6 -> 5: 2,554" in out and "flush vs straight: 1 -> 2: 766,200" in out
    assert main(["diff", a, b, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["fights"]["changed"] == 766_200 and "unordered pairs" in data["fights"]["counted"]


def test_diff_names_a_rule_set_it_cannot_read(capsys):
    assert main(["diff", "standard", "nosuch"]) == 2
    assert "nosuch" in capsys.readouterr().err
