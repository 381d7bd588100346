"""`poker role`: the Doukaku role judge (engine.judging.roles), one code per input."""

from __future__ import annotations

import argparse
from typing import Any

from engine.cli.common import (
    CommandError,
    add_json_option,
    add_rules_option,
    error,
    load_engine,
    print_json,
    warning,
)
from engine.judging.roles import DEFAULT_PROBLEM, judge


def register(sub: Any) -> None:
    p = sub.add_parser(
        "role", help="the Doukaku role code of five cards, one line per input",
        description="Print the role code of each input, one per line. The first problem (default): "
                    "4K FH 3K 2P 1P, else --. --rest: RF SF FL ST 4SF 4F 4S, else -. --all: the "
                    "Alloy model's list RF SF FL ST 4SF 4F 4S 4K FH 3K 2P 1P, else --. "
                    "Cards suit first (D3C3C10D10S3) or rank first (Qs9s3dJd10h).")
    p.add_argument("inputs", nargs="+", metavar="STRING", help="five cards, e.g. D3C3C10D10S3 or Qs9s3dJd10h")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--rest", dest="problem", action="store_const", const="rest",
                       help="the follow-up problem: straights, flushes, four-card draws")
    which.add_argument("--all", dest="problem", action="store_const", const="all",
                       help="the Alloy model's combined list")
    p.set_defaults(problem=DEFAULT_PROBLEM)
    add_json_option(p, 'a list of {"input", "code"} (with "warnings" or "error"), one per input')
    add_rules_option(p)
    p.set_defaults(run=run_role)


def run_role(args: argparse.Namespace) -> int:
    """Print one code per judged input; errors and warnings go to stderr, one line each."""
    engine = load_engine(args)
    try:
        verdicts = judge(engine, args.inputs, args.problem)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    status = 0
    for verdict in verdicts:
        for message in verdict.warnings:
            warning(f"{verdict.text!r}: {message}")
        if verdict.error is not None:
            error(verdict.error)
            status = 2
        elif not args.json:
            print(verdict.code)
    if args.json:
        print_json([_as_dict(v) for v in verdicts])
    return status


def _as_dict(verdict: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"input": verdict.text, "code": verdict.code}
    if verdict.warnings:
        out["warnings"] = list(verdict.warnings)
    if verdict.error is not None:
        out["error"] = verdict.error
    return out
