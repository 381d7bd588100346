"""Which proofs license each path that reads answers off the five-card table: declared once.

Every path that answers from the table (:mod:`engine.table`) in place of some of the rules'
predicates asks this module whether it may, and never decides by itself.  Each :class:`Path`
names the predicates it stands in for, the proofs it requires (kinds of :data:`PROOFS`, made by
:mod:`engine.proof` or asked of the rules once), when it turns to the table, and what it does
where a proof fails: it asks the rules world by world, or refuses in one line (never the table).
``poker check`` prints, for each path, the proofs it used and whether each held
(:func:`report`).

>>> [p.key for p in PATHS.values()]
['fights', 'showdowns', 'histories', 'equity', 'equity-low', 'check7', 'diff-fights', 'diff-categories']
>>> PATHS["equity"].proofs
('showdown', 'candidate', 'fives')
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from . import interface as I
from . import madecache
from . import proof as P
from . import tabled as T

if TYPE_CHECKING:
    from .core import Engine
    from .table import FiveTable

# What each kind of proof shows, in a line (engine/proof.py proves all but "fives" and "ranks").
PROOFS: dict[str, str] = {
    "fight": "beat of two disjoint hands is the table's order of their values",
    "order": "compareHands of any two hands is the table's order of their values",
    "showdown": "plays is the best of mayPlay and showdownWinner the best of plays, in the table's order; "
                "mayPlay and invalidShowdown read cards only as tokens",
    "candidate": "mayPlay(P, S) implies candidate(P, S)",
    "fives": "mayPlay lets each player play exactly the fives the path counts (asked of the rules once)",
    "ranks": "the table holds the rules' getRank of every hand",
}


@dataclass(frozen=True)
class Path:
    """A path that reads answers off the table: what it stands in for, what it requires, when it
    turns to the table and what it does where a proof fails."""
    key: str
    title: str
    stands_for: tuple[str, ...]
    proofs: tuple[str, ...]
    turns: str
    otherwise: str


SHOWDOWN = (I.MAY_PLAY, I.PLAYS, I.SHOWDOWN_WINNER, I.INVALID_SHOWDOWN)
PATHS: dict[str, Path] = {p.key: p for p in (
    Path("fights", "two-hand fights (judge, beat)", (I.BEAT,), ("fight",),
         "an engine's table once it has been asked 200 questions; poker judge on a long batch",
         "each fight asked of the rules"),
    Path("showdowns", "showdowns (judge, best_five, winners)", SHOWDOWN, ("showdown", "candidate"),
         "as fights", "each showdown asked of the rules"),
    Path("histories", "hand histories (history, judge on PHH)", SHOWDOWN, ("showdown", "candidate"),
         "a batch of 2,000 showdowns or more", "each showdown asked of the rules"),
    Path("equity", "equity (the high half)", SHOWDOWN, ("showdown", "candidate", "fives"),
         "every run", "every completion asked of the rules when they are few, else refused in one line"),
    Path("equity-low", "hi/lo equity (the low half, by the low rule set's own proofs)", SHOWDOWN,
         ("showdown", "candidate", "fives"), "every run of a split game",
         "every completion asked of the rules when they are few, else refused in one line"),
    Path("check7", "check --cards 7", (I.MAY_PLAY, I.PLAYS), ("showdown", "candidate", "fives"),
         "every run", "refused in one line"),
    Path("diff-fights", "diff: fights", (I.BEAT,), ("fight",), "every run (both rule sets)",
         "a seeded sample of fights asked of both rule sets, labelled sampled"),
    Path("diff-categories", "diff: categories", (I.GET_RANK,), ("ranks",), "every run", "(always holds)"),
)}

HEADSUP = 2           # the players of the showdown ``poker check`` asks the fives of


def proof(engine: "Engine", table: "FiveTable", kind: str, shape: tuple | None = None) -> P.Proof:
    """One proof of these rules for this table (memoised by engine.proof).  ``shape``: for
    "fives", (game name, players, style): style "holdem" (any five of hand and board) or "omaha"
    (exactly two of the hand)."""
    if kind == "fight":
        return P.fight_proof(engine, table)
    if kind == "order":
        return P.order_proof(engine, table)
    if kind == "showdown":
        return P.showdown_proof(engine, table)
    if kind == "candidate":
        return P.candidate_proof(engine)
    if kind == "ranks":
        return P.Proof(True, "every hand's getRank asked of the rules (one hand of each suit class where the rules "
                             "are proven blind to suits, and a sample of the others asked again)")
    if kind == "fives":
        if shape is None:
            raise ValueError("the fives proof needs a showdown's shape")
        return P._memoised(engine, ("fives", shape, table.rules_digest), lambda: _fives(engine, table, *shape))
    raise ValueError(f"no proof {kind!r}")


def untabled_fights(engine: "Engine", places: Any, all_hands: bool) -> P.Proof:
    """The "diff-fights" path's proof where there is no table (a hand without one rank): beat's
    fight proof over the key places and isHand found by asking every hand (engine.diff)."""
    return P.prove_fights(engine.ruleset.clauses, places, all_hands)


def proofs(engine: "Engine", table: "FiveTable", path: str, shape: tuple | None = None
           ) -> list[tuple[str, P.Proof | None]]:
    """The path's proofs in order, each made; after the first that fails, the rest are not made
    (None): the path does not read the table anyway."""
    out: list[tuple[str, P.Proof | None]] = []
    failed = False
    for kind in PATHS[path].proofs:
        found = None if failed else proof(engine, table, kind, shape)
        failed = failed or (found is not None and not found.holds)
        out.append((kind, found))
    madecache.keep(engine, table)         # for the next process (engine.madecache)
    return out


def allows(engine: "Engine", table: "FiveTable", path: str, shape: tuple | None = None) -> P.Proof:
    """Whether the path may read the table: the first of its proofs that fails, else one that
    holds naming them all."""
    made = proofs(engine, table, path, shape)
    for kind, found in made:
        if found is not None and not found.holds:
            return P.Proof(False, f"{PROOFS[kind]}: not proven: {found.why}", found.patterns)
    return P.Proof(True, "; ".join(PROOFS[k] for k, _ in made), max((f.patterns for _, f in made if f), default=0))


def require(engine: "Engine", table: "FiveTable", path: str, what: str, shape: tuple | None = None) -> None:
    """Raise Unproven (one line) unless the path may read the table."""
    found = allows(engine, table, path, shape)
    if not found.holds:
        raise P.Unproven(f"{what} reads answers off the five-card table, and for these rules {found.why}")


def report(engine: "Engine", table: "FiveTable") -> dict[str, list[str]]:
    """For each path (the low half's is the low rule set's own report): each proof it used, and
    whether it held (with why not), in lines."""
    out: dict[str, list[str]] = {}
    for path in PATHS.values():
        if path.key == "equity-low":
            continue
        shape = ("holdem", 1 if path.key == "check7" else HEADSUP, "holdem") if "fives" in path.proofs else None
        lines = []
        made = proofs(engine, table, path.key, shape)
        for kind, found in made:
            what = PROOFS[kind] + (f" ({_shape_words(shape)})" if kind == "fives" and shape else "")
            lines.append(f"not asked: {what} (an earlier proof fails)" if found is None else
                         f"holds: {what}" if found.holds else f"FAILS: {what}: {found.why}")
        ok = all(f is not None and f.holds for _, f in made)
        failed = next((f for _, f in made if f is not None and not f.holds), None)
        why = failed.why if failed else "?"
        out[path.title] = [("off the table (proven)" if ok else
                            f"the rules' worlds (not proven: {why}): {path.otherwise}")] + lines
    return out


def _shape_words(shape: tuple) -> str:
    game, players, _ = shape
    return f"a {game} showdown of {players} player{'s' if players != 1 else ''} and a five-card board"


def _fives(engine: "Engine", table: "FiveTable", game: str, players: int, style: str) -> P.Proof:
    """Ask the rules once which fives a showdown of this shape lets each player play (valid for
    every showdown of the shape where the showdown proof holds), and compare them with the
    style's: hold'em any five of hand and board, Omaha exactly two of the hand and three of the
    board."""
    codes = engine.games
    if game not in codes:
        return P.Proof(False, f"the rules know no game {game!r}")
    holes = dict(engine._static(I.HOLE_CARDS, 2)).get(codes[game])
    if not isinstance(holes, int):
        return P.Proof(False, f"the rules give the game {game!r} no number of hole cards")
    found = T.Tabled(engine, table)._shape((codes[game], (holes,) * players, 5))
    if found is None:
        return P.Proof(False, f"the rules find a {game} showdown of {players} players invalid, or the deck too short")
    allowed = found[1]
    check: Callable[[np.ndarray], Any] = {
        "holdem": lambda c: np.ones(len(c), dtype=bool),
        "omaha": lambda c: (c < holes).sum(axis=1) == 2}[style]
    every = np.asarray(list(itertools.combinations(range(holes + 5), 5)), dtype=np.int64)
    want = np.flatnonzero(check(every))
    for p, got in enumerate(allowed, 1):
        if not np.array_equal(np.asarray(got), want):
            missing = len(set(want.tolist()) - set(np.asarray(got).tolist()))
            extra = len(set(np.asarray(got).tolist()) - set(want.tolist()))
            return P.Proof(False, f"in a {game} showdown of {players} players, mayPlay lets player {p} play "
                                  f"{len(got)} fives, not the {len(want)} of {style}'s counting "
                                  f"({missing} missing, {extra} more)")
    return P.Proof(True, f"mayPlay lets each player of a {game} showdown play the {len(want)} fives {style} counts")
