"""The intermediate form (IR) of a rule set: each checked clause as ordered steps.

The loader's clauses (``engine.loader.Clause``, an ast) are read by :mod:`engine.datalog.reader`
into this form; the passes (:mod:`engine.datalog.passes`) annotate it; the evaluators (SQL on
DuckDB, the in-process run) and the proofs read it.  Its grammar::

    program   = { pred }                      predicates in dependency order (ProgramIR.order)
    pred      = name arity inputs world runtime optional types { rule }
    rule      = name "(" { term } ")" [ aggregate ] "<=" { step }      (Rule; the body in order)
    aggregate = ("len_" | "min_" | "max_" | "sum_") var { var }         (sum_'s for_each vars)
    step      = atom | compare                                          (read left to right)
    atom      = [ "~" ] name "(" { term } ")"                           (Atom; f[k] == v is f(k.., v))
    compare   = term ("==" | "!=" | "<" | "<=" | ">" | ">=") term      (Compare)
    term      = var | const | op                                        (Var, Const, Op)
    op        = term ("+" | "-" | "*" | "/" | "//" | "%") term | "neg" term

Names the passes add: ``demand$p`` (the values p's callers pass), ``p$static``/``p$world`` (the
parts of a split view); a function value the reader names is ``_f1``, ``_f2`` …
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

INT, STR = "BIGINT", "VARCHAR"          # the column types: floats are not compiled (passes.checks)
INT64 = (-2 ** 63, 2 ** 63 - 1)
DEMAND = "demand$"        # prefix of the relation of values a view is called with


class Untranslatable(Exception):
    """The rule set uses something the compiler cannot translate exactly (the message says what)."""


class EvaluationError(Exception):
    """A run-time error in the rules (division by zero, an integer overflow)."""


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


Step = Atom | Compare


@dataclass
class Rule:
    """One clause: head args, body steps; an aggregate clause also has its function."""
    clause: Any                         # the loader's Clause it was read from (where, label)
    pred: str
    head: tuple[Term, ...]
    body: list[Step]
    # (len_|min_|max_|sum_, the aggregated variable, sum_'s for_each variables)
    aggregate: tuple[str, Var, tuple[Var, ...]] | None = None
    demands: list["Rule"] = field(default_factory=list)   # per call of a view: what feeds its demand
    full: "Rule | None" = None          # an optional view's clause without its demand (asked whole)

    def fail(self, message: str) -> Untranslatable:
        return Untranslatable(f"{self.clause.where}: {self.clause.label}: {message}")


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


class ProgramIR:
    """The predicates of a rule set with what the passes found (engine.datalog.program.Program
    fills it).  ``inputs``: the input facts and their columns; ``asked``: what runs ask (the calls
    that narrowing serves)."""

    def __init__(self, inputs: Mapping[str, Sequence[str]], asked: Sequence[str]):
        self.inputs = dict(inputs)
        self.asked = tuple(asked)
        self.preds: dict[str, Pred] = {}
        self.strings: list[str] = []          # the rules' string constants, in order (passes.strings)
        self.codes: dict[str, int] = {}       # each string's code: its rank among them
        self.order: list[str] = []            # dependency order (passes.strata)
        self.dividing: set[str] = set()       # what divides by a variable or calls what does

    def all_rules(self) -> Iterable[Rule]:
        for pred in self.preds.values():
            yield from pred.rules

    def deps(self, pred: Pred) -> set[str]:
        """The predicates its clauses read (a view's demand is fed at run time, not a dependency)."""
        return {s.pred for r in pred.rules for s in r.body if isinstance(s, Atom) and not s.pred.startswith(DEMAND)}


def variables(term: Term) -> set[str]:
    """The names of a term's variables."""
    if isinstance(term, Var):
        return {term.name}
    if isinstance(term, Op):
        return variables(term.left) | (variables(term.right) if term.right is not None else set())
    return set()


def step_vars(step: Step) -> set[str]:
    """The names of a step's variables."""
    if isinstance(step, Compare):
        return variables(step.left) | variables(step.right)
    return set().union(*map(variables, step.args))


def terms(rule: Rule) -> Iterable[Term]:
    """The terms of a clause: its head's arguments, its literals' arguments, its comparisons' sides."""
    yield from rule.head
    for step in rule.body:
        yield from (step.args if isinstance(step, Atom) else (step.left, step.right))


def subterms(t: Term) -> Iterable[Term]:
    yield t
    if isinstance(t, Op):
        yield from subterms(t.left)
        if t.right is not None:
            yield from subterms(t.right)


def constants(rule: Rule) -> Iterable[Const]:
    return (s for t in terms(rule) for s in subterms(t) if isinstance(s, Const))


def divisors(rule: Rule) -> list[tuple[int, list[Term]]]:
    """Where a clause divides by something that can be zero: (k, the divisors of step k), k the
    step (``len(body)`` for the head), in body order; what pyDatalog evaluates at step k, it
    evaluates for every row of the steps before it."""
    out = []
    steps = [step.args if isinstance(step, Atom) else (step.left, step.right) for step in rule.body]
    for k, ts in enumerate([*steps, rule.head]):
        found = [s.right for t in ts for s in subterms(t) if isinstance(s, Op) and s.op in ("/", "//", "%")
                 and not (isinstance(s.right, Const) and s.right.value not in (0, None))]
        if found:
            out.append((k, found))
    return out


def term_text(t: Term, name=lambda v: v.name) -> str:
    """A term as text (``name``: how a variable is spelt)."""
    if isinstance(t, Var):
        return name(t)
    if isinstance(t, Op):
        if t.op == "neg":
            return f"-{term_text(t.left, name)}"
        return f"({term_text(t.left, name)} {t.op} {term_text(t.right, name)})"
    return repr(t.value)


def shape(rule: Rule) -> str:
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


def rule_text(rule: Rule) -> str:
    """A clause of the IR as one readable line (its aggregate, if any, after the head)."""
    head = f"{rule.pred}({', '.join(map(term_text, rule.head))})"
    if rule.aggregate:
        kind, var, each = rule.aggregate
        head += f" == {kind}({', '.join(v.name for v in (var, *each))})"
    body = [f"{'~' if s.negated else ''}{s.pred}({', '.join(map(term_text, s.args))})" if isinstance(s, Atom)
            else f"{term_text(s.left)} {s.op} {term_text(s.right)}" for s in rule.body]
    return head + (" <= " + " & ".join(body) if body else "")


def dump(program: ProgramIR) -> str:
    """The program as text, a predicate a paragraph in dependency order (or as defined, before
    the strata are known): its flags and column types, then its clauses and their demands."""
    lines: list[str] = []
    for name in program.order or list(program.preds):
        pred = program.preds[name]
        flags = [f for f, on in (("input", name in program.inputs), ("world", pred.world), ("runtime", pred.runtime),
                                 ("optional", pred.optional), ("dividing", name in program.dividing)) if on]
        if pred.inputs:
            flags.append("inputs=" + ",".join(map(str, sorted(pred.inputs))))
        types = ",".join(t or "?" for t in pred.types)
        lines.append(f"{name}/{pred.arity} [{' '.join(flags)}] ({types})")
        for rule in pred.rules:
            lines.append(f"  {rule_text(rule)}    # {rule.clause.label}")
            for d in rule.demands:
                lines.append(f"    feeds {rule_text(d)}")
    if program.strings:
        lines.append("strings: " + ", ".join(f"{i}={s!r}" for i, s in enumerate(program.strings)))
    return "\n".join(lines) + "\n"
