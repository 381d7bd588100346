"""Loading rule files: parse, accept only Datalog, then build the clauses in pyDatalog.

pyDatalog reads programs through Python's ``exec``, so a rule file handed to it could run any
Python.  This loader never does that: it parses a file with :mod:`ast`, checks every node against
the Datalog subset (predicate literals, comparisons, arithmetic, aggregates, negation, constants),
and then *interprets* the checked tree, calling pyDatalog's clause-building objects itself.

A file is a sequence of labelled clauses::

    # comment
    getRank_FullHouse: getRank(S, 7) <= isHand(S) & isThree(S) & pairBesideThree(S)
    suitName_F: suitName(1, 'heart', 'hearts')

The label names the axiom a clause implements.  Consecutive clauses may share a label; a variant
rule set replaces every clause of a label by giving clauses with that label.  Which files make a
rule set, and how a variant is laid over its base, is :mod:`engine.datalog.rulesets`; this module is the
Datalog language: parse, check, build.

What is refused, always with the file and line: anything but `label: clause` statements; names
that are not ASCII (Python would fold 'ｐ' into 'p'), dunder or pyDatalog's own (ask, concat,
_pyD_...); calls of anything but a predicate or an aggregate; strings in arithmetic (pyDatalog
computes `string % x` with str.format, which reads attributes); bools, None, bytes, huge or
infinite numbers; comparisons of two constants (Python would evaluate them); clauses nested deeper
than MAX_DEPTH, statements longer than MAX_TOKENS, files over MAX_FILE_BYTES, NUL bytes and text
that is not UTF-8.  `%` is built as L - (L // R) * R, the same for numbers, so that a string bound
at run time never reaches str.format.

Refused too, because pyDatalog reads them otherwise than the compiled evaluators would (the
grammar, with each construct's meaning: docs/evaluation.md): a lower-case name or a name of _ where
a term stands (pyDatalog: the string 'suit'; _ a variable like any other); a head argument or an
aggregate key that is not a variable or a constant (pyDatalog answers no row for ``p(X + 1)``); a
function in a negated literal (pyDatalog negates its look-up too); an aggregate keyword pyDatalog
ignores, or sum_/min_/max_ without the one it needs.
"""

from __future__ import annotations

import ast
import builtins
import copy as copy_module
import io
import math
import operator
import os
import re
import stat
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

AGGREGATES = {"len_": "len_", "len": "len_", "sum_": "sum_", "sum": "sum_",
              "min_": "min_", "min": "min_", "max_": "max_", "max": "max_"}
AGGREGATE_KEYWORDS = {"order_by", "for_each", "key"}
# The keyword each aggregate reads (key= is another name for it); pyDatalog ignores any other.
AGGREGATE_READS: dict[str, tuple[str, ...]] = {"len_": (), "sum_": ("for_each",), "min_": ("order_by",),
                                                "max_": ("order_by",)}
PREDICATE = re.compile(r"[a-z][A-Za-z0-9_]*\Z")
VARIABLE = re.compile(r"[A-Z_][A-Za-z0-9_]*\Z")
LABEL = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
# pyDatalog gives these names a meaning of its own (queries, Python calls, formatting).
RESERVED = {"ask", "range_", "format_", "concat", "concat_", "rank", "rank_", "running_sum",
            "running_sum_", "tuple_", "mean_", "linear_regression_", "True", "False", "None"}
WHY = "__why"   # suffix of the shadow predicates that tell which labelled clause holds

COMPARE_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
    ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
ARITH_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Div: operator.truediv}


class RuleError(ValueError):
    """A rule file that is not in the accepted Datalog subset, or a rule set that cannot load."""


RuleError.__module__ = "engine"      # its public name (engine.RuleError), in tracebacks and reprs


@dataclass(frozen=True)
class Clause:
    """One labelled clause of a rule file, already checked."""
    label: str
    path: Path
    line: int
    head: str            # the predicate it defines (for an aggregate, the function name)
    node: ast.expr
    text: str

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


# --------------------------------------------------------------------------------------------
# Checking

# Limits that keep a hostile file from exhausting the parser, the checker's recursion or memory.
MAX_FILE_BYTES = 1 << 20        # a rule file is text of a few kilobytes
MAX_TOKENS = 1000               # per statement; Python's own parser recurses ~3000 deep at most
MAX_DEPTH = 100                 # nesting of one clause's tree (the rules need ~25)
MAX_INT = 10 ** 18              # integer constants; with MAX_DEPTH, constant folding stays small
MAX_FUNCTION_NESTING = 2        # f[g[X]]: pyDatalog's build time grows ~13-fold with each level more
MAX_EXPANDED = 2000             # nodes of one expression once `%` is expanded (L - (L // R) * R
                                # doubles its operands: 30 nested `%` would be 2**30 nodes)


def _fail(path: Path, node: ast.AST | None, message: str, line: int = 0) -> RuleError:
    line = getattr(node, "lineno", None) or line
    return RuleError(f"{path}:{line}: {message}")


class _Checker:
    """Accepts a clause's tree only when every node is in the Datalog subset."""

    def __init__(self, path: Path, query: bool = False):
        self.path = path
        self.line = 0              # the statement being checked, for nodes without a line
        self.query = query         # a REPL query: lower-case names name hands (engine.evaluators.pydatalog.query)
        self.current: ast.AST | None = None

    def fail(self, node: ast.AST, message: str) -> RuleError:
        return _fail(self.path, node, message, self.line)

    def name(self, node: ast.AST, what: str) -> str:
        if not isinstance(node, ast.Name):
            raise self.fail(node, f"{what} must be a plain name, not {_describe(node)}")
        ident = node.id
        if "__" in ident or ident.startswith("_pyD"):
            raise self.fail(node, f"the name {ident!r} is not allowed (dunder or reserved)")
        if not ident.isascii():     # parse_source checks the raw tokens; this covers hand-made Clauses
            raise self.fail(node, f"the name {ident!r} is not ASCII")
        return ident

    def term_name(self, node: ast.Name) -> str:
        """A name where a term stands: a variable, upper-case first.  pyDatalog reads any other
        name as a string constant ('suit'), and a name of _ as a variable like any other (two _
        of a clause are one variable, not Prolog's anonymous ones): both are refused in rule
        files, where a user almost surely meant a variable (the compiler would read one)."""
        ident = self.name(node, "a term")
        if self.query or (ident[0].isupper() and VARIABLE.match(ident)):
            return ident
        if ident == "_":
            raise self.fail(node, "'_' is not an anonymous variable in pyDatalog (every _ of a clause is the "
                                  "same variable): name each with an upper-case first letter (X)")
        if ident[0] == "_":
            raise self.fail(node, f"{ident!r} starts with _: write a variable with an upper-case first letter "
                                  f"({_capitalised(ident)}) (names that start with _ are the evaluators' own)")
        raise self.fail(node, f"{ident!r} is a lower-case name: write a variable with an upper-case first "
                              f"letter ({_capitalised(ident)}), or a string in quotes ({ident!r})")

    def head_term(self, node: ast.expr, head: ast.expr, clause: ast.Compare) -> None:
        """A head argument (or an aggregate head's key) is a variable or a constant.  pyDatalog
        answers no row for an expression there (``p(X + 1) <= q(X)``, ``p(-X)``, ``(f[X + 0] ==
        len_(C))``) and cannot build a function there (``p(f[X])``), where the compiler would
        compute it: refused, with the clause that binds it in the body instead."""
        if isinstance(node, ast.Name):
            self.term_name(node)
            return
        if _is_constant(node):
            self.expr(node)
            return
        self.expr(node)          # a lower-case name, a string in arithmetic … are named first
        text = ast.unparse(node)
        if not _has_term(node):
            raise self.fail(node, f"the head term {text} is an expression: write the constant it stands for")
        fresh = _fresh(clause)
        inner = ast.unparse(_replaced(head, node, ast.Name(id=fresh)))
        body = ast.unparse(clause.comparators[0])
        body = body if len(body) <= 60 else "..."
        what = ("a function, which pyDatalog cannot build in a head" if isinstance(node, ast.Subscript)
                else "an expression, for which pyDatalog answers no row in a head")
        raise self.fail(node, f"the head term {text} is {what}: bind it in the body: "
                              f"{f'({inner})' if isinstance(head, ast.Compare) else inner} <= {body} & ({fresh} == {text})")

    def predicate_name(self, node: ast.AST) -> str:
        ident = self.name(node, "a predicate")
        if not PREDICATE.match(ident) or ident.endswith("_"):
            raise self.fail(node, f"{ident!r} is not a predicate name (lower-case first, no trailing _)")
        if ident in RESERVED or hasattr(builtins, ident):
            raise self.fail(node, f"{ident!r} is a reserved name and cannot be a predicate")
        return ident

    def clause(self, node: ast.expr) -> str:
        """Check a whole clause; return the predicate it defines."""
        self.line = getattr(node, "lineno", self.line)
        self.current = node        # the clause, whose names a refusal's suggestion avoids
        _check_depth(node, self)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.LtE) \
                and self._is_head(node.left):
            head = self.head(node.left, node)
            self.body(node.comparators[0])
            self.sizes(node)
            self.bound(node.comparators[0], _head_variables(node.left))
            _check_head_in_body(self, node.left, node.comparators[0])
            return head
        if isinstance(node, ast.Call):
            head = self.literal(node)
            for arg in node.args:
                if not _is_constant(arg):
                    raise self.fail(arg, "a fact takes constants only (a rule needs `<= body`)")
            return head
        raise self.fail(node, f"expected `head <= body` or a fact, found {_describe(node)}")

    @staticmethod
    def _is_head(node: ast.expr) -> bool:
        return isinstance(node, ast.Call) or (
            isinstance(node, ast.Compare) and isinstance(node.left, ast.Subscript))

    def head(self, node: ast.expr, clause: ast.Compare) -> str:
        if isinstance(node, ast.Call):
            name = self.predicate_name(node.func)
            if node.keywords:
                raise self.fail(node, "a literal takes no keyword arguments")
            for arg in node.args:
                self.head_term(arg, node, clause)
            return name
        # (f[X, Y] == aggregate(...))
        if not (len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
            raise self.fail(node, "an aggregate head reads `(f[X] == aggregate(...))`")
        if not isinstance(node.left, ast.Subscript):
            raise self.fail(node.left, "an aggregate head reads `(f[X] == aggregate(...))`")
        name = self.predicate_name(node.left.value)
        for key in _keys(node.left):
            self.head_term(key, node, clause)
        agg = node.comparators[0]
        if not (isinstance(agg, ast.Call) and isinstance(agg.func, ast.Name) and agg.func.id in AGGREGATES):
            raise self.fail(agg, f"expected an aggregate ({', '.join(sorted(set(AGGREGATES.values())))})")
        self.aggregate(agg)
        return name

    def function(self, node: ast.Subscript) -> str:
        name = self.predicate_name(node.value)
        keys = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for key in keys:
            self.expr(key)
        return name

    def aggregate(self, node: ast.Call) -> None:
        """One variable aggregated, and the keywords pyDatalog reads for that aggregate: none for
        len_, for_each= for sum_ and order_by= for min_ and max_ (key= is another name for
        either), the one it needs there, and no other: pyDatalog ignores a keyword an aggregate
        does not read (and key= beside the other), and cannot build sum_, min_ or max_ without."""
        if len(node.args) != 1:
            raise self.fail(node, "an aggregate takes one variable")
        self.variable(node.args[0])
        name = AGGREGATES[node.func.id]          # the caller checked it is one
        reads = AGGREGATE_READS[name]
        given = [kw.arg for kw in node.keywords]
        for kw in node.keywords:
            if kw.arg not in AGGREGATE_KEYWORDS:
                raise self.fail(node, f"aggregate keyword {kw.arg!r} is not allowed")
            if kw.arg != "key" and kw.arg not in reads or kw.arg == "key" and not reads:
                what = f"reads {reads[0]}= (or key=), not {kw.arg}=" if reads else "takes no keyword"
                raise self.fail(node, f"{name} {what}: pyDatalog ignores {kw.arg}= there")
            values = kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else [kw.value]
            for value in values:
                negative = isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub)
                if negative and reads != ("order_by",):
                    raise self.fail(value, f"a minus sign orders min_ and max_ only (pyDatalog cannot build it "
                                           f"in {name}'s {kw.arg}=)")
                self.variable(value.operand if negative else value)
        if reads and reads[0] in given and "key" in given:
            raise self.fail(node, f"{reads[0]}= and key= are one keyword to {name} (pyDatalog reads "
                                  f"{reads[0]}= alone): give one")
        if reads and not given:
            var = ast.unparse(node.args[0])
            raise self.fail(node, f"{name} needs {reads[0]}= (pyDatalog cannot build it without): "
                                  f"{name}({var}, {reads[0]}={'C' if reads[0] == 'for_each' else var})")

    def sizes(self, node: ast.AST) -> None:
        """Refuse what would make building the clause explode (checked before anything is built):
        functions nested more than MAX_FUNCTION_NESTING deep, and expressions that expanding `%`
        would make larger than MAX_EXPANDED nodes."""
        for sub in ast.walk(node):
            if isinstance(sub, ast.Subscript) and _function_depth(sub) > MAX_FUNCTION_NESTING:
                raise self.fail(sub, f"functions are nested more than {MAX_FUNCTION_NESTING} deep "
                                     f"(f[g[h[X]]]); bind the inner ones to variables first")
            if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Mod) and _expanded(sub) > MAX_EXPANDED:
                raise self.fail(sub, "the expression is too large once `%` is expanded "
                                     f"(more than {MAX_EXPANDED} nodes); bind parts to variables first")

    def bound(self, body: ast.expr, head: set[str]) -> None:
        """Read the body left to right, as pyDatalog does, and refuse a comparison that uses a
        variable nothing binds before: the head's variables (a caller may give them), a positive
        literal's, ``X == expr`` (or ``expr == X``) binds X when expr's variables are bound, and a
        function ``f[K]`` compared binds its keys.  pyDatalog would raise an error or answer
        nothing."""
        bound = set(head)
        for part in _conjuncts(body):
            if isinstance(part, ast.Call):
                bound |= _variables(part)
            elif isinstance(part, ast.Compare):
                left, right = part.left, part.comparators[0]
                for side in (left, right):
                    for sub in ast.walk(side):
                        if isinstance(sub, ast.Subscript):
                            bound |= _variables(sub.slice)
                if isinstance(part.ops[0], ast.Eq):
                    for var, other in ((left, right), (right, left)):
                        if (isinstance(var, ast.Name) and VARIABLE.match(var.id) and var.id not in bound
                                and _free(other, bound) is None):
                            bound.add(var.id)
                            break
                    else:
                        if isinstance(left, ast.Subscript) and isinstance(right, ast.Name):
                            bound |= _variables(right)       # f[K] == V binds V
                        elif isinstance(right, ast.Subscript) and isinstance(left, ast.Name):
                            bound |= _variables(left)
                for side in ((right, left) if isinstance(left, ast.Name) else (left, right)):
                    free = _free(side, bound)
                    if free is not None:
                        raise self.fail(free, f"the variable {free.id} is not bound before this comparison "
                                              "(bind it with a literal, or `X == expression`, to its left)")

    def variable(self, node: ast.AST) -> str:
        if not isinstance(node, ast.Name):
            raise self.fail(node, f"a variable must be a plain name, not {_describe(node)}")
        ident = self.term_name(node)
        if not VARIABLE.match(ident):           # a query's hand name
            raise self.fail(node, f"{ident!r} is not a variable (upper-case first)")
        return ident

    def literal(self, node: ast.Call) -> str:
        name = self.predicate_name(node.func)
        if node.keywords:
            raise self.fail(node, "a literal takes no keyword arguments")
        for arg in node.args:
            self.expr(arg)
        return name

    def body(self, node: ast.expr) -> None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
            self.body(node.left)
            self.body(node.right)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            if not isinstance(node.operand, ast.Call):
                raise self.fail(node, "negation `~` applies to a predicate literal")
            self.literal(node.operand)
            self.negated_functions(node)
        elif isinstance(node, ast.Call):
            self.literal(node)
        elif isinstance(node, ast.Compare):
            if len(node.ops) != 1 or type(node.ops[0]) not in COMPARE_OPS:
                raise self.fail(node, "a comparison has one operator of == != < <= > >=")
            self.expr(node.left)
            self.expr(node.comparators[0])
            if not (_has_term(node.left) or _has_term(node.comparators[0])):
                # Python would compare the constants while the clause is built
                raise self.fail(node, "a comparison of two constants (it needs a variable or a function)")
            left, right = node.left, node.comparators[0]
            if isinstance(node.ops[0], ast.Eq) and (_arithmetic(left) or (_arithmetic(right) and not _has_term(left))):
                # pyDatalog cannot build (C // 3 + C == X), (-V == X), nor (14 == V + 1), which
                # Python turns into (V + 1 == 14): its expressions have no ==
                raise self.fail(node, "write the variable first: X == expression (pyDatalog cannot "
                                      "build expression == X)")
        else:
            raise self.fail(node, f"a body is literals joined by &, found {_describe(node)}")

    def negated_functions(self, node: ast.UnaryOp) -> None:
        """Refuse a function in a negated literal's arguments: pyDatalog negates the function's
        look-up together with the literal (``~q(f[S] + 1)`` holds where f has no value for S),
        where the compiler looks the value up first and negates the literal alone."""
        for sub in ast.walk(node.operand):
            if isinstance(sub, ast.Subscript):
                text = ast.unparse(sub)
                fresh = _fresh(self.current or node)
                inner = ast.unparse(_replaced(node, sub, ast.Name(id=fresh)))
                raise self.fail(sub, f"the function {text} in a negated literal: pyDatalog negates its look-up "
                                     f"with the literal (true where it has no value); look it up before: "
                                     f"({fresh} == {text}) & {inner}")

    def expr(self, node: ast.expr) -> None:
        if isinstance(node, ast.Constant):
            self.constant(node)
        elif isinstance(node, ast.Name):
            self.term_name(node)
        elif isinstance(node, ast.BinOp):
            if type(node.op) not in ARITH_OPS:
                raise self.fail(node, "arithmetic is + - * / // %")
            for operand in (node.left, node.right):
                self.number_operand(operand, "arithmetic")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            self.number_operand(node.operand, "a minus sign")
        elif isinstance(node, ast.Subscript):
            self.function(node)
        else:
            raise self.fail(node, f"{_describe(node)} is not allowed in a rule")

    def number_operand(self, node: ast.expr, what: str) -> None:
        # pyDatalog computes `string % x` as string.format(*x), which reads attributes
        # ('{0.__class__}'), and `'a' * n` or '%999999999d' can fill the memory: no strings there.
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            raise self.fail(node, f"a string is not allowed in {what} (only numbers, variables, functions)")
        self.expr(node)

    def constant(self, node: ast.Constant) -> None:
        value = node.value
        if not isinstance(value, (int, float, str)) or isinstance(value, bool):
            raise self.fail(node, f"constant {value!r} is not a number or a string")
        if isinstance(value, int) and abs(value) > MAX_INT:
            raise self.fail(node, f"the integer constant is too large (more than {MAX_INT:.0e})")
        if isinstance(value, str) and value in ("??", "True", "False"):
            raise self.fail(node, f"the string {value!r} means something else to pyDatalog")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(node, f"constant {value!r} is not a finite number")


def _check_depth(root: ast.AST, checker: _Checker) -> None:
    """Refuse a tree nested deeper than MAX_DEPTH before anything recurses into it."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise checker.fail(node, f"the clause is nested too deeply (more than {MAX_DEPTH} levels)")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


def _check_head_in_body(checker: _Checker, head: ast.expr, body: ast.expr) -> None:
    """Refuse a head variable that the body never mentions (``getRank(S, R) <= isHand(S)``).
    pyDatalog accepts the clause, but answers it with R unbound ("true for every R", no value to
    return, and an error in any comparison of R), which no evaluator can give as rows: the clause
    is refused here, naming the variable, rather than failing every question that reaches it."""
    mentioned = _variables(body)
    for node in ast.walk(head.left.slice if isinstance(head, ast.Compare) else head):
        if isinstance(node, ast.Name) and VARIABLE.match(node.id) and node.id not in mentioned:
            raise checker.fail(node, f"the head's variable {node.id} appears nowhere in the body, so the clause "
                                     f"would hold for every {node.id} and give it no value: write the value "
                                     f"in the head, or bind {node.id} in the body")


def _head_variables(head: ast.expr) -> set[str]:
    """The variables a caller can bind: a literal's arguments, or an aggregate head's keys."""
    if isinstance(head, ast.Compare) and isinstance(head.left, ast.Subscript):
        return _variables(head.left.slice)
    return _variables(head)


def _capitalised(ident: str) -> str:
    """The variable a user likely meant by a lower-case or _ name: suit -> Suit, _x -> X, _ -> X."""
    rest = ident.lstrip("_")
    if not rest:
        return "X"
    return rest[0].upper() + rest[1:] if rest[0].isalpha() else "V" + rest


def _fresh(node: ast.AST) -> str:
    """A variable name the node does not use (for a refusal's suggestion)."""
    taken = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    return next(v for v in ("Y", "Z", "W", *(f"Y{i}" for i in range(1, 10 ** 4))) if v not in taken)


def _replaced(root: ast.expr, old: ast.AST, new: ast.expr) -> ast.expr:
    """A copy of root with the node old (one of its nodes) replaced by new."""
    index = next(i for i, n in enumerate(ast.walk(root)) if n is old)
    copy = copy_module.deepcopy(root)
    target = list(ast.walk(copy))[index]

    class Swap(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> Any:
            return new if node is target else super().visit(node)
    return Swap().visit(copy)


def _conjuncts(node: ast.expr) -> list[ast.expr]:
    """The literals and comparisons of a body, left to right."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _variables(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and VARIABLE.match(n.id)}


def _free(node: ast.AST, bound: set[str]) -> ast.Name | None:
    """The first variable of an expression that is not bound (function keys aside), else None."""
    if isinstance(node, ast.Name):
        return node if VARIABLE.match(node.id) and node.id not in bound else None
    if isinstance(node, ast.Subscript):
        return None
    for child in ast.iter_child_nodes(node):
        free = _free(child, bound)
        if free is not None:
            return free
    return None


def _function_depth(node: ast.AST) -> int:
    inner = max((_function_depth(c) for c in ast.iter_child_nodes(node)), default=0)
    return inner + 1 if isinstance(node, ast.Subscript) else inner


def _expanded(node: ast.AST) -> int:
    """Nodes of an expression once every `%` is built as L - (L // R) * R."""
    if isinstance(node, ast.BinOp):
        left, right = _expanded(node.left), _expanded(node.right)
        return 2 * left + 2 * right + 3 if isinstance(node.op, ast.Mod) else left + right + 1
    return 1 + sum(_expanded(c) for c in ast.iter_child_nodes(node))


def _arithmetic(node: ast.expr) -> bool:
    """An expression pyDatalog builds as an operation (a negative constant is a constant)."""
    return isinstance(node, ast.BinOp) or (isinstance(node, ast.UnaryOp) and not isinstance(node.operand, ast.Constant))


def _has_term(node: ast.AST) -> bool:
    return any(isinstance(n, (ast.Name, ast.Subscript)) for n in ast.walk(node))


def _is_constant(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
        return isinstance(node, ast.Constant) and isinstance(node.value, (int, float))
    return isinstance(node, ast.Constant)


def _describe(node: ast.AST) -> str:
    kinds = {ast.Attribute: "attribute access", ast.Lambda: "a lambda", ast.Call: "a call",
             ast.Import: "an import", ast.ImportFrom: "an import", ast.Assign: "an assignment",
             ast.AugAssign: "an assignment", ast.NamedExpr: "an assignment", ast.FunctionDef: "a def",
             ast.AsyncFunctionDef: "a def", ast.ClassDef: "a class", ast.Starred: "a starred expression",
             ast.JoinedStr: "an f-string", ast.Dict: "a dict", ast.Set: "a set", ast.List: "a list",
             ast.Tuple: "a tuple", ast.ListComp: "a comprehension", ast.SetComp: "a comprehension",
             ast.DictComp: "a comprehension", ast.GeneratorExp: "a comprehension",
             ast.IfExp: "a conditional expression", ast.Subscript: "subscription",
             ast.BoolOp: "and/or (use &)", ast.Expr: "an expression without a label",
             ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield"}
    return kinds.get(type(node), type(node).__name__)


def parse_file(path: Path) -> list[Clause]:
    """Parse and check one rule file (UTF-8, an optional BOM).

    A path that is no regular file (a dangling link, a directory, a FIFO, a device) is a RuleError
    naming it; the file is opened without blocking, so a FIFO never hangs the load.
    """
    return parse_data(read_rule_file(path, MAX_FILE_BYTES), path)


def parse_data(data: bytes, path: Path) -> list[Clause]:
    """Parse and check the bytes of the rule file ``path`` (UTF-8, an optional BOM)."""
    try:
        source = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise RuleError(f"{path}:{line}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse_source(source, path)


def read_rule_file(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; RuleError naming it otherwise."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        dangling = os.path.islink(path)
        raise RuleError(f"{path}: cannot read rule file: "
                        f"{'a dangling symbolic link' if dangling else 'no such file'}") from None
    except OSError as exc:
        raise RuleError(f"{path}: cannot read rule file: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = ("a directory" if stat.S_ISDIR(info.st_mode) else "a FIFO" if stat.S_ISFIFO(info.st_mode)
                else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
                else "a socket" if stat.S_ISSOCK(info.st_mode) else "not a regular file")
        raise RuleError(f"{path}: cannot read rule file: it is {kind}, not a file")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):   # swapped since the stat
                raise RuleError(f"{path}: cannot read rule file: not a regular file")
            data = handle.read(limit + 1)
    except OSError as exc:
        raise RuleError(f"{path}: cannot read rule file: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise RuleError(f"{path}:1: a rule file is at most {limit} bytes")
    return data


def parse_source(source: str, path: Path, query: bool = False) -> list[Clause]:
    """Parse and check the text of a rule file; RuleError names the file and line of a refusal.

    ``query``: the text is a REPL query (engine.evaluators.pydatalog.query), whose lower-case names name hands.
    """
    path = Path(path)
    source = source.removeprefix("\ufeff")
    nul = source.find("\0")
    if nul >= 0:
        raise RuleError(f"{path}:{_line_of(source, nul)}: a NUL character in the file")
    tokens = _tokens(source)
    if tokens is not None:
        _check_tokens(tokens, path)
    try:
        tree = ast.parse(source, filename=str(path), mode="exec")
    except SyntaxError as exc:
        raise RuleError(f"{path}:{exc.lineno or 1}: syntax error: {exc.msg}") from None
    except (RecursionError, MemoryError):      # only when the tokenizer failed to bound the statement
        raise RuleError(f"{path}:1: syntax error: the file is nested too deeply to parse") from None
    if tokens is None:      # Python parsed what its tokenize module could not read: refuse it
        raise RuleError(f"{path}:1: the file cannot be read token by token (unbalanced brackets?)")
    for tok in tokens:
        if tok.type not in (tokenize.STRING, tokenize.COMMENT) and not tok.string.isascii():
            # Python folds identifiers (NFKC): 'ｐ' would silently be 'p', and 'get＿rank' (a
            # full-width low line, which the tokenize module does not even read as part of a
            # name) 'get_rank'.  Outside strings and comments, a rule file is ASCII.
            what = "name" if tok.type == tokenize.NAME else "character"
            raise RuleError(f"{path}:{tok.start[0]}: the {what} {tok.string!r} is not ASCII "
                            "(names are ASCII letters, digits and _)")
    lines = _LINES.findall(source)     # as Python counts lines: \r\n, \r or \n (not \f, \v …)
    checker = _Checker(path, query)
    clauses: list[Clause] = []
    for stmt in tree.body:
        if not (isinstance(stmt, ast.AnnAssign) and stmt.value is None and stmt.simple
                and isinstance(stmt.target, ast.Name)):
            raise _fail(path, stmt, f"expected `label: clause`, found {_describe(stmt)}")
        label = stmt.target.id
        if not LABEL.match(label) or "__" in label:
            raise _fail(path, stmt, f"{label!r} is not a label")
        checker.line = stmt.lineno
        head = checker.clause(stmt.annotation)
        text = _segment(lines, stmt.annotation).strip()
        clauses.append(Clause(label, path, stmt.lineno, head, stmt.annotation, text))
    return clauses


_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _segment(lines: list[str], node: ast.AST) -> str:
    """The source text of a node, from the file's lines (ast's offsets are UTF-8 bytes).

    ast.get_source_segment splits the whole source again for every call, which made loading
    quadratic in the size of the file.
    """
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    start, end = node.col_offset, node.end_col_offset
    if first >= len(lines) or end is None:
        return ""
    if first == last:
        return lines[first].encode("utf-8")[start:end].decode("utf-8", "replace")
    head = lines[first].encode("utf-8")[start:].decode("utf-8", "replace")
    tail = lines[last].encode("utf-8")[:end].decode("utf-8", "replace") if last < len(lines) else ""
    return head + "".join(lines[first + 1:last]) + tail


def _line_of(source: str, index: int) -> int:
    return len(re.findall(r"\r\n|\r|\n", source[:index])) + 1


def _tokens(source: str) -> list[tokenize.TokenInfo] | None:
    """The file's tokens, or None when it does not tokenize (ast.parse then names the error)."""
    try:
        return list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return None


def _check_tokens(tokens: list[tokenize.TokenInfo], path: Path) -> None:
    """Refuse a statement too long for the parser to build safely (it recurses per operator)."""
    count, first = 0, 0
    for tok in tokens:
        if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            count = 0
        elif tok.type not in (tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT):
            if count == 0:
                first = tok.start[0]
            count += 1
            if count > MAX_TOKENS:
                raise RuleError(f"{path}:{first}: the statement is too long (more than {MAX_TOKENS} tokens)")


# --------------------------------------------------------------------------------------------
# Checking a whole rule set: every predicate defined, no arithmetic on strings


def check_program(clauses: Sequence[Clause], inputs: Mapping[str, Sequence[str]]) -> None:
    """Refuse a rule set (RuleError naming file, line and predicate or variable) that

    * uses a predicate (or function) that no clause defines with that many arguments and that is
      no input fact (``inputs``: name -> argument meanings, see engine.interface);
    * does arithmetic on a variable that can hold a string: pyDatalog would compute it with
      Python's str operations (``S == T + T`` doubles a string at each step, in C, without bound
      and deaf to Ctrl-C).  Which argument positions can hold strings is inferred from the string
      constants of the rules, through literals, ``==`` and min_/max_.
    """
    predicates = {(c.head, len(c.node.args)) for c in clauses if isinstance(c.node, ast.Call)}
    predicates |= {(c.head, len(c.node.left.args)) for c in clauses
                   if isinstance(c.node, ast.Compare) and isinstance(c.node.left, ast.Call)}
    predicates |= {(name, len(args)) for name, args in inputs.items()}
    functions = {(c.head, len(_keys(c.node.left.left))) for c in clauses
                 if isinstance(c.node, ast.Compare) and isinstance(c.node.left, ast.Compare)}
    arities: dict[str, set[int]] = {}
    for name, n in predicates | functions:
        arities.setdefault(name, set()).add(n)
    for c in clauses:
        if not (isinstance(c.node, ast.Compare) and len(c.node.comparators) == 1):
            continue
        for node in ast.walk(c.node.comparators[0]):
            if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in AGGREGATES):
                key, kind = (node.func.id, len(node.args)), "predicate"
                known = key in predicates
            elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
                key, kind = (node.value.id, len(_keys(node))), "function"
                known = key in functions
            else:
                continue
            if not known:
                other = sorted(arities.get(key[0], ()))
                hint = (f"; {key[0]} is defined with {' or '.join(map(str, other))} arguments" if other
                        else "; no clause has it as its head, and it is no input fact")
                raise _fail(c.path, node, f"the {kind} {key[0]}/{key[1]} is used but defined nowhere{hint}", c.line)
    _check_string_arithmetic(clauses)


def _keys(sub: ast.Subscript) -> list[ast.expr]:
    return sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]


class _Strings:
    """Which argument positions of predicates and functions can hold a string (a fixpoint)."""

    def __init__(self, clauses: Sequence[Clause]):
        self.clauses = clauses
        self.positions: set[tuple[str, str, int, Any]] = set()
        self.envs: dict[int, dict[str, bool]] = {}
        changed = True
        while changed:
            before = len(self.positions)
            for i, c in enumerate(clauses):
                self.envs[i] = env = self.env(c)
                self.head(c, env)
            changed = len(self.positions) != before

    def may(self, node: ast.AST, env: Mapping[str, bool]) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str)
        if isinstance(node, ast.Name):
            return env.get(node.id, False)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            return ("f", node.value.id, len(_keys(node)), "v") in self.positions
        if isinstance(node, ast.BinOp):
            return self.may(node.left, env) or self.may(node.right, env)
        if isinstance(node, ast.UnaryOp):
            return self.may(node.operand, env)
        return False

    def _literal(self, node: ast.Call, env: dict[str, bool]) -> None:
        for i, arg in enumerate(node.args):
            if isinstance(arg, ast.Name) and ("p", node.func.id, len(node.args), i) in self.positions:
                env[arg.id] = True

    def env(self, c: Clause) -> dict[str, bool]:
        env: dict[str, bool] = {}
        node = c.node
        if isinstance(node, ast.Call):
            return env
        head, body = node.left, node.comparators[0]
        if isinstance(head, ast.Call):
            self._literal(head, env)            # what callers may pass in
        for _ in range(2):                      # a later literal can type an earlier comparison
            for part in _conjuncts(body):
                if isinstance(part, ast.UnaryOp):
                    part = part.operand
                if isinstance(part, ast.Call):
                    self._literal(part, env)
                elif isinstance(part, ast.Compare):
                    left, right = part.left, part.comparators[0]
                    for sub in (*ast.walk(left), *ast.walk(right)):
                        if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name):
                            for i, k in enumerate(_keys(sub)):
                                if isinstance(k, ast.Name) and ("f", sub.value.id, len(_keys(sub)), i) in self.positions:
                                    env[k.id] = True
                    if isinstance(part.ops[0], ast.Eq):
                        if isinstance(left, ast.Name) and self.may(right, env):
                            env[left.id] = True
                        if isinstance(right, ast.Name) and self.may(left, env):
                            env[right.id] = True
        return env

    def head(self, c: Clause, env: Mapping[str, bool]) -> None:
        node = c.node
        head = node if isinstance(node, ast.Call) else node.left
        if isinstance(head, ast.Call):
            for i, arg in enumerate(head.args):
                if self.may(arg, env):
                    self.positions.add(("p", head.func.id, len(head.args), i))
            return
        sub, agg = head.left, head.comparators[0]
        keys = _keys(sub)
        for i, k in enumerate(keys):
            if self.may(k, env):
                self.positions.add(("f", sub.value.id, len(keys), i))
        if AGGREGATES.get(agg.func.id) in ("min_", "max_") and agg.args and self.may(agg.args[0], env):
            self.positions.add(("f", sub.value.id, len(keys), "v"))


def _check_string_arithmetic(clauses: Sequence[Clause]) -> None:
    strings = _Strings(clauses)
    for i, c in enumerate(clauses):
        env = strings.envs[i]
        for node in ast.walk(c.node):
            if isinstance(node, ast.BinOp) and type(node.op) in ARITH_OPS:
                operands = (node.left, node.right)
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
                operands = (node.operand,)
            else:
                continue
            for operand in operands:
                if strings.may(operand, env) and not isinstance(operand, ast.BinOp):
                    what = operand.id if isinstance(operand, ast.Name) else _describe(operand)
                    raise _fail(c.path, node, f"arithmetic on {what}, which can hold a string here: "
                                              "strings are compared (== !=), never computed", c.line)


def check_clause(clause: Clause) -> None:
    """Check a clause again (a Clause may be made by hand): RuleError where the gate refuses it."""
    _Checker(clause.path).clause(clause.node)
