"""`poker example`: the sample batch of fights, which travels with the package (examples/)."""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from engine.cli.common import CommandError
from engine.io.atomic import atomic_writer, check_writable

FIGHTS = "fights.yaml"


def register(sub: Any) -> None:
    p = sub.add_parser("example", help="print the sample batch of fights (the documents' fights and Project "
                                       "Euler 54's), to judge with `poker judge`")
    p.add_argument("-o", "--output", metavar="FILE", help="write it to FILE (atomically) instead of stdout")
    p.set_defaults(run=run_example)


def example_text() -> str:
    """The sample fights file: the installed package data, or the checkout's examples/."""
    try:
        return resources.files("engine.examples").joinpath(FIGHTS).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        path = Path(__file__).resolve().parents[2] / "examples" / FIGHTS
        try:
            return path.read_text(encoding="utf-8")
        except OSError:
            raise CommandError(f"the sample fights ({FIGHTS}) are not installed with this package") from None


def run_example(args: argparse.Namespace) -> int:
    text = example_text()
    if args.output is None:
        sys.stdout.write(text)
        return 0
    check_writable(args.output)
    with atomic_writer(args.output) as f:
        f.write(text)
    print(f"wrote {args.output}: judge it with `poker judge {args.output}`", file=sys.stderr)
    return 0
