"""The table paths, fuzzed: edits of the standard rules on a 26-card deck (so that each table builds
in a second or two), and every path that can read the five-card table held to the rules asked
world by world (engine/judging/policy.py declares what each path needs).

Two kinds of edit: random legal edits (tests/rulefuzz.py's edit_case), and edits that smuggle a
suit, a card or a position through an expression, a helper or an aggregate into getRank's cone
(isFlush), beat's (validFighting) or the showdown's (mayPlay): :func:`smuggle_case`.  For each,
the paths: two-hand fights and showdowns read off the table (engine/judging/tabled.py), ``judge`` with
and without the table, equity on a flop (every completion), ``diff`` against the standard rules
(counted, or sampled with its examples) and ``check --cards 7``.  A path either answers what
the rules answer or refuses in one line (engine.judging.proof.Unproven).  CI runs every path for 2 random
edits and 2 smuggling ones, and the proofs alone for 36 smuggling edits (the target's proof must
fail, naming the helper); ``POKER_FUZZ_TABLES=N`` runs N of each.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import rulefuzz as F
from test_proof import _asked_equity, random_fights, random_showdowns

from engine import Engine
from engine.check.diff import diff
from engine.check.seven_card import check_seven
from engine.datalog.loader import RuleError
from engine.equity import equity
from engine.evaluators import verdicts
from engine.judge import Judge
from engine.judging.proof import (
    Unproven,
    fight_obstacle,
    suit_symmetry,
)
from engine.judging.showdownproof import showdown_obstacle
from engine.judging.table import TableError, five_card_table

DECK = "(C == 13 * (S - 1) + V)"
COUNT = os.environ.get("POKER_FUZZ_TABLES")
SEEDS = range(1, 1 + int(COUNT or "2"))                  # every path, random edits (10 to 40 s each)
SMUGGLE_SEEDS = range(1, 1 + int(COUNT or "2"))          # every path, smuggling edits
SMUGGLE_PROOFS = range(1, 1 + int(COUNT or "36"))        # the proofs alone, smuggling edits (a second each)

# Where a helper is read: a clause of getRank's cone, of beat's, of the showdown's (negated).
TARGETS = {
    "isFlush": "isFlush_F2: isFlush(S) <= isHand(S) & ~mixedSuits(S)",
    "validFighting": "validFighting_F: validFighting(A, B) <= isHand(A) & isHand(B) & ~shareCard(A, B)",
    "mayPlay": "mayPlay_Any: mayPlay(P, S) <= candidate(P, S) & isHand(S) & seat(T, P) & game(T, G) & ~restricted(G)",
}
# Helpers x(S) over a set's suits, cards or positions, each smuggling the kind through something
# ({k}: a small constant, {c}: a constant it is compared with).
HELPERS = [
    "x_D: xCode(S, V) <= member(S, C) & getSuit(C, U) & (V == U * {k})\nx_D: x(S) <= xCode(S, {c})",
    "x_D: xCode(S, V) <= member(S, C) & getSuit(C, U) & (V == U + {k})\nx_D: x(S) <= xCode(S, {c})",
    "x_D: (xTop[S] == max_(U, order_by=U)) <= member(S, C) & getSuit(C, U)\nx_D: x(S) <= (xTop[S] == {c})",
    "x_D: (xTotal[S] == sum_(U, for_each=C)) <= member(S, C) & getSuit(C, U)\nx_D: x(S) <= (xTotal[S] == {c})",
    "x_D: x(S) <= member(S, C) & getSuit(C, U) & getSuit({c}, U)",       # the suit of a card named
    "x_D: xCode(S, D) <= member(S, C) & (D == C * {k})\nx_D: x(S) <= xCode(S, {c})",
    "x_D: xCode(S, D) <= member(S, C) & (D == C - {k})\nx_D: x(S) <= xCode(S, {c})",
    "x_D: (xLow[S] == min_(C, order_by=C)) <= member(S, C)\nx_D: x(S) <= (xLow[S] == {c})",
    "x_D: xCode(S, J) <= holds(S, I, C) & (J == I * {k})\nx_D: x(S) <= xCode(S, {c})",
    "x_D: xCode(S, J, C) <= holds(S, I, C) & (J == I + {k})\nx_D: x(S) <= xCode(S, {c}, C)",
    "x_D: (xLast[S] == max_(I, order_by=I)) <= holds(S, I, C)\nx_D: x(S) <= (xLast[S] == {c})",
    "x_D: (xFirst[S] == min_(C, order_by=C)) <= holds(S, I, C) & (I == {c})\nx_D: x(S) <= (xFirst[S] == 13)",
    # in a head (refused at load where the loader refuses head expressions: then skipped)
    "x_D: xCode(S, U * {k}) <= member(S, C) & getSuit(C, U)\nx_D: x(S) <= xCode(S, {c})",
    "x_D: xCode(S, I * {k}, C) <= holds(S, I, C)\nx_D: x(S) <= xCode(S, {c}, C)",
]


def smuggle_case(seed: int) -> tuple[str, str]:
    """(the standard rules' text with one helper read, negated, in one target; what was done)."""
    rng = random.Random(f"smuggle/{seed}")
    target = rng.choice(sorted(TARGETS))
    helper = rng.choice(HELPERS).format(k=rng.choice([1, 1, 2, 3]), c=rng.choice([0, 1, 2, 3, 13]))
    lines = F.standard_clauses()
    clause = TARGETS[target]
    arg = "A" if target == "validFighting" else "S"
    text = "\n".join(line.replace(clause, f"{clause} & ~x({arg})") for line in lines) + "\n" + helper + "\n"
    assert f"~x({arg})" in text
    return text, f"{target} reads ~x({arg}):\n{helper}"


def _engine(folder: Path, text: str) -> Engine | None:
    if DECK not in text:                       # the deck's clause edited: not this test's concern
        return None
    folder.mkdir()
    (folder / "fuzz.dl").write_text(text.replace(DECK, DECK + " & (S <= 2)", 1), encoding="utf-8")
    try:
        engine = Engine(folder)
    except RuleError:                          # rules the loader refuses (one line)
        return None
    return engine if engine.fallback is None else None


def edited_engine(seed: int, folder: Path) -> tuple[Engine, F.Case] | None:
    case = F.edit_case(seed)
    engine = _engine(folder, F.rule_text(case))
    return None if engine is None else (engine, case)


@pytest.mark.parametrize("seed", SEEDS)
def test_what_the_table_answers_is_what_the_rules_answer(tmp_path, seed):
    made = edited_engine(seed, tmp_path / "rules")
    if made is None:
        pytest.skip("the edit leaves no compiled rule set over the small deck")
    engine, case = made
    _every_path(engine, tmp_path, seed, "\n".join(map(str, case.edits)))


@pytest.mark.parametrize("seed", SMUGGLE_SEEDS)
def test_a_suit_card_or_position_smuggled_in_reaches_no_path(tmp_path, seed):
    text, what = smuggle_case(seed)
    engine = _engine(tmp_path / "rules", text)
    if engine is None:
        pytest.skip("the edit leaves no compiled rule set over the small deck")
    _every_path(engine, tmp_path, seed, what)


def _every_path(engine: Engine, tmp_path: Path, seed: int, edits: str) -> None:
    try:
        table = five_card_table(engine, cache=False)
    except TableError:
        pytest.skip("the edited rules give some hand not exactly one rank: no table")
    tabled = engine.tabled(build=True)
    assert tabled is not None
    fights = random_fights(engine, 120, seed) + random_showdowns(engine, 30, seed)
    read = tabled.verdicts(fights)
    if not tabled.fights:
        assert all(v is None for f, v in zip(fights, read) if isinstance(f, list)), edits
    if not tabled.showdowns:
        assert all(v is None for f, v in zip(fights, read) if not isinstance(f, list)), edits
    asked = _asked(engine, fights)
    for fight, mine, theirs in zip(fights, read, asked):
        if mine is None:
            continue
        assert theirs is not None, f"the rules give no one verdict of {fight}, the table does\n{edits}"
        assert (mine.result, mine.winners, mine.ranks, mine.best) == \
            (theirs.result, theirs.winners, theirs.ranks, theirs.best), f"{fight}\n{edits}"
        assert theirs.error is None
    _judge(engine, fights[:40], edits)
    _equity(engine, seed, edits)
    _diff(engine, tmp_path, table, fights, asked, edits)
    _check7(engine, edits)


def _judge(engine: Engine, fights: list, edits: str) -> None:
    """``judge`` with the table and without give the same results."""
    items = [{"id": k, "hands": [engine.notation.format(list(h)) for h in f]} for k, f in enumerate(fights)]
    try:
        plain = [r.as_dict() for r in Judge(engine, table=False).judge(items)]
    except RuntimeError:                        # the edited rules give some fight two verdicts
        return
    assert [r.as_dict() for r in Judge(engine, table=True).judge(items)] == plain, edits


def _equity(engine: Engine, seed: int, edits: str) -> None:
    """Equity on a turn (18 rivers) is the rules' showdown of each, or a refusal."""
    rng = random.Random(f"equity/{seed}")
    cards = [engine.notation.format([c]) for c in rng.sample(engine.deck, 8)]
    holes, board = [" ".join(cards[:2]), " ".join(cards[2:4])], " ".join(cards[4:])
    try:
        want = _asked_equity(engine, holes, board)
    except RuntimeError:
        return
    if "holdem" not in engine.games:
        return
    try:
        got = equity(engine, holes, board=board, checked=4)
    except Unproven as exc:
        assert "\n" not in str(exc)
        return
    except Exception as exc:                    # the rules' showdown an error, or the 4 checked disagree
        assert "\n" not in str(exc) and type(exc).__name__ in ("InvalidCards", "TableDisagrees"), edits
        return
    assert [*got.win, *got.tie] == pytest.approx([*want[0], *want[1]]), f"{holes} {board}\n{edits}"


def _diff(engine: Engine, tmp_path: Path, table, fights: list, asked: list, edits: str) -> None:
    """Diff against the standard rules: where it counts, each valid fight's verdict is the order
    of the table's values; where it samples, its examples are the rules' verdicts."""
    standard = Engine(_standard(tmp_path))
    found = diff(standard, engine, samples=100, per_pair=1)
    if found.sampled is None:
        for fight, theirs in zip(fights, asked):
            if isinstance(fight, list) and theirs is not None and theirs.result in (0, 1, 2):
                va, vb = (table.value(sorted(h)) for h in fight)
                assert theirs.result == (1 if va > vb else 2 if va < vb else 0), f"{fight}\n{edits}"
        return
    for kind in found.sampled.kinds[:3]:
        for x, y in kind["examples"][:1]:
            assert (standard.beat(x, y), engine.beat(x, y)) == (kind["from"], kind["to"]), edits


def _check7(engine: Engine, edits: str) -> None:
    """check --cards 7 either refuses in one line or the rules' showdown plays its best fives."""
    try:
        report = check_seven(engine, samples=16)
    except Unproven as exc:
        assert "\n" not in str(exc)
        return
    except RuntimeError:
        return
    agrees = next(o for o in report.obligations if o.name == "the rules' showdown plays the table's best five")
    assert agrees.holds, f"{agrees.counterexample}\n{edits}"


_STANDARD_FOLDER: dict[str, Path] = {}


def _standard(tmp_path: Path) -> Path:
    """The standard rules on the small deck, written once per run."""
    if "s" not in _STANDARD_FOLDER:
        folder = tmp_path.parent / "standard-small"
        if not folder.exists():
            folder.mkdir()
            text = "\n".join(F.standard_clauses()) + "\n"
            (folder / "fuzz.dl").write_text(text.replace(DECK, DECK + " & (S <= 2)", 1), encoding="utf-8")
        _STANDARD_FOLDER["s"] = folder
    return _STANDARD_FOLDER["s"]


def _asked(engine: Engine, fights: list) -> list:
    """The rules' verdicts world by world; None for a fight they give no one verdict of (an edit
    can make beat give two values: the verdict is then the rules' fault, Verdict.fault)."""
    return [None if v.fault else v for v in verdicts(engine.evaluator(len(fights)), fights)]


@pytest.mark.parametrize("seed", SMUGGLE_PROOFS)
def test_a_smuggled_suit_card_or_position_fails_the_proof_of_its_target(tmp_path, seed):
    # The proofs alone, no table: what the target's path needs must fail, with the helper named.
    text, what = smuggle_case(seed)
    engine = _engine(tmp_path / "rules", text)
    if engine is None:
        pytest.skip("the edit leaves no compiled rule set over the small deck")
    clauses = engine.ruleset.clauses
    target = what.split()[0]
    why = {"isFlush": lambda: suit_symmetry(clauses), "validFighting": lambda: fight_obstacle(clauses),
           "mayPlay": lambda: showdown_obstacle(clauses)}[target]()
    assert isinstance(why, str) and "x_D (" in why, what


def test_the_smuggling_edits_load(tmp_path):
    # Each helper is legal as written: the fuzzer above is not skipping them all.
    loaded = sum(_engine(tmp_path / f"r{k}", smuggle_case(k)[0]) is not None for k in range(1, 13))
    assert loaded >= 8
