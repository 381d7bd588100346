"""The Engine: cards in as facts, the rules' answers out.

Every answer is a query against the loaded rules.  For each question the engine asserts the sets
it names (``declared(S)``, ``holds(S, I, C)``), asks, and retracts them.  Each Engine keeps its
own pyDatalog ``Logic``, so engines with different rule sets live side by side in one process.
"""

from __future__ import annotations

import itertools
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from pyDatalog import Logic, pyParser

from . import loader
from .notation import Cards, InvalidCards, Notation

_active = threading.local()   # which owner's Logic the current thread holds


class LogicOwner:
    """Something with a pyDatalog Logic of its own (an Engine, a Board).

    pyDatalog keeps its program in a per-thread Logic; an owner installs its own in the calling
    thread before every use, so several owners live side by side in one process and one thread.
    """

    _lock: threading.RLock
    _logic: Any

    def _init_logic(self, build: Callable[[], None]) -> None:
        """Build a fresh Logic with ``build()`` and keep it."""
        self._lock = threading.RLock()
        with self._lock:
            Logic()
            build()
            self._logic = Logic(True)
            _active.owner = self

    @contextmanager
    def _context(self) -> Iterator[None]:
        with self._lock:
            if getattr(_active, "owner", None) is not self:
                Logic(self._logic)
                _active.owner = self
            yield


class Var:
    """A query variable."""
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


class Engine(LogicOwner):
    """A poker judge whose knowledge is a rule set (``standard``, a variant name, or a directory)."""

    def __init__(self, rules: str | Path | None = None):
        self.ruleset = loader.resolve(rules)
        self._ids = itertools.count(1)
        self._init_logic(lambda: loader.build(self.ruleset.clauses))
        self.notation = Notation.from_tables(
            self.ask("valueSymbol", Var("V"), Var("S"), Var("O")),
            self.ask("suitSymbol", Var("V"), Var("S"), Var("O")),
            self.ask("cardId", Var("C"), Var("V"), Var("S")))
        self.categories: dict[int, str] = dict(self.ask("categoryName", Var("R"), Var("N")))

    @property
    def name(self) -> str:
        return self.ruleset.name

    def __repr__(self) -> str:
        return f"Engine(rules={self.name!r})"

    # ---- plumbing --------------------------------------------------------------------------

    def ask(self, predicate: str, *args: Any) -> list[tuple]:
        """Answers of ``predicate(args)``: one tuple of the Var values per answer (sorted)."""
        with self._context():
            terms = [pyParser.Term(a.name) if isinstance(a, Var) else a for a in args]
            query = pyParser.Term(predicate)(*terms)
            try:
                data = query.ask()
            except AttributeError as exc:   # pyDatalog: "Predicate without definition"
                if "without definition" in str(exc):
                    return []
                raise
            if data is True:
                return [()]
            return sorted(data or [], key=repr)

    def ask_one(self, predicate: str, *args: Any, default: Any = None) -> Any:
        """The single value of a functional predicate (its one Var)."""
        return _single(self.ask(predicate, *args), f"{predicate}{args} in rules {self.name}", default)

    def holds(self, predicate: str, *args: Any) -> bool:
        return bool(self.ask(predicate, *args))

    def cards(self, cards: Cards) -> list[int]:
        """Parse a hand or set into card ids (InvalidCards names a bad token)."""
        return self.notation.parse(cards)

    @contextmanager
    def sets(self, *card_sets: Cards) -> Iterator[list[int]]:
        """Assert the given sets as facts for the duration of a query; yield their ids."""
        parsed = [self.cards(c) for c in card_sets]
        with self._context():
            ids = [next(self._ids) for _ in parsed]
            facts = [("declared", (sid,)) for sid in ids] + \
                    [("holds", (sid, i, c)) for sid, cs in zip(ids, parsed) for i, c in enumerate(cs)]
            for name, args in facts:
                assert_fact(name, args)
            try:
                yield ids
            finally:
                for name, args in facts:
                    retract_fact(name, args)

    def _set_query(self, predicate: str, cards: Sequence[Cards], *rest: Any) -> list[tuple]:
        with self.sets(*cards) as ids:
            return self.ask(predicate, *ids, *rest)

    # ---- the spec's predicates (Card, Poker, Ranking, Fighting) ----------------------------

    def get_suit(self, card: int) -> int:
        """The spec's getSuit; 0 for an id that is not a card (getSuit_Invalid speaks of held ids)."""
        with self.sets([card]):
            return self.ask_one("getSuit", card, Var("S"), default=0)

    def get_value(self, card: int) -> int:
        with self.sets([card]):
            return self.ask_one("getValue", card, Var("V"), default=0)

    def _flag(self, predicate: str, cards: Cards) -> bool:
        return bool(self._set_query(predicate, [cards]))

    def is_empty(self, cards: Cards) -> bool:
        return self._flag("isEmpty", cards)

    def is_set_card(self, cards: Cards) -> bool:
        return self._flag("isSetCard", cards)

    def is_pair(self, cards: Cards) -> bool:
        return self._flag("isPair", cards)

    def is_three(self, cards: Cards) -> bool:
        return self._flag("isThree", cards)

    def is_four(self, cards: Cards) -> bool:
        return self._flag("isFour", cards)

    def is_a(self, cards: Cards) -> bool:
        return self._flag("isA", cards)

    def is_k(self, cards: Cards) -> bool:
        return self._flag("isK", cards)

    def is_hand(self, cards: Cards) -> bool:
        return self._flag("isHand", cards)

    def is_flush(self, cards: Cards) -> bool:
        return self._flag("isFlush", cards)

    def is_straight(self, cards: Cards) -> bool:
        return self._flag("isStraight", cards)

    def get_max(self, cards: Cards) -> int:
        return _single(self._set_query("getMax", [cards], Var("V")), "getMax", 0)

    def get_max_card(self, cards: Cards) -> list[int]:
        """Every card of the highest value (the report leaves the choice among them open)."""
        return sorted(r[0] for r in self._set_query("getMaxCard", [cards], Var("C")))

    def compare_set_card(self, a: Cards, b: Cards) -> int:
        return _single(self._set_query("compareSetCard", [a, b], Var("R")), "compareSetCard", -1)

    def get_rank(self, hand: Cards) -> int:
        """The spec's getRank: 1..10, -1 when it is not a hand."""
        return _single(self._set_query("getRank", [hand], Var("R")), "getRank", -1)

    def valid_fighting(self, a: Cards, b: Cards) -> bool:
        return bool(self._set_query("validFighting", [a, b]))

    def beat_rank(self, a: Cards, b: Cards) -> int:
        return _single(self._set_query("beatRank", [a, b], Var("R")), "beatRank", -1)

    def beat(self, a: Cards, b: Cards) -> int:
        """The spec's beat: 1 a wins, 2 b wins, 0 fair, -1 not a valid fight."""
        return _single(self._set_query("beat", [a, b], Var("R")), "beat", -1)

    # ---- convenience -----------------------------------------------------------------------

    def role(self, text: Cards, problem: str = "first") -> str:
        """The Doukaku role code of five cards (problem "first", "rest" or "all"): see engine.roles."""
        from .roles import role
        return role(self, text, problem)

    def category(self, hand: Cards) -> str:
        """The name of a hand's rank; InvalidCards when it is not a hand."""
        rank = self.get_rank(hand)
        if rank not in self.categories:
            raise InvalidCards(f"{show(hand)} is not a hand: {self.why_not_hand(hand)}")
        return self.categories[rank]

    def why_not_hand(self, hand: Cards) -> str:
        reasons = [r[0] for r in self._set_query("whyNotHand", [hand], Var("W"))]
        return "; ".join(reasons) or "the rules give it no rank"

    def winners(self, hands: Sequence[Cards]) -> list[int]:
        """0-based indices of the best of 2..10 hands (several on a tie): beat_Bonus made N-hand."""
        if isinstance(hands, str) or not 2 <= len(hands) <= 10:
            raise InvalidCards("a fight takes 2 to 10 hands")
        with self.sets(*hands) as ids:
            table = next(self._ids)
            with self._context():
                for sid in ids:
                    assert_fact("seat", (table, sid))
                try:
                    if self.holds("invalidTable", table):
                        raise InvalidCards(f"not a valid fight: {self._why_not_fight(ids)}")
                    won = {r[0] for r in self.ask("winner", table, Var("H"))}
                finally:
                    for sid in ids:
                        retract_fact("seat", (table, sid))
        return [i for i, sid in enumerate(ids) if sid in won]

    def _why_not_fight(self, ids: list[int]) -> str:
        for i, sid in enumerate(ids):
            reasons = [r[0] for r in self.ask("whyNotHand", sid, Var("W"))]
            if reasons:
                return f"hand {i + 1}: {'; '.join(reasons)}"
        for (i, a), (j, b) in itertools.combinations(enumerate(ids), 2):
            reasons = [r[0] for r in self.ask("whyNotFight", a, b, Var("W"))]
            if reasons:
                return f"hands {i + 1} and {j + 1}: {'; '.join(reasons)}"
        return "the rules find it invalid"


def assert_fact(name: str, args: tuple) -> None:
    """Assert name(args) in the current thread's Logic (inside an owner's _context())."""
    +pyParser.Literal.make(name, [pyParser.Expression._pyD_for(a) for a in args])


def retract_fact(name: str, args: tuple) -> None:
    -pyParser.Literal.make(name, [pyParser.Expression._pyD_for(a) for a in args])


def _single(rows: list[tuple], what: str, default: Any) -> Any:
    """The one value of a functional predicate's answers (a row of one value, or the whole row)."""
    values = {r[0] if len(r) == 1 else r for r in rows}
    if len(values) > 1:
        raise RuntimeError(f"the rules give {what} several values: {sorted(values)}")
    return values.pop() if values else default


def show(cards: Cards) -> str:
    """Cards as the user gave them, for messages."""
    return cards if isinstance(cards, str) else " ".join(map(str, cards))
