"""The five-card value table: one integer per five-card hand of the deck, computed by the rules.

Hands of more than five cards (the best five of seven, Omaha, equity) are counted by
:mod:`engine.poker.sevens` from ONE integer per five-card hand, ``values[colex(positions)]``: higher is
stronger, equal is a tie.  That table comes from the loaded rules, exactly: every one of the
C(n, 5) hands of the engine's n-card deck is asked of the compiled rules (getRank, which must give
exactly one rank, and handKey, the tie-break key), and a hand's value is the dense rank of its
strength ``(rank, key)`` -- what :meth:`engine.Engine.strength` returns -- among all hands, the
weakest class 0.  Positions index the sorted card ids of the deck (``FiveTable.cards``).

How it is fast (the standard rules in about 3 s on two cores; 30 s where every one of the
2,598,960 hands is asked; 85 s through `poker check`'s every_hand, fetching rank and key):

- where the rules are proven blind to which suit is which (:func:`engine.judging.proof.suit_symmetry`),
  only one hand of each class of hands alike but for their suits is asked (134,459 for 52 cards),
  and every hand gets its class's answers (:func:`_suit_classes`);

- the hands go to DuckDB as numpy columns (``holds`` comes straight from them) in chunks of
  :data:`CHUNK` hands, each chunk a run of the compiled rules in a DuckDB database of its own
  worker (one DuckDB thread each, one worker a core), so that chunks run side by side and no
  DuckDB query pays for threads that wait on each other;
- the rows of getRank and handKey are fetched as numpy arrays (never Python tuples), and each
  hand's strength becomes a row of fixed width (the rank, then for each place of the key whether
  it is there and its value, so that a key that is a prefix of a longer one comes first, as
  Python orders tuples).  The distinct rows of a chunk (a few thousand), merged over the chunks
  and sorted, are the classes, and a hand's value is its class's place among them: the dense
  rank, without building a list per hand in SQL (DuckDB's ordered ``list()`` of the keys of
  2.6 million hands alone took longer than the ranking in numpy, 5 to 9 s against 1.5 s).

:func:`five_card_table` memoises the table per Engine, and keeps it in a verified on-disk cache
(:func:`engine.judging.tablecache.cache_dir`), so that the second run of ``poker equity`` needs no table build.  The cache
is never trusted: see :func:`five_card_table` for what is checked, and what that leaves.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import json
import math
import os
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from engine import interface as I
from engine.datalog.ir import INT, STR, Untranslatable
from engine.datalog.joint import joint_program
from engine.evaluators.sql.duckdb import Database, FirstSet, Worlds
from engine.evaluators.sql.evaluator import CompiledEvaluator
from engine.evaluators.workers import worker_count
from engine.interface import EngineView
from engine.judging import proof
from engine.judging.fivetable import FiveTable, TableError
from engine.judging.tablecache import (
    FORMAT,
    VERIFIED,
    _lock,
    _parse,
    _read,
    _Reject,
    _stamp,
    _stamped,
    _table_of,
    _unwritable,
    _write,
    cache_dir,
    cache_path,
    prune_cache,
)
from engine.limits import held
from engine.notices import say
from engine.poker import sevens
from engine.version import version

__all__ = ["FiveTable", "TableError", "five_card_table", "five_card_tables", "cached_table", "rules_digest",
           "STATS"]

CHUNK = 65_000                # hands per run of the compiled rules (per worker)
MAX_WORKERS = 8
SAMPLE = 2_000                # uniform hands asked again when a cache file is loaded
PER_RANK = 8                  # ... and this many of every rank present
STATS: Counter[str] = Counter()   # "built", "loaded", "memo": how each table of this process came

Progress = Callable[[str, int], Callable[[int], None]]


# ---- the rules' digest --------------------------------------------------------------------


def rules_digest(engine: EngineView, cards: Sequence[int] | None = None) -> str:
    """SHA-256 (hex) over the loaded rule set's clauses (label and text as loaded, in order), the
    deck and the table format: what the table is a function of.  Any edit of any clause, or a
    clause moved, changes it."""
    text = json.dumps({"format": FORMAT, "engine": version(),
                       "clauses": [[c.label, c.text] for c in engine.ruleset.clauses],
                       "deck": [int(c) for c in (engine.deck if cards is None else cards)]},
                      ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()



_memo_lock = threading.RLock()


def table_digest(engine: EngineView) -> str | None:
    """The digest that names the engine's table in the cache (its file: ``cache_path``), or None
    when these rules can make no table."""
    try:
        return _digest(engine, types=False)
    except TableError:
        return None


def cached_table(engine: EngineView) -> FiveTable | None:
    """The engine's table if it is at hand (memoised, or in the cache, verified), never built:
    None when it would have to be, or cannot be (paths that read it only to go faster)."""
    with _memo_lock:
        found = engine.state.table
        if found is not None:
            return found
        digest = table_digest(engine)
        if digest is None:
            return None
        table = _load(engine, engine.deck, digest, cache_path(digest), SAMPLE, None)
        if table is not None:
            STATS["loaded"] += 1
            engine.state.table = table
        return table


def five_card_table(engine: EngineView, progress: Progress | None = None, cache: bool = True, *,
                    sample: int = SAMPLE, seed: int | None = None) -> FiveTable:
    """The rules' five-card table for the engine's deck (see the module's docstring).

    Memoised per Engine.  With ``cache`` (the default), the table is read from, or written to,
    :func:`cache_path` (the file is named by :func:`rules_digest`, so a stale one can never match),
    written atomically with the permissions the umask gives, under a lock (``fcntl.flock``) so
    that a second process building the same table waits and then reads the first one's.  A cache
    directory that cannot be written is named once on stderr, and the table is computed anyway.

    A cache file is verified on every load, never trusted: it must be a regular file (opened
    without following a symbolic link, never a FIFO or a device) no longer than its table can be;
    its header must match the digest, the deck and the sizes; its payload's SHA-256 must match;
    the arrays must be consistent (values dense, each class's rank the rank of its hands, classes
    strictly ascending); and then a fresh random sample of hands (``sample`` uniform ones plus
    8 of every rank present; ``seed`` fixes it, else it is drawn from the OS) is asked of the
    compiled rules in one run, and each hand's rank and (rank, key) must be the table's.  Any
    failure: one line on stderr says the cache was ignored and why, and the table is rebuilt.
    Bytes that a record signed with the user's key says this code verified, or wrote from the
    table it built (their SHA-256: engine.judging.tablecache._stamped), passed all of that then:
    they are read again without the sample, the payload's hash or the consistency checks.
    The sample misses a change of a fraction f of the hands with probability (1 - f) ** 2000
    (nearly always for a handful of hands), so the header must also carry the HMAC of the user's
    own key (:func:`engine.judging.tablecache.cache_key`, outside the cache directory): a file altered and re-checksummed
    by whoever can write the cache but not the key is refused.  Without a private key, a file
    is held to the sample alone (docs/showdowns.md).

    TableError when the rules cannot be compiled (an exhaustive table needs them) or when a hand
    does not get exactly one rank (the message names the hand).
    """
    return five_card_tables([engine], progress, cache, sample=sample, seed=seed)[0]


def five_card_tables(engines: Sequence[EngineView], progress: Progress | None = None, cache: bool = True, *,
                     sample: int = SAMPLE, seed: int | None = None) -> list[FiveTable]:
    """:func:`five_card_table` of several rule sets (``poker diff``'s two), the same tables.

    Those that are neither memoised nor cached, and share a deck, are built together: one pass
    over the hands, in one program (:func:`engine.datalog.joint.joint_program`) where what
    the rule sets define alike is computed once.  ``standard`` and ``eventb`` together take
    little longer than one of them.  With several rule sets, a TableError names the one at fault.
    """
    with _memo_lock:                      # one build at a time in a process (flock: across them)
        out: list[FiveTable | None] = []
        for engine in engines:
            found = engine.state.table
            if found is not None:
                STATS["memo"] += 1
            out.append(found)
        todo = [i for i, t in enumerate(out) if t is None]
        if todo:
            tables = _tables([engines[i] for i in todo], progress, cache, sample, seed, named=len(engines) > 1)
            for i, table in zip(todo, tables):
                engines[i].state.table = out[i] = table
        return out     # type: ignore[return-value]


def _fault(engine: EngineView, error: TableError, named: bool) -> TableError:
    """The error, naming the rule set when there are several."""
    return TableError(f"{engine.name}: {error}") if named else error


def _tables(engines: Sequence[EngineView], progress: Progress | None, cache: bool, sample: int,
            seed: int | None, named: bool) -> list[FiveTable]:
    digests = []
    for engine in engines:
        try:
            digests.append(_digest(engine))
        except TableError as exc:
            raise _fault(engine, exc, named) from None
    first = [digests.index(d) for d in digests]       # the rule sets given twice: one table
    out: list[FiveTable | None] = [None] * len(engines)
    with contextlib.ExitStack() as stack:
        writable: set[str] = set()
        if cache:
            folder = cache_dir()
            if _lock(stack, folder):
                writable.update(digests)
            for i, (engine, digest) in enumerate(zip(engines, digests)):
                if first[i] == i:
                    out[i] = _load(engine, engine.deck, digest, cache_path(digest), sample, seed)
                    if out[i] is not None:
                        STATS["loaded"] += 1
        todo = [i for i, t in enumerate(out) if t is None and first[i] == i]
        by_deck: dict[tuple[int, ...], list[int]] = {}
        for i in todo:
            by_deck.setdefault(tuple(engines[i].deck), []).append(i)
        for group in by_deck.values():
            for i, table in zip(group, _build_each([engines[i] for i in group], [digests[i] for i in group],
                                                   progress, named)):
                out[i] = table
                if digests[i] in writable:
                    try:
                        _write(cache_path(digests[i]), table)
                        prune_cache(keep=set(digests))
                    except OSError as exc:
                        _unwritable(cache_dir(), exc.strerror or str(exc))
        for i in range(len(engines)):
            out[i] = out[first[i]]
    return out     # type: ignore[return-value]


def _digest(engine: EngineView, types: bool = True) -> str:
    """The rules' digest, once checked that they can make a table (TableError if not).
    ``types``: getRank's type checked too, which compiles the rules to SQL (a cached table made
    from these rules had them checked when it was made)."""
    if engine.fallback is not None:
        raise TableError(f"a five-card table asks the rules about every hand, which needs compiled "
                         f"rules; these are not compiled ({engine.fallback})")
    if engine.hand_size != 5:
        raise TableError(f"a hand of these rules holds {engine.hand_size} cards: the table holds five-card hands")
    cards = engine.deck
    if not 5 <= len(cards) <= sevens.MAX_DECK:
        raise TableError(f"a five-card table needs a deck of 5..{sevens.MAX_DECK} cards, not {len(cards)}")
    rank_type = _types(_compiled(engine).program)[0] if types else "BIGINT"
    if rank_type != "BIGINT":
        raise TableError("getRank gives ranks that are not integers: a table needs integer ranks")
    return rules_digest(engine, cards)


# ---- asking the rules -----------------------------------------------------------------------


def _compiled(engine: EngineView) -> "Database":
    evaluator = engine.evaluator(10 ** 6)
    if not isinstance(evaluator, CompiledEvaluator):       # pragma: no cover - fallback checked before
        raise TableError(f"the rules are not compiled ({engine.fallback})")
    return evaluator.compiled


def _ask(db: "Database", hands: np.ndarray) -> "Asked":
    """getRank, handKey and isHand of set 1 in worlds 0..m-1 (world w: the five card ids
    hands[w]), in one run of the compiled rules: (worlds, ranks) of getRank's rows, handKey's rows
    as arrays w, o (order), i (index), v (value) (strings stay coded), and the worlds where isHand
    holds."""
    return _ask_each(db, hands, [{}])[0]


Asked = tuple[np.ndarray, np.ndarray, dict[str, np.ndarray], np.ndarray]


def _ask_each(db: "Database", hands: np.ndarray, renames: Sequence[dict[str, str]]) -> list[Asked]:
    """:func:`_ask` for each rule set of a joint program (``renames``: each one's names in it,
    see :func:`engine.datalog.joint.joint_program`), in one run."""
    m = len(hands)
    one = np.ones(m, dtype=np.int64)
    worlds = Worlds(columns={
        I.DECLARED: {"w": np.arange(m, dtype=np.int64), "s": one},
        I.HOLDS: {"w": np.repeat(np.arange(m, dtype=np.int64), hands.shape[1]),
                  "s": np.ones(m * hands.shape[1], dtype=np.int64),
                  "i": np.tile(np.arange(hands.shape[1], dtype=np.int64), m),
                  "c": np.ascontiguousarray(hands, dtype=np.int64).ravel()},
        "worlds": {"w": np.arange(m, dtype=np.int64)}})
    preds = db.program.preds
    reduce: dict[str, FirstSet] = {}
    compute: list[str] = []
    for k, rename in enumerate(renames):
        rank, key = rename.get(I.GET_RANK, I.GET_RANK), rename.get(I.HAND_KEY, I.HAND_KEY)
        reduce[f"rank{k}"] = FirstSet(rank)
        compute.append(rank)
        hand = rename.get(I.IS_HAND, I.IS_HAND)
        if hand in preds and preds[hand].arity == 1:
            compute.append(hand)
            reduce[f"hand{k}"] = FirstSet(hand, distinct=True)
        if key in preds:
            compute.append(key)
            reduce[f"key{k}"] = FirstSet(key)
    got = db.run(worlds, [], reduce=reduce, compute=compute)
    out: list[Asked] = []
    none = np.zeros(0, dtype=np.int64)
    for k in range(len(renames)):
        ranks = got[f"rank{k}"]
        keys = got.get(f"key{k}")
        keys = {c: np.asarray(keys[col]) for c, col in zip("woiv", ("w", "a1", "a2", "a3"))} if keys is not None \
            else {c: none for c in "woiv"}
        hands_w = np.asarray(got[f"hand{k}"]["w"]) if f"hand{k}" in got else none
        out.append((np.asarray(ranks["w"]), np.asarray(ranks["a1"]), keys, hands_w))
    return out


@dataclass
class _Strengths:
    """The strengths of a chunk of hands: each hand's rank and class (its row among ``rows``, the
    chunk's distinct strengths as columns: rank, then (there, value) for each place of the key)."""
    ranks: np.ndarray
    inverse: np.ndarray
    rows: list[np.ndarray]
    patterns: list[np.ndarray] = field(default_factory=list)   # distinct (rank, (there, o, i) a place)
    hands: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))   # where isHand holds


def _strengths(m: int, wr: np.ndarray, r: np.ndarray, keys: dict[str, np.ndarray]) -> _Strengths | int:
    """A chunk's strengths, or the world of a hand that has not exactly one rank."""
    counts = np.bincount(wr, minlength=m)
    bad = np.flatnonzero(counts != 1)
    if bad.size:
        return int(bad[0])
    ranks = np.empty(m, dtype=r.dtype)
    ranks[wr] = r
    w, v = keys["w"], keys["v"]
    order = np.lexsort((v, keys["i"], keys["o"], w))      # by hand, then (order, index, value)
    w, v, o, i = w[order], v[order], keys["o"][order], keys["i"][order]
    lengths = np.bincount(w, minlength=m)
    width = int(lengths.max()) if len(w) else 0
    place = np.arange(len(w)) - (np.cumsum(lengths) - lengths)[w]
    cols = [ranks]
    shape = [ranks]                 # where each hand's values are: (there, o, i) a place
    for j in range(width):
        at = place == j
        there, value = np.zeros(m, dtype=np.int8), np.zeros(m, dtype=v.dtype)
        po, pi = np.zeros(m, dtype=o.dtype), np.zeros(m, dtype=i.dtype)
        there[w[at]] = 1
        value[w[at]] = v[at]
        po[w[at]], pi[w[at]] = o[at], i[at]
        cols += [there, value]
        shape += [there, po, pi]
    rows, inverse = _unique_rows(cols)
    patterns, _ = _unique_rows(shape)
    return _Strengths(ranks, inverse, rows, patterns)


def _unique_rows(cols: list[np.ndarray]) -> tuple[list[np.ndarray], np.ndarray]:
    """The distinct rows of equal-length columns (most significant first), in ascending
    lexicographic order, and each row's place among them."""
    m = len(cols[0])
    if m == 0:
        return [c[:0] for c in cols], np.zeros(0, dtype=np.int64)
    order = np.lexsort(cols[::-1])
    ordered = [c[order] for c in cols]
    new = np.zeros(m, dtype=bool)
    new[0] = True
    for c in ordered:
        new[1:] |= c[1:] != c[:-1]
    ids = np.cumsum(new) - 1
    inverse = np.empty(m, dtype=np.int64)
    inverse[order] = ids
    return [c[new] for c in ordered], inverse


def _pad(rows: list[np.ndarray], width: int, dtype: np.dtype) -> list[np.ndarray]:
    """Rows of a chunk widened to ``width`` places of the key (absent places: there = 0)."""
    k = len(rows[0])
    out = list(rows)
    for _ in range((len(rows) - 1) // 2, width):
        out += [np.zeros(k, dtype=np.int8), np.zeros(k, dtype=dtype)]
    return out


def _workers(total: int) -> int:
    return max(1, min(worker_count(MAX_WORKERS), math.ceil(total / 5_000)))


def _build_each(engines: Sequence[EngineView], digests: Sequence[str], progress: Progress | None,
                named: bool, by_class: bool = True) -> list[FiveTable]:
    """Ask the compiled rules of each engine (one deck) about every hand, in chunks, on one
    worker a core: one run a chunk for all of them (a joint program when several).  Built one
    hand per suit class (``by_class`` and the rules proven blind to suits), a table is verified
    as a cached one is: a sample of the hands outside those it asked, asked of the rules; on a
    difference, every hand is asked instead."""
    if len(engines) == 1:
        program, renames = _compiled(engines[0]).program, [{}]
    else:
        try:
            program, renames = joint_program([e.ruleset.clauses for e in engines], I.INPUTS, I.ASKED)
        except Untranslatable:                 # each compiles alone: build them one by one
            return [t for e, d in zip(engines, digests) for t in _build_each([e], [d], progress, named, by_class)]
    cards = engines[0].deck
    n = len(cards)
    positions = sevens.five_hands(n)
    classes = _suit_classes(engines, n) if by_class else None   # (one hand a class, each hand's class)
    asked = positions if classes is None else positions[classes[0]]
    total = len(asked)
    ids = np.asarray(cards, dtype=np.int64)
    workers = _workers(total)
    size = max(1, min(CHUNK, math.ceil(total / workers)))
    spans = [(lo, min(lo + size, total)) for lo in range(0, total, size)]
    what = "five-card hands" if classes is None else "classes of five-card hands alike but for their suits"
    step = (progress or (lambda what, count: (lambda k: None)))(what, total)
    results: list[list[_Strengths | None]] = [[None] * len(spans) for _ in engines]
    bad: list[tuple[int, int, int]] = []       # (rule set, hand, how many ranks)
    errors: list[BaseException] = []
    taken = itertools.count()
    stop = threading.Event()
    lock = threading.Lock()
    done = [0, 0]                              # hands done, hands reported

    def work(db: "Database", report: bool) -> None:
        while not stop.is_set():
            k = next(taken)
            if k >= len(spans):
                return
            lo, hi = spans[k]
            for j, (wr, r, keys, hw) in enumerate(_ask_each(db, ids[asked[lo:hi]], renames)):
                got = _strengths(hi - lo, wr, r, keys)
                if not isinstance(got, int):
                    got.hands = hw
                with lock:
                    if isinstance(got, int):
                        bad.append((j, lo + got, int(np.count_nonzero(wr == got))))
                        stop.set()
                    else:
                        results[j][k] = got
            with lock:
                done[0] += hi - lo
            if report:
                with lock:
                    delta, done[1] = done[0] - done[1], done[0]
                step(delta)

    def guarded(db: "Database") -> None:
        try:
            work(db, False)
        except BaseException as exc:          # handed to the main thread
            with lock:
                errors.append(exc)
            stop.set()

    dbs = [Database(program, threads=1) for _ in range(workers)]
    threads = [threading.Thread(target=guarded, args=(db,), name=f"five-card-{i}", daemon=True)
               for i, db in enumerate(dbs[1:], 1)]
    try:
        for t in threads:
            t.start()
        work(dbs[0], True)
    except BaseException:                      # Ctrl-C, a budget, an error: stop the others now
        stop.set()
        for db in dbs[1:]:
            with contextlib.suppress(Exception):
                db.interrupt()
        raise
    finally:
        with held():                           # (a join cut by an exception marks a running thread stopped)
            for t in threads:
                t.join()
        for db in dbs:
            with contextlib.suppress(Exception):
                db.close()
    if bad:
        j, w, count = min(bad)
        hand = ids[asked[w]].tolist()
        raise _fault(engines[j], TableError(
            f"the rules give the hand {engines[j].notation.format(hand)} "
            f"{'no rank' if count == 0 else f'{count} ranks'}: a table needs exactly one"), named)
    if errors:
        raise errors[0]
    step(total - done[1])
    STATS["built"] += len(engines)
    tables = [_assemble(program, cards, digests[j], total, spans, results[j], renames[j])
              for j in range(len(engines))]
    if classes is None:
        return tables
    tables = [_spread(t, classes[1], np.concatenate([lo + s.hands for (lo, _), s in zip(spans, results[j])]))
              for j, t in enumerate(tables)]
    for engine, table in zip(engines, tables):
        try:
            _verify(engine, table, SAMPLE, None, asked=classes[0])
        except _Reject as why:
            say(f"the table built one hand per suit class is not the rules' on a hand outside them ({why}); "
                "every hand is asked instead")
            return _build_each(engines, digests, progress, named, by_class=False)
    return tables


def _suit_classes(engines: Sequence[EngineView], n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """When every rule set is proven blind to which suit is which (engine.judging.proof.suit_symmetry):
    the first hand of each class of hands that differ only by a renaming of the suits (their
    colex indices), and each hand's class; else None.  A hand's class is the sorted list of its
    suits' sets of values, as bits: two hands have the same one exactly when a renaming of the
    suits takes one to the other."""
    found = [proof.suit_symmetry(e.ruleset.clauses) for e in engines]
    if any(isinstance(f, str) for f in found) or len(set(found)) != 1:
        return None
    return _classes_of(n, found[0].values, found[0].suits, found[0].free)


@functools.lru_cache(maxsize=2)
def _classes_of(n: int, values: tuple[int, ...], suits: tuple[int, ...], free: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray] | None:
    """The suit classes of every five-card hand of a deck, kept for the next table of the same
    deck (a function of its arguments alone; 0.8 s for 52 cards, each build of an edited rule
    set asked it again).  The arrays are read-only: they are shared."""
    classes = sevens.suit_classes(sevens.five_hands(n), np.asarray(suits, dtype=np.int64),
                                  np.asarray(values, dtype=np.int64), free)
    if classes is None:
        return None
    for a in classes[:2]:
        a.setflags(write=False)
    return classes[0], classes[1]


def _spread(table: FiveTable, inverse: np.ndarray, hands: np.ndarray) -> FiveTable:
    """The table of every hand from the table of one hand a class (``hands``: the classes whose
    hand isHand holds of)."""
    sizes = np.bincount(inverse, minlength=len(table.values))
    return FiveTable(table.cards, table.values[inverse], table.ranks[inverse], table.classes, table.rules_digest,
                     table.places, int(sizes[hands].sum()))


def _assemble(program, cards: list[int], digest: str, total: int, spans: list[tuple[int, int]],
              results: list, rename: dict[str, str] | None = None) -> FiveTable:
    """Merge the chunks' classes, sort them, and give every hand its class's place."""
    width = max(((len(s.rows) - 1) // 2 for s in results), default=0)
    key_dtype = np.result_type(*[s.rows[2].dtype for s in results if len(s.rows) > 1]) \
        if width else np.dtype(np.int64)
    rank_dtype = np.result_type(*[s.ranks.dtype for s in results])
    padded = [_pad(s.rows, width, key_dtype) for s in results]
    merged = [np.concatenate([p[c] for p in padded]).astype(rank_dtype if c == 0 else
                                                            np.int8 if c % 2 else key_dtype)
              for c in range(1 + 2 * width)]
    classes, local = _unique_rows(merged)
    values = np.empty(total, dtype=np.int32)
    ranks = np.empty(total, dtype=rank_dtype)
    start = 0
    for (lo, hi), s in zip(spans, results):
        k = len(s.rows[0])
        values[lo:hi] = local[start:start + k][s.inverse]
        ranks[lo:hi] = s.ranks
        start += k
    decoded = _decode(program, classes, rename)
    hands = sum(len(s.hands) for s in results)
    return FiveTable(tuple(int(c) for c in cards), values, _small_ranks(ranks), decoded, digest,
                     _places(program, [s.patterns for s in results], rename), hands)


def _places(program, chunks: list[list[np.ndarray]], rename: dict[str, str] | None = None
            ) -> tuple[tuple[Any, tuple[tuple[Any, Any], ...]], ...] | None:
    """Each rank's places of handKey's values, from the chunks' distinct (rank, places) rows;
    None when a rank has two (FiveTable.places)."""
    key = program.preds.get((rename or {}).get(I.HAND_KEY, I.HAND_KEY))
    types = (key.types[1], key.types[2]) if key is not None else (None, None)
    rank_type = _types(program, rename)[0]
    decode = lambda x, t: program.strings[int(x)] if t == STR else int(x)  # noqa: E731
    shapes = []
    for p in chunks:
        cols = [c.tolist() for c in p]
        for row in range(len(cols[0])):
            shapes.append((decode(cols[0][row], rank_type),
                           tuple((decode(cols[2 + 3 * j][row], types[0]), decode(cols[3 + 3 * j][row], types[1]))
                                 for j in range((len(cols) - 1) // 3) if cols[1 + 3 * j][row])))
    return merge_places(shapes)


def merge_places(shapes: Iterable[tuple[Any, Sequence[Sequence[Any]]]]
                 ) -> tuple[tuple[Any, tuple[tuple[Any, Any], ...]], ...] | None:
    """FiveTable.places from hands' (rank, places of their key's values, in order): each rank's
    one shape, or None when a rank has two, or a place comes twice.

    >>> merge_places([(2, [(1, 0), (1, 1)]), (1, [(1, 0)]), (2, [(1, 0), (1, 1)])])
    ((1, ((1, 0),)), (2, ((1, 0), (1, 1))))
    >>> merge_places([(2, [(1, 0)]), (2, [(1, 0), (1, 1)])]) is None
    True
    """
    found: dict[Any, tuple] = {}
    for rank, places in shapes:
        shape = tuple(tuple(p) for p in places)
        if found.setdefault(rank, shape) != shape or len(set(shape)) != len(shape):
            return None
    return tuple(sorted(found.items()))


def _types(program, rename: dict[str, str] | None = None) -> tuple[str, str]:
    rename = rename or {}
    rank_type = program.preds[rename.get(I.GET_RANK, I.GET_RANK)].types[1]
    key = program.preds.get(rename.get(I.HAND_KEY, I.HAND_KEY))
    return rank_type, (key.types[3] if key is not None else INT)


def _decode(program, classes: list[np.ndarray], rename: dict[str, str] | None = None
            ) -> tuple[tuple[Any, tuple], ...]:
    """The classes as (rank, key) with the rules' values (strings decoded, as Engine.strength)."""
    _, key_type = _types(program, rename)
    strings = program.strings

    def value(x: Any) -> Any:
        if key_type == STR:
            return strings[int(x)]
        return int(x)

    width = (len(classes) - 1) // 2
    cols = [c.tolist() for c in classes]
    out = []
    for row in range(len(classes[0])):
        key = tuple(value(cols[2 + 2 * j][row]) for j in range(width) if cols[1 + 2 * j][row])
        out.append((int(cols[0][row]), key))
    return tuple(out)


def _small_ranks(ranks: np.ndarray) -> np.ndarray:
    for dtype in (np.int8, np.int16, np.int32, np.int64):
        info = np.iinfo(dtype)
        if not len(ranks) or (ranks.min() >= info.min and ranks.max() <= info.max):
            return ranks.astype(dtype)
    return ranks  # pragma: no cover


# ---- the cache ------------------------------------------------------------------------------
def _load(engine: EngineView, cards: list[int], digest: str, path: Path, sample: int,
          seed: int | None) -> FiveTable | None:
    """The verified table of the cache file, or None (after one line on stderr when a file was
    there and is ignored).  Bytes that a record signed with this user's key says this code
    verified (_stamped: their SHA-256) are read without their payload's hash and the arrays'
    consistency checked again (0.03 s of every load of the standard table): those checks passed
    when they were verified, or the bytes were written from the table built here."""
    try:
        data = _read(path, len(cards))
        if data is None:
            return None
        sha = hashlib.sha256(data).hexdigest()
        stamped = _stamped(digest, sha)
        try:
            arrays, places, is_hand = _parse(data, cards, digest, hashed=stamped)
            table = _table_of(arrays, cards, digest, places, is_hand, checked=stamped)
        except (ValueError, TypeError, IndexError, KeyError, OverflowError, MemoryError) as exc:
            raise _Reject(f"it cannot be read ({type(exc).__name__}: {exc})") from None
        if not stamped:
            _verify(engine, table, sample, seed)
            _stamp(digest, sha)
        VERIFIED[digest] = sha
        with contextlib.suppress(OSError):        # used now: what pruning keeps (prune_cache)
            os.utime(path)
        return table
    except _Reject as why:
        say(f"the five-card table cache {path} is ignored: {why}; it is rebuilt")
        return None


def _verify(engine: EngineView, table: FiveTable, sample: int, seed: int | None,
            asked: np.ndarray | None = None) -> None:
    """Ask the rules again about a fresh random sample of hands, in one run: _Reject on any
    difference.  ``asked``: the hands (colex indices) the table was built from, left out."""
    total = len(table.values)
    rng = np.random.default_rng(seed)
    picked = [rng.integers(0, total, size=min(sample, total))] if total else []
    for r in np.unique(table.ranks):
        of_rank = np.flatnonzero(table.ranks == r)
        picked.append(rng.choice(of_rank, size=min(PER_RANK, len(of_rank)), replace=False))
    ws = np.unique(np.concatenate(picked)) if picked else np.zeros(0, dtype=np.int64)
    if asked is not None:
        ws = np.setdiff1d(ws, asked)
    if not len(ws):
        return
    n = len(table.cards)
    hands = np.asarray(table.cards, dtype=np.int64)[sevens.five_hands(n)[ws]]
    db = _compiled(engine)
    wr, r, keys, hw = _ask(db, hands)
    got = _strengths(len(ws), wr, r, keys)
    if isinstance(got, int):
        raise _Reject(f"the rules do not give the hand {engine.notation.format(hands[got].tolist())} one rank")
    fresh = _decode(db.program, got.rows)
    for j, w in enumerate(ws.tolist()):
        strength = fresh[got.inverse[j]]
        if strength[0] != table.ranks[w] or table.classes[table.values[w]] != strength:
            hand = engine.notation.format(hands[j].tolist())
            raise _Reject(f"the rules give the hand {hand} the strength {strength}, the file "
                          f"{table.classes[table.values[w]]} (rank {table.ranks[w]})")
    if table.all_hands and len(np.unique(hw)) != len(ws):
        raise _Reject("the file says isHand holds of every hand, and the rules deny it of a sampled one")
    sampled = _places(db.program, [got.patterns])
    if table.places is not None and (sampled is None or not set(sampled) <= set(table.places)):
        raise _Reject("the rules put the sampled hands' key values at other places than the file says")
