"""Who calls whom: the call graph of a rule set, its closures and its strata.

Every closure over predicates goes through :func:`reach` (forward: what some roots read) or
:func:`callers` (backward: what reads some names); :func:`strata` orders a program for
bottom-up evaluation and refuses recursion.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Mapping

from engine.datalog import loader
from engine.datalog.ir import ProgramIR


def reach(roots: Iterable[str], callees: Callable[[str], Iterable[str]],
          keep: Callable[[str], bool] = lambda name: True) -> set[str]:
    """The roots and every name they call, directly or not (``callees``: a name's callees); a
    name that ``keep`` refuses is neither in the answer nor followed."""
    out: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in out or not keep(name):
            continue
        out.add(name)
        todo.extend(callees(name))
    return out


def callers(found: set[str], calls: Mapping[str, set[str]]) -> set[str]:
    """``found`` and every name that calls one of them, directly or through others (``calls``:
    each name's callees)."""
    found = set(found)
    grew = True
    while grew:
        grew = False
        for name, called in calls.items():
            if name not in found and called & found:
                found.add(name)
                grew = True
    return found


def called(node: ast.AST) -> set[str]:
    """The predicates and functions a loader clause names (its head's too)."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id not in loader.AGGREGATES:
            out.add(n.func.id)
        elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
            out.add(n.value.id)
    return out


def needed(program: ProgramIR, asked: Iterable[str]) -> list[str]:
    """The relations the asked ones read, themselves included, dependencies first."""
    preds = program.preds
    order: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen or name not in preds:
            return
        seen.add(name)
        for dep in sorted(program.deps(preds[name])):
            visit(dep)
        order.append(name)

    for name in asked:
        visit(name)
    return order


def strata(program: ProgramIR) -> list[str]:
    """Predicates in dependency order; recursion is refused (pyDatalog's fixpoint is not translated)."""
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            cycle = path[path.index(name):] + [name]
            rule = program.preds[name].rules[0]
            raise rule.fail(f"recursion ({' -> '.join(cycle)}) is not translated")
        state[name] = 1
        for dep in sorted(program.deps(program.preds[name])):
            visit(dep, path + [name])
        state[name] = 2
        order.append(name)

    for name in list(program.preds):
        visit(name, [])
    return order
