"""House of Games (003_…), Schema 1.1 and Operations 1.1–1.4: a board of places and counters.

Why facts and rules: the poker knowledge of this project lives in Datalog, so the board does too.
Its state is four relations of facts, one per component of the Board schema (``counter(C)`` for
the set C, ``place(P)`` for P, ``dist(P)`` for dom C_ and ``on(C, P)`` for the sets C_p), and the
schema's invariant is ``rules/board/board.dl`` (package data of ``engine.rules``, beside the poker
rules but not part of a poker rule set): rules that derive ``violation(Line, What, X)`` for
whatever breaks ``dom C_ = P``, ``{C_p} partitions C`` or Axiom 1.1.  ``check()`` asks them.
Keeping dom C_ apart from P, and C apart from the C_p, is what makes the invariant a real claim
(and the consistency lemmas something to test) rather than true by construction.

The board has a pyDatalog ``Logic`` of its own, never shared with a poker Engine; it takes part in
the protocol for switching Logics per thread (``core.LogicOwner``), so boards and engines
can be used in turn in one thread.  The operations never raise for the spec's skip cases: each
returns True when it changed the board and False when it skipped (the second disjunct, e.g.
APlace2).  Counters and places are ints or strings (pyDatalog constants).
"""

from __future__ import annotations

import functools
from typing import Any, Union

from engine import core
from engine.core import Var
from engine.datalog import loader, rulesets
from engine.evaluators.pydatalog.build import build
from engine.evaluators.pydatalog.lazy import pyParser

Item = Union[int, str]
# Found with importlib.resources (rulesets.RULES_DIR), wherever the package is installed.
RULES = rulesets.RULES_DIR / "board" / "board.dl"

JOKER = (0, 13)   # Example 5: a joker's rank is 13, its suit (0) is unimportant


class InvariantError(AssertionError):
    """The board breaks the Board schema; the message lists every violation the rules find."""


@functools.lru_cache(maxsize=1)
def _clauses() -> tuple[loader.Clause, ...]:
    return tuple(loader.parse_file(RULES))


def _check_item(x: Any, what: str) -> None:
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise TypeError(f"a {what} is an int or a str, not {type(x).__name__} {x!r}")


class Board(core.LogicOwner):
    """A board (Schema 1.1): places on it, counters on the places, as pyDatalog facts.

    >>> board = Board()
    >>> board.add_place("deck"), board.add_place("hand"), board.add_counter(7, "deck")
    (True, True, True)
    >>> board.add_place("deck")                 # APlace2: already on the board, skips
    False
    >>> board.move(7, "hand"), board.place_of(7), board
    (True, 'hand', Board({'deck': [], 'hand': [7]}))
    >>> board.violations()                      # the invariant's rules find nothing broken
    []
    >>> board.remove_place("hand"), board.counters
    (True, frozenset())
    """

    def __init__(self) -> None:
        # board.dl names all four relations in bodies, so their facts live in this Logic's Db.
        self._init_logic(lambda: build(_clauses(), why=False))

    # ---- facts and queries -----------------------------------------------------------------

    _assert = staticmethod(core.assert_fact)
    _retract = staticmethod(core.retract_fact)

    def _ask(self, predicate: str, *args: Any) -> list[tuple]:
        """Answers of ``predicate(args)``: one tuple of the Var values per answer."""
        with self._context():
            terms = [pyParser.Term(a.name) if isinstance(a, Var) else a for a in args]
            data = pyParser.Term(predicate)(*terms).ask()
            if data is True:
                return [()]
            return sorted(data or [], key=repr)

    def _holds(self, predicate: str, *args: Any) -> bool:
        return bool(self._ask(predicate, *args))

    def _change(self, add: list[tuple[str, tuple]], remove: list[tuple[str, tuple]]) -> None:
        with self._context():
            for name, args in remove:
                self._retract(name, args)
            for name, args in add:
                self._assert(name, args)

    @property
    def places(self) -> frozenset[Item]:
        """P: the places on the board."""
        return frozenset(r[0] for r in self._ask("place", Var("P")))

    @property
    def counters(self) -> frozenset[Item]:
        """C: the counters on the board."""
        return frozenset(r[0] for r in self._ask("counter", Var("C")))

    def counters_at(self, p: Item) -> frozenset[Item]:
        """C_p: the counters on place p (empty when p holds none or is not on the board)."""
        return frozenset(r[0] for r in self._ask("on", Var("C"), p))

    def place_of(self, c: Item) -> Item | None:
        """The place c is on (the mu p : P | c in C_p of Operation 1.4); None when c is not on the board."""
        found = [r[0] for r in self._ask("on", c, Var("P"))]
        if len(found) > 1:
            raise InvariantError(f"counter {c!r} is on {len(found)} places: {sorted(map(repr, found))}")
        return found[0] if found else None

    def __contains__(self, x: object) -> bool:
        return x in self.places or x in self.counters

    def __repr__(self) -> str:
        dist = {p: sorted(self.counters_at(p), key=repr) for p in sorted(self.places, key=repr)}
        return f"Board({dist})"

    # ---- the invariant ---------------------------------------------------------------------

    def violations(self) -> list[str]:
        """What breaks the Board schema, one line each (empty when the board is sound)."""
        return [f"{line}: {what}: {x!r}" for line, what, x in self._ask("violation", Var("L"), Var("W"), Var("X"))]

    def check(self) -> None:
        """The Board schema's invariant: raise InvariantError naming every violation."""
        found = self.violations()
        if found:
            raise InvariantError("the board breaks its schema: " + "; ".join(found))

    # ---- the four operations (each: True when done, False when it skips) --------------------

    def add_place(self, p: Item) -> bool:
        """Operation 1.1 APlace: p joins P with C_p = {} (APlace1); skips when p is on the board (APlace2)."""
        _check_item(p, "place")
        if self._holds("place", p):
            return False
        if self._holds("counter", p):
            raise ValueError(f"{p!r} is a counter on the board; places and counters are apart (Axiom 1.1)")
        self._change(add=[("place", (p,)), ("dist", (p,))], remove=[])
        return True

    def remove_place(self, p: Item) -> bool:
        """Operation 1.2 RPlace: p and the counters on it leave the board (RPlace1); skips when p is not on it."""
        _check_item(p, "place")
        if not self._holds("place", p):
            return False
        held = self.counters_at(p)
        self._change(add=[], remove=[("on", (c, p)) for c in held] + [("counter", (c,)) for c in held]
                     + [("place", (p,)), ("dist", (p,))])
        return True

    def add_counter(self, c: Item, p: Item) -> bool:
        """Operation 1.3 ACounter: c joins C and C_p (ACounter1); skips when c is on the board or p is not."""
        _check_item(c, "counter")
        _check_item(p, "place")
        if self._holds("counter", c) or not self._holds("place", p):
            return False
        if self._holds("place", c):
            raise ValueError(f"{c!r} is a place on the board; places and counters are apart (Axiom 1.1)")
        self._change(add=[("counter", (c,)), ("on", (c, p))], remove=[])
        return True

    def remove_counter(self, c: Item) -> bool:
        """Operation 1.4 RCounter: c leaves C and its place's C_p (RCounter1); skips when c is not on the board."""
        _check_item(c, "counter")
        if not self._holds("counter", c):
            return False
        q = self.place_of(c)
        self._change(add=[], remove=[("counter", (c,))] + ([("on", (c, q))] if q is not None else []))
        return True

    def move(self, c: Item, p: Item) -> bool:
        """RCounter then ACounter: c from its place to p.  Not one of the spec's operations; it
        skips, changing nothing, when c or p is not on the board (so c is never lost on the way)."""
        if not self._holds("place", p) or not self._holds("counter", c):
            return False
        self.remove_counter(c)
        return self.add_counter(c, p)


# ---- card categories (Axiom 1.2, Example 5) -------------------------------------------------

def category(i: int, jokers: int = 0) -> tuple[int, int]:
    """Example 5's category function c: i -> (suit, rank) = (i div 13, i mod 13) for i in 0..51.

    With ``jokers`` > 0 the domain grows to 0..51+jokers and every i >= 52 is a joker, (0, 13):
    rank 13, suit unimportant (Example 5 has one joker category, 52, i.e. jokers=1).  Suits 0..3
    and ranks 0..12 relate to the poker spec's card ids (004, section 2.1) by id = i + 1: suit
    index s is the spec's suit s + 1 (0 heart, 1 diamond, 2 club, 3 spade) and rank index r is
    the spec's value r + 1 (0 ace, 9 ten, 12 king); see :func:`card_id`.

    >>> category(0), category(12), category(13), category(51)     # AH, KH, AD, KS
    ((0, 0), (0, 12), (1, 0), (3, 12))
    >>> category(52, jokers=1)
    (0, 13)
    """
    if isinstance(i, bool) or not isinstance(i, int) or isinstance(jokers, bool) or not isinstance(jokers, int):
        raise TypeError("category(i, jokers) takes ints")
    if jokers < 0:
        raise ValueError(f"jokers must be >= 0, not {jokers}")
    if not 0 <= i < 52 + jokers:
        raise ValueError(f"category {i} is outside 0..{51 + jokers}")
    return divmod(i, 13) if i < 52 else JOKER


def card_id(i: int) -> int:
    """The spec's card id (1..52) of category i (0..51): i + 1.  Jokers have no card id."""
    category(i)          # validates 0..51
    return i + 1


def category_of(card: int) -> int:
    """The category (0..51) of a spec card id (1..52): id - 1."""
    if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= 52:
        raise ValueError(f"{card!r} is not a card id 1..52")
    return card - 1
