"""Order the predicates for bottom-up evaluation, dependencies first; refuse recursion."""

from __future__ import annotations

from engine.datalog.graph import strata
from engine.datalog.ir import ProgramIR


def run(program: ProgramIR) -> None:
    program.order = strata(program)
