"""Explanations: which axiom gave each hand its rank and which decided a fight, on what.

Everything here is asked of the rules: the loader gives every labelled clause a shadow predicate
``p__why(.., label)`` that holds when that clause's body does, so "which axiom" is a query.
Python only puts the answers into words (value names come from rules/cards.dl).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from engine.datalog.loader import WHY
from engine.evaluators import Fault, World, faults
from engine.evaluators.pydatalog.runtime import Var
from engine.interface import EngineView
from engine.poker.notation import Cards


@dataclass
class HandWhy:
    hand: str
    rank: int
    category: str | None
    axioms: list[str]


@dataclass
class FightWhy:
    result: int
    axiom: str
    detail: str
    hands: list[HandWhy] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"hand {i + 1} ({h.hand}): {h.category or 'not a hand'}, rank {h.rank}"
               f" by {', '.join(h.axioms) or 'no axiom'}" for i, h in enumerate(self.hands)]
        out.append(f"{self.axiom}: {self.detail}")
        return out


def explain_hand(engine: EngineView, hand: Cards) -> HandWhy:
    ids = engine.cards(hand)
    with engine.sets(ids) as (sid,):
        rows = engine.ask("getRank" + WHY, sid, Var("R"), Var("L"))
    rank = rows[0][0] if rows else -1
    return HandWhy(engine.notation.format(ids), rank, engine.categories.get(rank), sorted({r[1] for r in rows}))


def explain_fight(engine: EngineView, a: Cards, b: Cards, order: bool = False) -> FightWhy:
    """Why beat(a, b) is what it is; ``order``: why compareHands(a, b) is (beat's order of two
    hands that may share cards: two players' best fives at a showdown)."""
    hands = [explain_hand(engine, a), explain_hand(engine, b)]
    with engine.sets(a, b) as (x, y):
        fired = engine.ask(("compareHands" if order else "beat") + WHY, x, y, Var("R"), Var("L"))
        result = fired[0][0] if fired else -1
        labels = {r[1] for r in fired}
        if labels & {"beat_F00", "compareHands_Rank"} or not labels:
            return FightWhy(result, *_by_rank(engine, x, y, hands, order), hands=hands)
        rank = hands[0].rank
        decided = engine.ask("decidedAt", x, y, Var("O"))
        if not decided:   # fair: every part equal; name the last part's axiom
            parts = engine.ask("keyPart" + WHY, rank, Var("O"), Var("P"), Var("L"))
            axiom = max(parts)[2] if parts else "beat_Fair"
            return FightWhy(result, axiom, "fair: the hands are equal on every part it compares", hands)
        order_ = decided[0][0]
        part, axiom = engine.ask("keyPart" + WHY, rank, order_, Var("P"), Var("L"))[0]
        at = engine.ask("keyDiffAt", x, part, y, part, Var("I"))[0][0]
        mine = engine.ask_one("partKey", x, part, at, Var("V"))
        theirs = engine.ask_one("partKey", y, part, at, Var("V"))
    if at == 0:       # position 0 of a compareSetCard key: does the part hold an ace?
        detail = "an ace against none" if mine > theirs else "no ace against an ace"
    else:
        win, lose = (mine, theirs) if mine > theirs else (theirs, mine)
        detail = f"{_plural(engine, win)} over {_plural(engine, lose)}"
    return FightWhy(result, axiom, f"{detail} ({part})", hands)


def _by_rank(engine: EngineView, x: int, y: int, hands: list[HandWhy], order: bool) -> tuple[str, str]:
    """The axiom that decided by rank (beatRank_F1, _F2), or why the fight is not valid."""
    valid = order or any(r[1] != "beatRank_F00" for r in engine.ask("beatRank" + WHY, x, y, Var("R"), Var("L")))
    rows = engine.ask("rankOrder" + WHY, x, y, Var("R"), Var("L")) if valid else []
    if not rows:
        reasons = [f"hand {i + 1}: {r[0]}" for i, s in enumerate((x, y))
                   for r in engine.ask("whyNotHand", s, Var("W"))]
        reasons += [r[0] for r in engine.ask("whyNotFight", x, y, Var("W"))]
        return "beatRank_F00", "not a valid fight: " + ("; ".join(reasons) or "the rules find it invalid")
    high, low = sorted(hands, key=lambda h: h.rank, reverse=True)
    return rows[0][1], f"{high.category} over {low.category}"


def _plural(engine: EngineView, value: int) -> str:
    rows = engine.ask("valueName", value, Var("N"), Var("P"))
    return rows[0][1] if rows else str(value)


def fault(engine: EngineView, hands: Sequence[Cards]) -> str | None:
    """The first of the hands that has no value or several of a predicate that should have one
    (:func:`engine.evaluators.faults`: getRank, and what the rules name in oneValue), in words
    with the labels of the clauses that gave each value; None when the rules give each hand one.

    >>> from engine import Engine
    >>> fault(Engine(), ["AH 7D 8C 9S TH"]) is None
    True
    """
    world = World(tuple(tuple(engine.cards(h)) for h in hands))
    found = faults(engine.evaluator(), [world])[0]
    return None if found is None else f"{found.message}{_clauses(engine, world, found)}"


def _clauses(engine: EngineView, world: World, found: Fault) -> str:
    """`` (straightTop_FA gives 1, straightTop_A7 gives 10)``: which clause gave which value."""
    if not found.values:
        return f" (no clause of {found.pred} holds for it)"
    with engine.sets(*world.hands) as ids:
        rows = engine.ask(found.pred + WHY, ids[found.set - 1], *found.at, Var("V"), Var("L"))
    gave: dict[str, list] = {}
    for value, label in rows:
        gave.setdefault(label, []).append(value)
    if not gave:
        return ""
    return " (" + ", ".join(f"{label} gives {' and '.join(map(str, sorted(set(v), key=repr)))}"
                            for label, v in gave.items()) + ")"
