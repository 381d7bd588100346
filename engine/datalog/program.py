"""The pipeline in one place: a Program is the checked clauses read into the IR, then the
passes of :data:`PASSES`, in that order (each a module of :mod:`engine.datalog.passes`).

Untranslatable from any of them means the rule set is left to pyDatalog, with the reason.
``poker explain-rules --pass NAME`` prints the program after each pass (``trace``).
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence

from engine.datalog import loader
from engine.datalog.ir import INT, Pred, ProgramIR
from engine.datalog.passes import (
    binding,
    checks,
    demand,
    dividing,
    restrict,
    split,
    strata,
    strings,
    types,
    worlds,
)
from engine.datalog.reader import read

PASSES: tuple[tuple[str, Callable[[ProgramIR], None]], ...] = (
    ("checks", checks.run),         # floats, 64 bits, late negations, arities of the called
    ("strings", strings.run),       # the string constants, coded by their order
    ("strata", strata.run),         # dependency order; recursion refused
    ("binding", binding.run),       # each predicate's inputs (views); every body checked
    ("worlds", worlds.run),         # what depends on the input facts
    ("split", split.run),           # views partly world-free: a static and a world part
    ("dividing", dividing.run),     # what divides by a variable, or calls what does
    ("restrict", restrict.run),     # relations narrowed to what their callers bind
    ("demand", demand.run),         # views as relations over their demand; runtime flags
    ("types", types.run),           # each column a number or a string
)
NAMES = ("read", *(name for name, _ in PASSES))


class Program(ProgramIR):
    """The clauses of a rule set, analysed for translation (Untranslatable when they cannot be).

    ``inputs``: the input facts and their columns; ``asked``: the calls that narrowing serves;
    ``trace(name, program)`` is called after reading and after each pass."""

    def __init__(self, clauses: Iterable[loader.Clause], inputs: Mapping[str, Sequence[str]],
                 asked: Sequence[str], trace: Callable[[str, ProgramIR], None] | None = None):
        super().__init__(inputs, asked)
        self._read(clauses)
        if trace is not None:
            trace("read", self)
        for name, run in PASSES:
            run(self)
            if trace is not None:
                trace(name, self)

    def _read(self, clauses: Iterable[loader.Clause]) -> None:
        """The input facts as predicates of integer columns, and each clause read into the IR."""
        for name, cols in self.inputs.items():
            self.preds[name] = Pred(name, len(cols), world=True, types=[INT] * len(cols))
        for clause in clauses:
            rule = read(clause)
            arity = len(rule.head) + (1 if rule.aggregate else 0)
            if rule.pred in self.inputs:
                raise rule.fail(f"{rule.pred} is an input fact; the rules cannot define it")
            pred = self.preds.setdefault(rule.pred, Pred(rule.pred, arity, types=[None] * arity))
            if pred.arity != arity:
                raise rule.fail(f"{rule.pred} is used with {arity} and {pred.arity} arguments")
            if rule.aggregate and pred.rules:
                raise rule.fail(f"the function {rule.pred} has more than one clause")
            if pred.rules and (rule.aggregate is None) != (pred.rules[0].aggregate is None):
                raise rule.fail(f"{rule.pred} is defined both by an aggregate and by clauses")
            pred.rules.append(rule)
