"""The role judge of the Doukaku problems (issue 5): ``Engine.role`` and batches (``poker role``).

Which codes there are, their order and when each holds live in rules/roles.dl; this module reads
the inputs, asserts them, and asks ``roleOf``, ``roleWarning`` and ``roleError``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Sequence

from engine.evaluators.pydatalog.runtime import Var
from engine.interface import EngineView
from engine.poker.notation import Cards, InvalidCards, show

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


def problems(engine: EngineView) -> list[str]:
    """The problems the rules know (each has a code for "no role")."""
    return sorted({row[0] for row in engine.ask("roleNone", Var("P"), Var("C"))})


def judge(engine: EngineView, inputs: Sequence[Cards], problem: str = DEFAULT_PROBLEM) -> list[Verdict]:
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


def _verdict(engine: EngineView, text: str, cards: list[int], problem: str,
             errors: list[str], warned: list[str], codes: list[str]) -> Verdict:
    if errors:
        read = engine.notation.format(cards) or "nothing"
        return Verdict(text, error=f"{text!r}: {'; '.join(errors)} (read {len(cards)}: {read})")
    if len(codes) != 1:      # a rule set without (or with broken) role rules, not a user error
        raise RuntimeError(f"rule set {engine.name} gives {text!r} the roles {codes} in problem {problem!r}")
    return Verdict(text, codes[0], tuple(warned))


def role(engine: EngineView, text: Cards, problem: str = DEFAULT_PROBLEM) -> str:
    """The role code of one input; InvalidCards when it is not five readable cards.

    A repeated card is judged anyway and reported as a RepeatedCardWarning.
    """
    verdict = judge(engine, [text], problem)[0]
    if verdict.error is not None:
        raise InvalidCards(verdict.error)
    for message in verdict.warnings:
        warnings.warn(f"{verdict.text!r}: {message}", RepeatedCardWarning, stacklevel=3)
    return verdict.code  # type: ignore[return-value]   # judged: a code
