"""`poker equity`: each player's share of the pot over every way the board can be completed.

The five-card values come from the loaded rules (:func:`engine.judging.table.five_card_table`); each
completion's best fives and winners are found with numpy (:func:`engine.poker.sevens.equity`): every
completion when that is feasible (a heads-up hold'em hand before the flop: 1,712,304 boards),
else a seeded sample with its standard error.  That the table's verdict is the rules' own is
checked on every run: some completions are also judged by the rules' showdown (showdown.dl), and a
disagreement is an error, never an answer.

A player may hold a range (engine.poker.ranges: ``QQ+,AKs``, ``random``): every deal of a hand of each
range, no card twice, and a completion of the board counts once.  Two ranges in hold'em are
counted exactly board by board (:func:`engine.poker.matchups.headsup`); a few matchups of other games
exactly one by one; anything bigger by sampled deals, with a seed and standard errors.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from engine import interface as I
from engine.core import Engine
from engine.datalog.loader import RuleError
from engine.evaluators import World, verdicts
from engine.evaluators.workers import SMALL_BATCH
from engine.judging import policy
from engine.judging.hilo import split_games, with_low
from engine.judging.proof import Unproven, suit_symmetry
from engine.judging.table import FiveTable, Progress, five_card_table
from engine.judging.tabled import Tabled
from engine.poker import matchups, sevens
from engine.poker.notation import Cards, InvalidCards
from engine.poker.ranges import Range, read_range

CHECKED = 24        # completions per run also judged by the rules' showdown
# Ranges other than two in hold'em: exact one matchup at a time while matchups x boards x players
# x fives a player are within this (two hands of AA against two of KK before the flop: 5.8e8)
RANGE_EXACT_LIMIT = 2_000_000_000
MATCHUPS = 2_000_000  # deals enumerated (then sampled from) while the ranges' product is within this
MATCHUP_CALLS = 400   # matchups counted one at a time at most (each a few milliseconds)
# Where the table is not proven to stand for the rules' showdown (engine.judging.policy's "equity" path):
# the completions asked of the rules one by one, at most (each showdown its own world) ...
WORLDS = 1_000
# ... or, where the table's showdowns are proven (engine.judging.policy's "showdowns") but the fives the
# rules let a player play are not equity's counting, asked of those showdowns, at most
TABLED_WORLDS = 200_000
SAMPLE_CHUNK = 50_000  # deals sampled and valued at a time


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
    # Why the table's counting is not proven to be the rules' showdown: then every board was
    # asked of the rules' showdown instead (engine.judging.policy's "equity" path)
    unproven: str | None = None
    # With ranges: how many hands of each player's range can be dealt (none of the board's or
    # the dead cards), and how many matchups of them share no card (None: sampled, not counted).
    # ``boards`` then counts deals: a matchup and a completion of the board.
    hands: tuple[int, ...] = ()
    matchups: int | None = None
    ranged: bool = False          # some player was given a range: ``boards`` counts deals
    # Two ranges counted exactly board by board: each hand of the first player's range (card
    # ids), its wins, ties and deals against the second's (matchups.Counts.by_hand: exact summed
    # over a starting hand such as AKs; engine.grid draws them).  None otherwise.
    by_hand: tuple[tuple[tuple[int, ...], int, int, int], ...] | None = field(default=None, repr=False,
                                                                               compare=False)

    def as_dict(self) -> dict:
        players = [{"hole": p, "win": w, "tie": t, "equity": s, "stderr": e}
                   for p, w, t, s, e in zip(self.players, self.win, self.tie, self.share, self.stderr)]
        out = {"game": self.game, "board": self.board, "boards": self.boards, "exact": self.exact,
               "seed": self.seed, "checked": self.checked, "ties": "split equally among those who tie",
               "players": players}
        if self.unproven:
            out["asked"] = f"every board asked of the rules' showdown: {self.unproven}"
        if self.ranged:
            out["deals"] = "a hand of each range, no card twice, and a completion of the board: each counts once"
            out["matchups"] = self.matchups
            for p, h in zip(players, self.hands):
                p["hands"] = h
        if self.high is not None and self.low is not None:
            out["split"] = ("the pot is halved between the best high and the best qualifying low; "
                            "win: the whole pot (a scoop)")
            out["low boards"] = self.low_boards
            for p, h, lo in zip(players, self.high, self.low):
                p["high"], p["low"] = h, lo
        return out

    def lines(self) -> list[str]:
        if self.ranged:
            how = (f"exact: every board of every one of {self.matchups:,} matchups ({self.boards:,} deals)"
                   if self.exact else f"sampled: {self.boards:,} deals (seed {self.seed})")
        else:
            how = (f"exact: every one of {self.boards:,} boards" if self.exact else
                   f"sampled: {self.boards:,} boards (seed {self.seed})")
        out = [f"{self.game}, board {self.board or '(none)'}: {how}; a tie splits the pot equally"]
        split = self.high is not None and self.low is not None
        if split:
            out[0] += (f"; the pot is halved between the best high and the best low, which qualifies on "
                       f"{100 * (self.low_boards or 0):.2f}% of the {'deals' if self.ranged else 'boards'}")
        for i, (p, w, t, s, e) in enumerate(zip(self.players, self.win, self.tie, self.share, self.stderr), 1):
            err = "" if self.exact else f" ± {100 * e:.2f}%"
            if self.ranged:
                h = self.hands[i - 1]
                p = f"{p}: {h:,} hand{'s' if h != 1 else ''}"
            if split:
                out.append(f"player {i} ({p}): equity {100 * s:6.2f}%{err} (high {100 * self.high[i - 1]:6.2f}%, "
                           f"low {100 * self.low[i - 1]:6.2f}%)   scoop {100 * w:6.2f}%   split {100 * t:6.2f}%")
            else:
                out.append(f"player {i} ({p}): equity {100 * s:6.2f}%{err}   win {100 * w:6.2f}%   tie {100 * t:6.2f}%")
        if self.unproven:
            out.append(f"every board asked of the rules' showdown, not counted off the table: {self.unproven}")
        else:
            out.append(f"checked: {self.checked} of the {'deals' if self.ranged else 'boards'} also judged by "
                       f"the rules' showdown, in agreement")
        return out


def equity(engine: "Engine", holes: Sequence["Cards | Range"], board: Cards | None = None,
           dead: Cards | None = None, game: str = "holdem", samples: int | None = None, seed: int = 0,
           checked: int = CHECKED, progress: "Progress | None" = None,
           counting: Callable[[int, int], None] | None = None) -> Equity:
    """Each player's equity; InvalidCards names what is wrong with the cards, a range or the game.
    A player's cards may be a range (``"QQ+,AKs"``, ``"random"``: engine.ranges).  ``progress``
    is called when the five-card table has to be built (engine.judging.table); ``counting(done, total)``
    as two ranges are counted board by board.

    >>> from engine import Engine
    >>> e = equity(Engine(), ["AA", "KK"], board="2C 7D 9H")
    >>> e.exact, e.hands, e.matchups, e.boards, round(e.share[0], 4)
    (True, (6, 6), 36, 35640, 0.9162)
    """
    shape, own = _shape(engine, game)
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int) or samples < 1):
        raise InvalidCards(f"samples must be a positive number, not {samples!r}")
    ranges = []
    for i, h in enumerate(holes, 1):
        try:
            ranges.append(h if isinstance(h, Range) else read_range(engine, h, own, game))
        except InvalidCards as exc:
            raise InvalidCards(f"player {i}: {exc}") from None
        if not ranges[-1].combos or any(len(c) != own for c in ranges[-1].combos):
            raise InvalidCards(f"player {i}: {game} deals {own} hole cards; the range {ranges[-1].text!r} "
                               f"holds other hands")
    shown = engine.cards(board) if board is not None else []
    gone = engine.cards(dead) if dead is not None else []
    if len(shown) > 5:
        raise InvalidCards(f"a board holds at most five cards, not {len(shown)}")
    position = {c: i for i, c in enumerate(engine.deck)}
    known = [c for r in ranges if r.exact for c in r.combos[0]]
    given = [*known, *shown, *gone]
    for r in ranges:
        for c in {c for h in r.combos for c in h}:
            if c not in position:
                raise InvalidCards(f"{engine.notation.token(c)} is not a card of the rules' deck")
    for c in given:
        if c not in position:
            raise InvalidCards(f"{c} is not a card of the rules' deck")
        if given.count(c) > 1:
            raise InvalidCards(f"{engine.notation.token(c)} is given twice")
    table = five_card_table(engine, progress)
    players_shape = (game, len(ranges), shape)          # what mayPlay must allow: engine.policy's "fives"
    found = policy.allows(engine, table, "equity", players_shape)
    low = lows = None
    split = split_games(engine).get(engine.games[game])
    if split is not None:                         # a split pot: the low rule set's own table too
        lows = engine.low_engine(split)
        if lows.deck != engine.deck:
            raise InvalidCards(f"the low half's rule set {split!r} has another deck")
        low_table = five_card_table(lows, progress)
        if found.holds:
            low_found = policy.allows(lows, low_table, "equity-low", players_shape)
            found = low_found if low_found.holds else dataclasses.replace(
                low_found, why=f"the low half ({split}): {low_found.why}")
        qualifying = lows.qualifying_ranks()
        low = (low_table.values, np.array([qualifying is None or rank in qualifying for rank, _ in low_table.classes]))
    pos = lambda cards: [position[c] for c in cards]  # noqa: E731
    fmt = engine.notation.format
    if not found.holds:                           # the rules' showdown, world by world, or a refusal
        if not all(r.exact for r in ranges) or samples is not None:
            raise Unproven(f"poker equity reads hands off the five-card table, and for these rules {found.why}; "
                           "ranges and samples are not asked of the rules one by one")
        players = [list(r.combos[0]) for r in ranges]
        result = _asked(engine, table, players, shown, gone, game, low is not None, found.why)
        return Equity(**vars(result), players=tuple(fmt(p) for p in players), board=fmt(shown), game=game,
                      checked=result.boards, hands=(1,) * len(ranges), matchups=1, unproven=found.why)
    if all(r.exact for r in ranges):
        players = [list(r.combos[0]) for r in ranges]
        try:
            result = sevens.equity(table.values, len(table.cards), [pos(p) for p in players], pos(shown), pos(gone),
                                   game=shape, samples=samples, seed=seed, low=low)
        except ValueError as exc:
            raise InvalidCards(str(exc)) from None
        rng = random.Random(seed)
        used = set(shown) | set(gone) | set(known)
        rest = [c for c in table.cards if c not in used]
        deals = [(players, shown + rng.sample(rest, 5 - len(shown))) for _ in range(checked)]
        _check(engine, table, deals, game, shape, lows, low)
        return Equity(**vars(result), players=tuple(fmt(p) for p in players), board=fmt(shown), game=game,
                      checked=checked, hands=(1,) * len(ranges), matchups=1)
    left = len(engine.deck) - len(shown) - len(gone)
    if left < own * len(ranges) + 5 - len(shown):
        raise InvalidCards(f"{left} cards left to deal {len(ranges)} hands of {own} and complete the board: "
                           f"{own * len(ranges) + 5 - len(shown)} needed")
    out = [r.without([*shown, *gone, *(c for q in ranges if q.exact and q is not r for c in q.combos[0])])
           for r in ranges]
    for i, r in enumerate(out, 1):
        if not r.combos:
            raise InvalidCards(f"player {i}: no hand of {r.text!r} can be dealt beside the board, the dead "
                               f"cards and the other players' cards")
    arrays = [np.array([pos(h) for h in r.combos], dtype=np.int64) for r in out]
    result, deals = _ranged(engine, table, arrays, pos(shown), pos(gone), shape, samples, seed, checked, low,
                            counting)
    _check(engine, table, deals, game, shape, lows, low)
    return Equity(**result, players=tuple(r.text for r in ranges), board=fmt(shown), game=game,
                  checked=len(deals), hands=tuple(len(r) for r in out), ranged=True)


def _ranged(engine: "Engine", table: "FiveTable", arrays: list[np.ndarray], shown: list[int], gone: list[int],
            shape: str, samples: int | None, seed: int, checked: int, low: tuple[np.ndarray, np.ndarray] | None,
            counting: Callable[[int, int], None] | None) -> tuple[dict, list[tuple[list[list[int]], list[int]]]]:
    """The equity of ranges (rows of deck positions): exact board by board for two in hold'em,
    exact matchup by matchup while a few matchups will do, else sampled deals; and a few deals
    (card ids) for the rules' showdown to judge too."""
    n = len(table.cards)
    rng = np.random.Generator(np.random.PCG64(seed))
    try:
        sampler = matchups.Sampler(n, arrays, shown, gone, limit=MATCHUPS)
    except ValueError as exc:
        raise InvalidCards(str(exc)) from None
    ids = lambda p: [table.cards[i] for i in p]  # noqa: E731

    def some(count: int) -> list[tuple[list[list[int]], list[int]]]:
        if count <= 0:
            return []
        holes, fulls = sampler.draw(count, rng)
        return [([ids(h) for h in deal], ids(board)) for deal, board in zip(holes.tolist(), fulls.tolist())]
    need = 5 - len(shown)
    left = n - len(shown) - len(gone) - sum(a.shape[1] for a in arrays)
    fives = math.comb(7, 5) if shape == "holdem" else 60
    if samples is None and low is None and shape == "holdem" and len(arrays) == 2:
        found = suit_symmetry(engine.ruleset.clauses)
        symmetry = None if isinstance(found, str) or found.fixed else found    # matchups renames every suit
        try:
            c = matchups.headsup(table.values, n, arrays[0], arrays[1], shown, gone,
                                 suits=symmetry.suits if symmetry else None,
                                 values=symmetry.values if symmetry else None, progress=counting)
        except matchups.TooMany:
            c = None                                  # sampled below
        if c is not None:
            d = c.deals
            fields = dict(boards=d, exact=True, seed=None, win=(c.wins / d, c.losses / d),
                          tie=(c.ties / d, c.ties / d), share=((c.wins + c.ties / 2) / d, (c.losses + c.ties / 2) / d),
                          stderr=(0.0, 0.0), matchups=c.matchups)
            if c.by_hand is not None:
                fields["by_hand"] = tuple((tuple(ids(h)), int(w), int(t), int(p)) for h, w, t, p in zip(
                    arrays[0].tolist(), *c.by_hand))
            return fields, some(checked)
    grid = matchups.matchups(arrays, MATCHUP_CALLS)
    work = math.comb(left, need) * len(arrays) * fives * (2 if low is not None else 1)
    if samples is None and grid is not None and len(grid) <= MATCHUP_CALLS and len(grid) * work <= RANGE_EXACT_LIMIT:
        each = []
        for row in grid:
            hands = [a[j].tolist() for a, j in zip(arrays, row)]
            try:
                each.append(sevens.equity(table.values, n, hands, shown, gone, game=shape, low=low,
                                          exact_limit=RANGE_EXACT_LIMIT))
            except ValueError as exc:
                raise InvalidCards(str(exc)) from None
        mean = lambda name: tuple(float(np.mean([getattr(e, name)[i] for e in each]))  # noqa: E731
                                  for i in range(len(arrays)))
        fields = dict(boards=len(grid) * each[0].boards, exact=True, seed=None, win=mean("win"), tie=mean("tie"),
                      share=mean("share"), stderr=(0.0,) * len(arrays), matchups=len(grid))
        if low is not None:
            fields.update(high=mean("high"), low=mean("low"),
                          low_boards=float(np.mean([e.low_boards for e in each])))
        return fields, some(checked)
    tally = sevens.Tally(len(arrays), low is not None)
    deals: list[tuple[list[list[int]], list[int]]] = []
    count = samples or sevens.SAMPLES
    try:
        for done in range(0, count, SAMPLE_CHUNK):            # bounded memory, however many
            holes, fulls = sampler.draw(min(SAMPLE_CHUNK, count - done), rng)
            values = np.stack([sevens.best_values(table.values, holes[:, i], fulls, shape)[0]
                               for i in range(len(arrays))])
            lows = None
            if low is not None:
                lows = np.stack([sevens.best_values(low[0], holes[:, i], fulls, shape)[0] for i in range(len(arrays))])
                lows = np.where(low[1][lows], lows, -1)
            tally.add(values, lows)
            deals += [([ids(h) for h in deal], ids(board))
                      for deal, board in zip(holes[:checked - len(deals)].tolist(), fulls[:checked - len(deals)].tolist())]
    except ValueError as exc:
        raise InvalidCards(str(exc)) from None
    return dict(vars(tally.equity(False, seed)), matchups=None), deals


def _asked(engine: "Engine", table: "FiveTable", players: list[list[int]], shown: list[int], gone: list[int],
           game: str, split: bool, why: str) -> sevens.Equity:
    """Equity from the rules' showdown of every completion of the board, each its own world
    (off the table only where its showdowns are proven: engine.policy's "showdowns" path), when
    they are few enough; else Unproven, in one line."""
    used = {*shown, *gone, *(c for p in players for c in p)}
    rest = [c for c in table.cards if c not in used]
    count = math.comb(len(rest), 5 - len(shown))
    fast = Tabled(engine, table)
    limit = TABLED_WORLDS if policy.allows(engine, table, "showdowns").holds else WORLDS
    if count > limit:
        raise Unproven(f"poker equity reads hands off the five-card table, and for these rules {why}; and the "
                       f"{count:,} completions of the board are more than the {limit:,} asked of the rules one by one")
    code = engine.games[game]
    worlds = [World(tuple(tuple(p) for p in players), board=tuple(shown) + extra, game=code)
              for extra in itertools.combinations(rest, 5 - len(shown))]
    found = with_low(engine, worlds, verdicts(engine.evaluator(worlds), worlds, table=fast))
    tally = sevens.Tally(len(players), split)
    for start in range(0, len(found), SAMPLE_CHUNK):
        chunk = found[start:start + SAMPLE_CHUNK]
        bad = next((v.error for v in chunk if v.error), None)
        if bad:
            raise InvalidCards(f"the rules' showdown: {bad}")
        wins = np.zeros((len(players), len(chunk)))
        lows = np.full((len(players), len(chunk)), -1.0)
        for j, v in enumerate(chunk):
            wins[list(v.winners), j] = 1
            lows[list(v.low or ()), j] = 1
        tally.add(wins, lows if split else None)
    return tally.equity(True, None)


def _shape(engine: "Engine", game: str) -> tuple[str, int]:
    """How a game deals (sevens.GAMES): hold'em (two hole cards, any five play) or Omaha (four,
    exactly two of them play), read off the rules' holeCards and usesOwn of the game; and its
    number of hole cards.  InvalidCards names an unknown game or one dealt otherwise."""
    code, _ = engine._game(game)
    own = dict(engine.static(I.HOLE_CARDS, 2)).get(code)
    uses = dict(engine.static(I.USES_OWN, 2)).get(code) if any(
        c.head == I.USES_OWN for c in engine.ruleset.clauses) else None
    shapes = {(2, None): "holdem", (4, 2): "omaha"}
    if (own, uses) not in shapes:
        raise InvalidCards(f"poker equity deals hold'em and Omaha boards (and their hi/lo), not {game!r}")
    return shapes[(own, uses)], int(own)


def _check(engine: "Engine", table, deals: Sequence[tuple[list[list[int]], list[int]]], game: str, shape: str,
           lows: "Engine | None" = None, low: Any = None) -> None:
    """Judge these deals (each player's cards and the full board, card ids) both ways: the
    rules' showdown and the table's values (a split pot: the low rule set's showdown and its
    table's values too)."""
    if not deals:
        return
    position = {c: i for i, c in enumerate(table.cards)}
    asked = [World(tuple(tuple(p) for p in players), board=tuple(board), game=engine.games[game])
             for players, board in deals]
    count = len(deals[0][0])
    boards = np.array([[position[c] for c in board] for _, board in deals])
    def best(values: np.ndarray) -> np.ndarray:              # players x deals
        return np.array([sevens.best_values(values, np.array([[position[c] for c in players[i]]
                                                              for players, _ in deals]), boards, shape)[0]
                         for i in range(count)])
    halves = [(engine, asked, best(table.values))]
    if lows is not None:                          # the low half: its showdown, by its own rules
        code = lows.games[game]
        halves.append((lows, [World(d.hands, board=d.board, game=code) for d in asked], best(low[0])))
    for rules, worlds, values in halves:
        # DuckDB (a batch past SMALL_BATCH): a few showdowns of Omaha compare hundreds of fives each,
        # which the in-process program took seconds over
        for j, (deal, v) in enumerate(zip(worlds, verdicts(rules.evaluator(SMALL_BATCH + 1), worlds))):
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
