"""The compiled program run in-process: for one fight or a handful, where SQL's start-up dominates.

DuckDB answers a million worlds in seconds but spends milliseconds on each statement, and a rule
set is some sixty statements.  For a few worlds this module runs the *same* compiled program (the
:class:`~engine.datalog.program.Program`: the same clause order, binding, stratification and
typing) with Python sets: each body is a left-to-right join over indexed relations, negation a
look-up that finds nothing, a view a function of its bound inputs, memoised.  Arithmetic is
Python's own.  The differential tests hold it to pyDatalog and to the SQL, answer for answer.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Iterable, Iterator, Sequence

from engine import interface
from engine.datalog import loader
from engine.datalog.bodies import assignment
from engine.datalog.ir import DEMAND, Compare, Const, EvaluationError, Rule, Var
from engine.datalog.program import Program
from engine.evaluators import Answers, Ask, World, exact, ordered

_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod}
_CMP: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge}


def _expr(term: Any, slots: dict[str, int]) -> Callable[[tuple], Any]:
    """A term as a function of a row of bound values (variables at their slots)."""
    if isinstance(term, Var):
        i = slots[term.name]
        return lambda row: row[i]
    if isinstance(term, Const):
        v = term.value
        return lambda row: v
    left = _expr(term.left, slots)
    if term.op == "neg":
        return lambda row: -left(row)
    right, fn = _expr(term.right, slots), _ARITH[term.op]

    def apply(row: tuple) -> Any:
        try:
            return fn(left(row), right(row))
        except ZeroDivisionError:
            raise EvaluationError("division by zero in the rules") from None
    return apply


def _picker(positions: Sequence[int]) -> Callable[[tuple], tuple]:
    """A function of a row: the tuple of its values at these positions (itemgetter's speed)."""
    if not positions:
        return lambda row: ()
    if len(positions) == 1:
        i = positions[0]
        return lambda row: (row[i],)
    return operator.itemgetter(*positions)


def _tuple_of(terms: Sequence[Any], slots: dict[str, int]) -> Callable[[tuple], tuple]:
    """A function of a row of bound values: the tuple of the terms' values."""
    if all(isinstance(t, Var) for t in terms):
        return _picker([slots[t.name] for t in terms])
    fns = [_expr(t, slots) for t in terms]
    return lambda row: tuple(f(row) for f in fns)


class _Plan:
    """A clause as set-at-a-time steps over rows of bound values, slots fixed left to right."""

    def __init__(self, program: Program, rule: Rule, skip_first: bool = False):
        self.rule = rule
        self.slots: dict[str, int] = {}
        body = rule.body[1:] if skip_first else rule.body
        if skip_first:                                   # a view's demand atom: its inputs come bound
            self.bind_args = rule.body[0].args
            self.start = self._bind_static(rule.body[0].args)
        self.steps = [self._step(program, s) for s in body]
        self.head = [_expr(t, self.slots) for t in rule.head]
        self.agg = None
        if rule.aggregate:
            self.agg = (rule.aggregate[0], self.slots[rule.aggregate[1].name],
                        tuple(self.slots[v.name] for v in rule.aggregate[2]))

    def _bind_static(self, args: Sequence[Any]) -> tuple[list[tuple[int, Any]], list[tuple[int, int]]]:
        """For a row of values matched against args: which values bind new slots, which must agree."""
        new, same = [], []
        for i, a in enumerate(args):
            if isinstance(a, Var) and a.name not in self.slots:
                self.slots[a.name] = len(self.slots)
                new.append(i)
            else:
                same.append((i, _expr(a, self.slots)))
        return new, same

    def _step(self, program: Program, step: Any) -> tuple:
        if isinstance(step, Compare):
            got = assignment(step, self.slots)
            if got is not None:
                value = _expr(got[1], self.slots)
                self.slots[got[0]] = len(self.slots)
                return ("assign", value)
            return ("filter", _expr(step.left, self.slots), _expr(step.right, self.slots), _CMP[step.op])
        pred = program.preds[step.pred]
        bound = tuple(i for i, a in enumerate(step.args) if not (isinstance(a, Var) and a.name not in self.slots))
        key = _tuple_of([step.args[i] for i in bound], self.slots)
        # a view is a call; so is an optional view (narrowed for SQL's sake) called with its inputs
        # bound: a showdown's world holds dozens of fives, and only some of their pairs are compared
        inputs = _tuple_of([step.args[i] for i in sorted(pred.inputs)], self.slots) \
            if pred.view and (not pred.optional or pred.inputs <= set(bound)) else None
        if step.negated:
            free = [i for i in range(len(step.args)) if i not in bound]
            names = [step.args[i].name for i in free]
            repeats = len(set(names)) != len(names)
            return ("not", step.pred, bound, key, inputs, (free, names) if repeats else None)
        new: list[int] = []
        same: list[tuple[int, int]] = []
        for i in range(len(step.args)):
            if i in bound:
                continue
            name = step.args[i].name
            if name in self.slots:                       # repeated within this literal
                same.append((i, self.slots[name]))
            else:
                self.slots[name] = len(self.slots)
                new.append(i)
        return ("scan", step.pred, bound, key, inputs, _picker(new), same)


class _Run:
    """One world's evaluation: relations as sets of tuples, indexed on demand."""

    def __init__(self, evaluator: "LocalEvaluator", facts: dict[str, list[tuple]]):
        self.ev = evaluator
        self.program = evaluator.program
        self.rel: dict[str, set[tuple]] = dict(evaluator.static)
        for name, rows in facts.items():
            self.rel[name] = set(rows)
        self.index: dict[tuple[str, tuple[int, ...]], dict[tuple, list[tuple]]] = {}
        self.views: dict[tuple[str, tuple], dict[tuple[int, ...], dict[tuple, list[tuple]]]] = {}

    def relation(self, name: str) -> set[tuple]:
        rows = self.rel.get(name)
        if rows is None:
            pred = self.program.preds[name]
            plans = self.ev.full_plans(name) if pred.optional else self.ev.plans(name)
            rows = self.rel[name] = self.evaluate(plans)
        return rows

    def evaluate(self, plans: list[_Plan], seeds: list[tuple] | None = None) -> set[tuple]:
        """The head rows of the clauses (an aggregate: its groups, over all clauses, with the value)."""
        out: set[tuple] = set()
        groups: dict[tuple, set] = {}
        for plan, seed in zip(plans, seeds or [()] * len(plans)):
            rows = self.solve(plan, [seed])
            if plan.agg:
                slot, each = plan.agg[1], plan.agg[2]
                for row in rows:       # sum_: each value with its for_each values (distinct rows)
                    value = (row[slot], *(row[i] for i in each)) if plan.agg[0] == "sum_" else row[slot]
                    groups.setdefault(tuple(h(row) for h in plan.head), set()).add(value)
            else:
                out.update(tuple(h(row) for h in plan.head) for row in rows)
        if plans and plans[0].agg:
            fn = {"len_": len, "min_": min, "max_": max,
                  "sum_": lambda rows: sum(r[0] for r in rows)}[plans[0].agg[0]]
            out.update(key + (fn(values),) for key, values in groups.items())
        return out

    def indexed(self, name: str, positions: tuple[int, ...]) -> dict[tuple, list[tuple]]:
        """A relation's rows by their values at these positions (built once per run)."""
        idx = self.index.get((name, positions))
        if idx is None:
            idx = {}
            for row in self.relation(name):
                idx.setdefault(tuple(row[i] for i in positions), []).append(row)
            self.index[(name, positions)] = idx
        return idx

    def view_lookup(self, name: str, inputs: tuple, positions: tuple[int, ...], key: tuple) -> list[tuple]:
        """The rows of a view for its bound inputs (its demand is just this call), by key."""
        memo = self.views.get((name, inputs))
        if memo is None:
            plans, seeds = [], []
            for plan in self.ev.plans(name):
                new, same = plan.start
                seed = tuple(inputs[i] for i in new)
                if all(check(seed) == inputs[i] for i, check in same):
                    plans.append(plan)
                    seeds.append(seed)
            rows = self.evaluate(plans, seeds)
            memo = self.views[(name, inputs)] = {(): {(): list(rows)}}
        idx = memo.get(positions)
        if idx is None:
            idx = memo[positions] = {}
            for row in memo[()][()]:
                idx.setdefault(tuple(row[i] for i in positions), []).append(row)
        return idx.get(key, [])

    def solve(self, plan: _Plan, rows: list[tuple]) -> list[tuple]:
        for step in plan.steps:
            kind = step[0]
            if kind == "assign":
                value = step[1]
                rows = [row + (value(row),) for row in rows]
            elif kind == "filter":
                _, left, right, cmp = step
                rows = [row for row in rows if cmp(left(row), right(row))]
            elif kind == "not":
                _, name, bound, key, inputs, repeats = step
                out = []
                idx = self.indexed(name, bound) if inputs is None else None
                for row in rows:
                    found = idx.get(key(row), ()) if idx is not None else self.view_lookup(name, inputs(row), bound, key(row))
                    if repeats is not None and found:
                        free, names = repeats
                        found = [f for f in found if _consistent(free, names, f)]
                    if not found:
                        out.append(row)
                rows = out
            else:
                _, name, bound, key, inputs, pick, same = step
                out = []
                idx = self.indexed(name, bound) if inputs is None else None
                for row in rows:
                    for found in (idx.get(key(row), ()) if idx is not None
                                  else self.view_lookup(name, inputs(row), bound, key(row))):
                        grown = row + pick(found)
                        if same and any(found[i] != grown[s] for i, s in same):
                            continue
                        out.append(grown)
                rows = out
            if not rows:
                break
        return rows


def _consistent(free: list[int], names: list[str], row: tuple) -> bool:
    seen: dict[str, Any] = {}
    for i, name in zip(free, names):
        if seen.setdefault(name, row[i]) != row[i]:
            return False
    return True


class LocalEvaluator(exact.Exact):
    """The Evaluator protocol over a compiled Program, in Python, one world at a time (where it
    fails, see :class:`engine.evaluators.exact.Exact`)."""

    name = "compiled (in-process)"
    fault = EvaluationError

    def __init__(self, clauses: Iterable[loader.Clause] | None = None, program: Program | None = None):
        self.program = program if program is not None else Program(list(clauses or []), interface.INPUTS, interface.ASKED)
        self._plans: dict[str, list[_Plan]] = {}
        self.static: dict[str, set[tuple]] = {}
        seed = _Run(self, {})
        for name in self.program.order:
            pred = self.program.preds[name]
            if not pred.runtime and name not in self.program.inputs:
                self.static[name] = seed.relation(name)

    def static_view(self, name: str, inputs: Iterable[tuple]) -> Iterator[list[tuple]]:
        """A view's rows for each of these values of its inputs, in turn, in a world of no input
        facts (a static test of a card: isCard(C), getValue(C, V)), in one run."""
        run = _Run(self, {})
        return (run.view_lookup(name, values, (), ()) for values in inputs)

    def plans(self, name: str) -> list[_Plan]:
        plans = self._plans.get(name)
        if plans is None:
            pred = self.program.preds[name]
            plans = self._plans[name] = [_Plan(self.program, r, skip_first=pred.view) for r in pred.rules]
        return plans

    def full_plans(self, name: str) -> list[_Plan]:
        """An optional view's clauses without their demand: the whole relation."""
        plans = self._plans.get("whole$" + name)
        if plans is None:
            plans = self._plans["whole$" + name] = [_Plan(self.program, r.full) for r in self.program.preds[name].rules]
        return plans

    def _answers(self, worlds: Sequence[World], asked: Sequence[Ask]) -> list[Answers]:
        out = []
        for world in worlds:
            run = _Run(self, world.facts())
            answers: Answers = {}
            for ask in asked:
                pred = self.program.preds.get(ask.pred)
                if pred is None or ask.pred.startswith(DEMAND):
                    rows: Iterable[tuple] = []
                elif pred.view and (not pred.optional or all(ask.args[i] is not None for i in pred.inputs)):
                    # asked with its inputs bound, a view is a call (beat(1, 2, R): that pair only)
                    inputs = tuple(ask.args[i] for i in sorted(pred.inputs))
                    rows = [] if None in inputs else run.view_lookup(ask.pred, inputs, (), ())
                else:
                    rows = run.relation(ask.pred)
                answers[ask] = ordered(r for r in rows if ask.keep(r))
            out.append(answers)
        return out
