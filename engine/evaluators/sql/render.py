"""The IR of a Program rendered as SQL text (DuckDB's dialect), keeping pyDatalog's meaning.

- Every predicate is a relation, and its clauses a ``UNION`` (set semantics, as in Datalog).
- A body is read left to right, as pyDatalog reads it (:mod:`engine.datalog.bodies`); a negated
  literal is an anti-join (``NOT EXISTS``), its unbound variables existential.  A view is a
  relation over its demand (:mod:`engine.datalog.passes.demand`).
- ``len_`` counts distinct values, ``min_``/``max_`` are grouped queries, ``sum_(X, for_each=Y)``
  adds X over the distinct (X, Y) rows, as pyDatalog does.
- Arithmetic follows Python on integers: floor division and modulo round towards minus infinity;
  a zero divisor gives NULL (the runtime's witness query says whether pyDatalog would divide).
- Every relation that depends on the input facts carries the world as its first column ``w``.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.datalog.bodies import assignment, mixed, type_env
from engine.datalog.ir import (
    INT,
    STR,
    Atom,
    Compare,
    Const,
    Pred,
    ProgramIR,
    Rule,
    Term,
    Var,
    variables,
)

WORLDS = '"_worlds"'      # every world of a run (no predicate can have this name)


def quoted(name: str) -> str:
    return f'"{name}"'


def table(name: str) -> str:
    """A relation's SQL name.  DuckDB folds the case of identifiers, even quoted ones, and pyDatalog
    does not: ``isthree`` and ``isThree`` are two predicates.  So every character but a lower-case
    ASCII letter, a digit, ``_`` and ``$`` is spelt out (``isThree`` -> ``p_is^t``), and no two
    names meet in one table."""
    return quoted("p_" + "".join(c if c in _PLAIN else f"^{c.lower()}" if "A" <= c <= "Z" else f"^^{ord(c):x};"
                                 for c in name))


_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_$")


def literal(value: Any, codes: Mapping[str, int]) -> str:
    """A constant as SQL (a string as its code)."""
    if isinstance(value, str):
        return f"CAST({codes[value]} AS BIGINT)"
    if isinstance(value, float):
        return f"CAST({value!r} AS DOUBLE)"
    return f"CAST({int(value)} AS BIGINT)"


class Sql:
    """Renders the clauses of a Program as SELECT statements."""

    def __init__(self, program: ProgramIR):
        self.program = program
        self.alias = 0
        self.sources: dict[str, str] = {}       # a relation read from a subquery instead (a view's new demand)

    def fresh(self) -> str:
        self.alias += 1
        return f"t{self.alias}"

    def expr(self, term: Term, env: dict[str, str], types: dict[str, str | None]) -> str:
        if isinstance(term, Const):
            return literal(term.value, self.program.codes)
        if isinstance(term, Var):
            return env[term.name]
        if term.op == "neg":
            return f"(-{self.expr(term.left, env, types)})"
        a, b = self.expr(term.left, env, types), self.expr(term.right, env, types)
        if term.op in "+-*":
            return f"({a} {term.op} {b})"
        # Python's floor division and modulo (towards minus infinity) on integers (the only
        # numbers compiled: passes.checks).  A zero divisor gives NULL, which no row survives: SQL
        # may evaluate an expression for rows that pyDatalog never reaches, and the clause's
        # witness (Database.witness) says whether pyDatalog would divide by zero.
        d = f"NULLIF({b}, 0)"
        mod = f"((({a}) % {d}) + {d}) % {d}"
        if term.op == "%":
            return f"({mod})"
        return f"((({a}) - {mod}) // {d})"

    def select(self, rule: Rule) -> tuple[list[str], str]:
        """One clause as SQL: its output expressions and its ``FROM … WHERE …``.

        The body is read as :func:`engine.datalog.bodies.binds` reads it."""
        program = self.program
        env: dict[str, str] = {}
        types = type_env(program.preds, rule, {})
        froms: list[str] = []
        where: list[str] = []
        w = None
        if program.preds[rule.pred].world:
            # The world comes from the first relation that has one; when a negation needs it
            # first, every world is enumerated.
            first = next((s for s in rule.body if isinstance(s, Atom) and program.preds[s.pred].world), None)
            if first is None or first.negated:
                a = self.fresh()
                froms.append(f"{WORLDS} {a}")
                w = f"{a}.w"
        for step in rule.body:
            if isinstance(step, Compare):
                got = assignment(step, env)
                if got is not None:
                    env[got[0]] = self.expr(got[1], env, types)
                else:
                    where.append(self.compare(step, env, types))
                continue
            callee = program.preds[step.pred]
            a = self.fresh()
            conds, binds = self._match(step, a, env, types)
            if callee.world:
                if w is None:
                    w = f"{a}.w"
                else:
                    conds.insert(0, f"{a}.w = {w}")
            if step.negated:
                where.append(f"NOT EXISTS (SELECT 1 FROM {table(step.pred)} {a}{where_clause(conds)})")
            else:
                froms.append(f"{self.sources.get(step.pred) or table(step.pred)} {a}")
                where += conds
                env.update(binds)
        outs = [self.expr(t, env, types) for t in rule.head]
        if rule.aggregate:
            outs += [env[v.name] for v in (rule.aggregate[1], *rule.aggregate[2])]
        if program.preds[rule.pred].world:
            outs.insert(0, w)
        return outs, (" FROM " + ", ".join(froms) if froms else "") + where_clause(where)

    def _match(self, step: Atom, a: str, env: dict[str, str], types) -> tuple[list[str], dict[str, str]]:
        conds: list[str] = []
        binds: dict[str, str] = {}
        for i, arg in enumerate(step.args):
            col = f"{a}.a{i}"
            if isinstance(arg, Var) and arg.name not in env and arg.name not in binds:
                binds[arg.name] = col
            elif isinstance(arg, Var) and arg.name in binds:
                conds.append(f"{col} = {binds[arg.name]}")
            else:
                conds.append(f"{col} = {self.expr(arg, env, types)}")
        return conds, binds

    def compare(self, step: Compare, env: dict[str, str], types) -> str:
        lt, rt = term_type(step.left, types), term_type(step.right, types)
        if mixed(lt, rt):                           # Python: a string never equals a number
            return "FALSE" if step.op == "==" else "TRUE"
        op = {"==": "=", "!=": "<>"}.get(step.op, step.op)
        return f"({self.expr(step.left, env, types)} {op} {self.expr(step.right, env, types)})"

    def materialise(self, pred: Pred, empty: set[str] = frozenset(), rules: list[Rule] | None = None) -> str:
        """The SELECT that fills a predicate's relation.

        A clause with a positive literal on a relation known to be ``empty`` in this run gives
        nothing and is left out.
        """
        cols = (["w"] if pred.world else []) + [f"a{i}" for i in range(pred.arity)]
        parts: list[str] = []
        kept: list[Rule] = []
        rules = pred.rules if rules is None else rules
        for rule in rules:
            if any(isinstance(s, Atom) and not s.negated and s.pred in empty for s in rule.body):
                continue
            outs, body = self.select(rule)
            parts.append("SELECT " + (", ".join(outs) or "1") + body)
            kept.append(rule)
        if parts and rules[0].aggregate:
            kind, var, each = rules[0].aggregate
            keys = cols[:-1]
            fn = {"len_": "count(DISTINCT v)", "min_": "min(v)", "max_": "max(v)",
                  "sum_": "CAST(sum(v) AS BIGINT)"}[kind]    # past 64 bits: an error, never an answer
            if kind == "len_" and len(kept) == 1 and not projects(kept[0], {var.name}):
                fn = "count(*)"                       # no (keys, value) row twice: nothing to drop
            extra = [f"e{i}" for i in range(len(each))]
            inner = f"SELECT {'DISTINCT ' if kind == 'sum_' else ''}* FROM ({' UNION ALL '.join(parts)}) " \
                    f"s({', '.join(keys + ['v'] + extra)})"
            return f"SELECT {', '.join(keys)}, {fn} AS {cols[-1]} FROM ({inner}) g GROUP BY {', '.join(keys)}"
        if not parts:
            types = ([INT] if pred.world else []) + [t or INT for t in pred.types]
            return "SELECT " + ", ".join(f"CAST(NULL AS {t}) AS {c}" for t, c in zip(types, cols)) + " WHERE FALSE"
        if not cols:                                  # a proposition: true or not
            return f"SELECT DISTINCT 1 AS a_ FROM ({' UNION '.join(parts)}) u"
        if len(parts) == 1:                           # a relation is a set: one clause can repeat rows
            distinct = "DISTINCT " if projects(kept[0]) else ""
            return f"SELECT {distinct}* FROM ({parts[0]}) u({', '.join(cols)})"
        if disjoint(kept):                            # no row from two clauses: drop repeats within each
            parts = [f"SELECT DISTINCT * FROM ({part}) d" if projects(rule) else part
                     for part, rule in zip(parts, kept)]
            return f"SELECT * FROM ({' UNION ALL '.join(parts)}) u({', '.join(cols)})"
        return f"SELECT * FROM ({' UNION '.join(parts)}) u({', '.join(cols)})"


def projects(rule: Rule, also: set[str] = frozenset()) -> bool:
    """Whether a clause can give a row twice: a variable of a positive literal is not in its head
    (every relation, the input facts included, is a set; an assignment is a function of the rest).
    ``also``: variables kept besides the head's (an aggregate's value)."""
    head = set().union(also, *map(variables, rule.head))
    return any(isinstance(s, Atom) and not s.negated and not set().union(*map(variables, s.args)) <= head
               for s in rule.body)


def disjoint(rules: list[Rule]) -> bool:
    """Whether no row can come from two of the clauses: every two heads have different constants
    at some argument (``part(S, 'all', C)`` and ``part(S, 'top', C)``)."""
    for i, a in enumerate(rules):
        for b in rules[i + 1:]:
            if not any(isinstance(x, Const) and isinstance(y, Const) and type(x.value) is type(y.value)
                       and x.value != y.value for x, y in zip(a.head, b.head)):
                return False
    return True


def where_clause(conds: list[str]) -> str:
    return " WHERE " + " AND ".join(conds) if conds else ""


def term_type(term: Term, types: dict[str, str | None]) -> str | None:
    """A term's type as far as known (no error: the types pass checked the clause)."""
    if isinstance(term, Const):
        return STR if isinstance(term.value, str) else INT
    if isinstance(term, Var):
        return types.get(term.name)
    a = term_type(term.left, types)
    b = term_type(term.right, types) if term.right is not None else a
    return a or b


def program_sql(program: ProgramIR) -> dict[str, str]:
    """The SELECT of each predicate the rules define (dependency order), and of each demand a
    clause feeds (``demand$p <- caller``): the SQL a run would execute, for reading and for the
    golden tests; each statement's aliases numbered from t1, so that one change shows as one)."""
    out: dict[str, str] = {}
    for name in program.order:
        pred = program.preds[name]
        if not pred.rules:
            continue
        out[name] = Sql(program).materialise(pred)
        for k, rule in enumerate(pred.rules):
            for j, demand in enumerate(rule.demands):
                outs, body = Sql(program).select(demand)
                out[f"{demand.pred} <- {name}#{k}.{j}"] = f"SELECT DISTINCT {', '.join(outs)}{body}"
    return out
