"""Which arguments each predicate needs bound (its inputs: a view), reading bodies left to right
as pyDatalog does; every clause is then checked with those bound (Untranslatable naming the
variable and the step that needs it)."""

from __future__ import annotations

from engine.datalog.bodies import Unbound, walk
from engine.datalog.ir import Pred, ProgramIR, Rule, Var, variables


def run(program: ProgramIR) -> None:
    for name in program.order:
        pred = program.preds[name]
        needed: set[int] = set()
        for rule in pred.rules:
            got = needs(program, rule, pred)
            for i in got:
                pred.needed_by.setdefault(i, rule)
            needed |= got
        pred.inputs = frozenset(needed)
        for rule in pred.rules:                 # now check each clause with those bound
            walk(program.preds, rule, {v for i in pred.inputs for v in variables(rule.head[i])})
        if pred.rules and pred.rules[0].aggregate and pred.inputs:
            raise pred.rules[0].fail(f"the function {name} needs arguments bound by its caller")


def needs(program: ProgramIR, rule: Rule, pred: Pred) -> set[int]:
    """Head positions that must come bound for this clause to be evaluable."""
    head_vars = {}
    for i, t in enumerate(rule.head):
        if isinstance(t, Var):
            head_vars.setdefault(t.name, i)
    pre: set[str] = set()
    while True:
        try:
            bound = walk(program.preds, rule, pre)
        except Unbound as exc:
            if exc.var in head_vars and exc.var not in pre:
                pre.add(exc.var)
                continue
            callee = program.preds.get(exc.where.lstrip("~"))
            cause = min(callee.needed_by.items())[1] if callee is not None and callee.needed_by else None
            raise rule.fail(f"the variable {exc.var} is not bound where {exc.where} needs it"
                            + (f" ({cause.clause.where}: {cause.clause.label} takes that argument of "
                               f"{callee.name} from its caller)" if cause is not None else ""))
        missing = set().union(*(variables(t) for t in rule.head)) - bound
        if rule.aggregate:
            for v in (rule.aggregate[1], *rule.aggregate[2]):
                if v.name not in bound:
                    raise rule.fail(f"the aggregated variable {v.name} is not bound by the body")
        for v in sorted(missing):
            if v not in head_vars:
                raise rule.fail(f"the head's variable {v} is not bound by the body")
            pre.add(v)
        if not missing:
            return {head_vars[v] for v in pre if v in head_vars}
