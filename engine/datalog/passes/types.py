"""Each column's type: numbers and strings never share a column (Python keeps them apart)."""

from __future__ import annotations

from engine.datalog.bodies import type_env, type_of
from engine.datalog.ir import INT, STR, ProgramIR


def run(program: ProgramIR) -> None:
    for name in program.order:
        pred = program.preds[name]
        if name in program.inputs or not pred.rules:
            continue
        cols: list[set[str]] = [set() for _ in range(pred.arity)]
        for rule in pred.rules:
            env = type_env(program.preds, rule, {})
            out = [type_of(rule, t, env) for t in rule.head]
            if rule.aggregate:
                kind, var, _ = rule.aggregate
                if kind == "sum_" and env.get(var.name) == STR:
                    raise rule.fail("sum_ of strings (pyDatalog adds numbers only)")
                out.append(INT if kind == "len_" else env.get(var.name))
            for i, t in enumerate(out):
                if t is not None:
                    cols[i].add(t)
        types = []
        for i, ts in enumerate(cols):
            if len(ts) > 1:
                raise pred.rules[0].fail(f"argument {i + 1} of {name} mixes {' and '.join(sorted(ts))} values")
            types.append(ts.pop() if ts else INT)     # a view's inputs: numbers unless told otherwise
        pred.types = types
