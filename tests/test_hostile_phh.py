"""Hand histories under attack (issue 32): every hostile field is one line on that hand only (N
in, N out, in order), numbers are bounded before they are read, chips are conserved, the replay
follows pokerkit where the standard does, and a rule set that cannot play a showdown says so."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings

import pytest

from conftest import ROOT
from engine import Engine
from engine.cli import main
from engine.history import Histories
from engine.io.phh import read_histories, read_sections
from engine.judging import policy

_engines: dict[str, Engine] = {}


def engines(name: str) -> Engine:
    if name not in _engines:
        _engines[name] = Engine(name)
    return _engines[name]


def judged(text: str) -> list[dict]:
    return list(Histories(engines).judge(read_histories(text, "test")))


ACTIONS = ['"d dh p1 AsAd"', '"d dh p2 KcKd"', '"p2 cbr 6"', '"p1 cc"', '"d db 2c3d4h"', '"p1 cc"', '"p2 cc"',
           '"d db 9s"', '"p1 cc"', '"p2 cc"', '"d db Jc"', '"p1 cc"', '"p2 cc"', '"p2 sm KcKd"', '"p1 sm AsAd"']
OK = {"variant": '"NT"', "antes": "[0, 0]", "blinds_or_straddles": "[1, 2]", "min_bet": "2",
      "starting_stacks": "[100, 100]"}
DIGITS = "9" * 5000


def hand(actions: list[str] | None = None, **fields: str) -> str:
    """ok.phh of the issue (AA against KK, to a showdown) with some fields or actions changed."""
    lines = [f"{k} = {v}" for k, v in {**OK, **fields}.items()]
    return "\n".join(lines + [f"actions = [{', '.join(ACTIONS if actions is None else actions)}]"]) + "\n"


def acted(i: int, action: str) -> list[str]:
    return ACTIONS[:i] + [action] + ACTIONS[i + 1:]


# name: (the hand, the status it gets, what its one line says)
HOSTILE = {
    "variant is a list": (hand(variant='["NT"]'), "invalid", "variant must be a text"),
    "more players than stacks": (hand(players='["a", "b", "c"]'), "invalid", "players must list one name"),
    "fewer players than stacks": (hand(players='["a"]'), "invalid", "players must list one name"),
    "a player's name is a number": (hand(players="[1, 2]"), "invalid", "players must list one name"),
    "a stack of a huge exponent": (hand(starting_stacks="[1e999999999, 100]"), "invalid", "too large"),
    "a bet of a huge exponent": (hand(acted(2, '"p2 cbr 1e999999999"')), "invalid", "too large"),
    "a bet of 5,000 digits": (hand(acted(2, f'"p2 cbr {DIGITS}"')), "invalid", "more than 40 characters"),
    "a stack of 5,000 digits": (hand(starting_stacks=f"[{DIGITS}, 100]"), "invalid", "thousands of digits"),
    "a seat of 5,000 digits": (hand(acted(0, f'"d dh p{DIGITS} AsAd"')), "invalid", "there is no player"),
    "a seat of full-width digits": (hand(acted(0, '"d dh p１ AsAd"')), "invalid", "unknown actor"),
    "an amount with an underscore": (hand(acted(2, '"p2 cbr 6_0"')), "invalid", "'6_0' is not an amount"),
    "an amount of full-width digits": (hand(acted(2, '"p2 cbr ６"')), "invalid", "is not an amount"),
    "an amount finer than a millionth at 28 places": (
        hand(starting_stacks="[100.0000000000000000000000000001, 100]"), "invalid", "finer than a millionth"),
    "an amount finer than a millionth at 7 places": (
        hand(starting_stacks="[100.0000001, 100]"), "invalid", "finer than a millionth"),
    "a stack written as text": (hand(starting_stacks='["100", 100]'), "invalid", "is not a number"),
    "both players muck": (hand(ACTIONS[:-2] + ['"p2 sm"', '"p1 sm"']), "invalid", "mucks, the last player in"),
    "an action after every other player folded": (
        hand(ACTIONS[:3] + ['"p1 f"', '"p2 cc"']), "invalid", "after the hand is over"),
    "a bet after the last round": (hand(ACTIONS[:13] + ['"p1 cc"']), "invalid", "the hand is over"),
    "an unknown variant of 100,000 characters": (hand(variant='"' + "X" * 100_000 + '"'), "unsupported",
                                                  "(100,000 characters)"),
}


def test_each_hostile_hand_is_one_line_on_that_hand_and_the_batch_goes_on():
    names = list(HOSTILE)
    text = "".join(f"[{i}]\n{HOSTILE[n][0]}" for i, n in enumerate(names, 1)) + f"[{len(names) + 1}]\n{hand()}"
    results = judged(text)
    assert [r["id"] for r in results] == list(range(1, len(names) + 2))          # N in, N out, in order
    for r, name in zip(results, names):
        _, status, says = HOSTILE[name]
        assert (r["status"], name) == (status, name) and says in r["error"], (name, r.get("error"))
        assert "\n" not in r["error"] and len(r["error"]) < 400, name
    assert results[-1]["status"] == "judged" and results[-1]["pots"][0]["awards"] == {"1": "12"}


def test_a_hostile_field_in_a_batch_long_enough_to_warm_the_tables_is_one_line():
    """Past policy.HISTORY_LOOK_AFTER hands the batch's variants are glanced at before they are replayed."""
    hands = [hand(variant='["NT"]')] + [hand()] * (policy.HISTORY_LOOK_AFTER + 49)
    text = "".join(f"[{i}]\n{h}" for i, h in enumerate(hands, 1))
    results = judged(text)
    assert len(results) == policy.HISTORY_LOOK_AFTER + 50 and "variant must be a text" in results[0]["error"]
    assert all(r["status"] == "judged" for r in results[1:])


def test_a_section_header_of_5000_digits_is_a_hand_of_that_name():
    result, = judged(f"[{DIGITS}]\n{hand()}")
    assert result["id"] == DIGITS and result["status"] == "judged"


def test_a_single_hand_whose_number_cannot_be_read_exits_2_with_one_line(tmp_path, capsys):
    bad = tmp_path / "big.phh"
    bad.write_text(hand(starting_stacks=f"[{DIGITS}, 100]"))
    assert main(["judge", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "thousands of digits" in err and len(err) < 300


# ---- chips -------------------------------------------------------------------------------------


def test_every_player_is_in_the_result_and_every_chip_is_paid_out():
    result, = judged(hand())
    assert [p["player"] for p in result["players"]] == [1, 2]
    put = sum(int(p["put"]) for p in result["players"])
    assert put == sum(int(p["won"]) + int(p["returned"]) for p in result["players"]) == 12


def test_a_hand_whose_pots_lose_chips_is_invalid_not_judged(monkeypatch):
    """Whatever loses them (here the awards of the main pot are dropped on their way to the
    result), a hand that does not pay out what was put in is an error of that hand."""
    take = Histories._take
    monkeypatch.setattr(Histories, "_take", staticmethod(lambda h, awards: take(h, awards[1:])))
    result, = judged(hand())
    assert result["status"] == "invalid" and "pay out 0 of the 12 put in" in result["error"]


# ---- validity: as pokerkit replays -------------------------------------------------------------


def test_no_action_is_asked_of_a_player_who_has_no_decision():
    """The issue's hand: stacks 100, 1, 1, blinds 1/2, p3 calls all in: p1 has nothing to decide."""
    text = hand(['"d dh p1 AsAd"', '"d dh p2 KcKd"', '"d dh p3 QcQd"', '"p3 cc"', '"d db 2c3d4h"', '"d db 9s"',
                 '"d db Jc"', '"p1 sm AsAd"', '"p2 sm KcKd"', '"p3 sm QcQd"'],
                antes="[0, 0, 0]", blinds_or_straddles="[1, 2, 0]", starting_stacks="[100, 1, 1]")
    result, = judged(text)
    assert result["status"] == "judged", result.get("error")
    assert [p["won"] for p in result["players"]] == ["3", "0", "0"]


def _tiny(rng: random.Random, n: int, variant: str, table=None):
    ante, blinds, stacks, bb = table(rng, n, variant)
    return [0] * n, blinds, [rng.randint(1, 3 * bb) for _ in range(n)], bb


def test_hands_of_tiny_stacks_pokerkit_played_are_judged_as_it_pays_them(monkeypatch):
    import phhsynth
    monkeypatch.setattr(phhsynth, "_table", lambda rng, n, v, t=phhsynth._table: _tiny(rng, n, v, t))
    results = judged(phhsynth.synthesize(120, seed=7, variants=("NT",), players=(2, 6)))
    assert len(results) == 120
    assert all(r["status"] == "judged" and r["record"]["agrees"] for r in results), \
        next(r.get("error") or r["record"] for r in results if r["status"] != "judged" or not r["record"]["agrees"])


def _draw_hands(count: int) -> str:
    """Six-player triple draws pokerkit deals and plays, every player discarding three cards or
    more each draw: the deck runs out and pokerkit deals the discards again."""
    from pokerkit import (
        Automation,
        FixedLimitDeuceToSevenLowballTripleDraw,
        HandHistory,
        Mode,
    )
    auto = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
            Automation.CARD_BURNING, Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(1, count + 1):
            rng = random.Random(f"draw/{i}")
            game = FixedLimitDeuceToSevenLowballTripleDraw(auto, False, 0, (1, 2), 2, 4, mode=Mode.CASH_GAME)
            state = game([200] * 6, 6)
            deck = list(state.deck_cards)
            rng.shuffle(deck)
            state.deck_cards.clear()
            state.deck_cards.extend(deck)
            while state.status:
                if state.can_deal_hole():
                    for p in state.player_indices:
                        if k := len(state.hole_dealing_statuses[p]):
                            state.deal_hole(k, p)
                elif state.can_stand_pat_or_discard():
                    cards = state.hole_cards[state.stand_patter_or_discarder_index]
                    state.stand_pat_or_discard(rng.sample(cards, rng.randint(3, len(cards))))
                elif state.actor_index is not None:
                    state.check_or_call()
                else:
                    state.show_or_muck_hole_cards(True)
            hh = HandHistory.from_game_state(game, state)
            hh.finishing_stacks = list(state.stacks)
            out.append(f"[{i}]\n" + hh.dumps())
    return "\n".join(out)


def test_discards_dealt_again_once_the_deck_runs_out_are_replayed_as_pokerkit_deals_them():
    text = _draw_hands(12)
    assert "sd" in text
    results = judged(text)
    assert len(results) == 12
    assert all(r["status"] == "judged" and r["record"]["agrees"] for r in results), \
        next(r.get("error") for r in results if r["status"] != "judged")


def test_a_discard_dealt_again_before_the_deck_runs_out_is_dealt_twice():
    text = "\n".join([
        'variant = "F2L3D"', "antes = [0, 0]", "blinds_or_straddles = [1, 2]", "small_bet = 2", "big_bet = 4",
        "starting_stacks = [100, 100]",
        'actions = ["d dh p1 2c3c4c5c7d", "d dh p2 8s9sTsJsKs", "p2 cc", "p1 cc", "p1 sd 7d", "d dh p1 7d"]'])
    result, = judged(text)
    assert result["status"] == "invalid" and "the card 7D is dealt twice" in result["error"]
    assert "the deck had" in result["error"]


# ---- a rule set that cannot play the showdown ----------------------------------------------------


def test_a_board_game_judged_with_rules_of_four_card_hands_cannot_be_judged_and_names_them(tmp_path, capsys):
    path = tmp_path / "ok.phh"
    path.write_text(hand())
    assert main(["--rules", "badugi", "judge", str(path), "--format", "jsonl"]) == 0
    out = capsys.readouterr().out
    result = json.loads(out)
    assert result["rules"] == "badugi" and result["status"] == "cannot be judged"
    assert "holds hands of 4 cards" in result["error"]


def test_beat_with_a_board_and_rules_of_four_card_hands_is_one_line_exit_2(capsys):
    assert main(["--rules", "badugi", "beat", "--board", "AH KH QH 2C 3D", "JH TH", "AS AD"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "holds hands of 4 cards" in err


# ---- splitting a bulk file as TOML does -----------------------------------------------------------


@pytest.mark.parametrize("between, ids", [
    ('note = """\n[99]\n"""\n', [1, 2]),
    ("note = '''\n[99]\n'''\n", [1, 2]),
    ("x = [\n[99]\n]\n", [1, 2]),
    ("[1.sub]\nx = 1\n", [1, 2]),
    ('["2"]\n', [1, 2]),
    ("[z.sub]\nx = 1\n", [1, "z", 2]),
])
def test_a_bulk_file_is_split_where_toml_splits_it(between, ids):
    import tomllib
    text = f"[1]\n{hand()}{between}" + ("" if between == '["2"]\n' else "[2]\n") + hand()
    assert [int(k) if k.isdigit() else k for k in tomllib.loads(text)] == ids
    results = judged(text)
    assert [r["id"] for r in results] == ids
    assert [r["status"] for r in results if r["id"] != "z"] == ["judged", "judged"]


def test_a_section_defined_twice_is_an_error_of_the_second():
    results = judged(f"[1]\n{hand()}[1]\n{hand()}")
    assert [r["status"] for r in results] == ["judged", "invalid"] and "defined twice" in results[1]["error"]


def test_stdin_is_told_phh_by_its_content_after_many_comments_and_any_first_key():
    text = "".join(f"# comment {i}\n" for i in range(60)) + hand().replace('variant = "NT"\n', "") + 'variant = "NT"\n'
    done = subprocess.run([sys.executable, "-m", "engine", "judge", "-", "--format", "jsonl"], input=text,
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "judged"


def test_the_audit_counts_the_showdowns_the_results_show():
    text = "".join(f"[{i}]\n{h}" for i, h in enumerate(
        [hand(), hand(ACTIONS[:3] + ['"p1 f"']), hand(variant='"F7S"'), hand(acted(2, '"p2 cbr x"')), hand()], 1))
    judge = Histories(engines)
    results = list(judge.judge(read_histories(text)))
    shown = sum(1 for r in results if r["status"] == "judged" and any(len(p["contestants"]) > 1 for p in r["pots"]))
    assert judge.counts["showdowns"] == shown == 2 and judge.counts["hands"] == 5


def test_reading_sections_stays_as_fast_as_lines_are_read():
    """The splitting follows a hand's lines once, at its header: 2,000 hands in well under a second."""
    import time
    text = "".join(f"[{i}]\n{hand()}" for i in range(1, 2001))
    start = time.perf_counter()
    assert sum(1 for _ in read_sections(text)) == 2000
    assert time.perf_counter() - start < 2.0
