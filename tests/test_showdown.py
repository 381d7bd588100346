"""Beyond five cards (rules/showdown.dl): the best five of hold'em and Omaha, winners, the CLI.

The documents' showdowns (hands.yaml) table-driven; hundreds of random deals against treys
(POKER_SHOWDOWNS=2000 for thousands); the
three evaluators against each other; the API's and the commands' edges.
"""

from __future__ import annotations

import itertools
import json
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from truth import EVALUATOR, treys_cards

from conftest import FIXTURES, cases, copy_rules
from engine import Engine, InvalidCards
from engine import interface as I
from engine.cli import main
from engine.evaluators import World, verdicts

# Random hold'em deals of 2..6 players against treys, judged in one batch: 500 in the default run,
# POKER_SHOWDOWNS=2000 for 2,000 (as test_variants, test_hilo and test_stud).
HOLDEM_DEALS = int(os.environ.get("POKER_SHOWDOWNS") or "500")
OMAHA_DEALS = 200


def cards_of(text: str) -> set[str]:
    return set(text.split())


@pytest.mark.parametrize("case", cases("showdowns"))
def test_showdown(engine, case):
    v = engine.showdown(case["hands"], case["board"], case["game"])
    assert v.error is None
    assert list(v.winners) == case["winners"]
    assert [cards_of(engine.notation.format(b)) for b in v.best] == [cards_of(b) for b in case["best"]]
    assert [engine.categories[r] for r in v.ranks] == case["categories"]
    assert engine.winners(case["hands"], board=case["board"], game=case["game"]) == case["winners"]


@pytest.mark.parametrize("case", cases("invalid_showdowns"))
def test_invalid_showdown(engine, case):
    v = engine.showdown(case["hands"], case["board"], case["game"])
    assert v.result == -1 and v.winners == ()
    assert case["why"] in v.error
    with pytest.raises(InvalidCards, match=case["why"]):
        engine.winners(case["hands"], board=case["board"], game=case["game"])


def test_the_evaluators_agree_on_every_showdown_of_the_documents(engine):
    deals = [engine.deal(c["hands"], c["board"], c["game"])
             for c in FIXTURES["showdowns"] + FIXTURES["invalid_showdowns"]]
    local = verdicts(engine.evaluator(1), deals)
    duckdb = verdicts(engine.evaluator(10_000), deals)
    assert duckdb == local and [v.best for v in duckdb] == [v.best for v in local]
    # pyDatalog on the hold'em ones (an Omaha player has 126 fives: tens of seconds each there)
    holdem = [i for i, d in enumerate(deals) if d.game == engine.games["holdem"]]
    reference = verdicts(engine.reference, [deals[i] for i in holdem])
    assert reference == [local[i] for i in holdem]
    assert [v.best for v in reference] == [local[i].best for i in holdem]


def test_a_batch_is_asked_in_process_by_the_sets_of_cards_it_asserts(engine):
    # The in-process evaluator's time grows with the sets of cards a batch asserts, DuckDB's is a
    # run's fixed cost: 150 fights of two hands go in-process, and six heads-up showdowns on the
    # river (45 sets each: two hands, the board, 42 fives), but not seven of them.
    fight = [tuple(engine.cards("AH KH QH JH TH")), tuple(engine.cards("2C 3D 4S 5H 7C"))]
    showdown = engine.deal(["AS AD", "KS KD"], "2C 7D 9H TS 3C")
    chips = World((), chips=((I.BET, (0, 1, 1, 50)),))
    assert [engine.evaluator(batch) is engine.local for batch in
            ([fight] * 150, [fight] * 151, [showdown] * 6, [showdown] * 7, [chips] * 300, [chips] * 301)] == \
        [True, False, True, False, True, False]
    assert engine.evaluator(50) is engine.local and engine.evaluator(51) is not engine.local   # a count


def _treys_best(tokens: list[str], board: list[str], game: str) -> int:
    """treys' score of the best five (lower is stronger): 7-card evaluate, or Omaha's 2 + 3."""
    if game == "holdem":
        return EVALUATOR.evaluate(treys_cards(tokens), treys_cards(board))
    return min(EVALUATOR.evaluate(treys_cards(list(h)), treys_cards(list(b)))
               for h in itertools.combinations(tokens, 2) for b in itertools.combinations(board, 3))


def _deals(rng: random.Random, count: int, game: str) -> list[World]:
    own, code = {"holdem": (2, 1), "omaha": (4, 2)}[game]
    out = []
    for _ in range(count):
        n = rng.randint(2, 6 if game == "holdem" else 4)
        board = rng.choice([3, 4, 5])
        d = rng.sample(range(1, 53), own * n + board)
        out.append(World(tuple(tuple(d[own * i:own * i + own]) for i in range(n)), board=tuple(d[own * n:]), game=code))
    return out


@pytest.mark.parametrize("game, count", [("holdem", HOLDEM_DEALS), ("omaha", OMAHA_DEALS)])
def test_random_showdowns_agree_with_treys(engine, game, count):
    deals = _deals(random.Random(game), count, game)
    tok = lambda cs: [engine.notation.token(c) for c in cs]  # noqa: E731
    disagree = []
    for deal, v in zip(deals, verdicts(engine.evaluator(len(deals)), deals)):
        board = tok(deal.board)
        scores = [_treys_best(tok(h), board, game) for h in deal.hands]
        expected = tuple(i for i, s in enumerate(scores) if s == min(scores))
        best_scores = [EVALUATOR.evaluate(treys_cards(tok(b[:2])), treys_cards(tok(b[2:]))) for b in v.best]
        if v.winners != expected or best_scores != scores:
            disagree.append((tok(deal.board), [tok(h) for h in deal.hands], v.winners, expected))
    assert not disagree, disagree[:3]


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(1, 52), min_size=7, max_size=7, unique=True))
def test_the_five_that_play_beat_or_tie_every_other_five(engine, seven):
    best = engine.best_five(seven)
    assert set(best.cards) <= set(seven) and len(best.cards) == 5
    strongest = engine.strength(best.cards)
    assert engine.strength(seven) == strongest
    for five in itertools.combinations(seven, 5):
        assert engine.strength(five) <= strongest


def test_best_five_without_a_board_takes_the_first_cards_as_the_players(engine):
    assert engine.best_five("AH KH QH JH TH 2C 3D").category == "royal flush"
    assert engine.best_five("AH KH QH JH TH").text == "AH KH QH JH TH"        # five: itself
    # Omaha, nine cards: the first four are the player's, and exactly two of them play.
    assert engine.best_five("AH KH 3D 4S QH JH TH 2C 9C", game="omaha").category == "royal flush"
    assert engine.best_five("AH 2C 3D 4S KH QH JH TH 9C", game="omaha").category == "high card"


def test_showdown_errors_name_the_problem(engine):
    with pytest.raises(InvalidCards, match="unknown game 'razz'"):         # razz: ace-to-five's game
        engine.best_five("AH KH", board="QH JH TH", game="razz")
    with pytest.raises(InvalidCards, match="the board: a stud game has no board"):   # but one or two common cards
        engine.best_five("AH KH 2C 3D", board="QH JH 9S", game="stud")
    with pytest.raises(InvalidCards, match="the wrong number of cards for the game"):
        engine.best_five("AH KH 2C 3D 4S 5S 6S", board="QH", game="stud")    # seven and a common card
    assert engine.best_five("AH KH 2C 3D 4S 5S", board="QH", game="stud").category == "straight"  # six and one
    assert engine.best_five("AH KH 2C 3D 4S", board="QH JH", game="stud").text == "AH KH 4S QH JH"
    with pytest.raises(InvalidCards, match="at most 10"):
        engine.best_five("AH KH QH JH TH 9H 8H 7H 6H", board="2C 3C")
    with pytest.raises(InvalidCards, match="8 cards: holdem plays the best five of 5 to 7 cards"):
        engine.best_five("AH KH QH JH TH 2C 3D 4S")
    with pytest.raises(InvalidCards, match="needs a board"):
        engine.deal(["AH KH QH JH TH 2C 3C", "2D 3D 4D 5D 6D 7S 8S"])


def test_a_rule_set_without_showdown_rules_says_so(tmp_path):
    rules = copy_rules(tmp_path / "rules")
    (rules / "showdown.dl").unlink()
    eng = Engine(rules)
    assert eng.beat("AH KH QH JH TH", "2C 3D 4S 5H 7C") == 1         # five cards still work
    with pytest.raises(InvalidCards, match="no showdown rules"):
        eng.best_five("AH KH QH JH TH 2C 3D")


def test_a_reordered_rule_set_chooses_by_its_own_order():
    # eventb ranks a straight (6) above a flush (5): from the same seven cards it plays the straight.
    seven = "9H TH JD QC KH 2H 3H"
    assert Engine().best_five(seven).category == "flush"
    assert Engine("eventb").best_five(seven).category == "straight"


def test_rank_of_seven_cards(capsys):
    assert main(["rank", "2C", "3D", "AH", "KH", "QH", "JH", "TH"]) == 0
    assert capsys.readouterr().out == "royal flush (rank 10): AH KH QH JH TH\n"
    assert main(["rank", "--json", "AH 5D 9C 9S 2H 3H 4H KS KD", "--game", "omaha"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["category"] == "straight" and cards_of(data["best"]) == cards_of("AH 5D 2H 3H 4H")


def test_beat_with_a_board(capsys):
    assert main(["beat", "--board", "AH KH QH 2C 3D", "JH TH", "AS AD", "--explain"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "1"
    assert out[1] == "winners: 1 (JH TH)"
    assert out[2] == "player 1 (JH TH): JH TH AH KH QH: royal flush (rank 10)"
    assert out[-1] == "player 1 vs player 2: beatRank_F1: royal flush over three of a kind"
    assert main(["beat", "--json", "--board", "9S 9C 9H 4D 2S", "JH JD", "4H 3C", "--explain"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["winners"] == [0] and data["categories"] == ["full house", "full house"]
    assert data["explain"] == ["player 1 vs player 2: beat_SharedBoard: jacks over fours (pairs)"]
    assert main(["beat", "--board", "5H 6D 7C 8S 9H", "2S 2D", "3S 3C"]) == 0
    assert "(a split pot)" in capsys.readouterr().out
    assert main(["beat", "--board", "AH KH QH", "AH 3D", "2C 2D"]) == 2
    assert "player 1: a card of this player is also on the board" in capsys.readouterr().err


def test_judge_reads_board_and_game(tmp_path, capsys):
    batch = tmp_path / "fights.json"
    fights = [{"id": c["id"], "board": c["board"], "game": c["game"], "hands": c["hands"]}
              for c in FIXTURES["showdowns"]]
    fights.append({"id": "five", "hands": ["JH JD 2C 2S 4H", "TH TD 9C 9S 8H"]})
    fights.append({"id": "no-board", "game": "omaha", "hands": ["JH JD 2C 2S", "TH TD 9C 9S"]})
    batch.write_text(json.dumps({"fights": fights}))
    assert main(["judge", str(batch), "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert len(results) == len(fights)
    for case, r in zip(FIXTURES["showdowns"], results):
        assert r["winners"] == case["winners"]
        assert [cards_of(b) for b in r["best"]] == [cards_of(b) for b in case["best"]]
    assert results[-2]["result"] == 1 and "best" not in results[-2]
    assert results[-1]["error"] == "`game` is for a showdown: give its `board` too"


@pytest.mark.parametrize("game, own", [("holdem", 2), ("omaha", 4)])
def test_deal_a_game_on_the_board(engine, capsys, game, own):
    assert main(["deal", "--players", "4", "--game", game, "--seed", "11", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    hands = [" ".join(h) for h in data["hands"]]
    assert [len(h) for h in data["hands"]] == [own] * 4 and len(data["board"]) == 5
    dealt = [c for h in data["hands"] for c in h] + data["board"]
    assert len(set(dealt)) == len(dealt)
    assert data["winners"] == engine.winners(hands, board=" ".join(data["board"]), game=game)
