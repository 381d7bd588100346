"""`poker repl`: an interactive shell over the loaded rules.

A line is one of:

* a REPL command: ``let NAME = CARDS``, ``unlet NAME``, ``hands``, ``preds [TEXT]``, ``reload``,
  ``help [COMMAND]``, ``quit``;
* a raw Datalog query: a line with ``(`` whose first word is no command, or any line after ``?``:
  ``getRank(a, R)``, ``beat(a, b, R) & (R != 0)``, ``getRank__why(a, R, L)``, ``? X == 2 + 3``;
* any subcommand of ``poker`` (``rank AH KH QH JH TH``, ``beat "…" "…"``), parsed by the CLI's own
  parser and run by its own run function, so subcommands added later work here unchanged.

Queries are never ``eval``'d: the text is parsed with :mod:`ast`, checked by the rule loader's
whitelist and interpreted with pyDatalog's objects, as rule files are.  With piped stdin there is
no prompt and no banner, each error names its line, and the exit status is 1 if any line failed.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import io
import os
import shlex
import sys
from pathlib import Path
from typing import Any, Callable, TextIO

from pyDatalog import pyParser

from . import cli, loader
from .core import Engine
from .notation import InvalidCards

HISTORY_ENV = "POKER_HISTORY"
HISTORY_DEFAULT = "~/.poker_history"
PROMPT = "poker> "
INPUT_FACTS = {"declared": 1, "holds": 3, "seat": 2}   # asserted by the engine, not by rules

HELP = """\
let NAME = CARDS         bind a hand (or any set of cards) to a lower-case name
unlet NAME               forget a name;  hands  lists the names
QUERY                    a Datalog query over named hands, e.g. getRank(a, R)
                         beat(a, b, R)   getRank__why(a, R, L)   member(a, C) & getValue(C, V) & (V > 10)
preds [TEXT]             the predicates of the loaded rules (name/arity and the labels defining them)
reload                   reread the rule files (names stay bound)
SUBCOMMAND ARGS          any `poker` subcommand, e.g. rank AH KH QH JH TH   (help SUBCOMMAND for its options)
quit                     leave (also Ctrl-D)"""


class ReplError(Exception):
    """A failed line: one message, the session goes on."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("repl", help="an interactive shell: subcommands, Datalog queries over named hands, reload",
                       description="An interactive shell. With piped stdin it reads commands without prompts; "
                                   "the exit status is 1 if any line failed.")
    cli.add_rules_option(p)
    p.set_defaults(run=run_repl)


def run_repl(args: argparse.Namespace) -> int:
    """Run a session on stdin; the exit status is 1 when a piped session had a failing line."""
    session = Session(args)
    return session.loop(sys.stdin)


class Session:
    """The state of one REPL: the rule set's engine, the named hands, the CLI's parser."""

    def __init__(self, args: argparse.Namespace):
        self.rules_key = str(getattr(args, "rules", None) or loader.DEFAULT_RULES)
        self.engine: Engine = cli.load_engine(args)
        self.parser = cli.build_parser()
        self.hands: dict[str, str] = {}
        self.commands: dict[str, Callable[[str], None]] = {
            "let": self.do_let, "unlet": self.do_unlet, "hands": self.do_hands,
            "preds": self.do_preds, "predicates": self.do_preds, "reload": self.do_reload,
            "help": self.do_help}

    # ---- the loop --------------------------------------------------------------------------

    def loop(self, stdin: TextIO) -> int:
        interactive = stdin.isatty()
        history = _open_history() if interactive else None
        if interactive:
            print(f"poker repl, rules {self.engine.name}: `help` for the syntax, Ctrl-D to leave")
        failed = False
        number = 0
        try:
            while True:
                try:
                    line = input(PROMPT) if interactive else stdin.readline()
                except EOFError:
                    line = ""
                except KeyboardInterrupt:
                    if not interactive:
                        print("poker: interrupted", file=sys.stderr)
                        return 130
                    print()
                    continue
                if not line:            # end of input
                    if interactive:
                        print()
                    break
                number += 1
                line = line.strip()
                if line in ("quit", "exit"):
                    break
                where = "" if interactive else f"line {number}: "
                try:
                    ok = self.execute(line)
                except ReplError as exc:
                    print(f"poker: {where}{exc}", file=sys.stderr)
                    ok = False
                except KeyboardInterrupt:
                    print(f"poker: {where}interrupted", file=sys.stderr)
                    ok = False
                except Exception as exc:    # a bug, or pyDatalog surprising us: still one line
                    print(f"poker: {where}{type(exc).__name__}: {exc}", file=sys.stderr)
                    ok = False
                sys.stdout.flush()
                failed = failed or not ok
        finally:
            if history is not None:
                history()
        return 1 if failed and not interactive else 0

    def execute(self, line: str) -> bool:
        """Run one line; False when it failed (its error already printed), ReplError to print."""
        if not line or line.startswith("#"):
            return True
        word, _, rest = line.partition(" ")
        if word in self.commands:
            self.commands[word](rest.strip())
            return True
        if word not in self._subcommands() and (line[0] in "?~(" or "(" in line):
            self.query(line[1:] if line.startswith("?") else line)
            return True
        return self.subcommand(line)

    # ---- REPL commands ---------------------------------------------------------------------

    def do_let(self, rest: str) -> None:
        """Bind a name to cards; the cards are read now so that a typo shows at once."""
        name, sep, cards = rest.partition("=")
        if not sep:
            name, _, cards = rest.partition(" ")
        name, cards = name.strip(), cards.strip().strip("'\"")
        if not (loader.PREDICATE.match(name) and "__" not in name) or name in ("_",):
            raise ReplError(f"let: {name!r} is not a hand name (a lower-case letter, then letters, digits, _)")
        try:
            ids = self.engine.cards(cards)
        except InvalidCards as exc:
            raise ReplError(f"let {name}: {exc}") from None
        self.hands[name] = cards
        print(f"{name} = {self._show(ids)}")

    def do_unlet(self, rest: str) -> None:
        for name in rest.split():
            if self.hands.pop(name, None) is None:
                raise ReplError(f"unlet: no hand named {name!r}")

    def do_hands(self, rest: str) -> None:
        for name, cards in sorted(self.hands.items()):
            try:
                shown = self._show(self.engine.cards(cards))
            except InvalidCards:                    # a reload changed the notation
                shown = f"{cards!r} (no longer readable)"
            print(f"{name} = {shown}")

    def do_preds(self, rest: str) -> None:
        """List name/arity with the labels of its clauses, so a user sees what to query and why."""
        labels: dict[str, list[str]] = {}
        arity: dict[str, str] = {}
        for clause in self.engine.ruleset.clauses:
            labels.setdefault(clause.head, [])
            if clause.label not in labels[clause.head]:
                labels[clause.head].append(clause.label)
            arity[clause.head] = _signature(clause)
        rows = [(f"{name}{arity[name]}", " ".join(labels[name])) for name in sorted(labels)]
        rows += [(f"{name}/{n}", "(input fact, asserted by the engine)") for name, n in INPUT_FACTS.items()]
        rows = [r for r in rows if rest.lower() in r[0].lower()]
        if not rows:
            raise ReplError(f"preds: no predicate contains {rest!r}")
        width = max(len(r[0]) for r in rows)
        for signature, text in rows:
            print(f"{signature:<{width}}  {text}")
        if not rest:
            print("(each rule predicate p also has p__why(..., Label): the label of the clause that gave it)")

    def do_reload(self, rest: str) -> None:
        """Build a new engine from the rule files; on error keep the old one."""
        old = cli._engines.pop(self.rules_key, None)
        try:
            self.engine = cli.load_engine(argparse.Namespace(rules=self.rules_key))
        except Exception as exc:    # a rule error, or pyDatalog refusing what the loader accepted
            if old is not None:
                cli._engines[self.rules_key] = old
            reason = exc if isinstance(exc, (loader.RuleError, OSError)) else f"{type(exc).__name__}: {exc}"
            raise ReplError(f"reload failed, the old rules stay loaded: {reason}") from None
        self.parser = cli.build_parser()
        print(f"reloaded {self.engine.name}: {len(self.engine.ruleset.clauses)} clauses "
              f"from {len(self.engine.ruleset.files)} files")

    def do_help(self, rest: str) -> None:
        if not rest:
            print(HELP)
            names = sorted(self._subcommands())
            print("subcommands: " + ", ".join(n for n in names if n != "repl"))
            return
        if rest not in self._subcommands():
            raise ReplError(f"help: no subcommand {rest!r}")
        self.subcommand(f"{rest} --help")

    # ---- subcommands -----------------------------------------------------------------------

    def _subcommands(self) -> dict[str, argparse.ArgumentParser]:
        for action in self.parser._subparsers._group_actions if self.parser._subparsers else []:
            if isinstance(action, argparse._SubParsersAction):
                return dict(action.choices)
        return {}

    def subcommand(self, line: str) -> bool:
        """Parse with the CLI's parser, then run through cli.main so errors look as on the shell."""
        try:
            argv = shlex.split(line)
        except ValueError as exc:
            raise ReplError(f"cannot read the line: {exc}") from None
        captured = io.StringIO()
        try:
            with contextlib.redirect_stderr(captured):
                args = self.parser.parse_args(argv)
        except SystemExit as exc:
            if exc.code in (0, None):       # --help printed its text
                return True
            errors = [l for l in captured.getvalue().splitlines() if "error:" in l]
            message = errors[-1].split("error:", 1)[1].strip() if errors else "bad arguments"
            if argv and argv[0] not in self._subcommands() and not argv[0].startswith("-"):
                message = f"unknown command {argv[0]!r} (help lists them)"
            raise ReplError(message) from None
        if args.command == "repl":
            raise ReplError("already in the REPL")
        prefix = [] if args.rules else ["--rules", self.rules_key]
        try:
            status = cli.main(prefix + argv)
        except SystemExit as exc:           # a run function that exits by itself
            status = exc.code if isinstance(exc.code, int) else 1
        except Exception as exc:            # never a traceback
            raise ReplError(f"{argv[0]}: {type(exc).__name__}: {exc}") from None
        return status == 0

    # ---- raw Datalog queries ---------------------------------------------------------------

    def query(self, text: str) -> None:
        """Check, build and ask a query; print one line per answer (or yes / no)."""
        node, names = self.compile(text)
        try:
            cards = [self.engine.cards(self.hands[n]) for n in names]
        except InvalidCards as exc:                 # a reload changed the notation
            raise ReplError(f"query: {exc}") from None
        with self.engine.sets(*cards) as ids:
            node = _Substitute(dict(zip(names, ids))).visit(node)
            with self.engine._context():
                try:
                    body = pyParser.Body(loader._Builder(None).body(node))   # type: ignore[arg-type]
                    variables = list(body._variables().keys())
                    data = body.ask()
                except Exception as exc:        # pyDatalog: undefined predicate, unsafe query …
                    raise ReplError(_datalog_error(exc)) from None
        rows = [] if not data else [()] if data is True else list(data)
        if not variables or not rows:
            print("yes" if rows else "no")
            return
        for row in sorted(set(rows), key=_row_key):
            print(", ".join(f"{var} = {value}" for var, value in zip(variables, row)))

    def compile(self, text: str) -> tuple[ast.expr, list[str]]:
        """The checked tree of a query and the hand names it uses; ReplError when refused."""
        try:
            node = ast.parse(text.strip(), mode="eval").body
        except SyntaxError as exc:
            raise ReplError(f"query: syntax error: {exc.msg}") from None
        checked = _WhyToBase().visit(copy.deepcopy(node))
        try:
            loader._Checker(Path("query")).body(checked)
        except loader.RuleError as exc:
            raise ReplError(f"query refused: {str(exc).split(': ', 1)[-1]}") from None
        names: list[str] = []
        for term in _term_names(node):
            if loader.VARIABLE.match(term):
                continue
            if term not in self.hands:
                raise ReplError(f"query: no hand named {term!r} (bind it with let {term} = CARDS)")
            if term not in names:
                names.append(term)
        return node, names

    def _show(self, ids: list[int]) -> str:
        try:
            return self.engine.notation.format(ids) or "(empty)"
        except Exception:
            return " ".join(map(str, ids)) or "(empty)"


# ---- query helpers -------------------------------------------------------------------------


class _WhyToBase(ast.NodeTransformer):
    """Rename p__why(...) literals to p(...) so the whitelist (which refuses dunders) checks p."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id.endswith(loader.WHY):
            node.func = ast.Name(id=func.id[: -len(loader.WHY)], ctx=ast.Load())
        return node


def _term_names(node: ast.AST) -> list[str]:
    """Names in term positions (not predicate or function names), in order."""
    out: list[str] = []

    def walk(n: ast.AST) -> None:
        if isinstance(n, ast.Call):
            for a in n.args:
                walk(a)
            for kw in n.keywords:
                walk(kw.value)
        elif isinstance(n, ast.Subscript):
            walk(n.slice)
        elif isinstance(n, ast.Name):
            out.append(n.id)
        else:
            for child in ast.iter_child_nodes(n):
                walk(child)

    walk(node)
    return out


class _Substitute(ast.NodeTransformer):
    """Replace hand names in term positions by the ids of the sets asserted for them."""

    def __init__(self, ids: dict[str, int]):
        self.ids = ids

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node.args = [self.visit(a) for a in node.args]
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        node.slice = self.visit(node.slice)
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.ids:
            return ast.copy_location(ast.Constant(self.ids[node.id]), node)
        return node


def _datalog_error(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    if "without definition" in text:
        name = text.rsplit(":", 1)[-1].strip()
        return f"query: no predicate {name} in the loaded rules (preds lists them)"
    return f"query failed: {text or type(exc).__name__}"


def _row_key(row: tuple) -> list[tuple[int, Any, str]]:
    return [(0, v, "") if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, 0, str(v))
            for v in row]


def _signature(clause: loader.Clause) -> str:
    node = clause.node
    if isinstance(node, ast.Compare):
        node = node.left
    if isinstance(node, ast.Subscript):
        keys = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return f"[{len(keys)}] (function)"
    return f"/{len(node.args)}" if isinstance(node, ast.Call) else ""


# ---- history -------------------------------------------------------------------------------


def _open_history() -> Callable[[], None] | None:
    """Load the readline history; return the function that saves it (None without readline)."""
    try:
        import readline
    except ImportError:
        return None
    path = Path(os.environ.get(HISTORY_ENV) or HISTORY_DEFAULT).expanduser()
    readline.set_history_length(1000)
    with contextlib.suppress(OSError):
        readline.read_history_file(path)

    def save() -> None:
        with contextlib.suppress(OSError):
            readline.write_history_file(path)
    return save
