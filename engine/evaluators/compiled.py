"""The compiled evaluator: the loaded clauses translated to SQL and run set-at-a-time on DuckDB.

pyDatalog answers one question at a time, in milliseconds.  The same checked clauses, translated
to SQL, answer a million questions at once.  The translation keeps pyDatalog's meaning:

- Every predicate is a relation, and its clauses a ``UNION`` (set semantics, as in Datalog).
- A body is read left to right, as pyDatalog reads it: a variable is bound by the first literal
  that mentions it, or by ``X == expression``; a negated literal is an anti-join
  (``NOT EXISTS``), its unbound variables existential; predicates are evaluated in stratified
  (dependency) order.  A predicate whose clauses need some arguments bound (``isCard(C) <= C >= 1
  & C <= 52``) is a relation computed only for the values its callers pass (its *demand*).
- ``len_`` counts distinct values, ``min_``/``max_`` (ordered by the value itself) are grouped
  queries, ``sum_(X, for_each=Y)`` adds X over the distinct (X, Y) rows, as pyDatalog does.
  Every other aggregate is refused with the reason.
- Arithmetic follows Python on integers (floats are refused: :func:`_numbers`): floor division
  and modulo round towards minus infinity; a division by a variable is made for the rows
  pyDatalog reaches (a witness query, :meth:`Compiled._witness`), and a run that fails (a zero
  divisor, an integer past 64 bits) is never an answer: its worlds go to pyDatalog
  (:mod:`engine.evaluators.exact`); strings never meet numbers in arithmetic, joins or order
  (refused when they could).  Relation names keep their case (:func:`_table`).
- Questions come in **worlds**: each world is what one pyDatalog query would see (the sets of one
  fight, or one hand).  Every relation that depends on the input facts carries the world as its
  first column, so predicates over two sets (``beat``, ``shareCard`` …) are evaluated only for the
  sets of one fight, never for every pair of sets in a batch.

A rule set the translation cannot keep exact raises :class:`Untranslatable`, naming the clause and
the reason; the caller then uses pyDatalog, the reference interpreter.
"""

from __future__ import annotations

import ast
import contextlib
import os
import threading
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from engine import interface, limits
from engine.datalog import loader
from engine.evaluators import exact, ordered

INT, STR = "BIGINT", "VARCHAR"          # the column types: floats are not compiled (_numbers)
WORLDS = '"_worlds"'      # every world of a run (no predicate can have this name)
# What the engine asks of a batch (verdicts, ranks, keys, reasons): the calls that narrowing serves.
ASKED = (interface.GET_RANK, interface.IS_HAND, interface.HAND_KEY, interface.BEAT, interface.WINNER,
         interface.INVALID_TABLE, interface.WHY_NOT_HAND, interface.WHY_NOT_FIGHT, interface.PLAYS,
         interface.SHOWDOWN_WINNER, interface.INVALID_SHOWDOWN, interface.WHY_NOT_SHOWDOWN, interface.WHY_NOT_SEAT)
MIN_NARROWED = 2          # bound arguments that make a relation worth narrowing to its callers' demand
TABLE_ID = 0              # the table the hands of a fight sit at (engine.evaluators.TABLE)
DEMAND = "demand$"        # prefix of the relation of values a view is called with


class Untranslatable(Exception):
    """The rule set uses something the compiler cannot translate exactly (the message says what)."""


class EvaluationError(Exception):
    """A run-time error in the rules (division by zero, an integer overflow)."""


# --------------------------------------------------------------------------------------------
# The intermediate form: clauses as ordered steps

@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Const:
    value: Any


@dataclass(frozen=True)
class Op:
    op: str                 # + - * / // % or 'neg'
    left: Any
    right: Any = None


Term = Var | Const | Op


@dataclass(frozen=True)
class Atom:
    pred: str
    args: tuple[Term, ...]
    negated: bool = False


@dataclass(frozen=True)
class Compare:
    op: str                 # == != < <= > >=
    left: Term
    right: Term


@dataclass
class Rule:
    """One clause: head args, body steps; an aggregate clause also has its function."""
    clause: loader.Clause
    pred: str
    head: tuple[Term, ...]
    body: list[Atom | Compare]
    # (len_|min_|max_|sum_, the aggregated variable, sum_'s for_each variables)
    aggregate: tuple[str, Var, tuple[Var, ...]] | None = None
    demands: list["Rule"] = field(default_factory=list)   # per call of a view: what feeds its demand
    full: "Rule | None" = None          # an optional view's clause without its demand (asked whole)

    def fail(self, message: str) -> Untranslatable:
        return Untranslatable(f"{self.clause.where}: {self.clause.label}: {message}")


_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%"}
_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


class _Reader:
    """Turns one checked clause (an ast) into a Rule; functions f[k] become atoms f(k.., value)."""

    def __init__(self, clause: loader.Clause):
        self.clause = clause
        self.fresh = 0
        self.steps: list[Atom | Compare] = []

    def rule(self) -> Rule:
        node = self.clause.node
        if isinstance(node, ast.Call):
            return Rule(self.clause, node.func.id, tuple(self.term(a) for a in node.args), [])
        head, body = node.left, node.comparators[0]
        self.body(body)
        if isinstance(head, ast.Call):
            return Rule(self.clause, head.func.id, tuple(self.term(a) for a in head.args), self.steps)
        agg = head.comparators[0]
        name = loader.AGGREGATES[agg.func.id]
        var = self.term(agg.args[0])
        each: list[Var] = []
        rule = Rule(self.clause, head.left.value.id, tuple(self.term(k) for k in _keys(head.left)),
                    self.steps, (name, var, ()))
        if name not in ("len_", "min_", "max_", "sum_"):
            raise rule.fail(f"the aggregate {name} is not translated (len_, min_, max_, sum_ are)")
        for kw in agg.keywords:
            values = kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else [kw.value]
            terms = [self.term(v) for v in values]
            if name == "sum_" and kw.arg in ("for_each", "key") and all(isinstance(t, Var) for t in terms):
                each += terms
            elif kw.arg != "order_by" or name in ("len_", "sum_") or len(values) != 1 or terms[0] != var:
                raise rule.fail(f"{name} with {kw.arg}= other than the aggregated variable itself "
                                "is not translated")
        rule.aggregate = (name, var, tuple(each))
        return rule

    def body(self, node: ast.expr) -> None:
        if isinstance(node, ast.BinOp):                       # a & b
            self.body(node.left)
            self.body(node.right)
        elif isinstance(node, ast.UnaryOp):                   # ~literal
            self.steps.append(Atom(node.operand.func.id, tuple(self.term(a) for a in node.operand.args), True))
        elif isinstance(node, ast.Call):
            self.steps.append(Atom(node.func.id, tuple(self.term(a) for a in node.args)))
        else:
            op, left, right = _CMP[type(node.ops[0])], node.left, node.comparators[0]
            if op != "==" and (isinstance(left, ast.Subscript) or isinstance(right, ast.Subscript)):
                # pyDatalog reads (f[X] != 2) as a literal of its own ('f[2]!='), not as the value
                # of f compared: follow it by leaving such a clause to pyDatalog
                raise self.fail(f"a function compared by {op} is read otherwise by pyDatalog (not compiled)")
            if op == "==" and isinstance(left, ast.Subscript) and isinstance(right, (ast.Name, ast.Constant)):
                keys = [self.term(k) for k in _keys(left)]
                value = self.term(right)
                if isinstance(value, Var) and any(value.name in _vars(k) for k in keys):
                    raise self.fail(f"the value of {left.value.id} is one of its own keys, which pyDatalog "
                                    "reads otherwise (not compiled)")
                self.steps.append(Atom(left.value.id, tuple(keys) + (value,)))
                return
            self.steps.append(Compare(op, self.term(left), self.term(right)))

    def fail(self, message: str) -> Untranslatable:
        return Untranslatable(f"{self.clause.where}: {self.clause.label}: {message}")

    def term(self, node: ast.expr) -> Term:
        if isinstance(node, ast.Constant):
            return Const(node.value)
        if isinstance(node, ast.Name):
            return Var(node.id)
        if isinstance(node, ast.UnaryOp):
            inner = self.term(node.operand)
            return Const(-inner.value) if isinstance(inner, Const) else Op("neg", inner)
        if isinstance(node, ast.BinOp):
            return Op(_ARITH[type(node.op)], self.term(node.left), self.term(node.right))
        if isinstance(node, ast.Subscript):                   # f[keys] inside an expression
            self.fresh += 1
            value = Var(f"_f{self.fresh}")
            self.steps.append(Atom(node.value.id, tuple(self.term(k) for k in _keys(node)) + (value,)))
            return value
        raise AssertionError(f"unchecked node {ast.dump(node)}")


def _keys(sub: ast.Subscript) -> list[ast.expr]:
    return list(sub.slice.elts) if isinstance(sub.slice, ast.Tuple) else [sub.slice]


def _terms(rule: Rule) -> Iterable[Term]:
    """The terms of a clause: its head's arguments, its literals' arguments, its comparisons' sides."""
    yield from rule.head
    for step in rule.body:
        yield from (step.args if isinstance(step, Atom) else (step.left, step.right))


def _subterms(t: Term) -> Iterable[Term]:
    yield t
    if isinstance(t, Op):
        yield from _subterms(t.left)
        if t.right is not None:
            yield from _subterms(t.right)


def _constants(rule: Rule) -> Iterable[Const]:
    return (s for t in _terms(rule) for s in _subterms(t) if isinstance(s, Const))


INT64 = (-2 ** 63, 2 ** 63 - 1)


def _numbers(rule: Rule) -> None:
    """Refuse what SQL's numbers cannot keep exact: floats (a ``/`` or a float constant), and
    integer constants past 64 bits.

    DuckDB compares a BIGINT with a DOUBLE as two doubles (2**53 + 1 equals 2.0**53 there, not in
    Python) and rounds float floor division differently; pyDatalog, the reference, answers every
    rule set with floats.  Integers are then exact in SQL up to 64 bits, and an overflow at run
    time is an error that sends the worlds it touches to pyDatalog (:func:`engine.evaluators.exact`).
    """
    for t in _terms(rule):
        for s in _subterms(t):
            if isinstance(s, Op) and s.op == "/":
                raise rule.fail("true division (/) gives floats, which are not compiled (use //)")
            if isinstance(s, Const) and isinstance(s.value, float):
                raise rule.fail(f"the float {s.value!r} is not compiled (floats are pyDatalog's)")
            if isinstance(s, Const) and isinstance(s.value, int) and not INT64[0] <= s.value <= INT64[1]:
                raise rule.fail(f"the integer {s.value} is past 64 bits (not compiled)")


def _negations(rule: Rule) -> None:
    """Refuse a negated literal with a variable that a later step binds (``~shareCard(A, B) &
    isHand(B)``): pyDatalog does not read it as NOT EXISTS over B (the fuzzer found its answers
    differ), so such a rule set is left to pyDatalog.  A variable of the negation alone stays
    existential, as pyDatalog reads it."""
    bound: set[str] = set()
    for k, step in enumerate(rule.body):
        if isinstance(step, Compare):
            if step.op == "==":
                bound |= {t.name for t in (step.left, step.right) if isinstance(t, Var)}
            continue
        names = set().union(*map(_vars, step.args))
        if step.negated:
            later = set().union(*(_step_vars(s) for s in rule.body[k + 1:]))
            late = sorted((names - bound) & later)
            if late:
                raise rule.fail(f"the variable {late[0]} of ~{step.pred} is bound only after it, which "
                                "pyDatalog reads otherwise (not compiled)")
        else:
            bound |= names


def _divisors(rule: Rule) -> list[tuple[int, list[Term]]]:
    """Where a clause divides by something that can be zero: (k, the divisors of step k), k the
    step (``len(body)`` for the head), in body order; what pyDatalog evaluates at step k, it
    evaluates for every row of the steps before it."""
    out = []
    steps = [step.args if isinstance(step, Atom) else (step.left, step.right) for step in rule.body]
    for k, terms in enumerate([*steps, rule.head]):
        found = [s.right for t in terms for s in _subterms(t) if isinstance(s, Op) and s.op in ("/", "//", "%")
                 and not (isinstance(s.right, Const) and s.right.value not in (0, None))]
        if found:
            out.append((k, found))
    return out


def _vars(term: Term) -> set[str]:
    if isinstance(term, Var):
        return {term.name}
    if isinstance(term, Op):
        return _vars(term.left) | (_vars(term.right) if term.right is not None else set())
    return set()


# --------------------------------------------------------------------------------------------
# The program: binding patterns, world dependence, strata, types

@dataclass
class Pred:
    name: str
    arity: int
    rules: list[Rule] = field(default_factory=list)
    inputs: frozenset[int] = frozenset()      # argument positions a caller must bind (a view)
    world: bool = False                       # depends on the input facts
    runtime: bool = False                     # computed in each run (world, view, or reads one)
    optional: bool = False                    # its inputs only narrow it (every caller binds them)
    types: list[str | None] = field(default_factory=list)
    needed_by: dict[int, Rule] = field(default_factory=dict)   # the first clause needing each input

    @property
    def view(self) -> bool:
        return bool(self.inputs)


class Program:
    """The clauses of a rule set, analysed for translation (Untranslatable when they cannot be)."""

    def __init__(self, clauses: Iterable[loader.Clause], inputs: Mapping[str, Sequence[str]] = interface.INPUTS,
                 asked: Sequence[str] = ASKED):
        self.inputs = dict(inputs)
        self.asked = tuple(asked)             # what runs ask: the calls that narrowing serves
        self.preds: dict[str, Pred] = {}
        for name, cols in self.inputs.items():
            self.preds[name] = Pred(name, len(cols), world=True, types=[INT] * len(cols))
        for clause in clauses:
            rule = _Reader(clause).rule()
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
        for rule in self.all_rules():
            _numbers(rule)
            _negations(rule)
            for step in rule.body:
                if isinstance(step, Atom):
                    pred = self.preds.setdefault(step.pred, Pred(step.pred, len(step.args), types=[INT] * len(step.args)))
                    if pred.arity != len(step.args):
                        raise rule.fail(f"{step.pred} is used with {len(step.args)} and {pred.arity} arguments")
        # Strings only ever come from the rules' constants (the input facts are integers), so each
        # is coded as its rank among them: equality and order stay Python's, and every column is
        # an integer, which DuckDB hashes and compares fastest.
        self.strings = sorted({t.value for r in self.all_rules() for t in _constants(r) if isinstance(t.value, str)})
        self.codes = {text: i for i, text in enumerate(self.strings)}
        self.order = self._strata()
        self._binding()
        self._worlds()
        self._split()
        # What divides by a variable, or calls what does: computed for its callers' demand only
        # (_restrict, _demand), and per run rather than once (pyDatalog divides only when asked).
        self.dividing = _callers({name for name, pred in self.preds.items()
                                  if any(_divisors(r) for r in pred.rules)},
                                 {name: self.deps(pred) for name, pred in self.preds.items()})
        self._restrict()
        self._demand()
        self._types()

    def all_rules(self) -> Iterable[Rule]:
        for pred in self.preds.values():
            yield from pred.rules

    def deps(self, pred: Pred) -> set[str]:
        """The predicates its clauses read (a view's demand is fed at run time, not a dependency)."""
        return {s.pred for r in pred.rules for s in r.body if isinstance(s, Atom) and not s.pred.startswith(DEMAND)}

    def _strata(self) -> list[str]:
        """Predicates in dependency order; recursion is refused (pyDatalog's fixpoint is not translated)."""
        order: list[str] = []
        state: dict[str, int] = {}

        def visit(name: str, path: list[str]) -> None:
            if state.get(name) == 2:
                return
            if state.get(name) == 1:
                cycle = path[path.index(name):] + [name]
                rule = self.preds[name].rules[0]
                raise rule.fail(f"recursion ({' -> '.join(cycle)}) is not translated")
            state[name] = 1
            for dep in sorted(self.deps(self.preds[name])):
                visit(dep, path + [name])
            state[name] = 2
            order.append(name)

        for name in list(self.preds):
            visit(name, [])
        return order

    def _binding(self) -> None:
        """Which arguments each predicate needs bound, reading bodies left to right as pyDatalog does."""
        for name in self.order:
            pred = self.preds[name]
            needed: set[int] = set()
            for rule in pred.rules:
                got = self._needs(rule, pred)
                for i in got:
                    pred.needed_by.setdefault(i, rule)
                needed |= got
            pred.inputs = frozenset(needed)
            for rule in pred.rules:                 # now check each clause with those bound
                _walk(self, rule, {v for i in pred.inputs for v in _vars(rule.head[i])})
            if pred.rules and pred.rules[0].aggregate and pred.inputs:
                raise pred.rules[0].fail(f"the function {name} needs arguments bound by its caller")

    def _needs(self, rule: Rule, pred: Pred) -> set[int]:
        """Head positions that must come bound for this clause to be evaluable."""
        head_vars = {}
        for i, t in enumerate(rule.head):
            if isinstance(t, Var):
                head_vars.setdefault(t.name, i)
        pre: set[str] = set()
        while True:
            try:
                bound = _walk(self, rule, pre)
            except _Unbound as exc:
                if exc.var in head_vars and exc.var not in pre:
                    pre.add(exc.var)
                    continue
                callee = self.preds.get(exc.where.lstrip("~"))
                cause = min(callee.needed_by.items())[1] if callee is not None and callee.needed_by else None
                raise rule.fail(f"the variable {exc.var} is not bound where {exc.where} needs it"
                                + (f" ({cause.clause.where}: {cause.clause.label} takes that argument of "
                                   f"{callee.name} from its caller)" if cause is not None else ""))
            missing = set().union(*(_vars(t) for t in rule.head)) - bound
            if rule.aggregate:
                for v in (rule.aggregate[1], *rule.aggregate[2]):
                    if v.name not in bound:
                        raise rule.fail(f"the aggregated variable {v.name} is not bound by the body")
            for v in sorted(missing):
                if v not in head_vars:
                    raise rule.fail(f"the head's variable {v} is not bound by the body")
                pre.add(v)
            if not missing:
                return {head_vars[v] for v in pre if v in head_vars}

    def _split(self) -> None:
        """Split a view whose clauses are partly world-free into a static and a world part.

        ``getValue(C, V)`` is a function of the card for every card (static: 52 rows for any
        batch) but also has a clause for held ids that are not cards (world: read from
        ``holds``).  Kept whole, it would be a relation of every card of every world.  Split,
        its callers read each part: a positive call becomes one clause per part (so a clause
        with k such calls becomes 2**k, most of them reading an empty world part, skipped at run
        time), a negated call the conjunction of both parts' negations.
        """
        split: dict[str, tuple[str, str]] = {}
        for name in self.order:
            pred = self.preds[name]
            if not pred.view or not pred.world:
                continue
            static = [r for r in pred.rules if not any(isinstance(s, Atom) and self.preds[s.pred].world
                                                       for s in r.body)]
            if not static or len(static) == len(pred.rules):
                continue
            parts = (name + "$static", name + "$world")
            for part, rules in zip(parts, (static, [r for r in pred.rules if r not in static])):
                new = Pred(part, pred.arity, [Rule(r.clause, part, r.head, r.body, r.aggregate) for r in rules],
                           world=part.endswith("$world"))
                # a part whose clauses bind their own arguments is a relation, not a view
                new.inputs = frozenset().union(*(self._needs(r, new) for r in new.rules))
                self.preds[part] = new
            split[name] = parts
            args = tuple(Var(f"_A{i}") for i in range(pred.arity))
            pred.rules = [Rule(pred.rules[0].clause, name, args, [Atom(part, args)]) for part in parts]
        if not split:
            return
        for pred in self.preds.values():
            rules = []
            for rule in pred.rules:
                variants = [[]]
                for step in rule.body:
                    if isinstance(step, Atom) and step.pred in split and pred.name not in split:
                        parts = split[step.pred]
                        if step.negated:
                            variants = [v + [Atom(part, step.args, True) for part in parts] for v in variants]
                        else:
                            variants = [v + [Atom(part, step.args)] for v in variants for part in parts]
                    else:
                        variants = [v + [step] for v in variants]
                if len(variants) > 64:
                    raise rule.fail("too many calls of split views in one clause")
                rules += [Rule(rule.clause, rule.pred, rule.head, body, rule.aggregate) for body in variants]
            pred.rules = rules
        self.order = self._strata()
        for name in self.order:
            pred = self.preds[name]
            if name not in self.inputs:
                pred.world = any(self.preds[d].world for d in self.deps(pred)) or name.endswith("$world")

    def _restrict(self) -> None:
        """Narrow a relation to what its callers ask when every caller binds two arguments or more.

        pyDatalog works top-down: ``comparePart(A, P, B, P, R)`` is only ever computed for the
        hands and parts a fight compares.  Bottom-up, it would be every part of every hand
        against every part of every other hand of the world.  A predicate that every call binds
        in the same two or more arguments becomes a view on them (its *optional* inputs),
        computed only for what its callers pass, unless a run asks for it whole.  One bound
        argument is usually a hand that every caller asks about anyway, where narrowing costs
        more than it saves.  Only calls from what the engine asks count (an explanation's
        predicate that reads a relation whole makes the run compute that relation whole).  An
        argument that every call passes as a constant (``beat(G, H, 1)``) is an answer the
        callers pick, not a key: narrowing on it would make a caller that binds only the others
        (``beat`` asked whole) compute the relation whole.
        """
        used: set[str] = set()
        todo = [name for name in self.asked if name in self.preds]
        while todo:
            name = todo.pop()
            if name not in used:
                used.add(name)
                todo.extend(self.deps(self.preds[name]))
        sites: dict[str, list[frozenset[int]]] = {}
        constant: dict[str, list[frozenset[int]]] = {}
        dividing = self.dividing
        for name in reversed(self.order):               # callers before callees
            pred = self.preds[name]
            if (name not in self.inputs and pred.rules and (pred.world or name in dividing) and not pred.view
                    and name in sites and not name.endswith(("$static", "$world"))):
                common = frozenset.intersection(*sites[name]) - frozenset.intersection(*constant[name])
                if pred.rules[0].aggregate:
                    common -= {pred.arity - 1}
                # what divides is computed for what pyDatalog asks of it, not whole: a division
                # it never makes (the caller guards it) is then not made here either
                if len(common) >= (1 if name in dividing else MIN_NARROWED):
                    pred.inputs, pred.optional = common, True
            if name not in used:
                continue
            for rule in pred.rules:
                pre = {v for i in pred.inputs for v in _vars(rule.head[i])}
                for step, bound in _call_sites(rule.body, pre):
                    sites.setdefault(step.pred, []).append(bound)
                    constant.setdefault(step.pred, []).append(
                        frozenset(i for i, a in enumerate(step.args) if not _vars(a)))

    def _demand(self) -> None:
        """Turn each view into a relation over its demand (the magic-sets idea, kept exact).

        A view such as ``getValue(C, V)`` needs C bound.  Its relation is computed only for the
        values its callers can pass: ``demand$getValue(C)`` collects, from every call site, the
        steps of the caller's body that bind the call's inputs.  Fewer steps than the whole prefix
        give a larger demand, never a smaller one, so every call still finds all of its answers.
        """
        views = {name: pred for name, pred in self.preds.items() if pred.view}
        # A demand built from fewer steps than the caller's whole body before the call holds values
        # pyDatalog never passes: harmless, except to a view that divides, or calls what does
        # (``inv(X, Y) <= Y == 100 // X`` called after ``(X != 0)``): those are asked exactly what
        # the caller's body gives, step for step.
        exact = self.dividing & views.keys()
        for name, pred in views.items():
            demand = DEMAND + name
            self.preds[demand] = Pred(demand, len(pred.inputs), world=pred.world, types=[None] * len(pred.inputs))
            for rule in pred.rules:
                if pred.optional:
                    rule.full = Rule(rule.clause, rule.pred, rule.head, list(rule.body), rule.aggregate)
                rule.body.insert(0, Atom(demand, tuple(rule.head[i] for i in sorted(pred.inputs))))
        for rule in list(self.all_rules()):
            for r in (rule, rule.full):
                if r is None:
                    continue
                for k, step in enumerate(r.body):
                    if isinstance(step, Atom) and step.pred in views:
                        callee = views[step.pred]
                        args = tuple(step.args[i] for i in sorted(callee.inputs))
                        wanted = set().union(*map(_vars, args))
                        if not wanted <= _bound_before(r.body, k):
                            continue                  # an optional view called without: asked whole
                        if step.pred in exact:
                            body = list(r.body[:k])
                        else:
                            body = _binders(self, r.body[:k], wanted, narrow=callee.world)
                        r.demands.append(Rule(r.clause, DEMAND + step.pred, args, body))
        for name in self.order:                   # what must be computed for each run
            pred = self.preds[name]
            pred.runtime = (pred.world or pred.view or name in self.dividing
                            or any(self.preds[d].runtime for d in self.deps(pred)))

    def _worlds(self) -> None:
        for name in self.order:
            pred = self.preds[name]
            if name not in self.inputs:
                pred.world = any(self.preds[d].world for d in self.deps(pred))

    def _types(self) -> None:
        """Each column's type: numbers and strings never share a column (Python keeps them apart)."""
        for name in self.order:
            pred = self.preds[name]
            if name in self.inputs or not pred.rules:
                continue
            cols: list[set[str]] = [set() for _ in range(pred.arity)]
            for rule in pred.rules:
                env = _type_env(self, rule, {})
                out = [_type_of(rule, t, env) for t in rule.head]
                if rule.aggregate:
                    kind, var, _ = rule.aggregate
                    if kind == "sum_" and env.get(var.name) == STR:
                        raise rule.fail("sum_ of strings (pyDatalog adds numbers only)")
                    out.append(INT if kind == "len_" else env.get(var.name))
                for i, t in enumerate(out):
                    if t is not None:
                        cols[i].add(t)
            types = []
            for i, ts in enumerate(cols):
                if len(ts) > 1:
                    raise pred.rules[0].fail(f"argument {i + 1} of {name} mixes {' and '.join(sorted(ts))} values")
                types.append(ts.pop() if ts else INT)     # a view's inputs: numbers unless told otherwise
            pred.types = types


class _Unbound(Exception):
    def __init__(self, var: str, where: str):
        super().__init__(var)
        self.var, self.where = var, where


def _walk(program: Program, rule: Rule, pre: set[str]) -> set[str]:
    """The variables bound after the body, read left to right; _Unbound names the first that is not."""
    bound = set(pre)
    for step in rule.body:
        if isinstance(step, Compare):
            lv, rv = _vars(step.left), _vars(step.right)
            if step.op == "==" and isinstance(step.left, Var) and step.left.name not in bound and rv <= bound:
                bound.add(step.left.name)
                continue
            if step.op == "==" and isinstance(step.right, Var) and step.right.name not in bound and lv <= bound:
                bound.add(step.right.name)
                continue
            for v in sorted((lv | rv) - bound):
                raise _Unbound(v, "a comparison")
            continue
        callee = program.preds[step.pred]
        for i, arg in enumerate(step.args):
            if i in callee.inputs or isinstance(arg, Op):
                for v in sorted(_vars(arg) - bound):
                    raise _Unbound(v, f"{'~' if step.negated else ''}{step.pred}")
        if not step.negated:
            bound |= {a.name for a in step.args if isinstance(a, Var)}
    return bound


def _reading(body: list, pre: set[str]) -> Iterable[tuple[Any, set[str]]]:
    """Each step of a body with the variables bound before it, read left to right."""
    bound = set(pre)
    for step in body:
        yield step, set(bound)
        if isinstance(step, Compare):
            if step.op == "==":
                for side, other in ((step.left, step.right), (step.right, step.left)):
                    if isinstance(side, Var) and side.name not in bound and _vars(other) <= bound:
                        bound.add(side.name)
                        break
        elif not step.negated:
            bound |= {a.name for a in step.args if isinstance(a, Var)}


def _call_sites(body: list, pre: set[str]) -> list[tuple[Atom, frozenset[int]]]:
    """Each literal of a body with the argument positions bound when it is reached."""
    return [(step, frozenset(i for i, a in enumerate(step.args) if _vars(a) <= bound))
            for step, bound in _reading(body, pre) if isinstance(step, Atom)]


def _bound_before(body: list, k: int) -> set[str]:
    """The variables bound before the k-th step of a body (read left to right)."""
    for i, (_, bound) in enumerate(_reading(body, set())):
        if i == k:
            return bound
    return set()


def _binders(program: Program, prefix: list[Atom | Compare], wanted: set[str], narrow: bool = True
             ) -> list[Atom | Compare]:
    """The steps of a body prefix that bind the wanted variables (and what those steps need).

    ``narrow=False``, for a view that reads no input fact (getValue of a card: a few dozen rows
    whatever the batch): a literal that binds a wanted variable is read whole, without the steps
    that bind its other arguments, and nothing else narrows.  The demand is larger (every card
    of the part relation, not only those of the parts asked), and far cheaper to collect.
    """
    first: dict[str, int] = {}
    bound: set[str] = set()
    for k, step in enumerate(prefix):
        if isinstance(step, Compare):
            if step.op == "==":
                for side in (step.left, step.right):
                    if isinstance(side, Var) and side.name not in bound:
                        first.setdefault(side.name, k)
                        bound.add(side.name)
                        break
        elif not step.negated:
            for a in step.args:
                if isinstance(a, Var) and a.name not in bound:
                    first[a.name] = k
                    bound.add(a.name)
    keep: set[int] = set()
    todo = list(wanted)
    while todo:
        v = todo.pop()
        k = first[v]
        if k in keep:
            continue
        keep.add(k)
        step = prefix[k]
        if isinstance(step, Compare):
            other = step.right if isinstance(step.left, Var) and step.left.name == v else step.left
            todo += _vars(other)
        else:
            callee = program.preds[step.pred]
            todo += [x for i, a in enumerate(step.args) if (narrow and i in callee.inputs) or isinstance(a, Op)
                     for x in _vars(a)]
    if not narrow:
        return [prefix[k] for k in sorted(keep)]
    # A relation over variables the kept steps bind anyway only narrows the demand
    # (``getRank(A, K)`` before ``keyPart(K, O, P)``: only the parts of A's own rank).  So does
    # a view called before (``beatRank(A, B, 0)`` before ``tieBreak(A, B, R)``: only the pairs of
    # one rank): its demand is fed, and the view computed for it, before this one is fed.
    have = set().union(*(_step_vars(prefix[k]) for k in keep))
    for k, step in enumerate(prefix):
        if (k not in keep and isinstance(step, Atom) and not step.negated
                and not step.pred.startswith(DEMAND) and _step_vars(step) <= have):
            keep.add(k)
    return [prefix[k] for k in sorted(keep)]


def _step_vars(step: Atom | Compare) -> set[str]:
    if isinstance(step, Compare):
        return _vars(step.left) | _vars(step.right)
    return set().union(*map(_vars, step.args))


def _shape(rule: Rule) -> str:
    """A rule's text with its variables renamed in order of appearance (equal shapes, equal rows)."""
    names: dict[str, str] = {}

    def ren(t: Term) -> str:
        if isinstance(t, Var):
            return names.setdefault(t.name, f"V{len(names)}")
        if isinstance(t, Op):
            return f"({ren(t.left)} {t.op} {ren(t.right) if t.right is not None else ''})"
        return repr(t.value)
    body = [f"{'~' if s.negated else ''}{s.pred}({', '.join(map(ren, s.args))})" if isinstance(s, Atom)
            else f"{ren(s.left)} {s.op} {ren(s.right)}" for s in rule.body]
    return f"{rule.pred}({', '.join(map(ren, rule.head))}) <= {' & '.join(body)}"


def _type_env(program: Program, rule: Rule, pre: dict[str, str | None]) -> dict[str, str | None]:
    """Each variable's type (None: not known, e.g. bound only by a demand)."""
    env = dict(pre)
    for step in rule.body:
        if isinstance(step, Compare):
            lt, rt = _type_of(rule, step.left, env), _type_of(rule, step.right, env)
            if step.op == "==" and isinstance(step.left, Var) and env.get(step.left.name) is None:
                env[step.left.name] = rt
            elif step.op == "==" and isinstance(step.right, Var) and env.get(step.right.name) is None:
                env[step.right.name] = lt
            continue
        callee = program.preds[step.pred]
        for i, arg in enumerate(step.args):
            col = callee.types[i] if i < len(callee.types) else None
            if isinstance(arg, Var) and env.get(arg.name) is None:
                if not step.negated or arg.name in env:
                    env[arg.name] = col
            elif _mixed(_type_of(rule, arg, env), col):
                raise rule.fail(f"argument {i + 1} of {step.pred} joins a string with a number")
    for step in rule.body:
        if isinstance(step, Compare) and step.op not in ("==", "!=") and \
                _mixed(_type_of(rule, step.left, env), _type_of(rule, step.right, env)):
            raise rule.fail(f"a string is ordered against a number ({step.op})")
    return env


def _mixed(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and (a == STR) != (b == STR)


def _type_of(rule: Rule, term: Term, env: dict[str, str | None]) -> str | None:
    if isinstance(term, Const):
        v = term.value
        return STR if isinstance(v, str) else INT
    if isinstance(term, Var):
        return env.get(term.name)
    left = _type_of(rule, term.left, env)
    right = _type_of(rule, term.right, env) if term.right is not None else left
    if STR in (left, right):
        raise rule.fail("arithmetic on a string")
    return INT if left or right else None


# --------------------------------------------------------------------------------------------
# SQL

def _q(name: str) -> str:
    return f'"{name}"'


def _table(name: str) -> str:
    """A relation's SQL name.  DuckDB folds the case of identifiers, even quoted ones, and pyDatalog
    does not: ``isthree`` and ``isThree`` are two predicates.  So every character but a lower-case
    ASCII letter, a digit, ``_`` and ``$`` is spelt out (``isThree`` -> ``p_is^t``), and no two
    names meet in one table."""
    return _q("p_" + "".join(c if c in _PLAIN else f"^{c.lower()}" if "A" <= c <= "Z" else f"^^{ord(c):x};"
                             for c in name))


_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_$")


def _literal(value: Any, codes: Mapping[str, int]) -> str:
    if isinstance(value, str):
        return f"CAST({codes[value]} AS BIGINT)"
    if isinstance(value, float):
        return f"CAST({value!r} AS DOUBLE)"
    return f"CAST({int(value)} AS BIGINT)"


class _Sql:
    """Renders the clauses of a Program as SELECT statements."""

    def __init__(self, program: Program):
        self.program = program
        self.alias = 0
        self.sources: dict[str, str] = {}       # a relation read from a subquery instead (a view's new demand)

    def fresh(self) -> str:
        self.alias += 1
        return f"t{self.alias}"

    def expr(self, term: Term, env: dict[str, str], types: dict[str, str | None]) -> str:
        if isinstance(term, Const):
            return _literal(term.value, self.program.codes)
        if isinstance(term, Var):
            return env[term.name]
        if term.op == "neg":
            return f"(-{self.expr(term.left, env, types)})"
        a, b = self.expr(term.left, env, types), self.expr(term.right, env, types)
        if term.op in "+-*":
            return f"({a} {term.op} {b})"
        # Python's floor division and modulo (towards minus infinity) on integers (the only
        # numbers compiled: _numbers).  A zero divisor gives NULL, which no row survives: SQL
        # may evaluate an expression for rows that pyDatalog never reaches, and the clause's
        # witness (Compiled._witness) says whether pyDatalog would divide by zero.
        d = f"NULLIF({b}, 0)"
        mod = f"((({a}) % {d}) + {d}) % {d}"
        if term.op == "%":
            return f"({mod})"
        return f"((({a}) - {mod}) // {d})"

    def select(self, rule: Rule) -> tuple[list[str], str]:
        """One clause as SQL: its output expressions and its ``FROM … WHERE …``."""
        program = self.program
        env: dict[str, str] = {}
        types = _type_env(program, rule, {})
        froms: list[str] = []
        where: list[str] = []
        w = None
        if program.preds[rule.pred].world:
            # The world comes from the first relation that has one; when a negation needs it
            # first, every world is enumerated.
            first = next((s for s in rule.body if isinstance(s, Atom) and program.preds[s.pred].world), None)
            if first is None or first.negated:
                a = self.fresh()
                froms.append(f"{WORLDS} {a}")
                w = f"{a}.w"
        for step in rule.body:
            if isinstance(step, Compare):
                if step.op == "==" and isinstance(step.left, Var) and step.left.name not in env:
                    env[step.left.name] = self.expr(step.right, env, types)
                elif step.op == "==" and isinstance(step.right, Var) and step.right.name not in env:
                    env[step.right.name] = self.expr(step.left, env, types)
                else:
                    where.append(self.compare(step, env, types))
                continue
            callee = program.preds[step.pred]
            a = self.fresh()
            conds, binds = self._match(step, a, env, types)
            if callee.world:
                if w is None:
                    w = f"{a}.w"
                else:
                    conds.insert(0, f"{a}.w = {w}")
            if step.negated:
                where.append(f"NOT EXISTS (SELECT 1 FROM {_table(step.pred)} {a}{_where(conds)})")
            else:
                froms.append(f"{self.sources.get(step.pred) or _table(step.pred)} {a}")
                where += conds
                env.update(binds)
        outs = [self.expr(t, env, types) for t in rule.head]
        if rule.aggregate:
            outs += [env[v.name] for v in (rule.aggregate[1], *rule.aggregate[2])]
        if program.preds[rule.pred].world:
            outs.insert(0, w)
        return outs, (" FROM " + ", ".join(froms) if froms else "") + _where(where)

    def _match(self, step: Atom, a: str, env: dict[str, str], types) -> tuple[list[str], dict[str, str]]:
        conds: list[str] = []
        binds: dict[str, str] = {}
        for i, arg in enumerate(step.args):
            col = f"{a}.a{i}"
            if isinstance(arg, Var) and arg.name not in env and arg.name not in binds:
                binds[arg.name] = col
            elif isinstance(arg, Var) and arg.name in binds:
                conds.append(f"{col} = {binds[arg.name]}")
            else:
                conds.append(f"{col} = {self.expr(arg, env, types)}")
        return conds, binds

    def compare(self, step: Compare, env: dict[str, str], types) -> str:
        lt, rt = _term_type(step.left, types), _term_type(step.right, types)
        if _mixed(lt, rt):                           # Python: a string never equals a number
            return "FALSE" if step.op == "==" else "TRUE"
        op = {"==": "=", "!=": "<>"}.get(step.op, step.op)
        return f"({self.expr(step.left, env, types)} {op} {self.expr(step.right, env, types)})"

    def materialise(self, pred: Pred, empty: set[str] = frozenset(), rules: list[Rule] | None = None) -> str:
        """The SELECT that fills a predicate's relation.

        A clause with a positive literal on a relation known to be ``empty`` in this run gives
        nothing and is left out.
        """
        cols = (["w"] if pred.world else []) + [f"a{i}" for i in range(pred.arity)]
        parts: list[str] = []
        kept: list[Rule] = []
        rules = pred.rules if rules is None else rules
        for rule in rules:
            if any(isinstance(s, Atom) and not s.negated and s.pred in empty for s in rule.body):
                continue
            outs, body = self.select(rule)
            parts.append("SELECT " + (", ".join(outs) or "1") + body)
            kept.append(rule)
        if parts and rules[0].aggregate:
            kind, var, each = rules[0].aggregate
            keys = cols[:-1]
            fn = {"len_": "count(DISTINCT v)", "min_": "min(v)", "max_": "max(v)",
                  "sum_": "CAST(sum(v) AS BIGINT)"}[kind]    # past 64 bits: an error, never an answer
            if kind == "len_" and len(kept) == 1 and not _projects(kept[0], {var.name}):
                fn = "count(*)"                       # no (keys, value) row twice: nothing to drop
            extra = [f"e{i}" for i in range(len(each))]
            inner = f"SELECT {'DISTINCT ' if kind == 'sum_' else ''}* FROM ({' UNION ALL '.join(parts)}) " \
                    f"s({', '.join(keys + ['v'] + extra)})"
            return f"SELECT {', '.join(keys)}, {fn} AS {cols[-1]} FROM ({inner}) g GROUP BY {', '.join(keys)}"
        if not parts:
            types = ([INT] if pred.world else []) + [t or INT for t in pred.types]
            return "SELECT " + ", ".join(f"CAST(NULL AS {t}) AS {c}" for t, c in zip(types, cols)) + " WHERE FALSE"
        if not cols:                                  # a proposition: true or not
            return f"SELECT DISTINCT 1 AS a_ FROM ({' UNION '.join(parts)}) u"
        if len(parts) == 1:                           # a relation is a set: one clause can repeat rows
            distinct = "DISTINCT " if _projects(kept[0]) else ""
            return f"SELECT {distinct}* FROM ({parts[0]}) u({', '.join(cols)})"
        if _disjoint(kept):                           # no row from two clauses: drop repeats within each
            parts = [f"SELECT DISTINCT * FROM ({part}) d" if _projects(rule) else part
                     for part, rule in zip(parts, kept)]
            return f"SELECT * FROM ({' UNION ALL '.join(parts)}) u({', '.join(cols)})"
        return f"SELECT * FROM ({' UNION '.join(parts)}) u({', '.join(cols)})"


def _projects(rule: Rule, also: set[str] = frozenset()) -> bool:
    """Whether a clause can give a row twice: a variable of a positive literal is not in its head
    (every relation, the input facts included, is a set; an assignment is a function of the rest).
    ``also``: variables kept besides the head's (an aggregate's value)."""
    head = set().union(also, *map(_vars, rule.head))
    return any(isinstance(s, Atom) and not s.negated and not set().union(*map(_vars, s.args)) <= head
               for s in rule.body)


def _disjoint(rules: list[Rule]) -> bool:
    """Whether no row can come from two of the clauses: every two heads have different constants
    at some argument (``part(S, 'all', C)`` and ``part(S, 'top', C)``)."""
    for i, a in enumerate(rules):
        for b in rules[i + 1:]:
            if not any(isinstance(x, Const) and isinstance(y, Const) and type(x.value) is type(y.value)
                       and x.value != y.value for x, y in zip(a.head, b.head)):
                return False
    return True


def _where(conds: list[str]) -> str:
    return " WHERE " + " AND ".join(conds) if conds else ""


def _term_type(term: Term, types: dict[str, str | None]) -> str | None:
    if isinstance(term, Const):
        return STR if isinstance(term.value, str) else INT
    if isinstance(term, Var):
        return types.get(term.name)
    a = _term_type(term.left, types)
    b = _term_type(term.right, types) if term.right is not None else a
    return a or b


# --------------------------------------------------------------------------------------------
# Running on DuckDB


def joint_program(rulesets: Sequence[Sequence[loader.Clause]]) -> tuple[Program, list[dict[str, str]]]:
    """Several rule sets as one program, for one run that answers each (``poker diff``'s tables).

    The first rule set's clauses come as they are.  Of every other, only the predicates that
    differ are added, renamed ``r<k>$name`` (no rule file can spell ``$``): a predicate differs
    when its clauses (labels and text, as parsed) are not the first rule set's, or when one of
    the predicates it calls differs.  The rest is the same relation in both rule sets and is
    computed once: for ``standard`` and ``eventb`` every predicate of a hand's shape (isFlush,
    isStraight, the parts and their keys), and only getRank, keyPart and handKey twice.
    Returns the program and, for each rule set, the name of each of its predicates in it.
    """
    import copy

    def table(clauses: Sequence[loader.Clause]) -> tuple[dict[str, list[tuple[str, str]]], dict[str, set[str]]]:
        own: dict[str, list[tuple[str, str]]] = {}
        calls: dict[str, set[str]] = {}
        for c in clauses:
            own.setdefault(c.head, []).append((c.label, ast.dump(c.node)))
            calls.setdefault(c.head, set()).update(_called(c.node))
        return own, calls

    first = list(rulesets[0])
    own0, _ = table(first)
    clauses, names, asked = list(first), [{}], list(ASKED)
    for k, ruleset in enumerate(rulesets[1:], 1):
        own, calls = table(ruleset)
        differ = _callers({p for p in set(own) | set(own0) if own.get(p) != own0.get(p)}, calls)
        rename = {p: f"r{k}${p}" for p in differ}
        for c in ruleset:
            if c.head in rename:
                node = _Rename(rename).visit(copy.deepcopy(c.node))
                clauses.append(loader.Clause(c.label, c.path, c.line, rename[c.head], node, c.text))
        names.append(rename)
        asked += [rename[a] for a in ASKED if a in rename]
    return Program(clauses, asked=asked), names


def _callers(found: set[str], calls: Mapping[str, set[str]]) -> set[str]:
    """``found`` and every name that calls one of them, directly or through others (``calls``:
    each name's callees)."""
    found = set(found)
    grew = True
    while grew:
        grew = False
        for name, called in calls.items():
            if name not in found and called & found:
                found.add(name)
                grew = True
    return found


def _called(node: ast.AST) -> set[str]:
    """The predicates and functions a clause names (its head's too)."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id not in loader.AGGREGATES:
            out.add(n.func.id)
        elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
            out.add(n.value.id)
    return out


class _Rename(ast.NodeTransformer):
    """Renames predicates and functions in a clause's tree (never variables or aggregates)."""

    def __init__(self, names: Mapping[str, str]):
        self.names = names

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in self.names:
            node.func = ast.Name(self.names[node.func.id], ast.Load())
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id in self.names:
            node.value = ast.Name(self.names[node.value.id], ast.Load())
        return node


def cores() -> int:
    """The cores this process may run on: how many DuckDB databases of one thread each run side
    by side (the five-card table, `poker judge`).  DuckDB's own threads gain little on these many
    small joins (a run of 20,000 fights: 1.36 s on two threads, 1.38 s on one, for 1.7 s of CPU
    against 1.4), while separate databases on separate worlds scale with the cores."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


WORKERS_ENV = "POKER_WORKERS"   # how many databases side by side (1: one, with DuckDB's own threads)
DEFAULT_THREADS: int | None = None   # a database's threads when not told (None: DuckDB's, one a core);
                                     # a worker process of a batch sets 1: its siblings use the other cores


def worker_count(most: int) -> int:
    """How many DuckDB databases run side by side: ``$POKER_WORKERS``, else one a core, at most
    ``most``.  A bad ``$POKER_WORKERS`` raises ValueError naming it."""
    text = os.environ.get(WORKERS_ENV, "").strip()
    if not text:
        return min(cores(), most)
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 64):
        raise ValueError(f"${WORKERS_ENV}: {text[:40]!r} is not a number of workers (1 to 64)")
    return int(text)


@dataclass
class Worlds:
    """The input facts of a run, as SELECTs that lead each row with its world: ``declared``
    (world, set), ``holds`` (world, set, position, card), ``seat`` (world, table, set), and
    ``worlds`` (every world, also those without a set).  CompiledEvaluator fills them from a
    batch; `poker check` has DuckDB generate the 2,598,960 hands itself."""
    sql: dict[str, str] = field(default_factory=dict)


class Compiled:
    """A rule set compiled to SQL, with its own in-memory DuckDB database."""

    def __init__(self, clauses: Iterable[loader.Clause] = (), threads: int | None = None,
                 program: Program | None = None):
        import duckdb
        self.program = program if program is not None else Program(list(clauses))
        self._con = duckdb.connect(":memory:")
        threads = threads or DEFAULT_THREADS
        if threads:
            self._con.execute(f"SET threads = {int(threads)}")
        self._con.execute("SET preserve_insertion_order = false")   # relations are sets
        # DuckDB draws a progress bar on stdout for a statement past two seconds: never into a
        # command's output (poker judge writes its results to stdout).
        self._con.execute("SET enable_progress_bar = false")
        # Never spill to disk (a runaway rule set would fill it, into the current directory):
        # past DuckDB's memory limit (80% of RAM) a run stops with an error instead.
        self._con.execute("SET temp_directory = ''")
        # Joins follow the clause's literals in order, as pyDatalog's do: rule authors put the
        # selective literals first, and DuckDB's estimates (on relations it has never seen) do
        # worse, up to ten times slower on isFour and handKey.
        self._con.execute("SET disabled_optimizers = 'join_order'")
        self._lock = threading.RLock()
        self._stopped = False                   # interrupted: no statement of this run starts
        self._running = False                   # in run(): what the flag stops
        limits.register(self)                 # a time budget that runs out interrupts DuckDB
        self._static: set[str] = set()
        self._views: set[str] = set()
        self._sql = _Sql(self.program)
        self._version: dict[str, int] = {}        # per run: how often each relation changed
        self._built: dict[str, int] = {}          # per run: a view's demand version when it was made
        self._demand_rows: dict[str, int] = {}           # per run: the rows of each demand relation
        self._done: dict[str, int] = {}           # per run: how many of its demand's rows a view answers
        self._rank = {name: i for i, name in enumerate(self.program.order)}
        self._closures: dict[tuple[str, ...], tuple[str, ...]] = {}

    def close(self) -> None:
        self._con.close()

    def set_threads(self, threads: int) -> int:
        """How many threads DuckDB may use from now on (one, beside worker processes that keep
        every core busy: more only contend); how many it could before."""
        with self._lock:
            (before,), = self._con.execute("SELECT current_setting('threads')").fetchall()
            self._con.execute(f"SET threads = {int(threads)}")
            return int(before)

    def interrupt(self) -> None:
        """Stop the run on this connection (from any thread): engine.limits calls it when a time
        budget or the memory ceiling is passed, a judge's workers when the batch stops.  DuckDB
        stops the query in flight; the statements after it are not started (until the next run)."""
        self._stopped = True
        self._con.interrupt()

    def _needed(self, asked: Iterable[str]) -> list[str]:
        """The relations the asked ones read, dependencies first."""
        preds = self.program.preds
        order: list[str] = []
        seen: set[str] = set()

        def visit(name: str) -> None:
            if name in seen or name not in preds:
                return
            seen.add(name)
            for dep in sorted(self.program.deps(preds[name])):
                visit(dep)
            order.append(name)

        for name in asked:
            visit(name)
        return order

    def _create_static(self, names: list[str]) -> None:
        for name in names:
            pred = self.program.preds[name]
            if name not in self._static and not pred.runtime:      # nothing that divides: see dividing
                self._run(f"CREATE TABLE {_table(name)} AS {self._sql.materialise(pred)}")
                self._static.add(name)

    def _run(self, sql: str, params: Sequence[Any] | None = None):
        import duckdb
        if self._stopped and self._running:
            raise duckdb.InterruptException("INTERRUPT Error: Interrupted!")
        try:
            return self._con.execute(sql, params) if params is not None else self._con.execute(sql)
        except duckdb.OutOfMemoryException:
            raise EvaluationError("the rules ran out of memory (DuckDB's limit, 80% of RAM)") from None
        except duckdb.OutOfRangeException as exc:
            raise EvaluationError(f"integer overflow in the rules: {str(exc).splitlines()[0]}") from None
        except (duckdb.InvalidInputException, duckdb.ConversionException) as exc:
            msg = str(exc).splitlines()[0]
            if "division by zero" in msg:
                raise EvaluationError("division by zero in the rules") from None
            raise EvaluationError(msg) from None

    def _rows(self, name: str) -> list[tuple]:
        """A relation's rows in order (strings are coded by their order), with its strings decoded."""
        pred = self.program.preds.get(name)
        if pred is None:
            return []
        rows = self._run(f"SELECT * FROM {_table(name)} ORDER BY ALL").fetchall()
        texts = [i + pred.world for i, t in enumerate(pred.types) if t == STR]
        if texts:
            strings = self.program.strings
            rows = [tuple(strings[v] if i in texts else v for i, v in enumerate(row)) for row in rows]
        return rows

    def create(self, name: str, select: str) -> None:
        """A helper table of the caller's in this database (``x_`` + name), e.g. every hand."""
        self._run(f'CREATE OR REPLACE TABLE "x_{name}" AS {select}')

    def query(self, sql: str) -> list[tuple]:
        """Rows of a SELECT over the helper tables (``x_…``) of this database."""
        with self._lock:
            return self._run(sql).fetchall()

    def create_columns(self, name: str, columns: Mapping[str, Sequence[int]]) -> None:
        """A helper table of integer columns (``x_`` + name), handed to DuckDB as numpy arrays
        (no text, no Python row per value: fast for millions)."""
        import numpy as np
        arrays = {c: np.asarray(v, dtype=np.int64) for c, v in columns.items()}
        source = f"x_{name}$source"
        with self._lock:
            self._con.register(source, arrays)
            try:
                self._run(f'CREATE OR REPLACE TABLE "x_{name}" AS SELECT * FROM "{source}"')
            finally:
                self._con.unregister(source)

    def run(self, worlds: Worlds, asked: Sequence[str], reduce: Mapping[str, str] | None = None,
            compute: Sequence[str] = (), seeds: Mapping[str, Iterable[tuple]] | None = None
            ) -> dict[str, list[tuple]]:
        """Evaluate the asked predicates in every world at once: rows led by their world.

        ``reduce`` maps names to SELECTs run over the results before they are dropped (``{p}``
        stands for the relation of the predicate p): answers too many to fetch, counted in place.
        Strings in reduced rows stay coded.  ``compute`` names relations that are computed for
        ``reduce`` but not fetched.  ``seeds`` maps an asked view to the values of its inputs
        it is asked for, the same in every world (``beat`` for hands 1 and 2): it is computed for
        those, and for what its callers in the run ask, rather than whole.
        """
        with self._lock:
            self._stopped = False
            names = self._needed([*asked, *compute])
            seeded = self._seeds(seeds or {})
            self._create_static(names)
            created: list[str] = []
            self._running = True
            try:
                for name, args in self.program.inputs.items():
                    cols = ["w", *(f"a{i}" for i in range(len(args)))]
                    sql = worlds.sql.get(name) or f"SELECT {', '.join(['0'] * len(cols))} WHERE FALSE"
                    created.append(_table(name))
                    self._run(f"CREATE OR REPLACE TABLE {_table(name)} AS SELECT * FROM ({sql}) "
                              f"x({', '.join(cols)})")
                created.append(WORLDS)
                self._run(f"CREATE OR REPLACE TABLE {WORLDS} AS " + (
                    worlds.sql.get("worlds") or f"SELECT DISTINCT w FROM {_table(interface.DECLARED)}"))
                made: set[str] = set()
                fed: dict[str, tuple[int, ...]] = {}
                self._version = {}
                self._built = {}
                self._demand_rows = {}
                self._done = {}
                whole = self._whole(names, [n for n in (*asked, *compute) if n not in seeded])
                uses = self._uses(names, whole)
                empty: set[str] = set()
                for name in names:
                    pred = self.program.preds[name]
                    if pred.view and name not in whole:
                        demand = self.program.preds[DEMAND + name]
                        cols = (["w BIGINT"] if demand.world else []) + [f"a{i} BIGINT" for i in range(demand.arity)]
                        created += [_table(demand.name), _table(name)]
                        self._run(f"CREATE OR REPLACE TABLE {_table(demand.name)} ({', '.join(cols)})")
                for name in names:
                    pred = self.program.preds[name]
                    if name in seeded and name not in whole:
                        self._seed(name, seeded[name])
                        self._compute([name], made, fed, empty, whole)
                        continue
                    if name in self.program.inputs or not pred.runtime or (pred.view and name not in whole):
                        continue
                    rules = self._rules(pred, whole)
                    self._feed(rules, made, fed, empty, whole)
                    created.append(_table(name))
                    # A relation read by one clause only is a view: DuckDB plans it into its reader.
                    kind = "VIEW" if uses.get(name, 0) == 1 and name not in asked and name not in compute else "TABLE"
                    if kind == "VIEW":
                        self._views.add(_table(name))
                    self._create(kind, name, pred, empty, rules)
                out = {name: self._rows(name) for name in asked}
                tables = {name: _table(name) for name in self.program.preds}
                for key, sql in (reduce or {}).items():
                    out[key] = self._run(sql.format_map(tables)).fetchall()
                return out
            finally:
                self._running = False
                if created:
                    self._drop(list(reversed(created)))
                self._views.clear()

    def _drop(self, tables: list[str]) -> None:
        """Drop a run's relations, in one call (DuckDB runs the statements in turn).  An interrupt
        meant for the run can land on this call instead (it came between two statements): it is
        made again; and if it still fails, each relation is dropped by the kind the catalog says
        it is, so that no run leaves a table where the next one makes a view."""
        import duckdb
        sql = "; ".join(f"DROP {'VIEW' if t in self._views else 'TABLE'} IF EXISTS {t}" for t in tables)
        for _ in range(3):
            try:
                self._con.execute(sql)
                return
            except duckdb.InterruptException:
                continue
            except duckdb.Error:
                break
        views = {r[0] for r in self._con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
        for t in tables:
            with contextlib.suppress(duckdb.Error):
                self._con.execute(f"DROP {'VIEW' if t.strip(chr(34)) in views else 'TABLE'} IF EXISTS {t}")

    def _seeds(self, seeds: Mapping[str, Iterable[tuple]]) -> dict[str, str]:
        """The seeded views of a run, each with its inputs' values as SQL VALUES (a view whose
        values the rules never use as constants, e.g. a string they do not know, is not seeded:
        it is computed as asked without)."""
        out: dict[str, str] = {}
        for name, values in seeds.items():
            pred = self.program.preds.get(name)
            values = list(values)
            if pred is None or not pred.view or not values or any(len(v) != len(pred.inputs) for v in values):
                continue
            try:
                rows = ["(" + ", ".join(_literal(x, self.program.codes) for x in v) + ")" for v in values]
            except (KeyError, TypeError, ValueError):
                continue
            out[name] = ", ".join(rows)
        return out

    def _seed(self, name: str, values: str) -> None:
        """A view's demand, first rows: the seeded inputs in every world."""
        demand = self.program.preds[DEMAND + name]
        cols = ", ".join(f"c{i}" for i in range(demand.arity))
        source = f"SELECT w.w, {cols} FROM {WORLDS} w, (VALUES {values}) v({cols})" if demand.world \
            else f"SELECT {cols} FROM (VALUES {values}) v({cols})"
        added = self._run(f"INSERT INTO {_table(demand.name)} {source}").fetchone()[0]
        self._version[demand.name] = self._version.get(demand.name, 0) + 1
        self._demand_rows[demand.name] = self._demand_rows.get(demand.name, 0) + added

    def _rules(self, pred: Pred, whole: set[str]) -> list[Rule]:
        """The clauses that compute a relation in this run (an optional view asked whole: unnarrowed)."""
        return [r.full for r in pred.rules] if pred.optional and pred.name in whole else pred.rules

    def _whole(self, names: list[str], roots: Sequence[str]) -> set[str]:
        """The optional views computed whole in this run: the asked ones, and those that a whole
        relation calls without binding their inputs."""
        preds = self.program.preds
        whole = {n for n in roots if n in preds and preds[n].optional}
        todo = [n for n in names if not preds[n].view] + sorted(whole)
        while todo:
            pred = preds[todo.pop()]
            for rule in self._rules(pred, whole):
                for step, bound in _call_sites(rule.body, set()):
                    callee = preds[step.pred]
                    if callee.optional and step.pred not in whole and not callee.inputs <= bound:
                        whole.add(step.pred)
                        todo.append(step.pred)
        return whole

    def _uses(self, names: list[str], whole: set[str]) -> dict[str, int]:
        """How many body literals (and demands) read each relation, among the needed clauses."""
        count: dict[str, int] = {}
        for name in names:
            for rule in self._rules(self.program.preds[name], whole):
                for r in [rule, *rule.demands]:
                    for step in r.body:
                        if isinstance(step, Atom):
                            count[step.pred] = count.get(step.pred, 0) + 1
        return count

    def _witness(self, rules: list[Rule], empty: set[str] = frozenset()) -> None:
        """Raise EvaluationError where pyDatalog would divide by zero in these clauses.

        A division is evaluated by pyDatalog for every row of the steps before it, left to
        right; SQL may evaluate it for more rows or fewer (a later filter first), so the
        division itself gives NULL for a zero divisor and this query asks the question exactly:
        is there a row of the steps before the division where the divisor is zero?  A clause
        that reads a relation known to be empty in this run is not evaluated at all.
        """
        for rule in rules:
            for k, divisors in _divisors(rule):
                prefix = rule.body[:k]
                if any(isinstance(s, Atom) and not s.negated and s.pred in empty for s in prefix):
                    continue
                probe = Rule(rule.clause, rule.pred, tuple(divisors), list(prefix))
                outs, body = self._sql.select(probe)
                cols = [f"d{i}" for i in range(len(outs))]
                zero = " OR ".join(f"{c} = 0" for c in cols[len(outs) - len(divisors):])
                if self._run(f"SELECT 1 FROM (SELECT {', '.join(outs)}{body}) x({', '.join(cols)}) "
                             f"WHERE {zero} LIMIT 1").fetchall():
                    raise EvaluationError(f"division by zero in the rules ({rule.clause.where}: {rule.clause.label})")

    def _create(self, kind: str, name: str, pred: Pred, empty: set[str], rules: list[Rule]) -> None:
        """Create a relation; note it when it is empty (the clauses that read it positively are skipped)."""
        self._witness(rules, empty)
        made = self._run(f"CREATE OR REPLACE {kind} {_table(name)} AS {self._sql.materialise(pred, empty, rules)}")
        self._version[name] = self._version.get(name, 0) + 1
        if kind == "TABLE" and made.fetchone()[0] == 0:        # CREATE TABLE AS gives its row count
            empty.add(name)
        else:
            empty.discard(name)

    def _feed(self, rules: list[Rule], made: set[str], fed: dict[str, tuple[int, ...]], empty: set[str],
              whole: set[str]) -> None:
        """Before clauses run: add what their calls of views ask for, and compute the views anew.

        Every demand of the clauses is fed before any view is computed, so that a view called
        twice (``partSize(A, P)`` and ``partSize(B, Q)``) is computed once, for both, and so are
        the views it calls in turn; a view is computed early only when a later demand reads it.
        A demand gives the same rows as the last time it was fed (``fed``: its shape, variables
        renamed, with the versions then of every relation it reads, directly or through DuckDB
        views) when none of those relations changed since: it is not fed again, as it would add
        nothing.  The first rows of a demand need no ``EXCEPT`` (it is empty until then).  A view
        computed whole needs no demand.  The demands of one relation fed in a row go as one
        INSERT (a statement costs DuckDB a millisecond or more to plan, whatever its rows), unless
        one reads what another adds.
        """
        pending: list[str] = []
        queued: dict[str, list[tuple[list[str], str]]] = {}   # demand relation -> SELECTs not yet run
        for rule in rules:
            for demand in rule.demands:
                view = demand.pred[len(DEMAND):]
                if view in whole:
                    continue
                reads = self._reads(demand)
                if any(r in queued for r in reads):
                    self._insert(queued)               # it reads what is queued: add that first
                if any(v in reads for v in pending):
                    self._insert(queued)
                    self._compute(pending, made, fed, empty, whole)
                    pending = []
                shape = _shape(demand)
                stamp = tuple(self._version.get(name, 0) for name in reads)
                if view in made and fed.get(shape) == stamp:
                    continue
                fed[shape] = stamp
                queued.setdefault(demand.pred, []).append(self._sql.select(demand))
                if view not in pending:
                    pending.append(view)
        self._insert(queued)
        self._compute(pending, made, fed, empty, whole)

    def _insert(self, queued: dict[str, list[tuple[list[str], str]]]) -> None:
        """Add the queued rows to their demand relations, one statement a relation; emptied."""
        for name, selects in queued.items():
            table = _table(name)
            if len(selects) == 1:
                (outs, body), = selects
                rows = f"SELECT DISTINCT {', '.join(outs)}{body}"
            else:
                rows = " UNION ".join(f"SELECT {', '.join(outs)}{body}" for outs, body in selects)
            if self._version.get(name, 0) == 0:         # created empty for this run
                sql = f"INSERT INTO {table} {rows}"
            else:
                sql = f"INSERT INTO {table} SELECT * FROM ({rows}) EXCEPT SELECT * FROM {table}"
            added = self._run(sql).fetchone()[0]
            if added:
                self._version[name] = self._version.get(name, 0) + 1
                self._demand_rows[name] = self._demand_rows.get(name, 0) + added
        queued.clear()

    def _compute(self, views: list[str], made: set[str], fed: dict[str, tuple[int, ...]], empty: set[str],
                 whole: set[str]) -> None:
        """Compute views for their demand, callers first (a caller feeds its callees' demand, and
        they are computed with it); a view whose demand has not grown since it was made is kept."""
        rank = self._rank
        for view in sorted(views, key=lambda v: -rank[v]):
            demand = self._version.get(DEMAND + view, 0)
            if view in made and self._built.get(view) == demand:
                continue
            pred = self.program.preds[view]
            self._feed(pred.rules, made, fed, empty, whole)
            rows = self._demand_rows.get(DEMAND + view, 0)
            if view in made:
                self._extend(view, pred, empty, self._done.get(view, 0))
            else:
                self._create("TABLE", view, pred, empty, pred.rules)
            self._built[view] = self._version.get(DEMAND + view, 0)
            self._done[view] = rows
            made.add(view)

    def _extend(self, view: str, pred: Pred, empty: set[str], done: int) -> None:
        """A view made earlier in the run, its demand grown since: answer the new demand rows only.

        A view's rows for one demand row are all of its answers for those inputs, whatever else is
        asked, and rows for different inputs differ: so the rows for the new demand (rows ``done``
        on of the demand relation: DuckDB numbers appended rows after the old ones, ``rowid``)
        are added, and the old ones stay, as a recomputation would give them.  A demand that grows
        in waves (two rule sets' handKey asking one shared partKey) costs what it adds.
        """
        table = _table(DEMAND + view)
        self._sql.sources = {DEMAND + view: f"(SELECT * FROM {table} WHERE rowid >= {int(done)})"}
        try:
            self._witness(pred.rules, empty)
            sql = self._sql.materialise(pred, empty, pred.rules)
        finally:
            self._sql.sources = {}
        if self._run(f"INSERT INTO {_table(view)} {sql}").fetchone()[0]:
            self._version[view] = self._version.get(view, 0) + 1
            empty.discard(view)

    def _reads(self, rule: Rule) -> tuple[str, ...]:
        """Every relation a clause's body reads, directly or through the relations it reads."""
        key = tuple(sorted({s.pred for s in rule.body if isinstance(s, Atom)}))
        found = self._closures.get(key)
        if found is None:
            found = self._closures[key] = tuple(sorted(set(key) | set(self._needed(key))))
        return found


class CompiledEvaluator(exact.Exact):
    """The Evaluator protocol over a Compiled rule set: every world of a batch in one run (where a
    run fails, see :class:`engine.evaluators.exact.Exact`).

    The sets go to DuckDB as one row each, their cards packed six bits a card into one integer
    (ids 0..63, up to ten cards; any other set is passed card by card): a batch of 20,000 fights
    is a few hundred thousand numbers, unpacked by SQL into ``declared``, ``holds`` and ``seat``.
    """

    name = "compiled"
    fault = EvaluationError

    def __init__(self, clauses: Iterable[loader.Clause] = (), threads: int | None = None,
                 program: Program | None = None, lazy: bool = False):
        self._args = (program if program is not None else Program(list(clauses)), threads)
        self._compiled: Compiled | None = None
        self._lock = threading.Lock()
        if not lazy:
            self.compiled

    @property
    def compiled(self) -> Compiled:
        """The DuckDB database (``lazy``: opened on first use, by the thread that uses it)."""
        if self._compiled is None:
            with self._lock:
                if self._compiled is None:
                    program, threads = self._args
                    self._compiled = Compiled(threads=threads, program=program)
        return self._compiled

    def interrupt(self) -> None:
        """Stop the query running, if the database is open."""
        if self._compiled is not None:
            self._compiled.interrupt()

    def _run(self, worlds: Sequence[Any], names: list[str], seeds: Mapping[str, Iterable[tuple]] | None = None
             ) -> dict[str, list[tuple]]:
        db = self.compiled
        with db._lock:
            sets, loose = _packed(worlds)
            batch = Worlds(sql={"worlds": f"SELECT range AS w FROM range({len(worlds)})"})
            if len(sets["w"]):                  # (worlds of chips alone, hand histories': no cards)
                db.create_columns("sets", sets)
                db.create_columns("loose", loose)
                batch.sql.update({
                    interface.DECLARED: 'SELECT w, s FROM "x_sets"',
                    interface.HOLDS: 'SELECT w, s, i, (p >> (6 * i)) & 63 FROM "x_sets", range(10) r(i) WHERE i < n '
                                     'UNION ALL SELECT w, s, i, c FROM "x_loose"',
                    interface.SEAT: f'SELECT w, {TABLE_ID}, s FROM "x_sets" WHERE seated = 1',
                    interface.BOARD: f'SELECT w, {TABLE_ID}, s FROM "x_sets" WHERE role = 1',
                    interface.GAME: f'SELECT w, {TABLE_ID}, g FROM "x_sets" WHERE role = 1',
                    interface.CANDIDATE: 'SELECT w, owner, s FROM "x_sets" WHERE role = 2'})
            for name, columns in _chips(worlds).items():
                db.create_columns(f"in_{name}", columns)
                batch.sql[name] = f'SELECT * FROM "x_in_{name}"'
            return db.run(batch, names, seeds=seeds)

    @property
    def program(self) -> Program:
        return self._args[0]

    def _answers(self, worlds: Sequence[Any], asked: Sequence[Any]) -> list[dict]:
        names = list(dict.fromkeys(a.pred for a in asked))
        rows = self._run(worlds, names, self._bound_views(asked)) if worlds else {}
        out: list[dict] = [{} for _ in worlds]
        for ask in asked:
            pred = self.compiled.program.preds.get(ask.pred)
            keep = ask.matcher()
            if pred is not None and not pred.world:          # the same rows in every world
                kept = ordered(r for r in rows[ask.pred] if keep is None or keep(r))
                for answers in out:
                    answers[ask] = list(kept)
                continue
            per: list[list[tuple]] = [[] for _ in worlds]
            for row in rows.get(ask.pred, []):               # sorted: each world's rows in order
                if keep is None or keep(row[1:]):
                    per[row[0]].append(row[1:])
            for answers, kept in zip(out, per):
                answers[ask] = kept
        return out

    def _bound_views(self, asked: Sequence[Any]) -> dict[str, set[tuple]]:
        """The views asked only with their inputs bound (beat(1, 2, R)): computed for those."""
        seeds: dict[str, set[tuple]] = {}
        free: set[str] = set()
        for ask in asked:
            pred = self.compiled.program.preds.get(ask.pred)
            if pred is None or not pred.view:
                continue
            values = tuple(ask.args[i] for i in sorted(pred.inputs))
            if None in values:
                free.add(ask.pred)
            else:
                seeds.setdefault(ask.pred, set()).add(values)
        return {name: v for name, v in seeds.items() if name not in free}


def _chips(worlds: Sequence[Any]) -> dict[str, dict[str, Sequence[int]]]:
    """The input facts that are not cards (World.chips), a column table each: world, arguments."""
    rows: dict[str, list[tuple[int, ...]]] = {}
    for w, world in enumerate(worlds):
        for name, row in getattr(world, "chips", ()):
            found = rows.get(name)
            if found is None:
                found = rows[name] = []
            found.append((w, *row))
    import numpy as np
    out: dict[str, dict[str, Sequence[int]]] = {}
    for name, found in rows.items():
        table = np.array(found, dtype=np.int64)
        out[name] = {c: table[:, j] for j, c in enumerate(["w", *(f"a{i}" for i in range(table.shape[1] - 1))])}
    return out


def _packed(worlds: Sequence[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The sets of a batch as columns: one row a set (its world, id, role: 0 a hand or player,
    1 a board, 2 a player's five; owner: the player of a five; game: of a board; whether seated)
    and its cards packed six bits a card into one integer (n cards, ids 0..63, n <= 10).  Any
    other set has n = 0 and goes card by card into the second table (world, set, position, card)."""
    import numpy as np
    rows: list[tuple[int, ...]] = []
    hands: list[tuple[int, ...]] = []
    for w, world in enumerate(worlds):
        seated, game = int(world.seated), world.game
        for s, (role, owner, hand) in enumerate(world.sets(), 1):
            rows.append((w, s, role, owner, game if role == 1 else 0, seated if role == 0 else 0))
            hands.append(hand)
    table = np.array(rows, dtype=np.int64).reshape(len(rows), 6)
    sets = {k: table[:, j] for j, k in enumerate(("w", "s", "role", "owner", "g", "seated"))}
    n = np.fromiter(map(len, hands), dtype=np.int64, count=len(hands))
    width = min(int(n.max()) if len(n) else 0, 10)
    fits = n <= 10
    try:
        if len(hands) and int(n.min()) == width == int(n.max()):
            cards = np.array(hands, dtype=np.int64)           # every set of one size: at once
        else:
            raise OverflowError
    except OverflowError:
        cards = np.full((len(hands), width), -1, dtype=np.int64)
        for i, hand in enumerate(hands):
            if fits[i]:
                try:
                    cards[i, :len(hand)] = hand
                except OverflowError:                 # an id beyond 64 bits
                    fits[i] = False
    used = np.arange(width) < n[:, None]
    fits &= ~((used & ((cards < 0) | (cards > 63))).any(axis=1))
    shifts = (6 * np.arange(width, dtype=np.int64))
    sets["n"] = np.where(fits, n, 0)
    sets["p"] = np.where(fits, (np.where(used, cards, 0) << shifts).sum(axis=1), 0)
    loose: dict[str, list[int]] = {"w": [], "s": [], "i": [], "c": []}
    for k in np.flatnonzero(~fits):
        for i, c in enumerate(hands[k]):
            for key, value in zip(loose, (int(sets["w"][k]), int(sets["s"][k]), i, c)):
                loose[key].append(value)
    return sets, loose
