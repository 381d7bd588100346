"""Where the compiled program cannot answer, the reference does: exact by construction.

The compiled program (SQL, or the same program in-process) evaluates bottom-up what pyDatalog
evaluates top-down, and holds integers in 64 bits where pyDatalog's are unbounded.  So it can fail
where the rules do not: a division by zero in a row pyDatalog never reaches (the caller guards
it), an integer overflow.  Such a failure is never an answer and never loses a batch: the worlds
of the failed run are split in halves and asked again, and a world that still fails alone is
asked of pyDatalog, the reference.  What pyDatalog answers is the answer; what fails there too
(a division the rules do make) is that world's :class:`Failure`, and the other worlds keep theirs.  (pyDatalog binds a division by
zero's variable to the exception rather than raising; an answer holding one is such a failure.)

Nothing here guesses: a world is answered by the compiled program only if its whole run
succeeded, and then its answers are the program's (held to pyDatalog by the tests and the fuzzer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from engine.datalog import loader
from engine.evaluators import Answers, Ask, World

# Worlds asked of pyDatalog one by one once a failed run is this small (bisecting further would
# cost more compiled runs than it saves reference ones).
ALONE = 4


@dataclass(frozen=True)
class Failure:
    """A world the rules themselves cannot answer (pyDatalog fails on it too): why, in one line."""
    message: str


class RuleFailure(loader.RuleError):
    """The rules fail on a question (pyDatalog's own error, such as an exception value ordered
    against a number): a fault of the rule set, reported in one line like any rule error."""


# What pyDatalog raises when the rules fail in Python's arithmetic or order (a division by zero,
# a string ordered against a number); a budget (RuntimeError) or Ctrl-C is never caught.
REFERENCE_FAULTS = (ArithmeticError, TypeError)

Run = Callable[[Sequence[World], Sequence[Ask]], list[Answers]]


class Exact:
    """The answers of a compiled evaluator (SQL, or the program in-process): its own run's, except
    for the worlds of a run that fails (:func:`attempt`) and for a view asked with an input free
    (:func:`asks_a_view_free`), which are pyDatalog's (``reference``, set by the Engine; None: the
    failure is raised)."""
    reference: Any = None
    fault: type[Exception]                  # what a failed run raises (engine.datalog.ir.EvaluationError)
    program: Any                            # the compiled Program

    def _answers(self, worlds: Sequence[World], asked: Sequence[Ask]) -> list[Answers]:
        raise NotImplementedError

    def answers(self, worlds: Sequence[World], asked: Sequence[Ask]) -> list[Answers]:
        """Every world's answers (a RuleFailure where the rules themselves fail)."""
        return raised(self.attempt(worlds, asked))

    def attempt(self, worlds: Sequence[World], asked: Sequence[Ask]) -> list[Answers | Failure]:
        """Every world's answers, or its Failure."""
        if self.reference is not None and asks_a_view_free(self.program, asked):
            return reference_attempt(self.reference, worlds, asked)
        return attempt(self._answers, self.reference, worlds, asked, self.fault)


def asks_a_view_free(program: Any, asked: Sequence[Ask]) -> bool:
    """Whether a predicate whose clauses need an argument bound by their caller (a view, not only
    narrowed) is asked with that argument free.  The compiled program computes a view for what
    its callers pass; asked free, pyDatalog answers, or raises, as it does: it is asked instead."""
    for ask in asked:
        pred = program.preds.get(ask.pred)
        if pred is not None and pred.view and not pred.optional and any(ask.args[i] is None for i in pred.inputs):
            return True
    return False


def attempt(run: Run, reference: Any, worlds: Sequence[World], asked: Sequence[Ask],
            fault: type[Exception]) -> list[Answers | Failure]:
    """``run``'s answers, with the worlds of a run that raised ``fault`` answered again: in
    halves, and alone by ``reference`` (None: the fault is raised)."""
    try:
        return list(run(worlds, asked))
    except fault:
        if reference is None:
            raise
    if len(worlds) > ALONE:
        half = len(worlds) // 2
        return (attempt(run, reference, worlds[:half], asked, fault)
                + attempt(run, reference, worlds[half:], asked, fault))
    return reference_attempt(reference, worlds, asked)


def reference_attempt(reference: Any, worlds: Sequence[World], asked: Sequence[Ask]) -> list[Answers | Failure]:
    """pyDatalog's answers, world by world; a world it fails on is a Failure, the rest answered."""
    out: list[Answers | Failure] = []
    for world in worlds:
        try:
            out += reference.answers([world], asked)
        except RuleFailure as exc:
            out.append(Failure(str(exc)))
        except REFERENCE_FAULTS as exc:
            out.append(Failure(describe(exc)))
    return out


def describe(exc: BaseException) -> str:
    """An exception as one line: the rules fail, and how."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    kind = {"ZeroDivisionError": "division by zero"}.get(type(exc).__name__, type(exc).__name__)
    return f"the rules fail: {kind}" + (f" ({text})" if text and kind != "division by zero" else "")


def raised(results: list[Answers | Failure]) -> list[Answers]:
    """The answers of every world, or a RuleFailure for the first world the rules fail on."""
    for r in results:
        if isinstance(r, Failure):
            raise RuleFailure(r.message)
    return results  # type: ignore[return-value]
