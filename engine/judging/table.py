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
(:func:`cache_dir`), so that the second run of ``poker equity`` needs no table build.  The cache
is never trusted: see :func:`five_card_table` for what is checked, and what that leaves.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import hmac
import io
import itertools
import json
import math
import mmap
import os
import stat
import threading
import time
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
from engine.io.atomic import replacing, umask
from engine.judging import proof
from engine.judging.fivetable import FiveTable, TableError
from engine.notices import say
from engine.poker import sevens
from engine.version import source_digest, version

__all__ = ["FiveTable", "TableError", "five_card_table", "five_card_tables", "cached_table", "rules_digest",
           "cache_dir", "cache_path", "cache_entries", "prune_cache", "CacheEntry", "STATS"]

FORMAT = 4                    # the cache file's format (and part of the rules' digest); 4: signed (cache_key)
MAGIC = b"poker-engine five-card table\n"
CHUNK = 65_000                # hands per run of the compiled rules (per worker)
MAX_WORKERS = 8
SAMPLE = 2_000                # uniform hands asked again when a cache file is loaded
PER_RANK = 8                  # ... and this many of every rank present
MAX_HEADER = 64 * 1024
STATS: Counter[str] = Counter()   # "built", "loaded", "memo": how each table of this process came

Progress = Callable[[str, int], Callable[[int], None]]


# ---- the rules' digest and the cache's place --------------------------------------------------


def rules_digest(engine: EngineView, cards: Sequence[int] | None = None) -> str:
    """SHA-256 (hex) over the loaded rule set's clauses (label and text as loaded, in order), the
    deck and the table format: what the table is a function of.  Any edit of any clause, or a
    clause moved, changes it."""
    text = json.dumps({"format": FORMAT, "engine": version(),
                       "clauses": [[c.label, c.text] for c in engine.ruleset.clauses],
                       "deck": [int(c) for c in (engine.deck if cards is None else cards)]},
                      ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def cache_dir() -> Path:
    """``$POKER_CACHE_DIR``, else ``$XDG_CACHE_HOME/poker-engine``, else ``~/.cache/poker-engine``."""
    if os.environ.get("POKER_CACHE_DIR"):
        return Path(os.environ["POKER_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "poker-engine"
    return Path.home() / ".cache" / "poker-engine"


def cache_path(digest: str) -> Path:
    return cache_dir() / f"five-card-{digest}.table"


# Files kept beside a table, of the same digest: the signed record that it was verified
# (_stamp) and the proofs made for its rules (engine.judging.proofcache).
SIDECARS = (".verified", ".proofs")
MAX_AGE_DAYS = 30            # a cached table of other rules unused this long is pruned ...
MAX_CACHE_BYTES = 1 << 30    # ... and the oldest of them while the cache holds more than this


@dataclass(frozen=True)
class CacheEntry:
    """A file of the table cache: a table (``kind`` "table") or a lock file an older version
    left behind ("lock"); ``used``: when it was last written or loaded (seconds since the epoch)."""
    path: Path
    kind: str
    digest: str
    bytes: int
    used: float


def cache_entries(folder: Path | None = None) -> list[CacheEntry]:
    """The table cache's files, oldest first (none when there is no cache directory)."""
    folder = cache_dir() if folder is None else folder
    out = []
    for kind, suffix in (("table", ".table"), ("lock", ".lock")):
        for path in folder.glob(f"five-card-*{suffix}"):
            with contextlib.suppress(OSError):
                st = path.lstat()
                if stat.S_ISREG(st.st_mode):
                    out.append(CacheEntry(path, kind, path.name[len("five-card-"):-len(suffix)], st.st_size,
                                          st.st_mtime))
    return sorted(out, key=lambda e: e.used)


def prune_cache(keep: Iterable[str] = (), now: float | None = None, max_age_days: float = MAX_AGE_DAYS,
                max_bytes: int = MAX_CACHE_BYTES, folder: Path | None = None) -> list[CacheEntry]:
    """Remove the cache's tables of other rule sets (digests not in ``keep``) unused for
    ``max_age_days``, then the oldest of them while the tables take more than ``max_bytes``, and
    every lock file an older version left; the removed entries.  Called after a table is written
    (a table is 13 MB for 52 cards; every edit of the rules makes a new one)."""
    keep = set(keep)
    now = time.time() if now is None else now
    entries = cache_entries(folder)
    gone = [e for e in entries if e.kind == "lock"
            or (e.digest not in keep and now - e.used > max_age_days * 86400)]
    left = [e for e in entries if e.kind == "table" and e not in gone]
    total = sum(e.bytes for e in left)
    for e in left:                                    # oldest first
        if total <= max_bytes:
            break
        if e.digest not in keep:
            gone.append(e)
            total -= e.bytes
    removed = []
    for e in gone:
        try:
            e.path.unlink()
        except OSError:                               # gone already, or not ours to remove
            continue
        removed.append(e)
    # What is kept beside a table (SIDECARS): removed with it, and wherever its table is gone.
    folder = cache_dir() if folder is None else folder
    for suffix in SIDECARS:
        for path in folder.glob(f"five-card-*{suffix}"):
            if not path.with_suffix(".table").exists():
                with contextlib.suppress(OSError):
                    path.unlink()
    return removed


# ---- the table ------------------------------------------------------------------------------

_memo_lock = threading.RLock()
VERIFIED: dict[str, str] = {}   # rules digest -> SHA-256 of the cache file bytes this process verified or wrote
_warned: set[str] = set()
_held: set[str] = set()      # cache directories whose lock this process holds (under _memo_lock)


def cached_table(engine: EngineView) -> FiveTable | None:
    """The engine's table if it is at hand (memoised, or in the cache, verified), never built:
    None when it would have to be, or cannot be (paths that read it only to go faster)."""
    with _memo_lock:
        found = engine.state.table
        if found is not None:
            return found
        try:
            digest = _digest(engine, types=False)
        except TableError:
            return None
        table = _load(engine, engine.deck, digest, cache_path(digest), SAMPLE, None)
        if table is not None:
            STATS["loaded"] += 1
            engine.state.table = table
        return table


def adopt_table(engine: EngineView, digest: str, sha: str) -> FiveTable | None:
    """The engine's table from the cache file whose bytes another process verified (their
    SHA-256 ``sha``, for rules of digest ``digest``): read and checked for consistency, not asked
    again, since they are those bytes; None when the rules or the file are not those (then
    :func:`cached_table` verifies the file itself).  Worker processes of one batch use it."""
    if rules_digest(engine) != digest:
        return None
    try:
        data = _read(cache_path(digest), len(engine.deck))
        if data is None or hashlib.sha256(data).hexdigest() != sha:
            return None
        arrays, places, is_hand = _parse(data, engine.deck, digest, hashed=True)
        table = _table_of(arrays, engine.deck, digest, places, is_hand, checked=True)
    except (_Reject, ValueError, TypeError, IndexError, KeyError, OverflowError, MemoryError):
        return None
    with _memo_lock:
        engine.state.table = table
    VERIFIED[digest] = sha
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
    The sample misses a change of a fraction f of the hands with probability (1 - f) ** 2000
    (nearly always for a handful of hands), so the header must also carry the HMAC of the user's
    own key (:func:`cache_key`, outside the cache directory): a file altered and re-checksummed
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
    if any(isinstance(f, str) for f in found) or len({(f.values, f.suits) for f in found}) != 1:
        return None
    values, suits = (np.asarray(x, dtype=np.int64) for x in (found[0].values, found[0].suits))
    classes = sevens.suit_classes(sevens.five_hands(n), suits, values)
    return None if classes is None else (classes[0], classes[1])


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


def _unwritable(folder: Path, why: str) -> None:
    if str(folder) not in _warned:
        _warned.add(str(folder))
        say(f"the cache directory {folder} cannot be written ({why}): "
             "the five-card table is computed without it")


def _lock(stack: contextlib.ExitStack, folder: Path) -> bool:
    """Hold the cache directory's lock until the stack closes (a second builder waits here for the
    first, then reads its file): ``flock`` on the directory itself, so that no lock file is left
    behind; False when the directory cannot be written (said once: the table is then read if
    there, else built and not written)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(errno.EACCES, "permission denied")
        key = str(folder.resolve())
        if key in _held:                             # this process holds it already (a nested build,
            return True                              # under _memo_lock): a second flock would wait forever
        fd = os.open(str(folder), os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        _unwritable(folder, exc.strerror or str(exc))
        return False
    _held.add(key)
    stack.callback(os.close, fd)                     # closing releases the lock
    stack.callback(_held.discard, key)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except (ImportError, OSError):                   # no locks here (Windows, some NFS): go on
        pass
    return True


def _arrays(table: FiveTable) -> dict[str, np.ndarray]:
    keys = [k for _, k in table.classes]
    flat = [v for k in keys for v in k]
    kinds = {type(v) for v in flat}
    if kinds <= {int}:
        key_values = np.array(flat, dtype=np.int64)
    elif kinds == {float}:
        key_values = np.array(flat, dtype=np.float64)
    elif kinds == {str}:
        key_values = np.array(flat, dtype=str)
    else:                                                            # pragma: no cover
        raise TableError("the tie-break keys mix kinds of values")
    return {"values": np.asarray(table.values), "ranks": np.asarray(table.ranks),
            "class_ranks": np.array([r for r, _ in table.classes], dtype=np.int64),
            "class_lengths": np.array([len(k) for k in keys], dtype=np.int64),
            "class_keys": key_values}


def _serialise(table: FiveTable) -> bytes:
    blobs: dict[str, bytes] = {}
    for name, array in _arrays(table).items():
        out = io.BytesIO()
        np.save(out, array, allow_pickle=False)
        blobs[name] = out.getvalue()
    payload = b"".join(blobs.values())
    header = {"format": FORMAT, "digest": table.rules_digest, "n": len(table.cards),
              "cards": list(table.cards),
              "counts": {"hands": len(table.values), "classes": len(table.classes),
                         "ranks": {str(r): int(c) for r, c in zip(*np.unique(table.ranks, return_counts=True))}},
              "is_hand": table.is_hand,
              "places": None if table.places is None else [[r, [list(p) for p in ps]] for r, ps in table.places],
              "arrays": [[name, len(blob)] for name, blob in blobs.items()],
              "payload": {"bytes": len(payload), "sha256": hashlib.sha256(payload).hexdigest()}}
    key = cache_key()
    if key is not None:                     # signed with this user's key: see _signed
        header["mac"] = mac(key, header)
    head = json.dumps(header, separators=(",", ":")).encode("ascii")
    return MAGIC + len(head).to_bytes(4, "little") + head + payload


def mac(key: bytes, header: dict) -> str:
    """The HMAC-SHA256, under the user's key, of a table file's header (its payload's SHA-256,
    the rules' digest, the deck, the counts and places), without its own ``mac``."""
    text = json.dumps({k: v for k, v in header.items() if k != "mac"}, separators=(",", ":"))
    return hmac.new(key, text.encode("ascii"), hashlib.sha256).hexdigest()


def key_path() -> Path:
    """This user's key for the cache: ``$XDG_CONFIG_HOME/poker-engine/cache.key``, else
    ``~/.config/poker-engine/cache.key`` (outside the cache directory, so that whoever can write
    the cache cannot sign a table with it)."""
    base = Path(os.environ["XDG_CONFIG_HOME"]) if os.environ.get("XDG_CONFIG_HOME") else Path.home() / ".config"
    return base / "poker-engine" / "cache.key"


_KEY: list[bytes | None] = []


def cache_key() -> bytes | None:
    """This user's secret key (32 random bytes, made on first use, mode 0600, owned by the user),
    or None where it cannot be read or made, or is not private (then a cached table is held to
    the sample alone, as before the key)."""
    if _KEY:
        return _KEY[0]
    path, key = key_path(), None
    with contextlib.suppress(OSError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(32))
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            data = f.read(33)
        if stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077 and len(data) == 32:
            key = data
    _KEY.append(key)
    return key


def _write(path: Path, table: FiveTable) -> None:
    """Write atomically: a temporary file in the same directory, then os.replace (a symbolic link
    at ``path`` is replaced, never written through); the permissions the umask gives."""
    data = _serialise(table)
    with replacing(path, 0o666 & ~umask()) as f:
        f.write(data)
    VERIFIED[table.rules_digest] = sha = hashlib.sha256(data).hexdigest()    # the rules' own, just asked
    _stamp(table.rules_digest, sha)


def stamp_path(digest: str) -> Path:
    """Where the signed record that the table file of a digest was verified is kept (beside the
    table, pruned with it)."""
    return cache_dir() / f"five-card-{digest}.verified"


def _stamp(digest: str, sha: str) -> None:
    """Record, signed with this user's key, that the table file of these bytes (SHA-256 ``sha``)
    was verified against the rules (built by them, or a sample asked again): a later load of
    the same signed bytes skips the sample (:func:`_stamped`).  Nothing without a key."""
    key = cache_key()
    if key is None:
        return
    header: dict[str, Any] = {"format": FORMAT, "digest": digest, "sha256": sha, "code": source_digest()}
    header["mac"] = mac(key, header)
    with contextlib.suppress(OSError):          # not written: the next load asks the sample again
        with replacing(stamp_path(digest), 0o666 & ~umask()) as f:
            f.write(json.dumps(header, separators=(",", ":")).encode("ascii"))


def _stamped(digest: str, sha: str) -> bool:
    """Whether a record signed with this user's key says that the table file of exactly these
    bytes was verified against these rules (never without a key: then every load asks)."""
    key = cache_key()
    if key is None:
        return False
    flags = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(str(stamp_path(digest)), flags)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        header = json.loads(os.read(fd, 4096).decode("ascii"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return False
    finally:
        os.close(fd)
    return (isinstance(header, dict) and header.get("format") == FORMAT and header.get("digest") == digest
            and header.get("sha256") == sha and header.get("code") == source_digest()
            and hmac.compare_digest(str(header.get("mac")), mac(key, header)))


class _Reject(Exception):
    """Why a cache file was ignored."""


def _max_bytes(n: int) -> int:
    """The longest file read for an n-card deck: 16 bytes a hand (a value and a rank take 5, or
    12 with the widest ranks) and 64 MiB for the classes and headers.  A longer file is refused
    unread (and the table rebuilt), so a file planted in the cache cannot make a load hold
    gigabytes."""
    return 16 * math.comb(n, 5) + (64 << 20)


def _read(path: Path, n: int) -> "bytes | memoryview | None":
    """The file's bytes, or None when there is none; _Reject when it is no regular file or too long.

    A file of this user's that no one else may write is memory-mapped, read-only, rather than
    read and copied: its pages are the page cache's, shared by every process that loads the
    table (the worker processes of a batch), and the arrays are made over them.  Only this
    user's processes could change it under the mapping, and they never write a table in place
    (a new one replaces the file: the mapping keeps the old one).  Any other file is read."""
    flags = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(str(path), flags)
    except (FileNotFoundError, NotADirectoryError):      # no file, or no directory for one
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _Reject("it is a symbolic link") from None
        raise _Reject(f"it cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Reject("it is not a regular file")
        limit = _max_bytes(n)
        if info.st_size > limit:
            raise _Reject(f"it is longer ({info.st_size} bytes) than a table can be")
        if info.st_size and info.st_uid == os.getuid() and not info.st_mode & 0o022:
            with contextlib.suppress(OSError, ValueError):
                return memoryview(mmap.mmap(fd, info.st_size, access=mmap.ACCESS_READ))
        chunks, left = [], info.st_size + 1        # one byte more: a file that grew shows
        while left > 0:
            data = os.read(fd, min(left, 1 << 24))
            if not data:
                break
            chunks.append(data)
            left -= len(data)
        data = b"".join(chunks)
        if len(data) > info.st_size:
            raise _Reject("it changed while it was read")
        return data
    finally:
        os.close(fd)


def _parse(data: "bytes | memoryview", cards: list[int], digest: str, hashed: bool = False
           ) -> tuple[dict[str, np.ndarray], Any, int | None]:
    """A table file's arrays, places and count of hands (``hashed``: the bytes are ones whose
    payload hash was checked already, by their SHA-256 as a whole)."""
    if bytes(data[:len(MAGIC)]) != MAGIC:
        raise _Reject("it is not a five-card table file")
    at = len(MAGIC)
    if len(data) < at + 4:
        raise _Reject("it is truncated")
    size = int.from_bytes(bytes(data[at:at + 4]), "little")
    if size > MAX_HEADER or len(data) < at + 4 + size:
        raise _Reject("its header is too long or truncated")
    try:
        header = json.loads(bytes(data[at + 4:at + 4 + size]).decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise _Reject("its header is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _Reject("it has another format")
    if header.get("digest") != digest:
        raise _Reject("it is for other rules or another deck (its digest differs)")
    total = math.comb(len(cards), 5)
    counts = header.get("counts")
    if header.get("n") != len(cards) or header.get("cards") != cards or not isinstance(counts, dict) \
            or counts.get("hands") != total:
        raise _Reject("its header does not match the deck")
    payload = data[at + 4 + size:]
    info = header.get("payload")
    if not isinstance(info, dict) or info.get("bytes") != len(payload):
        raise _Reject(f"its payload has {len(payload)} bytes, not the {info.get('bytes') if isinstance(info, dict) else '?'} "
                      "its header says (truncated?)")
    if not hashed and hashlib.sha256(payload).hexdigest() != info.get("sha256"):
        raise _Reject("its payload's SHA-256 does not match its header")
    arrays: dict[str, np.ndarray] = {}
    names = header.get("arrays")
    if not isinstance(names, list) or [a[0] if isinstance(a, list) and a else None for a in names] != \
            ["values", "ranks", "class_ranks", "class_lengths", "class_keys"]:
        raise _Reject("its header does not list the arrays")
    at = 0
    for name, length in names:
        if not isinstance(length, int) or length < 0 or at + length > len(payload):
            raise _Reject("its header's array sizes do not add up")
        arrays[name] = _npy(payload[at:at + length], name)
        at += length
    if at != len(payload):
        raise _Reject("its header's array sizes do not add up")
    is_hand = header.get("is_hand")
    if is_hand is not None and (type(is_hand) is not int or not 0 <= is_hand <= total):
        raise _Reject("its header's count of hands is malformed")
    key = None if hashed else cache_key()
    if key is not None and not hmac.compare_digest(str(header.get("mac")), mac(key, header)):
        raise _Reject("it is not signed with this user's key (written by another user, or altered)")
    return arrays, _places_of(header.get("places")), is_hand


def _places_of(places: Any) -> tuple | None:
    """FiveTable.places from a header's JSON (_Reject when it is not of that shape)."""
    if places is None:
        return None
    atom = (int, str)
    if not isinstance(places, list) or not all(
            isinstance(e, list) and len(e) == 2 and isinstance(e[0], atom) and isinstance(e[1], list)
            and all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, atom) for x in p) for p in e[1])
            for e in places):
        raise _Reject("its header's places are malformed")
    return tuple((r, tuple(tuple(p) for p in ps)) for r, ps in places)


def _npy(blob: "bytes | memoryview", name: str) -> np.ndarray:
    """A one-dimensional array of numbers or text from its .npy bytes, its header checked first
    (never pickled objects, never more elements than the bytes hold): read-only, over ``blob``."""
    from numpy.lib import format as npy
    f = io.BytesIO(bytes(blob[:1 << 17]))          # the header: at most 64 KiB in version 1
    try:
        version = npy.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = npy.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, fortran, dtype = npy.read_array_header_2_0(f)
        else:
            raise ValueError(f"version {version}")
    except (ValueError, OSError, EOFError, SyntaxError, TypeError) as exc:
        raise _Reject(f"its array {name} cannot be read ({exc})") from None
    if dtype.hasobject or dtype.kind not in "iufU" or len(shape) != 1 or fortran:
        raise _Reject(f"its array {name} is not a flat array of numbers or text")
    if shape[0] * dtype.itemsize != len(blob) - f.tell():
        raise _Reject(f"its array {name} does not have the bytes its shape needs")
    return np.frombuffer(blob, dtype=dtype, count=shape[0], offset=f.tell())


def _table_of(arrays: dict[str, np.ndarray], cards: list[int], digest: str, places: tuple | None = None,
              is_hand: int | None = None, checked: bool = False) -> FiveTable:
    """A table from its arrays, checked for consistency (``checked``: the arrays of bytes whose
    consistency was checked already, by another process, and that are those bytes)."""
    values, ranks = arrays["values"], arrays["ranks"]
    class_ranks, lengths, keys = arrays["class_ranks"], arrays["class_lengths"], arrays["class_keys"]
    if checked:
        return FiveTable(tuple(cards), values, ranks.copy(), _classes(class_ranks, lengths, keys), digest, places,
                         is_hand)
    total = math.comb(len(cards), 5)
    if values.dtype != np.int32 or values.shape != (total,):
        raise _Reject("its values are not one int32 a hand")
    if ranks.dtype.kind != "i" or ranks.shape != (total,):
        raise _Reject("its ranks are not one integer a hand")
    k = len(class_ranks)
    if class_ranks.dtype != np.int64 or lengths.dtype != np.int64 or class_ranks.shape != (k,) \
            or lengths.shape != (k,) or keys.ndim != 1 or keys.dtype.kind not in "iUf" \
            or (lengths < 0).any() or int(lengths.sum()) != len(keys):
        raise _Reject("its classes are malformed")
    if total and (values.min() < 0 or values.max() >= k):
        raise _Reject("a value is not the place of a class")
    if (np.bincount(values, minlength=k) == 0).any():
        raise _Reject("its values are not dense (a class without a hand)")
    if total and (class_ranks[values] != ranks).any():
        raise _Reject("a hand's rank is not its class's rank")
    classes = _classes(class_ranks, lengths, keys)
    if any(not a < b for a, b in zip(classes, classes[1:])):
        raise _Reject("its classes are not in strictly ascending order")
    if places is not None and sorted(r for r, _ in places) != sorted({r for r, _ in classes}):
        raise _Reject("its places do not name the ranks of its classes")
    return FiveTable(tuple(cards), values, ranks.copy(), classes, digest, places, is_hand)


def _classes(class_ranks: np.ndarray, lengths: np.ndarray, keys: np.ndarray) -> tuple:
    """The classes (rank, key) of a table file's arrays, in their order."""
    ends = np.cumsum(lengths)
    flat = keys.tolist()
    return tuple((int(r), tuple(flat[e - ln:e])) for r, ln, e in zip(class_ranks.tolist(), lengths.tolist(),
                                                                      ends.tolist()))


def _load(engine: EngineView, cards: list[int], digest: str, path: Path, sample: int,
          seed: int | None) -> FiveTable | None:
    """The verified table of the cache file, or None (after one line on stderr when a file was
    there and is ignored)."""
    try:
        data = _read(path, len(cards))
        if data is None:
            return None
        try:
            arrays, places, is_hand = _parse(data, cards, digest)
            table = _table_of(arrays, cards, digest, places, is_hand)
        except (ValueError, TypeError, IndexError, KeyError, OverflowError, MemoryError) as exc:
            raise _Reject(f"it cannot be read ({type(exc).__name__}: {exc})") from None
        sha = hashlib.sha256(data).hexdigest()
        if not _stamped(digest, sha):
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
