"""What every subcommand shares: one-line errors, the engine of --rules, the --rules and --json
options, JSON output, progress bars, and the protocol of line-by-line sessions (repl, game).

Terminal conventions live here and only here:

* every error a user can cause is one line on stderr, ``poker: MESSAGE`` (in a piped session,
  ``poker: line N: MESSAGE``), printed by :func:`error`;
* a usage error is one line too, ``poker rank: error: MESSAGE``, and exits 2 (:class:`Parser`);
* progress bars show on a terminal only, one at a time, and are cleared before anything else is
  printed (:func:`progress`, :func:`clear_progress`).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import gc
import json
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, NoReturn, TextIO

from engine import limits
from engine.core import Engine
from engine.datalog import loader, rulesets
from engine.evaluators.pydatalog.query import QueryError
from engine.evaluators.workers import worker_count
from engine.history import WorkerLost
from engine.notices import before_notice
from engine.poker.notation import InvalidCards

PROG = "poker"


# Set by engine.cli.run, the `poker` process itself, which ends (os._exit) when its command does.
ENDS_AFTER: list[bool] = []


@contextlib.contextmanager
def batch_collector() -> Iterator[None]:
    """The garbage collector paused for a batch (engine.limits.collector_paused); in the `poker`
    process, to its end: re-enabled, the collector would first scan every object the batch left
    (18 ms after 10,000 hand histories) just before the process ends.  A caller of main (a test,
    a script) gets it back as it was."""
    if ENDS_AFTER:
        gc.disable()
        yield
        return
    with limits.collector_paused():
        yield


class CommandError(Exception):
    """A one-line error for the user; exit status 2 unless given."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


class UsageError(Exception):
    """Bad arguments: ``prog`` (``poker`` or ``poker rank``) and argparse's message."""

    def __init__(self, prog: str, message: str):
        super().__init__(f"{prog}: error: {message}")
        self.prog, self.message = prog, message


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (a UsageError, printed by :func:`main`), not
    the usage block plus the error; ``--help`` still prints the usage."""

    commands: dict[str, "Parser"]

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.commands = {}

    def error(self, message: str) -> NoReturn:
        raise UsageError(self.prog, message)

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:  # type: ignore[override]
        """As argparse's, but arguments no parser knows are named by the subcommand they were
        given to, with the nearest option it has (``poker rank --jsn``: ``--json``)."""
        known, extras = self.parse_known_args(args, namespace)
        if extras:
            sub = self.commands.get(getattr(known, "command", None) or "")
            parser = sub if sub is not None else self
            options = sorted(parser._option_string_actions)
            hints = [near[0] for e in extras if e.startswith("-")
                     for near in [difflib.get_close_matches(e.split("=")[0], options, n=1)] if near]
            raise UsageError(parser.prog, f"unrecognized arguments: {' '.join(extras)}"
                             + (f" (did you mean {' or '.join(hints)}?)" if hints else ""))
        return known

    def add_commands(self) -> Any:
        """The subcommands' parsers (``add_parser`` on the result); :attr:`commands` lists them."""
        sub = self.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=Parser)
        self.commands = sub.choices          # the name -> parser mapping argparse fills
        return sub


# ---- errors --------------------------------------------------------------------------------

_where = ""             # "line N: " while a piped session runs line N


@contextlib.contextmanager
def where(prefix: str) -> Iterator[None]:
    """Prefix every error printed meanwhile (``line 3: ``)."""
    global _where
    old, _where = _where, prefix
    try:
        yield
    finally:
        _where = old


# What would break the one line of an error (a file name may hold any of these): shown escaped.
_LINE_BREAKING = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def error(message: str) -> None:
    """One line on stderr: ``poker: [line N: ]MESSAGE`` (progress bars cleared first); control
    characters and line breaks in the message (from a file name, a token) are shown escaped."""
    clear_progress()
    sys.stdout.flush()
    print(f"{PROG}: {_where}{one_line(message)}", file=sys.stderr, flush=True)


def one_line(message: str) -> str:
    """The message with control characters and line breaks shown escaped (``\\n``, ``\\x1e``)."""
    return _LINE_BREAKING.sub(lambda m: repr(m.group(0))[1:-1], message)


def warning(message: str) -> None:
    error(f"warning: {message}")


def os_message(exc: OSError) -> str:
    """An OSError as one line that names its file first."""
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename else reason


def execute(args: argparse.Namespace, spent: float = 0.0) -> int:
    """Run a parsed command within its budget (:func:`command_budget`; ``spent`` seconds of it
    gone already: the `poker` process's start-up), SIGTERM answered as Ctrl-C
    is (engine.limits.answer_signals: cleanup runs, then one line); print what went wrong as one
    line and return the exit status."""
    try:
        seconds, memory = command_budget(args)
        what = f"{PROG} {getattr(args, 'command', None) or 'command'}"
        with limits.answer_signals(), limits.budget(seconds, memory, what=what, spent=spent):
            return int(args.run(args) or 0)
    except CommandError as exc:
        error(str(exc))
        return exc.status
    except (limits.BudgetExceeded, WorkerLost) as exc:
        error(str(exc))
        return 2
    except (InvalidCards, loader.RuleError, QueryError) as exc:
        error(str(exc))
        return 2
    except BrokenPipeError:
        raise
    except OSError as exc:
        error(os_message(exc))
        return 2
    except KeyboardInterrupt:
        error("interrupted")
        return 130
    except Exception as exc:        # a bug, or pyDatalog surprising us: still one line
        if os.environ.get("POKER_DEBUG"):
            raise
        error(f"internal error: {type(exc).__name__}: {exc} (POKER_DEBUG=1 shows the traceback)")
        return 1
    finally:
        clear_progress()


# ---- limits: --timeout, --memory -----------------------------------------------------------

# The default time budget of each command (seconds); the rest get limits.DEFAULT_TIMEOUT.  The
# sessions (repl, game) have none as a whole (a user thinks between lines): each query of the
# REPL and each answer of the game gets its own (:func:`query_budget`).
COMMAND_TIMEOUTS: dict[str, float] = {
    "judge": limits.DEFAULT_BATCH_TIMEOUT, "check": limits.DEFAULT_BATCH_TIMEOUT,
    "diff": limits.DEFAULT_BATCH_TIMEOUT, "history": limits.DEFAULT_BATCH_TIMEOUT}
SESSIONS = {"repl": "query", "game": "answer"}      # a session: what gets a budget of its own


def _seconds(text: str) -> float:
    try:
        return limits.parse_seconds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _size(text: str) -> int:
    try:
        return limits.parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_limit_options(parser: "Parser") -> None:
    """``--timeout SECONDS`` and ``--memory SIZE`` on every subcommand of ``parser``."""
    for name, sub in parser.commands.items():
        default = COMMAND_TIMEOUTS.get(name, limits.DEFAULT_TIMEOUT)
        if name in SESSIONS:
            what = (f"the time budget of each {SESSIONS[name]}, in seconds "
                    f"(default {limits.DEFAULT_TIMEOUT:g}; 0: none)")
        else:
            what = f"stop after this many seconds (default {default:g}; 0: none)"
        sub.add_argument("--timeout", metavar="SECONDS", type=_seconds, default=None,
                         help=what + f"; ${limits.TIMEOUT_ENV} sets the default")
        sub.add_argument("--memory", metavar="SIZE", type=_size, default=None,
                         help="stop when the memory of the command and its worker processes passes SIZE "
                              f"(512M, 4G, 50%%; 0: none; default ${limits.MEMORY_ENV}, "
                              f"else {limits.DEFAULT_MEMORY_SHARE * 100:.0f}%% of the machine's)")


def command_budget(args: argparse.Namespace) -> tuple[float | None, int | None]:
    """(seconds, bytes) that a command may use: --timeout and --memory, else the defaults.

    A session (repl, game) as a whole gets none: it gives each query or answer the budget of
    :func:`query_budget`.  A bad $POKER_TIMEOUT, $POKER_MEMORY or $POKER_WORKERS (read here too,
    so that it shows before any work) is a CommandError naming it.
    """
    command = getattr(args, "command", None)
    seconds = getattr(args, "timeout", None)
    memory = getattr(args, "memory", None)
    if command in SESSIONS:
        return None, None
    try:
        if seconds is None:
            fallback = COMMAND_TIMEOUTS.get(command, limits.DEFAULT_TIMEOUT) if command else None
            seconds = limits.default_timeout(fallback or 0.0)
        if memory is None:
            memory = limits.memory_ceiling()
        worker_count(1)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    return seconds or None, memory or None


def query_budget(args: argparse.Namespace) -> tuple[float | None, int | None]:
    """The budget of one REPL query or game answer: --timeout (else $POKER_TIMEOUT, else 60 s)
    and --memory (else the default ceiling)."""
    seconds = getattr(args, "timeout", None)
    memory = getattr(args, "memory", None)
    try:
        if seconds is None:
            seconds = limits.default_timeout(limits.DEFAULT_TIMEOUT)
        if memory is None:
            memory = limits.memory_ceiling()
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    return seconds or None, memory or None


# ---- engines and options -------------------------------------------------------------------

_engines: dict[str, Engine] = {}


def rules_key(args: argparse.Namespace) -> str:
    return str(getattr(args, "rules", None) or rulesets.DEFAULT_RULES)


def load_engine(args: argparse.Namespace) -> Engine:
    """The engine of --rules (one per rule set per process)."""
    key = rules_key(args)
    if key not in _engines:
        _engines[key] = _checked(Engine(key))
    return _engines[key]


def load_session_engine(args: argparse.Namespace, budget: tuple[float | None, int | None]) -> Engine:
    """The engine of a session (repl, game), loaded within the budget of one query: a session as
    a whole has none, and rules may ask for endless work as they load (what needs no hand is
    computed then)."""
    with limits.budget(*budget, what="loading the rules"):
        return load_engine(args)


def _checked(engine: Engine) -> Engine:
    """An engine, said once on stderr when its rules are not compiled (they are still asked,
    through pyDatalog).  Engine() itself checks that the rule set defines what it asks."""
    if engine.fallback is not None:
        warning(f"the rules are not compiled ({engine.fallback}); every answer comes from pyDatalog, "
                "which is slower")
    for note in engine.ruleset.notes:
        warning(note)
    return engine


def reload_engine(key: str) -> Engine:
    """Read a rule set's files again; the old engine stays when the new one fails to load."""
    engine = _checked(Engine(key))
    _engines[key] = engine
    return engine


def add_rules_option(parser: argparse.ArgumentParser, top: bool = False) -> None:
    """--rules NAME|PATH, before or after the subcommand (``top`` for the main parser)."""
    parser.add_argument("--rules", metavar="NAME|PATH", default=None if top else argparse.SUPPRESS,
                        help=f"rule set: {', '.join(rulesets.available())} or a directory of *.dl "
                             f"(default {rulesets.DEFAULT_RULES})")


def add_json_option(parser: argparse.ArgumentParser, what: str = "") -> None:
    """--json: print the output as JSON instead of text (the same flag on every subcommand)."""
    parser.add_argument("--json", action="store_true",
                        help="print JSON instead of text" + (f": {what}" if what else ""))


def print_json(data: object) -> None:
    clear_progress()
    print(json.dumps(data, ensure_ascii=False))


# ---- progress bars -------------------------------------------------------------------------

_bars: list[Any] = []


def progress(total: int, what: str, unit: str = "") -> Callable[[int], None] | None:
    """A progress bar on stderr when it is a terminal (else None); ``update(n)`` advances it.

    One bar shows at a time: a new bar clears the one before.  :func:`clear_progress` (called by
    :func:`error`, :func:`print_json` and after every command) clears the last one.
    """
    if not _is_terminal(sys.stderr):
        return None
    from tqdm import tqdm
    clear_progress()
    bar = tqdm(total=total, desc=what, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True)
    _bars.append(bar)
    return bar.update


def clear_progress() -> None:
    """Close and erase every progress bar, before anything else is printed."""
    while _bars:
        bar = _bars.pop()
        with contextlib.suppress(Exception):
            bar.close()


before_notice(clear_progress)      # the library's notices (engine.notices.say) print after the bars go


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def real_terminal(stream: TextIO) -> bool:
    """A stream on a terminal device (not merely claiming isatty): readline can work on it."""
    try:
        return os.isatty(stream.fileno())
    except (AttributeError, ValueError, OSError):
        return False


# ---- line-by-line sessions (poker repl, poker game) ----------------------------------------


MAX_LINE = 1 << 20      # characters of a line of a session read from a pipe or a file


class LineSession:
    """The protocol of a session that reads commands line by line.

    On a terminal: prompts, and (when stdin is the process's terminal) readline's line editing,
    a history kept in a file (``$ENV`` or ``default``) and an optional Tab completer.  Errors are
    ``poker: MESSAGE``.  With piped stdin: no prompt and no banner; each error names its line,
    ``poker: line N: MESSAGE``; and :attr:`status` is 1 if any line failed.

    Use it as a context manager (it loads and saves the history)::

        with LineSession(history=("POKER_HISTORY", "~/.poker_history")) as lines:
            while True:
                try:
                    line = lines.read("poker> ")
                except EOFError:
                    break
                with lines.numbered():
                    ...                 # errors printed here carry "line N: " when piped
    """

    def __init__(self, stdin: TextIO | None = None, *, history: tuple[str, str] | None = None,
                 completer: Callable[[str, int], str | None] | None = None):
        self.stdin = stdin if stdin is not None else sys.stdin
        self.interactive = _is_terminal(self.stdin)
        self.number = 0
        self.failed = False
        self._history = history
        self._completer = completer
        self._readline: Any = None
        self._path: Path | None = None

    # -- terminal setup
    def __enter__(self) -> "LineSession":
        if self.interactive and self.stdin is sys.stdin and real_terminal(self.stdin):
            self._readline = _readline()
        rl = self._readline
        if rl is not None:
            rl.clear_history()
            if self._history:
                env, default = self._history
                self._path = Path(os.environ.get(env) or default).expanduser()
                rl.set_history_length(1000)
                with contextlib.suppress(OSError):
                    rl.read_history_file(self._path)
            if self._completer is not None:
                rl.set_completer(self._completer)
                rl.parse_and_bind("bind ^I rl_complete" if "libedit" in (rl.__doc__ or "")
                                  else "tab: complete")
        return self

    def __exit__(self, *exc: object) -> None:
        rl = self._readline
        if rl is not None:
            if self._path is not None:
                with contextlib.suppress(OSError):
                    rl.write_history_file(self._path)
            rl.set_completer(None)

    # -- reading
    def read(self, prompt: str = "") -> str:
        """The next line without its line break; EOFError at the end of input.

        The prompt shows only on a terminal.  Ctrl-C at a terminal prompt raises
        KeyboardInterrupt for the caller to decide.  A line longer than :data:`MAX_LINE` is a
        failed line that ends the session (EOFError).
        """
        if self._readline is not None:
            line = input(prompt)                # readline: editing, history, completion
        else:
            if self.interactive and prompt:
                sys.stdout.write(prompt)
                sys.stdout.flush()
            line = self.stdin.readline(MAX_LINE + 1)
            if not line:
                raise EOFError
            if len(line) > MAX_LINE:        # stdin without a line break (/dev/zero): not read whole
                self.number += 1
                self.fail(f"the line is too long (more than {MAX_LINE} characters); the session ends")
                raise EOFError
        self.number += 1
        return line.rstrip("\r\n")

    # -- errors
    @property
    def prefix(self) -> str:
        return "" if self.interactive else f"line {self.number}: "

    def numbered(self) -> contextlib.AbstractContextManager[None]:
        """While the current line runs, every error printed names it (when piped)."""
        return where(self.prefix)

    def fail(self, message: str) -> None:
        """Report a failed line: ``poker: [line N: ]MESSAGE``."""
        with self.numbered():
            error(message)
        self.failed = True

    @property
    def status(self) -> int:
        """1 when a piped session had a failing line, else 0."""
        return 1 if self.failed and not self.interactive else 0


def _readline() -> Any:
    try:
        import readline
    except ImportError:         # Windows without pyreadline: plain input()
        return None
    return readline
