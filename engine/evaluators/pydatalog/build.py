"""The checked clauses built in pyDatalog: a tree the loader accepted, interpreted with pyDatalog's
objects (nothing is exec'd), in the Logic of the current thread."""

from __future__ import annotations

import ast
from typing import Any, Iterable

from engine.datalog.loader import (
    AGGREGATES,
    ARITH_OPS,
    COMPARE_OPS,
    WHY,
    Clause,
    RuleError,
    check_clause,
)
from engine.evaluators.pydatalog.lazy import pyParser
from engine.limits import raise_if_stopped


class Builder:
    """Interprets a checked tree with pyDatalog's objects; nothing is exec'd.

    Rule files and REPL queries (engine.evaluators.pydatalog.query) share it; a query overrides the hooks: what a
    name stands for (``term``), a function's name (``function``) and an arithmetic operand
    (``operand``).
    """

    def __init__(self) -> None:
        self.terms: dict[str, pyParser.Term] = {}

    def term(self, name: str) -> Any:
        if name not in self.terms:
            self.terms[name] = pyParser.Term(name)
        return self.terms[name]

    def function(self, name: str) -> Any:
        return self.term(name)

    def operand(self, node: ast.expr) -> Any:
        return self.expr(node)

    def expr(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.term(node.id)
        if isinstance(node, ast.BinOp):
            left, right = self.operand(node.left), self.operand(node.right)
            if isinstance(node.op, ast.Mod) and (isinstance(left, pyParser.Expression)
                                                 or isinstance(right, pyParser.Expression)):
                # pyDatalog evaluates `L % R` as L.format(*R) when L is a string at run time, which
                # reads attributes ('{0.__class__}').  L - (L // R) * R is the same for numbers and
                # fails (no answer) for a string.
                return left - (left // right) * right
            return ARITH_OPS[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp):            # unary minus, checked
            return -self.operand(node.operand)
        if isinstance(node, ast.Subscript):
            keys = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            built = [self.expr(k) for k in keys]
            return self.function(node.value.id)[tuple(built) if len(built) > 1 else built[0]]
        if isinstance(node, ast.Call):               # an aggregate
            return self.aggregate(node)
        raise AssertionError(f"unchecked node {node!r}")

    def aggregate(self, node: ast.Call) -> Any:
        kwargs = {}
        for kw in node.keywords:
            values = kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else None
            kwargs[kw.arg] = [self.expr(v) for v in values] if values is not None else self.expr(kw.value)
        return pyParser.Term(AGGREGATES[node.func.id])(self.expr(node.args[0]), **kwargs)

    def literal(self, node: ast.Call, suffix: str = "", extra: tuple = ()) -> Any:
        args = [self.expr(a) for a in node.args] + list(extra)
        return pyParser.Term(node.func.id + suffix)(*args)

    def body(self, node: ast.expr) -> Any:
        if isinstance(node, ast.BinOp):
            return self.body(node.left) & self.body(node.right)
        if isinstance(node, ast.UnaryOp):
            return ~self.literal(node.operand)
        if isinstance(node, ast.Call):
            return self.literal(node)
        return COMPARE_OPS[type(node.ops[0])](self.expr(node.left), self.expr(node.comparators[0]))



class _ClauseBuilder(Builder):
    """Builds one labelled clause (and its ``__why`` shadow)."""

    def __init__(self, clause: Clause):
        super().__init__()
        self.clause = clause

    def build(self, why: bool) -> None:
        node = self.clause.node
        if isinstance(node, ast.Call):
            +self.literal(node)
            if why:
                +self.literal(node, WHY, (self.clause.label,))
            return
        head, body = node.left, node.comparators[0]
        if isinstance(head, ast.Call):
            self.literal(head) <= self.body(body)
            if why:
                self.terms.clear()
                self.literal(head, WHY, (self.clause.label,)) <= self.body(body)
        else:
            fn = self.expr(head.left)
            (fn == self.expr(head.comparators[0])) <= self.body(body)


def build(clauses: Iterable[Clause], why: bool = True) -> None:
    """Add the clauses to the pyDatalog Logic of the current thread.

    With ``why``, each clause ``p(X..) <= body`` labelled L also gives ``p__why(X.., 'L') <= body``,
    so that the engine can ask which axiom holds.
    """
    for clause in clauses:
        check_clause(clause)
        try:
            _ClauseBuilder(clause).build(why)
        except RuleError:
            raise
        except Exception as exc:  # pyDatalog refuses the clause (e.g. an unsafe negation)
            raise_if_stopped()    # (not a signal or a budget it reports as its own error)
            raise RuleError(f"{clause.where}: pyDatalog cannot build clause {clause.label}: {exc}") from None
