"""Split pots (hi/lo): a showdown of a game the rules split between a high hand and a low.

The rules say which games split and under which rule set the low half is judged
(``splitLow(G, Name)`` in rules/showdown.dl: ``holdem-hilo`` and ``omaha-hilo`` with
``eight-or-better``), and that rule set says which of its ranks take the low half
(``qualifyingRank(R)``: eight-or-better's "eight or better", not "no low"; a low rule set without
it lets every rank qualify).  The high half is this engine's showdown, the low half the low rule
set's showdown of the same cards, each asked of its own rules (off its own five-card table where
its proofs allow).  What is left to Python is the arithmetic of halves: the pot is halved between
the high winners and the low winners when some low qualifies, else the high winners take it
all; the winners of a half share it equally (the odd chip is issue 21's rules/pots.dl).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any, Sequence

from engine import interface as I
from engine.evaluators import Verdict, World
from engine.evaluators import verdicts as _verdicts
from engine.interface import EngineView
from engine.judging import policy


def shares(players: int, high: Sequence[int], low: Sequence[int]) -> tuple[Fraction, ...]:
    """Each player's share of a pot halved between the high winners and the low winners (all
    to the high winners when no low qualifies); a half's winners share it equally.

    >>> [str(s) for s in shares(3, [0], [1, 2])]
    ['1/2', '1/4', '1/4']
    >>> [str(s) for s in shares(2, [0, 1], [])]
    ['1/2', '1/2']
    >>> [str(s) for s in shares(2, [0], [0])]               # a scoop
    ['1', '0']
    """
    out = [Fraction(0)] * players
    halves = [(high, Fraction(1, 2)), (low, Fraction(1, 2))] if low else [(high, Fraction(1))]
    for winners, part in halves:
        for w in winners:
            out[w] += part / len(winners)
    return tuple(out)


def split_games(engine: EngineView) -> dict[int, str]:
    """The games (gameName codes) whose pot the rules split, and the rule set of each low half."""
    found = engine.state.split_games
    if found is None:
        found = {g: name for g, name in engine.static(I.SPLIT_LOW, 2)} \
            if any(c.head == I.SPLIT_LOW for c in engine.ruleset.clauses) else {}
        engine.state.split_games = found
    return found


def with_low(engine: EngineView, worlds: Sequence[Any], verdicts: list[Verdict], eager: bool = False) -> list[Verdict]:
    """The verdicts, each showdown of a split game completed with its low half (``low``,
    ``low_best``, ``low_ranks``) and the players' ``shares``; every other verdict as it is.
    ``eager``: a batch worth the low rule set's table as soon as it is in the cache (hand
    histories); else the low engine turns to it as it does for its own questions."""
    games = split_games(engine)
    if not games:
        return verdicts
    todo: dict[str, list[int]] = {}
    for i, (w, v) in enumerate(zip(worlds, verdicts)):
        if isinstance(w, World) and w.board is not None and w.game in games and not v.error:
            todo.setdefault(games[w.game], []).append(i)
    for name, places in todo.items():
        low = engine.low_engine(name)
        qualifying = low.qualifying_ranks()
        names = {code: game for game, code in engine.games.items()}
        codes = low.games
        if sum(policy.weight(worlds[i]) for i in places) >= policy.LOW_BUILD_AFTER:
            low.tabled(build=True)          # a long batch: the low rule set's own table pays
        missing = {names[worlds[i].game] for i in places} - set(codes)
        if missing:                         # the low rule set does not know the game: no low half
            for i in places:
                verdicts[i] = dataclasses.replace(verdicts[i], result=-1, winners=(), error=(
                    f"the low half's rule set {name!r} knows no game {names[worlds[i].game]!r}"))
            continue
        asked = [dataclasses.replace(worlds[i], game=codes[names[worlds[i].game]]) for i in places]
        found = _verdicts(low.evaluator(asked), asked, table=low.tabled()) if eager \
            else low._verdicts(asked, split=False)
        for i, lv in zip(places, found):
            v = verdicts[i]
            if lv.error:
                verdicts[i] = dataclasses.replace(v, result=-1, winners=(), error=f"the low half ({name}): {lv.error}")
                continue
            winners = tuple(w for w in lv.winners if qualifying is None or lv.ranks[w] in qualifying)
            verdicts[i] = dataclasses.replace(v, low=winners, low_best=lv.best, low_ranks=lv.ranks,
                                              shares=shares(len(v.ranks), v.winners, winners))
    return verdicts


def low_half(engine: EngineView, game: int, verdict: Verdict) -> tuple[EngineView, dict[str, Any]]:
    """A split showdown's low half as reported (judge's ``low``, beat's): the low rule set's
    engine, and its winners, each player's low five and its rank and category."""
    low = engine.low_engine(split_games(engine)[game])
    return low, {"winners": list(verdict.low or ()), "best": [low.notation.format(b) for b in verdict.low_best],
                 "ranks": list(verdict.low_ranks), "categories": [low.categories.get(r) for r in verdict.low_ranks]}
