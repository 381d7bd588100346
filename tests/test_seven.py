"""`poker check --cards 7` and `poker equity`: the rules' five-card table, counted with numpy.

On a 26-card deck against treys over all its 657,800 seven-card hands; on the full deck, the
published seven-card table and exact equities against treys' own table.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from published import DISTINCT7, EXPECTED7
from truth import treys_cards, treys_five_values

from conftest import copy_rules, edit
from engine import Engine
from engine.check.seven_card import check_seven
from engine.cli import main
from engine.datalog.loader import RuleError
from engine.equity import equity
from engine.judging.table import five_card_table
from engine.poker import sevens

DECK = "cardId_F: cardId(C, V, S) <= valueName(V, N, P) & suitName(S, M, Q) & (C == 13 * (S - 1) + V)"


def treys_table(engine: Engine, cards: list[int]) -> tuple[np.ndarray, dict[int, str]]:
    """treys' value of every five of the deck (higher stronger), and each value's category."""
    return treys_five_values(treys_cards([engine.notation.token(c) for c in cards]))


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Engine:
    rules = copy_rules(tmp_path_factory.mktemp("small") / "rules")
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")           # hearts and diamonds: 26 cards
    return Engine(rules)


def test_seven_cards_of_a_small_deck_agree_with_treys(small):
    report = check_seven(small, samples=60)
    assert report.total == math.comb(26, 7) == sum(report.frequencies.values())
    failed = {o.name for o in report.obligations if not o.holds}
    assert failed == {"frequencies of the best five equal the published table",     # 52 cards' figures
                      f"{DISTINCT7:,} distinct best values", "133,784,560 seven-card hands in the deck"}
    table = five_card_table(small)
    values, names = treys_table(small, list(table.cards))
    histogram = sevens.best_histogram(values, 26, 7)
    expected: dict[str, int] = {}
    for value, count in enumerate(histogram.tolist()):
        if count:
            expected[names[value]] = expected.get(names[value], 0) + count
    assert report.frequencies == expected
    # and the rules' table orders the fives exactly as treys does
    order = np.argsort(table.values, kind="stable")
    assert np.array_equal(np.diff(table.values[order]) > 0, np.diff(values[order]) > 0)
    assert np.all(np.diff(values[order]) >= 0)


def test_check_cards_7_over_the_full_deck(capsys):
    assert main(["check", "--cards", "7", "--samples", "100"]) == 0
    out = capsys.readouterr().out
    assert "133,784,560 hands" in out
    for category, count in EXPECTED7.items():
        assert f"{category:<18}{count:>12,}{count:>12,}" in out
    assert "FAILS" not in out and "holds  4,824 distinct best values" in out
    assert "holds  the rules' showdown plays the table's best five (100 seven-card hands" in out


def test_the_table_follows_an_edited_comparator(tmp_path):
    # Full houses compared by their pair first: the table (handKey) and the rules' showdown agree still.
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")
    edit(rules / "fighting.dl", "beat_SharedBoard: keyPart(7, 2, 'pairs')", "beat_SharedBoard: keyPart(7, 0, 'pairs')")
    edited = check_seven(Engine(rules), samples=40)
    agrees = {o.name: o.holds for o in edited.obligations}
    assert agrees["the rules' showdown plays the table's best five"]


@pytest.fixture(scope="module")
def full(engine):
    table = five_card_table(engine)
    return engine, table, treys_table(engine, list(table.cards))[0]


def _positions(table, text: str, engine) -> list[int]:
    where = {c: i for i, c in enumerate(table.cards)}
    return [where[c] for c in engine.cards(text)]


@pytest.mark.parametrize("holes, board, dead, game", [
    (["AS AD", "KS KH"], None, None, "holdem"),
    (["AS KS", "QH QD", "7C 2D"], "QS JS 2C", None, "holdem"),
    (["AH KH QS QD", "9C 8C 7D 6D"], "2H 5H 9S JC", "3S", "omaha"),
])
def test_exact_equity_is_treys_equity(full, holes, board, dead, game):
    engine, table, values = full
    got = equity(engine, holes, board, dead, game)
    want = sevens.equity(values, 52, [_positions(table, h, engine) for h in holes],
                         _positions(table, board or "", engine), _positions(table, dead or "", engine), game=game)
    assert got.exact and want.exact and got.boards == want.boards
    assert got.win == tuple(want.win) and got.tie == tuple(want.tie) and got.share == tuple(want.share)
    assert abs(sum(got.share) - 1) < 1e-9


def test_aces_against_kings(engine, capsys):
    assert main(["equity", "AS AD", "KS KH"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "holdem, board (none): exact: every one of 1,712,304 boards; a tie splits the pot equally"
    assert out[1].startswith("player 1 (AS AD): equity  81.95%")
    assert out[2].startswith("player 2 (KS KH): equity  18.05%")
    assert out[3].startswith("checked: 24 of the boards also judged by the rules' showdown")


def test_sampled_equity_reports_its_seed_and_error(engine, capsys):
    assert main(["equity", "--json", "--samples", "20000", "--seed", "3", "AS AD", "KS KH", "7C 2D"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is False and data["seed"] == 3 and data["boards"] == 20000
    shares = [p["equity"] for p in data["players"]]
    assert abs(sum(shares) - 1) < 1e-9 and all(0 < p["stderr"] < 0.01 for p in data["players"])
    assert main(["equity", "--json", "--samples", "20000", "--seed", "3", "AS AD", "KS KH", "7C 2D"]) == 0
    assert json.loads(capsys.readouterr().out) == data                   # the same seed, the same answer


@pytest.mark.parametrize("args, message", [
    (["AS AD", "AS KH"], "AS"),
    (["AS AD KC", "KS KH"], "hole"),
    (["AS AD", "KS KH", "--game", "razz"], "unknown game 'razz'"),           # razz: ace-to-five's
    (["AS AD", "KS KH", "--board", "2C 3C 4C 5C 6C 7C"], "board"),
    (["AS AD", "KS KH", "--samples", "0"], "--samples must be at least 1"),
    (["AS AD"], "2 to 10 players"),
])
def test_equity_errors_are_one_line(capsys, args, message):
    assert main(["equity", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_the_check_of_equity_catches_a_table_that_is_not_the_rules(engine, monkeypatch):
    # A table whose order is not the rules' (every value reversed): the rules' showdown disagrees.
    from engine import equity as module
    table = five_card_table(engine)
    flipped = type(table)(table.cards, (table.values.max() - table.values).astype(np.int32), table.ranks,
                          table.classes, table.rules_digest, table.places)   # its places: the proof is the rules'
    monkeypatch.setattr(module, "five_card_table", lambda engine, *a, **k: flipped)   # as equity reads it
    with pytest.raises(module.TableDisagrees, match="disagree"):
        module.equity(engine, ["AS AD", "KS KH"], board="2C 7D 9H")
    assert issubclass(module.TableDisagrees, RuleError)          # one line from the command
