"""Hand histories (PHH, issue 21): read, replayed, every pot paid out by rules/pots.dl and the
showdown rules, held to pokerkit's own replay, to the record, to the documents' examples, and to
pyDatalog (the compiled pots against the reference)."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import warnings
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, ROOT, cases
from engine import Engine
from engine import interface as I
from engine.cli import main
from engine.evaluators import World
from engine.history import AWARD_ASKS, POT_ASKS, Histories
from engine.history.stud import replay as replay_stud
from engine.io.phh import STUD, HistoryError, read_histories, replay
from engine.judging import policy

DATA = ROOT / "tests" / "data" / "phh"
SAMPLES = sorted(DATA.glob("*.phh*"))
_engines: dict[str, Engine] = {}


def engines(name: str) -> Engine:
    if name not in _engines:
        _engines[name] = Engine(name)
    return _engines[name]


def judged(text: str, name: str = "test") -> list[dict]:
    return list(Histories(engines).judge(read_histories(text, name)))


# ---- the documents' examples (hands.yaml) ---------------------------------------------------


@pytest.mark.parametrize("case", cases("histories"))
def test_the_documents_hands(case):
    result, = judged(case["phh"])
    assert result["status"] == "judged", result.get("error")
    pots = [{"amount": p["amount"], "contestants": p["contestants"], "awards": p["awards"]} for p in result["pots"]]
    assert pots == case["pots"]
    returned = {str(p["player"]): p["returned"] for p in result["players"] if p["returned"] != "0"}
    assert returned == case["returned"]


# ---- the sample hands from the dataset, against pokerkit's replay and the record --------------


def _pokerkit_stacks(path: Path) -> list[list[Decimal] | None]:
    """pokerkit's final stacks of every hand of a file (None where it cannot replay one)."""
    from pokerkit import HandHistory
    with warnings.catch_warnings(), open(path, "rb") as f:
        warnings.simplefilter("ignore")
        hhs = list(HandHistory.load_all(f)) if path.suffix == ".phhs" else [HandHistory.load(f)]
    out = []
    for hh in hhs:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                state = None
                for state in hh:
                    pass
            out.append([Decimal(str(s)) for s in state.stacks])
        except Exception:                        # pokerkit refuses the hand: nothing to compare
            out.append(None)
    return out


def _our_stacks(result: dict, starting: list) -> list[Decimal]:
    return [Decimal(str(s)) - Decimal(p["put"]) + Decimal(p["returned"]) + Decimal(p["won"])
            for s, p in zip(starting, result["players"])]


def test_every_judged_sample_hand_pays_out_as_pokerkit_replays_it():
    """Final stacks equal pokerkit's on every hand both judge (pokerkit splits a pot to fractions of
    a cent where a card room cannot: there, within the hand's smallest unit)."""
    compared = 0
    for path in SAMPLES:
        results = judged(path.read_text(encoding="utf-8"), path.name)
        docs = [doc for _, doc in read_histories(path.read_text(encoding="utf-8"), path.name)]
        theirs = _pokerkit_stacks(path)
        assert len(results) == len(docs) == len(theirs)
        for result, doc, pk in zip(results, docs, theirs):
            if result["status"] != "judged" or pk is None:
                continue
            ours = _our_stacks(result, doc["starting_stacks"])
            unit = Decimal(1) / (replay_stud if doc["variant"] in STUD else replay)(doc).scale
            assert all(abs(a - b) < unit for a, b in zip(ours, pk)), (path.name, result["id"], ours, pk)
            assert sum(ours) == sum(Decimal(str(s)) for s in doc["starting_stacks"])     # no chip lost
            compared += 1
    assert compared >= 22


def test_the_samples_say_what_each_hand_is():
    by_name = {p.name: judged(p.read_text(encoding="utf-8"), p.name) for p in SAMPLES}
    # A WSOP hand with finishing stacks: the record agrees; a split pot: the odd cent to player 1
    # (first left of the button), the record short by the rake only.
    assert by_name["wsop_finishing_stacks.phh"][0]["record"]["agrees"] is True
    split, = by_name["split_pot.phh"]
    assert split["pots"][0]["awards"] == {"1": "8.35", "2": "8.34"}
    assert split["record"] == {"winnings": ["7.93", "7.93", "0", "0"], "agrees": True, "rake": "0.83"}
    # Omaha hi/lo with a side pot: the high half and a split low half of each pot.
    hilo, = by_name["omaha_hilo.phh"]
    assert [(p["amount"], p["contestants"], p["awards"]) for p in hilo["pots"]] == [
        ("3900000", [1, 2, 3], {"1": "2925000", "3": "975000"}), ("2000000", [1, 3], {"1": "1500000", "3": "500000"})]
    assert hilo["record"]["agrees"] is True
    # Hands not shown at a showdown (????) are mucked (pots_Muck): the one hand shown takes the
    # main pot and the side pot, as the record's winnings say.
    side, = by_name["side_pots.phh"]
    assert side["status"] == "judged" and side["record"]["agrees"] is True
    assert [(p["contestants"], p["winners"]) for p in side["pots"]] == [([2, 3, 4], [3]), ([3, 4], [3])]
    assert side["pots"][0]["reason"].startswith("pots_Mucked: player 3's hand is the only one shown")
    # A record that skips a player's fold: an action out of turn, one line.
    bad, = by_name["wsop_2019_bb_ante.phh"]
    assert bad["status"] == "invalid" and "p1 acts out of turn (p8 is to act)" in bad["error"]
    online = by_name["online_showdown.phhs"]
    assert [r["id"] for r in online] == list(range(1, 19))
    assert all(r["record"]["agrees"] for r in online if r["status"] == "judged")


# ---- rules/pots.dl: the compiled evaluators against pyDatalog, and the invariants -------------


@st.composite
def chips(draw):
    """A hand's chips as the rules see them: antes, bets by round, folds, and showdown winners."""
    n = draw(st.integers(2, 6))
    antes = draw(st.lists(st.sampled_from([0, 0, 1, 3]), min_size=n, max_size=n))
    rounds = draw(st.integers(1, 4))
    bets = [draw(st.lists(st.sampled_from([0, 0, 2, 5, 7, 10, 25]), min_size=n, max_size=n)) for _ in range(rounds)]
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    # As in play: a player who put in the most, antes and bets, is still in (no one folds when he
    # is not facing a bet; and whoever is still in has put in something: a blind, an ante, a call).
    most = max(range(n), key=lambda p: antes[p] + sum(r[p] for r in bets))
    if antes[most] + sum(r[most] for r in bets) == 0:
        bets[0][most] = 2
    folded[most] = False
    facts = [(I.ANTE, (0, p + 1, x)) for p, x in enumerate(antes) if x]
    facts += [(I.BET, (0, p + 1, r + 1, x)) for r, row in enumerate(bets) for p, x in enumerate(row) if x]
    facts += [(I.FOLDED, (0, p + 1)) for p in range(n) if folded[p]]
    return n, facts, draw(st.randoms(use_true_random=False))


def _with_winners(eng: Engine, n: int, facts: list, rnd) -> list:
    """The facts with random showdown winners (some of each pot's contestants; lows now and then)."""
    answers = eng.reference.answers([World((), chips=tuple(facts))], POT_ASKS)[0]
    contests: dict[int, list[int]] = {}
    for _, level, p in answers[POT_ASKS[2]]:
        contests.setdefault(level, []).append(p)
    out = list(facts)
    for level, players in contests.items():
        out += [(I.POT_HIGH, (0, level, p)) for p in rnd.sample(players, rnd.randint(1, len(players)))]
        if rnd.random() < 0.3:
            out += [(I.POT_LOW, (0, level, p)) for p in rnd.sample(players, rnd.randint(1, len(players)))]
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chips())
def test_the_pots_rules_answer_alike_in_every_evaluator_and_keep_every_chip(engine, hand):
    n, facts, rnd = hand
    facts = _with_winners(engine, n, facts, rnd)
    world = World((), chips=tuple(facts))
    asks = POT_ASKS + AWARD_ASKS
    reference = engine.reference.answers([world], asks)[0]
    for evaluator in (engine.evaluator(1), engine.evaluator(100)):       # in-process and DuckDB
        assert evaluator.answers([world, world], asks) == [reference, reference], evaluator.name
    put = sum(row[-1] for name, row in facts if name in (I.ANTE, I.BET))
    returned = sum(r[-1] for r in reference[POT_ASKS[0]])
    pots = {level: x for _, level, x in reference[POT_ASKS[1]]}
    awarded = sum(r[-1] for r in reference[AWARD_ASKS[0]])
    live = {p for p in range(1, n + 1)} - {row[1] for name, row in facts if name == I.FOLDED}
    assert returned + sum(pots.values()) == put                          # every chip is in a pot or back
    assert awarded == sum(pots.values())                                  # every pot is paid out
    contests = {(level, p) for _, level, p in reference[POT_ASKS[2]]}
    assert {p for _, p in contests} <= live                               # only players still in contest
    for _, level, half, p, x in reference[AWARD_ASKS[0]]:
        assert (level, p) in contests                                     # ... and only they are paid
    for level in pots:                                                    # ties differ by the odd chip at most
        for half in (1, 2):
            shares = [x for _, lv, h, _, x in reference[AWARD_ASKS[0]] if lv == level and h == half]
            assert not shares or max(shares) - min(shares) <= 1


def test_a_side_pot_is_contested_only_by_those_who_reached_it(engine):
    """Player 1 all in for 50, players 2 and 3 put in 200 each, player 4 folds after 20."""
    facts = ((I.BET, (0, 1, 1, 50)), (I.BET, (0, 2, 1, 200)), (I.BET, (0, 3, 1, 300)), (I.BET, (0, 4, 1, 20)),
             (I.FOLDED, (0, 4)))
    answers = engine.evaluator(100).answers([World((), chips=facts)], POT_ASKS)[0]
    assert answers[POT_ASKS[0]] == [(0, 3, 100)]                          # the uncalled 100 goes back
    assert answers[POT_ASKS[1]] == [(0, 50, 170), (0, 200, 300)]
    assert answers[POT_ASKS[2]] == [(0, 50, 1), (0, 50, 2), (0, 50, 3), (0, 200, 2), (0, 200, 3)]


# ---- bad input: one line on the hand, the rest goes on -----------------------------------------

HAND = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [{actions}]
"""
GOOD = '"d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 2c7d", "p3 f", "p1 f"'
BAD = {
    "out of turn": ('"d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 2c7d", "p1 f"', "p1 acts out of turn (p3 is to act)"),
    "dealt twice": ('"d dh p1 AsAd", "d dh p2 AsKd"', "the card AS is dealt twice"),
    "over the stack": ('"d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 2c7d", "p3 cbr 500"',
                       "p3 bets 500, more than the 100 in front of him"),
    "unknown action": ('"d dh p1 AsAd", "p1 xx"', "unknown action 'xx'"),
    "bad card": ('"d dh p1 AsXd"', "cannot read the card 'Xd'"),
    "finer than the unit": ('"d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 2c7d", "p3 cbr 2.5", "p1 cbr 7.0000001"',
                            "action 5 ('p1 cbr 7.0000001'): the amount 7.0000001 is finer than a millionth"),
}


def test_each_bad_hand_gets_one_line_and_the_batch_goes_on():
    text = "".join(f"[{i}]\n" + HAND.format(actions=a) + "\n" for i, (a, _) in enumerate(BAD.values(), 1))
    text += "[9]\nvariant = 'NT'\nantes = [\n\n[10]\nvariant = 'F7X'\nantes = [0, 0]\nbring_in = 1\n" \
            "starting_stacks = [10, 10]\nactions = []\n"
    text += "[11]\n" + HAND.format(actions=GOOD)
    results = judged(text)
    assert [r["id"] for r in results] == [1, 2, 3, 4, 5, 6, 9, 10, 11]                  # N in, N out, in order
    for r, (_, why) in zip(results, BAD.values()):
        assert r["status"] == "invalid" and why in r["error"] and "\n" not in r["error"]
    assert results[6]["status"] == "invalid" and "not TOML" in results[6]["error"]
    assert results[7]["status"] == "unsupported" and "not a PHH variant" in results[7]["error"]
    good = results[8]                 # the big blind's 1 over the small blind's goes back; the pot is 2
    assert good["status"] == "judged" and good["pots"][0]["awards"] == {"2": "2"}
    assert [p["returned"] for p in good["players"]] == ["0", "1", "0"]


def test_an_action_that_is_only_a_comment_is_no_action():
    plain = judged(HAND.format(actions=GOOD))
    noted = judged(HAND.format(actions=GOOD.replace('"p3 f"', '"# p3 thinks", "", "p3 f"')))
    assert noted == plain and noted[0]["status"] == "judged"


def test_a_record_that_stops_early_cannot_be_judged():
    result, = judged(HAND.format(actions='"d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 2c7d", "p3 cc"'))
    assert result["status"] == "cannot be judged" and result["error"] == "the record stops before the hand is over"


def test_a_text_that_is_no_phh_is_one_line():
    with pytest.raises(HistoryError, match="not a PHH hand history"):
        list(read_histories("fights: []\n", "x.phh"))


# ---- the command line ------------------------------------------------------------------------


def test_judge_reads_a_phh_file_and_writes_json(tmp_path, capsys):
    out = tmp_path / "out.json"
    assert main(["judge", str(DATA / "online_showdown.phhs"), "-o", str(out)]) == 0
    results = json.loads(out.read_text())["results"]
    assert len(results) == 18
    err = capsys.readouterr().err
    assert "hands: 18, judged: 18 (3 showdowns), record agrees: 18" in err          # two by mucked hands


def test_judge_tells_phh_on_stdin_by_content(monkeypatch, capsys):
    text = FIXTURES["histories"][0]["phh"]
    done = subprocess.run([sys.executable, "-m", "engine", "judge", "-", "--format", "jsonl"], input=text,
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["pots"][0]["awards"] == {"3": "1109500"}


def test_history_prints_the_audit(capsys):
    assert main(["history", str(DATA / "online_showdown.phhs")]) == 0
    out = capsys.readouterr().out
    assert "hands: 18\njudged: 18 (3 showdowns)\nrecord agrees: 18 (rake taken in 13)\ndisagrees: 0" in out


def test_a_file_that_is_no_phh_exits_2_with_one_line(tmp_path, capsys):
    bad = tmp_path / "x.phh"
    bad.write_text("this is = = not toml\n")
    assert main(["judge", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "not a PHH hand history" in err


def test_a_record_that_differs_is_reported_not_corrected():
    """The WSOP hand with its finishing stacks altered: player 2 said to end with 100,000 more and
    player 4 with 100,000 less than the rules pay; the rules' payout stands, the record is named."""
    text = (DATA / "wsop_finishing_stacks.phh").read_text(encoding="utf-8")
    text = text.replace("finishing_stacks = [7340000, 3775000, 5110000, 8935000, 4545000]",
                        "finishing_stacks = [7340000, 3875000, 5110000, 8835000, 4545000]")
    result, = judged(text)
    assert result["pots"][0]["awards"] == {"2": "2630000"}
    assert result["record"]["agrees"] is False
    assert result["record"]["notes"] == ["finishing stack of player 2: the record 3875000, the rules 3775000",
                                         "finishing stack of player 4: the record 8835000, the rules 8935000"]


def test_explain_names_the_axiom_of_each_showdown():
    result, = list(Histories(engines, explain=True).judge(read_histories(FIXTURES["histories"][0]["phh"])))
    assert result["pots"][0]["reason"] == ("pots_Showdown: player 3's straight (7H 6H 3D 5C 4H) is the best of "
                                           "players 1, 3; player 3 vs player 1: beat_Straight: sevens over fives (top)")


def test_hands_dealt_and_played_by_pokerkit_are_paid_as_pokerkit_pays_them():
    """300 hands of hold'em, Omaha, Omaha hi/lo and short deck, dealt and played at random by
    pokerkit (tests/phhsynth.py: all-ins, side pots, showdowns of up to nine players): the rules'
    payout gives every player pokerkit's finishing stack (bench/bench_phh.py: 10,000 of 10,000)."""
    from phhsynth import synthesize
    text = synthesize(300, seed=2112, variants=("NT", "PO", "FO/8", "NS"))
    results = judged(text)
    docs = [doc for _, doc in read_histories(text)]
    assert [r["status"] for r in results] == ["judged"] * 300
    assert all(r["record"]["agrees"] for r in results)
    assert sum(len(r["pots"]) > 1 for r in results) > 40                      # side pots are many
    assert {r["variant"] for r in results} == {"NT", "PO", "FO/8", "NS"}
    for r, doc in zip(results, docs):
        assert _our_stacks(r, doc["starting_stacks"]) == [Decimal(x) for x in doc["finishing_stacks"]]


def test_pydatalog_answers_alike_before_any_fold_was_ever_asserted():
    """A fresh engine's first hand without a fold: pyDatalog once failed ``~folded(T, P)`` on a
    predicate it had never seen, so its answer hung on the hands asked before (the engine now
    makes every input known to it); it answers as the compiled evaluators do."""
    facts = ((I.BET, (0, 1, 1, 10)), (I.BET, (0, 2, 1, 10)), (I.BET, (0, 3, 1, 12)))
    fresh = Engine()
    world = World((), chips=facts)
    asked = fresh.reference.answers([world], POT_ASKS)[0]
    assert asked[POT_ASKS[2]] == [(0, 10, 1), (0, 10, 2), (0, 10, 3)]
    assert asked == fresh.evaluator(1).answers([world], POT_ASKS)[0] == fresh.evaluator(100).answers([world], POT_ASKS)[0]


ODD = """[1]
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
players = ["Zoë", "名前", "a\\u2028b\\"q\\u007f"]
actions = ["d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 2c7d", "p3 cbr 10", "p1 cc", "p2 cc", "d db 2h3h4h", "p1 cc",
           "p2 cc", "p3 cc", "d db 9s", "p1 cc", "p2 cc", "p3 cc", "d db Jc", "p1 cc", "p2 cc", "p3 cc",
           "p1 sm AsAd", "p2 sm KcKd", "p3 sm 2c7d"]
finishing_stacks = [120, 90, 90]
winnings = [29, 0, 0]

[x-2]
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [10.5, 100]
actions = ["d dh p1 AsAd", "d dh p2 KcKd", "p2 cbr 10.5", "p1 cc", "d db 2h3h4h", "d db 9s", "d db Jc",
           "p1 sm AsAd", "p2 sm KcKd"]
winnings = [0, 21]
"""


def test_a_result_is_the_line_of_json_the_encoder_writes():
    """Results are written as lines of JSON directly (engine.history): each must be exactly what
    engine.io.results.dumps writes of its data (keys in order, separators, the characters some readers
    take for line breaks escaped), whatever the hand: names out of ASCII, amounts in cents, a
    record that disagrees, unknown cards, an invalid or unsupported hand, the reasons --explain
    gives."""
    from engine.io.results import dumps
    texts = [ODD] + [path.read_text(encoding="utf-8") for path in SAMPLES]
    lines = []
    for explain in (False, True):
        for text in texts:
            lines += list(Histories(engines, explain=explain, dumped=True).judge(read_histories(text)))
    assert len(lines) > 40 and any('"agrees": false' in line for line in lines)
    assert any("\\u2028" in line for line in lines) and any("Zoë" in line for line in lines)
    for line in lines:
        assert line == dumps(json.loads(line))


# ---- one run where the pots are foreseen, the long way where not -----------------------------


def _pots_variant(root: Path, **clauses: str) -> Engine:
    """The standard rules with the labels of rules/pots.dl given replaced (a variant's folder)."""
    folder = root / "pots-variant"
    folder.mkdir()
    (folder / "variant.toml").write_text('extends = "standard"\n', encoding="utf-8")
    (folder / "pots.dl").write_text("\n".join(clauses.values()) + "\n", encoding="utf-8")
    return Engine(folder)


def _mixed_hands() -> str:
    from phhsynth import synthesize
    samples = "".join(f"[{path.stem}]\n" + path.read_text(encoding="utf-8").split("\n[", 1)[0] + "\n"
                      for path in SAMPLES if path.suffix == ".phh")
    return samples + UNSHOWN + synthesize(150, seed=12, variants=("NT", "NS"))


# Three players to the river, no hand shown: no one can say who takes the pot (pots_Muck).
UNSHOWN = """[unshown]
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cc", "p1 cc", "p2 cc", "d db 2c3d4h", "p1 cc",
           "p2 cc", "p3 cc", "d db 9s", "p1 cc", "p2 cc", "p3 cc", "d db Jc", "p1 cc", "p2 cc", "p3 cc"]
"""


def test_one_run_answers_what_the_long_way_answers(monkeypatch):
    """The showdowns of the pots foreseen go into the run that asks for the pots: the same
    results, audit included, as asking pots, showdowns and awards one after the other."""
    from engine import history
    text = _mixed_hands()
    fast = Histories(engines)
    got = list(fast.judge(read_histories(text)))
    monkeypatch.setattr(history, "_foreseeable", lambda engine: False)
    slow = Histories(engines)
    assert got == list(slow.judge(read_histories(text))) and fast.counts == slow.counts
    assert {r["status"] for r in got} >= {"judged", "cannot be judged"}


def test_pots_the_card_room_would_not_build_are_asked_the_long_way(tmp_path, monkeypatch):
    """Rules whose pots differ from the card room's (here a folded player stays in every pot):
    the pots foreseen miss, and those hands are asked again: the rules' answer, not the guess."""
    from engine import history
    live = open(ROOT / "rules" / "pots.dl", encoding="utf-8").read()
    level = "\n".join(line for line in live.splitlines() if line.startswith("pots_Level:"))
    edited = _pots_variant(tmp_path, level=level.replace("live(T, P, X) <= betIn(T, P, X) & ~folded(T, P)",
                                                         "live(T, P, X) <= betIn(T, P, X)"))
    assert history._foreseeable(edited)
    text = HAND.format(actions='"d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 2c7d", "p3 cbr 10", "p1 cc", "p2 f", '
                               '"d db 2h3h4h", "p1 cc", "p3 cc", "d db 9s", "p1 cc", "p3 cc", "d db Jc", "p1 cc", '
                               '"p3 cc", "p1 sm AsAd", "p3 sm 2c7d"')
    missed: list = []
    one_run = history.Histories._in_one_run

    def spied(self, engine, hands):
        missed.extend(one_run(self, engine, hands))
        return missed
    monkeypatch.setattr(history.Histories, "_in_one_run", spied)
    fast = list(Histories(lambda name: edited).judge(read_histories(text)))
    assert len(missed) == 1
    monkeypatch.setattr(history, "_foreseeable", lambda engine: False)
    slow = list(Histories(lambda name: edited).judge(read_histories(text)))
    assert fast == slow
    assert fast[0]["pots"][0]["contestants"] == [1, 2, 3]          # the folded player 2 is in it


def test_pots_that_read_the_showdowns_are_never_asked_in_one_run(tmp_path):
    """If the rules' pots or contestants read potHigh or potLow, the showdowns could change
    them: no one run.  The compiled program's reads say so, and, for rules it does not compile,
    the names the clauses mention."""
    from engine import history
    assert history._foreseeable(engines("standard"))
    edited = _pots_variant(tmp_path, contest="pots_Contest: contests(T, L, P) <= level(T, L) & live(T, P, X) & "
                                             "(X >= L) & ~potLow(T, L, P)\n"
                                             "pots_Contest: (contestants[T, L] == len_(P)) <= contests(T, L, P)")
    assert not history._foreseeable(edited)
    for rules, foreseen in (("standard", True), (tmp_path / "pots-variant", False)):
        plain = Engine(rules)
        plain.local = None                                   # as where the compiler refuses the rules
        assert history._foreseeable(plain) is foreseen


@pytest.mark.parametrize("record, agrees, rake", [
    ("[0, 0, 13]", True, None),       # the pot (5) and the uncalled 8 returned, no rake
    ("[0, 0, 12]", True, "1"),        # a rake of 1
    ("[0, 0, 4]", True, "1"),         # a record that leaves out the returned bet (Absolute Poker's), rake 1
    ("[0, 0, 0]", False, None),       # nothing paid: no rake takes a whole pot
    ("[1, 0, 12]", False, None),      # a player who lost is paid: never a rake
])
def test_the_record_is_read_with_the_smallest_rake_that_explains_it(record, agrees, rake):
    """Player 3 raises to 10 and both blinds fold: the pot is 5, 8 goes back to player 3."""
    text = HAND.format(actions='"d dh p1 AsAd", "d dh p2 KcKd", "d dh p3 2c7d", "p3 cbr 10", "p1 f", "p2 f"')
    result, = judged(text + f"winnings = {record}\n")
    assert result["pots"][0]["amount"] == "5" and result["players"][2]["returned"] == "8"
    assert result["record"]["agrees"] is agrees
    assert result["record"].get("rake") == rake


def test_worker_processes_judge_as_this_process_does(monkeypatch):
    """A long file is read and replayed in part by forked worker processes, which hand their
    hands back (packed) to this process, which judges them with its own: the same results, in
    order, and the same audit, as judging it all here; no worker opens a database."""
    from phhsynth import synthesize

    from engine import history
    text = synthesize(300, seed=77, variants=("NT", "NS"))
    here = Histories(engines)
    want = list(here.judge(read_histories(text)))
    monkeypatch.setattr(history, "POOL_AFTER", 50)          # workers for this short file
    monkeypatch.setattr(policy, "HISTORY_LOOK_AFTER", 20)          # and the table in them
    monkeypatch.setattr(policy, "HISTORY_WORK_AFTER", 20)
    monkeypatch.setenv("POKER_WORKERS", "2")
    here_only = Histories._judge_hands
    parent = os.getpid()

    def judged_here(self, hands):                            # a worker that judged would fail its part
        assert os.getpid() == parent
        return here_only(self, hands)
    monkeypatch.setattr(Histories, "_judge_hands", judged_here)
    there = Histories(engines)                               # the same engines, their databases open
    got = list(there.judge(read_histories(text)))
    assert got == want and there.counts == here.counts
    written = list(Histories(engines, dumped=True).judge(read_histories(text)))   # as `poker judge` asks
    assert [json.loads(line) for line in written] == json.loads(json.dumps(want))


def test_a_workers_hands_come_back_as_they_were_replayed():
    """What a worker hands back (engine.history._packed: plain values by marshal, the facts made
    again here from the replay; a stud hand, an id that is a TOML date, as their pickle) is, in
    this process, the hands it replayed: every field, of hands judged or refused, of every kind
    of game."""
    import pickle

    from phhsynth import synthesize

    from engine import history
    text = synthesize(40, seed=9, variants=("NT", "FO/8", "F7S", "N2L1D"))
    items = list(read_histories(text)) + [("bad", HistoryError("hand bad: a reason")),
                                          (datetime.date(2026, 11, 26), 'variant = "NT"\n')]
    hands = history._prepare_all(items, "x")
    assert {h.status for h in hands} == {"judged", "invalid"} and any(h.foreseen for h in hands)
    packed = history._packed([(ident, *history._replayed(ident, item, "x", facts=False)) for ident, item in items])
    assert type(packed) is bytes
    back = history._unpacked(pickle.loads(pickle.dumps(packed)))       # as the pool carries it
    assert back == hands and [type(h.played) for h in back] == [type(h.played) for h in hands]


def test_a_busy_machine_judges_in_this_process_unless_told(monkeypatch):
    """Without $POKER_WORKERS, a long file forks a worker only for a core idle besides the one
    this process takes (the load average of the last minute); told how many, it forks them
    whatever the load.  The results are
    the same either way."""
    from phhsynth import synthesize

    from engine import history
    from engine.evaluators import workers
    text = synthesize(120, seed=5, variants=("NT",))
    monkeypatch.setattr(history, "POOL_AFTER", 50)
    monkeypatch.setattr(workers, "cores", lambda: 2)
    monkeypatch.delenv("POKER_WORKERS", raising=False)
    forked = []
    real = history._Workers.judge_chunk

    def chunk(self, batch, name):
        out = real(self, batch, name)
        forked.append(self.pool is not None)
        return out
    monkeypatch.setattr(history._Workers, "judge_chunk", chunk)
    results = []
    for load, told, pool in ((2.5, None, False), (1.0, None, False), (0.4, None, True), (2.5, "2", True)):
        monkeypatch.setattr(workers.os, "getloadavg", lambda load=load: (load, load, load))
        if told:
            monkeypatch.setenv("POKER_WORKERS", told)
        assert workers.process_count(4) == (2 if pool else 1)
        results.append(list(Histories(engines).judge(read_histories(text))))
        assert forked.pop() is pool
    assert all(r == results[0] for r in results) and len(results[0]) == 120
    monkeypatch.setattr(workers.os, "getloadavg", lambda: (_ for _ in ()).throw(OSError("no load")))
    monkeypatch.delenv("POKER_WORKERS")
    assert workers.process_count(4) == 2                   # the load unknown: every core


# ---- reading: the fast TOML reader against tomllib -------------------------------------------


_ws = st.sampled_from(["", " ", "\t", "  "])
_gap = st.lists(st.sampled_from([" ", " ", "\n", "\n", "\r\n", "\t", "# note\n", "\r", "#\x01\n", "\n# é\n"]),
                max_size=3).map("".join)
_scalars = st.one_of(                           # mostly what PHH writes; some of what TOML refuses
    st.integers(-10 ** 6, 10 ** 20).map(str),
    st.decimals(-10 ** 6, 10 ** 6, places=2).map(str),
    st.sampled_from(['"p1 cc"', '"d dh p1 AsAd"', '"p2 cbr 100"', "true", "false", "12:30:00", '""', "''"]),
    st.text(st.sampled_from('ab #é[],=\t'), max_size=6).map(lambda t: f'"{t}"'),
    st.text(st.sampled_from("ab #\"é\\\t"), max_size=6).map(lambda t: f"'{t}'"),
    st.sampled_from(["007", "+5", "-0", "1_000", "0x1f", "1.", ".5", "1e5", "1.5e-3", "inf", "nan", "True",
                     "25:00:00", "12:30:60", "1979-05-27", "{a = 1}", "x", '"\\n"', '"a\x01"', "'\x7f'", '"\n"']))


@st.composite
def _toml_docs(draw):
    lines = []
    for _ in range(draw(st.integers(0, 5))):
        key = draw(st.sampled_from(["variant", "antes", "actions", "a-b", "x_1", "hand", "2x", "a.b", "", "antes"]))
        if draw(st.booleans()):
            items = draw(st.lists(_scalars, max_size=4))
            seps = [draw(_gap) + "," + draw(_gap) for _ in items]
            body = "".join(i + s for i, s in zip(items, seps))
            if items and not draw(st.booleans()):
                body = body[:len(body) - len(seps[-1])]          # no trailing comma
            value = "[" + draw(_gap) + body + draw(_gap) + "]"
        else:
            value = draw(_scalars)
        lines.append(key + draw(_ws) + "=" + draw(_ws) + value + draw(_ws) + draw(st.sampled_from(["", " # c"])))
    return draw(st.sampled_from(["\n", "\r\n", "\n\n"])).join(lines) + draw(st.sampled_from(["", "\n"]))


@example('a = [007, 1]')
@example('a = [1, 007]')
@example('a = [+1, -0, 2,]')
@example('a = [1,,2]')
@example('a = [,]')
@example('a = [1 2]')
@example('a = [1.5, 2]')
@example('a = [1, "x"]')
@example('a = ["a\\x01", "b"]')
@example('a = ["a", "b",]')
@example('a = ["a" "b"]')
@example('a = [\\n  "a", # c\\n  "b"\\n]')
@example('a = [\\r\\n "a",\\r\\n]')
@example('a = ["a"\\r "b"]')
@example('a = [1, 2]\\na = 3')
@example('a = 1 b = 2')
@example('a = ["x"]]')
@example('a = "#"')
@example('a = 1 # c\\x01')
@example('a = 23:59:59')
@example('a = 24:00:00')
@example('a = [1_0]')
@settings(max_examples=2000, deadline=None)
@given(_toml_docs())
def test_the_fast_reader_reads_what_tomllib_reads_or_leaves_it_to_tomllib(text):
    """engine.io.phh reads a hand's TOML with a reader of its own (a few times faster): whatever it
    reads must be what tomllib reads (the same values, decimals with the same places), and what
    tomllib refuses it must not read."""
    import tomllib

    from engine.io.phhtext import _quick
    quick = _quick(text)
    if quick is None:
        return
    try:
        reference = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError:
        pytest.fail(f"read {quick!r} where tomllib refuses the text")
    assert repr(quick) == repr(reference)


@example("a = ['x', 'y']\nb = ['x','y']")
@example("a = ['x', \"y\"]")
@example("a = ['', '']\nb = [\"\", \"\"]\nc = []")
@example("a = ['a\x01']")
@example("a = ['a\tb', 'c']\nb = 'x\ty'")
@example("a = 'x' # c")
@example("a = ['x'] #']")
@example("a = [1, -0, +2]\nb = [01]\nc = [1,2]")
@example('a = "a\\\\b"')
@example("a = 1\r\nb = 2")
@example("a = 1 \nb = 2")
@settings(max_examples=2000, deadline=None)
@given(_toml_docs())
def test_the_line_reader_reads_what_the_patterns_read(text):
    """The line reader (the lines pokerkit writes, read with string methods) reads a subset of
    what the regular expressions read, to the same values."""
    from engine.io.phhtext import _lines, _patterns
    lines = _lines(text)
    if lines is not None:
        assert repr(lines) == repr(_patterns(text))


def test_the_fast_reader_reads_the_hands_pokerkit_writes():
    """It is used: every hand of a synthesised file (what pokerkit writes) takes the fast path."""
    import tomllib

    from phhsynth import cached

    from engine.io.phhtext import _lines, _quick, read_sections
    texts = [t for _, t in read_sections(cached(200, seed=3, variants=("NT", "FO/8")).read_text())]
    assert all(_quick(t) is not None for t in texts)
    # the line reader: a hand as the PHH dataset's bulk files write it (the Pluribus hands)
    one = ("variant = 'NT'\nante_trimming_status = true\nantes = [0, 0, 0]\nblinds_or_straddles = [50, 100, 0]\n"
           "min_bet = 100\nstarting_stacks = [10000, 10000, 10000]\nactions = ['d dh p1 3c9s', 'd dh p2 6d5s', "
           "'d dh p3 9dTs', 'p3 f', 'p1 cbr 225', 'p2 f']\nhand = 0\nplayers = ['MrWhite', 'Gogo', 'Budd']\n"
           "finishing_stacks = [10150, 9900, 10000]\n\n")
    assert _lines(one) == _quick(one) == tomllib.loads(one) and _lines(one)["actions"][-1] == "p2 f"


# ---- the replay's kept openings (engine.io.replay._OPENINGS) --------------------------------

_OPENING_PARTS = {
    "variant": st.sampled_from(["NT", "FT", "NS"]),
    "starting_stacks": st.sampled_from([[200, 200, 200], [200, 200, 300], [200, 150, 200], [1, 200, 200],
                                        [Decimal("200.0"), 200, 200], [Decimal("200"), 200, 200],
                                        [200, 200], [300, 200], [-5, 200, 200]]),
    "antes": st.sampled_from([None, [0, 0, 0], [1, 1, 1], [0, 2, 0], [0, 0], [1, 0], [-1, 0, 0],
                              [Decimal("0.5"), 0, 0]]),
    "blinds_or_straddles": st.sampled_from([None, [1, 2, 0], [1, 2, 4], [1, -2, 0], [2, 1, 0], [1, 2],
                                            [2, 1], [Decimal("1.5"), 2, 0], [0, 0, 0]]),
    "finishing_stacks": st.sampled_from([None, [200, 200, 200], [201, 199, 200], [Decimal("200.5"), 199, 200]]),
    "actions": st.sampled_from([
        ["d dh p1 AcKd", "d dh p2 2s3s", "d dh p3 7h8h", "p3 f", "p1 cc", "p2 cc"],
        ["d dh p1 AcKd", "d dh p2 2s3s", "d dh p3 7h8h", "p3 cbr 6", "p1 f", "p2 f"],
        ["d dh p1 AcKd", "d dh p2 2s3s", "d dh p3 7h8h", "p3 cbr 6.5", "p1 f", "p2 f"],
        ["d dh p1 AcKd", "d dh p2 2s3s", "p2 cbr 10", "p1 f"],
        ["d dh p1 AcKd", "d dh p2 2s3s", "d dh p3 7h8h", "p1 f", "p2 f"]]),
}


def _replayed_or_error(doc: dict) -> Any:
    try:
        return replay(doc, 1)
    except HistoryError as exc:
        return f"{type(exc).__name__}: {exc}"


@st.composite
def _hands_alike(draw: Any) -> list[dict]:
    """Hands that differ from a first one in one input each (so that they meet the same keys)."""
    base = draw(st.fixed_dictionaries(_OPENING_PARTS))
    others = draw(st.lists(st.sampled_from(sorted(_OPENING_PARTS)), min_size=1, max_size=5))
    return [base] + [{**base, k: draw(_OPENING_PARTS[k])} for k in others]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_hands_alike())
def test_a_kept_opening_is_taken_only_by_hands_that_read_the_same_numbers(docs):
    """The table once the forced bets are paid is kept by what it is made of (variant, stacks,
    antes, blinds, each an int) and taken only by a hand of whole units: a hand replays to what
    it replays to with nothing kept, whatever hands were replayed before it (hands that differ in
    any input read, a Decimal equal to an int, a post, a heads-up table, a finer unit)."""
    from engine.io import replay as R
    docs = [{k: v for k, v in d.items() if v is not None} for d in docs]
    R._OPENINGS.clear()
    after_others = [_replayed_or_error(d) for d in docs]
    for key in R._OPENINGS:                      # kept only by ints (a Decimal equal to one may be a finer unit)
        assert all(type(x) is int for part in key[1:] if part is not None for x in part)
    alone = []
    for d in docs:
        R._OPENINGS.clear()
        alone.append(_replayed_or_error(d))
    assert after_others == alone


def test_the_opening_is_kept_and_taken():
    """It is used: the second hand of the same table takes the opening the first one kept."""
    from engine.io import replay as R
    R._OPENINGS.clear()
    doc = {"variant": "NT", "starting_stacks": [200, 200, 200], "blinds_or_straddles": [1, 2, 0],
           "antes": [0, 0, 0], "actions": ["d dh p1 AcKd", "d dh p2 2s3s", "d dh p3 7h8h", "p3 f", "p1 f"]}
    first = replay(doc, 1)
    assert len(R._OPENINGS) == 1
    kept = next(iter(R._OPENINGS.values()))[0]
    assert kept.bet == [1, 2, 0] and kept.stack == [199, 198, 200]
    second = replay({**doc, "actions": ["d dh p1 2c2d", "d dh p2 Ts9s", "d dh p3 7h8h", "p3 f", "p1 cc", "p2 cc"]}, 2)
    assert len(R._OPENINGS) == 1 and kept.bet == [1, 2, 0] and kept.stack == [199, 198, 200]   # not changed by the hand
    assert first.stakes == (1, 2, 0) and second.stakes == (2, 2, 0) and second.bets == ((2, 2, 0),)


_PLAIN_LINES = st.lists(st.builds("{} = {}".format, st.sampled_from(["a", "b", "antes", "players"]), st.sampled_from(
    ["'NT'", '"x y"', "0", "100", "007", "true", "false", "[]", "[0, 0, 0]", "[1, 2]", "['p1 f', 'p2 cc']",
     '["a", "b"]', "['a', \"b\"]", "[1,2]", "'it''s'"])), min_size=1, max_size=4).map("\n".join)


@settings(max_examples=500, deadline=None)
@given(st.one_of(_PLAIN_LINES, _toml_docs()), st.one_of(_PLAIN_LINES, _toml_docs()))
def test_the_lines_kept_read_again_as_they_read_and_their_lists_are_their_own(first, second):
    """A line the line reader read is kept by its text (engine.io.phhtext._KNOWN): read again, in
    the same document or another, it reads to what it read the first time (each array a list of
    its own, not shared with any other document), and a document reads to what it reads with
    nothing kept."""
    from engine.io import phhtext as T

    def alone(text: str) -> Any:
        T._KNOWN.clear()
        T._ARRAYS.clear()
        return T._lines(text)

    both = second + "\n" + first
    fresh = [alone(first), alone(second), alone(both)]
    T._KNOWN.clear()
    T._ARRAYS.clear()
    again = [T._lines(first), T._lines(second), T._lines(both)]
    assert repr(again) == repr(fresh)
    for doc in again:
        for value in (doc or {}).values():
            if isinstance(value, list):
                value.append("changed")              # a list of this document's own
    assert repr([T._lines(first), T._lines(second), T._lines(both)]) == repr(fresh)
