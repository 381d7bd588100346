"""The role judge of the Doukaku problems (issue 5): hands.yaml `roles:`, the command, and an
independent brute-force classifier of the problems' wording over random hands."""

from __future__ import annotations

import itertools
import random
import warnings

import pytest

from conftest import FIXTURES
from engine import Engine, InvalidCards
from engine.cli import main
from engine.core import Var
from engine.judging.roles import RepeatedCardWarning, judge

PROBLEMS = ("first", "rest", "all")

# ---- an independent classifier: the problems' wording, over the five positions ----------------
#
# Cards are (value, suit) with the ace 1.  Every role is "some k of the five positions ...", read
# straight from the problem statements; the ace runs low (A-2-3-4) or high (J-Q-K-A), never both.

FIRST = ["4K", "FH", "3K", "2P", "1P"]
REST = ["RF", "SF", "FL", "ST", "4SF", "4F", "4S"]
ORDER = {"first": (FIRST, "--"), "rest": (REST, "-"), "all": (REST + FIRST, "--")}

Card = tuple[int, int]


def _flush(cards: tuple[Card, ...]) -> bool:
    return len({s for _, s in cards}) == 1


def _run(cards: tuple[Card, ...]) -> bool:
    values = [v for v, _ in cards]
    if len(set(values)) != len(values):
        return False
    return any(max(n) - min(n) == len(n) - 1 for n in (values, [14 if v == 1 else v for v in values]))


def _same(cards: tuple[Card, ...]) -> bool:
    return len({v for v, _ in cards}) == 1


def _some(cards: list[Card], k: int, test) -> bool:
    return any(test(c) for c in itertools.combinations(cards, k))


def brute_holds(cards: list[Card]) -> set[str]:
    """Every role the five cards hold, loosely (a full house also holds 3K and 1P)."""
    five = tuple(cards)
    held = set()
    if _flush(five) and _run(five):
        held.add("RF" if {v for v, _ in five} == {1, 10, 11, 12, 13} else "SF")
    if _flush(five):
        held.add("FL")
    if _run(five):
        held.add("ST")
    if _some(cards, 4, lambda c: _flush(c) and _run(c)):
        held.add("4SF")
    if _some(cards, 4, _flush):
        held.add("4F")
    if _some(cards, 4, _run):
        held.add("4S")
    if _some(cards, 4, _same):
        held.add("4K")
    for p in itertools.permutations(cards):
        if _same(p[:3]) and _same(p[3:]):
            held.add("FH")
        if _same(p[:2]) and _same(p[2:4]):
            held.add("2P")
    if _some(cards, 3, _same):
        held.add("3K")
    if _some(cards, 2, _same):
        held.add("1P")
    return held


def brute_role(cards: list[Card], problem: str) -> str:
    order, none = ORDER[problem]
    held = brute_holds(cards)
    return next((code for code in order if code in held), none)


VALUE_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}


def write(cards: list[Card], suit_first: bool) -> str:
    """Doukaku notation, written here rather than by the engine: D10 (suit first) or 10d."""
    out = []
    for value, suit in cards:
        v = VALUE_TEXT.get(value, str(value))
        out.append("SHDC"[suit] + v if suit_first else v + "shdc"[suit])
    return "".join(out)


def random_hands(rng: random.Random, n: int) -> list[list[Card]]:
    """A mix that reaches every role: uniform hands; hands near a run of one suit (straights,
    flushes, the four-card draws); hands of few values (pairs to fours); and hands of either kind
    with one card copied over another (a card given twice)."""
    deck = [(v, s) for v in range(1, 14) for s in range(4)]

    def near_run() -> list[Card]:
        start, suit = (10 if rng.random() < 0.2 else rng.randint(1, 9)), rng.randrange(4)
        hand = [((start + k - 1) % 13 + 1, suit if rng.random() < 0.75 else rng.randrange(4)) for k in range(5)]
        if rng.random() < 0.5:
            hand[rng.randrange(5)] = rng.choice(deck)
        return hand

    def few_values() -> list[Card]:
        values = rng.sample(range(1, 14), rng.choice((2, 3)))
        return rng.sample([(v, s) for v in values for s in range(4)], 5)

    hands = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            hand = rng.sample(deck, 5)
        else:
            hand = near_run() if kind == 1 or (kind == 3 and rng.random() < 0.5) else few_values()
            if kind == 3:
                hand[rng.randrange(5)] = hand[rng.randrange(5)]
        rng.shuffle(hand)
        hands.append(hand)
    return hands


# ---- hands.yaml -------------------------------------------------------------------------------


def role_params() -> list:
    return [pytest.param(case, problem, id=f"{case['id']}-{problem}")
            for case in FIXTURES["roles"] for problem in PROBLEMS if problem in case]


@pytest.mark.parametrize("case, problem", role_params())
def test_role_fixture(engine, case, problem):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert engine.role(case["text"], problem) == case[problem]
    repeated = [w for w in caught if issubclass(w.category, RepeatedCardWarning)]
    assert bool(repeated) == bool(case.get("repeats")), [str(w.message) for w in caught]


def test_codes_live_in_the_rules_in_the_issues_order(engine):
    for problem in PROBLEMS:
        codes = [code for _, code in sorted(engine.ask("roleCode", problem, Var("O"), Var("C")))]
        assert codes == ORDER[problem][0] + [ORDER[problem][1]]
        assert engine.ask("roleNone", problem, Var("C")) == [(ORDER[problem][1],)]


def test_fixtures_cover_every_code_of_every_mode():
    for problem in PROBLEMS:
        seen = {case[problem] for case in FIXTURES["roles"]
                if problem in case and not case["source"].endswith("-data")}
        order, none = ORDER[problem]
        assert seen == set(order) | {none}, problem


@pytest.mark.parametrize("problem", PROBLEMS)
def test_either_notation_in_every_mode(engine, problem):
    """Each hand-made case written both ways (suit first, upper case; rank first, lower case)."""
    hand_made = [c for c in FIXTURES["roles"] if not c["source"].endswith("-data")]
    for case in hand_made:
        # the engine's suits 1 heart, 2 diamond, 3 club, 4 spade; write()'s "SHDC" index: suit % 4
        cards = [(engine.get_value(i), engine.get_suit(i) % 4) for i in engine.cards(case["text"])]
        for suit_first in (True, False):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RepeatedCardWarning)
                assert engine.role(write(cards, suit_first), problem) == case[problem], case["id"]


# ---- the problems' particular points ----------------------------------------------------------


@pytest.mark.parametrize("problem", ["rest", "all"])
def test_k_a_2_does_not_connect(engine, problem):
    assert engine.role("Kh Ad 2c 3s 7h", problem) == ORDER[problem][1]
    assert engine.role("Jh Qd Kc As 7h", problem) == "4S"    # the ace above the king
    assert engine.role("Ah 2d 3c 4s 9h", problem) == "4S"    # the ace below 2


@pytest.mark.parametrize("problem", ["rest", "all"])
def test_four_straight_with_a_repeated_rank(engine, problem):
    assert engine.role("9h 10s Jd Qc Qh", problem) == "4S"   # the Alloy model's `one a` misses it


def test_repeated_card_is_judged_and_warned(engine):
    with pytest.warns(RepeatedCardWarning, match="given twice"):
        assert engine.role("5d5d2d3dAd", "rest") == "FL"
    with warnings.catch_warnings():
        warnings.simplefilter("error")                   # a valid hand warns nothing
        assert engine.role("4d3d2dAd5d", "rest") == "SF"


@pytest.mark.parametrize("text, names", [
    ("AhKh", "five cards"), ("AhKhQhJh10h9h", "five cards"), ("", "five cards"),
    ("ZZ", "ZZ"), ("Ah Kh Qh Jh 1h", "1h"), ([1, 2, 3, 4, 53], "not a card")])
def test_bad_input_raises(engine, text, names):
    with pytest.raises(InvalidCards, match=names):
        engine.role(text)


def test_unknown_problem(engine):
    with pytest.raises(ValueError, match="unknown problem 'second'"):
        engine.role("D3C3C10D10S3", "second")


def test_judge_keeps_going_after_a_bad_input(engine):
    verdicts = judge(engine, ["D3C3C10D10S3", "AhKh", "ZZ", "S8D10HJS10CJ"])
    assert [v.code for v in verdicts] == ["FH", None, None, "2P"]
    assert [v.error is None for v in verdicts] == [True, False, False, True]


def test_ranks_renumbered_roles_unchanged():
    """Five-card roles come from getRank through its category name: the `eventb` rule set (5
    flush, 6 straight) judges every role the same."""
    eventb = Engine("eventb")
    for case in (c for c in FIXTURES["roles"] if not c["source"].endswith("-data")):
        for problem in PROBLEMS:
            if problem in case:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RepeatedCardWarning)
                    assert eventb.role(case["text"], problem) == case[problem], (case["id"], problem)


# ---- against the independent classifier -------------------------------------------------------

RANDOM_HANDS = 300


@pytest.mark.parametrize("problem", PROBLEMS)
def test_random_hands_agree_with_brute_force(engine, problem):
    rng = random.Random(f"roles-{problem}")
    hands = random_hands(rng, RANDOM_HANDS)
    texts = [write(h, suit_first=bool(i % 2)) for i, h in enumerate(hands)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RepeatedCardWarning)
        verdicts = judge(engine, texts, problem)
    wrong = [(t, v.code, brute_role(h, problem)) for t, h, v in zip(texts, hands, verdicts)
             if v.code != brute_role(h, problem)]
    assert not wrong, wrong[:5]
    seen = {v.code for v in verdicts}
    order, none = ORDER[problem]
    assert set(order) | {none} == seen                  # the sample reaches every code
    assert any(len(set(h)) < 5 for h in hands)          # inputs that repeat a card were judged


# ---- the command ------------------------------------------------------------------------------


def test_cli_first_problem(capsys):
    assert main(["role", "D3C3C10D10S3", "S8D10HJS10CJ", "Qs9s3dJd10h"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["FH", "2P", "--"]
    assert err == ""


def test_cli_rest_and_all(capsys):
    assert main(["role", "--rest", "Qs9s3dJd10h", "KdAdJd10dQd", "QhAd2s3dKd", "D3C3C10D10S3"]) == 0
    assert capsys.readouterr().out.splitlines() == ["4S", "RF", "-", "-"]
    assert main(["role", "--all", "Qs9s3dJd10h", "KdAdJd10dQd", "QhAd2s3dKd", "D3C3C10D10S3"]) == 0
    assert capsys.readouterr().out.splitlines() == ["4S", "RF", "--", "FH"]


def test_cli_repeated_card_warns_on_stderr(capsys):
    assert main(["role", "--rest", "5d5d2d3dAd", "Qs9s3dJd10h"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["FL", "4S"]
    assert err.splitlines() == ["poker: warning: '5d5d2d3dAd': a card is given twice; "
                                "judged as the five cards given"]


def test_cli_bad_input_among_good_ones(capsys):
    assert main(["role", "D3C3C10D10S3", "AhKh", "S8D1HJS10CJ", "S8D10HJS10CJ"]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == ["FH", "2P"]
    lines = err.splitlines()
    assert len(lines) == 2 and all(line.startswith("poker: ") for line in lines)
    assert lines[0] == "poker: 'AhKh': a hand has five cards (read 2: AH KH)"
    assert "D1" in lines[1] and "Traceback" not in err


def test_cli_one_problem_at_a_time(capsys):
    assert main(["role", "--rest", "--all", "Qs9s3dJd10h"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("poker role: ") and "not allowed with" in err
