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

import ast
import itertools
import operator
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Protocol, Sequence

from engine import interface as I

TABLE = 0          # the id of the table the hands of a fight sit at


@dataclass(frozen=True)
class World:
    """The input facts of one question: sets of card ids (given in order), maybe seated.

    A showdown has a ``board`` (its cards, shared by every player) and a ``game`` (the rules'
    gameName code); its hands are the players' own cards, and every five drawn from a player's
    cards and the board is a set of its own (:meth:`fives`), for the rules to choose from.
    """
    hands: tuple[tuple[int, ...], ...]
    table: bool = False
    board: tuple[int, ...] | None = None
    game: int = 0
    # Input facts that are not cards (interface.CHIPS: a hand history's stakes and pots), each
    # (predicate, row) with the table first; integers only.
    chips: tuple[tuple[str, tuple[int, ...]], ...] = ()

    @property
    def seated(self) -> bool:
        return self.table or self.board is not None

    def fives(self) -> list[tuple[int, tuple[int, ...]]]:
        """Every five of a player's cards and the board, as (player, cards): players 1..k."""
        if self.board is None:
            return []
        return [(p, five) for p, hand in enumerate(self.hands, 1)
                for five in itertools.combinations(hand + self.board, 5)]

    def sets(self) -> list[tuple[int, int, tuple[int, ...]]]:
        """Every set of the world as (role, owner, cards), numbered 1.. in this order: the hands
        (role 0), the board (role 1, set k+1), the players' fives (role 2, owner: the player)."""
        out = [(0, 0, h) for h in self.hands]
        if self.board is not None:
            out.append((1, 0, self.board))
            out += [(2, p, five) for p, five in self.fives()]
        return out

    def facts(self) -> dict[str, list[tuple[int, ...]]]:
        """declared(S), holds(S, I, C), seat(T, S), and for a showdown board(T, B), game(T, G),
        candidate(P, S): set ids as :meth:`sets` numbers them, positions from 0."""
        sets = self.sets()
        out = {name: [] for name in I.CHIPS}
        for name, row in self.chips:
            out[name].append(row)
        return out | {I.DECLARED: [(s,) for s in range(1, len(sets) + 1)],
                I.HOLDS: [(s, i, c) for s, (_, _, h) in enumerate(sets, 1) for i, c in enumerate(h)],
                I.SEAT: [(TABLE, s) for s in range(1, len(self.hands) + 1)] if self.seated else [],
                I.BOARD: [(TABLE, s) for s, (role, _, _) in enumerate(sets, 1) if role == 1],
                I.GAME: [(TABLE, self.game)] if self.board is not None else [],
                I.CANDIDATE: [(p, s) for s, (role, p, _) in enumerate(sets, 1) if role == 2]}


@dataclass(frozen=True)
class Ask:
    """A predicate asked: ``args`` holds a value for a bound argument, None for a free one."""
    pred: str
    args: tuple[int | str | None, ...]

    def keep(self, row: tuple) -> bool:
        return all(a is None or a == v for a, v in zip(self.args, row))

    def matcher(self) -> Callable[[tuple], bool] | None:
        """A fast ``keep`` for rows of this predicate's width (None: every row is kept).

        >>> Ask("beat", (1, 2, None)).matcher()((1, 2, 0)), Ask("beat", (1, 2, None)).matcher()((2, 1, 0))
        (True, False)
        """
        bound = [(i, a) for i, a in enumerate(self.args) if a is not None]
        if not bound:
            return None
        pick = operator.itemgetter(*(i for i, _ in bound))
        want = bound[0][1] if len(bound) == 1 else tuple(a for _, a in bound)
        return lambda row: pick(row) == want


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
    rules' beat for every ordered pair of hands, when asked for.  A showdown's result is read the
    same way off the rules' ``showdownWinner``; ``best`` holds the five each player plays (the
    rules' ``plays``: the first in the order of :meth:`World.fives` when several tie), ``ranks``
    their ranks.
    """
    result: int
    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    error: str | None = None
    beats: dict[tuple[int, int], int] = field(default_factory=dict, compare=False)
    best: tuple[tuple[int, ...], ...] = ()     # a showdown: each player's five that play
    # A split pot (engine/judging/hilo.py): the players who take the low half (empty: no low qualifies),
    # each player's low five and its rank under the low rule set, and each player's share.
    low: tuple[int, ...] | None = None
    low_best: tuple[tuple[int, ...], ...] = ()
    low_ranks: tuple[int, ...] = ()
    shares: tuple[Any, ...] = ()
    # The rules' own fault made it invalid: a hand with no value or several of a predicate that
    # should have one (:func:`faults`), which `poker check` finds over every hand.
    fault: bool = field(default=False, compare=False)


class RulesFault(Exception):
    """The rules answer a fight inconsistently (a hand with several ranks, a fight with several
    results): that fight is invalid, and :func:`faults` says why; the others are judged."""


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


SHOWDOWN_ASKS = [Ask(I.GET_RANK, (None, None)), Ask(I.PLAYS, (None, None)),
                 Ask(I.SHOWDOWN_WINNER, (TABLE, None)), Ask(I.INVALID_SHOWDOWN, (TABLE,))]
SHOWDOWN_REASONS = [Ask(I.WHY_NOT_SHOWDOWN, (TABLE, None, None)), Ask(I.WHY_NOT_SEAT, (TABLE, None, None))]

Fight = Sequence[Sequence[int]] | World


class Shortcut(Protocol):
    """What answers some fights without asking the rules, as the rules are proven to (the
    five-card table's reader, engine/judging/tabled.py): a verdict per fight, None where the rules
    must be asked."""

    def verdicts(self, fights: Sequence[Fight]) -> list[Verdict | None]: ...


def verdicts(evaluator: Evaluator, fights: Sequence[Fight], matrix: bool = False,
             table: "Shortcut | None" = None) -> list[Verdict]:
    """The one way a fight is judged: its hands seated at a table, the rules asked.

    A fight is its hands, or a showdown :class:`World` (players' cards, a board, a game).
    ``matrix`` also asks beat for every ordered pair (what `poker check` tests for antisymmetry
    and transitivity).  ``table``: the fights and showdowns that the five-card table answers,
    as the rules are proven to (engine/judging/tabled.py), are read off it; the others are asked.
    """
    if table is not None and not matrix:
        done = table.verdicts(fights)
        rest = [i for i, v in enumerate(done) if v is None]
        if len(rest) < len(fights):
            for i, v in zip(rest, verdicts(evaluator, [fights[i] for i in rest], matrix) if rest else []):
                done[i] = v
            return done                                  # type: ignore[return-value]
    worlds = [f if isinstance(f, World) else World(tuple(tuple(h) for h in f), table=True) for f in fights]
    by_kind: dict[str, list[int]] = {}
    for i, world in enumerate(worlds):
        kind = "showdown" if world.board is not None else "two" if len(world.hands) == 2 and not matrix else "table"
        by_kind.setdefault(kind, []).append(i)
    answers: list[Any] = [None] * len(fights)
    for kind, idx in by_kind.items():
        asks = SHOWDOWN_ASKS if kind == "showdown" else fight_asks(2 if kind == "two" else 0, matrix)
        for i, a in zip(idx, _attempt(evaluator, [worlds[i] for i in idx], asks)):
            answers[i] = a
    out = [_judged_or_fault(w, a) for w, a in zip(worlds, answers)]
    # The fights the rules find invalid (a showdown by invalidShowdown, a table by invalidTable,
    # two hands by beat's -1) are asked again, for the rules' reasons.
    invalid = [i for i, v in enumerate(out) if v.result == -1 and not v.fault and isinstance(answers[i], dict)]
    for shows in (False, True):
        idx = [i for i in invalid if (worlds[i].board is not None) == shows]
        if idx:
            asks = SHOWDOWN_REASONS if shows else REASON_ASKS
            for i, why in zip(idx, _attempt(evaluator, [worlds[i] for i in idx], asks)):
                if isinstance(why, dict):
                    out[i] = _judged_or_fault(worlds[i], answers[i], why)
    # Invalid by the rules' own fault, or with no reason from them: which hand, which predicate.
    suspects = [i for i, v in enumerate(out) if v.fault or (v.error == NO_REASON and isinstance(answers[i], dict))]
    for i, found in zip(suspects, faults(evaluator, [worlds[i] for i in suspects]) if suspects else []):
        if found is not None:
            kind = "showdown" if worlds[i].board is not None else "fight"
            out[i] = replace(out[i], error=f"not a valid {kind}: {found.message}", fault=True)
    return out


def _judged_or_fault(world: World, answers: Any, reasons: Answers | None = None) -> Verdict:
    """_judged, or the fight invalid where the rules answer it inconsistently (RulesFault)."""
    try:
        return _judged(world, answers, reasons)
    except RulesFault as exc:
        kind = "showdown" if world.board is not None else "fight"
        return Verdict(-1, (), (-1,) * len(world.hands), f"not a valid {kind}: {exc}", fault=True)


@dataclass(frozen=True)
class Fault:
    """A set that has no value, or several, of a predicate that should give it one (``at``: the
    predicate's other arguments, between the set and the value)."""
    pred: str
    set: int
    cards: str
    at: tuple
    values: tuple

    @property
    def message(self) -> str:
        """``straightTop has two values for AH 7D 8C 9S TH: 1 and 10``."""
        shown = [str(v) for v in self.values]
        where = f" at {', '.join(map(str, self.at))}" if self.at else ""
        if not shown:
            return f"{self.pred} has no value for {self.cards}{where}"
        count = {2: "two", 3: "three"}.get(len(shown), str(len(shown)))
        return f"{self.pred} has {count} values for {self.cards}{where}: {', '.join(shown[:-1])} and {shown[-1]}"


def faults(evaluator: Evaluator, worlds: Sequence[World]) -> list[Fault | None]:
    """Each world's first set that has no value or several of a predicate that should have one
    (None: none found): getRank must give a hand exactly one value, and each predicate the rules
    name in ``oneValue`` one value at most for each of its other arguments.  A fight the rules
    find invalid for no reason of theirs is most often this (a variant's new straight that leaves
    the base's straightTop_FA firing too: two top cards)."""
    arity = _arities(evaluator)
    named: list = []
    if arity.get(I.ONE_VALUE) == 1:
        statics = _attempt(evaluator, [World(())], [Ask(I.ONE_VALUE, (None,))])[0]
        rows = _rows(statics, I.ONE_VALUE) if isinstance(statics, dict) else []
        named = sorted({row[0] for row in rows}, key=repr)
    preds = [p for p in named if isinstance(p, str) and p != I.GET_RANK and arity.get(p, 0) >= 2]
    asks = [Ask(I.GET_RANK, (None, None)), Ask(I.IS_HAND, (None,))] + [Ask(p, (None,) * arity[p]) for p in preds]
    show = _shower(evaluator)
    out: list[Fault | None] = []
    for world, answers in zip(worlds, _attempt(evaluator, list(worlds), asks)):
        out.append(_fault(world, answers, preds, show) if isinstance(answers, dict) else None)
    return out


def _fault(world: World, answers: Answers, preds: list[str], show: Callable[[Sequence[int]], str]) -> Fault | None:
    hands = {s for (s,) in _rows(answers, I.IS_HAND)}
    for s, (_, _, cards) in enumerate(world.sets(), 1):
        ranks = tuple(r for (r,) in ordered({(r,) for t, r in _rows(answers, I.GET_RANK) if t == s}))
        if len(ranks) > 1 or (not ranks and s in hands):
            return Fault(I.GET_RANK, s, show(cards), (), ranks)
        for pred in preds:
            values: dict[tuple, set] = {}
            for row in _rows(answers, pred):
                if row[0] == s:
                    values.setdefault(tuple(row[1:-1]), set()).add(row[-1])
            for at, found in sorted(values.items(), key=repr):
                if len(found) > 1:
                    return Fault(pred, s, show(cards), at, tuple(v for (v,) in ordered((v,) for v in found)))
    return None


def _arities(evaluator: Evaluator) -> dict[str, int]:
    """The arity of each predicate the evaluator knows (pyDatalog's, or the compiled program's)."""
    arity = getattr(evaluator, "arity", None)
    if isinstance(arity, dict):
        return arity
    preds = getattr(getattr(evaluator, "program", None), "preds", {})
    return {name: pred.arity for name, pred in preds.items()}


def _shower(evaluator: Evaluator) -> Callable[[Sequence[int]], str]:
    """Cards in the notation of the engine the evaluator answers for (ids when there is none)."""
    owner = getattr(evaluator, "owner", None) or getattr(getattr(evaluator, "reference", None), "owner", None)
    notation = getattr(owner, "notation", None)
    return notation.format if notation is not None else (lambda ids: " ".join(map(str, ids)))


def _attempt(evaluator: Evaluator, worlds: list[World], asks: list[Ask]) -> list[Any]:
    """Each world's answers, or what the rules fail with on it (an ``exact.Failure``): a fault of
    the rules marks the fights it touches, and the others are judged (N in, N out)."""
    attempt = getattr(evaluator, "attempt", None)
    return attempt(worlds, asks) if attempt is not None else evaluator.answers(worlds, asks)


def _judged(world: World, answers: Any, reasons: Answers | None) -> Verdict:
    if answers is not None and not isinstance(answers, dict):          # an exact.Failure
        return Verdict(-1, (), (-1,) * len(world.hands), answers.message)
    if world.board is not None:
        return _showdown(world, answers or {}, reasons)
    return _verdict(len(world.hands), answers or {}, reasons)


def _showdown(world: World, answers: Answers, reasons: Answers | None) -> Verdict:
    """A showdown's verdict: the rules' winners, each player's five that play and its rank."""
    n = len(world.hands)
    sets = world.sets()
    ranks_of: dict[int, set[int]] = {}
    for s, r in _rows(answers, I.GET_RANK):
        ranks_of.setdefault(s, set()).add(r)
    plays: dict[int, int] = {}
    for p, s in _rows(answers, I.PLAYS):
        plays.setdefault(p, s)                         # rows come sorted: the first five in order
    best = tuple(sets[plays[p] - 1][2] if p in plays else () for p in range(1, n + 1))
    ranks = []
    for p in range(1, n + 1):
        values = ranks_of.get(plays[p], set()) if p in plays else set()
        if len(values) > 1:
            raise RulesFault(f"the rules give getRank several values for a five that plays: {sorted(values)}")
        ranks.append(values.pop() if values else -1)
    if _rows(answers, I.INVALID_SHOWDOWN):
        # A player whose own cards cannot play (whyNotSeat) shows no five and no rank.
        unseated = {p for _, p, _ in _rows(reasons or {}, I.WHY_NOT_SEAT)}
        best = tuple(() if p in unseated else b for p, b in enumerate(best, 1))
        ranks = [-1 if p in unseated else r for p, r in enumerate(ranks, 1)]
        return Verdict(-1, (), tuple(ranks), why_not_showdown(reasons or {}, n), best=best)
    if len(plays) < n or -1 in ranks:             # a valid showdown: every player plays a ranked five
        raise RulesFault("a player has no five that plays, or it has no rank")
    winners = tuple(sorted(p - 1 for _, p in _rows(answers, I.SHOWDOWN_WINNER)))
    result = winners[0] + 1 if len(winners) == 1 else 0
    return Verdict(result, winners, tuple(ranks), None, best=best)


def why_not_showdown(reasons: Answers, n: int) -> str:
    """The rules' reasons, in words, naming the player (1..n) or the board each concerns."""
    found = sorted({(s, why) for _, s, why in _rows(reasons, I.WHY_NOT_SHOWDOWN)})
    if not found:
        return "not a valid showdown: the rules find it invalid"
    return "not a valid showdown: " + "; ".join(
        f"{'player ' + str(s) if s <= n else 'the board'}: {why}" for s, why in found)


def _rows(answers: Answers | dict[str, list[tuple]], pred: str) -> list[tuple]:
    """The rows of the predicate asked (answers keyed by Ask, or already by predicate name)."""
    if pred in answers:
        return answers[pred]                          # type: ignore[index]
    return next((rows for ask, rows in answers.items() if getattr(ask, "pred", None) == pred), [])


def _two(n: int, answers: Answers | dict[str, list[tuple]]) -> int | None:
    """The rules' beat of hand 1 against hand 2, in a two-hand fight (None for more hands)."""
    if n != 2:
        return None
    results = {row[2] for row in _rows(answers, I.BEAT) if row[0] == 1 and row[1] == 2}
    if len(results) != 1:
        raise RulesFault(f"the rules give beat {len(results)} values for one fight: {sorted(results)}")
    return results.pop()


def _verdict(n: int, answers: Answers, reasons: Answers | None) -> Verdict:
    by_pred = {ask.pred: rows for ask, rows in answers.items()}
    ranks = _ranks(by_pred.get(I.GET_RANK, []), n)
    beats = {(a - 1, b - 1): r for a, b, r in by_pred.get(I.BEAT, [])}
    result = _two(n, by_pred)
    if by_pred.get(I.INVALID_TABLE) or result == -1:
        return Verdict(-1, (), ranks, why_not_fight(reasons or {}, n), beats)
    if result is not None and I.WINNER not in by_pred:
        return Verdict(result, WINNERS[result], ranks, None, beats)
    winners = tuple(sorted(s - 1 for _, s in by_pred.get(I.WINNER, [])))
    if result is None:
        result = winners[0] + 1 if len(winners) == 1 else 0
    return Verdict(result, winners, ranks, None, beats)


def _ranks(rows: list[tuple], n: int) -> tuple[int, ...]:
    """Each hand's rank (-1: none); an error if the rules give one hand several."""
    ranks = [-1] * n
    for s, r in rows:
        if 1 <= s <= n:
            if ranks[s - 1] != -1 and ranks[s - 1] != r:
                values = sorted({r2 for s2, r2 in rows if s2 == s})
                raise RulesFault(f"the rules give getRank several values for one hand: {values}")
            ranks[s - 1] = r
    return tuple(ranks)


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
    return NO_REASON


NO_REASON = "not a valid fight: the rules find it invalid"
