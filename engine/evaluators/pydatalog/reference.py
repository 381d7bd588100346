"""The reference evaluator: pyDatalog, asked world by world, as the rules' own interpreter."""

from __future__ import annotations

from typing import Any, Sequence

from engine.evaluators import Answers, Ask, World, exact, ordered
from engine.evaluators.exact import RuleFailure, describe
from engine.evaluators.pydatalog.runtime import Var, assert_fact, retract_fact
from engine.limits import raise_if_stopped


class ReferenceEvaluator:
    """Asks a pyDatalog owner (an Engine's Logic) one world at a time."""

    name = "pyDatalog"

    def __init__(self, owner: Any, arity: dict[str, int]):
        self.owner = owner
        self.arity = arity

    def attempt(self, worlds: Sequence[World], asked: Sequence[Ask]) -> list[Any]:
        """Every world's answers, or its exact.Failure where the rules fail (a division by zero)."""
        return exact.reference_attempt(self, worlds, asked)

    def answers(self, worlds: Sequence[World], asked: Sequence[Ask]) -> list[Answers]:
        out = []
        for world in worlds:
            facts = [(name, row) for name, rows in world.facts().items() for row in rows]
            with self.owner._context():
                for name, row in facts:
                    assert_fact(name, row)
                try:
                    answers: Answers = {}
                    for ask in asked:
                        if ask.pred not in self.arity:
                            answers[ask] = []
                            continue
                        args = [Var(f"X{i}") if a is None else a for i, a in enumerate(ask.args)]
                        try:
                            rows = self.owner.ask(ask.pred, *args)
                        except Exception as exc:     # pyDatalog refuses the question (DatalogError)
                            raise_if_stopped()       # (not a signal or a budget it reports so)
                            if type(exc).__name__ != "DatalogError":
                                raise
                            raise RuleFailure(describe(exc)) from None
                        _no_exception_values(rows)
                        answers[ask] = ordered(_whole(ask, r) for r in rows)
                finally:
                    for name, row in facts:
                        retract_fact(name, row)
            out.append(answers)
        return out


def _whole(ask: Ask, free: tuple) -> tuple:
    """A row of the asked predicate: the bound arguments and the free ones' answers.  pyDatalog
    leaves a head variable unbound when only a caller binds it (a view asked with it free, or
    through a negation): an answer without a value is the rules failing (RuleFailure), not a row."""
    if len(free) != sum(a is None for a in ask.args):
        raise RuleFailure(f"the rules fail: {ask.pred} is asked with an argument free that its clauses leave "
                          "unbound (a head variable that only a comparison or a negation mentions needs a "
                          "caller to give it)")
    values = iter(free)
    return tuple(next(values) if a is None else a for a in ask.args)


def _no_exception_values(rows: Any) -> None:
    """pyDatalog does not raise on a division by zero in a clause: it binds the variable to the
    exception and goes on.  An answer holding one is the rules failing, not a value: RuleFailure."""
    for row in rows:
        for value in row:
            if isinstance(value, BaseException):
                raise_if_stopped()              # a signal or a budget pyDatalog made a value of
                raise RuleFailure(describe(value))
