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
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from . import interface as I
from . import sevens
from .core import SMALL_BATCH
from .evaluators import World, verdicts
from .hilo import split_games
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
        players = [{"hole": p, "win": w, "tie": t, "equity": s, "stderr": e}
                   for p, w, t, s, e in zip(self.players, self.win, self.tie, self.share, self.stderr)]
        out = {"game": self.game, "board": self.board, "boards": self.boards, "exact": self.exact,
               "seed": self.seed, "checked": self.checked, "ties": "split equally among those who tie",
               "players": players}
        if self.high is not None and self.low is not None:
            out["split"] = ("the pot is halved between the best high and the best qualifying low; "
                            "win: the whole pot (a scoop)")
            out["low boards"] = self.low_boards
            for p, h, lo in zip(players, self.high, self.low):
                p["high"], p["low"] = h, lo
        return out

    def lines(self) -> list[str]:
        how = (f"exact: every one of {self.boards:,} boards" if self.exact else
               f"sampled: {self.boards:,} boards (seed {self.seed})")
        out = [f"{self.game}, board {self.board or '(none)'}: {how}; a tie splits the pot equally"]
        split = self.high is not None and self.low is not None
        if split:
            out[0] += (f"; the pot is halved between the best high and the best low, which qualifies on "
                       f"{100 * (self.low_boards or 0):.2f}% of the boards")
        for i, (p, w, t, s, e) in enumerate(zip(self.players, self.win, self.tie, self.share, self.stderr), 1):
            err = "" if self.exact else f" ± {100 * e:.2f}%"
            if split:
                out.append(f"player {i} ({p}): equity {100 * s:6.2f}%{err} (high {100 * self.high[i - 1]:6.2f}%, "
                           f"low {100 * self.low[i - 1]:6.2f}%)   scoop {100 * w:6.2f}%   split {100 * t:6.2f}%")
            else:
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
    shape, own = _shape(engine, game)
    players = [engine.cards(h) for h in holes]
    shown = engine.cards(board) if board is not None else []
    gone = engine.cards(dead) if dead is not None else []
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
    low = lows = None
    split = split_games(engine).get(engine.games[game])
    if split is not None:                         # a split pot: the low rule set's own table too
        lows = engine.low_engine(split)
        if lows.deck != engine.deck:
            raise InvalidCards(f"the low half's rule set {split!r} has another deck")
        low_table = five_card_table(lows, progress)
        order_proof(lows, low_table).require("poker equity")
        qualifying = lows.qualifying_ranks()
        low = (low_table.values, np.array([qualifying is None or rank in qualifying for rank, _ in low_table.classes]))
    pos = lambda cards: [position[c] for c in cards]  # noqa: E731
    try:
        result = sevens.equity(table.values, len(table.cards), [pos(p) for p in players], pos(shown), pos(gone),
                               game=shape, samples=samples, seed=seed, low=low)
    except ValueError as exc:
        raise InvalidCards(str(exc)) from None
    _check(engine, table, players, shown, gone, game, shape, checked, seed, lows, low)
    fmt = engine.notation.format
    return Equity(**vars(result), players=tuple(fmt(p) for p in players), board=fmt(shown), game=game,
                  checked=checked)


def _shape(engine: "Engine", game: str) -> tuple[str, int | None]:
    """How a game deals (sevens.GAMES): hold'em (two hole cards, any five play) or Omaha (four,
    exactly two of them play), read off the rules' holeCards and usesOwn of the game; and its
    number of hole cards (None where the rules give none).  InvalidCards names an unknown game."""
    code, _ = engine._game(game)
    own = dict(engine._static(I.HOLE_CARDS, 2)).get(code)
    uses = dict(engine._static(I.USES_OWN, 2)).get(code) if any(
        c.head == I.USES_OWN for c in engine.ruleset.clauses) else None
    shapes = {(2, None): "holdem", (4, 2): "omaha"}
    if (own, uses) not in shapes:
        raise InvalidCards(f"poker equity deals hold'em and Omaha boards (and their hi/lo), not {game!r}")
    return shapes[(own, uses)], own


def _check(engine: "Engine", table, players: list[list[int]], shown: list[int], gone: list[int], game: str,
           shape: str, count: int, seed: int, lows: "Engine | None" = None, low: Any = None) -> None:
    """Judge ``count`` random completions both ways: the rules' showdown and the table's values
    (a split pot: the low rule set's showdown and its table's values too)."""
    if count <= 0:
        return
    rng = random.Random(seed)
    used = set(shown) | set(gone) | {c for p in players for c in p}
    rest = [c for c in table.cards if c not in used]
    position = {c: i for i, c in enumerate(table.cards)}
    deals = [World(tuple(tuple(p) for p in players), board=tuple(shown + rng.sample(rest, 5 - len(shown))),
                   game=engine.games[game]) for _ in range(count)]
    boards = np.array([[position[c] for c in deal.board] for deal in deals])
    def best(values: np.ndarray) -> np.ndarray:              # players x boards
        return np.array([sevens.best_values(values, np.array([[position[c] for c in p]] * count), boards,
                                            shape)[0] for p in players])
    values = best(table.values)
    halves = [(engine, deals, values)]
    if lows is not None:                          # the low half: its showdown, by its own rules
        code = lows.games[game]
        halves.append((lows, [World(d.hands, board=d.board, game=code) for d in deals], best(low[0])))
    for rules, asked, values in halves:
        # DuckDB (a batch past SMALL_BATCH): a few showdowns of Omaha compare hundreds of fives each,
        # which the in-process program took seconds over
        for j, (deal, v) in enumerate(zip(asked, verdicts(rules.evaluator(SMALL_BATCH + 1), asked))):
            column = values[:, j]
            winners = tuple(int(i) for i in np.flatnonzero(column == column.max()))
            if v.error or v.winners != winners:
                raise TableDisagrees(f"the rules' showdown ({rules.name}) and the five-card table disagree on "
                                     f"board {engine.notation.format(deal.board)}: rules {v.winners or v.error}, "
                                     f"table {winners}; these rules do not order hands by a value of each hand "
                                     f"alone, so equity is not given")


class TableDisagrees(RuleError):
    """The loaded rules' showdown does not pick the winners the five-card table's values do: the
    rules' comparator is not a function of each hand's (rank, handKey).  One line, never an answer."""
