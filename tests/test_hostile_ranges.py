"""Ranges under attack (issue 32): `poker equity`'s range syntax.  Every hostile range is one line
on stderr naming the player and the range (cut to a readable length), exit 2, before any deal is
counted; what is well formed reads as the same set of hands however it is written."""

from __future__ import annotations

import pytest

from engine import Engine
from engine.cli import main
from engine.poker.notation import InvalidCards
from engine.poker.ranges import MAX_RANGE_CHARS, read_range

HOSTILE = {
    "three ends of a run": ("AA-KK-QQ", "is not 2 cards"),
    "one value": ("A", "is not 2 cards"),
    "an unknown kind": ("AKx", "is not 2 cards"),
    "full-width letters": ("ＡＡ", "is not 2 cards"),
    "a weight": ("AK:0.5", "is not 2 cards"),
    "an open run": ("AKs-", "is not 2 cards"),
    "an empty item": ("AA,,KK", "an empty item between commas"),
    "a card twice": ("AhAh", "a card is given twice"),
    "runs of two kinds": ("T9s-65o", "both ends of a run"),
    "a suited pair run": ("AA-22s", "both ends of a run"),
    "nothing": ("", "an empty range"),
    "only commas": (",,,", "an empty range"),
    "a control character": ("AA\x00", "is not 2 cards"),
    "too long": ("AKs," * 2000, f"at most {MAX_RANGE_CHARS:,}"),
    "digits past any limit": ("9" * 5000, f"at most {MAX_RANGE_CHARS:,}"),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_range_is_one_line_naming_the_player_exit_2(name, capsys):
    text, says = HOSTILE[name]
    assert main(["equity", "KK", text]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("poker: player 2") and says in err, err
    assert len(err) < 400, err                          # the range is cut, never echoed whole


def test_a_long_bad_range_is_echoed_cut():
    bad = ",".join(["AKs"] * 1000) + ",XYZ"
    with pytest.raises(InvalidCards) as caught:
        read_range(Engine(), bad)
    assert "(4,003 characters)" in str(caught.value) and "'XYZ' is not 2 cards" in str(caught.value)
    assert len(str(caught.value)) < 300


def test_a_value_not_in_the_deck_is_named(capsys):
    assert main(["--rules", "short-deck", "equity", "22", "KK"]) == 2
    err = capsys.readouterr().err.strip()
    assert "player 1" in err and "the value '2' is not in these rules' deck" in err


def test_ranges_that_deal_no_matchup_are_one_line(capsys):
    assert main(["equity", "AA", "AA", "AA"]) == 2
    assert "deal no matchup" in capsys.readouterr().err


def test_more_players_than_a_table_seats_are_one_line(capsys):
    assert main(["equity", *["AA"] * 11]) == 2
    assert "2 to 10 players" in capsys.readouterr().err


@pytest.mark.parametrize("a, b", [("QQ+", "QQ,KK,AA"), ("A5s-A2s", "A2s,A3s,A4s,A5s"), ("AK", "AKs,AKo"),
                                  ("AA,AA,AA", "AA"), (" QQ+ , AKs ", "AKs,QQ+")])
def test_one_range_written_two_ways_is_one_set_of_hands(a, b):
    engine = Engine()
    assert set(read_range(engine, a).combos) == set(read_range(engine, b).combos)
