"""Limits on evaluation: a time budget and a memory ceiling.

A rule set (or a query) can ask for work without end: a recursion that never closes, a join of
everything with everything.  :func:`budget` bounds the work done in a ``with`` block::

    with budget(60, memory=2 << 30, what="the query"):
        answers = engine.query(text, a=hand)

When the block runs past ``seconds``, or the process's resident memory passes ``memory`` bytes,
:class:`BudgetExceeded` (a ``RuntimeError``) is raised in the main thread, with one line naming
the budget.  How:

* a timer (``signal.setitimer``, SIGALRM) ticks every :data:`TICK` seconds while a budget is
  active; its handler, run by Python in the main thread, compares the clock with the deadline and
  the resident set size (``/proc/self/statm``) with the ceiling.  Python code, pyDatalog (whose
  engine :mod:`engine.evaluators.pydatalog.lazy` loads interpreted: its Cython build never looks at signals), and
  DuckDB queries (which poll for signals) stop within a tick;
  DuckDB, though, merely told of a pending exception, finishes its query first; so
* every object registered with :func:`register` (every live compiled evaluator,
  ``engine.evaluators.sql.duckdb.Database.interrupt``, registers itself) is interrupted as well: from the
  handler, and, should the main thread not come back to Python, from a watchdog thread
  :data:`GRACE` seconds after the deadline.  DuckDB then stops at once.

An alarm (or a Ctrl-C) that lands while the main thread runs a garbage collector callback is not
raised there, where Python would print the exception and drop it (hypothesis installs such a
callback: a budget then never stopped a loop that allocates): the timer looks again a
millisecond later, out of the callback.

While a budget is active, Ctrl-C (and SIGTERM while an output file is written, engine.io) goes
the same way: DuckDB is interrupted and the KeyboardInterrupt (or SystemExit) comes out of the
block, not DuckDB's ``RuntimeError: Query interrupted``.

``RLIMIT_AS`` is not used: DuckDB's threads reserve far more address space than they touch, so
a limit on address space fails healthy runs.  Resident memory is what runs out.

Budgets nest (the innermost deadline and the lowest ceiling win).  Outside the main thread a
budget does nothing but arm the watchdog.  ``seconds=None`` or ``0`` means no time limit;
``memory=None`` or ``0`` no memory ceiling.

>>> with budget(5):
...     sum(range(1000))
499500
>>> import time
>>> with budget(0.05, what="the loop"):
...     while True:
...         time.sleep(0.01)
Traceback (most recent call last):
  ...
engine.limits.BudgetExceeded: the loop ran past its time budget of 0.05 s (--timeout)
"""

from __future__ import annotations

import _imp
import contextlib
import ctypes
import gc
import os
import re
import resource
import signal
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any, Iterator

__all__ = ["BudgetExceeded", "Terminated", "budget", "register", "parse_seconds", "parse_size", "memory_ceiling",
           "ease_collector", "resident", "reclaim", "answer_signals", "raise_if_stopped", "stop_soon", "worker_process", "DEFAULT_BATCH_TIMEOUT",
           "DEFAULT_TIMEOUT", "MEMORY_ENV", "TIMEOUT_ENV"]

DEFAULT_BATCH_TIMEOUT = 600.0   # judge, check: whole batches
DEFAULT_TIMEOUT = 60.0          # one question: rank, beat, role, deal, a REPL query
MEMORY_ENV = "POKER_MEMORY"     # the ceiling: bytes, 512M, 4G, 50% (of the machine's memory), 0 (none)
TIMEOUT_ENV = "POKER_TIMEOUT"   # a default time budget for every command, in seconds (0: none)
DEFAULT_MEMORY_SHARE = 0.8      # of the machine's memory, when POKER_MEMORY is not set
TICK = 0.1                      # seconds between two checks
GRACE = 1.0                     # seconds after the deadline before the watchdog interrupts
RERAISE = 1.0                   # seconds between two raises of an expired budget's exception


class BudgetExceeded(RuntimeError):
    """Work stopped: it ran past its time budget or its memory ceiling (one line says which)."""


class Terminated(SystemExit):
    """Raised in the main thread on SIGTERM (while :func:`answer_signals` is active), so that
    ``finally`` blocks run (temporary files removed, worker processes stopped); the exit status
    is 128 + 15, as after the signal itself."""

    def __init__(self) -> None:
        super().__init__(128 + signal.SIGTERM)


@dataclass
class _Budget:
    what: str
    seconds: float | None
    memory: int | None
    deadline: float | None
    expired: str | None = None
    raised: float = 0.0             # when its exception was last raised


_active: list[_Budget] = []
_interruptible: "weakref.WeakSet[Any]" = weakref.WeakSet()
_previous_handler: Any = None
_previous_sigint: Any = None


def register(obj: Any) -> Any:
    """Have ``obj.interrupt()`` called when a budget expires (kept by weak reference); returns obj."""
    _interruptible.add(obj)
    return obj


def _interrupt_all() -> None:
    """Interrupt every registered object: every live compiled evaluator's DuckDB connection
    (``engine.evaluators.sql.duckdb.Database`` registers itself as it opens one): DuckDB stops a
    query at once when interrupted, but only late when merely told about a pending signal.
    (Not found by scanning every object: on the heap of a long pyDatalog search that took a
    second, each tick, and a budget overshot by seconds.)"""
    for obj in list(_interruptible):
        with contextlib.suppress(Exception):
            obj.interrupt()


def _own_resident(pid: int | str = "self") -> int:
    """The resident set size of one process in bytes (0 where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        if pid != "self":
            return 0
        try:
            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024   # the peak: an upper bound
        except (ImportError, OSError):
            return 0


_forked = False                     # this process has forked: its descendants count
_tree: tuple[float, list[int]] = (-1.0, [])     # when the descendants were last found, and them
RESCAN = 1.0                        # seconds between two searches of /proc for descendants


def _mark_forked() -> None:
    global _forked, _tree
    _forked, _tree = True, (-1.0, [])


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_parent=_mark_forked)


def _descendants() -> list[int]:
    """The processes descended from this one (children, theirs …), from /proc; found again at most
    every :data:`RESCAN` seconds (a search reads every process's stat: a few milliseconds)."""
    global _tree
    now = time.monotonic()
    if now - _tree[0] < RESCAN:
        return _tree[1]
    children: dict[int, list[int]] = {}
    try:
        entries = [e.name for e in os.scandir("/proc") if e.name.isdigit()]
    except OSError:
        entries = []
    for name in entries:
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            parent = int(stat[stat.rindex(b")") + 2:].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(name))
    found: list[int] = []
    todo = list(children.get(os.getpid(), ()))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, ())
    _tree = (now, found)
    return found


def resident() -> int:
    """The resident set size in bytes of this process and, once it has forked, of every process
    descended from it (summed: an upper bound, shared pages counted in each)."""
    own = _own_resident()
    if not _forked:
        return own
    return own + sum(_own_resident(pid) for pid in _descendants())


def _physical() -> int:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 0


_SIZE = re.compile(r"\s*(\d+(?:\.\d*)?)\s*([kmgt]?)i?b?\s*\Z", re.IGNORECASE)


def parse_size(text: str) -> int:
    """Bytes from ``512M``, ``4G``, ``1.5g``, ``1000000`` or ``50%`` (of the machine's memory);
    ``0`` or ``none`` is no ceiling (0).  ValueError says what is wrong.

    >>> parse_size("512M"), parse_size("1k"), parse_size("0"), parse_size("none")
    (536870912, 1024, 0, 0)
    """
    text = str(text).strip()
    if text.lower() in ("none", "off", "0"):
        return 0
    if text.endswith("%"):
        try:
            share = float(text[:-1])
        except ValueError:
            share = -1.0
        if not 0 < share <= 100:
            raise ValueError(f"{text!r} is not a share of the memory (1% .. 100%)")
        return int(_physical() * share / 100)
    m = _SIZE.match(text)
    if not m:
        raise ValueError(f"{text!r} is not a size (e.g. 512M, 4G, 50%, or 0 for none)")
    number = float(m.group(1)) * 1024 ** " kmgt".index((m.group(2) or " ").lower())
    if number > 1 << 60:
        raise ValueError(f"{text!r} is too large")
    return int(number)


def parse_seconds(text: str) -> float:
    """Seconds from ``60``, ``2.5``, ``90s``, ``10m``, ``1h``; ``0`` or ``none`` is no limit (0.0).

    >>> parse_seconds("90"), parse_seconds("10m"), parse_seconds("none")
    (90.0, 600.0, 0.0)
    """
    text = str(text).strip().lower()
    if text in ("none", "off", "0"):
        return 0.0
    m = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)\s*([smh]?)", text)
    if not m:
        raise ValueError(f"{text!r} is not a number of seconds (e.g. 60, 2.5, 10m, or 0 for none)")
    value = float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[m.group(2)]
    if value > 10 ** 7:
        raise ValueError(f"{text!r} is too long a time (at most {10 ** 7} s)")
    return value


def memory_ceiling() -> int:
    """The default memory ceiling in bytes: ``$POKER_MEMORY``, else 80% of the machine's memory
    (0: none).  A bad ``$POKER_MEMORY`` raises ValueError naming it."""
    text = os.environ.get(MEMORY_ENV)
    if text is None or not text.strip():
        return int(_physical() * DEFAULT_MEMORY_SHARE)
    try:
        return parse_size(text)
    except ValueError as exc:
        raise ValueError(f"${MEMORY_ENV}: {exc}") from None


def default_timeout(fallback: float) -> float:
    """``$POKER_TIMEOUT`` when set (ValueError naming it if bad), else ``fallback``."""
    text = os.environ.get(TIMEOUT_ENV)
    if text is None or not text.strip():
        return fallback
    try:
        return parse_seconds(text)
    except ValueError as exc:
        raise ValueError(f"${TIMEOUT_ENV}: {exc}") from None


def since_start() -> float:
    """Seconds since this process started (0.0 where the system does not say): a command's time
    budget counts from its start, the interpreter's start-up and imports included."""
    try:
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        ticks = int(stat[stat.rindex(b")") + 2:].split()[19])        # field 22: starttime
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
        return max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def _mb(n: int) -> str:
    return f"{n / (1 << 20):,.0f} MB"


def reclaim() -> int:
    """Collect the garbage and hand free heap back to the system (glibc's ``malloc_trim``); the
    resident size after.  A search stopped at its ceiling leaves its memory in reference cycles
    (pyDatalog's goals), which the collector, run by allocation counts, may not reach for long: a
    REPL then refused every later query "before it started"."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).malloc_trim(0)
    return resident()


def _check() -> _Budget | None:
    """The first active budget that is exceeded (marked expired), else None.

    An expired budget stays expired: its exception is raised again every RERAISE seconds until the
    block ends, in case the code running caught the first one (pyDatalog turns exceptions raised
    while it computes an expression into values).
    """
    now = time.monotonic()
    rss = None
    for b in reversed(_active):
        if b.expired:
            if now - b.raised >= RERAISE:
                b.raised = now
                return b
            continue
        if b.deadline is not None and now >= b.deadline:
            b.expired = f"{b.what} ran past its time budget of {b.seconds:g} s (--timeout)"
            b.raised = now
            return b
        if b.memory:
            rss = resident() if rss is None else rss
            if rss > b.memory:
                b.expired = (f"{b.what} passed the memory ceiling of {_mb(b.memory)} "
                             f"(resident {_mb(rss)}; --memory)")
                b.raised = now
                return b
    return None


_requested: BaseException | None = None     # what a signal asked for (Ctrl-C, SIGTERM)
_requested_at = 0.0                         # when it was last raised


def interrupt_with(exc: BaseException) -> None:
    """Stop the work now, from a signal handler in the main thread: interrupt the registered
    objects (DuckDB queries) and raise ``exc``.

    DuckDB, told of a pending exception by Python, goes on with its query and then raises its
    own ``RuntimeError: Query interrupted``; so the request is remembered, and an active budget
    turns whatever error the work ends with back into ``exc``.
    """
    global _requested, _requested_at
    if _active:                     # remembered for the budget (outside one nothing looks)
        _requested, _requested_at = exc, time.monotonic()
    _interrupt_all()
    raise exc


def raise_if_stopped(caught: BaseException | None = None) -> None:
    """Raise what stops the work, if anything does: a signal's exception (Ctrl-C, SIGTERM), an
    expired budget's, or ``caught`` itself where it is a stop (a budget's exception, DuckDB's
    interrupt).  Called first in an ``except Exception`` whose work may have been stopped
    (DuckDB reports an interrupt as its own error; a budget is a RuntimeError), so that the
    stop is never taken for a failure of the work (a proof "failing", a batch going the slow way).
    """
    if _requested is not None:
        raise _requested
    for b in reversed(_active):
        if b.expired:
            raise BudgetExceeded(b.expired)
    if caught is not None and _is_stop(caught):
        raise caught


def _is_stop(exc: BaseException) -> bool:
    """Whether an exception stops the command rather than fails the work: Ctrl-C, SIGTERM, a
    budget that ran out, DuckDB interrupted."""
    if not isinstance(exc, Exception) or isinstance(exc, BudgetExceeded):
        return True
    import duckdb  # (heavy: imported where a caught exception is looked at)
    return isinstance(exc, duckdb.InterruptException)


_deferred: BaseException | None = None     # a stop held where it must not be raised (_not_here), or stop_soon's
SOON = 0.001                                # seconds: the next look, after a deferred signal


def _weakref_callbacks() -> frozenset[Any]:
    """The code of the callbacks by which weakref's containers drop an entry whose referent died
    (each container's callback is its own closure, all of one code)."""
    codes = set()
    for container in (weakref.WeakKeyDictionary, weakref.WeakValueDictionary, weakref.WeakSet):
        code = getattr(getattr(container(), "_remove", None), "__code__", None)
        if code is not None:
            codes.add(code)
    return frozenset(codes)


_WEAKREF_CALLBACKS = _weakref_callbacks()


# A C extension is initialised in a call ``_call_with_frames_removed(f, ...)`` of the import
# machinery (CPython's frozen importlib) with one of these as ``f``: its PyInit (single-phase) or
# its exec slots (multi-phase).  A test imports an extension and looks, so a change is seen.
_IMPORT_FILE = "<frozen importlib._bootstrap>"
_EXTENSION_INIT: tuple[Any, ...] = (_imp.create_dynamic, _imp.exec_dynamic)


def _initialising_extension(frame: Any) -> bool:
    """Whether the frame is the import machinery's call of a C extension's initialisation."""
    code = frame.f_code
    return (code.co_name == "_call_with_frames_removed" and code.co_filename == _IMPORT_FILE
            and any(frame.f_locals.get("f") is init for init in _EXTENSION_INIT))


def _not_here(frame: Any) -> bool:
    """Whether the main thread is where an exception must not be raised: in a garbage collector
    callback (hypothesis installs one), a weak reference's callback of weakref's containers (run
    whenever a referent dies) or this module's at-fork callback (run as a worker is forked),
    where Python prints and drops it, never seen by the work; or while a C extension is
    initialised (the modules it imports included), where DuckDB 2's nanobind aborts the process
    on it ("Critical nanobind error", SIGABRT, in a CI run where a lost worker was raised in
    ``import duckdb``).  The rest of an import is stopped where it is: a module's top level that
    never ends still answers Ctrl-C."""
    codes = set(_WEAKREF_CALLBACKS) | {_mark_forked.__code__}
    for callback in gc.callbacks:
        function = getattr(callback, "__func__", callback)
        if hasattr(function, "__code__"):
            codes.add(function.__code__)
    while frame is not None:
        code = frame.f_code
        if code in codes or _initialising_extension(frame):
            return True
        frame = frame.f_back
    return False


def _on_signal(signum: int, frame: Any) -> None:
    """Ctrl-C (KeyboardInterrupt) or SIGTERM (:class:`Terminated`): DuckDB interrupted and the
    exception raised; where it must not be (a garbage collector's callback, where it would be
    lost; a C extension's initialisation), a moment later.  A signal's stop takes the place of
    a stop_soon not raised yet (the workers a SIGTERM ended are not what the user asked)."""
    global _deferred
    exc = Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()
    if _active and (_holding or _not_here(frame)):  # lost, in an extension's start, or cutting held(): raised once out
        _deferred = exc
        signal.setitimer(signal.ITIMER_REAL, SOON, TICK)
        return
    interrupt_with(exc)


_on_sigint = _on_signal


@contextlib.contextmanager
def answer_signals() -> Iterator[None]:
    """While active (in the main thread), SIGTERM raises :class:`Terminated` in the main thread
    (as Ctrl-C raises KeyboardInterrupt), DuckDB interrupted, instead of killing the process at
    once: ``finally`` blocks run, a command says one line.  Elsewhere, or when SIGTERM is
    ignored, it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.getsignal(signal.SIGTERM)
    except (ValueError, OSError):
        previous = None
    if previous is signal.SIG_IGN or previous is None:
        yield
        return
    signal.signal(signal.SIGTERM, _on_signal)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def stop_soon(exc: BaseException) -> None:
    """From any thread: have the main thread raise ``exc`` within a tick, DuckDB interrupted, as
    after a signal (while a budget is active; else the work raises it where it meets it).  For a
    thread that learns the work cannot go on: a worker process of the batch died.  A signal's
    stop not raised yet (Ctrl-C, SIGTERM) stays the one raised."""
    global _deferred
    if _deferred is None:
        _deferred = exc


def worker_process(parent: int) -> None:
    """Called first in a worker process forked by ``parent``: it dies with its parent (Linux's
    ``PR_SET_PDEATHSIG``, SIGKILL: also when the parent is killed outright), leaves Ctrl-C to the
    parent (which stops it: a terminal's Ctrl-C reaches the whole process group), ends at once on
    SIGTERM, and carries none of the parent's budgets or signal state."""
    global _requested, _deferred, _forked
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)            # 1: PR_SET_PDEATHSIG
    if os.getppid() != parent:                                  # the parent died before that
        os._exit(1)
    signal.setitimer(signal.ITIMER_REAL, 0, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _active.clear()
    _requested = _deferred = None
    _forked = False
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)        # held by the parent as it forked (forking)


_HELD = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def forking() -> Iterator[None]:
    """Ctrl-C and SIGTERM held (blocked, not lost) while worker processes are forked: a worker
    forked in the moment one arrives would otherwise run this process's handler before
    worker_process sets its own (a traceback of the worker's on stderr).  A worker takes them
    when worker_process is done (Ctrl-C ignored, SIGTERM its end); this process right after."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


_holding = 0                                # held() blocks open in the main thread


@contextlib.contextmanager
def held() -> Iterator[None]:
    """A few statements that must not be cut in two, in the main thread: the budget's alarm, and
    Ctrl-C or SIGTERM while a budget is active, are raised a moment after the block instead of
    inside it (as in a garbage collector's callback).  For a thread started and recorded by its
    pool (ThreadPoolExecutor.submit), and for the joins of threads being stopped: an exception
    inside Thread.join makes Python mark the thread stopped while it still runs (the join's
    lock released), so that a budget raised again during a shutdown left its threads running."""
    global _holding
    if threading.current_thread() is not threading.main_thread():
        yield                               # (signals are taken in the main thread only)
        return
    _holding += 1
    try:
        yield
    finally:
        _holding -= 1


def _on_alarm(signum: int, frame: Any) -> None:
    global _deferred
    if _holding or _not_here(frame):  # raised out of the callback, extension's start or held()
        hit = _check()                # a budget run out here is marked (its block may end here)
        if hit is not None:
            hit.raised = 0.0          # and raised at the first tick out of here
        pending = _deferred is not None or hit is not None
        signal.setitimer(signal.ITIMER_REAL, SOON if pending else TICK, TICK)
        return
    if _deferred is not None:
        exc, _deferred = _deferred, None
        interrupt_with(exc)
    if _requested is not None and time.monotonic() - _requested_at >= RERAISE:
        interrupt_with(_requested)          # swallowed (caught as a failure): raised again
    hit = _check()
    if hit is not None:
        _interrupt_all()
        raise BudgetExceeded(hit.expired)


def _arm() -> None:
    signal.setitimer(signal.ITIMER_REAL, TICK, TICK)


# gc.set_threshold for a process that asks the rules much (see ease_collector): young
# collections every 10,000 allocations rather than 700, full ones a tenth as often.
COLLECTOR_THRESHOLDS = (10_000, 10, 10)


def ease_collector() -> None:
    """Make the cyclic collector's scans of every live object rarer, for the whole process.

    pyDatalog's search keeps its goals and answers alive until the answer, past the young
    generations, and Python's default thresholds then rescan every object of the process (the
    rules, tables, modules) over and over (docs/performance.md has the figures).  Cycles are
    still collected, a little later.  The `poker` command and the test suite call it; importing
    the engine does not (a library leaves its host's collector alone): a program that asks the
    engine much can.
    """
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while a batch is judged (the batch runs it, young
    generations only, once a chunk): a batch makes millions of short-lived objects and no
    cycles, and the collector, triggered every 700 allocations and scanning every object alive,
    took a fifth of the time of a batch of showdowns and of hand histories."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@contextlib.contextmanager
def budget(seconds: float | None, memory: int | None = None, what: str = "the evaluation",
           spent: float = 0.0) -> Iterator[None]:
    """Raise :class:`BudgetExceeded` in the main thread when the block runs longer than
    ``seconds`` (``spent`` of them gone already: a command's start-up) or the process's resident
    memory passes ``memory`` bytes (see the module)."""
    seconds = seconds if seconds and seconds > 0 else None
    memory = memory if memory and memory > 0 else None
    if seconds is None and memory is None:
        yield
        return
    if memory is not None and resident() > memory and reclaim() > memory:
        raise BudgetExceeded(f"{what} passed the memory ceiling of {_mb(memory)} "
                             f"(resident {_mb(resident())} before it started; --memory)")
    left = max(seconds - spent, TICK) if seconds is not None else None
    deadline = time.monotonic() + left if left is not None else None
    state = _Budget(what, seconds, memory, deadline)
    watchdog = None
    if left is not None:
        watchdog = threading.Timer(left + GRACE, _interrupt_all)
        watchdog.daemon = True
        watchdog.start()
    main = threading.current_thread() is threading.main_thread()
    global _previous_handler, _previous_sigint, _requested, _deferred
    requested: BaseException | None = None
    if main:
        if not _active:
            _requested, _deferred = None, None
            _previous_handler = signal.signal(signal.SIGALRM, _on_alarm)
            _previous_sigint = signal.getsignal(signal.SIGINT)
            if _previous_sigint is signal.default_int_handler:      # Ctrl-C interrupts DuckDB too
                signal.signal(signal.SIGINT, _on_sigint)
            _arm()
        _active.append(state)
    try:
        yield
    except BudgetExceeded:
        raise
    except MemoryError:
        raise BudgetExceeded(f"{what} ran out of memory") from None
    except BaseException as exc:
        if _requested is not None and main:         # Ctrl-C or SIGTERM, whatever DuckDB made of it
            if exc is _requested:
                raise
            raise _requested from None
        if state.expired:           # DuckDB turns the handler's exception into its own
            raise BudgetExceeded(state.expired) from None
        raise
    finally:
        if main:
            requested = _requested
            _active.remove(state)
            if not _active:
                _requested = None
                signal.setitimer(signal.ITIMER_REAL, 0, 0)
                signal.signal(signal.SIGALRM, _previous_handler if _previous_handler is not None
                              else signal.SIG_DFL)
                if signal.getsignal(signal.SIGINT) is _on_sigint:
                    signal.signal(signal.SIGINT, _previous_sigint)
        if watchdog is not None:
            watchdog.cancel()
    if main and not _active and _deferred is not None:   # a Ctrl-C not raised yet: now
        pending, _deferred = _deferred, None
        raise pending
    if requested is not None:       # a signal swallowed inside: the work did not finish
        raise requested
    if state.expired:               # the exception was caught inside: the work's result is suspect
        raise BudgetExceeded(state.expired)
