"""Find what divides by a variable, or calls what does: computed for its callers' demand only
(passes.restrict, passes.demand), and per run rather than once (pyDatalog divides only when asked)."""

from __future__ import annotations

from engine.datalog.graph import callers
from engine.datalog.ir import ProgramIR, divisors


def run(program: ProgramIR) -> None:
    program.dividing = callers({name for name, pred in program.preds.items() if any(divisors(r) for r in pred.rules)},
                               {name: program.deps(pred) for name, pred in program.preds.items()})
