"""What is known of a chunk of hands before the rules are asked: each hand's chips as facts for
rules/pots.dl, the showdowns its pots will hold (foreseen as the card room builds pots, checked
by the rules' own pots), whether the loaded rules settle the pots before any showdown (then one
run asks both), and whether a chunk's showdowns are worth the cached five-card tables.
"""

from __future__ import annotations

import ast
from typing import Any

from engine import interface as I
from engine.core import Engine
from engine.datalog.graph import needed
from engine.io.phhtext import Played
from engine.judging import policy
from engine.judging.hilo import split_games
from engine.judging.policy import weight


def _chips(p: Played) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """A hand's facts for rules/pots.dl (players numbered from 1, as PHH numbers them)."""
    ante, bet = I.ANTE, I.BET
    out = [(ante, (0, i + 1, x)) for i, x in enumerate(p.antes) if x]
    out += [(bet, (0, i + 1, r, x)) for r, bets in enumerate(p.bets, 1) for i, x in enumerate(bets) if x]
    out += [(I.FOLDED, (0, i + 1)) for i in p.folded]
    if len(p.live) > 1:
        out += [(I.UNSHOWN, (0, i + 1)) for i in p.live if p.hole[i] is None]
    return tuple(out)


def _foresee(p: Played) -> dict[int, tuple[int, ...]]:
    """The showdowns of the pots two or more players will contest, foreseen from what each put
    in as the card room builds pots (rules/pots.dl: an uncalled bet returned, a level for each
    live player's stake, its contestants those who reached it, its showdown of those whose
    hands were shown: level -> those players, where two or more).  Only a guess, so that the
    showdowns can be asked before the rules and go into the same run as the pots: the rules'
    own pots check it, hand by hand, and a hand it misses is asked again the long way
    (Histories._in_one_run)."""
    if len(p.live) < 2:             # one player left: no pot with two of them (most hands, at once)
        return {}
    n = len(p.stakes)
    kept, bet = [0] * n, [False] * n
    for bets in p.bets:
        made = sorted([y for y in bets if y])
        if not made:
            continue
        # what the largest bet of the others is: the largest, or for (one of) the largest, the next
        top, next_ = made[-1], made[-2] if len(made) > 1 else 0
        for i, x in enumerate(bets):
            if x:
                bet[i] = True
                kept[i] += min(x, next_ if x == top else top)
    stakes = {q: kept[q] for q in p.live if bet[q] or p.antes[q]}
    out: dict[int, tuple[int, ...]] = {}
    for level in sorted(set(stakes.values())):
        players = tuple(q + 1 for q, x in sorted(stakes.items()) if x >= level and p.hole[q] is not None)
        if len(players) > 1:
            out[level] = players
    return out


def _worth(engine: "Engine", asked: list[Any]) -> bool:
    """Whether showdowns are worth the cached five-card tables (a second or two to load them and
    make their proofs): when they make the rules compare many fives world by world, each weighed
    as poker judge weighs it (engine.judging.policy.weight: its players' pairs of fives) and twice in a
    split game (its low half is a second showdown).  200 heads-up showdowns of hold'em are worth
    it, 3 of Omaha hi/lo (126 fives a player), where one takes the rules a second or more.
    Any showdown is, once the table is at hand (a batch of HISTORY_LOOK_AFTER hands or more has
    loaded it and asked its proofs, Histories._warm): then there is
    nothing left to pay, and a six-handed hold'em showdown asked world by world in-process takes
    the rules some 60 ms (a file of 500 Pluribus hands: 2.8 s of its 43 showdowns, 0.1 s off the
    table).  Showdowns of a split game keep the threshold (their low half's table may not be
    at hand)."""
    split = split_games(engine)
    if engine.state.table is not None and not any(getattr(w, "game", None) in split for w in asked):
        return True
    work = 0
    for w in asked:
        work += weight(w) * (2 if getattr(w, "game", None) in split else 1)
        if work >= policy.HISTORY_WORK_AFTER:
            return True
    return False


def _foreseeable(engine: "Engine") -> bool:
    """Whether the rules' returned bets, pots and contestants are settled before any showdown:
    no clause they reach reads potHigh or potLow (the relations the compiled program reads to
    answer them, as its runs do: engine.datalog.graph.needed; where the rules are not compiled,
    read off the loaded clauses, every name a clause mentions counted: 0.009 s for the standard
    rules).  Then the showdowns' winners can go into the run that asks for the pots (they cannot
    change them), and one run answers both."""
    found = engine.state.foreseeable
    if found is None and engine.local is not None:
        reads_them = needed(engine.local.program, [I.RETURNED, I.POT_AMOUNT, I.CONTESTS])
        found = engine.state.foreseeable = not set(reads_them) & {I.POT_HIGH, I.POT_LOW}
    if found is None:
        reads: dict[str, set[str]] = {}
        for c in engine.ruleset.clauses:
            names = reads.setdefault(c.head, set())
            for node in ast.walk(c.node):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    names.add(node.func.id)
                elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
                    names.add(node.value.id)
        reached: set[str] = set()
        todo = [I.RETURNED, I.POT_AMOUNT, I.CONTESTS]
        while todo:
            name = todo.pop()
            if name not in reached:
                reached.add(name)
                todo += reads.get(name, ())
        found = engine.state.foreseeable = not reached & {I.POT_HIGH, I.POT_LOW}
    return found
