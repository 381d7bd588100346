"""The judging subcommands: rank, beat (with --explain), judge (YAML batches)."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import yaml

from .cli import CommandError, add_rules_option, load_engine, print_json
from .fast import atomic_write
from .explain import explain_fight, explain_hand
from .judge import Judge, verdict

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml when PyYAML has it: ~10x faster


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rank", help="the category and the spec's rank of a hand")
    p.add_argument("hand", nargs="+", help="a hand, e.g. 'AH KH QH JH TH' (or its cards as arguments)")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_rules_option(p)
    p.set_defaults(run=run_rank)

    p = sub.add_parser("beat", help="judge a fight of 2..10 hands")
    p.add_argument("hands", nargs="+", metavar="HAND", help="two to ten hands, each one argument")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--explain", action="store_true",
                   help="print the axioms that ranked each hand and decided the fight")
    add_rules_option(p)
    p.set_defaults(run=run_beat)

    p = sub.add_parser("judge", help="judge a YAML file of fights")
    p.add_argument("file", help="YAML with `fights:`, a list of {id: optional, hands: [HAND, ...]}")
    p.add_argument("-o", "--output", metavar="OUT", help="write the results here (atomically); default stdout")
    p.add_argument("--format", choices=("yaml", "json"), default="yaml", help="output format (default yaml)")
    p.add_argument("--plain", action="store_true",
                   help="ask the rules about every hand, without the class table (slow; for comparison)")
    add_rules_option(p)
    p.set_defaults(run=run_judge)


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
    hands = args.hands
    if args.explain and len(hands) == 2 and not engine.valid_fighting(*hands):
        for line in explain_fight(engine, *hands).lines():   # show why, then fail
            print(line)
    winners = engine.winners(hands)
    result = engine.beat(*hands) if len(hands) == 2 else verdict(winners, len(hands))
    why = _explain(engine, hands, winners) if args.explain else None
    if args.json:
        ranks = [engine.get_rank(h) for h in hands]     # all hands: winners() refused anything else
        data = {"result": result, "winners": winners, "ranks": ranks,
                "categories": [engine.categories[r] for r in ranks]}
        if why:
            data["explain"] = why
        print_json(data)
        return 0
    print(result)
    print("winners: " + ", ".join(f"{i + 1} ({hands[i]})" for i in winners))
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


def read_fights(path: str) -> list:
    """The `fights:` list of a YAML file; a CommandError naming the file (and line) otherwise."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise CommandError(f"{path}: cannot read: {reason}") from None
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else path
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise CommandError(f"{where}: YAML syntax error: {problem}") from None
    if not isinstance(data, dict) or not isinstance(data.get("fights"), list):
        raise CommandError(f"{path}: expected a mapping with `fights:`, a list of fights")
    return data["fights"]


def run_judge(args: argparse.Namespace) -> int:
    fights = read_fights(args.file)
    engine = load_engine(args)
    start = time.perf_counter()
    judge = Judge(engine, fast=not args.plain)
    bars: list = []

    def building(count: int):
        bars.append(_progress(count, "class table (once per rule set)", "class"))
        return bars[-1].update if bars[-1] else None

    bar = _progress(len(fights), "judging", "fight")
    results = judge.judge(fights, progress=bar.update if bar else None, building=building)
    for b in [bar, *bars]:
        if b:
            b.close()
    payload = {"results": [r.as_dict() for r in results]}
    text = json.dumps(payload, ensure_ascii=False) + "\n" if args.format == "json" else to_yaml(payload)
    if args.output:
        atomic_write(Path(args.output), text)
    else:
        sys.stdout.write(text)
    invalid = sum(1 for r in results if r.error)
    elapsed = time.perf_counter() - start
    path = "class table" if judge.fast else "rules, hand by hand"
    print(f"fights: {len(fights)}, judged: {len(fights) - invalid}, invalid: {invalid}, "
          f"time: {elapsed:.2f} s ({path})", file=sys.stderr)
    return 0


# Characters YAML may not carry raw in a double-quoted scalar (non-printable, or read as a line break).
_NOT_RAW_IN_YAML = re.compile("[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")


def to_yaml(payload: dict[str, list[dict]]) -> str:
    """YAML with one flow mapping per result: each is JSON, which YAML reads as it is.

    PyYAML's emitter takes seconds for 20,000 results; this takes a tenth of that, and a reader
    (yaml.safe_load, or a person) gets the same data back.
    """
    out = []
    for key, items in payload.items():
        if not items:
            out.append(f"{key}: []\n")
            continue
        out.append(f"{key}:\n")
        out += [f"- {_yaml_safe(json.dumps(item, ensure_ascii=False))}\n" for item in items]
    return "".join(out)


def _yaml_safe(text: str) -> str:
    return _NOT_RAW_IN_YAML.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def _progress(total: int, what: str, unit: str):
    """A progress bar on stderr when it is a terminal."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    return tqdm(total=total, desc=what, unit=unit, file=sys.stderr, leave=False)
