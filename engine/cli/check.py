"""`poker check`: the proof obligations of the rules over all hands (engine.check), as a table."""

from __future__ import annotations

import argparse
from typing import Any, Callable

from ..check import EXPECTED, check
from .common import CommandError, add_json_option, add_rules_option, clear_progress, load_engine, print_json, progress


def register(sub: Any) -> None:
    p = sub.add_parser("check", help="discharge the proof obligations over all 2,598,960 hands")
    add_json_option(p, '{"total", "frequencies", "obligations": {name: {"holds", "counterexample"}}}')
    p.add_argument("--samples", type=int, default=100_000, metavar="N",
                   help="sampled fights and triples for antisymmetry and transitivity (default 100000)")
    p.add_argument("--reference-samples", type=int, default=10, metavar="N",
                   help="fights (and their hands) also asked of pyDatalog, to compare the evaluators, "
                        "each within one category in turn (default 10: one per category)")
    p.add_argument("--seed", type=int, default=0, help="seed of the samples (default 0)")
    add_rules_option(p)
    p.set_defaults(run=run_check)


def run_check(args: argparse.Namespace) -> int:
    if args.samples < 1 or args.reference_samples < 0:
        raise CommandError("--samples must be at least 1 and --reference-samples at least 0")
    engine = load_engine(args)
    report = check(engine, args.samples, args.reference_samples, args.seed, progress=_bar)
    clear_progress()
    if args.json:
        print_json(report.as_dict())
    else:
        print(f"rules: {report.rules}; {report.total:,} hands; {report.method}; {report.seconds:.1f} s")
        print(f"{'category':<18}{'hands':>12}{'expected':>12}")
        for category, count in sorted(report.frequencies.items(), key=lambda kv: -EXPECTED.get(kv[0], 0)):
            mark = "" if EXPECTED.get(category) == count else "   <-- differs"
            print(f"{category:<18}{count:>12,}{EXPECTED.get(category, 0):>12,}{mark}")
        print()
        for o in report.obligations:
            print(f"{'holds ' if o.holds else 'FAILS '} {o.name} ({o.checked})")
            if not o.holds:
                print(f"       counterexample: {o.counterexample}")
    return 0 if report.ok else 1


def _bar(what: str, total: int) -> Callable[[int], None]:
    """engine.check's progress: a bar per stage on a terminal (each clears the one before)."""
    return progress(total, what) or _nothing


def _nothing(n: int) -> None:
    pass
