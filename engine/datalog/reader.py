"""Reads one checked clause of the loader (an ast) into the IR (:mod:`engine.datalog.ir`).

A function ``f[k]`` becomes an atom ``f(k.., value)``: as a step of its own where it is compared
with ``==``, or before the step whose term uses it (its value a fresh variable ``_f1`` …).
What pyDatalog reads otherwise than this form would raises Untranslatable.
"""

from __future__ import annotations

import ast

from engine.datalog import loader
from engine.datalog.ir import (
    Atom,
    Compare,
    Const,
    Op,
    Rule,
    Step,
    Term,
    Untranslatable,
    Var,
    variables,
)

_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%"}
_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def read(clause: loader.Clause) -> Rule:
    """One checked clause as a Rule (Untranslatable when the IR cannot say what pyDatalog reads)."""
    return Reader(clause).rule()


class Reader:
    """Turns one checked clause (an ast) into a Rule; functions f[k] become atoms f(k.., value)."""

    def __init__(self, clause: loader.Clause):
        self.clause = clause
        self.fresh = 0
        self.steps: list[Step] = []

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
        rule = Rule(self.clause, head.left.value.id, tuple(self.term(k) for k in keys(head.left)),
                    self.steps, (name, var, ()))
        if name not in ("len_", "min_", "max_", "sum_"):
            raise rule.fail(f"the aggregate {name} is not translated (len_, min_, max_, sum_ are)")
        for kw in agg.keywords:
            values = kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else [kw.value]
            found = [self.term(v) for v in values]
            if name == "sum_" and kw.arg in ("for_each", "key") and all(isinstance(t, Var) for t in found):
                each += found
            elif kw.arg != "order_by" or name in ("len_", "sum_") or len(values) != 1 or found[0] != var:
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
                args = [self.term(k) for k in keys(left)]
                value = self.term(right)
                if isinstance(value, Var) and any(value.name in variables(k) for k in args):
                    raise self.fail(f"the value of {left.value.id} is one of its own keys, which pyDatalog "
                                    "reads otherwise (not compiled)")
                self.steps.append(Atom(left.value.id, tuple(args) + (value,)))
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
            self.steps.append(Atom(node.value.id, tuple(self.term(k) for k in keys(node)) + (value,)))
            return value
        raise AssertionError(f"unchecked node {ast.dump(node)}")


def keys(sub: ast.Subscript) -> list[ast.expr]:
    """The keys of a function's subscript ``f[a, b]``."""
    return list(sub.slice.elts) if isinstance(sub.slice, ast.Tuple) else [sub.slice]
