"""Limits (issue 11): a time budget and a memory ceiling on every command that evaluates, a
`timeout` setting in the REPL, Ctrl-C that stops at once, and run-time errors of a query that
are errors, not answers."""

from __future__ import annotations

import gc
import io
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import copy_rules
from engine import interface as I
from engine import limits
from engine.cli import main
from engine.datalog.program import Program
from engine.evaluators.pydatalog.query import QueryError
from engine.evaluators.sql.duckdb import Database
from engine.limits import BudgetExceeded, budget

ROOT = Path(__file__).resolve().parent.parent
ROYAL = "AH KH QH JH TH"

# A rule that joins five copies of the deck (52**5 rows): any question about a hand runs for minutes.
SLOW = """
slow_D: slow(X) <= cardId(A, V1, S1) & cardId(B, V2, S2) & cardId(C, V3, S3) & cardId(D, V4, S4) & cardId(E, V5, S5) & (X == A + B + C + D + E)
getRank_Slow: getRank(S, 99) <= isHand(S) & slow(X) & (X < 0)
"""
# A recursion pyDatalog follows for 10**8 steps (not compiled: the engine asks pyDatalog).
COUNT = "count_A: cnt(0)\ncount_B: cnt(X) <= cnt(Y) & (Y < 100000000) & (X == Y + 1)\n"


@pytest.fixture(scope="module")
def slow_rules(tmp_path_factory) -> Path:
    rules = copy_rules(tmp_path_factory.mktemp("slow") / "rules")
    with open(rules / "ranking.dl", "a", encoding="utf-8") as f:
        f.write(SLOW)
    return rules


@pytest.fixture(scope="module")
def counting_rules(tmp_path_factory) -> Path:
    rules = copy_rules(tmp_path_factory.mktemp("count") / "rules")
    (rules / "count.dl").write_text(COUNT)
    return rules


# ---- engine.limits.budget ------------------------------------------------------------------

def test_a_time_budget_stops_python_work():
    start = time.monotonic()
    with pytest.raises(BudgetExceeded, match=r"^the loop ran past its time budget of 0\.2 s \(--timeout\)$"):
        with budget(0.2, what="the loop"):
            while True:
                pass
    assert time.monotonic() - start < 1.0
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)       # the timer is disarmed
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None, signal.default_int_handler) or \
        signal.getsignal(signal.SIGALRM) is not limits._on_alarm


def test_work_inside_the_budget_is_untouched():
    with budget(5):
        assert sum(range(10_000)) == 49_995_000
    with budget(None), budget(0):
        pass


def test_budgets_nest():
    with budget(10, what="outer"):
        with pytest.raises(BudgetExceeded, match="inner"):
            with budget(0.1, what="inner"):
                time.sleep(5)
        with budget(1, what="second"):
            time.sleep(0.05)
    assert not limits._active


def test_a_swallowed_budget_is_raised_again(monkeypatch):
    monkeypatch.setattr(limits, "RERAISE", 0.05)
    caught = 0
    with pytest.raises(BudgetExceeded):
        with budget(0.1):
            while caught < 3:           # code that catches everything (as pyDatalog does)
                try:
                    time.sleep(1)
                except BudgetExceeded:
                    caught += 1
    assert caught == 3


def test_a_swallowed_budget_fails_the_block_at_its_end():
    with pytest.raises(BudgetExceeded):
        with budget(0.1):
            try:
                time.sleep(1)
            except BudgetExceeded:
                pass                    # the work "finished": its result is suspect


def test_a_memory_ceiling_stops_work():
    ceiling = limits.resident() + (64 << 20)
    hog = []
    start = time.monotonic()
    with pytest.raises(BudgetExceeded, match=r"passed the memory ceiling of \d+ MB \(resident \d+ MB; --memory\)"):
        with budget(None, memory=ceiling):
            while time.monotonic() - start < 10:
                hog.append(bytearray(8 << 20))
                hog[-1][::4096] = b"x" * len(hog[-1][::4096])     # touch the pages
    del hog
    assert time.monotonic() - start < 5


def test_a_budget_never_cuts_a_held_block_in_two():
    """What limits.held() holds (a pool's thread started and recorded) runs whole; the budget's
    exception comes a moment after it."""
    done, start = [], time.monotonic()
    with pytest.raises(BudgetExceeded, match="time budget"):
        with budget(0.05):
            with limits.held():
                time.sleep(0.4)                 # the budget runs out here: held
                done.append("whole")
            done.append("after")
            time.sleep(10)
    assert done == ["whole", "after"] and time.monotonic() - start < 5


def test_memory_held_only_by_garbage_does_not_refuse_the_next_budget():
    """A stopped search leaves its memory in reference cycles; the next budget collects them
    before it refuses to start."""
    ceiling = limits.resident() + (64 << 20)
    gc.disable()
    try:
        cycle: list = [bytearray(128 << 20)]
        cycle[0][::4096] = b"x" * len(cycle[0][::4096])      # touch the pages
        cycle.append(cycle)
        del cycle
        assert limits.resident() > ceiling                    # the garbage is still resident
        with budget(None, memory=ceiling):
            pass
    finally:
        gc.enable()
    assert limits.resident() < ceiling


def _database() -> Database:
    """A DuckDB database of no rules (the queries are the test's own)."""
    return Database(Program([], I.INPUTS, I.ASKED))


def test_a_duckdb_query_is_interrupted():
    compiled = _database()
    start = time.monotonic()
    with pytest.raises(BudgetExceeded):
        with budget(0.3):
            compiled.query("SELECT count(*) FROM range(100000000000)")
    assert time.monotonic() - start < 2
    assert compiled.query("SELECT 42") == [(42,)]      # still usable


def test_an_interrupt_between_two_statements_stops_the_run():
    # DuckDB's interrupt stops the query in flight only; one that comes between two statements
    # (a worker of a judge, told to stop) must stop the run before its next statement.
    import duckdb

    from engine import Engine
    from engine.evaluators import verdicts
    evaluator = Engine().evaluator(10 ** 6)
    db = evaluator.compiled
    run, seen = db._run, []

    def spy(sql, *args, **kwargs):
        seen.append(sql)
        result = run(sql, *args, **kwargs)
        if len(seen) == 20:
            db.interrupt()                     # no query is running now
        return result
    db._run = spy
    fights = [[(14, 15, 16, 17, 18), (2, 3, 4, 5, 6)]] * 600     # A-5 and 2-6 straight flushes
    try:
        with pytest.raises(duckdb.InterruptException):
            verdicts(evaluator, fights)
        assert len(seen) == 21                 # the 21st statement was refused, none after it
    finally:
        db._run = run
    assert [v.result for v in verdicts(evaluator, fights[:3])] == [2, 2, 2]   # the next run runs


@pytest.mark.skipif(signal.getsignal(signal.SIGINT) is not signal.default_int_handler,
                    reason="SIGINT is handled or ignored by the test runner here")
def test_ctrl_c_interrupts_a_duckdb_query_at_once():
    compiled = _database()
    threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):          # not DuckDB's RuntimeError, nor finishing first
        with budget(60):
            compiled.query("SELECT count(*) FROM range(30000000000)")
    assert time.monotonic() - start < 2
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


class _AlarmInCallback:
    """A callback where Python drops what is raised (``inside`` is called in it): every budget
    alarm past the deadline comes there, nearly all the time is spent there until one fired, and
    the budget must still end the work, its exception never dropped."""

    def __init__(self) -> None:
        self.deadline = float("inf")
        self.fired = False

    def inside(self) -> None:
        if time.monotonic() > self.deadline:
            self.fired = True
            signal.raise_signal(signal.SIGALRM)       # the alarm comes now, in the callback
        _spin(0.005)

    def run(self, step) -> None:
        """``step()`` until the budget ends it: each step runs the callback once."""
        lost = []
        old_hook, sys.unraisablehook = sys.unraisablehook, lambda u: lost.append(u.exc_type)
        try:
            start = time.monotonic()
            with pytest.raises(BudgetExceeded):
                with budget(0.2):
                    self.deadline = start + 0.2
                    while time.monotonic() - start < 5:
                        step()
                        _spin(0.01 if self.fired else 0)
            assert time.monotonic() - start < 1
        finally:
            sys.unraisablehook = old_hook
        assert BudgetExceeded not in lost


def test_a_budget_that_runs_out_in_a_gc_callback_is_not_lost():
    # Python prints and drops an exception raised in a garbage collector callback (hypothesis
    # installs one): the budget's alarm, landing there, must raise once out of it instead.
    # Here every alarm past the deadline lands in the callback: before, every raise was dropped
    # and the work ran on to its end.
    import gc
    alarm = _AlarmInCallback()

    def slow(phase, info):
        alarm.inside()
    gc.callbacks.append(slow)
    try:
        alarm.run(lambda: gc.collect(0))              # until the deadline, nearly all in the callback
    finally:
        gc.callbacks.remove(slow)


def test_a_budget_that_runs_out_in_a_weak_reference_callback_is_not_lost():
    # Likewise a weak reference's callback: weakref's containers drop the entry of a referent that
    # died there, whenever it dies (an engine's memo of proofs, a set of databases).  Here every
    # alarm past the deadline lands in a WeakKeyDictionary's callback.
    import weakref
    alarm = _AlarmInCallback()

    class Entries(dict):
        def __delitem__(self, key):
            alarm.inside()
            super().__delitem__(key)

    class Key:
        pass

    memo: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
    memo.data = Entries()

    def step():
        memo[Key()] = 1                               # the key dies at once: its entry dropped in the callback
    alarm.run(step)


def _as_extension_init(monkeypatch, body):
    """Run ``body`` as the import machinery runs a C extension's initialisation (the frame
    engine.limits holds stops in), standing in for one: a test cannot build an extension."""
    import importlib._bootstrap as bootstrap
    monkeypatch.setattr(limits, "_EXTENSION_INIT", (*limits._EXTENSION_INIT, body))
    return bootstrap._call_with_frames_removed(body)


@pytest.mark.parametrize("stop", ["budget", "ctrl-c"])
def test_nothing_is_raised_while_a_c_extension_initialises(monkeypatch, stop):
    # An exception raised while a C extension initialises aborts the process (DuckDB 2's nanobind:
    # "Critical nanobind error", SIGABRT, when a CI run's lost worker was raised in `import duckdb`):
    # a budget's alarm or Ctrl-C that comes then is raised once the initialisation is done.
    done = []

    def initialise():
        if stop == "ctrl-c":
            os.kill(os.getpid(), signal.SIGINT)
        _spin(0.6)
        done.append(True)
    start = time.monotonic()
    with pytest.raises(BudgetExceeded if stop == "budget" else KeyboardInterrupt):
        with budget(0.1 if stop == "budget" else 60):
            _as_extension_init(monkeypatch, initialise)
            _spin(5)                                  # not stopped at all: 5 s more
    took = time.monotonic() - start
    assert done, "stopped inside the initialisation"
    assert 0.6 <= took < 3, took


_EXTENSION_FRAMES = """
import _imp, sys
from engine import limits
seen = []
def spy(name):
    real = getattr(_imp, name)
    def init(*args):
        seen.append((name, limits._initialising_extension(sys._getframe(1))))
        return real(*args)
    return init
limits._EXTENSION_INIT = (spy("create_dynamic"), spy("exec_dynamic"))
_imp.create_dynamic, _imp.exec_dynamic = limits._EXTENSION_INIT
import importlib.machinery, importlib.util
for name in ("_bz2", "_lzma", "_csv", "_bisect", "_json", "_queue", "_uuid", "_statistics", "_decimal"):
    spec = importlib.util.find_spec(name)
    if name not in sys.modules and spec and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
        __import__(name)                 # a C extension of its own file, not built into the interpreter
        print(name, sorted(set(seen)))
        break
"""


def test_a_c_extension_is_initialised_where_the_stops_are_held():
    # The stand-in above holds if CPython initialises a real extension module in that frame: one
    # not imported yet, in a fresh interpreter, its create and exec steps each seen there.
    done = subprocess.run([sys.executable, "-c", _EXTENSION_FRAMES], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    name, seen = done.stdout.split(" ", 1)
    assert seen.strip() == "[('create_dynamic', True), ('exec_dynamic', True)]", done.stdout


@pytest.mark.parametrize("stop", ["budget", "ctrl-c"])
def test_an_import_that_never_ends_is_stopped(tmp_path, monkeypatch, stop):
    # Only an extension's initialisation holds a stop: a module whose top level never ends is
    # stopped where it is (holding stops for every import left it deaf to all but SIGKILL).
    name = f"endless_import_{stop.replace('-', '_')}"
    ctrl_c = "import os, signal\nos.kill(os.getpid(), signal.SIGINT)\n" if stop == "ctrl-c" else ""
    (tmp_path / f"{name}.py").write_text(
        f"import time\n{ctrl_c}end = time.monotonic() + 30\nwhile time.monotonic() < end:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop(name, None)
    start = time.monotonic()
    with pytest.raises(BudgetExceeded if stop == "budget" else KeyboardInterrupt):
        with budget(0.3 if stop == "budget" else 60):
            __import__(name)
    assert time.monotonic() - start < 5
    assert name not in sys.modules


def test_a_budget_that_runs_out_and_ends_while_an_extension_initialises_says_so(monkeypatch):
    # Its alarms are held there; the budget is marked run out all the same, and its block says so.
    def initialise():
        with budget(0.2, what="the start"):
            _spin(0.6)
    with pytest.raises(BudgetExceeded, match="the start ran past its time budget of 0.2 s"):
        _as_extension_init(monkeypatch, initialise)


def test_a_held_ctrl_c_is_not_replaced_by_a_later_stop(monkeypatch):
    # A SIGTERM to the process group ends a batch's workers too, whose end is reported (stop_soon)
    # while the signal is held: the user's stop is the one raised.
    def initialise():
        os.kill(os.getpid(), signal.SIGINT)
        limits.stop_soon(RuntimeError("a worker ended"))
        _spin(0.3)
    with pytest.raises(KeyboardInterrupt):
        with budget(60):
            _as_extension_init(monkeypatch, initialise)
            _spin(5)


def test_the_timer_keeps_its_pace_where_stops_are_held_and_none_waits(monkeypatch):
    # It looks again a millisecond later only when a stop waits (it ticked 1,000 times a second).
    ticks = []
    real = limits._on_alarm

    def counted(signum, frame):
        ticks.append(1)
        real(signum, frame)
    monkeypatch.setattr(limits, "_on_alarm", counted)
    with budget(60):
        _as_extension_init(monkeypatch, lambda: _spin(0.5))
    assert 1 <= len(ticks) <= 10, len(ticks)          # a tick every 0.1 s


def test_registered_objects_are_interrupted():
    hits = []

    class Stoppable:
        def interrupt(self):
            hits.append(1)
    thing = limits.register(Stoppable())
    with pytest.raises(BudgetExceeded):
        with budget(0.1):
            time.sleep(1)
    assert hits and thing


@pytest.mark.parametrize("text, value", [("90", 90.0), ("2.5", 2.5), ("10m", 600.0), ("1h", 3600.0),
                                         ("0", 0.0), ("none", 0.0)])
def test_parse_seconds(text, value):
    assert limits.parse_seconds(text) == value


@pytest.mark.parametrize("text", ["", "-1", "x", "1e9999", "5 days", "nan", "99999999999"])
def test_parse_seconds_refuses(text):
    with pytest.raises(ValueError):
        limits.parse_seconds(text)


@pytest.mark.parametrize("text", ["", "-1M", "5X", "200%", "0%", "1e3", "999999999T"])
def test_parse_size_refuses(text):
    with pytest.raises(ValueError):
        limits.parse_size(text)


def test_parse_size():
    assert limits.parse_size("2G") == 2 << 30 and limits.parse_size("512mb") == 512 << 20
    assert 0 < limits.parse_size("50%") < limits.parse_size("100%")


# ---- the command line: --timeout, --memory, $POKER_TIMEOUT, $POKER_MEMORY --------------------

def _run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def test_every_command_has_the_options():
    from engine.cli import build_parser
    parser = build_parser()
    for name, sub in parser.commands.items():
        text = sub.format_help()
        assert "--timeout SECONDS" in text and "--memory SIZE" in text, name


def test_rank_stops_at_its_timeout(slow_rules, capsys):
    start = time.process_time()
    status, out, err = _run(capsys, "rank", "--rules", str(slow_rules), "--timeout", "0.5", ROYAL)
    assert time.process_time() - start < 4
    assert (status, out) == (2, "") and err == "poker: poker rank ran past its time budget of 0.5 s (--timeout)\n"


def test_judge_stops_at_its_timeout_and_writes_nothing(slow_rules, tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text('{"hands": ["JH JD 2C 2S 4H", "TH TD 9C 9S 8H"]}\n' * 100)
    out = tmp_path / "out.yaml"
    start = time.monotonic()
    status, stdout, err = _run(capsys, "judge", "--rules", str(slow_rules), "--timeout", "0.5", str(src), "-o", str(out))
    assert time.monotonic() - start < 4
    assert (status, stdout) == (2, "") and "ran past its time budget of 0.5 s" in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


def test_the_timeout_comes_from_the_environment(slow_rules, capsys, monkeypatch):
    monkeypatch.setenv(limits.TIMEOUT_ENV, "0.3")
    status, _, err = _run(capsys, "rank", "--rules", str(slow_rules), ROYAL)
    assert status == 2 and "time budget of 0.3 s" in err
    monkeypatch.setenv(limits.TIMEOUT_ENV, "soon")
    status, _, err = _run(capsys, "rank", ROYAL)
    assert status == 2 and err.startswith("poker: $POKER_TIMEOUT: 'soon' is not a number of seconds")


def test_a_memory_ceiling_on_the_command_line(capsys, monkeypatch):
    status, _, err = _run(capsys, "rank", "--memory", "1M", ROYAL)     # less than Python itself
    assert status == 2 and err.count("\n") == 1 and "passed the memory ceiling of 1 MB" in err
    monkeypatch.setenv(limits.MEMORY_ENV, "lots")
    status, _, err = _run(capsys, "rank", ROYAL)
    assert status == 2 and "$POKER_MEMORY: 'lots' is not a size" in err
    monkeypatch.setenv(limits.MEMORY_ENV, "0")
    status, out, _ = _run(capsys, "rank", ROYAL)
    assert status == 0 and out == "royal flush (rank 10)\n"


@pytest.mark.parametrize("value", ["-5", "soon", "1e999"])
def test_a_bad_timeout_is_a_usage_error(capsys, value):
    status, _, err = _run(capsys, "rank", "--timeout", value, ROYAL)
    assert status == 2 and err.count("\n") == 1 and "argument --timeout" in err


# ---- the REPL: `timeout N`, per query -------------------------------------------------------

def test_the_repl_gives_each_query_a_budget(counting_rules, monkeypatch, capsys):
    script = "timeout 0.5\ncnt(X) & (X > 99999999)\ncnt(5)\ntimeout soon\ntimeout 0\ntimeout\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    start = time.monotonic()
    status, out, err = _run(capsys, "repl", "--rules", str(counting_rules))
    assert time.monotonic() - start < 20
    assert status == 1
    assert out.splitlines() == ["timeout: 0.5 s per query", "yes", "timeout: none", "timeout: none"]
    # first, that these (recursive) rules are not compiled; the REPL asks pyDatalog in any case
    assert err.splitlines()[0].startswith("poker: warning: the rules are not compiled (")
    assert err.splitlines()[1:] == ["poker: line 2: the query ran past its time budget of 0.5 s (--timeout)",
                                "poker: line 4: timeout: 'soon' is not a number of seconds (e.g. 60, 2.5, 10m, or 0 for none)"]


def test_the_repl_collects_after_a_stopped_search_not_after_a_refused_line(counting_rules, monkeypatch, capsys):
    """A whole collection frees what a stopped search left in cycles; a line refused before the
    rules ran (a typo, a bad card) left nothing, and is not made to wait for one."""
    reclaimed: list[int] = []
    monkeypatch.setattr(limits, "reclaim", lambda: reclaimed.append(1) or limits.resident())
    script = "cnt(X) & X > 5\nrnak AH\nrank XX\ntimeout 0.5\ncnt(X) & (X > 99999999)\ncnt(5)\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    status, out, err = _run(capsys, "repl", "--rules", str(counting_rules))
    assert status == 1 and out.splitlines()[-1] == "yes"
    assert [line.split(":")[1] for line in err.splitlines() if line.startswith("poker: line")] == \
        [" line 1", " line 2", " line 3", " line 5"]
    assert len(reclaimed) == 2                  # after `rank XX` (a subcommand ran) and the stopped query


def test_repl_timeout_option_sets_the_query_budget(counting_rules, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("timeout\n"))
    status, out, _ = _run(capsys, "repl", "--timeout", "7", "--rules", str(counting_rules))
    assert status == 0 and out == "timeout: 7 s per query\n"


# ---- Ctrl-C stops at once --------------------------------------------------------------------

def test_ctrl_c_stops_a_long_evaluation_at_once(counting_rules):
    proc = subprocess.Popen([sys.executable, "-m", "engine", "repl", "--rules", str(counting_rules)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    proc.stdin.write("cnt(0)\n")
    proc.stdin.flush()
    assert proc.stdout.readline() == "yes\n"     # the rules are loaded
    proc.stdin.write("cnt(X) & (X > 99999999)\n")
    proc.stdin.flush()
    time.sleep(1)                               # deep in the recursion
    sent = _cpu(proc.pid)
    proc.send_signal(signal.SIGINT)
    out, err, cpu = _finish(proc, "", 10)
    assert cpu - sent < 2                       # the CPU it used after the signal
    # the piped REPL reports the line and reads on (to the end of input here): exit 1
    assert proc.returncode == 1 and err.splitlines()[1:] == ["poker: line 2: interrupted"]
    assert "recursion (cnt -> cnt) is not translated" in err.splitlines()[0]


# ---- run-time errors of a query are errors, not answers -------------------------------------

@pytest.mark.parametrize("query, words", [
    ("(Y == 0) & (X == 1 / Y)", "division by zero"),
    ("(Y == 0) & (X == Y // Y)", "division by zero"),
    ("(Y == 0) & (X == 1 / Y) & (X > 3)", "division by zero"),
    ("categoryName(R, N) & (X == N - 1)", "arithmetic on a string"),
    ("categoryName(R, N) & (X == N * 100000000000)", "arithmetic on a string"),   # never computed
    ("categoryName(R, N) & (X == N + N)", "arithmetic on a string"),
])
def test_runtime_errors_of_a_query_are_errors(engine, query, words):
    with pytest.raises(QueryError, match=words):
        engine.query(query)


def test_runtime_errors_in_the_repl_are_one_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("? (Y == 0) & (X == 1 / Y)\n? (Y == 4) & (X == 8 / Y)\n"))
    status, out, err = _run(capsys, "repl")
    assert status == 1 and out == "Y = 4, X = 2.0\n"
    assert err == "poker: line 1: query failed: division by zero\n"


def test_number_arithmetic_in_queries_is_unchanged(engine):
    assert engine.query("getRank(a, R) & (X == R * 2 + 1) & (Y == -R) & (Z == R % 3)", a=ROYAL) == \
        [{"R": 10, "X": 21, "Y": -10, "Z": 1}]
    assert engine.query("(X == 2.5) & (Y == X * 2)") == [{"X": 2.5, "Y": 5.0}]


# ---- pyDatalog's own search: budgets and Ctrl-C reach into it (issue 19) --------------------

# Four copies of the deck joined (52**4 rows): pyDatalog's search alone, no Python of ours.
JOIN = "cardId(A, X, Y) & cardId(B, Z, W) & cardId(C, P, Q) & cardId(D, R, S)"


def _repl(*argv: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "engine", "repl", *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)


def _cpu(pid: int) -> float:
    """The CPU seconds a live process has used so far (/proc/PID/stat: utime, stime)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _finish(proc: subprocess.Popen, script: str, seconds: float) -> tuple[str, str, float]:
    """Feed the script, wait at most ``seconds`` (then kill: a budget that did not stop pyDatalog);
    return the output and the CPU seconds the process used.  CPU, not the wall clock: on a busy
    machine the wall clock of a process that stopped at its budget also counts the others' work
    (a 1 s budget, start-up included, took 5.3 s at a load of 11)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        out, err = proc.communicate(script, timeout=seconds)
    finally:
        proc.kill()
        proc.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, err, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _uncompiled(folder: Path, clause: str) -> Path:
    """The standard rules, a recursion (so that pyDatalog answers every question) and ``clause``."""
    rules = copy_rules(folder)
    (rules / "count.dl").write_text(COUNT)
    with open(rules / "ranking.dl", "a", encoding="utf-8") as f:
        f.write(clause + "\n")
    return rules


def test_a_time_budget_stops_pydatalogs_search():
    # The first query loads the rules into pyDatalog (0.7 s, more on a busy machine), under a
    # budget of its own: here under a long one, so that the 1 s one is the search's alone.
    proc = _repl("--timeout", "1")
    script = f"timeout 30\ncardId(2, V, S)\ntimeout 1\n{JOIN}\ncardId(1, V, S)\n"
    out, err, elapsed = _finish(proc, script, 15)    # unstopped: a minute, 6 GB
    assert elapsed < 5
    assert err == "poker: line 4: the query ran past its time budget of 1 s (--timeout)\n"
    assert (proc.returncode, out) == (1, "timeout: 30 s per query\nV = 2, S = 1\ntimeout: 1 s per query\nV = 1, S = 1\n")


def test_a_memory_ceiling_stops_pydatalogs_search_and_its_memory_is_freed():
    proc = _repl("--timeout", "30", "--memory", "100M")
    out, err, elapsed = _finish(proc, f"{JOIN}\ntimeout 0.5\n{JOIN}\ncardId(1, V, S)\n", 20)
    assert elapsed < 15
    lines = err.splitlines()
    assert lines[0].startswith("poker: line 1: the query passed the memory ceiling of 100 MB (resident ")
    # the second starts (it had been refused, "before it started", had the first kept its memory)
    assert lines[1:] == ["poker: line 3: the query ran past its time budget of 0.5 s (--timeout)"]
    assert out == "timeout: 0.5 s per query\nV = 1, S = 1\n"


def test_a_rule_set_that_falls_back_to_pydatalog_stops_at_its_timeout(tmp_path, capsys):
    rules = _uncompiled(tmp_path / "rules", f"getRank_Join: getRank(S, 99) <= isHand(S) & {JOIN} & (A < 0)")
    start = time.process_time()
    # 4 s: loading the rules (the warning) takes one on a quiet machine, three on a busy one
    status, out, err = _run(capsys, "rank", "--rules", str(rules), "--timeout", "4", ROYAL)
    assert time.process_time() - start < 8
    assert (status, out) == (2, "")
    assert err.splitlines()[0].startswith("poker: warning: the rules are not compiled (")
    assert err.splitlines()[1:] == ["poker: poker rank ran past its time budget of 4 s (--timeout)"]


def test_ctrl_c_stops_pydatalogs_search_at_once():
    proc = _repl()
    proc.stdin.write("cardId(1, V, S)\n")
    proc.stdin.flush()
    assert proc.stdout.readline() == "V = 1, S = 1\n"       # pyDatalog is loaded
    proc.stdin.write(f"{JOIN} & cardId(E, X5, Y5)\n")
    proc.stdin.flush()
    time.sleep(1)
    before = _cpu(proc.pid)
    proc.send_signal(signal.SIGINT)
    out, err, cpu = _finish(proc, "cardId(1, V, S)\n", 10)
    assert cpu - before < 2                                  # the CPU it used after the signal
    assert (proc.returncode, out, err) == (1, "V = 1, S = 1\n", "poker: line 2: interrupted\n")


def test_every_answer_of_the_game_has_the_default_budget(tmp_path, slow_rules):
    """$POKER_TIMEOUT (else 60 s) bounds each answer, as it bounds each REPL query, and the load of
    the rules; the time spent waiting for a line does not count.  The game goes on after a line
    that failed."""
    rules = _uncompiled(tmp_path / "rules", "getRank_Count: getRank(S, 99) <= isHand(S) & cnt(X) & (X > 99999999)")
    # loading these rules takes a second of a quiet machine, up to four of wall clock (what the
    # budget counts) at a load of 10: a budget of 2 s then stopped the load, not the answer
    def game(rules: Path, script: str, seconds: int = 5) -> tuple[int, list[str], float]:
        env = {**os.environ, limits.TIMEOUT_ENV: str(seconds)}
        proc = subprocess.Popen([sys.executable, "-m", "engine", "game", "--rules", str(rules)], env=env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, cwd=ROOT)
        _, err, elapsed = _finish(proc, script, 20)       # unbounded: minutes
        return proc.returncode, err.splitlines(), elapsed

    status, lines, elapsed = game(rules, f"0\n{ROYAL}\n4\n3\n")
    assert elapsed < 10
    assert (status, lines[1:]) == (1, ["poker: line 2: the answer ran past its time budget of 5 s (--timeout)",
                                       "poker: line 3: choose 0, 1, 2 or 3, not '4'"])
    # what needs no hand is computed as it loads: a join the in-process evaluator grows by 0.5 GB a
    # second, stopped sooner
    status, lines, elapsed = game(slow_rules, "3\n", 2)
    assert elapsed < 7
    assert (status, lines) == (2, ["poker: loading the rules ran past its time budget of 2 s (--timeout)"])
