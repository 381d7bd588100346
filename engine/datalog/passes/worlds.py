"""Mark the predicates that depend on the input facts (a relation per world)."""

from __future__ import annotations

from engine.datalog.ir import ProgramIR


def run(program: ProgramIR) -> None:
    for name in program.order:
        pred = program.preds[name]
        if name not in program.inputs:
            pred.world = any(program.preds[d].world for d in program.deps(pred))
