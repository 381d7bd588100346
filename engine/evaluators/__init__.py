"""Evaluators: what asks the rules.  pyDatalog is the reference; the compiled SQL serves batches.

Both answer the same question, put the same way: a list of **worlds**, each the input facts that
one pyDatalog query would see (the sets of one fight, numbered 1..k, optionally seated at table
0), and the predicates asked.  Because both see exactly the same facts, their answers can be
compared row for row, and the tests do.

Python turns answers into verdicts here, once, for every command (:func:`verdicts`): a two-hand
fight's result is the rules' ``beat`` (the winners are the hands it names), a fight of more hands
is the rules' ``winner`` (beat_Bonus made N-hand); nothing is decided in Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Protocol, Sequence

from .. import interface as I

TABLE = 0          # the id of the table the hands of a fight sit at


@dataclass(frozen=True)
class World:
    """The input facts of one question: sets of card ids (given in order), maybe seated."""
    hands: tuple[tuple[int, ...], ...]
    table: bool = False

    def facts(self) -> dict[str, list[tuple[int, ...]]]:
        """declared(S), holds(S, I, C), seat(T, S): set ids 1..k, positions from 0."""
        ids = range(1, len(self.hands) + 1)
        return {I.DECLARED: [(s,) for s in ids],
                I.HOLDS: [(s, i, c) for s, h in zip(ids, self.hands) for i, c in enumerate(h)],
                I.SEAT: [(TABLE, s) for s in ids] if self.table else []}


@dataclass(frozen=True)
class Ask:
    """A predicate asked: ``args`` holds a value for a bound argument, None for a free one."""
    pred: str
    args: tuple[int | str | None, ...]

    def keep(self, row: tuple) -> bool:
        return all(a is None or a == v for a, v in zip(self.args, row))

    @property
    def free(self) -> bool:
        """Every argument free: every row is kept."""
        return all(a is None for a in self.args)


Answers = dict[Ask, list[tuple]]


def ordered(rows: Iterable[tuple]) -> list[tuple]:
    """Rows in their natural order (every evaluator gives them so); by repr where a column
    mixes strings and numbers (only in rules the compiler refuses)."""
    rows = list(rows)
    try:
        return sorted(rows)
    except TypeError:
        return sorted(rows, key=repr)


class Evaluator(Protocol):
    """Answers the asked predicates in every world (rows sorted, whole rows)."""
    name: str

    def answers(self, worlds: Sequence[World], asked: Sequence[Ask]) -> list[Answers]: ...


def arities(clauses: Iterable) -> dict[str, int]:
    """The arity of every predicate a rule set defines (an aggregate's value counts)."""
    import ast
    out: dict[str, int] = {}
    for clause in clauses:
        node = clause.node
        head = node.left if isinstance(node, ast.Compare) else node
        if isinstance(head, ast.Call):
            out[clause.head] = len(head.args)
        else:                                    # (f[keys] == aggregate(...))
            keys = head.left.slice
            out[clause.head] = (len(keys.elts) if isinstance(keys, ast.Tuple) else 1) + 1
    return out


# ---- verdicts ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """A fight's answer, every part of it from the rules.

    result: the spec's beat for two hands (1, 2, 0; -1 not a valid fight); for more, the single
    winner's number, or 0.  winners: 0-based, the rules' ``winner`` (beat_Bonus).  beats: the
    rules' beat for every ordered pair of hands, when asked for.
    """
    result: int
    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    error: str | None = None
    beats: dict[tuple[int, int], int] = field(default_factory=dict, compare=False)


def fight_asks(n: int, matrix: bool = False) -> list[Ask]:
    """What a fight of n hands asks: ranks, and for two hands the spec's beat (its verdict); for
    more, the table's winners and validity (beat_Bonus made N-hand); ``matrix``: beat of every pair."""
    asks = [Ask(I.GET_RANK, (None, None))]
    if n != 2 or matrix:
        asks += [Ask(I.WINNER, (TABLE, None)), Ask(I.INVALID_TABLE, (TABLE,))]
    if matrix:
        asks.append(Ask(I.BEAT, (None, None, None)))
    elif n == 2:
        asks.append(Ask(I.BEAT, (1, 2, None)))
    return asks


# The hands that beat's result names as the winners of a two-hand fight.
WINNERS = {1: (0,), 2: (1,), 0: (0, 1), -1: ()}


REASON_ASKS = [Ask(I.WHY_NOT_HAND, (None, None)), Ask(I.WHY_NOT_FIGHT, (None, None, None))]


def verdicts(evaluator: Evaluator, fights: Sequence[Sequence[Sequence[int]]], matrix: bool = False
             ) -> list[Verdict]:
    """The one way a fight is judged: its hands seated at a table, the rules asked.

    ``matrix`` also asks beat for every ordered pair (what `poker check` tests for antisymmetry
    and transitivity).
    """
    worlds = [World(tuple(tuple(h) for h in hands), table=True) for hands in fights]
    by_size: dict[int, list[int]] = {}
    for i, hands in enumerate(fights):
        by_size.setdefault(2 if len(hands) == 2 and not matrix else 0, []).append(i)
    answers: list[Answers | None] = [None] * len(fights)
    for kind, idx in by_size.items():
        asks = fight_asks(kind, matrix)
        for i, a in zip(idx, evaluator.answers([worlds[i] for i in idx], asks)):
            answers[i] = a
    invalid = [i for i, a in enumerate(answers) if a and (_rows(a, I.INVALID_TABLE) or _two(len(fights[i]), a) == -1)]
    reasons = dict(zip(invalid, evaluator.answers([worlds[i] for i in invalid], REASON_ASKS))) if invalid else {}
    return [_verdict(len(f), a, reasons.get(i)) for i, (f, a) in enumerate(zip(fights, answers))]


def _rows(answers: Answers | dict[str, list[tuple]], pred: str) -> list[tuple]:
    """The rows of the predicate asked (answers keyed by Ask, or already by predicate name)."""
    if pred in answers:
        return answers[pred]                          # type: ignore[index]
    return next((rows for ask, rows in answers.items() if getattr(ask, "pred", None) == pred), [])


def _two(n: int, answers: Answers) -> int | None:
    """The rules' beat of hand 1 against hand 2, in a two-hand fight (None for more hands)."""
    if n != 2:
        return None
    results = {r for a, b, r in _rows(answers, I.BEAT) if (a, b) == (1, 2)}
    if len(results) != 1:
        raise RuntimeError(f"the rules give beat {len(results)} values for one fight: {sorted(results)}")
    return results.pop()


def _verdict(n: int, answers: Answers, reasons: Answers | None) -> Verdict:
    asked = {ask.pred for ask in answers}
    answers = {ask.pred: rows for ask, rows in answers.items()}      # type: ignore[assignment]
    ranks = _ranks(_rows(answers, I.GET_RANK), n)
    beats = {(a - 1, b - 1): r for a, b, r in _rows(answers, I.BEAT)}
    result = _two(n, answers)
    if _rows(answers, I.INVALID_TABLE) or result == -1:
        return Verdict(-1, (), ranks, why_not_fight(reasons or {}, n), beats)
    if result is not None and I.WINNER not in asked:
        return Verdict(result, WINNERS[result], ranks, None, beats)
    winners = tuple(sorted(s - 1 for _, s in _rows(answers, I.WINNER)))
    if result is None:
        result = winners[0] + 1 if len(winners) == 1 else 0
    return Verdict(result, winners, ranks, None, beats)


def _ranks(rows: list[tuple], n: int) -> tuple[int, ...]:
    by_set: dict[int, set[int]] = {}
    for s, r in rows:
        by_set.setdefault(s, set()).add(r)
    out = []
    for s in range(1, n + 1):
        values = by_set.get(s, set())
        if len(values) > 1:
            raise RuntimeError(f"the rules give getRank several values for one hand: {sorted(values)}")
        out.append(values.pop() if values else -1)
    return tuple(out)


def why_not_fight(reasons: Answers, n: int) -> str:
    """The rules' reasons, in words: the first hand that is not a hand, else the first pair."""
    hands: dict[int, list[str]] = {}
    for s, why in _rows(reasons, I.WHY_NOT_HAND):
        hands.setdefault(s, []).append(why)
    for s in range(1, n + 1):
        if s in hands:
            return f"not a valid fight: hand {s}: {'; '.join(sorted(hands[s]))}"
    pairs: dict[tuple[int, int], list[str]] = {}
    for a, b, why in _rows(reasons, I.WHY_NOT_FIGHT):
        if a == b:
            continue
        pairs.setdefault((min(a, b), max(a, b)), []).append(why)
    for (a, b), whys in sorted(pairs.items()):
        return f"not a valid fight: hands {a} and {b}: {'; '.join(sorted(set(whys)))}"
    return "not a valid fight: the rules find it invalid"
