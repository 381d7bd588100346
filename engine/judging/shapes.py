"""What the rules let each player of a showdown's shape play, asked of them once.

A showdown's shape is its game, each player's number of cards and the board's.  Where the showdown
proof holds, which fives each player may play (mayPlay) and whether a showdown is valid depend on
its shape alone, so one world of the shape answers for every showdown of it.
"""

from __future__ import annotations

import itertools
import operator
from typing import Any, Sequence

import numpy as np

from engine import interface as I
from engine.evaluators import TABLE, Ask, World
from engine.interface import EngineView
from engine.limits import raise_if_stopped

ASKS = [Ask(I.MAY_PLAY, (None, None)), Ask(I.INVALID_SHOWDOWN, (TABLE,))]


def fives_of_shape(engine: EngineView, cards: Sequence[int], shape: tuple) -> Any:
    """(pick, allowed, chosen) of a showdown shape ``(game, holes, board)``, for each player: their
    fives as getters of their cards from hand + board (World.fives' order), the indices of those
    mayPlay allows, and those fives as rows of places in hand + board; None when the rules find
    a showdown of this shape invalid (or the deck of ``cards`` is too short for one)."""
    return fives_of_shapes([shape], cards, engine.evaluator(1))[shape]


def fives_of_shapes(shapes: Sequence[tuple], cards: Sequence[int], evaluator: Any) -> dict[tuple, Any]:
    """:func:`fives_of_shape` of each shape, a showdown of each (of the deck's first cards) asked
    in one run; where the run fails, each shape alone, and a shape whose own run fails is None
    (every showdown of it asked of the rules) unless a signal or a budget stopped them."""
    deck = list(cards)
    worlds: dict[tuple, World] = {}
    for game, holes, board in shapes:
        if sum(holes) + board <= len(deck):
            dealt = iter(deck)
            worlds[(game, holes, board)] = World(tuple(tuple(itertools.islice(dealt, h)) for h in holes),
                                                 board=tuple(itertools.islice(dealt, board)), game=game)
    try:
        answers = dict(zip(worlds, evaluator.answers(list(worlds.values()), ASKS)))
    except Exception as exc:
        raise_if_stopped(exc)
        if len(worlds) > 1:
            out: dict[tuple, Any] = {}
            for shape in shapes:
                out.update(fives_of_shapes([shape], cards, evaluator))
            return out
        answers = {shape: {ASKS[0]: [], ASKS[1]: [("failed",)]} for shape in worlds}
    return {shape: _found(shape, answers[shape]) if shape in answers else None for shape in shapes}


def _found(shape: tuple, answers: dict) -> Any:
    """A shape's (pick, allowed, chosen) from the rules' answers about its showdown."""
    if answers[ASKS[1]]:
        return None
    k = len(shape[1])
    combos = _combos(shape)
    first = [k + 2 + sum(len(c) for c in combos[:p]) for p in range(k)]     # set id of each player's first five
    allowed = [np.zeros(len(c), dtype=bool) for c in combos]
    for p, s in answers[ASKS[0]]:
        if 1 <= p <= k and 0 <= s - first[p - 1] < len(combos[p - 1]):
            allowed[p - 1][s - first[p - 1]] = True
    return _made(combos, [np.flatnonzero(a) for a in allowed])


def _combos(shape: tuple) -> list[np.ndarray]:
    """Each player's fives of hand + board, as rows of places (itertools.combinations' order)."""
    _, holes, board = shape
    return [np.asarray(list(itertools.combinations(range(h + board), 5)), dtype=np.int64) for h in holes]


def _made(combos: list[np.ndarray], allowed: list[np.ndarray]) -> Any:
    return ([[operator.itemgetter(*c) for c in cs.tolist()] for cs in combos],
            allowed, [cs[a] for cs, a in zip(combos, allowed)])


def allowed_of(found: Any) -> list[list[int]] | None:
    """What a shape's answer keeps (engine.judging.proofcache): each player's allowed fives, as
    indices of :func:`_combos`' rows; None for a shape the rules find invalid."""
    return None if found is None else [a.tolist() for a in found[1]]


def from_allowed(shape: tuple, allowed: Any) -> Any:
    """A shape's (pick, allowed, chosen) from what :func:`allowed_of` kept, when it is what a shape
    of this many players can have (each list strictly ascending indices of that player's fives);
    else ValueError.  None stays None (an invalid shape)."""
    if allowed is None:
        return None
    combos = _combos(shape)
    if not isinstance(allowed, list) or len(allowed) != len(combos):
        raise ValueError("not one list a player")
    out = []
    for a, cs in zip(allowed, combos):
        if not isinstance(a, list) or not all(type(i) is int and 0 <= i < len(cs) for i in a) \
                or any(x >= y for x, y in zip(a, a[1:])):
            raise ValueError("not ascending indices of the player's fives")
        out.append(np.asarray(a, dtype=np.int64))
    return _made(combos, out)
