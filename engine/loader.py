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
rule set replaces every clause of a label by giving clauses with that label.

What is refused, always with the file and line: anything but `label: clause` statements; names
that are not ASCII (Python would fold 'ｐ' into 'p'), dunder or pyDatalog's own (ask, concat,
_pyD_...); calls of anything but a predicate or an aggregate; strings in arithmetic (pyDatalog
computes `string % x` with str.format, which reads attributes); bools, None, bytes, huge or
infinite numbers; comparisons of two constants (Python would evaluate them); clauses nested deeper
than MAX_DEPTH, statements longer than MAX_TOKENS, files over MAX_FILE_BYTES, NUL bytes and text
that is not UTF-8.  `%` is built as L - (L // R) * R, the same for numbers, so that a string bound
at run time never reaches str.format.
"""

from __future__ import annotations

import ast
import builtins
import io
import math
import operator
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from pyDatalog import pyParser

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
DEFAULT_RULES = "standard"

AGGREGATES = {"len_": "len_", "len": "len_", "sum_": "sum_", "sum": "sum_",
              "min_": "min_", "min": "min_", "max_": "max_", "max": "max_"}
AGGREGATE_KEYWORDS = {"order_by", "for_each", "key"}
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


@dataclass
class RuleSet:
    """The clauses of a rule set, in load order, after variants replaced their labels."""
    name: str
    files: list[Path]
    clauses: list[Clause] = field(default_factory=list)

    def labels(self) -> list[str]:
        return list(dict.fromkeys(c.label for c in self.clauses))

    def predicates(self) -> list[str]:
        return sorted({c.head for c in self.clauses})


# --------------------------------------------------------------------------------------------
# Checking

# Limits that keep a hostile file from exhausting the parser, the checker's recursion or memory.
MAX_FILE_BYTES = 1 << 20        # a rule file is text of a few kilobytes
MAX_TOKENS = 1000               # per statement; Python's own parser recurses ~3000 deep at most
MAX_DEPTH = 100                 # nesting of one clause's tree (the rules need ~25)
MAX_INT = 10 ** 18              # integer constants; with MAX_DEPTH, constant folding stays small


def _fail(path: Path, node: ast.AST | None, message: str, line: int = 0) -> RuleError:
    line = getattr(node, "lineno", None) or line
    return RuleError(f"{path}:{line}: {message}")


class _Checker:
    """Accepts a clause's tree only when every node is in the Datalog subset."""

    def __init__(self, path: Path):
        self.path = path
        self.line = 0              # the statement being checked, for nodes without a line

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
        _check_depth(node, self)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.LtE) \
                and self._is_head(node.left):
            head = self.head(node.left)
            self.body(node.comparators[0])
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

    def head(self, node: ast.expr) -> str:
        if isinstance(node, ast.Call):
            return self.literal(node)
        # (f[X, Y] == aggregate(...))
        if not (len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
            raise self.fail(node, "an aggregate head reads `(f[X] == aggregate(...))`")
        name = self.function(node.left)
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
        if len(node.args) != 1:
            raise self.fail(node, "an aggregate takes one variable")
        self.variable(node.args[0])
        for kw in node.keywords:
            if kw.arg not in AGGREGATE_KEYWORDS:
                raise self.fail(node, f"aggregate keyword {kw.arg!r} is not allowed")
            values = kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else [kw.value]
            for value in values:
                inner = value.operand if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub) else value
                self.variable(inner)

    def variable(self, node: ast.AST) -> str:
        ident = self.name(node, "a variable")
        if not VARIABLE.match(ident):
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
        else:
            raise self.fail(node, f"a body is literals joined by &, found {_describe(node)}")

    def expr(self, node: ast.expr) -> None:
        if isinstance(node, ast.Constant):
            self.constant(node)
        elif isinstance(node, ast.Name):
            self.name(node, "a term")
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
    """Parse and check one rule file (UTF-8, an optional BOM)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RuleError(f"{path}: cannot read rule file: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise RuleError(f"{path}:1: a rule file is at most {MAX_FILE_BYTES} bytes")
    try:
        source = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise RuleError(f"{path}:{line}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse_source(source, path)


def parse_source(source: str, path: Path) -> list[Clause]:
    """Parse and check the text of a rule file; RuleError names the file and line of a refusal."""
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
    if tokens is not None:
        for tok in tokens:
            if tok.type == tokenize.NAME and not tok.string.isascii():
                # Python folds identifiers (NFKC): 'ｐ' would silently be 'p'.  Names are ASCII.
                raise RuleError(f"{path}:{tok.start[0]}: the name {tok.string!r} is not ASCII")
    checker = _Checker(path)
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
        text = (ast.get_source_segment(source, stmt.annotation) or "").strip()
        clauses.append(Clause(label, path, stmt.lineno, head, stmt.annotation, text))
    return clauses


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
# Rule sets


def rule_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.dl") if p.is_file())


def resolve(rules: str | Path | None = None) -> RuleSet:
    """Find the files of a rule set: a name under rules/ or a directory of *.dl files.

    ``standard`` is rules/*.dl.  Another name ``X`` is rules/*.dl with the clauses of rules/X/*.dl
    replacing the labels they give (and adding new ones).  A path loads every *.dl directly in it.
    """
    rules = DEFAULT_RULES if rules is None else rules
    text = str(rules)
    candidate = Path(text).expanduser()
    if isinstance(rules, Path) or "/" in text or text.startswith(".") or (candidate.is_dir() and not _is_named(text)):
        if not candidate.is_dir():
            raise RuleError(f"{text}: not a directory of rule files")
        files = rule_files(candidate)
        if not files:
            raise RuleError(f"{text}: no *.dl rule files in it")
        rs = RuleSet(str(candidate), files)
        rs.clauses = _combine([parse_file(f) for f in files], [])
        return rs
    if not _is_named(text):
        names = ", ".join(available())
        raise RuleError(f"unknown rule set {text!r} (available: {names}; or give a directory)")
    base = rule_files(RULES_DIR)
    variant = [] if text == DEFAULT_RULES else rule_files(RULES_DIR / text)
    rs = RuleSet(text, base + variant)
    rs.clauses = _combine([parse_file(f) for f in base], [parse_file(f) for f in variant])
    return rs


def _is_named(text: str) -> bool:
    return text == DEFAULT_RULES or (re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", text) is not None
                                     and (RULES_DIR / text).is_dir())


def available() -> list[str]:
    """The named rule sets."""
    return [DEFAULT_RULES] + sorted(p.name for p in RULES_DIR.iterdir()
                                    if p.is_dir() and rule_files(p))


def _combine(base: list[list[Clause]], overrides: list[list[Clause]]) -> list[Clause]:
    """The base clauses, with every label that the overrides give replaced by their clauses.

    In the base and in the overrides alike, the clauses of one label stand together (one run in one
    file), so that a label cannot be shadowed by a second, distant group of the same name.  The
    overriding clauses stand where the base's first clause of the label stood; labels new to the
    base come last.
    """
    clauses, seen = _grouped(base)
    _grouped(overrides)
    replaced: dict[str, list[Clause]] = {}
    for file_clauses in overrides:
        for c in file_clauses:
            replaced.setdefault(c.label, []).append(c)
    if not replaced:
        return clauses
    out: list[Clause] = []
    for c in clauses:
        if c.label in replaced:                              # every base clause of the label goes;
            if seen[c.label] is c:                           # the variant's stand where its first stood
                out.extend(replaced[c.label])
            continue
        out.append(c)
    for label, new in replaced.items():                      # labels the base does not have
        if label not in seen:
            out.extend(new)
    return out


def _grouped(files: list[list[Clause]]) -> tuple[list[Clause], dict[str, Clause]]:
    """All clauses in order and the first clause of each label; RuleError if a label recurs apart."""
    clauses: list[Clause] = []
    seen: dict[str, Clause] = {}
    for file_clauses in files:
        previous = None
        for c in file_clauses:
            if c.label in seen and previous != c.label:
                first = seen[c.label]
                raise RuleError(f"{c.where}: label {c.label!r} is used already at {first.where}; "
                                "the clauses of one label stand together")
            seen.setdefault(c.label, c)
            previous = c.label
            clauses.append(c)
    return clauses, seen


# --------------------------------------------------------------------------------------------
# Building the clauses in pyDatalog (in the Logic of the current thread)


class _Builder:
    """Interprets a checked clause tree with pyDatalog's objects; nothing is exec'd."""

    def __init__(self, clause: Clause):
        self.clause = clause
        self.terms: dict[str, pyParser.Term] = {}

    def term(self, name: str) -> pyParser.Term:
        if name not in self.terms:
            self.terms[name] = pyParser.Term(name)
        return self.terms[name]

    def expr(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.term(node.id)
        if isinstance(node, ast.BinOp):
            left, right = self.expr(node.left), self.expr(node.right)
            if isinstance(node.op, ast.Mod) and (isinstance(left, pyParser.Expression)
                                                 or isinstance(right, pyParser.Expression)):
                # pyDatalog evaluates `L % R` as L.format(*R) when L is a string at run time, which
                # reads attributes ('{0.__class__}').  L - (L // R) * R is the same for numbers and
                # fails (no answer) for a string.
                return left - (left // right) * right
            return ARITH_OPS[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp):            # unary minus, checked
            value = self.expr(node.operand)
            return -value
        if isinstance(node, ast.Subscript):
            keys = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            built = [self.expr(k) for k in keys]
            return self.term(node.value.id)[tuple(built) if len(built) > 1 else built[0]]
        if isinstance(node, ast.Call):               # an aggregate
            kwargs = {}
            for kw in node.keywords:
                values = kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else None
                kwargs[kw.arg] = [self.expr(v) for v in values] if values is not None else self.expr(kw.value)
            return pyParser.Term(AGGREGATES[node.func.id])(self.expr(node.args[0]), **kwargs)
        raise AssertionError(f"unchecked node {node!r}")

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
        _Checker(clause.path).clause(clause.node)     # again: a Clause may be made by hand
        try:
            _Builder(clause).build(why)
        except RuleError:
            raise
        except Exception as exc:  # pyDatalog refuses the clause (e.g. an unsafe negation)
            raise RuleError(f"{clause.where}: pyDatalog cannot build clause {clause.label}: {exc}") from None
