"""Datalog queries over named hands: the compiler behind ``Engine.query`` and ``poker repl``.

A query is a rule body: literals, ``~`` negation and comparisons joined by ``&``, for instance
``getRank(a, R)``, ``beat(a, b, R) & (R != 0)`` or ``member(a, C) & getValue(C, V) & (V > 11)``.
Upper-case names are variables; lower-case names in argument positions name hands, given as
keyword arguments.  Every predicate ``p`` of the rules also has ``p__why(..., Label)``, the label
of the clause that holds.

A query is never ``eval``'d.  Its text is checked by the rule loader as the body of a clause of a
rule file (:func:`engine.datalog.loader.parse_source`, the same whitelist), then the tree is interpreted
with pyDatalog's objects, as the loader builds rule files.

>>> from engine import Engine
>>> eng = Engine()
>>> eng.query("getRank(a, R)", a="AH KH QH JH TH")
[{'R': 10}]
>>> q = compile_query("beat(a, b, R) & (R != 0)")
>>> q.hands, q.variables
(('a', 'b'), ('R',))
>>> compile_query("__import__('os')")
Traceback (most recent call last):
  ...
engine.QueryError: refused: the name '__import__' is not allowed (dunder or reserved)
"""

from __future__ import annotations

import ast
import copy
import io
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from engine.datalog import loader
from engine.evaluators.pydatalog.build import Builder
from engine.evaluators.pydatalog.lazy import pyParser
from engine.limits import raise_if_stopped

__all__ = ["Query", "QueryError", "compile_query", "MAX_QUERY_CHARS"]

MAX_QUERY_CHARS = 10_000        # a query is a line; the loader bounds tokens and nesting as well
_HEAD = "queryAnswer"           # the head of the clause a query is checked as
_WHERE = Path("query")


class QueryError(ValueError):
    """A query that is refused, does not parse, names an unknown hand, or that pyDatalog rejects."""


QueryError.__module__ = "engine"      # its public name (engine.QueryError), in tracebacks and reprs


@dataclass(frozen=True)
class Query:
    """A checked query: its tree, the hand names it uses and its variables, in order of appearance."""
    text: str
    node: ast.expr
    hands: tuple[str, ...]
    variables: tuple[str, ...]

    def ask(self, ids: Mapping[str, int]) -> list[dict[str, Any]]:
        """The answers in the current pyDatalog Logic, with each hand name standing for a set id.

        Call it inside the engine's context with the sets asserted (``Engine.query`` does).  Each
        answer maps the variables to values; a query without variables answers ``[{}]`` (yes) or
        ``[]`` (no).  Answers come once each, numbers in order.
        """
        missing = [h for h in self.hands if h not in ids]
        if missing:
            raise QueryError(f"no hand named {missing[0]!r}")
        builder = _Builder(ids)
        try:
            body = builder.body(self.node)
            data = pyParser.Body(body).ask()
            if not self.variables or not data:
                return [{}] if data else []
            columns = [builder.terms[v].data for v in self.variables]
        except Exception as exc:        # pyDatalog: an undefined predicate, an unsafe query …
            raise_if_stopped()          # (not a signal or a budget it reports as its own error)
            raise QueryError(_datalog_error(exc)) from None
        if data is True or any(len(c) != len(data) for c in columns):
            raise QueryError("failed: pyDatalog bound not every variable of the query")
        for column in columns:
            for value in column:
                if isinstance(value, BaseException):    # pyDatalog's value for a failed expression
                    raise_if_stopped()                  # (not a signal's or a budget's)
                    raise QueryError(f"failed: {_evaluation_error(value)}")
        rows = list(zip(*columns))
        return [dict(zip(self.variables, row)) for row in sorted(set(rows), key=_row_key)]


def compile_query(text: str) -> Query:
    """Parse and check a query; :class:`QueryError` says why one is refused."""
    text = text.strip()
    if not text:
        raise QueryError("empty query")
    if len(text) > MAX_QUERY_CHARS:
        raise QueryError(f"the query is too long (more than {MAX_QUERY_CHARS} characters)")
    if "\0" in text:
        raise QueryError("a NUL character in the query")
    problem = syntax_problem(text)
    if problem:
        raise QueryError(f"syntax error: {problem}")
    # The loader's whitelist refuses dunder names, so it checks p__why(...) as p(...).
    checked = _check(f"query: {_HEAD}() <= (\n{_without_why(text)}\n)\n")
    node = _parse(f"{_HEAD}() <= (\n{text}\n)")
    if ast.dump(_WhyToBase().visit(copy.deepcopy(node))) != ast.dump(checked):
        raise QueryError("refused: the query does not read as one rule body")   # never expected
    body = node.comparators[0]
    hands: list[str] = []
    variables: list[str] = []
    for name, negated in _term_names(body):
        if loader.VARIABLE.match(name):
            if not negated and name not in variables:
                variables.append(name)
        elif name not in hands:
            hands.append(name)
    return Query(text, body, tuple(hands), tuple(variables))


PAIRS = {")": "(", "]": "["}


def syntax_problem(text: str) -> str | None:
    """What keeps a query from reading, in words, with the column (1-based) where it is; None
    when it reads as an expression (the loader then checks what it says).

    >>> syntax_problem("getRank(S, R")
    "column 8: '(' is never closed"
    >>> syntax_problem("getRank(S, R))")
    "column 14: ')' closes nothing"
    >>> syntax_problem("& getRank(S, R)")
    "column 1: cannot read '& getRank(S, R)' here (a query is literals such as getRank(S, R) joined by &)"
    >>> syntax_problem("getRank(S, R) &")
    "column 15: '&' at the end is followed by nothing"
    >>> syntax_problem('category(S, "flush)')
    'column 13: the string opened here is not closed'
    >>> syntax_problem("getRank(S, R) & isHand(S)") is None
    True
    """
    opened: list[tuple[str, int]] = []
    quote, at = "", 0
    for column, ch in enumerate(text, 1):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote, at = ch, column
        elif ch in "([":
            opened.append((ch, column))
        elif ch in PAIRS:
            if not opened or opened[-1][0] != PAIRS[ch]:
                return f"column {column}: {ch!r} closes nothing" if not opened else \
                    f"column {column}: {ch!r} closes the {opened[-1][0]!r} of column {opened[-1][1]}"
            opened.pop()
    if quote:
        return f"column {at}: the string opened here is not closed"
    if opened:
        return f"column {opened[-1][1]}: {opened[-1][0]!r} is never closed"
    end = text.rstrip()
    if end and end[-1] in "&|,=<>!~+-*/%":
        return f"column {len(end)}: {end[-1]!r} at the end is followed by nothing"
    try:
        ast.parse(text.replace("\n", " "), mode="eval")
    except SyntaxError as exc:
        column = max(1, min(exc.offset or 1, len(text)))
        near = text[column - 1:column + 19]
        return (f"column {column}: cannot read {near!r} here (a query is literals such as getRank(S, R) "
                f"joined by &)")
    except (RecursionError, MemoryError):
        return "the query is nested too deeply"
    return None


def _check(source: str) -> ast.expr:
    """The checked clause tree of a query's text; QueryError with the loader's reason."""
    try:
        clauses = loader.parse_source(source, _WHERE, query=True)
    except loader.RuleError as exc:
        reason = str(exc).split(": ", 1)[-1]
        if reason.startswith("syntax error"):
            raise QueryError(reason) from None
        raise QueryError(f"refused: {reason}") from None
    node = clauses[0].node if len(clauses) == 1 else None
    if not (isinstance(node, ast.Compare) and isinstance(node.left, ast.Call)
            and isinstance(node.left.func, ast.Name) and node.left.func.id == _HEAD and not node.left.args):
        raise QueryError("refused: a query is one rule body (literals and comparisons joined by &)")
    return node


def _parse(source: str) -> ast.Compare:
    try:
        node = ast.parse(source, mode="eval").body
    except (SyntaxError, RecursionError, MemoryError) as exc:       # checked already: not expected
        raise QueryError(f"syntax error: {getattr(exc, 'msg', exc)}") from None
    assert isinstance(node, ast.Compare)
    return node


def _without_why(text: str) -> str:
    """The text with every name ``p__why`` read as ``p`` (only names: strings stay as they are)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError) as exc:
        message = exc.args[0] if exc.args else "cannot read the query"
        raise QueryError(f"syntax error: {message}") from None
    out = []
    for tok in tokens:
        string = tok.string
        if tok.type == tokenize.NAME and string.endswith(loader.WHY) and len(string) > len(loader.WHY):
            string = string[: -len(loader.WHY)]
        out.append((tok.type, string))
    return tokenize.untokenize(out)


class _WhyToBase(ast.NodeTransformer):
    """Rename p__why(...) literals to p(...), as _without_why does to the text."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id.endswith(loader.WHY) and len(node.id) > len(loader.WHY):
            return ast.Name(id=node.id[: -len(loader.WHY)], ctx=node.ctx)
        return node


def _term_names(node: ast.AST, negated: bool = False) -> list[tuple[str, bool]]:
    """Names in term positions (not predicate or function names), in order, and whether they
    stand in a negated literal (pyDatalog binds no variable there)."""
    out: list[tuple[str, bool]] = []
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return _term_names(node.operand, True)
    if isinstance(node, ast.Call):
        for a in node.args:
            out += _term_names(a, negated)
        for kw in node.keywords:
            out += _term_names(kw.value, negated)
    elif isinstance(node, ast.Subscript):
        out += _term_names(node.slice, negated)
    elif isinstance(node, ast.Name):
        out.append((node.id, negated))
    else:
        for child in ast.iter_child_nodes(node):
            out += _term_names(child, negated)
    return out


class _Builder(Builder):
    """The loader's builder for a query: hand names become the ids of the sets asserted for them,
    and arithmetic never computes a string."""

    def __init__(self, ids: Mapping[str, int]):
        super().__init__()
        self.ids = ids

    def term(self, name: str) -> Any:
        if not loader.VARIABLE.match(name):
            return self.ids[name]
        return super().term(name)

    def function(self, name: str) -> Any:
        return pyParser.Term(name)                   # type: ignore[attr-defined]

    def operand(self, node: ast.expr) -> Any:
        """An operand of arithmetic: a variable or function is taken as ``X - 0``, the same number
        for numbers, and an error (never a string computed without bound: 'ab' * 10**9) for a
        string a predicate gave.  Constants are numbers already (the loader's check)."""
        value = self.expr(node)
        return value - 0 if isinstance(node, (ast.Name, ast.Subscript)) and isinstance(value, pyParser.Expression) \
            else value

    def aggregate(self, node: ast.Call) -> Any:
        raise QueryError(f"{type(node).__name__} is not allowed in a query")


def _evaluation_error(exc: BaseException) -> str:
    """One line for an error pyDatalog met while computing an expression (and kept as a value)."""
    text = " ".join(str(exc).split())
    if isinstance(exc, ZeroDivisionError) or "ZeroDivisionError" in text:
        return "division by zero"
    if isinstance(exc, TypeError) and "'str'" in text:
        return "arithmetic on a string (strings are compared with == and !=, never computed)"
    if isinstance(exc, TypeError):
        return "an expression could not be computed (a division by zero, or arithmetic on a string)"
    return text or type(exc).__name__


def _datalog_error(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    if "ZeroDivisionError" in text:       # a comparison met the value of a failed division
        return "failed: division by zero"
    if "TypeError" in text or "'str'" in text:
        return f"failed: {_evaluation_error(TypeError(text))}"
    if "without definition" in text:
        name = text.rsplit(":", 1)[-1].strip()
        return f"no predicate {name} in the loaded rules"
    return f"failed: {text or type(exc).__name__}"


def _row_key(row: tuple) -> list[tuple[int, Any, str]]:
    return [(0, v, "") if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, 0, str(v))
            for v in row]
