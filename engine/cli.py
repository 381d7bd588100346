"""The `poker` command (also `python -m engine`).

Subcommands live in modules by concern; each exposes ``register(subparsers)`` which adds its
parser and sets ``run=function(args) -> exit code``.  Every error a user can cause is one line on
stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Sequence

from . import loader
from .core import Engine
from .notation import InvalidCards

# Modules that add subcommands (each with register(subparsers)).
COMMAND_MODULES = ("engine.commands", "engine.repl", "engine.check", "engine.roles", "engine.game")

_engines: dict[str, Engine] = {}


class CommandError(Exception):
    """A one-line error for the user; exit status 2 unless given."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


def load_engine(args: argparse.Namespace) -> Engine:
    """The engine of --rules (one per rule set per process)."""
    key = str(getattr(args, "rules", None) or loader.DEFAULT_RULES)
    if key not in _engines:
        _engines[key] = Engine(key)
    return _engines[key]


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", metavar="NAME|PATH", default=argparse.SUPPRESS,
                        help=f"rule set: {', '.join(loader.available())} or a directory of *.dl "
                             f"(default {loader.DEFAULT_RULES})")


def print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="poker", description="A poker-hand judge whose knowledge lives in Datalog rules.")
    parser.add_argument("--rules", metavar="NAME|PATH", default=None,
                        help=f"rule set: {', '.join(loader.available())} or a directory of *.dl "
                             f"(default {loader.DEFAULT_RULES})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:        # that concern is not built yet
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except CommandError as exc:
        print(f"poker: {exc}", file=sys.stderr)
        return exc.status
    except (InvalidCards, loader.RuleError) as exc:
        print(f"poker: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"poker: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("poker: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
