"""Judging batches of fights: N fights in, N results out, in order, bad ones marked.

Fights are read one by one and judged in chunks: each chunk is one question to the rules (through
the compiled evaluator, every fight its own world), so a batch of any size streams in bounded
memory; the chunks run side by side on the engine's workers, one DuckDB database a core.  A
fight that cannot be read (not a mapping, not 2..10 hands, a bad card) is marked with the reason;
a fight the rules find invalid (a shared card, four cards) gets the rules' reason.  A fight with
a ``board:`` (and a ``game:``, hold'em by default) is a showdown: each hand is a
player's own cards, and the result also gives the five each plays; so is a fight of a game
without a board (``game: stud``, ``stud-hilo``, ``razz``: each hand is a player's seven cards).
"""

from __future__ import annotations

import contextlib
import difflib
import gc
import importlib
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from queue import Queue
from typing import Any, Callable, Iterable, Iterator

from engine.core import Engine
from engine.evaluators import Evaluator, Verdict, verdicts
from engine.evaluators.pydatalog.reference import ReferenceEvaluator
from engine.evaluators.workers import SMALL_BATCH
from engine.io.fights import check_fight
from engine.judging import policy
from engine.judging.hilo import low_half, split_games, with_low
from engine.judging.tabled import Tabled
from engine.limits import collector_paused, held
from engine.notices import say
from engine.poker.notation import InvalidCards

MIN_HANDS, MAX_HANDS = 2, 10
KEYS = frozenset({"id", "hands", "board", "game"})     # what a fight may say
GAME = "holdem"         # a showdown's game when the fight names none
CHUNK = 16_000          # fights per question to the rules: big enough to amortise, small in memory
FIRST = 10_000          # the first chunk: smaller, so that the workers start early
PLAIN_CHUNK = 100       # fights a chunk when pyDatalog judges (--plain): it answers one at a time
LEAVE_AFTER = 0.2       # seconds a batch stopped by a signal waits for its workers to stop


@dataclass(slots=True)
class Result:
    """One fight's result, as written by `poker judge`.

    >>> Result("f1", 1, [0], [3, 2], ["two pair", "one pair"]).as_dict()
    {'id': 'f1', 'result': 1, 'winners': [0], 'ranks': [3, 2], 'categories': ['two pair', 'one pair']}
    """
    id: Any
    result: int
    winners: list[int]
    ranks: list[int | None]              # null for a hand that is none (getRank -1) or was not read
    categories: list[str | None]
    error: str | None = None
    best: list[str] | None = None        # a showdown: each player's five that play
    low: dict[str, Any] | None = None    # a split pot's low half: winners, best, ranks, categories
    shares: list[str] | None = None      # a split pot: each player's share, exact ("1/2")
    fault: bool = False                  # invalid by the rules' own fault (Verdict.fault); not written

    def as_dict(self) -> dict:
        out = {"id": self.id, "result": self.result, "winners": self.winners,
               "ranks": self.ranks, "categories": self.categories}
        if self.best is not None:
            out["best"] = self.best
        if self.low is not None:
            out["low"] = self.low
            out["shares"] = self.shares
        if self.error:
            out["error"] = self.error
        return out


class Judge:
    """Judges fights with one engine: a chunk at a time, on the engine's workers (one compiled
    evaluator a core, :meth:`Engine.workers`) side by side, while the next chunk is read; or
    with the one evaluator given (``--plain``: pyDatalog)."""

    def __init__(self, engine: "Engine", evaluator: "Evaluator | None" = None, chunk: int = CHUNK,
                 table: bool | None = None, strict: bool = False,
                 warn: Callable[[str], None] | None = None):
        self.engine = engine
        # A fight with a key it may not have (``borad:``): ``warn`` is told (one line naming the
        # fight and the key) and it is judged; with ``strict`` it is invalid.
        self.strict, self.warn = strict, warn
        # pyDatalog (--plain) answers fight by fight: nothing to amortise; its chunks are small so
        # that progress shows, and the collector is left running (its searches make cycles).
        self.plain = isinstance(evaluator, ReferenceEvaluator)
        self.chunk = min(chunk, PLAIN_CHUNK) if self.plain else chunk
        self.chosen = evaluator
        self.used: dict[str, None] = {}        # the names of the evaluators that judged, in order
        # The five-card table (engine/judging/tabled.py): True: from the start (built if need be);
        # None: when the batch turns out long; False: never.  Never with a chosen evaluator.
        self.table = False if evaluator is not None else table
        self.fast: "Tabled | None" = None
        self._looked = False
        self._cheap: tuple[bool, bool] | None = (False, False)   # fights, showdowns: read off the table
        self._names: dict[tuple[int, ...], list[str | None]] = {}     # ranks -> their categories' names

    def _look(self, work: int) -> None:
        """Turn to the table when the batch is long enough for it to pay: the cached one after
        :data:`engine.judging.policy.BATCH_LOOK_AFTER` units of work (a fight of two hands is one, a showdown more:
        (:func:`engine.judging.policy.weight`), a new one after :data:`engine.judging.policy.BATCH_BUILD_AFTER` (a
        few seconds, about what judging 50,000 fights costs; then cached for every later batch)."""
        if self.table is False or self.fast is not None:
            return
        if self.table is True:
            build, self.table = True, False
        elif self.table is None and (work >= policy.BATCH_BUILD_AFTER or (work >= policy.BATCH_LOOK_AFTER and not self._looked)):
            build = work >= policy.BATCH_BUILD_AFTER
            self._looked = True
            self.table = False if build else None      # built once, or not at all
        else:
            return
        self.fast = self.engine.tabled(build=build, announce=lambda line: say(f"a long batch: {line}"))
        if self.fast is not None:
            self._cheap = None                    # asked when first needed (Judge._cheaply, engine.judge.columnar)

    def _cheaply(self) -> tuple[bool, bool]:
        """Whether fights, and showdowns, are read off the table: each proof made when first
        needed (a batch of fights never asks the showdown proof)."""
        if self._cheap is None:
            assert self.fast is not None
            self._cheap = (self.fast.fights, self.fast.showdowns)
            if any(self._cheap):
                self.used["five-card table"] = None
        return self._cheap

    def evaluator(self, n: int) -> "Evaluator":
        return self.chosen or self.engine.evaluator(n)

    def judge(self, fights: Iterable[Any], progress: Callable[[int], None] | None = None,
              indexed: bool = False) -> Iterator[Result]:
        """Judge fights in order, a chunk at a time; ``progress(n)`` after each chunk; ``indexed``:
        the fights come as (index in the batch, fight), some of a batch judged elsewhere
        (engine.judge.columnar), each fight without an id numbered by its index.  The cyclic
        garbage collector is paused until the generator is exhausted or closed (engine.limits.collector_paused),
        except while pyDatalog judges: each of its searches leaves cycles behind, megabytes a second
        that only the collector frees."""
        with _Chunks(self, progress) as chunks, (contextlib.nullcontext() if self.plain else collector_paused()):
            pending: list[tuple[Any, Any]] = []      # (ident, Result or hands)
            valid = work = 0                         # in this chunk; in the batch (see _look)
            size = chunks.first
            self._look(0)
            for index, fight in (fights if indexed else enumerate(fights)):
                if index == chunks.small:
                    chunks.prepare()                 # a batch long enough for DuckDB
                parsed = self._parse(index, fight)
                pending.append(parsed)
                if not isinstance(parsed[1], Result):
                    two = type(parsed[1]) is list
                    if self._cheaply()[not two]:             # read off the table
                        valid += 1
                    else:                                    # asked of the rules: by its size
                        weight = 1 if two and len(parsed[1]) == 2 else policy.weight(parsed[1])
                        work += weight
                        valid += weight
                if valid >= size:
                    self._look(work)
                    yield from chunks.submit(pending, valid)
                    pending, valid, size = [], 0, self.chunk
                elif self.fast is None and (work >= policy.BATCH_LOOK_AFTER and not self._looked or work >= policy.BATCH_BUILD_AFTER):
                    self._look(work)
            yield from chunks.submit(pending, valid)
            yield from chunks.drain()

    def _result(self, ident: Any, v: "Verdict", fight: Any = None) -> Result:
        names = self._names.get(v.ranks)
        if names is None:
            names = self._names[v.ranks] = [self.engine.categories.get(r) for r in v.ranks]
        best = [self.engine.notation.format(b) if b else None for b in v.best] if v.best else None
        ranks = list(v.ranks) if -1 not in v.ranks else [None if r == -1 else r for r in v.ranks]  # no hand: null
        result = Result(ident, v.result, list(v.winners), ranks, names.copy(), v.error, best, fault=v.fault)
        if v.low is not None:                     # a split pot (engine/judging/hilo.py)
            _, result.low = low_half(self.engine, fight.game, v)
            result.shares = [str(x) for x in v.shares]
        return result

    def _boardless(self, game: Any) -> bool:
        """Whether ``game`` names a game of these rules that has no board (noBoard: stud)."""
        try:
            return type(game) is str and self.engine._game(game)[0] in self.engine.boardless
        except InvalidCards:                      # no such game: check_fight and the rules say why
            return False

    def _parse(self, index: int, fight: Any) -> tuple[Any, Any]:
        ident = fight.get("id", index + 1) if isinstance(fight, dict) else index + 1
        if isinstance(fight, dict) and not KEYS.issuperset(fight):
            why = unknown_keys(fight)
            if self.strict:
                n = len(fight["hands"]) if isinstance(fight.get("hands"), list) else 0
                return ident, Result(ident, -1, [], [None] * n, [None] * n, why)
            if self.warn is not None:
                self.warn(f"fight {ident!r}: {why}; judged without it (--strict: invalid)")
        if type(fight) is dict and "board" not in fight and self._boardless(fight.get("game")):
            fight = {**fight, "board": ""}        # a stud game's fight: no board to give
        if type(fight) is dict:                   # the common cases, read fast (check_fight's checks hold)
            hands = fight.get("hands")
            if type(hands) is list and MIN_HANDS <= len(hands) <= MAX_HANDS:
                quick = self.engine.notation.quick
                parsed = [quick(h) for h in hands]
                if None not in parsed:
                    if "board" not in fight and "game" not in fight:
                        return ident, parsed
                    board, game = quick(fight["board"]) if "board" in fight else None, fight.get("game", GAME)
                    if board is not None and type(game) is str:
                        try:
                            return ident, self.engine._seat(parsed, board, self.engine._game(game)[0])
                        except InvalidCards:
                            pass                  # the slow path says why
        try:
            reason = check_fight(fight)          # junk, or a hand far longer than five cards
            if reason is not None:
                raise InvalidCards(reason)
            if not isinstance(fight, dict):
                raise InvalidCards("a fight is a mapping with `hands:`")
            hands = fight.get("hands")
            if not isinstance(hands, list):
                raise InvalidCards("`hands` must be a list of hands")
            if not MIN_HANDS <= len(hands) <= MAX_HANDS:
                raise InvalidCards(f"a fight takes {MIN_HANDS} to {MAX_HANDS} hands, not {len(hands)}")
            if "board" in fight:                 # a showdown
                return ident, self.engine.deal(hands, fight["board"], fight.get("game", GAME))
            return ident, [tuple(self.engine.cards(h)) for h in hands]
        except InvalidCards as exc:
            n = len(fight.get("hands")) if isinstance(fight, dict) and isinstance(fight.get("hands"), list) else 0
            return ident, Result(ident, -1, [], [None] * n, [None] * n, str(exc))


def unknown_keys(fight: dict) -> str:
    """What is wrong with a fight's keys, in words, with the nearest known key for each.

    >>> unknown_keys({"hands": [], "borad": "AH KH QH", "extra": 1})
    "unknown key 'borad' (did you mean 'board'?), unknown key 'extra'"
    """
    out = []
    for key in sorted((k for k in fight if k not in KEYS), key=str):
        near = difflib.get_close_matches(str(key), sorted(KEYS), n=1)
        out.append(f"unknown key {str(key)!r}" + (f" (did you mean {near[0]!r}?)" if near else ""))
    return ", ".join(out)


class _Chunks:
    """The chunks of a batch being judged: up to one a worker in flight, results in order.

    A worker is a compiled evaluator of its own (one DuckDB database, one thread); the main thread
    reads and parses the next chunk meanwhile, and writes the results.  The first chunk is smaller
    (:data:`FIRST`), so that the workers start early: 20,000 fights go as two halves side by side.
    In flight at most: a chunk a worker, and the one being read.  A chunk too small for DuckDB, and
    every chunk of a judge given its evaluator, is judged in the main thread.  Leaving early (an
    error, the time budget, Ctrl-C, SIGTERM) interrupts the workers and waits for them; after a
    signal, at most :data:`LEAVE_AFTER` seconds.
    """

    def __init__(self, judge: Judge, progress: Callable[[int], None] | None):
        self.judge, self.progress, self.small = judge, progress, SMALL_BATCH
        self.workers = [] if judge.chosen else judge.engine.workers()
        self.parallel = len(self.workers) > 1
        self.first = max(1, min(FIRST, judge.chunk * 5 // 8)) if self.parallel else judge.chunk
        self.flight: deque[tuple[list[tuple[Any, Any]], Future]] = deque()
        self.pool: ThreadPoolExecutor | None = None
        self.free: Queue = Queue()
        self.stopped = False                     # leaving early: a chunk not started yet never starts
        self.split = bool(split_games(judge.engine))

    def __enter__(self) -> "_Chunks":
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        if self.pool is None:
            return
        # Held: the batch's budget, once run out, raises again every second while it is active,
        # and a raise before the shutdown below left the pool's threads unjoined, still running
        # after the batch had stopped (test_judge_workers, twice in loaded runs of the suite).
        with held():
            self._stop(kind)

    def _stop(self, kind: Any) -> None:
        """Stop the workers: at once for a signal (the command ends), else once their statements end."""
        assert self.pool is not None
        if kind is not None:
            self.stopped = True
            for _, future in self.flight:
                future.cancel()
            for worker in self.workers:
                with contextlib.suppress(Exception):
                    worker.interrupt()                   # type: ignore[attr-defined]
        if kind is not None and issubclass(kind, (KeyboardInterrupt, SystemExit)):
            # A signal: the command ends now.  A worker in DuckDB stops at once; one in Python (a
            # chunk's worlds, its verdicts) at its next statement, up to a second later: waited
            # for a moment only.  Its evaluator stays locked till then.
            futures = [future for _, future in self.flight]
            deadline = time.monotonic() + LEAVE_AFTER
            while True:      # a second Ctrl-C: still leave
                try:
                    wait(futures, timeout=max(0.0, deadline - time.monotonic()))
                    break
                except BaseException:
                    pass
            self.pool.shutdown(wait=False, cancel_futures=True)
            return
        late: BaseException | None = None
        while True:      # a budget raised again, a second Ctrl-C: still wait (a worker stops within a statement)
            try:
                self.pool.shutdown(wait=True, cancel_futures=True)
                break
            except BaseException as error:
                if late is None:
                    late = error
        if late is not None and kind is None:
            raise late

    def submit(self, pending: list[tuple[Any, Any]], weight: int = 0) -> Iterator[Result]:
        """Start judging a chunk (``weight``: its size as the rules see it, Judge.judge); first
        yield the results of the oldest, if every worker is busy."""
        if not pending:
            return
        fights = [hands for _, hands in pending if not isinstance(hands, Result)]
        size = max(len(fights), weight)
        future: Future = Future()
        if not fights:
            future.set_result([])
        elif not self.parallel or size <= self.small:
            while self.flight:                           # in order, and one DuckDB at a time
                yield from self._finish()
            evaluator = self.judge.evaluator(size)
            self.judge.used[evaluator.name] = None
            future.set_result(self._verdicts(evaluator, fights))
        else:
            while len(self.flight) >= len(self.workers):
                yield from self._finish()
            if self.pool is None:
                self.pool = ThreadPoolExecutor(len(self.workers), thread_name_prefix="judge")
                for worker in self.workers:
                    self.free.put(worker)
            self.judge.used[self.workers[0].name] = None
            with held():                                 # (a thread started is a thread shutdown joins)
                future = self.pool.submit(self._work, fights)
        self.flight.append((pending, future))

    def prepare(self) -> None:
        """Import DuckDB now, in the main thread, before the workers need it: imported by a
        worker, it would take the interpreter from the reading for longer (0.3 s instead of
        0.06), and the first chunk would start that much later.  Not when the batch reads the
        table already (a worker imports it if a fight the table cannot answer comes): a batch of
        showdowns off the table never needs it (0.3 s of its start-up)."""
        if self.parallel and not (self.judge.fast is not None and any(self.judge._cheaply())):
            importlib.import_module("duckdb")

    def drain(self) -> Iterator[Result]:
        while self.flight:
            yield from self._finish()

    def _work(self, fights: list) -> list["Verdict"]:
        worker = self.free.get()
        try:
            if self.stopped:
                raise InterruptedError("the batch stopped")
            return self._verdicts(worker, fights)
        finally:
            self.free.put(worker)

    def _verdicts(self, evaluator: "Evaluator", fights: list) -> list["Verdict"]:
        return verdicts(evaluator, fights, table=self.judge.fast)

    def _finish(self) -> Iterator[Result]:
        pending, future = self.flight[0]
        verdicts = future.result()
        if self.split:                           # split pots: their low halves, asked here
            verdicts = with_low(self.judge.engine, [h for _, h in pending if not isinstance(h, Result)], verdicts)
        answers = iter(verdicts)
        self.flight.popleft()
        for ident, hands in pending:
            yield hands if isinstance(hands, Result) else self.judge._result(ident, next(answers), hands)
        gc.collect(1)
        if self.progress:
            self.progress(len(pending))


def judge(engine: "Engine", fights: Iterable[Any]) -> list[Result]:
    """Judge fights (mappings with `hands:`) with an engine.

    >>> from engine import Engine
    >>> [r.result for r in judge(Engine(), [{"hands": ["JH JD 2C 2S 4H", "TH TD 9C 9S 8H"]}, 42])]
    [1, -1]
    """
    return list(Judge(engine).judge(fights))
