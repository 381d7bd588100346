"""`poker diff A B`: what changes between two rule sets, over every hand (engine.check.diff)."""

from __future__ import annotations

import argparse
from typing import Any

from engine.check.diff import SAMPLES, diff
from engine.cli.check import _bar
from engine.cli.common import CommandError, add_json_option, clear_progress, print_json
from engine.core import Engine


def register(sub: Any) -> None:
    p = sub.add_parser("diff", help="what changes between two rule sets, over every five-card hand of the cards both decks have")
    p.add_argument("a", metavar="A", help="a rule set: a name (standard, eventb, ...) or a directory")
    p.add_argument("b", metavar="B", help="the rule set to compare it with")
    p.add_argument("--no-cache", action="store_true",
                   help="compute both rule sets' five-card tables afresh: read no cache file and write "
                        "none (the cache: $POKER_CACHE_DIR, else $XDG_CACHE_HOME/poker-engine, else "
                        "~/.cache/poker-engine)")
    p.add_argument("--samples", type=int, default=SAMPLES, metavar="N",
                   help="where a rule set's beat is not proven to be its table's order, the fights of two disjoint "
                        f"hands sampled and asked of both rule sets instead of counting them all (default {SAMPLES:,})")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampled fights (default 0)")
    add_json_option(p, '{"a", "b", "hands", "categories", "renumbered", "unranked", '
                       '"fights": {"counted", "pairs", "changed", "kinds"} or {"unproven", "sampled"}}')
    p.set_defaults(run=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    engines = [Engine(name) for name in (args.a, args.b)]
    for engine in engines:
        if engine.fallback is not None:
            raise CommandError(f"{engine.name}: diff needs rules the compiler translates: {engine.fallback}")
    if args.samples < 1:
        raise CommandError("--samples must be at least 1")
    try:
        result = diff(*engines, progress=_bar, cache=not args.no_cache, samples=args.samples, seed=args.seed)
    except ValueError as exc:             # hands of different sizes, or no card in common
        raise CommandError(str(exc)) from None
    clear_progress()
    if args.json:
        print_json(result.as_dict())
    else:
        print("\n".join(result.lines()))
    return 0
