"""The `poker` command (also `python -m engine`).

The subcommands live in modules by concern, each with ``register(subparsers)``, which adds its
parsers and sets ``run=function(args) -> exit status``:

* :mod:`engine.cli.judging`: ``rank``, ``beat``, ``judge``;
* :mod:`engine.cli.check`: ``check``;
* :mod:`engine.cli.repl`: ``repl``;
* :mod:`engine.cli.roles`: ``role``;
* :mod:`engine.cli.game`: ``deal``, ``game``;
* :mod:`engine.cli.equity`: ``equity``;
* :mod:`engine.cli.grid`: ``range`` (the grid of starting hands; and equity's ``--grid``);
* :mod:`engine.cli.history`: ``history`` (and ``judge`` on hand histories);
* :mod:`engine.cli.batches`: ``judge`` and ``history`` of many files (``--out-dir``, ``--cluster``).

The library (``engine`` and its modules outside ``engine.cli``) never imports this package.
Every error a user can cause is one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import NoReturn, Sequence

# (numpy's BLAS starts with one thread in this command's process: the engine package sets it
# as it imports numpy, before this module runs)
from engine import limits
from engine.cli import (
    batches,
    cache,
    check,
    diff,
    equity,
    example,
    game,
    grid,
    history,
    judging,
    repl,
    roles,
    rules,
)
from engine.cli.common import (
    ENDS_AFTER,
    CommandError,
    LineSession,
    Parser,
    UsageError,
    add_json_option,
    add_limit_options,
    add_rules_option,
    clear_progress,
    error,
    execute,
    load_engine,
    one_line,
    print_json,
    progress,
)
from engine.io.atomic import Terminated
from engine.version import version

__all__ = ["main", "run", "build_parser", "version", "CommandError", "LineSession", "Parser", "UsageError",
           "add_json_option", "add_rules_option", "clear_progress", "error", "execute", "load_engine",
           "print_json", "progress"]


def build_parser() -> Parser:
    parser = Parser(prog="poker", description="A poker-hand judge whose knowledge lives in Datalog rules.",
                    epilog="`poker COMMAND --help` shows a command's options.")
    parser.add_argument("--version", action="version", version=f"poker {version()}")
    add_rules_option(parser, top=True)
    sub = parser.add_commands()
    judging.register(sub)
    check.register(sub)
    diff.register(sub)
    repl.register(sub, build_parser)
    roles.register(sub)
    game.register(sub)
    equity.register(sub)
    grid.register(sub)
    cache.register(sub)
    example.register(sub)
    history.register(sub)
    rules.register(sub)
    batches.register(parser.commands)     # judge and history of many files (--out-dir, --cluster)
    add_limit_options(parser)             # --timeout and --memory on every subcommand
    return parser


def main(argv: Sequence[str] | None = None, from_start: bool = False) -> int:
    """Run the command line; the exit status (0 ok, 1 a failed check or session, 2 an error).
    ``from_start``: the time budget counts from the process's start (the `poker` command: its
    start-up and imports are part of what a user waits for)."""
    try:
        try:
            args = build_parser().parse_args(argv)
        except UsageError as exc:
            error_line = str(exc) if exc.prog == "poker" else f"{exc.prog}: {exc.message}"
            print(f"{one_line(error_line)} (see `{exc.prog} --help`)", file=sys.stderr)
            return 2
        except SystemExit as exc:           # --help, --version: printed, done
            return exc.code if isinstance(exc.code, int) else 0
        return execute(args, limits.since_start() if from_start else 0.0)
    except BrokenPipeError:                 # `poker judge … | head`: stop quietly
        _silence_stdout()
        return 0
    except KeyboardInterrupt:               # while parsing or loading, before a command ran
        clear_progress()
        print("poker: interrupted", file=sys.stderr)
        return 130
    except Terminated as exc:               # SIGTERM while an output file was written (engine.io.atomic)
        # returned, not raised: run() then ends the process at once, where a SystemExit would tear
        # the interpreter down and DuckDB's nanobind print 43 lines of "leaked instances"
        clear_progress()
        print("poker: terminated", file=sys.stderr)
        return int(exc.code)


def run() -> NoReturn:
    """The `poker` command: :func:`main`, its output flushed, then the process ends at once.

    Nothing is left to clean up by then (files are written and closed, the workers stopped), and
    the interpreter's own teardown, freeing every object and closing the DuckDB databases one by
    one, took a tenth of a second of a two-second `poker judge`.
    """
    ENDS_AFTER.append(True)                 # (engine.cli.common.batch_collector)
    limits.ease_collector()                 # the process is the command's own
    code = main(from_start=True)
    try:
        sys.stdout.flush()
    except BrokenPipeError:                 # the reader left at the very end: as main does
        _silence_stdout()
    except (OSError, ValueError):
        code = code or 1
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    os._exit(code)


def _silence_stdout() -> None:
    """After a broken pipe, let the interpreter's final flush of stdout write nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    run()
