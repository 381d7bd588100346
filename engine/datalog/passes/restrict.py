"""Narrow a relation to what its callers ask when every caller binds two arguments or more.

pyDatalog works top-down: ``comparePart(A, P, B, P, R)`` is only ever computed for the hands and
parts a fight compares.  Bottom-up, it would be every part of every hand against every part of
every other hand of the world.  A predicate that every call binds in the same two or more
arguments becomes a view on them (its *optional* inputs), computed only for what its callers
pass, unless a run asks for it whole.  One bound argument is usually a hand that every caller
asks about anyway, where narrowing costs more than it saves.  Only calls from what the program
asks count (an explanation's predicate that reads a relation whole makes the run compute that
relation whole).  An argument that every call passes as a constant (``beat(G, H, 1)``) is an
answer the callers pick, not a key: narrowing on it would make a caller that binds only the
others (``beat`` asked whole) compute the relation whole.
"""

from __future__ import annotations

from engine.datalog.bodies import call_sites
from engine.datalog.graph import reach
from engine.datalog.ir import ProgramIR, variables

MIN_NARROWED = 2          # bound arguments that make a relation worth narrowing to its callers' demand


def run(program: ProgramIR) -> None:
    used = reach([name for name in program.asked if name in program.preds],
                 lambda name: program.deps(program.preds[name]))
    sites: dict[str, list[frozenset[int]]] = {}
    constant: dict[str, list[frozenset[int]]] = {}
    dividing = program.dividing
    for name in reversed(program.order):               # callers before callees
        pred = program.preds[name]
        if (name not in program.inputs and pred.rules and (pred.world or name in dividing) and not pred.view
                and name in sites and not name.endswith(("$static", "$world"))):
            common = frozenset.intersection(*sites[name]) - frozenset.intersection(*constant[name])
            if pred.rules[0].aggregate:
                common -= {pred.arity - 1}
            # what divides is computed for what pyDatalog asks of it, not whole: a division
            # it never makes (the caller guards it) is then not made here either
            if len(common) >= (1 if name in dividing else MIN_NARROWED):
                pred.inputs, pred.optional = common, True
        if name not in used:
            continue
        for rule in pred.rules:
            pre = {v for i in pred.inputs for v in variables(rule.head[i])}
            for step, bound in call_sites(rule.body, pre):
                sites.setdefault(step.pred, []).append(bound)
                constant.setdefault(step.pred, []).append(
                    frozenset(i for i, a in enumerate(step.args) if not variables(a)))
