"""`poker check`: the proof obligations of the rules over all hands (engine.check), as a table."""

from __future__ import annotations

import argparse
from typing import Any, Callable

from engine.check import check
from engine.check.seven_card import SHOWDOWN_SAMPLES, check_seven
from engine.cli.common import (
    CommandError,
    add_json_option,
    add_rules_option,
    clear_progress,
    load_engine,
    print_json,
    progress,
)


def register(sub: Any) -> None:
    p = sub.add_parser("check", help="discharge the proof obligations over every five-card hand of the "
                                     "rules' deck (--cards 7: every seven-card hand)")
    p.add_argument("--cards", type=int, choices=(5, 7), default=5,
                   help="5: every five-card hand (default); 7: the best five of every seven cards")
    add_json_option(p, '{"total", "frequencies", "obligations": {name: {"holds", "counterexample"}}}')
    p.add_argument("--samples", type=int, default=None, metavar="N",
                   help="sampled fights and triples for antisymmetry and transitivity (default 100000; "
                        "at most 2000 where beat is proven to be the five-card table's order); "
                        f"--cards 7: seven-card hands asked of the rules' showdown (default {SHOWDOWN_SAMPLES})")
    p.add_argument("--reference-samples", type=int, default=10, metavar="N",
                   help="fights (and their hands) also asked of pyDatalog, to compare the evaluators, "
                        "each within one category in turn (default 10: one per category)")
    p.add_argument("--seed", type=int, default=0, help="seed of the samples (default 0)")
    add_rules_option(p)
    p.set_defaults(run=run_check)


def run_check(args: argparse.Namespace) -> int:
    if (args.samples is not None and args.samples < 1) or args.reference_samples < 0:
        raise CommandError("--samples must be at least 1 and --reference-samples at least 0")
    engine = load_engine(args)
    if args.cards == 7:
        if engine.fallback is not None:
            raise CommandError(f"--cards 7 needs rules that compile to SQL: {engine.fallback}")
        report = check_seven(engine, args.samples or SHOWDOWN_SAMPLES, args.seed, progress=_bar)
    else:
        report = check(engine, args.samples or 100_000, args.reference_samples, args.seed, progress=_bar)
    expected = report.expected or {}
    clear_progress()
    if args.json:
        print_json(report.as_dict())
    else:
        print(f"rules: {report.rules}; {report.total:,} hands; {report.method}; {report.seconds:.1f} s")
        if report.expected_from:
            print(f"expected counts: {report.expected_from}")
        if report.expected is None:
            print(f"{'category':<18}{'hands':>12}   (no published table of these hands in the rule set's expected.toml)")
        else:
            print(f"{'category':<18}{'hands':>12}{'expected':>12}")
        for category, count in sorted(report.frequencies.items(), key=lambda kv: (-expected.get(kv[0], 0), -kv[1])):
            if report.expected is None:
                print(f"{category:<18}{count:>12,}")
                continue
            mark = "" if expected.get(category) == count else "   <-- differs"
            print(f"{category:<18}{count:>12,}{expected.get(category, 0):>12,}{mark}")
        print()
        for o in report.obligations:
            print(f"{'holds ' if o.holds else 'FAILS '} {o.name} ({o.checked})")
            if not o.holds:
                print(f"       counterexample: {o.counterexample}")
        if report.expected_failed and report.expected_from:
            print(f"       (the expected counts are {report.expected_from}; "
                  "a game's own go in expected.toml beside its rules)")
        if report.paths:
            print()
            print("paths these rules allow:")
            for path, how in report.paths.items():
                print(f"  {path}: {how}")
                for line in report.proofs.get(path, []):
                    print(f"    {line}")
    return 0 if report.ok else 1


def _bar(what: str, total: int) -> Callable[[int], None]:
    """engine.check's progress: a bar per stage on a terminal (each clears the one before)."""
    return progress(total, what) or _nothing


def _nothing(n: int) -> None:
    pass
