"""`poker equity`: each player's share of the pot over every completion of the board (engine.equity)."""

from __future__ import annotations

import argparse
from typing import Any, Callable

from engine.cli.common import (
    CommandError,
    add_json_option,
    add_rules_option,
    load_engine,
    print_json,
    progress,
)
from engine.cli.grid import add_color_option, grid_file, show_grid, write_grid
from engine.equity import equity
from engine.equity.grid import equity_grid
from engine.equity.stud import stud_equity
from engine.notices import say
from engine.poker.notation import InvalidCards


def register(sub: Any) -> None:
    p = sub.add_parser("equity", help="each player's win, tie and equity over every way the board "
                                      "can be completed (exact when feasible, else sampled); cards or ranges")
    p.add_argument("holes", nargs="+", metavar="HAND", help="each player's own cards (hold'em: two; omaha: "
                                                            "four; stud: the 1 to 7 known) or range, one "
                                                            "argument each: AhKh, "
                                                            "'QQ+,AKs,T9s-65s,22-55,A2s-A5s', random; "
                                                            "each hand of a range counts the same")
    p.add_argument("--board", metavar="CARDS", help="the board's cards so far (0, 3, 4 or 5)")
    p.add_argument("--dead", metavar="CARDS", help="cards out of play (seen, burnt, folded)")
    p.add_argument("--game", default="holdem", metavar="GAME",
                   help="holdem (default), omaha, or their split-pot games holdem-hilo and omaha-hilo "
                        "(the pot halved with the best eight-or-better low); stud, stud-hilo, and razz "
                        "(with --rules ace-to-five): no board, each player's known cards")
    p.add_argument("--samples", metavar="N", help="sample N completions of the board, or with ranges N deals "
                                                  "(default: every one when feasible, else 200000)")
    p.add_argument("--seed", default="0", metavar="S", help="the seed of the samples (default 0)")
    add_json_option(p, '{"boards", "exact", "seed", "players": [{"hole", "win", "tie", "equity", "stderr"'
                       '[, "hands"]}][, "matchups"]}')
    p.add_argument("--grid", nargs="?", const="", metavar="FILE", help="show each starting hand of the first "
                   "player's range with its equity against the second's, as the 13x13 grid; FILE.svg or "
                   "FILE.html also writes it there (two ranges of hold'em, counted exactly)")
    add_color_option(p)
    add_rules_option(p)
    p.set_defaults(run=run_equity)


def _building(what: str, total: int) -> Callable[[int], None]:
    """The table is being built (not cached yet): a line, and a bar on a terminal."""
    say(f"building the rules' five-card table: {total:,} {what}, asked once (then cached)")
    return progress(total, what) or (lambda n: None)


def _counting() -> Callable[[int, int], None]:
    """A bar on a terminal as two ranges are counted board by board (seconds before the flop)."""
    bar: Callable[[int], None] | None = None
    shown = 0

    def step(done: int, total: int) -> None:
        nonlocal bar, shown
        if bar is None:
            bar = progress(total, "boards") or (lambda n: None)
        bar(done - shown)
        shown = done
    return step


def _count(text: str | None, option: str, least: int) -> int | None:
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise CommandError(f"{option} takes an integer, not {text!r}") from None
    if value < least:
        raise CommandError(f"{option} must be at least {least}, not {value}")
    return value


def run_equity(args: argparse.Namespace) -> int:
    samples = _count(args.samples, "--samples", 1)
    seed = _count(args.seed, "--seed", 0)
    if not 2 <= len(args.holes) <= 10:
        raise CommandError("equity takes 2 to 10 players")
    path = grid_file(args.grid)
    if args.grid is not None and (len(args.holes) != 2 or samples is not None):
        raise CommandError("--grid shows one range against another, counted exactly: two players, no --samples")
    engine = load_engine(args)
    if args.game in engine.games and engine.games[args.game] in engine.boardless:   # stud: no board
        if args.board is not None:
            raise InvalidCards(f"{args.game} has no board: give each player's known cards, and --dead")
        result = stud_equity(engine, args.holes, args.dead, args.game, samples, seed or 0, progress=_building)
        print_json(result.as_dict()) if args.json else print("\n".join(result.lines()))
        return 0
    result = equity(engine, args.holes, args.board, args.dead, args.game, samples, seed or 0, progress=_building,
                    counting=_counting())
    grid = equity_grid(engine, result) if args.grid is not None else None
    if args.json:
        print_json(result.as_dict())
    else:
        print("\n".join(result.lines()))
    if grid is not None and not args.json:
        show_grid(grid, args, path)
    elif grid is not None and path is not None:        # --json: the equity on stdout, the grid to its file
        write_grid(grid, path)
    return 0
