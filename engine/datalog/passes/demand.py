"""Turn each view into a relation over its demand (the magic-sets idea, kept exact).

A view such as ``getValue(C, V)`` needs C bound.  Its relation is computed only for the values
its callers can pass: ``demand$getValue(C)`` collects, from every call site, the steps of the
caller's body that bind the call's inputs.  Fewer steps than the whole prefix give a larger
demand, never a smaller one, so every call still finds all of its answers.  Then each predicate
is marked ``runtime`` when it must be computed in each run.
"""

from __future__ import annotations

from engine.datalog.bodies import binders, bound_before
from engine.datalog.ir import DEMAND, Atom, Pred, ProgramIR, Rule, variables


def run(program: ProgramIR) -> None:
    views = {name: pred for name, pred in program.preds.items() if pred.view}
    # A demand built from fewer steps than the caller's whole body before the call holds values
    # pyDatalog never passes: harmless, except to a view that divides, or calls what does
    # (``inv(X, Y) <= Y == 100 // X`` called after ``(X != 0)``): those are asked exactly what
    # the caller's body gives, step for step.
    exact = program.dividing & views.keys()
    for name, pred in views.items():
        demand = DEMAND + name
        program.preds[demand] = Pred(demand, len(pred.inputs), world=pred.world, types=[None] * len(pred.inputs))
        for rule in pred.rules:
            if pred.optional:
                rule.full = Rule(rule.clause, rule.pred, rule.head, list(rule.body), rule.aggregate)
            rule.body.insert(0, Atom(demand, tuple(rule.head[i] for i in sorted(pred.inputs))))
    for rule in list(program.all_rules()):
        for r in (rule, rule.full):
            if r is None:
                continue
            for k, step in enumerate(r.body):
                if isinstance(step, Atom) and step.pred in views:
                    callee = views[step.pred]
                    args = tuple(step.args[i] for i in sorted(callee.inputs))
                    wanted = set().union(*map(variables, args))
                    if not wanted <= bound_before(r.body, k):
                        continue                  # an optional view called without: asked whole
                    if step.pred in exact:
                        body = list(r.body[:k])
                    else:
                        body = binders(program.preds, r.body[:k], wanted, narrow=callee.world)
                    r.demands.append(Rule(r.clause, DEMAND + step.pred, args, body))
    for name in program.order:                   # what must be computed for each run
        pred = program.preds[name]
        pred.runtime = (pred.world or pred.view or name in program.dividing
                        or any(program.preds[d].runtime for d in program.deps(pred)))
