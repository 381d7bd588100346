"""The left-to-right reading of a clause body, as pyDatalog reads it.

A variable is bound by the first positive literal that names it, or by ``X == term`` once the
term's variables are bound; a negated literal binds nothing.  :func:`binds` says that once;
:func:`reading`, :func:`walk`, :func:`call_sites` and :func:`bound_before` are that reading seen
from the passes; :func:`assignment` is how the SQL and the in-process plans read a comparison.  Three readings differ on purpose and say how: the
negation check (:func:`late_negation`), the demand's binders (:func:`binders`) and the types
(:func:`type_env`).
"""

from __future__ import annotations

from typing import Container, Iterable, Mapping

from engine.datalog.ir import (
    DEMAND,
    INT,
    STR,
    Atom,
    Compare,
    Const,
    Op,
    Pred,
    Rule,
    Step,
    Term,
    Var,
    step_vars,
    variables,
)


def assignment(step: Compare, bound: Container[str]) -> tuple[str, Term] | None:
    """(X, term) when a comparison binds X to a term (``X == term`` or ``term == X``, X not yet
    bound and the term's variables bound, the left side first), else None: a test."""
    if step.op == "==":
        for side, other in ((step.left, step.right), (step.right, step.left)):
            if isinstance(side, Var) and side.name not in bound and all(v in bound for v in variables(other)):
                return side.name, other
    return None


def binds(step: Step, bound: set[str]) -> set[str]:
    """The variables a step binds when read with ``bound`` already bound.

    >>> X, Y = Var("X"), Var("Y")
    >>> binds(Atom("holds", (Var("S"), Const(0), X)), set()) == {"S", "X"}
    True
    >>> binds(Compare("==", Y, Op("+", X, Const(1))), {"X"}), binds(Compare("==", Y, X), set())
    ({'Y'}, set())
    >>> binds(Atom("isCard", (X,), negated=True), set())
    set()
    """
    if isinstance(step, Compare):
        got = assignment(step, bound)
        return {got[0]} if got is not None else set()
    if step.negated:
        return set()
    return {a.name for a in step.args if isinstance(a, Var)} - bound


def reading(body: list[Step], pre: set[str]) -> Iterable[tuple[Step, set[str]]]:
    """Each step of a body with the variables bound before it, read left to right."""
    bound = set(pre)
    for step in body:
        yield step, set(bound)
        bound |= binds(step, bound)


def call_sites(body: list[Step], pre: set[str]) -> list[tuple[Atom, frozenset[int]]]:
    """Each literal of a body with the argument positions bound when it is reached."""
    return [(step, frozenset(i for i, a in enumerate(step.args) if variables(a) <= bound))
            for step, bound in reading(body, pre) if isinstance(step, Atom)]


def bound_before(body: list[Step], k: int) -> set[str]:
    """The variables bound before the k-th step of a body (read left to right)."""
    for i, (_, bound) in enumerate(reading(body, set())):
        if i == k:
            return bound
    return set()


class Unbound(Exception):
    """A variable not bound where a step needs it (``where``: the literal, or 'a comparison')."""

    def __init__(self, var: str, where: str):
        super().__init__(var)
        self.var, self.where = var, where


def walk(preds: Mapping[str, Pred], rule: Rule, pre: set[str]) -> set[str]:
    """The variables bound after the body, read left to right; Unbound names the first that a
    step needs bound and is not (a comparison that binds nothing, a callee's input, an expression)."""
    bound = set(pre)
    for step in rule.body:
        new = binds(step, bound)
        if isinstance(step, Compare):
            if not new:
                for v in sorted(step_vars(step) - bound):
                    raise Unbound(v, "a comparison")
        else:
            callee = preds[step.pred]
            for i, arg in enumerate(step.args):
                if i in callee.inputs or not isinstance(arg, (Var, Const)):
                    for v in sorted(variables(arg) - bound):
                        raise Unbound(v, f"{'~' if step.negated else ''}{step.pred}")
        bound |= new
    return bound


def late_negation(rule: Rule) -> tuple[str, str] | None:
    """(variable, predicate) of the first negated literal with a variable that a later step binds
    (``~shareCard(A, B) & isHand(B)``), else None.  Here a comparison ``==`` counts both its
    variable sides as bound, whatever the other side: the check is about a later binding, not
    about whether this one can be made (the walk refuses that)."""
    bound: set[str] = set()
    for k, step in enumerate(rule.body):
        if isinstance(step, Compare):
            if step.op == "==":
                bound |= {t.name for t in (step.left, step.right) if isinstance(t, Var)}
            continue
        names = step_vars(step)
        if step.negated:
            later = set().union(*(step_vars(s) for s in rule.body[k + 1:]))
            late = sorted((names - bound) & later)
            if late:
                return late[0], step.pred
        else:
            bound |= names
    return None


def binders(preds: Mapping[str, Pred], prefix: list[Step], wanted: set[str], narrow: bool = True) -> list[Step]:
    """The steps of a body prefix that bind the wanted variables (and what those steps need).

    Here ``X == term`` binds the first of its sides not yet bound (the prefix was walked, so the
    other side's variables are bound there).  ``narrow=False``, for a view that reads no input
    fact (getValue of a card: a few dozen rows whatever the batch): a literal that binds a wanted
    variable is read whole, without the steps that bind its other arguments, and nothing else
    narrows.  The demand is larger (every card of the part relation, not only those of the parts
    asked), and far cheaper to collect.
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
            todo += variables(other)
        else:
            callee = preds[step.pred]
            todo += [x for i, a in enumerate(step.args) if (narrow and i in callee.inputs) or isinstance(a, Op)
                     for x in variables(a)]
    if not narrow:
        return [prefix[k] for k in sorted(keep)]
    # A relation over variables the kept steps bind anyway only narrows the demand
    # (``getRank(A, K)`` before ``keyPart(K, O, P)``: only the parts of A's own rank).  So does
    # a view called before (``beatRank(A, B, 0)`` before ``tieBreak(A, B, R)``: only the pairs of
    # one rank): its demand is fed, and the view computed for it, before this one is fed.
    have = set().union(*(step_vars(prefix[k]) for k in keep))
    for k, step in enumerate(prefix):
        if (k not in keep and isinstance(step, Atom) and not step.negated
                and not step.pred.startswith(DEMAND) and step_vars(step) <= have):
            keep.add(k)
    return [prefix[k] for k in sorted(keep)]


def type_env(preds: Mapping[str, Pred], rule: Rule, pre: dict[str, str | None]) -> dict[str, str | None]:
    """Each variable's type (None: not known, e.g. bound only by a demand).  Here a variable takes
    the type of its first typed occurrence (a negated literal types only what is already named),
    and a comparison of a string with a number in order raises."""
    env = dict(pre)
    for step in rule.body:
        if isinstance(step, Compare):
            lt, rt = type_of(rule, step.left, env), type_of(rule, step.right, env)
            if step.op == "==" and isinstance(step.left, Var) and env.get(step.left.name) is None:
                env[step.left.name] = rt
            elif step.op == "==" and isinstance(step.right, Var) and env.get(step.right.name) is None:
                env[step.right.name] = lt
            continue
        callee = preds[step.pred]
        for i, arg in enumerate(step.args):
            col = callee.types[i] if i < len(callee.types) else None
            if isinstance(arg, Var) and env.get(arg.name) is None:
                if not step.negated or arg.name in env:
                    env[arg.name] = col
            elif mixed(type_of(rule, arg, env), col):
                raise rule.fail(f"argument {i + 1} of {step.pred} joins a string with a number")
    for step in rule.body:
        if isinstance(step, Compare) and step.op not in ("==", "!=") and \
                mixed(type_of(rule, step.left, env), type_of(rule, step.right, env)):
            raise rule.fail(f"a string is ordered against a number ({step.op})")
    return env


def mixed(a: str | None, b: str | None) -> bool:
    """Whether two types are a string and a number."""
    return a is not None and b is not None and (a == STR) != (b == STR)


def type_of(rule: Rule, term: Term, env: dict[str, str | None]) -> str | None:
    """A term's type in a clause (arithmetic on a string raises)."""
    if isinstance(term, Const):
        v = term.value
        return STR if isinstance(v, str) else INT
    if isinstance(term, Var):
        return env.get(term.name)
    left = type_of(rule, term.left, env)
    right = type_of(rule, term.right, env) if term.right is not None else left
    if STR in (left, right):
        raise rule.fail("arithmetic on a string")
    return INT if left or right else None
