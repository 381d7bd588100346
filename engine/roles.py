"""The role judge of the Doukaku problems (issue 5): ``poker role`` and ``Engine.role``.

Which codes there are, their order and when each holds live in rules/roles.dl; this module reads
the inputs, asserts them, asks ``roleOf``, ``roleWarning`` and ``roleError``, and prints.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from dataclasses import dataclass
from typing import Sequence

from .core import Engine, Var, show
from .notation import Cards, InvalidCards

DEFAULT_PROBLEM = "first"


class RepeatedCardWarning(UserWarning):
    """An input gives a card twice: judged as the five cards given (the problems allow it)."""


@dataclass(frozen=True)
class Verdict:
    """The judgement of one input: its code, or the error that kept it from being judged."""
    text: str
    code: str | None = None
    warnings: tuple[str, ...] = ()
    error: str | None = None       # one line that names the input


def problems(engine: Engine) -> list[str]:
    """The problems the rules know (each has a code for "no role")."""
    return sorted({row[0] for row in engine.ask("roleNone", Var("P"), Var("C"))})


def judge(engine: Engine, inputs: Sequence[Cards], problem: str = DEFAULT_PROBLEM) -> list[Verdict]:
    """Judge every input; a bad one gets an error and does not stop the others.

    All readable inputs are asserted together and each question is asked once for all of them
    (pyDatalog answers a whole set of hands faster than one hand at a time).
    """
    known = problems(engine)
    if problem not in known:
        have = ", ".join(known) or f"none: rule set {engine.name} has no role rules"
        raise ValueError(f"unknown problem {problem!r} (the rules know {have})")
    parsed: dict[int, list[int]] = {}
    verdicts: list[Verdict] = []
    for i, text in enumerate(inputs):
        try:
            parsed[i] = engine.cards(text)
            verdicts.append(Verdict(show(text)))
        except InvalidCards as exc:
            verdicts.append(Verdict(show(text), error=str(exc)))
    with engine.sets(*parsed.values()) as ids:
        errors = _by_set(engine.ask("roleError", Var("S"), Var("W")), ids)
        warned = _by_set(engine.ask("roleWarning", Var("S"), Var("W")), ids)
        codes = _by_set(engine.ask("roleOf", Var("S"), problem, Var("C")), ids)
    for (i, cards), sid in zip(parsed.items(), ids):
        verdicts[i] = _verdict(engine, verdicts[i].text, cards, problem,
                               errors.get(sid, []), warned.get(sid, []), codes.get(sid, []))
    return verdicts


def _by_set(rows: list[tuple], ids: list[int]) -> dict[int, list]:
    """Answers (set id, value) grouped by set: one query answers every input of the call."""
    wanted = set(ids)
    out: dict[int, list] = {}
    for sid, value in rows:
        if sid in wanted:
            out.setdefault(sid, []).append(value)
    return out


def _verdict(engine: Engine, text: str, cards: list[int], problem: str,
             errors: list[str], warned: list[str], codes: list[str]) -> Verdict:
    if errors:
        read = engine.notation.format(cards) or "nothing"
        return Verdict(text, error=f"{text!r}: {'; '.join(errors)} (read {len(cards)}: {read})")
    if len(codes) != 1:      # a rule set without (or with broken) role rules, not a user error
        raise RuntimeError(f"rule set {engine.name} gives {text!r} the roles {codes} in problem {problem!r}")
    return Verdict(text, codes[0], tuple(warned))


def role(engine: Engine, text: Cards, problem: str = DEFAULT_PROBLEM) -> str:
    """The role code of one input; InvalidCards when it is not five readable cards.

    A repeated card is judged anyway and reported as a RepeatedCardWarning.
    """
    verdict = judge(engine, [text], problem)[0]
    if verdict.error is not None:
        raise InvalidCards(verdict.error)
    for message in verdict.warnings:
        warnings.warn(f"{verdict.text!r}: {message}", RepeatedCardWarning, stacklevel=3)
    return verdict.code  # type: ignore[return-value]   # judged: a code


# ---- the command ---------------------------------------------------------------------------


def register(sub: argparse._SubParsersAction) -> None:
    from .cli import add_rules_option
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
    add_rules_option(p)
    p.set_defaults(run=run_role)


def run_role(args: argparse.Namespace) -> int:
    """Print one code per judged input; errors and warnings go to stderr, one line each."""
    from .cli import CommandError, load_engine
    engine = load_engine(args)
    try:
        verdicts = judge(engine, args.inputs, args.problem)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    status = 0
    for verdict in verdicts:
        for message in verdict.warnings:
            print(f"poker: warning: {verdict.text!r}: {message}", file=sys.stderr)
        if verdict.error is not None:
            print(f"poker: {verdict.error}", file=sys.stderr)
            status = 2
        else:
            print(verdict.code)
    return status
