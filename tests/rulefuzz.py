"""A differential fuzzer of rule sets: pyDatalog, the in-process program and the SQL, held to each
other on generated rule sets.  Used by tests/test_fuzz_rules.py (CI) and bench/fuzz_rules.py.

Two generators, both deterministic functions of a seed (``random.Random``):

- :func:`edit_case`: random legal edits of the standard rule set (a comparison swapped, a constant
  changed, min_/max_ flipped, a literal negated, dropped or moved, a variable renamed, a clause
  added), each checked by the loader before it is kept;
- :func:`program_case`: small programs appended to the standard rules that define new predicates
  over hands, each program built around one *feature* (:data:`FEATURES`): arithmetic with
  negatives (``arith``; ``sides``: expressions on either side of a comparison), negation,
  aggregates, functions read in bodies, names that differ only in case, floats, integers past
  2**53 and past 2**63, divisions guarded in the body or in a caller (and unguarded: all fail),
  strings, head variables only a caller binds (``unsafe``); ``mixed`` combines several.

Each rule set is loaded by :class:`engine.Engine` and asked through ``Engine.reference``
(pyDatalog), ``Engine.evaluator(1)`` (the compiled program in-process) and
``Engine.evaluator(10**6)`` (the compiled program on DuckDB), twice: a few worlds (single hands, a
fight, an odd set: the calls a single ``poker rank``/``beat`` makes, ``beat(1, 2, R)`` bound) and
a batch of dozens (every answer asked whole, set-at-a-time).  pyDatalog is asked world by world,
so its answers for a call are those of the call's worlds; a call whose worlds make pyDatalog fail
must fail on the compiled evaluators too, with the same kind of error (:func:`error_kind`).  A
rule set the compiler refuses (``Engine.fallback``: Untranslatable) is a *refusal*, answered by
pyDatalog alone, and not compared.

:func:`shrink` drops clauses, literals, edits, asks and worlds greedily while the disagreement
stays, and :func:`describe` prints the smallest program that shows it.

pyDatalog swallows a failed expression whose value never reaches an answer (``X == 1 // 0`` then
``X == 3`` drops the row silently; ``len_`` counts the error value as one), where the compiled
program raises (and the Engine's evaluators, answering that world from pyDatalog, answer as it
does).  The generators never build such clauses: a division's value goes to the head, or to an
ordering comparison (which pyDatalog raises on), never to ``==``, a negation or ``len_``.
"""

from __future__ import annotations

import ast
import random
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from engine import Engine
from engine import interface as I
from engine.datalog.ir import Untranslatable
from engine.datalog.loader import RuleError
from engine.datalog.program import Program
from engine.evaluators import Ask, World

# --------------------------------------------------------------------------------------------
# Worlds: hands of every category, odd sets, fights


def card(value: int, suit: int) -> int:
    """The id of a card (value 1..13, ace 1; suit 1 heart .. 4 spade), as rules/cards.dl says."""
    return 13 * (suit - 1) + value


def _hand(*cards: tuple[int, int]) -> tuple[int, ...]:
    return tuple(card(v, s) for v, s in cards)


HANDS: dict[str, tuple[int, ...]] = {
    "royal": _hand((1, 1), (13, 1), (12, 1), (11, 1), (10, 1)),
    "straight flush": _hand((5, 4), (6, 4), (7, 4), (8, 4), (9, 4)),
    "four": _hand((9, 1), (9, 2), (9, 3), (9, 4), (13, 1)),
    "full house": _hand((3, 1), (3, 2), (3, 3), (8, 1), (8, 4)),
    "flush": _hand((2, 2), (5, 2), (7, 2), (9, 2), (11, 2)),
    "straight": _hand((4, 1), (5, 2), (6, 3), (7, 4), (8, 1)),
    "wheel": _hand((1, 1), (2, 2), (3, 3), (4, 4), (5, 1)),
    "broadway": _hand((10, 2), (11, 3), (12, 4), (13, 1), (1, 3)),
    "three": _hand((12, 1), (12, 2), (12, 3), (4, 4), (9, 1)),
    "two pair": _hand((11, 1), (11, 2), (2, 3), (2, 4), (4, 1)),
    "pair": _hand((1, 2), (1, 4), (7, 1), (5, 3), (3, 2)),
    "high card": _hand((13, 3), (11, 4), (8, 2), (6, 1), (2, 1)),
}
ODD: dict[str, tuple[int, ...]] = {
    "four aces": (1, 14, 27, 40),                           # getMax 1: only aces
    "empty": (),
    "a card twice": (1, 1, 2, 3, 4),
    "no cards": (0, 53, -1, 2, 3),                          # ids that are no card
    "six cards": (1, 2, 3, 4, 5, 6),
    "two cards": (7, 20),
}
# Ids past 2**53 (a double cannot tell 2**53 + 1 from 2**53) and near 2**63 (a few times more
# overflow 64 bits): asked only by the features about big numbers, so that an overflow of 64 bits
# shows under big63 alone.
BIG: dict[str, tuple[int, ...]] = {
    "ids past 2**53": (2 ** 53 + 1, -(2 ** 53) - 1, 2 ** 53 - 1, 5, 6),
    "ids near 2**63": (2 ** 62 + 1, -(2 ** 62) - 3, 2 ** 60, 5, 6),
}
# (Not under mixed: arithmetic on ids past 2**53 overflows 64 bits, and the failed runs answered
# again in halves would make the other features' cases as slow as big63's.)
BIG_WORLDS = {"big53": ("ids past 2**53",), "big63": ("ids past 2**53", "ids near 2**63")}
SETS = HANDS | ODD | BIG
# Two hands that may fight (disjoint), mostly of one category (the tie-breaks decide).
FIGHTS: dict[str, tuple[tuple[int, ...], ...]] = {
    "pairs": (_hand((11, 1), (11, 2), (2, 3), (2, 4), (4, 1)),
              _hand((10, 1), (10, 2), (9, 3), (9, 4), (8, 1))),
    "kicker": (_hand((1, 1), (1, 2), (7, 1), (5, 3), (3, 2)), _hand((1, 3), (1, 4), (7, 2), (5, 4), (2, 2))),
    "tie": (_hand((13, 1), (11, 1), (8, 2), (6, 1), (2, 1)), _hand((13, 2), (11, 2), (8, 3), (6, 2), (2, 2))),
    "flush/straight": (_hand((2, 2), (5, 2), (7, 2), (9, 2), (11, 2)),
                       _hand((4, 1), (5, 3), (6, 3), (7, 4), (8, 1))),
    "wheel/six": (_hand((1, 1), (2, 2), (3, 3), (4, 4), (5, 1)),
                  _hand((2, 1), (3, 1), (4, 2), (5, 2), (6, 3))),
    "royal/four": (_hand((1, 1), (13, 1), (12, 1), (11, 1), (10, 1)),
                   _hand((9, 1), (9, 2), (9, 3), (9, 4), (13, 2))),
    "shared card": (_hand((1, 1), (2, 2), (3, 3), (4, 4), (5, 1)),
                    _hand((1, 1), (9, 2), (10, 3), (11, 4), (12, 1))),
    "not a hand": (_hand((1, 1), (2, 2), (3, 3), (4, 4)), _hand((9, 2), (10, 3), (11, 4), (12, 1), (13, 1))),
    "table of three": (_hand((12, 1), (12, 2), (12, 3), (4, 4), (9, 1)),
                       _hand((3, 1), (3, 2), (3, 3), (8, 1), (8, 4)),
                       _hand((2, 2), (5, 2), (7, 2), (9, 2), (11, 2))),
}


def pick_worlds(rng: random.Random, hands: int = 16, fights: int = 8, big: Sequence[str] = (),
                checked: int = 4) -> tuple[tuple[World, ...], tuple[int, ...], tuple[int, ...]]:
    """A batch of worlds (one set each for hands and odd sets, seated sets for fights), the
    indices of the few also asked on their own (a hand, an odd set and a fight), and of those
    pyDatalog is always asked: those, the big ids, and a random sample of the rest."""
    must = ["four aces", *big]                  # the aces alone: getMax 1, a divisor V - 1 of 0
    others = [o for o in sorted(ODD) if o not in must]
    odd = must + rng.sample(others, max(0, min(len(others), hands - len(must) - 3)))
    chosen = odd + rng.sample(sorted(HANDS), max(0, hands - len(odd)))
    worlds = [World((SETS[n],)) for n in chosen[:max(hands, 2)]]
    worlds += [World(FIGHTS[n], table=True) for n in rng.sample(sorted(FIGHTS), min(fights, len(FIGHTS)))]
    rng.shuffle(worlds)
    hand = next(i for i, w in enumerate(worlds) if not w.table and w.hands[0] in HANDS.values())
    odd_set = next(i for i, w in enumerate(worlds) if not w.table and w.hands[0] not in HANDS.values())
    fight = next((i for i, w in enumerate(worlds) if w.table and len(w.hands) == 2), None)
    single = (hand, odd_set) + ((fight,) if fight is not None else ())
    must = set(single) | {i for i, w in enumerate(worlds) if not w.table and w.hands[0] in BIG.values()}
    rest = [i for i in range(len(worlds)) if i not in must]
    sample = must | set(rng.sample(rest, max(0, min(len(rest), checked - len(must)))))
    return tuple(worlds), single, tuple(sorted(sample))


def world_name(world: World) -> str:
    names = {v: k for k, v in SETS.items()}
    if world.table:
        fights = {v: k for k, v in FIGHTS.items()}
        return f"fight {fights.get(world.hands, world.hands)!r}"
    return f"set {names.get(world.hands[0], world.hands[0])!r}"


# --------------------------------------------------------------------------------------------
# Cases


@dataclass(frozen=True)
class Rule:
    """A generated clause: ``label: head <= body`` (a fact when the body is empty)."""
    label: str
    head: str
    body: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return f"{self.label}: {self.head}" + (f" <= {' & '.join(self.body)}" if self.body else "")


@dataclass(frozen=True)
class Edit:
    """An edit of the standard rule set: the clause at ``pos`` replaced by ``new`` (none: dropped;
    two: the clause and one added beside it)."""
    pos: int
    old: str
    new: tuple[str, ...]
    what: str

    def __str__(self) -> str:
        if not self.new:
            return f"{self.what}: drop  {self.old}"
        return f"{self.what}: {self.old}\n      -> " + "\n         ".join(self.new)


@dataclass(frozen=True)
class Case:
    """One rule set to ask: the standard rules (edited) plus generated clauses, its asks, worlds."""
    feature: str
    seed: int
    rules: tuple[Rule, ...] = ()
    edits: tuple[Edit, ...] = ()
    asks: tuple[tuple[str, int], ...] = ()       # new predicates asked (name, arity), all free
    standard_asks: bool = True                   # also getRank, beat, winner
    worlds: tuple[World, ...] = ()
    single: tuple[int, ...] = ()                 # the worlds also asked on their own (indices)
    checked: tuple[int, ...] = ()                # the worlds pyDatalog is always asked (see _judge)
    alone: bool = False                          # meant to fail somewhere: never run in a group
    expect: str = ""                             # a refused form: how the loader's line must start

    def names(self) -> set[str]:
        """The predicates its generated clauses define."""
        return {head_name(r.head) for r in self.rules}


def head_name(head: str) -> str:
    """The predicate (or function) a head defines: ``p(S, X)``, ``(f[S] == len_(C))``."""
    found = _NAME.search(head)
    assert found is not None, head
    return found.group(0)


_NAME = re.compile(r"[a-z][A-Za-z0-9_]*")


def standard_clauses() -> list[str]:
    """Every clause of the standard rule set, as ``label: text``, in load order."""
    global _STANDARD
    if _STANDARD is None:
        from engine.datalog.rulesets import resolve
        clauses = resolve(None).clauses
        _STANDARD = [f"{c.label}: {c.text}" for c in clauses]
        _CORE.update(i for i, c in enumerate(clauses)
                     if c.path.name in ("cards.dl", "poker.dl", "ranking.dl", "fighting.dl"))
    return _STANDARD


_STANDARD: list[str] | None = None
_CORE: set[int] = set()          # positions of the clauses getRank and beat can depend on


def rule_text(case: Case) -> str:
    lines = list(standard_clauses())
    for e in sorted(case.edits, key=lambda e: -e.pos):
        lines[e.pos:e.pos + 1] = list(e.new)
    return "\n".join(lines + ["", "# generated"] + [r.text for r in case.rules]) + "\n"


# --------------------------------------------------------------------------------------------
# Asking the three evaluators


SINGLE_ASKS = (Ask("getRank", (None, None)), Ask("beat", (1, 2, None)), Ask("winner", (0, None)))
BATCH_ASKS = (Ask("getRank", (None, None)), Ask("beat", (None, None, None)), Ask("winner", (None, None)),
              Ask("invalidTable", (None,)))


def error_kind(exc: BaseException) -> str:
    """What kind of failure an evaluator reports, the same words for every evaluator.

    pyDatalog keeps a failed expression as a value (``ZeroDivisionError(...)`` in an answer), and
    a comparison or an arithmetic step that meets it raises TypeError naming the exception's class;
    in the generated programs a failed expression is always a division by zero.  The compiled
    evaluators raise EvaluationError (or, answering a failed world from pyDatalog, RuleFailure).
    """
    text = " ".join(str(exc).split())
    name = type(exc).__name__
    if isinstance(exc, ZeroDivisionError) or "division by zero" in text or "ZeroDivisionError" in text:
        return "division by zero"
    if any(f"'{k}'" in text for k in ("TypeError", "ZeroDivisionError", "ArithmeticError")):
        # pyDatalog: an operation met a failed division's value (raised as TypeError, or as the
        # engine's RuleFailure quoting it)
        return "division by zero"
    if "overflow" in text.lower() or isinstance(exc, OverflowError):
        return "integer overflow"
    return f"{name}: {text[:200]}"


def _rows_error(answers: dict) -> str | None:
    """pyDatalog's value of a failed expression, found in its answers, as an error kind."""
    for rows in answers.values():
        for row in rows:
            for v in row:
                if isinstance(v, BaseException):
                    return error_kind(v)
    return None


def _typed(rows: list[tuple]) -> list[tuple]:
    """Rows with each value's type beside it: 3 and 3.0 are not the same answer."""
    return [tuple((type(v).__name__, v) for v in row) for row in rows]


@dataclass
class Outcome:
    """What one evaluator gave for one call: answers per world, or an error kind."""
    answers: list[dict] | None = None
    error: str | None = None


@dataclass
class Mismatch:
    evaluator: str
    call: str
    kind: str      # answers, error vs answers, answers vs error, error kind, failure as a value,
    #                cannot build (pyDatalog), cannot load (Engine)
    detail: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.evaluator, self.kind)

    @property
    def fingerprint(self) -> tuple[str, str, str]:
        """What kind of disagreement this is, for the shrinker: the evaluator, the kind, and the
        failures named (a smaller program must disagree the same way, not merely somehow)."""
        named = sorted(set(re.findall(r"\((division by zero|integer overflow|[A-Za-z]+Error)", self.detail)))
        if self.kind == "cannot build":
            named = [self.detail.rsplit(": ", 1)[-1]]
        return (self.evaluator, self.kind, ",".join(named))


@dataclass
class Result:
    """A case's verdict: ``agree``, ``refused`` (the compiler's reason: pyDatalog alone answers),
    ``rejected`` (the loader's: not a legal rule set, a generator's fault), ``disagree`` (the
    mismatches; also a legal rule set that pyDatalog cannot build, which the compiled evaluators
    answer)."""
    status: str
    reason: str = ""
    mismatches: list[Mismatch] = field(default_factory=list)
    errors: set[str] = field(default_factory=set)        # error kinds all evaluators agreed on
    rows: int = 0                                         # answers compared
    seconds: float = 0.0

    @property
    def signature(self) -> set[tuple[str, str]]:
        return {m.key for m in self.mismatches}

    @property
    def fingerprints(self) -> set[tuple[str, str, str]]:
        return {m.fingerprint for m in self.mismatches}


def _call(evaluator: Any, worlds: Sequence[World], asks: Sequence[Ask]) -> Outcome:
    try:
        return Outcome(answers=[dict(a) for a in evaluator.answers(list(worlds), list(asks))])
    except Exception as exc:                 # noqa: BLE001 - every failure is an outcome to compare
        return Outcome(error=error_kind(exc))


def _reference(engine: Engine, world: World, asks: Sequence[Ask]) -> Outcome:
    """pyDatalog on one world: its answers, or the kind of failure (raised, or kept as a value)."""
    if not asks:
        return Outcome(answers=[{}])
    out = _call(engine.reference, [world], asks)
    if out.answers is not None:
        kind = _rows_error(out.answers[0])
        if kind is not None:
            return Outcome(error=kind)
    return out


_STANDARD_ANSWERS: dict[World, Outcome] = {}
_STANDARD_ENGINE: list[Engine] = []


def standard_answers(world: World) -> Outcome:
    """pyDatalog's answers to getRank, beat and winner under the standard rules (memoised).

    A program appended to the standard rules defines only new predicates, so pyDatalog's answers
    to the standard ones are the standard rule set's, whatever the program: they are asked once
    per world.  (The compiled evaluators are asked them under every rule set: the compiled program
    is analysed as a whole, and a new caller can change how it computes the old predicates.)
    """
    out = _STANDARD_ANSWERS.get(world)
    if out is None:
        if not _STANDARD_ENGINE:
            _STANDARD_ENGINE.append(Engine())
        asks = list(dict.fromkeys(SINGLE_ASKS + BATCH_ASKS))
        out = _STANDARD_ANSWERS[world] = _reference(_STANDARD_ENGINE[0], world, asks)
    return out


def _joined(a: Outcome, b: Outcome) -> Outcome:
    if a.error is not None or b.error is not None:
        return Outcome(error=" | ".join(e for e in (a.error, b.error) if e is not None))
    assert a.answers is not None and b.answers is not None
    return Outcome(answers=[{**a.answers[0], **b.answers[0]}])


def _expected(per_world: list[Outcome], asks: Sequence[Ask]) -> Outcome:
    """What a call over these worlds must give: pyDatalog's answers, or its failure."""
    errors = sorted({e for o in per_world if o.error is not None for e in o.error.split(" | ")})
    if errors:
        return Outcome(error=" | ".join(errors))
    return Outcome(answers=[{a: o.answers[0][a] for a in asks} for o in per_world])  # type: ignore[index]


def _compare(name: str, call: str, want: Outcome, got: Outcome, worlds: Sequence[World],
             asks: Sequence[Ask]) -> list[Mismatch]:
    if got.answers is not None:
        for i, answers in enumerate(got.answers):
            kind = _rows_error(answers)
            if kind is not None:            # never an answer: pyDatalog's value for a failure
                return [Mismatch(name, call, "failure as a value",
                                 f"{name} answers with an exception object as a value ({kind}) in "
                                 f"{world_name(worlds[i])}: {_first_failed(answers)}")]
    if want.error is not None and got.error is not None:
        if got.error in want.error.split(" | "):
            return []
        return [Mismatch(name, call, "error kind", f"pyDatalog: {want.error}; {name}: {got.error}")]
    if want.error is not None:
        return [Mismatch(name, call, "answers vs error", f"pyDatalog fails ({want.error}); {name} answers")]
    if got.error is not None:
        return [Mismatch(name, call, "error vs answers", f"{name} fails ({got.error}); pyDatalog answers")]
    out = []
    assert want.answers is not None and got.answers is not None
    for i, (w, g) in enumerate(zip(want.answers, got.answers)):
        for a in asks:
            if _typed(w[a]) != _typed(g.get(a, [])):
                out.append(Mismatch(name, call, "answers",
                                    f"{world_name(worlds[i])}: {a.pred}{_args(a)}: pyDatalog {_short(w[a])}; "
                                    f"{name} {_short(g.get(a, []))}"))
    return out


def _first_failed(answers: dict) -> str:
    for ask, rows in answers.items():
        for row in rows:
            if any(isinstance(v, BaseException) for v in row):
                return f"{ask.pred}{row!r}"
    return ""


def _short(rows: list[tuple], most: int = 8) -> str:
    text = repr(rows[:most])
    return text if len(rows) <= most else text[:-1] + f", ... ({len(rows)} rows)]"


def _args(ask: Ask) -> str:
    return "(" + ", ".join("_" if a is None else repr(a) for a in ask.args) + ")"


RAW = False      # compare the compiled program itself: no world answered again by pyDatalog


def run_case(case: Case) -> Result:
    """Load the case's rule set in an Engine and compare the three evaluators on its worlds.

    The compiled evaluators are the Engine's: a world whose compiled run fails is answered by
    pyDatalog (engine.evaluators.exact).  With :data:`RAW`, that fallback is off, and what is
    compared is the compiled program itself (bench/fuzz_rules.py --raw).
    """
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="rulefuzz-"))
    try:
        (folder / "fuzz.dl").write_text(rule_text(case), encoding="utf-8")
        try:
            engine = Engine(folder)
        except RuleError as exc:
            return Result("rejected", str(exc), seconds=time.perf_counter() - started)
        except Exception as exc:         # noqa: BLE001 - the compiled program fails on the static relations
            reason = f"Engine() fails: {error_kind(exc)}"
            return Result("disagree", reason, [Mismatch("in-process", "load", "cannot load", reason)],
                          seconds=time.perf_counter() - started)
        if engine.fallback is not None:
            return Result("refused", engine.fallback, seconds=time.perf_counter() - started)
        try:                                       # pyDatalog builds the clauses on first use
            engine.reference.answers([World(())], [])
        except RuleError as exc:
            # The loader and the compiler took the rule set, and the compiled evaluators answer
            # it; pyDatalog, the reference, cannot even build it.
            reason = " ".join(str(exc).split(": ", 1)[-1].split())
            return Result("disagree", reason, [Mismatch("pyDatalog", "build", "cannot build", reason)],
                          seconds=time.perf_counter() - started)
        result = _judge(engine, case)
        result.seconds = time.perf_counter() - started
        return result
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _judge(engine: Engine, case: Case) -> Result:
    """Ask the three evaluators, compare.

    The worlds asked alone are asked together of each compiled evaluator (one call, as
    ``poker beat`` makes), then the whole batch (one call, set-at-a-time).  pyDatalog, which
    answers one world at a time in milliseconds per predicate, is asked the worlds ``checked``
    (those asked alone and a random sample of the batch); the other worlds of the batch are asked
    of pyDatalog too when the two compiled evaluators fail or differ from each other there.
    """
    new = tuple(Ask(name, (None,) * n) for name, n in case.asks)
    single_asks = (SINGLE_ASKS if case.standard_asks else ()) + new
    batch_asks = (BATCH_ASKS if case.standard_asks else ()) + new
    worlds = list(case.worlds)
    every = tuple(dict.fromkeys(single_asks + batch_asks))
    ref: dict[tuple[int, tuple[Ask, ...]], Outcome] = {}

    def asked(i: int, asks: tuple[Ask, ...]) -> Outcome:
        if (i, asks) not in ref:
            if case.edits or not case.standard_asks:
                ref[i, asks] = _reference(engine, worlds[i], asks)
            else:                            # the standard predicates' answers are the standard rules'
                ref[i, asks] = _joined(standard_answers(worlds[i]),
                                       _reference(engine, worlds[i], [a for a in asks if a in new]))
        return ref[i, asks]

    def asks_of(i: int) -> tuple[Ask, ...]:
        """Every ask of world i's calls: the batch's, and the single call's where it is asked alone."""
        return every if i in case.single else batch_asks

    def reference(i: int, asks: Sequence[Ask]) -> Outcome:
        """pyDatalog's outcome in world i for a call of these asks: asked once with every ask of
        the world's calls, and again with these alone where that failed (a failure of the other
        call's asks, beat with every argument free, is not this call's)."""
        outcome = asked(i, asks_of(i))
        if outcome.error is None or tuple(asks) == asks_of(i):
            return outcome
        return asked(i, tuple(asks))

    checked = sorted(set(case.checked) | set(case.single)) if case.checked else list(range(len(worlds)))
    for i in checked:
        asked(i, asks_of(i))
    local, sql = engine.evaluator(1), engine.evaluator(10 ** 6)
    assert local is not sql and local is not engine.reference and sql is not engine.reference
    _one_thread(sql)
    if RAW:
        for evaluator in (local, sql):
            if getattr(evaluator, "reference", None) is not None:
                evaluator.reference = None
    evaluators = (("in-process", local), ("SQL", sql))
    mismatches: list[Mismatch] = []
    errors: set[str] = set()
    rows = 0

    def compare(call: str, idx: list[int], asks: Sequence[Ask], got: dict[str, Outcome]) -> None:
        nonlocal rows
        want = _expected([reference(i, asks) for i in idx], asks)
        ws = [worlds[i] for i in idx]
        for name, outcome in got.items():
            found = _compare(name, call, want, outcome, ws, asks)
            mismatches.extend(found)
            if not found and want.error is not None:
                errors.add(want.error)
            if not found and want.answers is not None:
                rows += sum(len(r) for a in want.answers for r in a.values())

    try:
        if case.single:
            ws = [worlds[i] for i in case.single]
            compare("single", list(case.single), single_asks,
                    {name: _call(ev, ws, single_asks) for name, ev in evaluators})
        got = {name: _call(ev, worlds, batch_asks) for name, ev in evaluators}
        a, b = got.values()
        whole = a.answers is None or b.answers is None or _has_failed_values(a) or _has_failed_values(b) \
            or [{k: _typed(v) for k, v in x.items()} for x in a.answers] \
            != [{k: _typed(v) for k, v in x.items()} for x in b.answers]
        if whole:                        # they fail or differ: every world asked of pyDatalog
            compare("batch", list(range(len(worlds))), batch_asks, got)
        else:
            compare("batch", checked, batch_asks,
                    {name: Outcome(answers=[o.answers[i] for i in checked]) for name, o in got.items()})
    finally:
        close = getattr(getattr(sql, "compiled", None), "close", None)
        if close is not None:
            close()
    if mismatches:
        return Result("disagree", mismatches[0].detail, mismatches, errors, rows)
    return Result("agree", "", [], errors, rows)


def _one_thread(evaluator: Any) -> None:
    """One DuckDB thread for the SQL evaluator (the default is one a core): the tests run a worker
    a core, as ``poker judge`` runs its databases (Engine.workers), and DuckDB's own threads gain
    little on the rules' small joins while they contend with the other worker's."""
    compiled = getattr(evaluator, "compiled", None)
    if compiled is not None and hasattr(compiled, "query"):
        compiled.query("SET threads = 1")


def _has_failed_values(outcome: Outcome) -> bool:
    return any(_rows_error(a) is not None for a in outcome.answers or [])


# --------------------------------------------------------------------------------------------
# Shrinking


def _candidates(case: Case) -> Iterable[Case]:
    """Smaller cases, the largest steps first: fewer edits, clauses, asks, literals, worlds."""
    for i in range(len(case.edits)):
        yield replace(case, edits=case.edits[:i] + case.edits[i + 1:])
    for i in range(len(case.rules)):
        rules = case.rules[:i] + case.rules[i + 1:]
        names = {head_name(r.head) for r in rules}
        yield replace(case, rules=rules,
                      asks=tuple(a for a in case.asks if a[0] in names or a[0] in CASE_NAMES))
    if case.standard_asks and (case.asks or case.edits):
        yield replace(case, standard_asks=False)
    for i in range(len(case.asks)):
        if len(case.asks) > 1 or case.standard_asks:
            yield replace(case, asks=case.asks[:i] + case.asks[i + 1:])
    for i, r in enumerate(case.rules):
        for j in range(len(r.body)):
            if len(r.body) > 1:
                smaller = replace(r, body=r.body[:j] + r.body[j + 1:])
                yield replace(case, rules=case.rules[:i] + (smaller,) + case.rules[i + 1:])
    n = len(case.worlds)
    if case.single:
        yield replace(case, single=())
    for size in (n // 2, n // 4, 1):
        if 0 < size < n:
            for start in range(0, n, size):
                keep = [i for i in range(n) if not start <= i < start + size]
                yield _keep_worlds(case, keep)


def _keep_worlds(case: Case, keep: list[int]) -> Case:
    where = {old: new for new, old in enumerate(keep)}
    return replace(case, worlds=tuple(case.worlds[i] for i in keep),
                   single=tuple(where[i] for i in case.single if i in where), checked=())


def shrink(case: Case, result: Result, budget: float = 120.0,
           run: Callable[[Case], Result] = run_case) -> tuple[Case, Result]:
    """The smallest case found (greedily, within ``budget`` seconds) that still disagrees the
    way ``result`` first does (the same evaluator, kind of mismatch and failures named)."""
    want = result.mismatches[0].fingerprint
    deadline = time.perf_counter() + budget
    progress = True
    while progress and time.perf_counter() < deadline:
        progress = False
        for smaller in _candidates(case):
            if time.perf_counter() > deadline:
                break
            got = run(smaller)
            if got.status == "disagree" and want in got.fingerprints:
                case, result, progress = smaller, got, True
                break
    return case, result


def describe(case: Case, result: Result) -> str:
    """A disagreement, for a person: the program (or the edits), the worlds, what each gave."""
    lines = [f"[{case.feature} seed={case.seed}] {result.status}: {result.reason}"]
    if case.edits:
        lines.append("  edits of the standard rules:")
        lines += [f"    {e}" for e in case.edits]
    if case.rules:
        lines.append("  appended to the standard rules:")
        lines += [f"    {r.text}" for r in case.rules]
    asked = [f"{n}/{k}" for n, k in case.asks] + (["getRank", "beat", "winner"] if case.standard_asks else [])
    lines.append(f"  asked: {', '.join(asked)}")
    alone = ", ".join(world_name(case.worlds[i]) for i in case.single)
    worlds = ", ".join(world_name(w) for w in case.worlds)
    lines.append(f"  worlds: {worlds}" + (f"; alone: {alone}" if alone else ""))
    seen = set()
    for m in result.mismatches:
        if (m.evaluator, m.call, m.detail) not in seen:
            seen.add((m.evaluator, m.call, m.detail))
            who = "pyDatalog" if m.evaluator == "pyDatalog" else f"{m.evaluator} vs pyDatalog"
            lines.append(f"  {who} ({m.call}, {m.kind}): {m.detail}")
        if len(seen) >= 6:
            lines.append("  ...")
            break
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Generator (b): small programs over hands, one feature each

FEATURES = ("arith", "sides", "negation", "aggregates", "functions", "case", "floats", "big53", "big63",
            "div_body", "div_caller", "strings", "unsafe", "grammar")
MIXED = "mixed"
# What ``mixed`` combines: not floats (a float makes the compiler refuse the whole rule set) nor
# big63 (its programs overflow in most worlds, and each failed SQL run is answered again in halves).
MIXABLE = ("arith", "negation", "aggregates", "functions", "case", "big53", "div_body", "div_caller",
           "strings")


class _Gen:
    """Builds one program: predicates named with a tag of the case, clauses, the predicates asked."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.rules: list[Rule] = []
        self.asks: list[tuple[str, int]] = []
        self.called: set[str] = set()
        self.count = 0
        self.alone = False          # a program meant to fail (an unguarded division): run alone
        self.slow = False           # its compiled runs may fail (and be answered again in halves)

    def name(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.rng.randrange(10 ** 4)}x{self.count}"

    def add(self, head: str, *body: str) -> None:
        label = head_name(head) + "_F"
        self.rules.append(Rule(label, head, tuple(body)))

    def ask(self, name: str, arity: int) -> None:
        if (name, arity) not in self.asks:
            self.asks.append((name, arity))

    def call(self, name: str) -> str:
        self.called.add(name)
        return name

    def pick(self, *options: Any) -> Any:
        return self.rng.choice(options)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def small(self, low: int = -9, high: int = 15) -> int:
        return self.rng.randint(low, high)

    def nonzero(self) -> int:
        return self.pick(-7, -5, -3, -2, -1, 2, 3, 4, 5, 7, 13)

    def source(self) -> tuple[str, str]:
        """A first literal that binds S and an integer variable (V: a value, C: a card id …)."""
        return self.pick(("getMax(S, V)", "V"), ("hasValue(S, V)", "V"), ("member(S, C)", "C"),
                         ("member(S, C) & getValue(C, V)", "V"), ("size(S, V)", "V"),
                         ("getRank(S, V)", "V"), ("holds(S, I, C)", "C"), ("holds(S, V, C)", "V"),
                         ("pairOf(S, V)", "V"))

    def expr(self, var: str, depth: int = 2, divide: bool = True) -> str:
        """Integer arithmetic over var: + - * and // % by nonzero constants (often negative)."""
        if depth == 0 or self.chance(0.25):
            return self.pick(var, var, str(self.small()), f"-{var}", f"(0 - {var})")
        left, right = self.expr(var, depth - 1, divide), self.expr(var, depth - 1, divide)
        ops = ["+", "-", "*"] + (["//", "%", "//", "%"] if divide else [])
        op = self.pick(*ops)
        if op in ("//", "%"):
            right = str(self.nonzero())
        return f"({left} {op} {right})"

    def cmp(self) -> str:
        return self.pick("==", "!=", "<", "<=", ">", ">=")


def _arith(g: _Gen) -> None:
    p = g.name("ar")
    for _ in range(g.pick(1, 1, 2)):
        src, v = g.source()
        body = [src, f"(X == {g.expr(v)})"]
        if g.chance(0.5):
            body.append(f"(X {g.cmp()} {g.small()})")
        if g.chance(0.3):                # an expression on the left (of == : X first, as the loader wants)
            e, op = g.expr(v, 1), g.cmp()
            body.append(f"(X == {e})" if op == "==" else f"({e} {op} X)")
        g.add(f"{p}(S, X)", *body)
    g.ask(p, 2)
    if g.chance(0.5):
        q = g.name("aq")
        g.add(f"{q}(S, Y)", f"{g.call(p)}(S, X)", f"(Y == {g.expr('X', 2)})",
              *([f"hasValue(S, {g.pick('Y', 'X', 'Y + 1', 'X % 13')})"] if g.chance(0.4) else []))
        g.ask(q, 2)
    if g.chance(0.3):                    # an expression as a literal's argument
        r = g.name("ap")
        arg = g.pick('V + 1', 'V - 1', 'V * 2', '(V + 6) % 13 + 1', '-V + 14')
        g.add(f"{r}(S, V)", "hasValue(S, V)", f"hasValue(S, {arg})")
        g.ask(r, 2)


def _sides(g: _Gen) -> None:
    """Comparisons with an expression on either side, or both: ``X == expr`` binds X as pyDatalog
    reads it, ``expr < X`` and ``c == expr`` test; now and then ``expr == X``, which pyDatalog
    cannot build (the loader refuses it: write the variable first)."""
    src, v = g.source()
    left = g.pick(f"{v} - 3", f"-{v}", f"(0 - {v})", f"2 * {v} - 1", f"({v} - 3) - 12", f"-{v} - 1",
                  f"{v} % 4 - 1", f"({v} + 1) * 2", f"{v} // 3 + {v}")
    p = g.name("sd")
    g.add(f"{p}(S, X)", src, f"(X == {g.expr(v, 1)})", f"({left} {g.pick('!=', '<', '>=', '<=')} X)")
    g.ask(p, 2)
    q = g.name("sq")                         # the expression binds X: X == expr, or expr == X
    extra = [f"(X {g.cmp()} {g.small()})"] if g.chance(0.5) else []
    g.add(f"{q}(S, X)", src, f"({left} == X)" if g.chance(0.2) else f"(X == {left})", *extra)
    g.ask(q, 2)
    r = g.name("sb")                         # expressions on both sides, or a constant first
    e1, op, e2 = g.expr("V", 1), g.cmp(), g.expr("V", 1)
    test = f"({g.small()} == {e2} + 1)" if op == "==" else f"({e1} {op} {e2} + 1)"
    g.add(f"{r}(S, V)", "hasValue(S, V)", test)
    g.ask(r, 2)


SET_PREDICATES = ("isPair(S)", "isThree(S)", "isFour(S)", "isFlush(S)", "isStraight(S)", "isHand(S)",
                  "isA(S)", "isK(S)", "hasCard(S)", "isEmpty(S)", "isSetCard(S)", "secondPair(S)")


def _negation(g: _Gen) -> None:
    p = g.name("ng")
    first = g.pick("declared(S)", "isSetCard(S)", "hasCard(S)", "isHand(S)")
    negs = g.rng.sample(SET_PREDICATES, g.pick(1, 2))
    g.add(f"{p}(S)", first, *(f"~{n}" for n in negs))
    g.ask(p, 1)
    q = g.name("nv")
    k = g.small(0, 14)
    g.add(f"{q}(S, V)", "hasValue(S, V)", g.pick("~pairOf(S, V)", "~threeOf(S, V)", "~hasValue(S, V + 1)"),
          *([f"(V {g.cmp()} {k})"] if g.chance(0.5) else []))
    g.ask(q, 2)
    r = g.name("nr")
    g.add(f"{r}(S)", g.pick("declared(S)", "isSetCard(S)"),
          g.pick(f"~hasValue(S, {k})", f"~{g.call(q)}(S, {k})", "~pairOf(S, W)", "~member(S, 1)",
                 f"~{g.call(p)}(S)"))
    g.ask(r, 1)
    if g.chance(0.5):                    # a chain of negations over new predicates
        t = g.name("nt")
        g.add(f"{t}(S)", "declared(S)", f"~{g.call(r)}(S)", *([f"~{g.call(p)}(S)"] if g.chance(0.5) else []))
        g.ask(t, 1)
    if g.chance(0.4):                    # negation in a fight: sets that share no card
        u = g.name("nf")
        g.add(f"{u}(A, B)", "seat(T, A)", "seat(T, B)", "(A != B)",
              g.pick("~shareCard(A, B)", "~beat(A, B, 1)", "~validFighting(A, B)"))
        g.ask(u, 2)


def _aggregates(g: _Gen) -> None:
    f = g.name("cnt")
    k = g.small(0, 13)
    g.add(f"({f}[S] == len_(C))", "member(S, C)", "getValue(C, V)", f"(V {g.cmp()} {k})")
    lo = g.name("lo")
    src, v = g.pick(("hasValue(S, V)", "V"), ("member(S, C)", "C"), ("holds(S, I, C)", "I"))
    agg = g.pick("min_", "max_")
    if g.chance(0.5):
        g.add(f"({lo}[S] == {agg}(Y, order_by=Y))", src, f"(Y == {g.expr(v, 2)})")
    else:
        extra = [f"({v} {g.cmp()} {g.small()})"] if g.chance(0.5) else []
        g.add(f"({lo}[S] == {agg}({v}, order_by={v}))", src, *extra)
    byv = g.name("byv")
    g.add(f"({byv}[S, V] == len_(C))", "member(S, C)", "getValue(C, V)")
    p = g.name("ag")
    g.add(f"{p}(S, X)", g.pick("declared(S)", "isSetCard(S)", "hasCard(S)"),
          f"(X == {g.pick(f'{f}[S] * 2 - {lo}[S]', f'{f}[S]', f'{lo}[S] - 1', f'-{f}[S]')})")
    g.ask(p, 2)
    q = g.name("av")
    extra = [f"(N {g.cmp()} {g.small(1, 3)})"] if g.chance(0.6) else []
    g.add(f"{q}(S, V, N)", "hasValue(S, V)", f"({byv}[S, V] == N)", *extra)
    g.ask(q, 3)
    r = g.name("ax")
    g.add(f"{r}(S, X)", f"({lo}[S] == X)")
    g.ask(r, 2)
    if g.chance(0.6):                     # sum_: over the distinct (value, for_each) rows
        sm = g.name("sm")
        each = g.pick("C", "V", "(C, V)", "I")
        body = ["holds(S, I, C)", "getValue(C, V)"] if each == "I" else ["member(S, C)", "getValue(C, V)"]
        kw = g.pick("for_each", "key")
        g.add(f"({sm}[S] == sum_({g.pick('V', 'C')}, {kw}={each}))", *body,
              *([f"(V {g.cmp()} {g.small(1, 13)})"] if g.chance(0.5) else []))
        z = g.name("az")
        g.add(f"{z}(S, X)", f"({sm}[S] == X)")
        g.ask(z, 2)
    if g.chance(0.5):                     # an aggregate over a new predicate, by two keys
        t = g.name("at")
        g.add(f"({t}[S, N] == {g.pick('min_', 'max_')}(V, order_by=V))", f"{g.call(q)}(S, V, N)")
        u = g.name("au")
        g.add(f"{u}(S, N, X)", f"({t}[S, N] == X)")
        g.ask(u, 3)


def _functions(g: _Gen) -> None:
    """Functions (aggregates' values) read in bodies: compared with a variable bound before or
    not, nested, in expressions, against each other; now and then compared with one of their own
    keys, or by != < > (pyDatalog reads both otherwise: the compiler refuses them)."""
    byv = g.name("byv")
    g.add(f"({byv}[S, V] == len_(C))", "member(S, C)", "getValue(C, V)")
    top = g.name("top")
    extra = [f"(V {g.cmp()} {g.small(1, 13)})"] if g.chance(0.5) else []
    g.add(f"({top}[S] == max_(V, order_by=V))", "hasValue(S, V)", *extra)
    p = g.name("fk")                       # the value is one of the keys, or compared after it
    first = g.pick("declared(S)", "isSetCard(S)", "hasValue(S, M)", "hasCard(S)")
    if g.chance(0.2):
        test = f"({byv}[S, M] == M)"
    elif first == "hasValue(S, M)":
        test = f"({byv}[S, M] == N) & (N >= 2)"
    else:
        test = f"({byv}[S, V] == M) & (M >= 2)"     # the function's keys bound by the function
    g.add(f"{p}(S, M)", first, test)
    g.ask(p, 2)
    q = g.name("fn")                       # nested: the count of the top value
    g.add(f"{q}(S, X)", g.pick("declared(S)", "isSetCard(S)"),
          g.pick(f"(X == {byv}[S, {top}[S]])", f"(X == cardCount[S] - {byv}[S, {top}[S]] * 2)",
                 f"({byv}[S, {top}[S]] == X)"))
    g.ask(q, 2)
    r = g.name("fc")                       # two functions compared, keys bound before
    op = g.pick("<", "!=", ">=") if g.chance(0.2) else "=="
    g.add(f"{r}(S, V, W)", "hasValue(S, V)", "hasValue(S, W)", "(V < W)", f"({byv}[S, V] {op} {byv}[S, W])")
    g.ask(r, 3)
    if g.chance(0.5):                      # a function whose value binds a literal's argument
        t = g.name("ft")
        g.add(f"{t}(S, C)", f"({top}[S] == V)", "member(S, C)", "getValue(C, V)")
        g.ask(t, 2)


def _unsafe(g: _Gen) -> None:
    """Clauses whose head has a variable that only the caller binds (the loader takes them: a
    head variable counts as bound), asked with it free, and called with it bound and free.
    pyDatalog mostly fails on them (DatalogError, StopIteration): they run alone."""
    g.alone = True
    p = g.name("us")
    k = g.small(0, 13)
    g.add(f"{p}(S, Y)", g.pick("isHand(S)", "declared(S)", "hasValue(S, V)"),
          g.pick(f"(Y {g.pick('<', '>=', '!=')} {k})", "~member(S, Y)", "(Y == V)", "~hasValue(S, Y)"))
    if g.chance(0.5):                     # and a clause that binds it
        g.add(f"{p}(S, {k})", g.pick("isPair(S)", "isFlush(S)", "hasCard(S)"))
    g.ask(p, 2)
    q = g.name("ub")                      # called with it bound: safe
    g.add(f"{q}(S)", "isHand(S)", f"{g.call(p)}(S, {g.small(0, 13)})")
    g.ask(q, 1)
    if g.chance(0.6):                     # called with it free
        r = g.name("uf")
        g.add(f"{r}(S, Y)", "declared(S)", f"{g.call(p)}(S, Y)")
        g.ask(r, 2)


# Standard predicates and case variants of their names (a name may differ from another only in case).
CASE_NAMES = {"isThree": 1, "isPair": 1, "getMax": 2, "isHand": 1, "hasValue": 2, "member": 2, "isFlush": 1,
              "getRank": 2, "pairOf": 2, "isA": 1, "size": 2}


def _case_variant(g: _Gen, name: str) -> str:
    while True:
        out = name[0] + "".join(c.upper() if g.chance(0.5) else c.lower() for c in name[1:])
        if out != name:
            return out


def _case(g: _Gen) -> None:
    used: set[str] = set()
    for std in g.rng.sample(sorted(CASE_NAMES), g.pick(1, 2)):
        n = CASE_NAMES[std]
        for _ in range(g.pick(1, 2)):
            variant = _case_variant(g, std)
            if variant in used:
                continue
            used.add(variant)
            k = g.small(1, 13)
            if n == 1:
                body = g.pick(f"hasValue(S, {k})", f"~{std}(S)", "~hasValue(S, 1)")
                g.add(f"{variant}(S)", "isSetCard(S)", body)
            else:
                g.add(f"{variant}(S, V)", "hasValue(S, V)", f"(V {g.cmp()} {k})")
            g.ask(variant, n)
            g.ask(std, n)
            both = g.name("both")
            args = "S" if n == 1 else "S, V"
            other = f"~{variant}({args})" if g.chance(0.5) else f"{variant}({args})"
            g.add(f"{both}({args})", f"{std}({args})", other)
            g.ask(both, n)
    base = g.name("twin")                   # two new predicates whose names differ in case only
    other = base[:1] + base[1:].upper()
    g.add(f"{base}(S, X)", "getMax(S, X)")
    g.add(f"{other}(S, X)", "size(S, X)")
    g.ask(base, 2)
    g.ask(other, 2)
    if g.chance(0.5):
        fn, fN = g.name("cc"), None
        fN = fn[:1] + fn[1:].upper()
        g.add(f"({fn}[S] == len_(C))", "member(S, C)")
        g.add(f"({fN}[S] == max_(V, order_by=V))", "hasValue(S, V)")
        j = g.name("fj")
        g.add(f"{j}(S, X, Y)", f"({fn}[S] == X)", f"({fN}[S] == Y)")
        g.ask(j, 3)
    if g.chance(0.5):                        # variables that differ in case only
        v = g.name("vc")
        g.add(f"{v}(S, Xa, XA)", "getMax(S, Xa)", "size(S, XA)", f"(Xa {g.cmp()} XA)")
        g.ask(v, 3)


FLOATS = ("0.5", "0.1", "2.5", "-1.5", "6.5", "0.3", "1e-3", "3.0", "-0.25", "1e15", "12.75")


def _floats(g: _Gen) -> None:
    p = g.name("fl")
    src, v = g.source()
    f1, f2 = g.pick(*FLOATS), g.pick(*FLOATS)
    e = g.pick(f"{v} * {f1}", f"{v} / {g.nonzero()}", f"{v} // {f1}", f"{v} % {f1}", f"({v} - {f1}) // {f2}",
               f"{v} + {f1}", f"{v} / 4 * {f2}", f"({v} + 0.5) % -2.5", f"-{v} // 0.1", f"{v} % -0.3")
    g.add(f"{p}(S, X)", src, f"(X == {e})", *([f"(X {g.cmp()} {g.pick(*FLOATS)})"] if g.chance(0.4) else []))
    g.ask(p, 2)
    q = g.name("fc")
    g.add(f"{q}(S, V)", "hasValue(S, V)", f"(V {g.cmp()} {g.pick(*FLOATS)})")
    g.ask(q, 2)
    if g.chance(0.5):
        r = g.name("fh")
        g.add(f"{r}(S, {g.pick(*FLOATS)})", g.pick("isPair(S)", "isHand(S)", "declared(S)"))
        g.ask(r, 2)
    if g.chance(0.5):
        t = g.name("fm")
        g.add(f"({t}[S] == {g.pick('min_', 'max_')}(X, order_by=X))", f"{g.call(p)}(S, X)")
        u = g.name("fu")
        g.add(f"{u}(S, X)", f"({t}[S] == X)")
        g.ask(u, 2)
    if g.chance(0.4):                          # a float equal to an integer joins it
        w = g.name("fj")
        g.add(f"{w}(S, X)", f"{g.call(p)}(S, X)", "hasValue(S, X)")
        g.ask(w, 2)


B53 = 2 ** 53


def _big53(g: _Gen) -> None:
    p = g.name("bg")
    src, v = g.pick(("member(S, C)", "C"), ("hasValue(S, V)", "V"), ("getMax(S, V)", "V"))
    off = g.pick(B53, B53 - 1, B53 + 1, -B53, 3 * B53)
    g.add(f"{p}(S, X)", src, f"(X == {v} + {off})")
    g.ask(p, 2)
    # Integers beside 2**53 (a double holds 2**53 + 1 as 2**53); floats now and then (a float
    # constant makes the compiler refuse the rule set: then pyDatalog alone answers).
    floats = g.chance(0.2)
    near = [str(B53 - 1), str(B53), str(B53 + 1), str(B53 + 2), str(-B53 - 1)]
    if floats:
        near += [f"{B53}.0", f"{float(B53 + 2)!r}", f"{-B53}.0"]
    q = g.name("bc")
    g.add(f"{q}(S, C)", "member(S, C)", f"(C {g.cmp()} {g.pick(*near)})")
    g.ask(q, 2)
    r = g.name("be")
    g.add(f"{r}(S, X)", f"{g.call(p)}(S, X)", f"(X {g.cmp()} {g.pick(*near)})")
    g.ask(r, 2)
    if g.chance(0.5):
        t = g.name("bm")
        g.add(f"({t}[S] == {g.pick('min_', 'max_')}(C, order_by=C))", "member(S, C)")
        u = g.name("bu")
        g.add(f"{u}(S, X)", f"({t}[S] == X)", f"(X {g.cmp()} {g.pick(*near, '0')})")
        g.ask(u, 2)
    if g.chance(0.4):                            # the sum of two big ids, and a difference
        d = g.name("bd")
        offset = g.pick(*near[:5])
        g.add(f"{d}(S, X)", "member(S, C)", "member(S, D)", "(C > D)", f"(X == C - D + {offset} - C)")
        g.ask(d, 2)
    if g.chance(0.4):
        w = g.name("bk")
        g.add(f"{w}(S, X)", "member(S, C)", f"(X == C * {g.pick('3', '-1', '1000', '2')} + {g.small()})")
        g.ask(w, 2)


def _big63(g: _Gen) -> None:
    g.slow = True                     # SQL overflows where Python does not: answered again
    # Products past 2**63 (SQL's BIGINT overflows; Python's integers do not): of a card id near
    # 2**62 (one world of the batch), of a value by 10**17 (past 2**63 for the values 10..13 only),
    # or of any value by 10**18; and results that fit after an intermediate product that does not.
    p = g.name("hg")
    src, v = g.pick(("member(S, C)", "C"), ("member(S, C)", "C"), ("hasValue(S, V)", "V"),
                    ("getMax(S, V)", "V"), ("size(S, V)", "V"))
    big = g.pick("1000000000000000000", "-1000000000000000000", "999999999999999999",
                 "700000000000000000", "-700000000000000000", "461168601842738790")
    e = g.pick(f"{v} * {big}", f"{v} * {big} // {big}", f"({v} + {big}) * 10 - {big} * 10",
               f"{big} * 10 + {v}", f"{v} * {big} % 7", f"{v} * 4", f"{v} * {v} * 3", f"-{v} * 2 - {big} * 9")
    g.add(f"{p}(S, X)", src, f"(X == {e})")
    g.ask(p, 2)
    if g.chance(0.5):
        q = g.name("hc")
        op, bound = g.cmp(), g.pick("1000000000000000000", "0", "-999999999999999999", big)
        g.add(f"{q}(S, V)", "hasValue(S, V)", f"(Z == V * {big})", f"(Z {op} {bound})")
        g.ask(q, 2)
    if g.chance(0.4):
        r = g.name("hm")
        g.add(f"({r}[S] == max_(X, order_by=X))", f"{g.call(p)}(S, X)")
        u = g.name("hu")
        g.add(f"{u}(S, X)", f"({r}[S] == X)")
        g.ask(u, 2)


def _guard(g: _Gen, v: str, k: int) -> str:
    """A step before a division by (v - k) that makes it nonzero."""
    return g.pick(f"({v} != {k})", f"({v} > {k})", f"({v} < {k})", f"({v} - {k} != 0)", f"(0 != {v} - {k})")


def _div_body(g: _Gen) -> None:
    p = g.name("dv")
    src, v = g.pick(("hasValue(S, V)", "V"), ("getMax(S, V)", "V"), ("member(S, C) & getValue(C, V)", "V"),
                    ("size(S, V)", "V"), ("member(S, C)", "C"))
    k = g.small(0, 13)
    n = g.pick(60, -60, 7, 1, 1000)
    op = g.pick("//", "%", "//", "%", "//", "%", "//", "%", "/")
    guarded = g.chance(0.85)
    g.alone |= not guarded
    body = [src] + ([_guard(g, v, k)] if guarded else []) + [f"(Y == {n} {op} ({v} - {k}))"]
    if g.chance(0.3):
        body.append(f"(Y {g.pick('<', '>', '<=', '>=')} {g.small()})")
    g.add(f"{p}(S, Y)", *body)
    g.ask(p, 2)
    if g.chance(0.5):                 # a divisor computed into a variable, guarded
        q = g.name("dw")
        m = g.nonzero()
        g.add(f"{q}(S, Y)", src, f"(W == {v} % {m})", g.pick("(W != 0)", "(W > 0)", "(W < 0)"),
              f"(Y == {v} {g.pick('//', '%')} W)")
        g.ask(q, 2)
    if g.chance(0.3):                 # guarded by a literal: only hands, never the set of aces alone
        r = g.name("dl")
        g.add(f"{r}(S, Y)", "isHand(S)", "getMax(S, V)", f"(Y == {n} // (V - 1))")
        g.ask(r, 2)


def _div_caller(g: _Gen) -> None:
    inv = g.name("inv")
    of = g.name("invOf")
    n = g.pick(60, -60, 1, 7)
    k = g.small(0, 13)
    op = g.pick("//", "%", "//", "%", "//", "%", "//", "%", "/")
    form = g.pick("relation", "relation", "view", "brief")
    g.slow |= form != "view"          # the compiled program divides where pyDatalog does not
    if form == "relation":            # computed for every set bottom-up; pyDatalog only as called
        g.add(f"{inv}(S, V, Y)", "hasValue(S, V)", f"(Y == {n} {op} (V - {k}))")
        g.add(f"{of}(S, Y)", "hasValue(S, V)", _guard(g, "V", k), f"{g.call(inv)}(S, V, Y)")
    elif form == "view":              # a view: its input comes from the caller
        g.add(f"{inv}(X, Y)", f"(Y == {n} {op} X)")
        g.add(f"{of}(S, Y)", "hasValue(S, V)", _guard(g, "V", k), f"(W == V - {k})", f"{g.call(inv)}(W, Y)")
    else:                             # the brief's: getMax of the aces alone is 1
        g.add(f"{inv}(S, Y)", "getMax(S, V)", f"(Y == {n} {op} (V - 1))")
        guard = g.pick("isHand(S)", "isHand(S) & ~isA(S)", "isPair(S)", "size(S, 5)")
        g.alone |= guard == "isPair(S)"          # the four aces are a pair: pyDatalog divides by 0
        g.add(f"{of}(S, Y)", guard, f"{g.call(inv)}(S, Y)")
    g.ask(of, 2)
    if g.chance(0.4):                 # and its caller's caller
        top = g.name("top")
        g.add(f"{top}(S, Y)", g.pick("isSetCard(S)", "declared(S)", "hasCard(S)"), f"{g.call(of)}(S, Y)")
        g.ask(top, 2)


STRINGS = ("low", "high", "", "pairs", "all", "Low", "10", "it's", "é", "♥", "a b", "z", "h")


def _quote(s: str) -> str:
    return repr(s)


def _strings(g: _Gen) -> None:
    lab = g.name("lab")
    k = g.small(2, 12)
    names = g.rng.sample(STRINGS, 3)
    g.add(f"{lab}(S, {_quote(names[0])})", "getMax(S, V)", f"(V < {k})")
    g.add(f"{lab}(S, {_quote(names[1])})", "getMax(S, V)", f"(V >= {k})")
    g.add(f"{lab}(S, {_quote(names[2])})", g.pick("isEmpty(S)", "isPair(S)", "isFlush(S)"))
    g.ask(lab, 2)
    p = g.name("sp")
    g.add(f"{p}(S, T)", f"{g.call(lab)}(S, T)", f"(T {g.cmp()} {_quote(g.pick(*STRINGS))})")
    g.ask(p, 2)
    if g.chance(0.5):
        q = g.name("sn")
        test = f"(N {g.cmp()} {_quote(g.pick('one pair', 'flush', 'a', 'z'))})"
        g.add(f"{q}(S, N)", "getRank(S, R)", "categoryName(R, N)", test)
        g.ask(q, 2)
    if g.chance(0.5):
        f = g.name("sm")
        g.add(f"({f}[S] == {g.pick('min_', 'max_')}(T, order_by=T))", f"{g.call(lab)}(S, T)")
        c = g.name("sc")
        g.add(f"({c}[S] == len_(T))", f"{g.call(lab)}(S, T)")
        r = g.name("sr")
        g.add(f"{r}(S, T, N)", f"({f}[S] == T)", f"({c}[S] == N)")
        g.ask(r, 3)
    if g.chance(0.4):
        t = g.name("st")
        test = f"(P {g.pick('==', '!=', '<', '>')} {_quote(g.pick('pairs', 'rest', 'all', 'top', 'x'))})"
        g.add(f"{t}(S, P, C)", "part(S, P, C)", test)
        g.ask(t, 3)
    if g.chance(0.3):                    # a string never equals a number
        u = g.name("su")
        g.add(f"{u}(S)", f"{g.call(lab)}(S, T)", f"(T {g.pick('==', '!=')} {g.small()})")
        g.ask(u, 1)


# Programs drawn from the grammar (docs/evaluation.md, "The grammar"): every kind of term in every
# place.  Half of them then take one refused form (a lower-case name, a name of _, an expression
# or a function in a head, a function in a negated literal, an aggregate's keyword pyDatalog
# ignores or misses) at a random place: the loader must refuse exactly those, in one line naming
# the clause's line.

REFUSED = 0.5          # the share of grammar cases given a refused form
LOWER = ("suit", "x", "card", "v", "heart", "n1", "hand")
UNDERSCORE = ("_", "_x", "_f1", "_A0", "_S")


def _term(g: _Gen, ints: list[str], fn: str, const: bool = True, function: bool = True) -> str:
    """A term over bound integer variables: a variable, a constant (``const``), an expression, a
    function (``function``: compared by anything but ==, the compiler leaves it to pyDatalog)."""
    kinds = ("var", "var", "expr") + (("const",) if const else ()) + (("function",) if function else ())
    kind = g.pick(*kinds)
    if kind == "var":
        return g.pick(*ints)
    if kind == "const":
        return str(g.small(-3, 14))
    if kind == "expr":
        var = g.pick(*ints)
        e = g.expr(var, g.pick(1, 2))
        return e if const or re.search(r"[A-Z]", e) else f"{e} + {var}"
    return g.pick(f"{fn}[S]", f"{fn}[S] + {g.small(-2, 2)}", f"{fn}[S] % {g.nonzero()}")


def _grammar(g: _Gen) -> None:
    """Clauses drawn from the grammar: facts of constants (numbers, negative numbers, strings);
    functions defined by aggregates (len_, min_, max_, sum_) whose head keys are variables or
    constants; and rules whose heads take variables and constants, and whose bodies take
    literals, negated literals, comparisons, arithmetic and functions with any term in any of
    their places (a function's keys among them)."""
    tb = g.name("tb")
    for k, s in g.rng.sample([(1, "a"), (-2, "b"), (5, "c"), (13, "a"), (0, "d"), (7, "b"), (3, "c")], 4):
        g.add(f"{tb}({k}, {s!r})")
    fn = g.name("gf")
    g.add(*g.pick((f"({fn}[S] == len_(C))", "member(S, C)"),
                  (f"({fn}[S] == {g.pick('min_', 'max_')}(V, {g.pick('order_by', 'order_by', 'order_by', 'key')}=V))", "hasValue(S, V)"),
                  (f"({fn}[S] == sum_(V, {g.pick('for_each', 'key')}=C))", "member(S, C)", "getValue(C, V)")))
    # (min_/max_ with key=, pyDatalog's other name for order_by=, the compiler leaves to pyDatalog)
    fk = g.name("gk")                     # two keys: a variable and a variable or a constant
    if g.chance(0.5):
        g.add(f"({fk}[S, K] == len_(C))", "member(S, C)", "getValue(C, V)", f"(K == V % {g.pick(2, 3, 4)})")
        key = g.pick("0", "1", "V % 3", "K")
    else:
        g.add(f"({fk}[S, {g.pick(0, 1, -1)}] == len_(C))", "member(S, C)", "getValue(C, V)",
              f"(V {g.cmp()} {g.small(2, 12)})")
        key = g.pick("0", "1", "-1")
    for _ in range(g.pick(2, 3)):
        p = g.name("gr")
        src, v = g.source()
        ints, strings = [v], []
        body = [src]
        for step in g.rng.sample(["lit", "neg", "bind", "cmp", "fact", "fn", "key"], g.pick(2, 3, 4)):
            if step == "lit":
                body.append(g.pick(f"hasValue(S, {_term(g, ints, fn)})", f"{tb}({_term(g, ints, fn)}, T{len(body)})"))
                if body[-1].startswith(tb):
                    strings.append(f"T{len(body) - 1}")
            elif step == "neg":
                t = _term(g, ints, fn, function=False)     # a function there is refused
                body.append(g.pick(f"~hasValue(S, {t})", f"~pairOf(S, {t})", f"~{tb}({t}, {g.pick('a', 'b', 'e')!r})"))
            elif step == "bind":
                x = f"X{len(body)}"
                body.append(f"({x} == {_term(g, ints, fn)})")
                ints.append(x)
            elif step == "cmp":
                op = g.cmp()
                fns = op == "==" or g.chance(0.15)
                left = g.pick(*ints, f"{fn}[S]") if op == "==" else _term(g, ints, fn, False, fns)
                body.append(f"({left} {op} {_term(g, ints, fn, True, fns)})")
            elif step == "fact":
                t = f"T{len(body)}"
                body.append(f"{tb}({g.pick(*ints)}, {t})")
                strings.append(t)
                if g.chance(0.5):
                    body.append(f"({t} {g.pick('==', '!=', '<', '>=')} {g.pick('a', 'b', 'c')!r})")
            elif step == "fn":
                x = f"X{len(body)}"
                body.append(f"({fn}[S] == {x})")
                ints.append(x)
            else:
                x = f"X{len(body)}"
                body.append(f"({x} == {fk}[S, {key.replace('V', ints[0]).replace('K', g.pick(*ints))}])")
                ints.append(x)
        args = ["S"] + g.rng.sample(ints + strings, min(len(ints + strings), g.pick(1, 2)))
        args += [g.pick(str(g.small(-3, 14)), "'z'", "-1")] if g.chance(0.4) else []
        args += [args[-1]] if g.chance(0.2) else []            # a variable twice in the head
        g.add(f"{p}({', '.join(args)})", *body)
        g.ask(p, len(args))
        if g.chance(0.25):                                      # a predicate of no argument
            z = g.name("gz")
            g.add(f"{z}()", f"{g.call(p)}({', '.join(args)})")
            g.ask(z, 0)
            u = g.name("gu")
            g.add(f"{u}(S)", "declared(S)", f"{g.pick('', '~')}{g.call(z)}()")
            g.ask(u, 1)


def _slots(piece: ast.expr, head: bool) -> list[tuple[str, Callable[[ast.expr], None], ast.expr]]:
    """Every place of a clause's piece (its head, or a step of its body) where a term stands:
    (the place, a function that puts another term there, the term there now)."""
    out: list[tuple[str, Callable[[ast.expr], None], ast.expr]] = []

    def put(seq: list, i: int) -> Callable[[ast.expr], None]:
        return lambda new: seq.__setitem__(i, new)

    def attr(node: ast.AST, name: str) -> Callable[[ast.expr], None]:
        return lambda new: setattr(node, name, new)

    def term(node: ast.expr) -> None:
        if isinstance(node, ast.BinOp):
            out.extend((("arithmetic operand", attr(node, "left"), node.left),
                        ("arithmetic operand", attr(node, "right"), node.right)))
            term(node.left)
            term(node.right)
        elif isinstance(node, ast.UnaryOp):
            out.append(("arithmetic operand", attr(node, "operand"), node.operand))
            term(node.operand)
        elif isinstance(node, ast.Subscript):
            keys(node, "function key")

    def keys(sub: ast.Subscript, place: str) -> None:
        if isinstance(sub.slice, ast.Tuple):
            for i, k in enumerate(sub.slice.elts):
                out.append((place, put(sub.slice.elts, i), k))
                term(k)
        else:
            out.append((place, attr(sub, "slice"), sub.slice))
            term(sub.slice)

    def args(call: ast.Call, place: str) -> None:
        for i, a in enumerate(call.args):
            out.append((place, put(call.args, i), a))
            term(a)

    if head and isinstance(piece, ast.Call):
        args(piece, "head argument")
    elif head:                                        # (f[K] == aggregate(X, keyword=Y))
        keys(piece.left, "aggregate key")
        agg = piece.comparators[0]
        out.append(("aggregate argument", put(agg.args, 0), agg.args[0]))
        for kw in agg.keywords:
            out.append(("aggregate keyword", attr(kw, "value"), kw.value))
    elif isinstance(piece, ast.UnaryOp):
        args(piece.operand, "negated literal argument")
    elif isinstance(piece, ast.Call):
        args(piece, "literal argument")
    else:
        for name in ("left", "comparators"):
            if name == "left":
                out.append(("comparison side", attr(piece, "left"), piece.left))
                term(piece.left)
            else:
                out.append(("comparison side", put(piece.comparators, 0), piece.comparators[0]))
                term(piece.comparators[0])
    return out


def _text(node: ast.expr) -> str:
    text = ast.unparse(node)
    return f"({text})" if isinstance(node, ast.Compare) else text


def _pieces(rule: Rule) -> list[ast.expr]:
    """A clause's head and the steps of its body, parsed."""
    pieces = [ast.parse(rule.head, mode="eval").body]
    return pieces + [c for b in rule.body for c in _conjuncts(ast.parse(b, mode="eval").body)]


def _places(rules: Sequence[Rule], kind: str) -> list[tuple[int, int, int]]:
    """Where a refused form of this kind may stand: (clause, piece, slot) of :func:`_slots`."""
    wanted = {"head": ("head argument", "aggregate key"), "negated": ("negated literal argument",)}.get(kind)
    return [(i, k, n) for i, rule in enumerate(rules) for k, piece in enumerate(_pieces(rule))
            for n, slot in enumerate(_slots(piece, k == 0))
            if wanted is None or slot[0] in wanted and (kind != "head" or rule.body)]


def refuse(rng: random.Random, rules: tuple[Rule, ...]) -> tuple[tuple[Rule, ...], str]:
    """The rules with one refused form put at a random place of a random clause, and the start
    of the one line the loader must refuse it with (``fuzz.dl:LINE: what``)."""
    kind = rng.choice(("lower", "lower", "underscore", "head", "head", "negated", "keyword"))
    if kind == "keyword":        # len_ given a keyword, sum_/min_/max_ none: pyDatalog ignores or fails
        i = rng.choice([j for j, r in enumerate(rules) if r.head.startswith("(")])
        head = ast.parse(rules[i].head, mode="eval").body
        agg = head.comparators[0]
        name = agg.func.id
        agg.keywords = [ast.keyword("order_by", agg.args[0])] if name == "len_" else []
        words = "len_ takes no keyword" if name == "len_" else f"{name} needs"
        return rules[:i] + (replace(rules[i], head=_text(head)),) + rules[i + 1:], f"fuzz.dl:{i + 1}: {words}"
    places = _places(rules, kind)
    if not places:               # none in this program: a lower-case name (facts always have a place)
        kind, places = "lower", _places(rules, "lower")
    i, k, n = rng.choice(places)
    rule = rules[i]
    pieces = _pieces(rule)
    place, set_term, old = _slots(pieces[k], k == 0)[n]
    if kind == "lower":
        name = rng.choice(LOWER)
        set_term(ast.Name(id=name))
        words = f"{name!r} is a lower-case name"
    elif kind == "underscore":
        name = rng.choice(UNDERSCORE)
        set_term(ast.Name(id=name))
        words = "'_' is not an anonymous variable" if name == "_" else f"{name!r} starts with _"
    elif kind == "negated":      # pyDatalog negates the function's look-up with the literal
        set_term(ast.parse(rng.choice(("gf[S]", "gf[S] + 1", "gk[S, 0] - 2")), mode="eval").body)
        words = "the function"
    else:
        var = old.id if isinstance(old, ast.Name) else "S"
        new = rng.choice((f"{var} + 1", f"-{var}", f"{var} * 1", f"(0 - {var})", f"{var} // 2",
                          f"gf[{var}]", "1 + 2"))
        set_term(ast.parse(new, mode="eval").body)
        words = "the head term"
    texts = [_text(p) for p in pieces]
    new_rule = replace(rule, head=texts[0], body=tuple(texts[1:]))
    return rules[:i] + (new_rule,) + rules[i + 1:], f"fuzz.dl:{i + 1}: {words}"


BUILDERS: dict[str, Callable[[_Gen], None]] = {
    "arith": _arith, "sides": _sides, "negation": _negation, "aggregates": _aggregates,
    "functions": _functions, "case": _case, "floats": _floats, "big53": _big53, "big63": _big63,
    "div_body": _div_body, "div_caller": _div_caller, "strings": _strings, "unsafe": _unsafe,
    "grammar": _grammar}


def program_case(feature: str, seed: int, hands: int = 16, fights: int = 8, checked: int = 4) -> Case:
    """A program over hands built around ``feature`` (or ``mixed``: two or three features, and a
    predicate joining two of them), appended to the standard rules; its top predicates asked."""
    rng = random.Random(f"program/{feature}/{seed}")
    g = _Gen(rng)
    features = rng.sample(MIXABLE, rng.choice((2, 3))) if feature == MIXED else [feature]
    for f in features:
        BUILDERS[f](g)
    asks = [a for a in g.asks if a[0] not in g.called or rng.random() < 0.3]
    pairs = [a for a, n in asks if n == 2 and a not in CASE_NAMES]
    if feature == MIXED and len(pairs) >= 2 and rng.random() < 0.6:     # a predicate joining two
        a, b = rng.sample(pairs, 2)
        j = g.name("mj")
        g.add(f"{j}(S, X, Y)", f"{a}(S, X)", f"{b}(S, Y)")
        asks.append((j, 3))
    big = tuple(dict.fromkeys(n for f in features + [feature] for n in BIG_WORLDS.get(f, ())))
    if g.alone or g.slow:       # a failed run is answered again in halves (exact.py): a dozen worlds
        hands, fights = hands // 2, fights // 2
    worlds, single, checked = pick_worlds(rng, hands, fights, big, checked)
    rules, expect = tuple(g.rules), ""
    if feature == "grammar" and rng.random() < REFUSED:
        rules, expect = refuse(rng, rules)
    return Case(feature, seed, rules=rules, asks=tuple(asks), worlds=worlds, single=single,
                checked=checked, alone=g.alone, expect=expect)


# --------------------------------------------------------------------------------------------
# Generator (a): edits of the standard rule set


def _conjuncts(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _join(parts: list[ast.expr]) -> ast.expr:
    out = parts[0]
    for p in parts[1:]:
        out = ast.BinOp(out, ast.BitAnd(), p)
    return out


_CMPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _mutate(rng: random.Random, text: str) -> tuple[str, str] | None:
    """One random edit of a clause's text (``head <= body`` or a fact): (new text, what)."""
    node = ast.parse(text, mode="eval").body
    rule = isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.LtE) and len(node.ops) == 1 \
        and not isinstance(node.left, ast.Constant)
    kinds = ["const"] + (["cmp", "negate", "drop", "swap", "var", "minmax"] if rule else [])
    if "min_(" in text or "max_(" in text:
        kinds += ["minmax"] * 4
    kind = rng.choice(kinds)
    body = _conjuncts(node.comparators[0]) if rule else []
    if kind == "const":
        consts = [n for n in ast.walk(node) if isinstance(n, ast.Constant)]
        if not consts:
            return None
        c = rng.choice(consts)
        if isinstance(c.value, str):
            c.value = rng.choice(["all", "pairs", "rest", "top", "three", "maxCard", "flush", "x"])
        elif isinstance(c.value, int):
            c.value = rng.choice([c.value + 1, c.value - 1, 0, -c.value, c.value * 2, 14])
        what = "constant"
    elif kind == "cmp":
        cmps = [p for p in body if isinstance(p, ast.Compare)]
        if not cmps:
            return None
        c = rng.choice(cmps)
        c.ops = [rng.choice([op for op in _CMPS if not isinstance(c.ops[0], op)])()]
        what = "comparison"
    elif kind == "negate":
        lits = [i for i, p in enumerate(body) if isinstance(p, (ast.Call, ast.UnaryOp))]
        if not lits:
            return None
        i = rng.choice(lits)
        body[i] = body[i].operand if isinstance(body[i], ast.UnaryOp) else ast.UnaryOp(ast.Invert(), body[i])
        node.comparators[0] = _join(body)
        what = "negation"
    elif kind == "drop":
        if len(body) < 2:
            return None
        del body[rng.randrange(len(body))]
        node.comparators[0] = _join(body)
        what = "literal dropped"
    elif kind == "swap":
        if len(body) < 2:
            return None
        i = rng.randrange(len(body) - 1)
        body[i], body[i + 1] = body[i + 1], body[i]
        node.comparators[0] = _join(body)
        what = "literals swapped"
    elif kind == "var":
        names = [n for n in ast.walk(node.comparators[0]) if isinstance(n, ast.Name) and n.id[:1].isupper()]
        if len({n.id for n in names}) < 2:
            return None
        n = rng.choice(names)
        n.id = rng.choice(sorted({m.id for m in names} - {n.id}))
        what = "variable"
    else:
        aggs = [n for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and n.func.id in ("min_", "max_")]
        if not aggs:
            return None
        a = rng.choice(aggs)
        a.func.id = "max_" if a.func.id == "min_" else "min_"
        what = "min_/max_"
    return ast.unparse(node), what


def clauses_of(case: Case) -> list:
    """The case's rule set as the loader's clauses (RuleError if one is not legal): the standard
    clauses parsed once, the edited and generated ones parsed here."""
    from engine.datalog import loader
    if not _PARSED:
        _PARSED.append(loader.parse_source("\n".join(standard_clauses()) + "\n", Path("fuzz.dl")))
    clauses = list(_PARSED[0])
    for e in sorted(case.edits, key=lambda e: -e.pos):
        new = loader.parse_source("\n".join(e.new) + "\n", Path("fuzz.dl")) if e.new else []
        clauses[e.pos:e.pos + 1] = new
    if case.rules:
        clauses += loader.parse_source("\n".join(r.text for r in case.rules) + "\n", Path("fuzz.dl"))
    return clauses


_PARSED: list = []


def _legal(case: Case) -> str | None:
    """None when the case's rule set loads as a poker rule set, else the loader's reason."""
    from engine.datalog import loader, rulesets
    from engine.interface import INPUTS
    try:
        clauses = clauses_of(case)
        loader.check_program(clauses, INPUTS)
        rulesets.check_required(rulesets.RuleSet("fuzz", [], clauses))
    except RuleError as exc:
        return str(exc)
    return None


def _translatable(case: Case) -> bool:
    """Whether the compiler translates the rule set (most edits are kept only if so: a refused
    rule set is answered by pyDatalog alone, and nothing is compared)."""
    try:
        Program(clauses_of(case), I.INPUTS, I.ASKED)
    except Untranslatable:
        return False
    return True


def edit_case(seed: int, hands: int = 16, fights: int = 8, checked: int = 4, tries: int = 40) -> Case:
    """One to three legal edits of the clauses getRank and beat depend on (each checked by the
    loader: an edit that leaves a variable unbound or a predicate undefined is drawn again)."""
    rng = random.Random(f"edits/{seed}")
    lines = standard_clauses()
    core = sorted(_CORE)
    edits: list[Edit] = []
    want = rng.choice((1, 1, 2, 3))
    aggregates = [i for i in core if "min_(" in lines[i] or "max_(" in lines[i]]
    rules = [i for i in core if " <= " in lines[i]]
    for _ in range(tries):
        if len(edits) >= want:
            break
        draw = rng.random()                   # mostly rules (facts only take a constant changed)
        pos = rng.choice(aggregates if draw < 0.15 else rules if draw < 0.85 else core)
        if any(e.pos == pos for e in edits):
            continue
        label, text = lines[pos].split(": ", 1)
        mutated = _mutate(rng, text)
        if mutated is None or mutated[0] == text:
            continue
        new_text, what = mutated
        new = (f"{label}: {new_text}",)
        if rng.random() < 0.2:                      # add a clause beside the old one
            new, what = (lines[pos], f"{label}: {new_text}"), f"clause added ({what})"
        edit = Edit(pos, lines[pos], new, what)
        candidate = Case("edits", seed, edits=tuple(edits + [edit]))
        if _legal(candidate) is None and (rng.random() < 0.1 or _translatable(candidate)):
            edits.append(edit)
    worlds, single, sample = pick_worlds(rng, hands, fights, (), checked)
    return Case("edits", seed, edits=tuple(edits), worlds=worlds, single=single, checked=sample)


def make_case(feature: str, seed: int, **kw: Any) -> Case:
    return edit_case(seed, **kw) if feature == "edits" else program_case(feature, seed, **kw)


# --------------------------------------------------------------------------------------------
# Many programs in one rule set


def merged(cases: Sequence[Case]) -> Case:
    """Programs over disjoint names, appended together to the standard rules: one rule set whose
    new predicates answer as each program's would alone (each reads only the standard rules and
    its own).  Their worlds are the first case's."""
    first = cases[0]
    return replace(first, feature="+".join(sorted({c.feature for c in cases})),
                   rules=tuple(r for c in cases for r in c.rules),
                   asks=tuple(a for c in cases for a in c.asks))


def disjoint_groups(cases: Sequence[Case], size: int) -> list[list[Case]]:
    """The cases in groups of at most ``size`` whose programs share no predicate name."""
    groups: list[list[Case]] = []
    for case in cases:
        names = case.names()
        for group in groups:
            if len(group) < size and not any(names & other.names() for other in group):
                group.append(case)
                break
        else:
            groups.append([case])
    return groups


@dataclass
class Tally:
    """Counts of a fuzzing run, and the disagreements found (each case with its result)."""
    cases: int = 0
    agree: int = 0
    refused: int = 0
    rejected: int = 0
    disagree: list[tuple[Case, Result]] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)     # error kinds every evaluator gave
    refusals: dict[str, int] = field(default_factory=dict)   # the compiler's reasons, abridged
    rejections: list[str] = field(default_factory=list)
    rule_sets: int = 0                                       # rule sets loaded (a group is one)
    rows: int = 0

    def add(self, case: Case, result: Result) -> None:
        self.cases += 1
        if result.status == "agree":
            self.agree += 1
        elif result.status == "refused":
            self.refused += 1
            reason = result.reason.split(": ", 2)[-1][:60]
            self.refusals[reason] = self.refusals.get(reason, 0) + 1
        elif result.status == "rejected":
            self.rejected += 1
            self.rejections.append(result.reason)
        else:
            self.disagree.append((case, result))
        for kind in result.errors:
            self.errors[kind] = self.errors.get(kind, 0) + 1
        self.rows += result.rows


def precheck(case: Case) -> Result | None:
    """The loader's and the compiler's verdict on a case, without loading it: ``rejected`` (not
    a legal rule set), ``refused`` (Untranslatable: pyDatalog alone answers it), else None."""
    why = _legal(case)
    if why is not None:
        return Result("rejected", why)
    try:
        Program(clauses_of(case), I.INPUTS, I.ASKED)
    except Untranslatable as exc:
        return Result("refused", str(exc))
    return None


def run_cases(cases: Sequence[Case], group: int = 1, tally: Tally | None = None,
              first_failure: bool = False, run: Callable[[Case], Result] = run_case) -> Tally:
    """Run the cases, programs up to ``group`` at a time in one rule set where they share no name
    (:func:`merged`).  A group whose three evaluators agree, with no failure anywhere, counts for
    each of its programs; any other group is split in halves and each run again, down to single
    programs, and a group that disagrees where none of its halves does is a disagreement of its
    own.  A program the loader rejects or the compiler refuses is counted without running; edits
    and programs meant to fail run alone.  ``first_failure``: stop at the first disagreement (a
    group's, unsplit: CI only needs to know)."""
    tally = tally or Tally()
    todo = []
    for case in cases:
        verdict = precheck(case)
        if verdict is not None:
            tally.add(case, verdict)
        else:
            todo.append(case)
    grouped = [c for c in todo if group > 1 and not c.alone and not c.edits]
    batches = [b for n in sorted({len(c.worlds) for c in grouped}, reverse=True)
               for b in disjoint_groups([c for c in grouped if len(c.worlds) == n], group)]
    batches += [[c] for c in todo if c not in grouped]

    def solve(batch: list[Case]) -> bool:
        """Run a group; False to stop (first_failure)."""
        tally.rule_sets += 1
        case = merged(batch) if len(batch) > 1 else batch[0]
        result = run(case)
        if len(batch) == 1:
            tally.add(case, result)
            return not (first_failure and result.status == "disagree")
        if result.status == "agree" and not result.errors:
            for c in batch:
                tally.add(c, Result("agree", "in a group", rows=result.rows // len(batch)))
            return True
        if first_failure and result.status == "disagree":
            tally.disagree.append((case, result))         # enough to fail: not split further
            return False
        before = len(tally.disagree)
        half = len(batch) // 2
        for part in (batch[:half], batch[half:]):
            if not solve(part):
                return False
        if result.status == "disagree" and len(tally.disagree) == before:
            tally.disagree.append((case, result))         # the group disagrees, no half does
            return not first_failure
        return True

    for batch in batches:
        if not solve(batch):
            break
    return tally
