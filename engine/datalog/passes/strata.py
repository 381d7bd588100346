"""Order the predicates for bottom-up evaluation, dependencies first; refuse recursion."""

from __future__ import annotations

from ..graph import strata
from ..ir import ProgramIR


def run(program: ProgramIR) -> None:
    program.order = strata(program)
