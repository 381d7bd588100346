"""Every PHH game code pokerkit 0.7.7 writes, judged as pokerkit pays it (issue 33): random hands
of each, dealt and played by pokerkit (tests/phhsynth.py), every one judged, its payout by
rules/pots.dl equal to pokerkit's finishing stacks; in the stud games every street's first to
act is the rules' (bringsIn, opens), which the replay checks against pokerkit's actor.

200 hands a game here; ``POKER_PHH_AGREE=2000`` runs 2,000 (the counts in docs/batches.md)."""

from __future__ import annotations

import os

import pytest

from engine import Engine
from engine.history import Histories
from engine.io.phh import read_histories

pytest.importorskip("pokerkit")
from phhsynth import VARIANTS, synthesize  # noqa: E402

HANDS = int(os.environ.get("POKER_PHH_AGREE", "200"))
CODES = ("FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")
_engines: dict[str, Engine] = {}


def engines(name: str) -> Engine:
    if name not in _engines:
        _engines[name] = Engine(name)
    return _engines[name]


def test_every_code_pokerkit_writes_is_dealt():
    assert set(CODES) == set(VARIANTS)


@pytest.mark.filterwarnings("ignore:Returning reserved")     # pokerkit looking past the deck in a draw
@pytest.mark.parametrize("code", CODES)
def test_each_game_is_paid_as_pokerkit_pays_it(code):
    results = list(Histories(engines).judge(read_histories(synthesize(HANDS, seed=3333, variants=(code,)))))
    assert len(results) == HANDS
    wrong = [(r["id"], r["status"], r.get("error"), r.get("record")) for r in results
             if r["status"] != "judged" or not r["record"]["agrees"]]
    assert wrong == []
    assert sum(any(len(p["contestants"]) > 1 for p in r["pots"]) for r in results) > HANDS // 4   # showdowns
