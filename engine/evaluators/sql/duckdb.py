"""The DuckDB runtime of a compiled rule set: one in-memory database, its runs, its helpers.

A run evaluates the asked predicates in every world of a batch at once, stratum by stratum; a
view is computed for its demand, fed before it (engine.datalog.passes.demand), and extended when
its demand grows.  A run that fails (a zero divisor where pyDatalog divides, an integer past 64
bits, out of memory) raises EvaluationError, and its worlds go to pyDatalog
(:mod:`engine.evaluators.exact`).  Callers hand inputs as typed columns (:class:`Worlds`) and
ask for named reductions (:class:`FirstSet`, :class:`Disagreement`); nothing outside this module
touches the connection or its lock.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from engine import interface, limits
from engine.datalog.bodies import call_sites
from engine.datalog.graph import needed
from engine.datalog.ir import (
    DEMAND,
    STR,
    Atom,
    EvaluationError,
    Pred,
    ProgramIR,
    Rule,
    divisors,
    shape,
)
from engine.evaluators import workers
from engine.evaluators.sql.render import WORLDS, Sql, literal, table


@dataclass
class Worlds:
    """The input facts of a run, each world's rows led by the world: ``sql`` gives an input as a
    SELECT (``declared`` (world, set), ``holds`` (world, set, position, card), ``seat`` (world,
    table, set) …, and ``worlds``: every world, also those without a set); ``columns`` gives one
    as integer columns (numpy arrays, world first), or a helper relation ``x_NAME`` that the
    SELECTs and the reductions read.  CompiledEvaluator fills them from a batch; `poker check`
    has DuckDB generate the 2,598,960 hands itself."""
    sql: dict[str, str] = field(default_factory=dict)
    columns: dict[str, Mapping[str, Sequence[int]]] = field(default_factory=dict)


@dataclass(frozen=True)
class FirstSet:
    """A named reduction: the rows of a relation about set 1 (its first argument), its world and
    other columns as numpy arrays (``w``, ``a1``, ``a2`` …)."""
    pred: str
    distinct: bool = False

    def sql(self, program: ProgramIR) -> str:
        arity = program.preds[self.pred].arity
        cols = ", ".join(["w", *(f"a{i}" for i in range(1, arity))])
        return f"SELECT {'DISTINCT ' if self.distinct else ''}{cols} FROM {table(self.pred)} WHERE a0 = 1"


@dataclass(frozen=True)
class Disagreement:
    """A named reduction: the first row (a, b, r) of the helper columns ``expected`` (``a``,
    ``b``, ``r``) where the relation ``pred(a, b, R)`` of world 0 does not give exactly R = r, as
    (a, b, r, the values it gives); no row when it agrees everywhere."""
    pred: str
    expected: str

    def sql(self, program: ProgramIR) -> str:
        return (f'SELECT p.a, p.b, p.r, list(c.a2 ORDER BY c.a2) FROM "x_{self.expected}" p '
                f'LEFT JOIN {table(self.pred)} c ON c.a0 = p.a AND c.a1 = p.b '
                'GROUP BY p.a, p.b, p.r HAVING count(c.a2) <> 1 OR bool_or(c.a2 <> p.r) '
                'ORDER BY p.a, p.b LIMIT 1')


Reduction = FirstSet | Disagreement


class Database:
    """A rule set compiled to SQL, with its own in-memory DuckDB database: the only owner of
    the connection (callers give typed inputs and named reductions, never SQL on it)."""

    def __init__(self, program: ProgramIR, threads: int | None = None):
        import duckdb
        self.program = program
        self._con = duckdb.connect(":memory:")
        threads = threads or workers.DEFAULT_THREADS
        if threads:
            self._con.execute(f"SET threads = {int(threads)}")
        self._con.execute("SET preserve_insertion_order = false")   # relations are sets
        # DuckDB draws a progress bar on stdout for a statement past two seconds: never into a
        # command's output (poker judge writes its results to stdout).
        self._con.execute("SET enable_progress_bar = false")
        # Never spill to disk (a runaway rule set would fill it, into the current directory):
        # past DuckDB's memory limit (80% of RAM) a run stops with an error instead.
        self._con.execute("SET temp_directory = ''")
        # Joins follow the clause's literals in order, as pyDatalog's do: rule authors put the
        # selective literals first, and DuckDB's estimates (on relations it has never seen) do
        # worse, up to ten times slower on isFour and handKey.
        self._con.execute("SET disabled_optimizers = 'join_order'")
        self._lock = threading.RLock()
        self._stopped = False                   # interrupted: no statement of this run starts
        self._running = False                   # in run(): what the flag stops
        limits.register(self)                 # a time budget that runs out interrupts DuckDB
        self._static: set[str] = set()
        self._views: set[str] = set()
        self._sql = Sql(self.program)
        self._version: dict[str, int] = {}        # per run: how often each relation changed
        self._built: dict[str, int] = {}          # per run: a view's demand version when it was made
        self._demand_rows: dict[str, int] = {}           # per run: the rows of each demand relation
        self._done: dict[str, int] = {}           # per run: how many of its demand's rows a view answers
        self._rank = {name: i for i, name in enumerate(self.program.order)}
        self._closures: dict[tuple[str, ...], tuple[str, ...]] = {}

    def close(self) -> None:
        self._con.close()

    def set_threads(self, threads: int) -> int:
        """How many threads DuckDB may use from now on (one, beside worker processes that keep
        every core busy: more only contend); how many it could before."""
        with self._lock:
            (before,), = self._con.execute("SELECT current_setting('threads')").fetchall()
            self._con.execute(f"SET threads = {int(threads)}")
            return int(before)

    def interrupt(self) -> None:
        """Stop the run on this connection (from any thread): engine.limits calls it when a time
        budget or the memory ceiling is passed, a judge's workers when the batch stops.  DuckDB
        stops the query in flight; the statements after it are not started (until the next run)."""
        self._stopped = True
        self._con.interrupt()

    def _create_static(self, names: list[str]) -> None:
        for name in names:
            pred = self.program.preds[name]
            if name not in self._static and not pred.runtime:      # nothing that divides: see dividing
                self._run(f"CREATE TABLE {table(name)} AS {self._sql.materialise(pred)}")
                self._static.add(name)

    def _run(self, sql: str, params: Sequence[Any] | None = None):
        import duckdb
        if self._stopped and self._running:
            raise duckdb.InterruptException("INTERRUPT Error: Interrupted!")
        try:
            return self._con.execute(sql, params) if params is not None else self._con.execute(sql)
        except duckdb.OutOfMemoryException:
            raise EvaluationError("the rules ran out of memory (DuckDB's limit, 80% of RAM)") from None
        except duckdb.OutOfRangeException as exc:
            raise EvaluationError(f"integer overflow in the rules: {str(exc).splitlines()[0]}") from None
        except (duckdb.InvalidInputException, duckdb.ConversionException) as exc:
            msg = str(exc).splitlines()[0]
            if "division by zero" in msg:
                raise EvaluationError("division by zero in the rules") from None
            raise EvaluationError(msg) from None

    def _rows(self, name: str) -> list[tuple]:
        """A relation's rows in order (strings are coded by their order), with its strings decoded."""
        pred = self.program.preds.get(name)
        if pred is None:
            return []
        rows = self._run(f"SELECT * FROM {table(name)} ORDER BY ALL").fetchall()
        texts = [i + pred.world for i, t in enumerate(pred.types) if t == STR]
        if texts:
            strings = self.program.strings
            rows = [tuple(strings[v] if i in texts else v for i, v in enumerate(row)) for row in rows]
        return rows

    def create(self, name: str, select: str) -> None:
        """A helper table of the caller's in this database (``x_`` + name), e.g. every hand."""
        self._run(f'CREATE OR REPLACE TABLE "x_{name}" AS {select}')

    def query(self, sql: str) -> list[tuple]:
        """Rows of a SELECT over the helper tables (``x_…``) of this database."""
        with self._lock:
            return self._run(sql).fetchall()

    def create_columns(self, name: str, columns: Mapping[str, Sequence[int]]) -> None:
        """A helper table of integer columns (``x_`` + name), handed to DuckDB as numpy arrays
        (no text, no Python row per value: fast for millions)."""
        import numpy as np
        arrays = {c: np.asarray(v, dtype=np.int64) for c, v in columns.items()}
        source = f"x_{name}$source"
        with self._lock:
            self._con.register(source, arrays)
            try:
                self._run(f'CREATE OR REPLACE TABLE "x_{name}" AS SELECT * FROM "{source}"')
            finally:
                self._con.unregister(source)

    def run(self, worlds: Worlds, asked: Sequence[str], reduce: Mapping[str, "str | Reduction"] | None = None,
            compute: Sequence[str] = (), seeds: Mapping[str, Iterable[tuple]] | None = None
            ) -> dict[str, list[tuple]]:
        """Evaluate the asked predicates in every world at once: rows led by their world.

        ``reduce`` maps names to reductions run over the results before they are dropped: a
        named one (FirstSet: numpy columns; Disagreement: rows), or a SELECT (``{p}`` stands for
        the relation of the predicate p): answers too many to fetch, counted in place.  Strings
        in reduced rows stay coded.  ``compute`` names relations that are computed for
        ``reduce`` but not fetched.  ``seeds`` maps an asked view to the values of its inputs
        it is asked for, the same in every world (``beat`` for hands 1 and 2): it is computed for
        those, and for what its callers in the run ask, rather than whole.
        """
        with self._lock:
            self._stopped = False
            names = needed(self.program, [*asked, *compute])
            seeded = self._seeds(seeds or {})
            self._create_static(names)
            for name, columns in worlds.columns.items():
                self.create_columns(name, columns)
            created: list[str] = []
            self._running = True
            try:
                for name, args in self.program.inputs.items():
                    cols = ["w", *(f"a{i}" for i in range(len(args)))]
                    sql = worlds.sql.get(name) or (f'SELECT * FROM "x_{name}"' if name in worlds.columns else
                                                   f"SELECT {', '.join(['0'] * len(cols))} WHERE FALSE")
                    created.append(table(name))
                    self._run(f"CREATE OR REPLACE TABLE {table(name)} AS SELECT * FROM ({sql}) "
                              f"x({', '.join(cols)})")
                created.append(WORLDS)
                self._run(f"CREATE OR REPLACE TABLE {WORLDS} AS " + (
                    worlds.sql.get("worlds") or ('SELECT w FROM "x_worlds"' if "worlds" in worlds.columns else
                                                 f"SELECT DISTINCT w FROM {table(interface.DECLARED)}")))
                made: set[str] = set()
                fed: dict[str, tuple[int, ...]] = {}
                self._version = {}
                self._built = {}
                self._demand_rows = {}
                self._done = {}
                whole = self._whole(names, [n for n in (*asked, *compute) if n not in seeded])
                uses = self._uses(names, whole)
                empty: set[str] = set()
                for name in names:
                    pred = self.program.preds[name]
                    if pred.view and name not in whole:
                        demand = self.program.preds[DEMAND + name]
                        cols = (["w BIGINT"] if demand.world else []) + [f"a{i} BIGINT" for i in range(demand.arity)]
                        created += [table(demand.name), table(name)]
                        self._run(f"CREATE OR REPLACE TABLE {table(demand.name)} ({', '.join(cols)})")
                for name in names:
                    pred = self.program.preds[name]
                    if name in seeded and name not in whole:
                        self._seed(name, seeded[name])
                        self._compute([name], made, fed, empty, whole)
                        continue
                    if name in self.program.inputs or not pred.runtime or (pred.view and name not in whole):
                        continue
                    rules = self._rules(pred, whole)
                    self._feed(rules, made, fed, empty, whole)
                    created.append(table(name))
                    # A relation read by one clause only is a view: DuckDB plans it into its reader.
                    kind = "VIEW" if uses.get(name, 0) == 1 and name not in asked and name not in compute else "TABLE"
                    if kind == "VIEW":
                        self._views.add(table(name))
                    self._create(kind, name, pred, empty, rules)
                out = {name: self._rows(name) for name in asked}
                tables = {name: table(name) for name in self.program.preds}
                for key, how in (reduce or {}).items():
                    if isinstance(how, str):
                        out[key] = self._run(how.format_map(tables)).fetchall()
                    elif isinstance(how, FirstSet):
                        out[key] = self._run(how.sql(self.program)).fetchnumpy()
                    else:
                        out[key] = self._run(how.sql(self.program)).fetchall()
                return out
            finally:
                self._running = False
                if created:
                    self._drop(list(reversed(created)))
                self._views.clear()

    def _drop(self, tables: list[str]) -> None:
        """Drop a run's relations, in one call (DuckDB runs the statements in turn).  An interrupt
        meant for the run can land on this call instead (it came between two statements): it is
        made again; and if it still fails, each relation is dropped by the kind the catalog says
        it is, so that no run leaves a table where the next one makes a view."""
        import duckdb
        sql = "; ".join(f"DROP {'VIEW' if t in self._views else 'TABLE'} IF EXISTS {t}" for t in tables)
        for _ in range(3):
            try:
                self._con.execute(sql)
                return
            except duckdb.InterruptException:
                continue
            except duckdb.Error:
                break
        views = {r[0] for r in self._con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
        for t in tables:
            with contextlib.suppress(duckdb.Error):
                self._con.execute(f"DROP {'VIEW' if t.strip(chr(34)) in views else 'TABLE'} IF EXISTS {t}")

    def _seeds(self, seeds: Mapping[str, Iterable[tuple]]) -> dict[str, str]:
        """The seeded views of a run, each with its inputs' values as SQL VALUES (a view whose
        values the rules never use as constants, e.g. a string they do not know, is not seeded:
        it is computed as asked without)."""
        out: dict[str, str] = {}
        for name, values in seeds.items():
            pred = self.program.preds.get(name)
            values = list(values)
            if pred is None or not pred.view or not values or any(len(v) != len(pred.inputs) for v in values):
                continue
            try:
                rows = ["(" + ", ".join(literal(x, self.program.codes) for x in v) + ")" for v in values]
            except (KeyError, TypeError, ValueError):
                continue
            out[name] = ", ".join(rows)
        return out

    def _seed(self, name: str, values: str) -> None:
        """A view's demand, first rows: the seeded inputs in every world."""
        demand = self.program.preds[DEMAND + name]
        cols = ", ".join(f"c{i}" for i in range(demand.arity))
        source = f"SELECT w.w, {cols} FROM {WORLDS} w, (VALUES {values}) v({cols})" if demand.world \
            else f"SELECT {cols} FROM (VALUES {values}) v({cols})"
        added = self._run(f"INSERT INTO {table(demand.name)} {source}").fetchone()[0]
        self._version[demand.name] = self._version.get(demand.name, 0) + 1
        self._demand_rows[demand.name] = self._demand_rows.get(demand.name, 0) + added

    def _rules(self, pred: Pred, whole: set[str]) -> list[Rule]:
        """The clauses that compute a relation in this run (an optional view asked whole: unnarrowed)."""
        return [r.full for r in pred.rules] if pred.optional and pred.name in whole else pred.rules

    def _whole(self, names: list[str], roots: Sequence[str]) -> set[str]:
        """The optional views computed whole in this run: the asked ones, and those that a whole
        relation calls without binding their inputs."""
        preds = self.program.preds
        whole = {n for n in roots if n in preds and preds[n].optional}
        todo = [n for n in names if not preds[n].view] + sorted(whole)
        while todo:
            pred = preds[todo.pop()]
            for rule in self._rules(pred, whole):
                for step, bound in call_sites(rule.body, set()):
                    callee = preds[step.pred]
                    if callee.optional and step.pred not in whole and not callee.inputs <= bound:
                        whole.add(step.pred)
                        todo.append(step.pred)
        return whole

    def _uses(self, names: list[str], whole: set[str]) -> dict[str, int]:
        """How many body literals (and demands) read each relation, among the needed clauses."""
        count: dict[str, int] = {}
        for name in names:
            for rule in self._rules(self.program.preds[name], whole):
                for r in [rule, *rule.demands]:
                    for step in r.body:
                        if isinstance(step, Atom):
                            count[step.pred] = count.get(step.pred, 0) + 1
        return count

    def witness(self, rules: list[Rule], empty: set[str] = frozenset()) -> None:
        """Raise EvaluationError where pyDatalog would divide by zero in these clauses.

        A division is evaluated by pyDatalog for every row of the steps before it, left to
        right; SQL may evaluate it for more rows or fewer (a later filter first), so the
        division itself gives NULL for a zero divisor and this query asks the question exactly:
        is there a row of the steps before the division where the divisor is zero?  A clause
        that reads a relation known to be empty in this run is not evaluated at all.
        """
        for rule in rules:
            for k, divs in divisors(rule):
                prefix = rule.body[:k]
                if any(isinstance(s, Atom) and not s.negated and s.pred in empty for s in prefix):
                    continue
                probe = Rule(rule.clause, rule.pred, tuple(divs), list(prefix))
                outs, body = self._sql.select(probe)
                cols = [f"d{i}" for i in range(len(outs))]
                zero = " OR ".join(f"{c} = 0" for c in cols[len(outs) - len(divs):])
                if self._run(f"SELECT 1 FROM (SELECT {', '.join(outs)}{body}) x({', '.join(cols)}) "
                             f"WHERE {zero} LIMIT 1").fetchall():
                    raise EvaluationError(f"division by zero in the rules ({rule.clause.where}: {rule.clause.label})")

    def _create(self, kind: str, name: str, pred: Pred, empty: set[str], rules: list[Rule]) -> None:
        """Create a relation; note it when it is empty (the clauses that read it positively are skipped)."""
        self.witness(rules, empty)
        made = self._run(f"CREATE OR REPLACE {kind} {table(name)} AS {self._sql.materialise(pred, empty, rules)}")
        self._version[name] = self._version.get(name, 0) + 1
        if kind == "TABLE" and made.fetchone()[0] == 0:        # CREATE TABLE AS gives its row count
            empty.add(name)
        else:
            empty.discard(name)

    def _feed(self, rules: list[Rule], made: set[str], fed: dict[str, tuple[int, ...]], empty: set[str],
              whole: set[str]) -> None:
        """Before clauses run: add what their calls of views ask for, and compute the views anew.

        Every demand of the clauses is fed before any view is computed, so that a view called
        twice (``partSize(A, P)`` and ``partSize(B, Q)``) is computed once, for both, and so are
        the views it calls in turn; a view is computed early only when a later demand reads it.
        A demand gives the same rows as the last time it was fed (``fed``: its shape, variables
        renamed, with the versions then of every relation it reads, directly or through DuckDB
        views) when none of those relations changed since: it is not fed again, as it would add
        nothing.  The first rows of a demand need no ``EXCEPT`` (it is empty until then).  A view
        computed whole needs no demand.  The demands of one relation fed in a row go as one
        INSERT (a statement costs DuckDB a millisecond or more to plan, whatever its rows), unless
        one reads what another adds.
        """
        pending: list[str] = []
        queued: dict[str, list[tuple[list[str], str]]] = {}   # demand relation -> SELECTs not yet run
        for rule in rules:
            for demand in rule.demands:
                view = demand.pred[len(DEMAND):]
                if view in whole:
                    continue
                reads = self._reads(demand)
                if any(r in queued for r in reads):
                    self._insert(queued)               # it reads what is queued: add that first
                if any(v in reads for v in pending):
                    self._insert(queued)
                    self._compute(pending, made, fed, empty, whole)
                    pending = []
                key = shape(demand)
                stamp = tuple(self._version.get(name, 0) for name in reads)
                if view in made and fed.get(key) == stamp:
                    continue
                fed[key] = stamp
                queued.setdefault(demand.pred, []).append(self._sql.select(demand))
                if view not in pending:
                    pending.append(view)
        self._insert(queued)
        self._compute(pending, made, fed, empty, whole)

    def _insert(self, queued: dict[str, list[tuple[list[str], str]]]) -> None:
        """Add the queued rows to their demand relations, one statement a relation; emptied."""
        for name, selects in queued.items():
            target = table(name)
            if len(selects) == 1:
                (outs, body), = selects
                rows = f"SELECT DISTINCT {', '.join(outs)}{body}"
            else:
                rows = " UNION ".join(f"SELECT {', '.join(outs)}{body}" for outs, body in selects)
            if self._version.get(name, 0) == 0:         # created empty for this run
                sql = f"INSERT INTO {target} {rows}"
            else:
                sql = f"INSERT INTO {target} SELECT * FROM ({rows}) EXCEPT SELECT * FROM {target}"
            added = self._run(sql).fetchone()[0]
            if added:
                self._version[name] = self._version.get(name, 0) + 1
                self._demand_rows[name] = self._demand_rows.get(name, 0) + added
        queued.clear()

    def _compute(self, views: list[str], made: set[str], fed: dict[str, tuple[int, ...]], empty: set[str],
                 whole: set[str]) -> None:
        """Compute views for their demand, callers first (a caller feeds its callees' demand, and
        they are computed with it); a view whose demand has not grown since it was made is kept."""
        rank = self._rank
        for view in sorted(views, key=lambda v: -rank[v]):
            demand = self._version.get(DEMAND + view, 0)
            if view in made and self._built.get(view) == demand:
                continue
            pred = self.program.preds[view]
            self._feed(pred.rules, made, fed, empty, whole)
            rows = self._demand_rows.get(DEMAND + view, 0)
            if view in made:
                self._extend(view, pred, empty, self._done.get(view, 0))
            else:
                self._create("TABLE", view, pred, empty, pred.rules)
            self._built[view] = self._version.get(DEMAND + view, 0)
            self._done[view] = rows
            made.add(view)

    def _extend(self, view: str, pred: Pred, empty: set[str], done: int) -> None:
        """A view made earlier in the run, its demand grown since: answer the new demand rows only.

        A view's rows for one demand row are all of its answers for those inputs, whatever else is
        asked, and rows for different inputs differ: so the rows for the new demand (rows ``done``
        on of the demand relation: DuckDB numbers appended rows after the old ones, ``rowid``)
        are added, and the old ones stay, as a recomputation would give them.  A demand that grows
        in waves (two rule sets' handKey asking one shared partKey) costs what it adds.
        """
        demand = table(DEMAND + view)
        self._sql.sources = {DEMAND + view: f"(SELECT * FROM {demand} WHERE rowid >= {int(done)})"}
        try:
            self.witness(pred.rules, empty)
            sql = self._sql.materialise(pred, empty, pred.rules)
        finally:
            self._sql.sources = {}
        if self._run(f"INSERT INTO {table(view)} {sql}").fetchone()[0]:
            self._version[view] = self._version.get(view, 0) + 1
            empty.discard(view)

    def _reads(self, rule: Rule) -> tuple[str, ...]:
        """Every relation a clause's body reads, directly or through the relations it reads."""
        key = tuple(sorted({s.pred for s in rule.body if isinstance(s, Atom)}))
        found = self._closures.get(key)
        if found is None:
            found = self._closures[key] = tuple(sorted(set(key) | set(needed(self.program, key))))
        return found
