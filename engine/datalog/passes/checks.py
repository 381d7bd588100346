"""Refuse what the IR cannot keep exact: floats and integers past 64 bits, a negation read
otherwise by pyDatalog, a predicate called with two arities (each called one is declared here)."""

from __future__ import annotations

from engine.datalog.bodies import late_negation
from engine.datalog.ir import (
    INT,
    INT64,
    Atom,
    Const,
    Op,
    Pred,
    ProgramIR,
    Rule,
    subterms,
    terms,
)


def run(program: ProgramIR) -> None:
    for rule in program.all_rules():
        numbers(rule)
        negations(rule)
        for step in rule.body:
            if isinstance(step, Atom):
                pred = program.preds.setdefault(step.pred, Pred(step.pred, len(step.args), types=[INT] * len(step.args)))
                if pred.arity != len(step.args):
                    raise rule.fail(f"{step.pred} is used with {len(step.args)} and {pred.arity} arguments")


def numbers(rule: Rule) -> None:
    """Refuse what SQL's numbers cannot keep exact: floats (a ``/`` or a float constant), and
    integer constants past 64 bits.

    DuckDB compares a BIGINT with a DOUBLE as two doubles (2**53 + 1 equals 2.0**53 there, not in
    Python) and rounds float floor division differently; pyDatalog, the reference, answers every
    rule set with floats.  Integers are then exact in SQL up to 64 bits, and an overflow at run
    time is an error that sends the worlds it touches to pyDatalog (:mod:`engine.evaluators.exact`).
    """
    for t in terms(rule):
        for s in subterms(t):
            if isinstance(s, Op) and s.op == "/":
                raise rule.fail("true division (/) gives floats, which are not compiled (use //)")
            if isinstance(s, Const) and isinstance(s.value, float):
                raise rule.fail(f"the float {s.value!r} is not compiled (floats are pyDatalog's)")
            if isinstance(s, Const) and isinstance(s.value, int) and not INT64[0] <= s.value <= INT64[1]:
                raise rule.fail(f"the integer {s.value} is past 64 bits (not compiled)")


def negations(rule: Rule) -> None:
    """Refuse a negated literal with a variable that a later step binds (``~shareCard(A, B) &
    isHand(B)``): pyDatalog does not read it as NOT EXISTS over B (the fuzzer found its answers
    differ), so such a rule set is left to pyDatalog.  A variable of the negation alone stays
    existential, as pyDatalog reads it."""
    late = late_negation(rule)
    if late is not None:
        raise rule.fail(f"the variable {late[0]} of ~{late[1]} is bound only after it, which "
                        "pyDatalog reads otherwise (not compiled)")
