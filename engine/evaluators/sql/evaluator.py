"""The compiled evaluator: the Evaluator protocol over a rule set compiled to SQL on DuckDB."""

from __future__ import annotations

import threading
from typing import Any, Iterable, Mapping, Sequence

from engine import interface
from engine.datalog import loader
from engine.datalog.ir import EvaluationError
from engine.datalog.program import Program
from engine.evaluators import exact, ordered
from engine.evaluators.sql.duckdb import Database, Worlds

TABLE_ID = 0              # the table the hands of a fight sit at (engine.evaluators.TABLE)


class CompiledEvaluator(exact.Exact):
    """The Evaluator protocol over a compiled rule set (a Database): every world of a batch in one run (where a
    run fails, see :class:`engine.evaluators.exact.Exact`).

    The sets go to DuckDB as one row each, their cards packed six bits a card into one integer
    (ids 0..63, up to ten cards; any other set is passed card by card): a batch of 20,000 fights
    is a few hundred thousand numbers, unpacked by SQL into ``declared``, ``holds`` and ``seat``.
    """

    name = "compiled"
    fault = EvaluationError

    def __init__(self, clauses: Iterable[loader.Clause] = (), threads: int | None = None,
                 program: Program | None = None, lazy: bool = False):
        self._args = (program if program is not None else Program(list(clauses), interface.INPUTS, interface.ASKED),
                      threads)
        self._compiled: Database | None = None
        self._lock = threading.Lock()
        if not lazy:
            self.compiled

    @property
    def compiled(self) -> Database:
        """The DuckDB database (``lazy``: opened on first use, by the thread that uses it)."""
        if self._compiled is None:
            with self._lock:
                if self._compiled is None:
                    program, threads = self._args
                    self._compiled = Database(program, threads=threads)
        return self._compiled

    def interrupt(self) -> None:
        """Stop the query running, if the database is open."""
        if self._compiled is not None:
            self._compiled.interrupt()

    def _run(self, worlds: Sequence[Any], names: list[str], seeds: Mapping[str, Iterable[tuple]] | None = None
             ) -> dict[str, list[tuple]]:
        sets, loose = _packed(worlds)
        batch = Worlds(sql={"worlds": f"SELECT range AS w FROM range({len(worlds)})"})
        if len(sets["w"]):                  # (worlds of chips alone, hand histories': no cards)
            batch.columns.update(sets=sets, loose=loose)
            batch.sql.update({
                interface.DECLARED: 'SELECT w, s FROM "x_sets"',
                interface.HOLDS: 'SELECT w, s, i, (p >> (6 * i)) & 63 FROM "x_sets", range(10) r(i) WHERE i < n '
                                 'UNION ALL SELECT w, s, i, c FROM "x_loose"',
                interface.SEAT: f'SELECT w, {TABLE_ID}, s FROM "x_sets" WHERE seated = 1',
                interface.BOARD: f'SELECT w, {TABLE_ID}, s FROM "x_sets" WHERE role = 1',
                interface.GAME: f'SELECT w, {TABLE_ID}, g FROM "x_sets" WHERE role = 1',
                interface.CANDIDATE: 'SELECT w, owner, s FROM "x_sets" WHERE role = 2'})
        batch.columns.update(_chips(worlds))
        return self.compiled.run(batch, names, seeds=seeds)

    @property
    def program(self) -> Program:
        return self._args[0]

    def _answers(self, worlds: Sequence[Any], asked: Sequence[Any]) -> list[dict]:
        names = list(dict.fromkeys(a.pred for a in asked))
        rows = self._run(worlds, names, self._bound_views(asked)) if worlds else {}
        out: list[dict] = [{} for _ in worlds]
        for ask in asked:
            pred = self.compiled.program.preds.get(ask.pred)
            keep = ask.matcher()
            if pred is not None and not pred.world:          # the same rows in every world
                kept = ordered(r for r in rows[ask.pred] if keep is None or keep(r))
                for answers in out:
                    answers[ask] = list(kept)
                continue
            per: list[list[tuple]] = [[] for _ in worlds]
            for row in rows.get(ask.pred, []):               # sorted: each world's rows in order
                if keep is None or keep(row[1:]):
                    per[row[0]].append(row[1:])
            for answers, kept in zip(out, per):
                answers[ask] = kept
        return out

    def _bound_views(self, asked: Sequence[Any]) -> dict[str, set[tuple]]:
        """The views asked only with their inputs bound (beat(1, 2, R)): computed for those."""
        seeds: dict[str, set[tuple]] = {}
        free: set[str] = set()
        for ask in asked:
            pred = self.compiled.program.preds.get(ask.pred)
            if pred is None or not pred.view:
                continue
            values = tuple(ask.args[i] for i in sorted(pred.inputs))
            if None in values:
                free.add(ask.pred)
            else:
                seeds.setdefault(ask.pred, set()).add(values)
        return {name: v for name, v in seeds.items() if name not in free}


def _chips(worlds: Sequence[Any]) -> dict[str, dict[str, Sequence[int]]]:
    """The input facts that are not cards (World.chips), a column table each: world, arguments."""
    rows: dict[str, list[tuple[int, ...]]] = {}
    for w, world in enumerate(worlds):
        for name, row in getattr(world, "chips", ()):
            found = rows.get(name)
            if found is None:
                found = rows[name] = []
            found.append((w, *row))
    import numpy as np
    out: dict[str, dict[str, Sequence[int]]] = {}
    for name, found in rows.items():
        table = np.array(found, dtype=np.int64)
        out[name] = {c: table[:, j] for j, c in enumerate(["w", *(f"a{i}" for i in range(table.shape[1] - 1))])}
    return out


def _packed(worlds: Sequence[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The sets of a batch as columns: one row a set (its world, id, role: 0 a hand or player,
    1 a board, 2 a player's five; owner: the player of a five; game: of a board; whether seated)
    and its cards packed six bits a card into one integer (n cards, ids 0..63, n <= 10).  Any
    other set has n = 0 and goes card by card into the second table (world, set, position, card)."""
    import numpy as np
    rows: list[tuple[int, ...]] = []
    hands: list[tuple[int, ...]] = []
    for w, world in enumerate(worlds):
        seated, game = int(world.seated), world.game
        for s, (role, owner, hand) in enumerate(world.sets(), 1):
            rows.append((w, s, role, owner, game if role == 1 else 0, seated if role == 0 else 0))
            hands.append(hand)
    table = np.array(rows, dtype=np.int64).reshape(len(rows), 6)
    sets = {k: table[:, j] for j, k in enumerate(("w", "s", "role", "owner", "g", "seated"))}
    n = np.fromiter(map(len, hands), dtype=np.int64, count=len(hands))
    width = min(int(n.max()) if len(n) else 0, 10)
    fits = n <= 10
    try:
        if len(hands) and int(n.min()) == width == int(n.max()):
            cards = np.array(hands, dtype=np.int64)           # every set of one size: at once
        else:
            raise OverflowError
    except OverflowError:
        cards = np.full((len(hands), width), -1, dtype=np.int64)
        for i, hand in enumerate(hands):
            if fits[i]:
                try:
                    cards[i, :len(hand)] = hand
                except OverflowError:                 # an id beyond 64 bits
                    fits[i] = False
    used = np.arange(width) < n[:, None]
    fits &= ~((used & ((cards < 0) | (cards > 63))).any(axis=1))
    shifts = (6 * np.arange(width, dtype=np.int64))
    sets["n"] = np.where(fits, n, 0)
    sets["p"] = np.where(fits, (np.where(used, cards, 0) << shifts).sum(axis=1), 0)
    loose: dict[str, list[int]] = {"w": [], "s": [], "i": [], "c": []}
    for k in np.flatnonzero(~fits):
        for i, c in enumerate(hands[k]):
            for key, value in zip(loose, (int(sets["w"][k]), int(sets["s"][k]), i, c)):
                loose[key].append(value)
    return sets, loose
