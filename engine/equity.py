"""`poker equity`: each player's share of the pot over every way the board can be completed.

The five-card values come from the loaded rules (:func:`engine.table.five_card_table`); each
completion's best fives and winners are found with numpy (:func:`engine.sevens.equity`): every
completion when that is feasible (a heads-up hold'em hand before the flop: 1,712,304 boards),
else a seeded sample with its standard error.  That the table's verdict is the rules' own is
checked on every run: some completions are also judged by the rules' showdown (showdown.dl), and a
disagreement is an error, never an answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np

from . import interface as I
from . import sevens
from .evaluators import World, verdicts
from .loader import RuleError
from .notation import Cards, InvalidCards

if TYPE_CHECKING:
    from .table import Progress
    from .core import Engine

CHECKED = 24        # completions per run also judged by the rules' showdown


@dataclass(frozen=True)
class Equity(sevens.Equity):
    """Each player's win, tie and pot share (fractions) over ``boards`` completions, with the
    players' cards, the board and the game as written, and how many completions ``checked``
    were also judged by the rules' showdown, in agreement.

    A tie splits the pot equally among those who tie: ``share`` counts 1/k of each board that k
    players tie.  ``exact``: every completion was counted; else they were sampled with ``seed``
    and ``stderr`` is each share's standard error.
    """
    players: tuple[str, ...] = ()
    board: str = ""
    game: str = "holdem"
    checked: int = 0

    def as_dict(self) -> dict:
        return {"game": self.game, "board": self.board, "boards": self.boards, "exact": self.exact,
                "seed": self.seed, "checked": self.checked, "ties": "split equally among those who tie",
                "players": [{"hole": p, "win": w, "tie": t, "equity": s, "stderr": e}
                            for p, w, t, s, e in zip(self.players, self.win, self.tie, self.share, self.stderr)]}

    def lines(self) -> list[str]:
        how = (f"exact: every one of {self.boards:,} boards" if self.exact else
               f"sampled: {self.boards:,} boards (seed {self.seed})")
        out = [f"{self.game}, board {self.board or '(none)'}: {how}; a tie splits the pot equally"]
        for i, (p, w, t, s, e) in enumerate(zip(self.players, self.win, self.tie, self.share, self.stderr), 1):
            err = "" if self.exact else f" ± {100 * e:.2f}%"
            out.append(f"player {i} ({p}): equity {100 * s:6.2f}%{err}   win {100 * w:6.2f}%   tie {100 * t:6.2f}%")
        out.append(f"checked: {self.checked} of the boards also judged by the rules' showdown, in agreement")
        return out


def equity(engine: "Engine", holes: Sequence[Cards], board: Cards | None = None, dead: Cards | None = None,
           game: str = "holdem", samples: int | None = None, seed: int = 0, checked: int = CHECKED,
           progress: "Progress | None" = None) -> Equity:
    """Each player's equity; InvalidCards names what is wrong with the cards or the game.
    ``progress`` is called when the five-card table has to be built (engine.table)."""
    from .proof import order_proof
    from .table import five_card_table
    if game not in engine.games:
        raise InvalidCards(f"unknown game {game!r} (the rules know {', '.join(sorted(engine.games))})")
    if game not in sevens.GAMES:
        raise InvalidCards(f"poker equity deals hold'em and Omaha boards, not {game!r}")
    players = [engine.cards(h) for h in holes]
    shown = engine.cards(board) if board is not None else []
    gone = engine.cards(dead) if dead is not None else []
    own = dict(engine._static(I.HOLE_CARDS, 2)).get(engine.games[game])
    for i, p in enumerate(players, 1):
        if own is not None and len(p) != own:
            raise InvalidCards(f"player {i}: {game} deals {own} hole cards, not {len(p)}")
    if len(shown) > 5:
        raise InvalidCards(f"a board holds at most five cards, not {len(shown)}")
    position = {c: i for i, c in enumerate(engine.deck)}
    given = [*(c for p in players for c in p), *shown, *gone]
    for c in given:
        if c not in position:
            raise InvalidCards(f"{c} is not a card of the rules' deck")
        if given.count(c) > 1:
            raise InvalidCards(f"{engine.notation.token(c)} is given twice")
    table = five_card_table(engine, progress)
    order_proof(engine, table).require("poker equity")
    pos = lambda cards: [position[c] for c in cards]  # noqa: E731
    try:
        result = sevens.equity(table.values, len(table.cards), [pos(p) for p in players], pos(shown), pos(gone),
                               game=game, samples=samples, seed=seed)
    except ValueError as exc:
        raise InvalidCards(str(exc)) from None
    _check(engine, table, players, shown, gone, game, checked, seed)
    fmt = engine.notation.format
    return Equity(**vars(result), players=tuple(fmt(p) for p in players), board=fmt(shown), game=game,
                  checked=checked)


def _check(engine: "Engine", table, players: list[list[int]], shown: list[int], gone: list[int], game: str,
           count: int, seed: int) -> None:
    """Judge ``count`` random completions both ways: the rules' showdown and the table's values."""
    if count <= 0:
        return
    rng = random.Random(seed)
    used = set(shown) | set(gone) | {c for p in players for c in p}
    rest = [c for c in table.cards if c not in used]
    position = {c: i for i, c in enumerate(table.cards)}
    deals = [World(tuple(tuple(p) for p in players), board=tuple(shown + rng.sample(rest, 5 - len(shown))),
                   game=engine.games[game]) for _ in range(count)]
    boards = np.array([[position[c] for c in deal.board] for deal in deals])
    values = np.array([sevens.best_values(table.values, np.array([[position[c] for c in p]] * count), boards,
                                          game)[0] for p in players])          # players x boards
    for j, (deal, v) in enumerate(zip(deals, verdicts(engine.evaluator(len(deals)), deals))):
        column = values[:, j]
        winners = tuple(int(i) for i in np.flatnonzero(column == column.max()))
        if v.error or v.winners != winners:
            raise TableDisagrees(f"the rules' showdown and the five-card table disagree on board "
                                 f"{engine.notation.format(deal.board)}: rules {v.winners or v.error}, table "
                                 f"{winners}; these rules do not order hands by a value of each hand alone, "
                                 f"so equity is not given")


class TableDisagrees(RuleError):
    """The loaded rules' showdown does not pick the winners the five-card table's values do: the
    rules' comparator is not a function of each hand's (rank, handKey).  One line, never an answer."""
