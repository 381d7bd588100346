"""The differential fuzzer of rule sets (tests/rulefuzz.py) in CI: generated rule sets asked of
pyDatalog, the compiled program in-process and the compiled program on DuckDB, every answer (or
failure) compared.

One test per feature of the generated programs, so that a feature whose cases still disagree can
be marked alone (``KNOWN``: strict, so that the mark has to go once the bug is fixed).  Programs of
one feature are run many to a rule set (rulefuzz.run_cases: a group in which some program fails is
split until that program stands alone); the first disagreement ends a test, shown whole.  A longer
run, which splits and shrinks every disagreement to the smallest program: bench/fuzz_rules.py.
"""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
import rulefuzz as F

from engine import Engine
from engine.evaluators import Ask, World

GROUP = 24                      # programs per rule set
# Cases per feature (298 in all, about 70 s of CPU: 35 s on two cores).  Programs are cheap in a
# group (0.1 to 0.2 s each); an edit of the standard rules is a rule set of its own (about 1.1 s:
# a SQL run costs 0.3 s whatever it holds); a program meant to fail (div_*), or whose compiled
# runs fail where pyDatalog's do not (big63's overflows, divisions guarded by a caller), has its
# failed runs answered again in halves (engine.evaluators.exact): 1 to 3 s each.
PLAN = {"arith": 24, "sides": 12, "negation": 24, "aggregates": 24, "functions": 24, "case": 16,
        "strings": 24, "floats": 24, "big53": 24, "big63": 16, "div_body": 12, "div_caller": 12,
        "unsafe": 8, "mixed": 8, "edits": 6, "grammar": 40}
# Programs drawn from the grammar (half of them given a refused form, checked by the loader alone):
# POKER_FUZZ_GRAMMAR=N for a longer run (400: ten times CI's).
GRAMMAR = int(os.environ.get("POKER_FUZZ_GRAMMAR", PLAN["grammar"]))
PLAN["grammar"] = GRAMMAR
# Features whose cases still disagree, with the bug (the mark is strict: it fails once fixed).
# (none left: the last, a constant == an expression, is now refused by the loader, as pyDatalog
# cannot build it)
KNOWN: dict[str, str] = {}


def _params() -> list:
    return [pytest.param(feature, n, id=feature, marks=[pytest.mark.xfail(strict=True, reason=KNOWN[feature])]
                         if feature in KNOWN else []) for feature, n in PLAN.items()]


@pytest.mark.parametrize("feature, n", _params())
def test_the_evaluators_agree_on_generated_rule_sets(feature, n):
    cases = [c for c in (F.make_case(feature, seed) for seed in range(n)) if not c.expect]
    tally = F.run_cases(cases, group=GROUP, first_failure=True)
    assert not tally.disagree, "\n\n".join(F.describe(c, r) for c, r in tally.disagree) + \
        f"\n(shrink: .venv/bin/python bench/fuzz_rules.py --features {feature} --cases {n})"
    assert tally.cases == len(cases) and len(cases) >= n // 4
    if feature in ("unsafe", "sides"):   # fixed, these may as well be refused (loader or compiler)
        assert tally.agree + tally.refused + tally.rejected == n
        return
    assert tally.rejected == 0, tally.rejections          # the generators make legal rule sets
    if feature == "floats":                # floats are pyDatalog's alone today: refused, or compared
        assert tally.refused + tally.agree == n, tally.refusals
        return
    assert tally.agree >= len(cases) // 3, (tally.agree, tally.refusals)
    assert tally.rows > 10 * tally.agree                    # answers were compared, not nothing
    if feature in ("div_body", "div_caller"):               # unguarded divisions: all three fail
        assert tally.errors.get("division by zero", 0) >= 1, tally.errors


def test_the_generators_are_deterministic_and_legal():
    for feature in (*F.FEATURES, F.MIXED):
        for seed in range(3):
            case = F.make_case(feature, seed)
            assert case == F.make_case(feature, seed)
            assert case.rules and case.asks and len(case.worlds) >= 12 and case.single
            if case.expect:                          # a refused form: test_the_loader_refuses_...
                continue
            verdict = F.precheck(case)
            legal = ("refused", "rejected") if feature == "sides" else ("refused",)
            assert verdict is None or verdict.status in legal, (feature, seed, verdict)
    edits = [F.make_case("edits", seed) for seed in range(4)]
    assert all(e.edits for e in edits) and edits[0] == F.make_case("edits", 0)
    assert {e.what for c in edits for e in c.edits} and all(F._legal(c) is None for c in edits)


def test_the_loader_refuses_exactly_the_refused_forms_of_the_grammar():
    """Programs drawn from the grammar: those given a refused form (a lower-case name, a name of _,
    an expression or a function in a head, at any place a term stands) are refused by the loader
    in one line naming the clause's line and the form; the others load (the agreement of the
    evaluators on them is test_the_evaluators_agree_on_generated_rule_sets[grammar])."""
    cases = [F.make_case("grammar", seed) for seed in range(GRAMMAR)]
    refused = [c for c in cases if c.expect]
    assert len(refused) >= GRAMMAR // 4 and len(cases) - len(refused) >= GRAMMAR // 4
    kinds = set()
    for case in cases:
        if not case.expect:
            assert F._legal(case) is None, (case.seed, F._legal(case))
            continue
        verdict = F.precheck(case)
        assert verdict is not None and verdict.status == "rejected", (case.seed, case.expect, verdict)
        assert "\n" not in verdict.reason and verdict.reason.startswith(case.expect), \
            (case.expect, verdict.reason, [r.text for r in case.rules])
        kinds.add(case.expect.split(": ", 1)[1].split()[-1])
    assert {"name", "term"} <= kinds and kinds & {"_", "variable"}, kinds
    # and through an Engine, as a user loads it: the line in the whole rule file
    case = refused[0]
    result = F.run_case(case)
    line = int(case.expect.split(":")[1]) + len(F.standard_clauses()) + 2
    assert result.status == "rejected" and f"fuzz.dl:{line}: " in result.reason, (result, case.expect)
    assert "\n" not in result.reason


def test_a_disagreement_is_found(monkeypatch):
    # A planted fault: the SQL answers one predicate with a row more in one world.
    case = F.program_case("arith", 3)
    target = case.asks[0][0]
    plant = World((F.HANDS["four"],))
    case = replace(case, worlds=case.worlds + (plant,), checked=case.checked + (len(case.worlds),))
    real = F._call

    def call(evaluator, worlds, asks):
        out = real(evaluator, worlds, asks)
        if type(evaluator).__name__ == "CompiledEvaluator" and out.answers is not None:
            for world, answers in zip(worlds, out.answers):
                for ask in asks:
                    if ask.pred == target and world == plant:
                        answers[ask] = answers[ask] + [(1, 10 ** 6)]
        return out

    monkeypatch.setattr(F, "_call", call)
    result = F.run_case(case)
    assert result.status == "disagree" and result.signature == {("SQL", "answers")}, result.mismatches
    assert any("four" in m.detail and target in m.detail for m in result.mismatches)


def test_a_world_asked_alone_is_held_to_pyDatalog_asked_the_same(monkeypatch):
    # A world asked alone (beat of hands 1 and 2) is in the batch too (beat with every argument
    # free), and pyDatalog was asked both calls' asks at once: an edit that fails only the free
    # beat (the fuzzer's edits seed 7050: beatRank_F00's A left to its negation) made the call
    # of that world alone "disagree" where pyDatalog, asked the same, answers as the others do.
    case = F.make_case("edits", 0)
    case = replace(case, worlds=(World((F.HANDS["four"],)),), single=(0,), checked=(0,))
    free = Ask("beat", (None, None, None))
    real = F._call

    def call(evaluator, worlds, asks):          # every evaluator fails the free beat alike
        if free in asks:
            return F.Outcome(error="RuleFailure: planted")
        return real(evaluator, worlds, asks)
    monkeypatch.setattr(F, "_call", call)
    result = F.run_case(case)
    assert result.status == "agree", result.mismatches
    assert result.errors == {"RuleFailure: planted"} and result.rows > 0


def test_the_shrinker_keeps_what_shows_the_disagreement():
    # A stand-in for run_case: the disagreement shows while the target predicate is defined and
    # asked, and the world of four of a kind is in the batch.
    case = F.program_case("mixed", 5)
    target = case.asks[0][0]
    plant = World((F.HANDS["four"],))
    case = replace(case, worlds=case.worlds + (plant,))
    runs = []

    def run(c):
        runs.append(c)
        shows = plant in c.worlds and any(a[0] == target for a in c.asks) and \
            any(F.head_name(r.head) == target for r in c.rules)
        return F.Result("disagree", "planted", [F.Mismatch("SQL", "batch", "answers", "planted")]) if shows \
            else F.Result("agree")

    small, why = F.shrink(case, run(case), run=run)
    assert why.status == "disagree" and small.worlds == (plant,) and not small.single
    assert [F.head_name(r.head) for r in small.rules] == [target] and len(small.rules[0].body) == 1
    assert small.asks == ((target, dict(case.asks)[target]),) and not small.standard_asks
    assert len(runs) < 200
    text = F.describe(small, why)
    assert target in text and "four" in text and "SQL vs pyDatalog" in text


def test_failures_are_compared_by_kind():
    from engine.datalog.ir import EvaluationError
    from engine.evaluators.exact import RuleFailure
    division = [ZeroDivisionError("integer division or modulo by zero"),
                TypeError("'<' not supported between instances of 'ZeroDivisionError' and 'int'"),
                TypeError("unsupported operand type(s) for -: 'int' and 'TypeError'"),
                EvaluationError("division by zero in the rules"),
                RuleFailure("the rules fail: division by zero")]
    assert {F.error_kind(e) for e in division} == {"division by zero"}
    overflow = EvaluationError("integer overflow in the rules: Out of Range Error")
    assert F.error_kind(overflow) == "integer overflow"
    assert F.error_kind(RuntimeError("generator raised StopIteration")).startswith("RuntimeError")


def test_pydatalog_arithmetic_as_the_fuzzer_found_it(tmp_path):
    # The reference's arithmetic.  Integers are Python's, unbounded, and ordered exactly against
    # floats; floats are not: pyDatalog 0.22.4 rounds every float it makes a term of (constants and
    # results) to 27 bits of mantissa (pyEngine.Float_Precision = 8 digits), so 0.1 is
    # 0.09999999962747097 and Y // 0.1 is 120.0 for Y = 12 where Python says 119.0, while the loader
    # folds 12 // 0.1 of two constants with Python (119.0).  The compiler refuses floats (pyDatalog
    # alone answers them), which is why the fuzzer's floats cases are refusals.
    (tmp_path / "variant.toml").write_text('extends = "standard"\n', encoding="utf-8")
    runtime = {"12 // 0.1": 120.0, "12 % 0.1": 0.0, "-7 // 2": -4, "-7 % 2": 1, "7 % -2": -1,
               "7 // -2": -4, "-7.5 // 2": -4.0, "1 / 3": 0.3333333320915699,
               "1000000000000000000 * 10": 10 ** 19, "-1000000000000000000 * 100 // 7": -(10 ** 20) // 7}
    lines = [f"a{i}_D: a{i}(S, X) <= declared(S) & (Y == {text.split(' ', 1)[0]}) "
             f"& (X == Y {text.split(' ', 1)[1]})" for i, text in enumerate(runtime)]
    lines += ["folded_D: folded(S, X) <= declared(S) & (X == 12 // 0.1)",
              "above_D: above(S) <= declared(S) & (Y == 9007199254740993) & (Y > 9007199254740992.0)",
              "same_D: same(S) <= declared(S) & (Y == 9007199254740993) & (Y == 9007199254740992.0)"]
    (tmp_path / "x.dl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    engine = Engine(tmp_path)
    asks = [Ask(f"a{i}", (None, None)) for i in range(len(runtime))]
    more = [Ask("folded", (None, None)), Ask("above", (None,)), Ask("same", (None,))]
    got = engine.reference.answers([World(((1, 2, 3, 4, 5),))], asks + more)[0]
    for ask, want in zip(asks, runtime.values()):
        assert F._typed(got[ask]) == F._typed([(1, want)]), (ask.pred, got[ask], want)
    assert got[more[0]] == [(1, 119.0)] and 12 // 0.1 == 119.0
    assert got[more[1]] == [(1,)] and got[more[2]] == []     # 2**53 + 1 against float(2**53): exact
