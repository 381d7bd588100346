"""The judging subcommands: rank, beat (with --explain)."""

from __future__ import annotations

import argparse

from .cli import add_rules_option, load_engine, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rank", help="the category and the spec's rank of a hand")
    p.add_argument("hand", nargs="+", help="a hand, e.g. 'AH KH QH JH TH' (or its cards as arguments)")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_rules_option(p)
    p.set_defaults(run=run_rank)

    p = sub.add_parser("beat", help="judge a fight of 2..10 hands")
    p.add_argument("hands", nargs="+", metavar="HAND", help="two to ten hands, each one argument")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_rules_option(p)
    p.set_defaults(run=run_beat)


def run_rank(args: argparse.Namespace) -> int:
    engine = load_engine(args)
    hand = " ".join(args.hand)
    category = engine.category(hand)
    rank = engine.get_rank(hand)
    if args.json:
        print_json({"hand": engine.notation.format(engine.cards(hand)), "rank": rank, "category": category})
    else:
        print(f"{category} (rank {rank})")
    return 0


def run_beat(args: argparse.Namespace) -> int:
    engine = load_engine(args)
    winners = engine.winners(args.hands)
    result = engine.beat(*args.hands) if len(args.hands) == 2 else (winners[0] + 1 if len(winners) == 1 else 0)
    if args.json:
        print_json({"result": result, "winners": winners,
                    "ranks": [engine.get_rank(h) for h in args.hands]})
    else:
        print(result)
        print("winners: " + ", ".join(f"{i + 1} ({args.hands[i]})" for i in winners))
    return 0
