"""Omaha hi/lo hand histories (issue 33): both halves of a showdown read off the five-card tables
where each rule set's own proofs hold, and the answers the rules give world by world; a low rule
set edited so that its proof fails is asked world by world (deny by default)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Engine
from engine.evaluators import World
from engine.history import Histories, foresight
from engine.io.phh import read_histories
from engine.judging import policy
from engine.judging.table import five_card_table
from engine.judging.tabled import Tabled

pytest.importorskip("pokerkit")
from phhsynth import synthesize  # noqa: E402  (pokerkit deals the hands)

HANDS = 8            # five showdowns: a FO/8 showdown takes the rules a second or two world by world
MAY_PLAY_OWN = ("mayPlay_Own: mayPlay(P, S) <= candidate(P, S) & isHand(S) & seat(T, P) & game(T, G) "
                "& usesOwn(G, N) & owns(P, S, N)")


def _judge(engines: Any, text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[dict], list[str]]:
    """The results, and the rule sets (by name) whose showdowns were read off a table."""
    read: list[str] = []
    real = Tabled._showdowns

    def spied(self: Tabled, shape: tuple, worlds: list) -> list:
        found = real(self, shape, worlds)
        read.extend(self.engine.ruleset.name for v in found if v is not None)
        return found
    with monkeypatch.context() as m:
        m.setattr(Tabled, "_showdowns", spied)
        return list(Histories(engines).judge(read_histories(text))), read


def _paid(results: list[dict]) -> list[Any]:
    return [(r["status"], r.get("pots"), r.get("record", {}).get("agrees")) for r in results]


@pytest.fixture(scope="module")
def hands() -> str:
    return synthesize(HANDS, seed=3303, variants=("FO/8",))


@pytest.fixture(scope="module")
def standard() -> Engine:
    engine = Engine()
    for e in (engine, engine.low_engine("eight-or-better")):
        five_card_table(e)                                   # cached: what a user's batch finds
    return engine


def test_three_omaha_hilo_showdowns_are_worth_the_tables():
    """Loading the tables and making their proofs takes a second or two: 200 heads-up showdowns
    of hold'em are worth it, three of Omaha hi/lo (each a second showdown for its low half)."""
    engine = Engine()
    omaha, holdem = engine.games["omaha-hilo"], engine.games["holdem"]
    deal = list(range(1, 14))
    hilo = [World((tuple(deal[:4]), tuple(deal[4:8])), board=tuple(deal[8:13]), game=omaha)]
    plain = [World((tuple(deal[:2]), tuple(deal[2:4])), board=tuple(deal[4:9]), game=holdem)]
    assert foresight._worth(engine, hilo * 3) and not foresight._worth(engine, hilo * 2)
    assert foresight._worth(engine, plain * 200) and not foresight._worth(engine, plain * 199)


def test_both_halves_off_the_tables_are_the_rules_world_by_world(hands, standard, monkeypatch):
    monkeypatch.setattr(policy, "HISTORY_WORK_AFTER", 0)                  # these few showdowns off the tables
    fast, read = _judge(lambda name: standard, hands, monkeypatch)
    assert {"standard", "eight-or-better"} <= set(read)      # the low half read off its own table
    monkeypatch.setattr(policy, "HISTORY_WORK_AFTER", 10 ** 12)           # never worth a table: world by world
    plain = Engine()
    slow, none = _judge(lambda name: plain, hands, monkeypatch)
    assert none == [] and fast == slow
    assert sum(len(p["contestants"]) > 1 for r in fast for p in r["pots"]) >= 4       # showdowns were asked
    assert all(r["status"] == "judged" and r["record"]["agrees"] for r in fast)       # pokerkit's payout


def test_a_low_rule_set_whose_proof_fails_is_asked_world_by_world(hands, standard, tmp_path, monkeypatch):
    """The low rules' mayPlay reads a card (a card that is never dealt: the same answers), so the
    showdown proof fails for them: their table exists but the low half is asked of the rules."""
    low = tmp_path / "low"
    low.mkdir()
    (low / "variant.toml").write_text('extends = "eight-or-better"\n', encoding="utf-8")
    (low / "showdown.dl").write_text(MAY_PLAY_OWN + " & ~member(S, 0)\n", encoding="utf-8")
    lows = Engine(low)
    five_card_table(lows)
    assert lows.tabled() is not None and not lows.tabled().showdowns
    high = Engine()
    high._lows["eight-or-better"] = lows      # splitLow names it (as a folder would: no second high table)
    monkeypatch.setattr(policy, "HISTORY_WORK_AFTER", 0)
    got, read = _judge(lambda name: high, hands, monkeypatch)
    assert read and set(read) == {"standard"}                 # the high half off the table, never the low
    want, _ = _judge(lambda name: standard, hands, monkeypatch)
    assert _paid(got) == _paid(want)
