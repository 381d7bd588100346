"""Which proofs license each path that reads answers off the five-card table: declared once.

Every path that answers from the table (:mod:`engine.judging.table`) in place of some of the rules'
predicates asks this module whether it may, and never decides by itself.  Each :class:`Path`
names the predicates it stands in for, the proofs it requires (kinds of :data:`PROOFS`, made by
:mod:`engine.judging.proof` or asked of the rules once), when it turns to the table, and what it does
where a proof fails: it asks the rules world by world, or refuses in one line (never the table).
``poker check`` prints, for each path, the proofs it used and whether each held
(:func:`report`).

>>> [p.key for p in PATHS.values()][:6]
['fights', 'showdowns', 'histories', 'histories-low', 'equity', 'equity-low']
>>> [p.key for p in PATHS.values()][6:]
['check7', 'diff-fights', 'diff-categories']
>>> PATHS["equity"].proofs
('showdown', 'candidate', 'fives')
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from engine import interface as I
from engine.interface import EngineView
from engine.judging import proof as P
from engine.judging import proofcache
from engine.judging import showdownproof as SP
from engine.judging.fivetable import FiveTable
from engine.judging.shapes import fives_of_shape

# What each kind of proof shows, in a line (engine/judging/proof.py proves all but "fives" and "ranks").
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
         "showdowns worth the tables (engine.history.foresight._worth: 200 of hold'em heads-up, 3 of Omaha hi/lo)",
         "each showdown asked of the rules"),
    Path("histories-low", "hand histories (the low half, by the low rule set's own proofs)", SHOWDOWN,
         ("showdown", "candidate"), "with the high half", "each low half asked of the low rule set"),
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

LOW_PATHS = ("histories-low", "equity-low")     # the low rule set's own proofs: its own report
HEADSUP = 2           # the players of the showdown ``poker check`` asks the fives of

# ---- when a path turns to the table ---------------------------------------------------------
# Work counted as :func:`weight` counts it (a fight of two hands is 1).  Below the first figure a
# path asks the rules (a table costs more than it saves); past it, it reads the table from the
# cache; past the second, it builds the table when the cache has none (it pays for itself).
ENGINE_AFTER = 200            # Engine: fights and showdowns asked of one engine before it looks for its table
BATCH_LOOK_AFTER = 10_000     # poker judge: work read before the cache's table is looked for
BATCH_BUILD_AFTER = 50_000    # ... and before the table is built when the cache has none
# Hand histories: hands of a chunk before the cached tables are loaded (with the proofs kept beside
# them, a tenth of a second; then every showdown of the chunk reads them): 100 real hands, 8 of
# them showdowns asked world by world, took 1.05 s of CPU, off the table 0.65 s (was 200).
HISTORY_LOOK_AFTER = 50
HISTORY_WORK_AFTER = 200 * 110  # ... or the work of its showdowns (history.foresight._worth: 200 heads-up hold'em, 3 of Omaha hi/lo)
HISTORY_BUILD_AFTER = 2_000   # ... and the showdowns' work in a chunk before the tables are built
# Split pots: the low halves asked at once, weighed as poker judge weighs them (:func:`weight`),
# before the low rule set's table is built: 500 Omaha hi/lo lows (about 4 million) asked of the
# rules took 99 s of CPU and 4.4 GB in one run; its table is built in seconds (suits play no part).
LOW_BUILD_AFTER = BATCH_BUILD_AFTER



def proof(engine: EngineView, table: "FiveTable", kind: str, shape: tuple | None = None) -> P.Proof:
    """One proof of these rules for this table (memoised by engine.proof).  ``shape``: for
    "fives", (game name, players, style): style "holdem" (any five of hand and board) or "omaha"
    (exactly two of the hand)."""
    if kind == "fight":
        return P.fight_proof(engine, table)
    if kind == "order":
        return P.order_proof(engine, table)
    if kind == "showdown":
        return SP.showdown_proof(engine, table)
    if kind == "candidate":
        return SP.candidate_proof(engine)
    if kind == "ranks":
        return P.Proof(True, "every hand's getRank asked of the rules (one hand of each suit class where the rules "
                             "are proven blind to suits, and a sample of the others asked again)")
    if kind == "fives":
        if shape is None:
            raise ValueError("the fives proof needs a showdown's shape")
        return P._memoised(engine, ("fives", shape, table.rules_digest), lambda: _fives(engine, table, *shape))
    raise ValueError(f"no proof {kind!r}")


def untabled_fights(engine: EngineView, places: Any, all_hands: bool) -> P.Proof:
    """The "diff-fights" path's proof where there is no table (a hand without one rank): beat's
    fight proof over the key places and isHand found by asking every hand (engine.check.diff)."""
    return P.prove_fights(engine.ruleset.clauses, places, all_hands)


def proofs(engine: EngineView, table: "FiveTable", path: str, shape: tuple | None = None
           ) -> list[tuple[str, P.Proof | None]]:
    """The path's proofs in order, each made; after the first that fails, the rest are not made
    (None): the path does not read the table anyway."""
    out: list[tuple[str, P.Proof | None]] = []
    failed = False
    for kind in PATHS[path].proofs:
        found = None if failed else proof(engine, table, kind, shape)
        failed = failed or (found is not None and not found.holds)
        out.append((kind, found))
    proofcache.keep(engine, table)         # for the next process (engine.judging.proofcache)
    return out


def allows(engine: EngineView, table: "FiveTable", path: str, shape: tuple | None = None) -> P.Proof:
    """Whether the path may read the table: the first of its proofs that fails, else one that
    holds naming them all."""
    made = proofs(engine, table, path, shape)
    for kind, found in made:
        if found is not None and not found.holds:
            return P.Proof(False, f"{PROOFS[kind]}: not proven: {found.why}", found.patterns)
    return P.Proof(True, "; ".join(PROOFS[k] for k, _ in made), max((f.patterns for _, f in made if f), default=0))


def require(engine: EngineView, table: "FiveTable", path: str, what: str, shape: tuple | None = None) -> None:
    """Raise Unproven (one line) unless the path may read the table."""
    found = allows(engine, table, path, shape)
    if not found.holds:
        raise P.Unproven(f"{what} reads answers off the five-card table, and for these rules {found.why}")


def report(engine: EngineView, table: "FiveTable") -> dict[str, list[str]]:
    """For each path (the low half's is the low rule set's own report): each proof it used, and
    whether it held (with why not), in lines."""
    out: dict[str, list[str]] = {}
    for path in PATHS.values():
        if path.key in LOW_PATHS:
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


def _fives(engine: EngineView, table: "FiveTable", game: str, players: int, style: str) -> P.Proof:
    """Ask the rules once which fives a showdown of this shape lets each player play (valid for
    every showdown of the shape where the showdown proof holds), and compare them with the
    style's: hold'em any five of hand and board, Omaha exactly two of the hand and three of the
    board."""
    codes = engine.games
    if game not in codes:
        return P.Proof(False, f"the rules know no game {game!r}")
    holes = dict(engine.static(I.HOLE_CARDS, 2)).get(codes[game])
    if not isinstance(holes, int):
        return P.Proof(False, f"the rules give the game {game!r} no number of hole cards")
    found = fives_of_shape(engine, table.cards, (codes[game], (holes,) * players, 5))
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


IN_PROCESS_SETS = 300   # sets of cards: a batch of at most this many is asked of the compiled program in Python


def in_process(fights: Any) -> bool:
    """Whether a batch is asked of the compiled program in Python rather than on DuckDB: when it
    asserts at most :data:`IN_PROCESS_SETS` sets of cards.  The in-process evaluator's time grows
    with the sets (a fight of two hands: two; a showdown also its board and every five of a
    player's cards and the board: 45 for two players on the river), DuckDB's is mostly a fixed
    cost a run (docs/performance.md, bench/bench_small.py): 150 fights of two hands, or six
    heads-up showdowns, go in-process."""
    count = 0
    for fight in fights:
        board = getattr(fight, "board", None)
        hands = getattr(fight, "hands", fight)
        count += max(1, len(hands))        # a world of no cards (a hand history's pots): one
        if board is not None:
            count += 1 + sum(math.comb(len(h) + len(board), 5) for h in hands)
        if count > IN_PROCESS_SETS:
            return False
    return True


def weight(fight: Any) -> int:
    """A fight's share of a chunk asked of the rules, by what its world makes the rules compare: a
    fight of two hands is one; a showdown an eighth of its players' pairs of fives (a player on the
    river has 21 fives, 441 pairs: nine players weigh 496), so that a chunk of showdowns asked of
    the rules stays about as small in memory as one of fights (a chunk of 10,000 showdowns of nine
    players took gigabytes)."""
    if getattr(fight, "board", None) is not None:
        board = len(fight.board)
        return max(1, sum(math.comb(len(h) + board, 5) ** 2 for h in fight.hands) // 8)
    return max(1, len(fight) // 2)
