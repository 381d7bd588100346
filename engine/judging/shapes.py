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


def fives_of_shape(engine: EngineView, cards: Sequence[int], shape: tuple) -> Any:
    """(pick, allowed, chosen) of a showdown shape ``(game, holes, board)``, for each player: their
    fives as getters of their cards from hand + board (World.fives' order), the indices of those
    mayPlay allows, and those fives as rows of places in hand + board; None when the rules find
    a showdown of this shape invalid (or the deck of ``cards`` is too short for one)."""
    game, holes, board = shape
    deck = list(cards)
    if sum(holes) + board > len(deck):
        found = None
    else:
        cards = iter(deck)
        world = World(tuple(tuple(itertools.islice(cards, h)) for h in holes),
                      board=tuple(itertools.islice(cards, board)), game=game)
        asks = [Ask(I.MAY_PLAY, (None, None)), Ask(I.INVALID_SHOWDOWN, (TABLE,))]
        try:
            answers = engine.evaluator(1).answers([world], asks)[0]
        except Exception as exc:          # the rules fail on it: every showdown of it is asked
            raise_if_stopped(exc)         # unless a signal or a budget stopped them
            answers = {asks[0]: [], asks[1]: [("failed",)]}
        if answers[asks[1]]:
            found = None
        else:
            k = len(holes)
            combos = [np.asarray(list(itertools.combinations(range(h + board), 5)), dtype=np.int64)
                      for h in holes]
            first = [k + 2 + sum(len(c) for c in combos[:p]) for p in range(k)]     # set id of each player's first five
            allowed = [np.zeros(len(c), dtype=bool) for c in combos]
            for p, s in answers[asks[0]]:
                if 1 <= p <= k and 0 <= s - first[p - 1] < len(combos[p - 1]):
                    allowed[p - 1][s - first[p - 1]] = True
            found = ([[operator.itemgetter(*c) for c in cs.tolist()] for cs in combos],
                     [np.flatnonzero(a) for a in allowed], [cs[a] for cs, a in zip(combos, allowed)])
    return found
