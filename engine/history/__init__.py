"""Judging hand histories: every pot of a played hand paid out by the rules, checked against the record.

A hand is replayed (:mod:`engine.io.phh`), and the rules are asked, for a whole chunk of hands at
once (the compiled evaluator, one world a hand):

1. rules/pots.dl, from what each player put in and who folded: the uncalled bets returned, the
   pots (main and side) and who contests each;
2. the showdown rules, for every pot two or more players contest: the best hand among exactly
   those players (a showdown of the board game, or a fight of the final hands in a draw game;
   a hi/lo game's low half by its low rule set, as ``poker beat --board`` does);
3. rules/pots.dl again, with those winners: what each player takes of each pot (ties, halves and
   the odd chip are the rules').

Where the loaded rules settle the pots before any showdown (no clause that builds them reads a
showdown's winners), 1 and 3 are one run: the pots are foreseen from the replay (as the card
room builds them), their showdowns asked first, and the winners given with the chips; the run's
own pots check the foresight hand by hand, and a hand it missed is asked again in three steps.

Python replays the actions, turns them into facts, and compares the rules' payout with the
record's ``winnings`` and ``finishing_stacks`` (a difference is reported, never corrected).
"""

from __future__ import annotations

import contextlib
import gc
import json
import marshal
import operator
import os
import pickle
import re
from collections import deque
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Iterable, Iterator

from engine import interface as I
from engine.core import MAX_WORKERS, Engine
from engine.evaluators import Ask, World, verdicts
from engine.evaluators.sql.evaluator import CompiledEvaluator
from engine.evaluators.workers import process_count
from engine.history.foresight import _chips, _foresee, _foreseeable, _worth
from engine.history.stud import check_openings
from engine.history.stud import replay as replay_stud
from engine.io.fights import json_safe
from engine.io.phhtext import (
    STUD,
    VARIANTS,
    HistoryError,
    Played,
    Unsupported,
    parse_hand,
)
from engine.io.replay import replay
from engine.io.results import Dumped, dumps, safe_line
from engine.judging import policy
from engine.judging.explain import explain_fight
from engine.judging.hilo import split_games, with_low
from engine.limits import collector_paused, forking, held, stop_soon, worker_process

CHUNK = 10_000         # hands asked of the rules at once (a part of it replayed by each worker)
POOL_AFTER = 2_000     # hands in a chunk before worker processes replay parts of it
POT_ASKS = [Ask(I.RETURNED, (0, None, None)), Ask(I.POT_AMOUNT, (0, None, None)), Ask(I.CONTESTS, (0, None, None)),
            Ask(I.SHOWS, (0, None, None)), Ask(I.UNJUDGED, (0, None))]
AWARD_ASKS = [Ask(I.AWARD, (0, None, None, None, None))]
STATUSES = ("judged", "cannot be judged", "unsupported", "invalid")


class WorkerLost(RuntimeError):
    """A worker process ended before its part of a batch was judged (one line says so)."""


@dataclass(slots=True)
class _Hand:
    """A hand in the making: its replay, then the rules' pots, showdowns and awards."""
    ident: Any
    played: Played | None = None
    status: str = "judged"
    error: str | None = None
    returned: dict[int, int] = field(default_factory=dict)
    pots: dict[int, int] = field(default_factory=dict)             # level -> amount
    contests: dict[int, list[int]] = field(default_factory=dict)   # level -> players (1-based)
    shows: dict[int, list[int]] = field(default_factory=dict)      # level -> players shown (pots_Muck)
    high: dict[int, tuple[int, ...]] = field(default_factory=dict)  # level -> winners (1-based)
    low: dict[int, tuple[int, ...]] = field(default_factory=dict)
    awards: dict[int, dict[int, int]] = field(default_factory=dict)  # level -> player -> amount
    best: dict[int, tuple[Any, ...]] = field(default_factory=dict)   # player -> (five, rank)
    chips: tuple[tuple[str, tuple[int, ...]], ...] = ()             # its facts for rules/pots.dl
    contested: bool = False                                         # a pot of two or more hands shown
    showdown: bool = False                                          # its showdowns were asked
    foreseen: dict[int, tuple[int, ...]] = field(default_factory=dict)  # level -> players: _foresee, as replayed

    def fail(self, status: str, error: str) -> None:
        self.status, self.error = status, error


def prepare(ident: Any, item: Any, name: str = "input") -> _Hand:
    """A hand read and replayed (text, document or error in; a hand with its status out)."""
    played, status, error, chips, foreseen = _replayed(ident, item, name)
    return _Hand(ident, played, status, error, chips=chips, foreseen=foreseen)


def _replayed(ident: Any, item: Any, name: str, facts: bool = True
              ) -> tuple[Played | None, str, str | None, tuple | None, dict]:
    """What prepare makes of a hand, as values: its replay, status, error, facts (None when not
    ``facts``: a worker leaves them to this process, engine.history._unpacked) and the pots
    foreseen (a worker packs them as they are: engine.history._packed)."""
    try:
        if isinstance(item, HistoryError):
            raise item
        doc = parse_hand(item, f"{name} [{ident}]") if isinstance(item, str) else item
        played = (replay_stud if doc.get("variant") in STUD else replay)(doc, ident)
        return played, "judged", None, _chips(played) if facts else None, _foresee(played)
    except Unsupported as exc:
        return None, "unsupported", str(exc), (), {}
    except HistoryError as exc:
        return None, "invalid", str(exc), (), {}


def _prepare_all(items: list[tuple[Any, Any]], name: str) -> list[_Hand]:
    return [prepare(ident, item, name) for ident, item in items]


def _batches(items: Iterable[tuple[Any, Any]], size: int) -> Iterator[list[tuple[Any, Any]]]:
    batch: list[tuple[Any, Any]] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


_VARIANT = re.compile(r"""^variant\s*=\s*["']([^"']*)["']""", re.M)


def _variant(item: Any) -> str | None:
    if isinstance(item, dict):
        return item.get("variant")
    m = _VARIANT.search(item) if isinstance(item, str) else None
    return m.group(1) if m else None


def _variants(batch: list[tuple[Any, Any]]) -> list[str]:
    """The supported variants a batch plays, as its first hands say (a glance, not a reading)."""
    codes = (_variant(item) for _, item in batch[:policy.HISTORY_LOOK_AFTER])
    return sorted({c for c in codes if isinstance(c, str) and c in VARIANTS})     # (a list is no variant)


_STACKS = re.compile(r"^starting_stacks\s*=\s*\[([^\]]*)\]", re.M)


def _seats(batch: list[tuple[Any, Any]]) -> int:
    """The most players a hand of a batch seats, as its first hands say (a glance, not a
    reading: it only sets which showdown shapes are asked ahead, in one run; a larger showdown
    met later is asked when it comes); 10 when they do not say."""
    most = 0
    for _, item in batch[:policy.HISTORY_LOOK_AFTER]:
        if isinstance(item, dict):
            stacks = item.get("starting_stacks")
            n = len(stacks) if isinstance(stacks, list) else 0
        else:
            m = _STACKS.search(item) if isinstance(item, str) else None
            n = len([x for x in m.group(1).split(",") if x.strip()]) if m else 0
        if not 2 <= n <= 10:
            return 10
        most = max(most, n)
    return most or 10


class _Workers:
    """Worker processes that read and replay parts of the long chunks (the pure-Python half of a
    hand history's work), while this process replays its own part and asks the rules the
    questions of the whole chunk: one DuckDB database and one run of the pots for every hand,
    the tables and proofs loaded once, the results written here.  A worker opens no database and
    loads no rules (it is forked before this process loads them): it hands its hands back as
    plain values (:func:`_packed`), so that it adds little CPU to the batch (10,000 Pluribus
    hands: docs/performance.md).  They start for the first chunk long enough to pay for them,
    one a core that is idle when the run starts (engine.evaluators.workers.process_count); a
    short input, or a busy machine, stays in-process.  They are forked (they start at once and
    need no ``__main__`` guard in a user's script), run at a lower priority than this process,
    die with it (engine.limits.worker_process: also when it is killed outright), and are killed
    at once when the batch stops early."""

    def __init__(self, judge: "Histories") -> None:
        self.judge = judge
        self.pool: Any = None
        self.stopping = False                    # the workers are being stopped: their end is no news
        self.n: int | None = None                # processes that replay a long chunk (this one included)

    def __enter__(self) -> "_Workers":
        return self

    def __exit__(self, *exc: Any) -> None:
        """The workers stopped (killed at once when the batch stops early: an error, a signal, a
        budget; they would otherwise finish their parts), and this process's databases as they
        were."""
        late: BaseException | None = None
        for _ in range(5):      # a second signal: still stop and wait for them
            try:
                with held():    # the budget raised again inside a join would leave a thread running
                    self._stop(early=exc[0] is not None)
                break
            except BaseException as error:
                late = late or error
        if late is not None and exc[0] is None:
            raise late

    def _stop(self, early: bool) -> None:
        self.stopping = True
        while self.judge._threads:                  # this process's databases as they were
            db, threads = self.judge._threads.pop()
            with contextlib.suppress(Exception):    # a database closed meanwhile: nothing to restore
                db.set_threads(threads)
        if self.pool is not None:
            if early:
                processes = list((getattr(self.pool, "_processes", None) or {}).values())
                for process in processes:
                    with contextlib.suppress(Exception):
                        process.kill()
                for process in processes:
                    with contextlib.suppress(Exception):     # one not started yet: nothing to wait for
                        process.join()
            with contextlib.suppress(Exception):
                self.pool.shutdown(wait=not early, cancel_futures=True)
            self.pool = None

    def judge_chunk(self, batch: list[tuple[Any, Any]], name: str) -> Callable[[], tuple[list[Any], dict | None]]:
        """The chunk's results, when called: its first part replayed in this process then, the
        others by the workers meanwhile (n parts, n - 1 workers), and the whole chunk judged here."""
        if self.n is None:               # decided once a run: one an idle core, at most four ($POKER_WORKERS sets it)
            self.n = process_count(MAX_WORKERS)
        n = self.n
        if len(batch) < POOL_AFTER or n < 2:
            hands = _prepare_all(batch, name)
            return lambda: (self.judge._judge_hands(hands), None)
        if self.pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            context = multiprocessing.get_context("fork")
            self.pool = ProcessPoolExecutor(n - 1, mp_context=context, initializer=_replayer,
                                            initargs=(os.getpid(),))
        from concurrent.futures.process import BrokenProcessPool
        lost = "a worker process of the batch ended before its part was judged (killed: by a signal, or out of memory)"

        def done(f: Any) -> None:           # a worker died: the main process stops now, not when it looks
            if not self.stopping and not f.cancelled() and isinstance(f.exception(), BrokenProcessPool):
                stop_soon(WorkerLost(lost))
        step = -(-len(batch) // n)
        parts = [batch[i:i + step] for i in range(0, len(batch), step)]
        with forking(), held():              # (the first submit forks the workers: each one recorded)
            futures = [self.pool.submit(_replay_part, part, name) for part in parts[1:]]
        for f in futures:
            f.add_done_callback(done)

        def results() -> tuple[list[Any], None]:
            hands = _prepare_all(parts[0], name)
            for f in futures:
                try:
                    hands += _unpacked(f.result())
                except BrokenProcessPool:
                    raise WorkerLost(lost) from None
            return self.judge._judge_hands(hands), None
        return results


def _replayer(parent: int) -> None:
    """A worker's start (engine.limits.worker_process), at a lower priority than this process,
    which waits for its parts."""
    worker_process(parent)
    with contextlib.suppress(OSError):
        os.nice(10)


def _replay_part(batch: list[tuple[Any, Any]], name: str) -> "bytes | list[_Hand]":
    """In a worker: a part of a chunk read and replayed, packed (:func:`_packed`)."""
    with collector_paused():
        return _packed([(ident, *_replayed(ident, item, name, facts=False)) for ident, item in batch])


_PLAYED = operator.attrgetter(*(f.name for f in fields(Played)))    # a replay's fields, in order, as a tuple
_PLAIN = {int, str}                     # an id that packs as a plain value (else the hand is pickled)


def _packed(hands: list[tuple]) -> "bytes | list[_Hand]":
    """Replayed hands (ident, then _replayed's values) as bytes for this process: a hand as a
    tuple of plain values (marshal: a third of what pickling the objects costs, in both
    processes), without its facts, which this process makes from its replay (_unpacked: they
    were a third of the bytes, and cost more to pack and unpack than to make); a hand whose id
    or replay is not of plain values (a TOML date as its id, a stud hand's streets) as its own
    pickle."""
    out: list[Any] = []
    for ident, p, status, error, chips, foreseen in hands:
        if type(ident) in _PLAIN and (p is None or type(p) is Played and type(p.ident) in _PLAIN):
            out.append((ident, status, error, foreseen, None if p is None else _PLAYED(p)))
        else:
            out.append(pickle.dumps(_Hand(ident, p, status, error, chips=_facts(p, chips), foreseen=foreseen),
                                    protocol=pickle.HIGHEST_PROTOCOL))
    try:
        return marshal.dumps(out)
    except ValueError:                  # a value marshal cannot write, deep inside: the hands as they are
        return [_Hand(ident, p, status, error, chips=_facts(p, chips), foreseen=foreseen)
                for ident, p, status, error, chips, foreseen in hands]


def _facts(p: Played | None, chips: tuple | None) -> tuple:
    """A hand's facts for rules/pots.dl: those made, else made from its replay (none without one)."""
    return chips if chips is not None else () if p is None else _chips(p)


def _unpacked(data: "bytes | list[_Hand]") -> list[_Hand]:
    """The hands of :func:`_packed`, as they were replayed (the worker is this process's own fork)."""
    if type(data) is not bytes:
        return data
    out = []
    for x in marshal.loads(data):
        if type(x) is bytes:
            out.append(pickle.loads(x))
            continue
        ident, status, error, foreseen, played = x
        p = None if played is None else Played(*played)
        out.append(_Hand(ident, p, status, error, chips=_facts(p, None), foreseen=foreseen))
    return out


def _answers(engine: "Engine", facts: list[tuple[tuple[str, tuple[int, ...]], ...]], asked: list[Ask]) -> list[Any]:
    """The answers to the pot questions of each world of these facts (World.chips), every
    distinct world asked once, in one run: a world's answers are the rules' consequences of
    its facts alone, so hands of the same chips (and showdown winners) share them (the Pluribus
    hands: 10,000 hands, 4,390 distinct worlds before their showdowns).  The answers are
    shared, read only."""
    first: dict[tuple, int] = {}
    places = [first.setdefault(f, len(first)) for f in facts]
    distinct = [World((), chips=f) for f in first]
    found = engine.evaluator(distinct).answers(distinct, asked)
    return [found[i] for i in places]


def _conserve(h: _Hand) -> None:
    """Every chip put in is paid out: the bets returned and the pots' awards add up to what the
    players put in, and each pot's awards to its amount; else the hand is an error (invalid, one
    line), never "judged" with chips gone."""
    p = h.played
    put = sum(p.stakes)
    paid = sum(h.returned.values()) + sum(x for shares in h.awards.values() for x in shares.values())
    short = [level for level, amount in h.pots.items() if sum(h.awards.get(level, {}).values()) != amount]
    if paid != put or short:
        h.fail("invalid", f"the rules pay out {p.amount(paid)} of the {p.amount(put)} put in"
               + (f" (a pot of {p.amount(h.pots[short[0]])} goes to no one)" if short else "")
               + ": a hand that loses chips is not judged")


def _rake(record: tuple[int, ...], ours: list[int], won: list[int]) -> int | None:
    """The rake that explains a record, or None when none does: the record may fall short of the
    rules' payout only for players who won a pot, and by less than they won (a rake is a part of
    a pot, never all of it, never another player's chips).

    >>> _rake((95, 0), [100, 0], [100, 0]), _rake((100, 0), [100, 0], [100, 0])
    (5, 0)
    >>> _rake((0, 0), [100, 0], [100, 0]) is None, _rake((100, 5), [100, 0], [100, 0]) is None
    (True, True)
    """
    if tuple(record) == tuple(ours):            # (the usual case, at once)
        return 0
    diff = [r - o for r, o in zip(record, ours)]
    if all(d == 0 or (d < 0 and -d < w) for d, w in zip(diff, won)):
        return -sum(diff)
    return None


_str = json.encoder.encode_basestring            # a text as JSON (the encoder's own, in C)


def _value(x: Any) -> str:
    """A value as JSON, as engine.io.results.dumps writes it (an id may be any TOML value)."""
    if type(x) is int:
        return str(x)
    if type(x) is str:
        return _str(x)
    return dumps(json_safe(x))


def _whole(x: Any) -> str:
    """An amount of whole units as JSON: ``_str(str(x))``, at once for an int (its digits)."""
    return f'"{x}"' if type(x) is int else _str(str(x))


def _ints(xs: Iterable[Any]) -> str:
    """A list of the rules' values (players: numbers) as JSON."""
    return "[" + ", ".join(map(_value, xs)) + "]"


def _amounts(xs: Iterable[int], amount: Callable[[int], str]) -> str:
    return "[" + ", ".join(map(_whole, xs) if amount is str else (_str(amount(x)) for x in xs)) + "]"


class Histories:
    """Judges hand histories, chunk by chunk; ``engines`` gives the Engine of a rule set's name."""

    def __init__(self, engines: Callable[[str], "Engine"], explain: bool = False, dumped: bool = False):
        self.engines = engines
        self.explain = explain
        self.dumped = dumped        # results as lines of JSON (engine.io.results.Dumped), written where judged
        self._names: dict[str, str] = {}             # a variant's rule set -> the name of the one used
        self._heads: dict[str, str] = {}             # a variant -> its fields in a result (its rule set's name)
        self._threads: list[tuple[Any, int]] = []    # databases set to one thread for a batch, and their own
        self.counts = {s: 0 for s in STATUSES} | {"hands": 0, "showdowns": 0, "agree": 0, "disagree": 0,
                                                 "rake": 0, "unrecorded": 0}

    def judge(self, hands: Iterable[tuple[Any, Any]], progress: Callable[[int], None] | None = None,
              name: str = "input") -> Iterator[Any]:
        """One result a hand, in order (N in, N out): a dict, or with ``dumped`` its line of JSON.
        ``hands``: (id, its TOML text, its parsed document, or its HistoryError), as
        engine.phh.read_sections or read_histories give them.
        A long input is read and replayed in part by worker processes (a core idle each), chunk
        after chunk, and judged here, while this process loads the tables and makes the proofs
        once (_Workers).  The
        garbage collector is paused until the generator is exhausted or closed, and run (its young
        generations) after each chunk but the last (then it runs again as it does)."""
        with _Workers(self) as workers, collector_paused():
            pending: deque[Callable[[], tuple[list[Any], dict | None]]] = deque()
            for batch in _batches(hands, CHUNK):
                pending.append(workers.judge_chunk(batch, name))
                if len(pending) == 1:
                    # (the tables built for a chunk long enough for workers, whether or not a
                    # busy machine runs it in this process: a second run finds them)
                    self._warm(batch, build=len(batch) >= POOL_AFTER)
                else:
                    yield from self._emit(pending.popleft()(), progress)
            while pending:
                done = pending.popleft()()
                yield from self._emit(done, progress, collect=bool(pending))

    def _emit(self, done: tuple[list[Any], dict | None], progress: Callable[[int], None] | None,
              collect: bool = True) -> Iterator[Any]:
        results, added = done
        for k, x in (added or {}).items():
            self.counts[k] += x
        yield from results
        if collect:
            gc.collect(1)
        if progress is not None:
            progress(len(results))

    def _engines_of(self, codes: list[str]) -> list[tuple[tuple[str, str | None], "Engine"]]:
        """The engines that judge these variants: each rule set's, and the low half's of a split
        game played, keyed (rule set, low half's rule set or None)."""
        out: list[tuple[tuple[str, str | None], Engine]] = []
        for name in sorted({VARIANTS[c].rules for c in codes}):
            engine = self.engines(name)
            out.append(((name, None), engine))
            split = split_games(engine)
            lows = {split[engine.games[v.game]] for v in (VARIANTS[c] for c in codes)
                    if v.rules == name and v.game in engine.games and engine.games[v.game] in split}
            out += [((name, low), engine.low_engine(low)) for low in sorted(lows)]
        return out

    def _warm(self, batch: list[tuple[Any, Any]], build: bool = False) -> None:
        """While the first chunk is replayed: the cached five-card tables of the engines that
        judge it, their showdown proofs (a second each) and the showdown shapes its variants can
        have, when it is long enough to use them; ``build``: the tables built when they are not
        cached (once, here)."""
        if len(batch) < policy.HISTORY_LOOK_AFTER:
            return
        codes = _variants(batch)
        most = _seats(batch)
        for (name, _low), engine in self._engines_of(codes):
            # DuckDB on one thread: the workers replay the next chunk meanwhile, and a chunk's questions are
            # many small statements, which one thread runs with less CPU and no later (the pots
            # of 4,390 worlds: 0.20 s of CPU and 0.21 s wall, on two threads 0.24 s and 0.34 s)
            evaluator = engine.evaluator(CHUNK)
            if isinstance(evaluator, CompiledEvaluator):
                self._threads.append((evaluator.compiled, evaluator.compiled.set_threads(1)))
            fast = engine.tabled(build=build)
            if fast is None or not fast.showdowns:
                continue
            shapes = []
            for code in codes:
                v = VARIANTS[code]
                if v.rules != name or v.game is None or v.game not in engine.games:
                    continue
                board = sum(v.board)
                shapes += [(engine.games[v.game], (v.hole,) * k, board) for k in range(2, most + 1)
                           if k * v.hole + board <= len(fast.table.cards)]
            fast.shapes(shapes)

    def _judge_hands(self, hands: list[_Hand]) -> list[Any]:
        """Replayed hands judged: one result each, in order."""
        todo = [h for h in hands if h.status == "judged"]
        stud: dict[str, list[_Hand]] = {}
        for h in todo:
            if h.played.variant in STUD:
                stud.setdefault(VARIANTS[h.played.variant].rules, []).append(h)
        for name, group in stud.items():                      # who acts first: the rules (rules/stud.dl)
            check_openings(self.engines(name), group)
        todo = [h for h in todo if h.status == "judged"]
        for h in todo:
            if not h.played.over:
                h.fail("cannot be judged", "the record stops before the hand is over")
        todo = [h for h in todo if h.status == "judged"]
        by_rules: dict[str, list[_Hand]] = {}
        for h in todo:
            by_rules.setdefault(VARIANTS[h.played.variant].rules, []).append(h)
        for name, group in by_rules.items():
            engine = self.engines(name)
            if _foreseeable(engine):
                group = self._in_one_run(engine, group)       # the hands whose pots were not foreseen
                self._showdowns(engine, [h for h in group if h.status == "judged"])
                self._awards(engine, [h for h in group if h.status == "judged"])
            else:
                self._pots(engine, group)
                self._showdowns(engine, [h for h in group if h.status == "judged"])
                self._awards(engine, [h for h in group if h.status == "judged" and h.contested])
        for h in todo:
            if h.status == "judged":
                _conserve(h)
        out = []
        for h in hands:
            self.counts["showdowns"] += h.status == "judged" and h.contested    # as its result shows
            self.counts["hands"] += 1
            out.append(self._result(h))
            self.counts[h.status] += 1
        return [Dumped(line) for line in out] if self.dumped else [json.loads(line) for line in out]

    # ---- the questions ---------------------------------------------------------------------

    def _in_one_run(self, engine: "Engine", hands: list[_Hand]) -> list[_Hand]:
        """Pots, contestants and awards in one run of the rules: the showdowns of the pots
        foreseen (_foresee) asked first, their winners given with the chips.  Exact where the
        rules' pots are those foreseen: the run's answers are then what the two questions of
        the long way give (the pots do not read the showdowns: _foreseeable), and a hand whose
        pots are not is left as it was before its showdowns (its pots, from this run, kept) for
        the long way; those hands.  (The pots are foreseen as a hand is replayed: prepare.)"""
        self._showdowns(engine, hands, lambda h: h.foreseen)
        facts = [h.chips + self._winners(h) for h in hands]
        missed = []
        # Hands of the same world share its answers (_answers), and so the pots read from them:
        # read once a world, the hands given the same dicts (read only from here on).
        filled: dict[int, tuple] = {}
        for h, answers in zip(hands, _answers(engine, facts, POT_ASKS + AWARD_ASKS)):
            known = filled.get(id(answers))
            if known is not None:
                h.returned, h.pots, h.contests, h.shows, h.contested, showdowns = known
            elif self._fill(h, *map(answers.__getitem__, POT_ASKS)):
                continue                                      # cannot be judged
            else:
                showdowns = {level: tuple(ps) for level, ps in h.shows.items() if len(ps) > 1}
                filled[id(answers)] = (h.returned, h.pots, h.contests, h.shows, h.contested, showdowns)
            if showdowns == h.foreseen:
                self._take(h, answers[AWARD_ASKS[0]])
            else:
                h.status, h.error, h.showdown, h.high, h.low, h.best = "judged", None, False, {}, {}, {}
                missed.append(h)
        return missed

    @staticmethod
    def _fill(h: _Hand, returned: list[tuple], pots: list[tuple], contests: list[tuple], shows: list[tuple],
              unjudged: list[tuple]) -> bool:
        """The rules' pots of a hand; whether a pot cannot be judged (the hand fails so)."""
        h.returned = {p: x for _, p, x in returned}
        h.pots = {level: x for _, level, x in pots}
        h.contests, h.shows = {}, {}
        for _, level, p in contests:
            h.contests.setdefault(level, []).append(p)
        for _, level, p in shows:
            h.shows.setdefault(level, []).append(p)
        h.contested = any(len(players) > 1 for players in h.shows.values())
        if unjudged:                # a pot of two or more and no hand shown (pots_Muck)
            unknown = sorted({q for _, level in unjudged for q in h.contests.get(level, ())})
            h.fail("cannot be judged", " and ".join(f"player {q}'s" for q in unknown) + " cards are not known")
        return bool(unjudged)

    @staticmethod
    def _winners(h: _Hand) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The showdowns' winners as facts for rules/pots.dl (none for a hand that failed)."""
        if h.status != "judged" or not h.high and not h.low:
            return ()
        return tuple((I.POT_HIGH, (0, level, q)) for level, qs in h.high.items() for q in qs) + \
            tuple((I.POT_LOW, (0, level, q)) for level, qs in h.low.items() for q in qs)

    def _pots(self, engine: "Engine", hands: list[_Hand]) -> None:
        """The first question: returned bets, pots, contestants; and the awards of every pot no
        showdown decides (the second question asks only about hands with a showdown)."""
        for h, answers in zip(hands, _answers(engine, [h.chips for h in hands], POT_ASKS + AWARD_ASKS)):
            self._fill(h, *map(answers.__getitem__, POT_ASKS))
            if not h.contested and h.status == "judged":
                self._take(h, answers[AWARD_ASKS[0]])

    @staticmethod
    def _take(h: _Hand, awards: list[tuple]) -> None:
        for _, level, _half, p, x in awards:
            shares = h.awards.setdefault(level, {})
            shares[p] = shares.get(p, 0) + x

    def _showdowns(self, engine: "Engine", hands: list[_Hand],
                   pots: Callable[[_Hand], dict[int, Any]] = lambda h: h.shows) -> None:
        """The second question: each pot's winners (h.high, h.low), a showdown of exactly the
        hands shown of those who contest it (``pots``: level -> players, the rules' or those foreseen)."""
        asked: list[Any] = []
        places: list[tuple[_Hand, int, list[int]]] = []
        for h in hands:
            found = pots(h)
            if not found:                             # no pot (foreseen): no showdown, at once
                h.showdown = False
                continue
            p = h.played
            variant = VARIANTS[p.variant]
            contested = [(level, players) for level, players in sorted(found.items()) if len(players) > 1]
            unknown = sorted({q for _, players in contested for q in players if p.hole[q - 1] is None})
            if unknown:
                h.fail("cannot be judged", " and ".join(f"player {q}'s" for q in unknown) + " cards are not known")
                continue
            h.showdown = bool(contested)
            if not contested:
                continue
            try:
                game = engine._game(variant.game)[0] if variant.game else None
            except ValueError as exc:                     # no such game, or the rules rank no five
                h.fail("cannot be judged", str(exc).splitlines()[0])
                continue
            try:
                board = tuple(engine.cards(" ".join(p.board))) if variant.game else None
                seen = sorted({q for _, qs in contested for q in qs})
                holes = {q: tuple(engine.cards(" ".join(p.hole[q - 1]))) for q in seen}
            except ValueError as exc:                     # a card not in the rules' deck
                h.fail("invalid", str(exc).splitlines()[0])
                continue
            for level, players in contested:
                own = tuple(holes[q] for q in players)
                asked.append(World(own, board=board, game=game) if variant.game else own)
                places.append((h, level, players))
        if not asked:
            return
        # The five-card table answers what the rules are proven to allow (as poker judge reads
        # fights off it), the low half's its own: the cached ones once the showdowns are worth
        # them (loading them and making their proofs takes a second or two), built when many.
        eager = _worth(engine, asked)
        fast = engine.tabled(build=len(asked) >= policy.HISTORY_BUILD_AFTER) if eager else None
        found = with_low(engine, asked, verdicts(engine.evaluator(asked), asked, table=fast), eager)
        for (h, level, players), v in zip(places, found):
            if h.status != "judged":
                continue
            if v.error:
                h.fail("invalid", f"the showdown of {', '.join(f'player {q}' for q in players)}: {v.error}")
                continue
            h.high[level] = tuple(players[i] for i in v.winners)
            if v.low:
                h.low[level] = tuple(players[i] for i in v.low)
            for i, q in enumerate(players):
                if v.best:
                    h.best[q] = (engine.notation.format(v.best[i]), v.ranks[i])
                else:
                    h.best[q] = (engine.notation.format(engine.cards(" ".join(h.played.hole[q - 1]))), v.ranks[i])

    def _awards(self, engine: "Engine", hands: list[_Hand]) -> None:
        """The third question: the awards, given the showdowns' winners."""
        facts = [h.chips + self._winners(h) for h in hands]
        if facts:
            for h, answers in zip(hands, _answers(engine, facts, AWARD_ASKS)):
                self._take(h, answers[AWARD_ASKS[0]])

    # ---- the result ----------------------------------------------------------------------
    #
    # A hand's result is written as its line of JSON at once (what `poker judge` writes; the API
    # reads the line back): formatting the known shape of a result is five times faster than
    # building its dicts for the encoder, and a result is a fifth of a hand history's work.  The
    # text is byte for byte what engine.io.results.dumps writes of the same dict (a test holds it).

    def _result(self, h: _Hand) -> str:
        p = h.played
        ident = h.ident
        head = [f'{{"id": {ident}' if type(ident) is int else f'{{"id": {_value(ident)}']
        if p is not None:
            variant = VARIANTS[p.variant]
            known = self._heads.get(p.variant)
            if known is None:           # (a variant's fields, the same in each of its hands)
                known = self._heads[p.variant] = (f'"variant": {_str(p.variant)}, '
                                                  f'"rules": {_str(self._rules_name(variant.rules))}')
            head.append(known)
            if variant.game:
                head.append(f'"game": {_str(variant.game)}, "board": {_str(" ".join(p.board))}')
        head.append(f'"status": {_str(h.status)}')
        if h.error:
            head.append(f'"error": {_str(h.error)}')
        if p is None or h.status != "judged":
            return safe_line(", ".join(head) + "}")
        engine = self.engines(variant.rules)
        whole = p.scale == 1
        amount = str if whole else p.amount                 # str: the amount of a whole unit
        money = _whole if whole else lambda x: _str(p.amount(x))     # an amount as JSON
        categories = engine.categories
        won = [0] * len(p.stakes)
        for shares in h.awards.values():
            for q, x in shares.items():
                won[q - 1] += x
        players = []
        returned, best, folded, hole, stakes = h.returned, h.best, p.folded, p.hole, p.stakes
        for i, name in enumerate(p.names):
            q = i + 1
            put, back, got = stakes[i], returned.get(q, 0), won[i]
            if whole and type(put) is int and type(back) is int and type(got) is int:    # (_whole's, at once)
                amounts = f'"put": "{put}", "returned": "{back}", "won": "{got}"'
            else:
                amounts = f'"put": {money(put)}, "returned": {money(back)}, "won": {money(got)}'
            row = (f'{{"player": {q}, "name": {_str(name)}, '
                   f'"cards": {_str(" ".join(hole[i])) if hole[i] else "null"}, {amounts}, '
                   f'"folded": {"true" if i in folded else "false"}')
            if q in best:
                five, rank = best[q]
                category = categories.get(rank)
                row += (f', "best": {_str(five)}, "rank": {_value(rank)}, '
                        f'"category": {"null" if category is None else _str(category)}')
            players.append(row + "}")
        pots = []
        for k, level in enumerate(sorted(h.pots)):
            contestants = sorted(h.contests.get(level, []))
            awards = h.awards.get(level, {})
            shares = ", ".join(f"{_whole(q)}: {money(x)}" for q, x in sorted(awards.items()))
            pot = (f'{{"pot": "{"main" if k == 0 else f"side {k}"}", "amount": {money(h.pots[level])}, '
                   f'"contestants": {_ints(contestants)}, "winners": {_ints(sorted(awards))}, '
                   f'"awards": {{{shares}}}, "reason": {_str(self._reason(h, level, contestants, engine))}')
            if level in h.low:
                pot += f', "low": {_ints(h.low[level])}'
            pots.append(pot + "}")
        head.append(f'"players": [{", ".join(players)}], "pots": [{", ".join(pots)}], '
                    f'"record": {self._record(h, won, amount)}')
        return safe_line(", ".join(head) + "}")

    def _rules_name(self, rules: str) -> str:
        """The name of the rule set that judges a variant's hands (``--rules`` in place of the
        standard one): the one used, as reported."""
        name = self._names.get(rules)
        if name is None:
            name = self._names[rules] = self.engines(rules).name
        return name

    def _reason(self, h: _Hand, level: int, contestants: list[int], engine: "Engine") -> str:
        if len(contestants) == 1:
            return f"pots_Alone: player {contestants[0]} is the only one left in this pot"
        shown = h.shows.get(level, [])
        if len(shown) == 1:
            return (f"pots_Mucked: player {shown[0]}'s hand is the only one shown of players "
                    + ", ".join(map(str, contestants)) + " (a hand not shown is mucked)")
        high = h.high.get(level, ())
        def hand(q: int) -> str:
            five, rank = h.best[q]
            return f"player {q}'s {engine.categories.get(rank) or 'hand'} ({five})"
        text = ("pots_Showdown: " + " and ".join(hand(q) for q in high)
                + (" tie, the best" if len(high) > 1 else " is the best") + " of players "
                + ", ".join(map(str, contestants)))
        if level in h.low:
            text += "; the best qualifying low takes half: " + ", ".join(f"player {q}" for q in h.low[level])
        shares = set(h.awards.get(level, {}).values())
        if len(high) > 1 and len(shares) > 1:
            text += "; pots_OddChip: the odd chip to the first winner left of the button"
        if self.explain and len(high) < len(contestants) and VARIANTS[h.played.variant].game:
            first = high[0]
            for q in contestants:
                if q not in high:
                    w = explain_fight(engine, h.best[first][0], h.best[q][0], order=True)
                    text += f"; player {first} vs player {q}: {w.axiom}: {w.detail}"
        return text

    def _record(self, h: _Hand, won: list[int], amount: Callable[[int], str]) -> str:
        """The record's winnings and finishing stacks against the rules' payout (its JSON)."""
        p = h.played
        out: list[str] = []
        notes: list[str] = list(p.notes)          # the replay's (engine.history.stud: a street not checked)
        agree = True
        rake = 0
        if p.winnings is not None:
            # The record's winnings are what each player collected (PHH: after rake): the pots he
            # won and his own bet returned; some sites' records leave the returned bet out.  The
            # reading that needs the smaller rake is taken.
            readings = [([w + h.returned.get(i + 1, 0) for i, w in enumerate(won)], None),
                        (won, "the record's winnings leave out the uncalled bet returned")]
            taken = [(r, ours, note) for ours, note in readings if (r := _rake(p.winnings, ours, won)) is not None]
            if taken:
                found, _, note = min(taken, key=lambda t: t[0])
                rake = found
                notes += [note] if note else []
            else:
                agree = False
                ours = readings[0][0]
                notes += [f"winnings of player {i + 1}: the record {amount(r)}, the rules {amount(o)}"
                          for i, (r, o) in enumerate(zip(p.winnings, ours)) if r != o]
            out.append(f'"winnings": {_amounts(p.winnings, amount)}')
        if p.finishing is not None and None not in p.starting:
            ours = [s - x + h.returned.get(i + 1, 0) + won[i] for i, (s, x) in enumerate(zip(p.starting, p.stakes))]
            found = _rake(p.finishing, ours, won)
            if found is not None:
                rake = max(rake, found)
            else:
                agree = False
                notes += [f"finishing stack of player {i + 1}: the record {amount(r)}, the rules {amount(o)}"
                          for i, (r, o) in enumerate(zip(p.finishing, ours)) if r != o]
            out.append(f'"finishing_stacks": {_amounts(p.finishing, amount)}')
        if not out:
            self.counts["unrecorded"] += 1
            return '{"agrees": null}'
        out.append(f'"agrees": {"true" if agree else "false"}')
        if rake and agree:
            out.append(f'"rake": {_str(amount(rake))}')
            self.counts["rake"] += 1
        if notes:
            out.append(f'"notes": [{", ".join(map(_str, notes))}]')
        self.counts["agree" if agree else "disagree"] += 1
        return "{" + ", ".join(out) + "}"

    def summary(self) -> str:
        """The audit line: hands read, judged, showdowns, agreements with the record …"""
        c = self.counts
        return (f"hands: {c['hands']}, judged: {c['judged']} ({c['showdowns']} showdowns), "
                f"record agrees: {c['agree']} (rake taken in {c['rake']}), disagrees: {c['disagree']}, "
                f"no record: {c['unrecorded']}, cannot be judged: {c['cannot be judged']}, "
                f"unsupported: {c['unsupported']}, invalid: {c['invalid']}")
