"""The judging subcommands: rank, beat (with --explain), judge (batches: YAML, JSON, JSON Lines)."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from engine.cli import history
from engine.cli.common import (
    CommandError,
    add_json_option,
    add_rules_option,
    clear_progress,
    load_engine,
    one_line,
    print_json,
    progress,
)
from engine.io import fights as batch
from engine.io.atomic import atomic_writer, check_writable
from engine.io.results import (
    Block,
    write_results,
)
from engine.judge import Judge, columnar
from engine.judging.explain import explain_fight, explain_hand, fault
from engine.judging.hilo import low_half
from engine.poker.notation import InvalidCards, show

STDIN = "-"
WARNINGS = 10            # warnings printed by a batch; the rest are counted
CHECK_HINT = "poker check tests the rules on every hand"
SPOOL_BYTES = 32 << 20      # results for stdout are kept in memory up to this, then in a temporary file


def register(sub: Any) -> None:
    p = sub.add_parser("rank", help="the category and the spec's rank of a hand (of more than five "
                                    "cards: of the five that play)")
    p.add_argument("hand", nargs="+", help="a hand, e.g. 'AH KH QH JH TH' (or its cards as arguments); "
                                           "6 or 7 cards: the best five of them (hold'em)")
    add_game_option(p, "of more than five cards: the first two (omaha: four) are the player's own")
    add_json_option(p, '{"hand", "rank", "category"} (and "best": the five that play)')
    add_rules_option(p)
    p.set_defaults(run=run_rank)

    p = sub.add_parser("beat", help="judge a fight of 2..10 hands, or a showdown (--board)")
    p.add_argument("hands", nargs="+", metavar="HAND",
                   help="two to ten hands, each one argument (with --board: each player's own cards)")
    p.add_argument("--board", metavar="CARDS", help="the board's 3 to 5 cards, shared by every player: "
                                                    "each plays the best five of their cards and the board")
    add_game_option(p, "with --board")
    add_json_option(p, '{"result", "winners", "ranks", "categories"} (and "best", "explain")')
    p.add_argument("--explain", action="store_true",
                   help="print the axioms that ranked each hand and decided the fight")
    add_rules_option(p)
    p.set_defaults(run=run_beat)

    p = sub.add_parser("judge", help="judge a batch of fights (YAML, JSON or JSON Lines)")
    p.add_argument("file", help="YAML with `fights:`, a list of {id: optional, hands: [HAND, ...]}; "
                                'JSON {"fights": [...]}; or JSON Lines, one fight a line '
                                "(by the extension .yaml .json .jsonl, else by the content); "
                                "or hand histories (PHH: .phh, .phhs): every pot paid out; - reads stdin")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write the results here (atomically); default (or -) stdout")
    add_json_option(p, '{"results": [...]} (the same as --format json)')
    p.add_argument("--format", choices=batch.OUTPUT_FORMATS, default=None,
                   help="output format (default: by OUT's extension .yaml .json .jsonl, else yaml); "
                        "jsonl: one result a line")
    p.add_argument("--plain", action="store_true",
                   help="ask pyDatalog, the reference interpreter, fight by fight: a few dozen fights a "
                        "second, to compare with the compiled rules (to avoid the table: --no-table)")
    p.add_argument("--strict", action="store_true",
                   help="a fight with a key other than id, hands, board, game is invalid (else: a warning)")
    p.add_argument("--no-table", action="store_true",
                   help="ask the compiled rules about every fight, never the five-card table (for comparison)")
    p.add_argument("--explain", action="store_true",
                   help="hand histories: name the axiom that decides each showdown against each loser (slower)")
    add_rules_option(p)
    p.set_defaults(run=run_judge)


def add_game_option(p: argparse.ArgumentParser, when: str) -> None:
    p.add_argument("--game", default="holdem", metavar="GAME",
                   help=f"holdem (any five of the player's cards and the board) or omaha (exactly two of "
                        f"the player's four and three of the board), their split-pot games holdem-hilo and "
                        f"omaha-hilo, or another game the rules name; {when} "
                        "(default holdem)")


def run_rank(args: argparse.Namespace) -> int:
    engine = load_engine(args)
    hand = " ".join(args.hand).strip()
    if not hand or not engine.cards(hand):
        raise CommandError("no cards given (a hand is five cards, e.g. poker rank AH KH QH JH TH)")
    if len(engine.cards(hand)) > 5:
        best = engine.best_five(hand, game=args.game)
        if args.json:
            print_json({"hand": engine.notation.format(engine.cards(hand)), "best": best.text,
                        "rank": best.rank, "category": best.category})
        else:
            print(f"{best.category} (rank {best.rank}): {best.text}")
        return 0
    found = fault(engine, [hand])
    if found is not None:
        raise CommandError(f"{found}; {CHECK_HINT}")
    category = engine.category(hand)
    rank = engine.get_rank(hand)
    if args.json:
        print_json({"hand": engine.notation.format(engine.cards(hand)), "rank": rank, "category": category})
    else:
        print(f"{category} (rank {rank})")
    return 0


def run_beat(args: argparse.Namespace) -> int:
    engine = load_engine(args)
    hands = args.hands
    for i, hand in enumerate(hands):
        if not hand.strip():
            raise CommandError(f"hand {i + 1} is empty: no cards given")
    if args.board is not None or engine.games.get(args.game) in engine.boardless:    # stud: no board
        return _showdown(engine, args)
    if args.explain and len(hands) == 2 and not engine.valid_fighting(*hands):
        for line in explain_fight(engine, *hands).lines():   # show why, then fail
            print(line)
    if not 2 <= len(hands) <= 10:
        raise CommandError("a fight takes 2 to 10 hands")
    v = engine.fights([hands])[0]
    if v.fault:                                   # the rules' own fault: which clauses gave what
        found = fault(engine, hands)
        raise CommandError(f"not a valid fight: {found}; {CHECK_HINT}" if found else v.error)
    if v.error:
        raise InvalidCards(v.error)
    result, winners = v.result, list(v.winners)
    why = _explain(engine, hands, winners) if args.explain else None
    if args.json:
        data = {"result": result, "winners": winners, "ranks": list(v.ranks),
                "categories": [engine.categories.get(r) for r in v.ranks]}
        if why:
            data["explain"] = why
        print_json(data)
        return 0
    print(result)
    print("winners: " + ", ".join(f"{i + 1} ({show(hands[i])})" for i in winners))
    if why:
        print("\n".join(why))
    return 0


def _showdown(engine, args: argparse.Namespace) -> int:
    """`poker beat --board`: the rules' winners and each player's five that play."""
    hands = args.hands
    if not 2 <= len(hands) <= 10:
        raise CommandError("a showdown takes 2 to 10 players")
    v = engine.showdown(hands, args.board, args.game)
    if v.error:
        raise InvalidCards(v.error)
    best = [engine.notation.format(b) for b in v.best]
    categories = [engine.categories.get(r) for r in v.ranks]
    why: list[str] = []
    if args.explain:
        first = v.winners[0]
        for i in range(len(hands)):
            if i != first:
                w = explain_fight(engine, v.best[first], v.best[i], order=True)
                why.append(f"player {first + 1} vs player {i + 1}: {w.axiom}: {w.detail}")
    low = None
    if v.low is not None:                         # a split pot: the low half, by its own rule set
        lows, half = low_half(engine, engine.games[args.game], v)
        low = {"rules": lows.name, **half}
    if args.json:
        data = {"result": v.result, "winners": list(v.winners), "ranks": list(v.ranks), "categories": categories,
                "best": best, "board": engine.notation.format(engine.cards(args.board or "")), "game": args.game}
        if low is not None:
            data["low"], data["shares"] = low, [str(x) for x in v.shares]
        if why:
            data["explain"] = why
        print_json(data)
        return 0
    print(v.result)
    print(("high: " if low else "") + "winners: " + ", ".join(f"{i + 1} ({show(hands[i])})" for i in v.winners)
          + (" (a split pot)" if len(v.winners) > 1 else ""))
    for i, (five, category, rank) in enumerate(zip(best, categories, v.ranks), 1):
        print(f"player {i} ({show(hands[i - 1])}): {five}: {category} (rank {rank})")
    if low is not None:
        print(f"low ({low['rules']}): " + ("winners: " + ", ".join(f"{i + 1} ({show(hands[i])})" for i in v.low)
                                          if v.low else "no player qualifies: the high hand takes the whole pot"))
        for i, (five, category, rank) in enumerate(zip(low["best"], low["categories"], v.low_ranks), 1):
            print(f"player {i} ({show(hands[i - 1])}): {five}: {category} (rank {rank})")
        print("shares of the pot: " + ", ".join(f"player {i} {x}" for i, x in enumerate(v.shares, 1)))
    if why:
        print("\n".join(why))
    return 0


def _explain(engine, hands: list[str], winners: list[int]) -> list[str]:
    """Each hand's rank axiom, then the fight: for 3+ hands, the (first) winner against each other."""
    if len(hands) == 2:
        return explain_fight(engine, *hands).lines()
    lines = [f"hand {i + 1} ({h.hand}): {h.category}, rank {h.rank} by {', '.join(h.axioms)}"
             for i, h in enumerate(explain_hand(engine, x) for x in hands)]
    best = winners[0]
    for i, other in enumerate(hands):
        if i != best:
            why = explain_fight(engine, hands[best], other)
            lines.append(f"hand {best + 1} vs hand {i + 1}: {why.axiom}: {why.detail}")
    return lines


def read_fights(path: Any, fmt: str | None = None) -> Iterator[Any]:
    """The fights of a batch (YAML, JSON or JSON Lines; ``-``: stdin; or a stream, of ``fmt`` when
    given), read as they are judged; a CommandError naming the file (and line) when it cannot be
    read (see engine.io.fights)."""
    try:
        return batch.read_fights(path, fmt)
    except batch.BatchError as exc:
        raise CommandError(str(exc)) from None


def open_lines(path: Any) -> batch.Opened | None:
    """The batch opened, when it is JSON Lines read as bytes (what engine.judge.columnar reads in
    blocks); else None, and nothing is left open.  A CommandError when it cannot be read."""
    try:
        opened = batch.open_batch(path)
    except batch.BatchError as exc:
        raise CommandError(str(exc)) from None
    if opened.fmt == "jsonl" and isinstance(opened.stream.read(0), bytes):
        return opened
    opened.close()
    return None


def open_stream(stream: Any, columns: bool) -> tuple[batch.Opened | None, Iterator[Any] | None]:
    """(stdin opened as JSON Lines in bytes, for engine.judge.columnar, or None; else its fights,
    read row by row): its format sniffed once from its start, which is put back."""
    try:
        opened = batch.open_batch(stream)
    except batch.BatchError as exc:
        raise CommandError(str(exc)) from None
    if columns and opened.fmt == "jsonl" and isinstance(opened.stream.read(0), bytes):
        return opened, None
    return None, read_fights(opened.stream, opened.fmt)


def output_format(args: argparse.Namespace) -> str:
    """--format, else --json, else the output's extension (.yaml .yml .json .jsonl .ndjson), else
    YAML; a clash between any two of them is a one-line error."""
    said = {name: form for name, form in (("--json", "json" if args.json else None),
                                          (f"--format {args.format}", args.format)) if form}
    named = batch.format_of(args.output) if args.output not in (None, STDIN) else None
    if named:
        said[f"the output's name {Path(args.output).name}"] = named
    if len(set(said.values())) > 1:
        raise CommandError(f"{' and '.join(said)} disagree on the output format: choose one")
    return next(iter(said.values()), "yaml")


def check_output(path: str | None) -> Path | None:
    """The output path, after checking that it can be written (CommandError naming it)."""
    if path is None or path == STDIN:
        return None
    try:
        check_writable(path)
    except OSError as exc:
        raise CommandError(f"{path}: cannot write: {exc.strerror}") from None
    return Path(path)


def write_output(output: Path | None, results: Iterator[dict], form: str) -> None:
    """Write a batch's results as they are judged: to a temporary file beside OUT that replaces it
    at the end, or, for stdout, to a spool copied out at the end, so that a batch that fails
    halfway (a syntax error further on, Ctrl-C, the time budget) writes nothing."""
    try:
        if output is not None:
            try:
                with atomic_writer(output) as stream:
                    write_results(stream, results, form)
            except OSError as exc:
                raise CommandError(f"{output}: cannot write: {exc.strerror or exc}") from None
        else:
            with tempfile.SpooledTemporaryFile(SPOOL_BYTES, mode="w+", encoding="utf-8") as spool:
                write_results(spool, results, form)
                clear_progress()
                spool.seek(0)
                shutil.copyfileobj(spool, sys.stdout, 1 << 20)
            sys.stdout.flush()
    except batch.BatchError as exc:
        raise CommandError(str(exc)) from None


def run_judge(args: argparse.Namespace) -> int:
    form = output_format(args)
    output = check_output(args.output)          # a typo in OUT shows before any judging
    name, phh, source = history.open_phh(args.file)
    if phh is not None:                         # hand histories (PHH): each hand's pots, paid out
        start = time.perf_counter()
        histories, hands = history.histories(args, name, phh, dumped=True)
        write_output(output, histories.judge(hands, progress=progress(None, "judging", "hand"), name=name), form)
        clear_progress()
        print(f"{histories.summary()}, time: {time.perf_counter() - start:.2f} s", file=sys.stderr)
        return 0
    # JSON Lines: read in blocks, the fights the table answers judged by array lookups
    # (engine.judge.columnar).  A file of no known extension is sniffed here only when it is a regular
    # file (read again if it is no JSON Lines); stdin and pipes once, by the reader that reads them.
    named = batch.format_of(source) if isinstance(source, str) and source != STDIN else "stdin"
    columns = not (args.plain or args.no_table)
    if isinstance(source, str):
        lines = open_lines(source) if columns and (named == "jsonl" or named is None and Path(source).is_file()) \
            else None
        fights = read_fights(source) if lines is None else None     # opened and read up to the first fight
    else:                                       # stdin as bytes: its format told once, by its start
        lines, fights = open_stream(source, columns)
    # YAML laid out one fight a line (as bench/bench_million.py writes it): read in blocks too
    # (a regular file only: it may be read again from its start, engine.judge.columnar.judge_yaml)
    yaml_file = source if fights is not None and named == "yaml" and not (args.plain or args.no_table) \
        and Path(source).is_file() else None
    if yaml_file is not None:
        fights.close()                          # its start read: a file that cannot be read said so
    engine = load_engine(args)
    start = time.perf_counter()
    counts = {"fights": 0, "invalid": 0, "warned": 0, "fault": 0}

    def warn(line: str) -> None:                # the first few on stderr, the rest counted
        counts["warned"] += 1
        if counts["warned"] <= WARNINGS:
            clear_progress()
            print(f"poker: warning: {one_line(line)}", file=sys.stderr)

    judge = Judge(engine, engine.reference if args.plain else None, table=False if args.no_table else None,
                  strict=args.strict, warn=warn)

    def results() -> Iterator[Any]:
        ticker = _Ticker(None, "judging", "fight")
        judged = columnar.judge_lines(judge, lines.stream, lines.name, progress=ticker) if lines is not None \
            else columnar.judge_yaml(judge, yaml_file, progress=ticker) if yaml_file is not None \
            else judge.judge(fights, progress=ticker)
        for r in judged:
            if type(r) is Block:
                counts["fights"] += len(r)
                yield r
                continue
            counts["fights"] += 1
            counts["invalid"] += bool(r.error)
            counts["fault"] += r.fault
            yield r.as_dict()

    try:
        write_output(output, results(), form)
    finally:
        if lines is not None:
            lines.close()
    clear_progress()
    n, invalid = counts["fights"], counts["invalid"]
    how = ", ".join(judge.used) or judge.evaluator(1).name
    elapsed = time.perf_counter() - start
    if counts["warned"] > WARNINGS:
        print(f"poker: warning: {counts['warned'] - WARNINGS} more fights with unknown keys", file=sys.stderr)
    faulty = f" ({counts['fault']} by the rules' fault)" if counts["fault"] else ""
    print(f"fights: {n}, judged: {n - invalid}, invalid: {invalid}{faulty}, "
          f"time: {elapsed:.2f} s ({how})", file=sys.stderr)
    if counts["fault"]:
        rules = f" --rules {args.rules}" if getattr(args, "rules", None) else ""
        print(f"poker: warning: {counts['fault']} fights are invalid by the rules' fault: a hand with no value "
              f"or several of a predicate that should have one (each fight's error names it); "
              f"`poker{rules} check` tests the rules on every hand", file=sys.stderr)
    return 0


class _Ticker:
    """A progress function whose bar opens at the first tick, after any bar before it closed."""

    def __init__(self, total: int, what: str, unit: str):
        self.args = (total, what, unit)
        self.update: Callable[[int], None] | None = None
        self.started = False

    def __call__(self, n: int) -> None:
        if not self.started:
            self.started = True
            self.update = progress(*self.args)
        if self.update is not None:
            self.update(n)
