"""The evaluators against each other: pyDatalog (the reference), the compiled SQL on DuckDB, and
the compiled program run in-process.  Same rule sets, same worlds, the same answers row for row.

Rule sets: standard, eventb, and edited copies, among them the edit that fooled the old static
analysis (suits read through cardId) and an edited comparator.  Cases: hands and fights of every
category (built, then classified by treys), random fights and tables, and invalid ones.
"""

from __future__ import annotations

import os
import random

import pytest
from truth import TREYS_CATEGORY, _by_category, random_fight

from conftest import copy_rules, edit
from engine import Engine
from engine import interface as I
from engine.datalog.ir import Untranslatable
from engine.datalog.joint import joint_program
from engine.datalog.program import Program
from engine.evaluators import Ask, World, verdicts
from engine.evaluators.sql.evaluator import CompiledEvaluator

CATEGORIES = ["royal flush"] + list(TREYS_CATEGORY.values())
HAND_ASKS = [Ask("getRank", (1, None)), Ask("handKey", (1, None, None, None)), Ask("isHand", (1,)),
             Ask("whyNotHand", (1, None)), Ask("isFlush", (1,)), Ask("isStraight", (1,)),
             Ask("getMaxCard", (1, None)), Ask("oddity", (1, None)), Ask("early", (1, None))]
# A clause with Python's floor division and modulo of negative numbers, and a string comparison.
ODDITY = ("\noddity_D: oddity(S, X) <= getMax(S, V) & (N == 0 - V) & (X == N // 3 + N % 4 - V % -5)"
          "\nearly_D: early(S, P) <= part(S, P, C) & (P < 'pairs')\n")


def appended(tmp_path, text: str):
    """A copy of the standard rules with ``text`` appended to ranking.dl (on lines of its own)."""
    rules = copy_rules(tmp_path / "rules")
    with open(rules / "ranking.dl", "a", encoding="utf-8") as f:
        f.write("\n" + text.strip("\n") + "\n")
    return rules


def edited(tmp_path, name: str) -> Engine:
    rules = copy_rules(tmp_path / name)
    if name == "cardid-suits":
        edit(rules / "ranking.dl", "member(S, X) & getSuit(X, T) & member(S, Y) & getSuit(Y, U)",
             "member(S, X) & cardId(X, V, T) & member(S, Y) & cardId(Y, W, U)")
    elif name == "comparator":          # the last part that differs decides, not the first
        edit(rules / "fighting.dl", "(decidingPart[A, B] == min_(O, order_by=O))",
             "(decidingPart[A, B] == max_(O, order_by=O))")
    with open(rules / "ranking.dl", "a", encoding="utf-8") as f:
        f.write(ODDITY)
    return Engine(rules)


@pytest.fixture(scope="module", params=["standard", "eventb", "cardid-suits", "comparator"])
def eng(request, tmp_path_factory) -> Engine:
    folder = tmp_path_factory.mktemp(request.param)
    if request.param in ("standard", "eventb"):       # the named set, with the oddity laid over it
        (folder / "variant.toml").write_text(f'extends = "{request.param}"\n', encoding="utf-8")
        (folder / "oddity.dl").write_text(ODDITY, encoding="utf-8")
        engine = Engine(folder)
    else:
        engine = edited(folder, request.param)
    assert engine.fallback is None, engine.fallback
    return engine


def hands_of_every_category(engine: Engine, per: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    tokens = lambda hand: [engine.notation.token(c) for c in hand]  # noqa: E731
    out = [tuple(_by_category(tokens, c, rng)) for c in CATEGORIES for _ in range(per)]
    out += [tuple(rng.sample(range(1, 53), 5)) for _ in range(per)]
    # not hands: a card twice, four cards, six cards, ids that are no card, nothing
    out += [(1, 1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4, 5, 6), (0, 2, 3, 4, 5), (53, 60, -1, 2, 3), ()]
    return out


def fights_of_every_category(engine: Engine, per: int, seed: int) -> list[list[tuple[int, ...]]]:
    rng = random.Random(seed)
    hands = hands_of_every_category(engine, 2 * per, seed)
    good = [h for h in hands if len(set(h)) == 5 and all(1 <= c <= 52 for c in h)]
    fights = []
    for i in range(0, len(good) - 1, 2):               # mostly within one category
        if not set(good[i]) & set(good[i + 1]):
            fights.append([good[i], good[i + 1]])
    fights += [[tuple(h) for h in random_fight(rng, n)] for n in (2, 3, 4, 10) for _ in range(per)]
    fights += [[(1, 2, 3, 4, 5), (5, 6, 7, 8, 9)], [(1, 2, 3, 4), (6, 7, 8, 9, 10)],
               [(1, 1, 3, 4, 7), (15, 6, 9, 8, 10)], [(0, 2, 3, 4, 5), (6, 7, 8, 9, 10), (11, 12, 13, 14, 15)]]
    return fights


# Hands of each category (and fights) asked of pyDatalog, world by world (a tenth of a second a
# world): 5 a category in the default run, POKER_REFERENCE_HANDS=12 for the longer one.  The SQL and
# the in-process run agree on 100 a category (test_the_three_evaluators_agree_on_thousands).
REFERENCE_HANDS = int(os.environ.get("POKER_REFERENCE_HANDS") or "5")


def test_compiled_agrees_with_pydatalog(eng):
    hands = hands_of_every_category(eng, REFERENCE_HANDS, seed=1)   # 5 of each category, 5 random, 6 not hands
    worlds = [World((h,)) for h in hands]
    sql = eng.evaluator(10 ** 6)
    assert isinstance(sql, CompiledEvaluator)
    assert sql.answers(worlds, HAND_ASKS) == eng.reference.answers(worlds, HAND_ASKS)
    fights = fights_of_every_category(eng, max(1, REFERENCE_HANDS // 4), seed=2)   # fights and tables
    assert verdicts(sql, fights) == verdicts(eng.reference, fights)


def test_the_three_evaluators_agree_on_thousands(eng):
    hands = hands_of_every_category(eng, 100, seed=3)         # 1,106 hands
    worlds = [World((h,)) for h in hands]
    sql, local = eng.evaluator(10 ** 6), eng.evaluator(1)
    assert sql is not local
    assert sql.answers(worlds, HAND_ASKS) == local.answers(worlds, HAND_ASKS)
    fights = fights_of_every_category(eng, 20, seed=4)        # ~300 fights and tables
    mine, theirs = verdicts(sql, fights, matrix=True), verdicts(local, fights, matrix=True)
    assert mine == theirs
    assert [v.beats for v in mine] == [v.beats for v in theirs]


def test_the_edited_rule_sets_judge_differently(tmp_path):
    # The edits above matter: the last differing part decides, here the odd card.
    standard, comparator = Engine(), edited(tmp_path, "comparator")
    a, b = "AH AD 2C 2S 3H", "KH KD QC QS 4H"                 # aces and twos against kings and queens
    assert standard.beat(a, b) == 1 and comparator.beat(a, b) == 2
    assert comparator.beat(a, b) == verdicts(comparator.reference, [[comparator.cards(a), comparator.cards(b)]])[0].result


@pytest.mark.parametrize("text, reason", [
    ("r_x: r(X) <= declared(X) & (Y == X + 1) & r(Y)", "recursion"),
    ("r_x: (f[X] == max_(Y, order_by=I)) <= holds(X, I, Y)", "order_by= other than"),
    ("r_x: r(X, Y) <= holds(X, I, Y) & (Z == 15) & (W == 'a') & (Z < W)", "ordered against"),
    ("r_x: r(X, Z) <= holds(X, I, Y) & (Z == Y * 0.5)", "float 0.5"),
    ("r_x: r(X, Z) <= holds(X, I, Y) & (Z == Y / 2)", "true division"),
    ("r_x: r(X) <= declared(X) & (cardCount[X] != 5)", "a function compared by !="),
    ("r_x: r(X, M) <= declared(X) & (partCount[X, 'all', M] == M)", "one of its own keys"),
    ("r_x: r(A, B) <= declared(A) & ~shareCard(A, B) & declared(B)", "bound only after it"),
    ("r_x: holds(1, 2, 3)", "input fact"),
])
def test_what_is_not_translated_is_refused_with_a_reason_and_judged_by_pydatalog(tmp_path, text, reason):
    rules = appended(tmp_path, text)
    from engine.datalog.rulesets import resolve
    with pytest.raises(Untranslatable, match=reason):
        Program(resolve(rules).clauses, I.INPUTS, I.ASKED)
    if reason in ("recursion", "input fact"):
        return                                   # pyDatalog itself cannot run these sensibly
    engine = Engine(rules)
    assert engine.fallback and reason in engine.fallback
    assert engine.evaluator(10 ** 6) is engine.reference
    assert engine.beat("JH JD 2C 2S 4H", "TH TD 9C 9S 8H") == 1


def test_a_division_by_zero_the_rules_make_fails_on_every_evaluator(tmp_path):
    # pyDatalog does not raise on a division by zero: it binds the variable to the exception, which
    # the reference evaluator reports as a failure of the rules.  The compiled program never answers
    # such a world itself (its division gives no row, and the witness query finds the zero
    # divisor): the world is pyDatalog's (engine.evaluators.exact), and fails there too.  A
    # division whose row a later step drops (later: V > 13 after dividing by V - 13) is no
    # failure in pyDatalog, whose exception value never reaches an answer: no row, everywhere.
    from engine.evaluators.exact import RuleFailure
    rules = appended(tmp_path, "\nzero_D: zero(S, X) <= getMax(S, V) & (X == V // (V - V))"
                               "\nlater_D: later(S, X) <= getMax(S, V) & (X == 60 // (V - 13)) & (V > 13)"
                               "\nfine_D: fine(S, X) <= getMax(S, V) & (V != 13) & (X == 60 // (V - 13))\n")
    engine = Engine(rules)
    assert engine.fallback is None, engine.fallback
    worlds = [World(((1, 2, 3, 4, 5),)), World(((1, 2, 3, 4, 13),))] + [World(((9, 10, 11, 12, 8),))] * 10
    for evaluator in (engine.reference, engine.evaluator(1), engine.evaluator(10 ** 6)):
        with pytest.raises(RuleFailure, match="the rules fail: division by zero"):
            evaluator.answers(worlds, [Ask("zero", (1, None))])
    asks = [Ask("fine", (1, None)), Ask("later", (1, None)), Ask("getRank", (1, None))]
    want = engine.reference.answers(worlds, asks)
    assert want[0][asks[0]] == [(1, 60 // -8)] and want[1][asks[0]] == [] and not any(w[asks[1]] for w in want)
    for evaluator in (engine.evaluator(1), engine.evaluator(10 ** 6)):
        assert evaluator.answers(worlds, asks) == want


def test_a_division_its_caller_guards_is_never_made(tmp_path):
    # inv divides by its input; the caller only asks it after (V != 1), so pyDatalog never
    # divides by zero.  A demand for inv built from fewer steps (the card's value, minus one)
    # would hold 0 for an ace, and the SQL would fail where the rules do not.
    rules = appended(tmp_path, "\ninv_D: inv(X, Y) <= (Y == 60 // X)"
                               "\ninvOf_D: invOf(S, Y) <= member(S, C) & getValue(C, V) & (V != 1) "
                               "& (W == V - 1) & inv(W, Y)\n")
    engine = Engine(rules)
    assert engine.fallback is None, engine.fallback
    hands = [(1, 2, 3, 4, 5), (14, 27, 40, 13, 26)] + hands_of_every_category(engine, 3, seed=7)
    worlds, ask = [World((h,)) for h in hands], [Ask("invOf", (1, None))]
    want = engine.reference.answers(worlds, ask)
    assert sorted(want[0][ask[0]]) == [(1, 15), (1, 20), (1, 30), (1, 60)]    # A-2-3-4-5: not the ace
    for evaluator in (engine.evaluator(1), engine.evaluator(10 ** 6)):
        assert evaluator.answers(worlds, ask) == want


def test_a_joint_program_answers_as_each_rule_set_alone(tmp_path):
    # poker diff's tables ask several rule sets in one program, renaming what differs
    # (joint_program): each rule set's renamed predicates must answer as that rule set alone.
    engines = [Engine(), Engine("eventb"), edited(tmp_path, "comparator")]
    program, names = joint_program([e.ruleset.clauses for e in engines], I.INPUTS, I.ASKED)
    assert {"getRank", "handKey", "beat"} <= set(names[1]) and "isFlush" not in names[1]
    assert "beat" in names[2] and "getRank" not in names[2]
    joint = CompiledEvaluator(program=program, threads=1)
    hands = hands_of_every_category(engines[0], 6, seed=11)
    fights = fights_of_every_category(engines[0], 2, seed=12)
    worlds = [World((h,)) for h in hands] + [World(tuple(f[:2])) for f in fights]
    asks = [Ask("getRank", (1, None)), Ask("handKey", (1, None, None, None)), Ask("beat", (1, 2, None))]
    for engine, rename in zip(engines, names):
        mine = joint.answers(worlds, [Ask(rename.get(a.pred, a.pred), a.args) for a in asks])
        theirs = engine.evaluator(10 ** 6).answers(worlds, asks)
        assert [list(m.values()) for m in mine] == [list(t.values()) for t in theirs]
        assert any(t[asks[2]] for t in theirs)               # fights answered, not only hands


def test_names_that_differ_only_in_case_are_two_predicates(tmp_path):
    # DuckDB folds the case of identifiers, even quoted: isthree and isThree shared one table,
    # and a batch answered isThree with isthree's rows.
    rules = appended(tmp_path, "\ncase_D: isthree(S) <= isHand(S)\ncase_D: gETRANK(S, 99) <= isHand(S)\n")
    engine = Engine(rules)
    assert engine.fallback is None, engine.fallback
    hands = hands_of_every_category(engine, 2, seed=13)
    worlds = [World((h,)) for h in hands]
    asks = [Ask("isThree", (1,)), Ask("isthree", (1,)), Ask("getRank", (1, None)), Ask("gETRANK", (1, None))]
    want = engine.reference.answers(worlds, asks)
    assert any(not w[asks[0]] and w[asks[1]] for w in want)      # a hand that is no three but isthree
    for evaluator in (engine.evaluator(1), engine.evaluator(10 ** 6)):
        assert evaluator.answers(worlds, asks) == want
    fights = [[engine.cards("AH AD AC 2S 3H"), engine.cards("KH KD QC QS 4H")]] * 60
    assert {v.result for v in verdicts(engine.evaluator(60), fights)} == {1}


def test_a_division_guarded_by_the_caller_is_computed_for_the_callers_demand(tmp_path):
    # inv divides by V - 1, zero for an ace; its one caller asks it only for hands without one.
    # Bottom-up, inv would be every hand's, the ace's division included; it is narrowed to what
    # invOf asks (a view on S), as pyDatalog's top-down evaluation asks it.  A batch whose fights
    # hold aces is judged, every fight, as pyDatalog judges it.
    rules = appended(tmp_path, "\ninv_D: inv(S, Y) <= member(S, C) & getValue(C, V) & (Y == 60 // (V - 1))"
                               "\ninvOf_D: invOf(S, Y) <= isHand(S) & ~isA(S) & inv(S, Y)"
                               "\ngetRank_X: getRank(S, 11) <= invOf(S, Y) & (Y == 1000)\n")
    engine = Engine(rules)
    assert engine.fallback is None, engine.fallback
    program = engine.evaluator(1).program
    assert program.preds["inv"].inputs == {0} and "inv" in program.dividing
    rng = random.Random(5)
    fights = [[tuple(c[:5]), tuple(c[5:])] for c in (rng.sample(range(1, 53), 10) for _ in range(300))]
    sql = verdicts(engine.evaluator(10 ** 6), fights)
    assert sql == verdicts(Engine().evaluator(10 ** 6), fights)     # invOf never decides here
    assert sql[:40] == verdicts(engine.reference, fights[:40])
    worlds = [World(tuple(f[:1])) for f in fights[:40]]
    ask = [Ask("invOf", (1, None))]
    want = engine.reference.answers(worlds, ask)
    assert any(w[ask[0]] for w in want) and any(not w[ask[0]] for w in want)
    for evaluator in (engine.evaluator(1), engine.evaluator(10 ** 6)):
        assert evaluator.answers(worlds, ask) == want


def test_a_fault_of_the_rules_marks_the_fights_it_touches(tmp_path):
    # A rule that fails in pyDatalog itself (an exception value ordered against a number) fails
    # for the fights with an ace only; the batch judges the others (N in, N out, in order).
    rules = appended(tmp_path, "\nbad_D: bad(S) <= member(S, C) & getValue(C, V) & (Y == 60 // (V - 1)) & (Y > 100)"
                               "\ngetRank_X: getRank(S, 11) <= isHand(S) & bad(S)\n")
    engine = Engine(rules)
    fights = [[engine.cards("AH AD 2C 2S 3H"), engine.cards("KH KD QC QS 4H")],
              [engine.cards("JH JD 2C 2S 4H"), engine.cards("TH TD 9C 9S 8H")]] * 20
    want = verdicts(engine.reference, fights)
    for evaluator in (engine.evaluator(1), engine.evaluator(10 ** 6)):
        got = verdicts(evaluator, fights)
        assert got == want and len(got) == 40
    assert [v.result for v in want[:2]] == [-1, 1]
    assert want[0].error and "the rules fail" in want[0].error


def test_a_view_asked_free_is_answered_as_pydatalog_answers_it(tmp_path):
    # A predicate whose clauses need an argument bound by the caller (isCard's C, or p's Y below) is
    # computed by the compiled program for what its callers pass.  Asked with that argument free,
    # pyDatalog answers, or refuses (DatalogError): the compiled evaluators leave it to pyDatalog.
    from engine.evaluators.exact import RuleFailure
    rules = appended(tmp_path, "unsafe_D: unsafe(S, Y) <= isHand(S) & ~member(S, Y)\n"
                               "unsafe_D: unsafe(S, 1) <= isPair(S)")
    engine = Engine(rules)
    assert engine.fallback is None, engine.fallback
    worlds = [World(((1, 14, 3, 4, 5),))] * 12
    for ask in (Ask("isCard", (None,)), Ask("unsafe", (1, None))):
        results = []
        for evaluator in (engine.reference, engine.evaluator(1), engine.evaluator(10 ** 6)):
            try:
                results.append(evaluator.answers(worlds, [ask]))
            except RuleFailure as exc:
                results.append(str(exc))
        assert results[0] == results[1] == results[2], results
    bound = [Ask("unsafe", (1, 9)), Ask("unsafe", (1, 14))]
    want = engine.reference.answers(worlds, bound)
    assert want[0][bound[0]] == [(1, 9)] and want[0][bound[1]] == []
    assert engine.evaluator(1).answers(worlds, bound) == engine.evaluator(10 ** 6).answers(worlds, bound) == want
