"""`poker repl`: an interactive shell over the loaded rules.

A line is one of:

* a REPL command: ``let NAME = CARDS``, ``unlet NAME``, ``hands``, ``preds [TEXT]``, ``reload``,
  ``help [COMMAND]``, ``quit``;
* a raw Datalog query (``Engine.query``): a line with ``(`` whose first word is no command, or any
  line after ``?``: ``getRank(a, R)``, ``beat(a, b, R) & (R != 0)``, ``getRank__why(a, R, L)``,
  ``? X == 2 + 3``;
* any subcommand of ``poker`` (``rank AH KH QH JH TH``, ``beat "…" "…"``), parsed by the CLI's own
  parser and run as on the shell, so subcommands added later work here unchanged.

Queries are never ``eval``'d (see :mod:`engine.evaluators.pydatalog.query`).  The session follows the protocol of
:class:`~engine.cli.common.LineSession`: with piped stdin there is no prompt and no banner, each
error names its line, and the exit status is 1 if any line failed.  On a terminal, Tab completes
commands, predicates and hand names.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import shlex
from typing import Any, Callable

from engine import interface as I
from engine import limits
from engine.cli.common import (
    LineSession,
    Parser,
    UsageError,
    add_json_option,
    add_rules_option,
    error,
    execute,
    load_session_engine,
    query_budget,
    reload_engine,
    rules_key,
)
from engine.core import Engine
from engine.datalog import loader
from engine.evaluators.pydatalog.query import QueryError, compile_query
from engine.poker.notation import InvalidCards

HISTORY = ("POKER_HISTORY", "~/.poker_history")     # (environment variable, default)
PROMPT = "poker> "
INPUT_FACTS = {"declared": 1, "holds": 3, "seat": 2}   # asserted by the engine, not by rules
QUIT = ("quit", "exit")

HELP = """\
let NAME = CARDS         bind a hand (or any set of cards) to a lower-case name
unlet NAME               forget a name;  hands  lists the names
QUERY                    a Datalog query over named hands, e.g. getRank(a, R)
                         beat(a, b, R)   getRank__why(a, R, L)   member(a, C) & getValue(C, V) & (V > 10)
preds [TEXT]             the predicates of the loaded rules (name/arity and the labels defining them)
reload                   reread the rule files (names stay bound)
timeout [SECONDS]        show or set the time budget of each query (0: none)
SUBCOMMAND ARGS          any `poker` subcommand, e.g. rank AH KH QH JH TH   (help SUBCOMMAND for its options)
quit                     leave (also Ctrl-D)"""


class ReplError(Exception):
    """A failed line: one message, the session goes on."""


def register(sub: Any, build_parser: Callable[[], Parser]) -> None:
    """Add `repl`; ``build_parser`` makes the parser that reads the session's subcommand lines."""
    p = sub.add_parser("repl", help="an interactive shell: subcommands, Datalog queries over named hands, reload",
                       description="An interactive shell. With piped stdin it reads commands without prompts; "
                                   "the exit status is 1 if any line failed.")
    add_json_option(p, "each query's answers as one line, a list of {variable: value}")
    add_rules_option(p)
    p.set_defaults(run=lambda args: run_repl(args, build_parser))


def run_repl(args: argparse.Namespace, build_parser: Callable[[], Parser]) -> int:
    """Run a session on stdin; the exit status is 1 when a piped session had a failing line."""
    session = Session(args, build_parser)
    with LineSession(history=HISTORY, completer=session.complete) as lines:
        return session.loop(lines)


class Session:
    """The state of one REPL: the rule set's engine, the named hands, the CLI's parser."""

    def __init__(self, args: argparse.Namespace, build_parser: Callable[[], Parser]):
        self.rules_key = rules_key(args)
        self.timeout, self.memory = query_budget(args)      # of each query (`timeout N`)
        self.engine: Engine = load_session_engine(args, (self.timeout, self.memory))
        self.json = bool(getattr(args, "json", False))
        self.build_parser = build_parser
        self.parser = build_parser()
        self.hands: dict[str, str] = {}
        self.commands: dict[str, Callable[[str], None]] = {
            "let": self.do_let, "unlet": self.do_unlet, "hands": self.do_hands,
            "preds": self.do_preds, "predicates": self.do_preds, "reload": self.do_reload,
            "help": self.do_help, "timeout": self.do_timeout}
        self._matches: list[str] = []
        self.evaluated = False              # the current line ran the rules (a query, a subcommand)

    # ---- the loop --------------------------------------------------------------------------

    def loop(self, lines: LineSession) -> int:
        if lines.interactive:
            print(f"poker repl, rules {self.engine.name}: `help` for the syntax, Tab completes, Ctrl-D to leave")
        while True:
            try:
                line = lines.read(PROMPT).strip()
            except EOFError:
                if lines.interactive:
                    print()
                break
            except KeyboardInterrupt:
                if not lines.interactive:
                    raise
                print()
                continue
            if line in QUIT:
                break
            with lines.numbered():
                self.evaluated = False
                try:
                    ok = self.execute(line)
                except ReplError as exc:
                    error(str(exc))
                    ok = False
                except KeyboardInterrupt:
                    error("interrupted")
                    ok = False
                except BrokenPipeError:     # the reader left: stop (main exits quietly)
                    raise
                except Exception as exc:    # a bug, or pyDatalog surprising us: still one line
                    error(f"{type(exc).__name__}: {exc}")
                    ok = False
            print(end="", flush=True)
            if not ok and self.evaluated:   # a stopped search leaves its memory in cycles: free it now
                limits.reclaim()            # (not after a line refused before the rules ran: a whole
                                            # collection for nothing, 0.1 s and more in a large process)
            lines.failed = lines.failed or not ok
        return lines.status

    def execute(self, line: str) -> bool:
        """Run one line; False when it failed (its error already printed), ReplError to print."""
        if not line or line.startswith("#"):
            return True
        word, _, rest = line.partition(" ")
        if word in self.commands:
            self.commands[word](rest.strip())
            return True
        if word not in self.parser.commands and (line[0] in "?~(" or "(" in line):
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
        if not (loader.PREDICATE.match(name) and "__" not in name):
            raise ReplError(f"let: {name!r} is not a hand name (a lower-case letter, then letters, digits, _)")
        if _reads_as_cards(self.engine, name):
            raise ReplError(f"let: {name!r} reads as cards ({self._show(self.engine.cards(name))}), and a "
                            "subcommand's arguments take names or cards: choose another name")
        try:
            ids = self.engine.cards(cards)
        except InvalidCards as exc:
            raise ReplError(f"let {name}: {exc}") from None
        self.hands[name] = cards
        if not self.json:
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
        try:
            with limits.budget(self.timeout, self.memory, what="loading the rules"):
                self.engine = reload_engine(self.rules_key)
        except Exception as exc:    # a rule error, or pyDatalog refusing what the loader accepted
            known = (loader.RuleError, OSError, limits.BudgetExceeded)
            reason = exc if isinstance(exc, known) else f"{type(exc).__name__}: {exc}"
            raise ReplError(f"reload failed, the old rules stay loaded: {reason}") from None
        self.parser = self.build_parser()
        print(f"reloaded {self.engine.name}: {len(self.engine.ruleset.clauses)} clauses "
              f"from {len(self.engine.ruleset.files)} files")

    def do_timeout(self, rest: str) -> None:
        """Show or set the time budget of each query."""
        if rest:
            try:
                self.timeout = limits.parse_seconds(rest) or None
            except ValueError as exc:
                raise ReplError(f"timeout: {exc}") from None
        if not self.json:
            print(f"timeout: {self.timeout:g} s per query" if self.timeout else "timeout: none")

    def do_help(self, rest: str) -> None:
        if not rest:
            print(HELP)
            print("subcommands: " + ", ".join(self._subcommands()))
            return
        if rest not in self.parser.commands:
            raise ReplError(f"help: no subcommand {rest!r}")
        self.subcommand(f"{rest} --help")

    def _subcommands(self) -> list[str]:
        return sorted(n for n in self.parser.commands if n != "repl")

    # ---- subcommands -----------------------------------------------------------------------

    def subcommand(self, line: str) -> bool:
        """Parse with the CLI's parser and run it as on the shell (its errors name the line)."""
        try:
            argv = shlex.split(line)
        except ValueError as exc:
            raise ReplError(f"cannot read the line: {exc}") from None
        argv = self._named(argv)
        try:
            args = self.parser.parse_args(argv)
        except UsageError as exc:
            if argv and argv[0] not in self.parser.commands and not argv[0].startswith("-"):
                words = sorted(set(self.commands) | set(self._subcommands()) | set(QUIT))
                near = difflib.get_close_matches(argv[0], words, n=1)
                hint = f"did you mean {near[0]}? " if near else ""
                raise ReplError(f"unknown command {argv[0]!r} ({hint}help lists them)") from None
            command = exc.prog.removeprefix(self.parser.prog).strip()
            raise ReplError(f"{command}: {exc.message}" if command else exc.message) from None
        except SystemExit as exc:           # --help printed its text
            return exc.code in (0, None)
        if args.command == "repl":
            raise ReplError("already in the REPL")
        if getattr(args, "rules", None) is None:
            args.rules = self.rules_key
        self.evaluated = True
        return execute(args) == 0

    def _named(self, argv: list[str]) -> list[str]:
        """A subcommand's arguments with every bound name replaced by its cards (``beat a b``
        after ``let a = …``): its arguments, and the values of its options of cards (``--board
        b``, metavar CARDS); the value of any other option (``--rules a``) stays as written."""
        sub = self.parser.commands.get(argv[0]) if argv else None
        options = {s: a.nargs != 0 and a.metavar != "CARDS"
                   for a in (sub._actions if sub is not None else []) for s in a.option_strings}
        out = argv[:1]
        for before, arg in zip(argv, argv[1:]):
            out.append(self.hands[arg] if arg in self.hands and not options.get(before, False) else arg)
        return out

    # ---- raw Datalog queries ---------------------------------------------------------------

    def query(self, text: str) -> None:
        """Ask a query (Engine.query); print one line per answer (or yes / no)."""
        try:
            names = compile_query(text).hands
        except QueryError as exc:
            hint = _comparison_hint(text)
            raise ReplError(f"query refused: write comparisons in parentheses: {hint}" if hint
                            else _query_message(exc)) from None
        for name in names:
            if name not in self.hands:
                raise ReplError(f"query: no hand named {name!r} (bind it with let {name} = CARDS)")
        self.evaluated = True
        try:
            # pyDatalog is given the rules at the first query: not counted in the query's budget
            with limits.budget(self.timeout, self.memory, what="loading the rules into pyDatalog"):
                self.engine.load_pydatalog()
            with limits.budget(self.timeout, self.memory, what="the query"):
                answers = self.engine.query(text, **{name: self.hands[name] for name in names})
        except limits.BudgetExceeded as exc:
            raise ReplError(str(exc)) from None
        except QueryError as exc:
            raise ReplError(_query_message(exc, self.engine)) from None
        except InvalidCards as exc:                 # a reload changed the notation
            raise ReplError(f"query: {exc}") from None
        if self.json:
            print(json.dumps(answers, ensure_ascii=False))
        elif answers in ([], [{}]):
            print("yes" if answers else "no")
        else:
            cards = _card_variables(text, self.engine)
            for answer in answers:
                print(", ".join(f"{var} = {self._value(value) if var in cards else value}"
                                for var, value in answer.items()))

    def _value(self, value: Any) -> str:
        """A card variable's value: the id the rules hold, and the card it is (``12 (QH)``)."""
        if isinstance(value, int) and value in self.engine.deck:
            return f"{value} ({self._show([value])})"
        return str(value)

    def _show(self, ids: list[int]) -> str:
        try:
            return self.engine.notation.format(ids) or "(empty)"
        except Exception:
            return " ".join(map(str, ids)) or "(empty)"

    # ---- completion ------------------------------------------------------------------------

    def completions(self, text: str, first: bool) -> list[str]:
        """What Tab offers for ``text``: at the start of a line the REPL's commands, the
        subcommands and the predicates; after it the predicates and the named hands.  The
        ``p__why`` predicates are offered once ``__`` is typed."""
        predicates = set(self.engine.ruleset.predicates()) | set(INPUT_FACTS)
        words = set(predicates)
        if "__" in text:
            words |= {p + loader.WHY for p in self.engine.ruleset.predicates()}
        if first:
            words |= set(self.commands) | set(self._subcommands()) | set(QUIT)
        else:
            words |= set(self.hands)
        return sorted(w for w in words if w.startswith(text))

    def complete(self, text: str, state: int) -> str | None:
        """The readline completer: the state-th completion of ``text`` at the cursor."""
        if state == 0:
            try:
                import readline
                before = readline.get_line_buffer()[: readline.get_begidx()].strip()
            except (ImportError, AttributeError):
                before = ""
            self._matches = self.completions(text, first=before in ("", "?"))
        return self._matches[state] if state < len(self._matches) else None


def _reads_as_cards(engine: Engine, name: str) -> bool:
    try:
        return bool(engine.cards(name))
    except InvalidCards:
        return False


def _comparison_hint(text: str) -> str | None:
    """``(R > 5)`` for ``getRank(a, R) & R > 5``: Python reads ``&`` before ``>``, so a comparison
    joined without parentheses compares the conjunction; None when that is not what went wrong."""
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = node.left, node.comparators[0]
            if isinstance(left, ast.BinOp) and isinstance(left.op, ast.BitAnd):
                left = left.right                   # ... & R > 5
            elif isinstance(right, ast.BinOp) and isinstance(right.op, ast.BitAnd):
                right = right.left                  # R > 5 & ...
            else:
                continue
            pair = ast.Compare(left=left, ops=node.ops, comparators=[right])
            return f"({ast.unparse(pair)})"
    return None


def card_positions(clauses: list[loader.Clause]) -> set[tuple[str, int]]:
    """The (predicate, argument) places that hold a card: the input facts' places of cards
    (interface.INPUTS), and every head argument whose variable a body takes from such a place
    (``member(S, C) <= holds(S, I, C)``, then ``straightTop(S, C) <= … member(S, C) …``)."""
    places = {(name, i) for name, meaning in I.INPUTS.items() for i, m in enumerate(meaning) if m == "card"}
    rules = [(c.node.left, c.node.comparators[0]) for c in clauses
             if isinstance(c.node, ast.Compare) and isinstance(c.node.left, ast.Call)]
    grew = True
    while grew:
        grew = False
        for head, body in rules:
            taken = {arg.id for lit in _positive(body) for j, arg in enumerate(lit.args)
                     if isinstance(arg, ast.Name) and (lit.func.id, j) in places}
            for i, arg in enumerate(head.args):
                if isinstance(arg, ast.Name) and arg.id in taken and (head.func.id, i) not in places:
                    places.add((head.func.id, i))
                    grew = True
    return places


def _positive(body: ast.expr) -> list[ast.Call]:
    if isinstance(body, ast.BinOp) and isinstance(body.op, ast.BitAnd):
        return _positive(body.left) + _positive(body.right)
    return [body] if isinstance(body, ast.Call) and isinstance(body.func, ast.Name) else []


def _card_variables(text: str, engine: Engine) -> set[str]:
    """The variables of a query that stand at a place holding a card (``C`` of member(a, C))."""
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return set()
    places = card_positions(engine.ruleset.clauses)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            pred = node.func.id.removesuffix(loader.WHY)
            out |= {arg.id for i, arg in enumerate(node.args) if isinstance(arg, ast.Name) and (pred, i) in places}
    return out


def _query_message(exc: QueryError, engine: Any = None) -> str:
    text = str(exc)
    if text.startswith("refused: "):
        return "query refused: " + text.removeprefix("refused: ")
    if text.startswith("no predicate "):
        near = _nearest(text.removeprefix("no predicate ").split()[0], engine)
        return f"query: {text} ({f'did you mean {near}? ' if near else ''}preds lists them)"
    return f"query: {text}" if not text.startswith("failed:") else f"query {text}"


def _nearest(asked: str, engine: Any) -> str | None:
    """The defined predicate nearest to one asked (``getrank/2`` -> ``getRank/2``), case aside."""
    if engine is None:
        return None
    name, _, arity = asked.partition("/")
    defined = sorted({f"{c.head}{_signature(c)}" for c in engine.ruleset.clauses})
    by_lower = {d.lower(): d for d in defined}
    found = difflib.get_close_matches(f"{name}/{arity}".lower() if arity else name.lower(), list(by_lower), n=1)
    return by_lower[found[0]] if found else None


def _signature(clause: loader.Clause) -> str:
    node = clause.node
    if isinstance(node, ast.Compare):
        node = node.left
    if isinstance(node, ast.Subscript):
        keys = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return f"[{len(keys)}] (function)"
    return f"/{len(node.args)}" if isinstance(node, ast.Call) else ""
