"""Split a view whose clauses are partly world-free into a static and a world part.

``getValue(C, V)`` is a function of the card for every card (static: 52 rows for any batch) but
also has a clause for held ids that are not cards (world: read from ``holds``).  Kept whole, it
would be a relation of every card of every world.  Split, its callers read each part: a positive
call becomes one clause per part (so a clause with k such calls becomes 2**k, most of them
reading an empty world part, skipped at run time), a negated call the conjunction of both parts'
negations.  The strata and the world flags are computed again after.
"""

from __future__ import annotations

from engine.datalog.graph import strata
from engine.datalog.ir import Atom, Pred, ProgramIR, Rule, Var
from engine.datalog.passes.binding import needs


def run(program: ProgramIR) -> None:
    split: dict[str, tuple[str, str]] = {}
    for name in program.order:
        pred = program.preds[name]
        if not pred.view or not pred.world:
            continue
        static = [r for r in pred.rules if not any(isinstance(s, Atom) and program.preds[s.pred].world
                                                   for s in r.body)]
        if not static or len(static) == len(pred.rules):
            continue
        parts = (name + "$static", name + "$world")
        for part, rules in zip(parts, (static, [r for r in pred.rules if r not in static])):
            new = Pred(part, pred.arity, [Rule(r.clause, part, r.head, r.body, r.aggregate) for r in rules],
                       world=part.endswith("$world"))
            # a part whose clauses bind their own arguments is a relation, not a view
            new.inputs = frozenset().union(*(needs(program, r, new) for r in new.rules))
            program.preds[part] = new
        split[name] = parts
        args = tuple(Var(f"_A{i}") for i in range(pred.arity))
        pred.rules = [Rule(pred.rules[0].clause, name, args, [Atom(part, args)]) for part in parts]
    if not split:
        return
    for pred in program.preds.values():
        rules = []
        for rule in pred.rules:
            variants = [[]]
            for step in rule.body:
                if isinstance(step, Atom) and step.pred in split and pred.name not in split:
                    parts = split[step.pred]
                    if step.negated:
                        variants = [v + [Atom(part, step.args, True) for part in parts] for v in variants]
                    else:
                        variants = [v + [Atom(part, step.args)] for v in variants for part in parts]
                else:
                    variants = [v + [step] for v in variants]
            if len(variants) > 64:
                raise rule.fail("too many calls of split views in one clause")
            rules += [Rule(rule.clause, rule.pred, rule.head, body, rule.aggregate) for body in variants]
        pred.rules = rules
    program.order = strata(program)
    for name in program.order:
        pred = program.preds[name]
        if name not in program.inputs:
            pred.world = any(program.preds[d].world for d in program.deps(pred)) or name.endswith("$world")
