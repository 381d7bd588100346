"""pyDatalog's state, owned: each Engine (or Board) keeps a Logic of its own, facts asserted in it.

pyDatalog keeps its program in a per-thread Logic; an owner installs its own in the calling
thread before every use, so several owners live side by side in one process and one thread.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from engine.evaluators.pydatalog.lazy import pyDatalog, pyEngine, pyParser

_active = threading.local()   # which owner's Logic the current thread holds


class LogicOwner:
    """Something with a pyDatalog Logic of its own (an Engine, a Board).

    pyDatalog keeps its program in a per-thread Logic; an owner installs its own in the calling
    thread before every use, so several owners live side by side in one process and one thread.
    """

    _lock: threading.RLock
    _logic: Any

    def _init_logic(self, build: Callable[[], None], lazy: bool = False) -> None:
        """Build a fresh Logic with ``build()`` and keep it (``lazy``: on first use)."""
        self._lock = threading.RLock()
        self._build: Callable[[], None] | None = build
        if not lazy:
            self._make_logic()

    def _make_logic(self) -> None:
        with self._lock:
            if self._build is not None:
                # The thread's Logic is replaced before the build: from here on it is no other
                # owner's, even if the build stops (a budget, Ctrl-C, a bad rule), so that the
                # owner whose Logic it was installs its own again at its next use.
                _active.owner = None
                pyDatalog.Logic()
                self._build()
                self._logic = pyDatalog.Logic(True)
                _active.owner = self
                self._build = None

    @contextmanager
    def _context(self) -> Iterator[None]:
        with self._lock:
            if self._build is not None:
                self._make_logic()
            if getattr(_active, "owner", None) is not self:
                pyDatalog.Logic(self._logic)
                _active.owner = self
            try:
                yield
            except BaseException:
                forget_search()
                raise


def forget_search() -> None:
    """Drop the search of a query that an exception stopped (a budget, Ctrl-C).  pyDatalog
    restores the state an ask found, and retracts the query's temporary predicate, only when the
    ask ends normally: a stopped one stayed in the thread's Logic, held by every later ask (130 MB
    a stopped query)."""
    logic = pyDatalog.Logic(True)
    for subgoal in [*logic.Subgoals.values(), logic.Goal]:
        if subgoal is not None:         # its tasks refer back to it from C++, out of gc's sight
            subgoal.tasks, subgoal.waiters, subgoal.clauses, subgoal.facts = [], [], [], {}
    logic.Subgoals, logic.Tasks, logic.Recursive_Tasks, logic.Recursive, logic.Goal = {}, None, None, False, None
    for pred in [p for p in logic.Db.values() if p.name.startswith("_pyD_query")]:
        pyEngine.remove(pred)


class Var:
    """A variable of `Engine.ask`: each answer gives it a value (``Var("R")``).

    Args:
        name: Its name, as pyDatalog writes variables (a capital first).
    """
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


def assert_fact(name: str, args: tuple) -> None:
    """Assert name(args) in the current thread's Logic (inside an owner's _context())."""
    +pyParser.Literal.make(name, [pyParser.Expression._pyD_for(a) for a in args])


def retract_fact(name: str, args: tuple) -> None:
    -pyParser.Literal.make(name, [pyParser.Expression._pyD_for(a) for a in args])
