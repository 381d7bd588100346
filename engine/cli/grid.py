"""`poker range`: which starting hands a range holds, as the 13x13 grid (engine.equity.grid); and the grid
of `poker equity --grid` (its options and its output, shared).  Not named range.py: the package
would then hold `range`, hiding the builtin in engine.cli."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from engine.cli.common import (
    CommandError,
    add_json_option,
    add_rules_option,
    load_engine,
    print_json,
)
from engine.equity.grid import Grid, range_grid, use_color
from engine.io.atomic import atomic_write, check_writable

GRID_FILES = (".svg", ".html", ".htm")


def register(sub: Any) -> None:
    p = sub.add_parser("range", help="which starting hands a range holds, as the 13x13 grid "
                                     "(pairs on the diagonal, suited above, offsuit below)")
    p.add_argument("text", metavar="RANGE", help="a range: 'QQ+,AKs,T9s-65s,22-55,A2s-A5s', AhKh, random")
    p.add_argument("-o", "--output", metavar="FILE", help="also write the grid to FILE.svg or FILE.html")
    add_color_option(p)
    add_json_option(p, '{"range", "hands", "cells": [{"hand", "held", "of"}]} (the cells it holds)')
    add_rules_option(p)
    p.set_defaults(run=run_range)


def add_color_option(parser: argparse.ArgumentParser) -> None:
    """--color: ANSI colours on a terminal (auto: when stdout is one and NO_COLOR is not set)."""
    parser.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                        help="colour the grid: auto (default: on a terminal, unless NO_COLOR is set), always, never")


def grid_file(text: str | None) -> Path | None:
    """The file a grid goes to, checked before any work (its kind, and that it can be written)."""
    if not text:
        return None
    path = Path(text)
    if path.suffix.lower() not in GRID_FILES:
        raise CommandError(f"the grid is written as FILE.svg or FILE.html, not {text!r}")
    check_writable(path)
    return path


def show_grid(grid: Grid, args: argparse.Namespace, path: Path | None) -> None:
    """The grid on stdout (coloured as --color says), and to ``path`` atomically."""
    color = use_color(args.color, sys.stdout.isatty(), dict(os.environ))
    print(grid.text(color))
    print("\n".join(grid.summary()))
    if path is not None:
        write_grid(grid, path)
        print(f"written: {path}")


def write_grid(grid: Grid, path: Path) -> None:
    """The grid as SVG or HTML (by the file's suffix), written atomically."""
    atomic_write(path, grid.svg() if path.suffix.lower() == ".svg" else grid.html())


def run_range(args: argparse.Namespace) -> int:
    path = grid_file(args.output)
    grid = range_grid(load_engine(args), args.text)
    if args.json:
        if path is not None:
            write_grid(grid, path)
        print_json({"range": args.text, "hands": sum(c.held for c in grid.cells()),
                    "cells": [{"hand": c.label, "held": c.held, "of": c.total} for c in grid.held()]})
        return 0
    show_grid(grid, args, path)
    return 0
