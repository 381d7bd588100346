"""`poker equity` for the games without a board (noBoard: stud, stud hi/lo, razz).

Each player holds seven cards of his own, some known (up cards, one's own down cards) and the
rest still to come; the dead cards (folded, seen) are out.  A deal gives every player his missing
cards from what is left; each player's value is the best five of his seven, read off the rules'
five-card table (the same table and proofs as hold'em's equity, engine.equity), the pot halved
with the low rule set's best qualifying low in a split game (splitLow).  Every deal is counted
when they are few enough to count in seconds (the missing cards chosen together, then shared out
in every way), else a seeded sample with standard errors.  Some deals are also judged by the
rules' showdown, and a disagreement is an error, never an answer.
"""

from __future__ import annotations

import itertools
import math
from typing import Iterator, Sequence

import numpy as np

from engine.core import Engine
from engine.equity import CHECKED, SAMPLE_CHUNK, Equity, TableDisagrees
from engine.evaluators import World, verdicts
from engine.evaluators.workers import SMALL_BATCH
from engine.judging.hilo import split_games
from engine.judging.proof import order_proof
from engine.judging.table import Progress, five_card_table
from engine.poker import sevens
from engine.poker.notation import Cards, InvalidCards

CARDS = 7                      # each player's cards in all
EXACT_WORK = 3_000_000         # deals x players counted exactly at most (about a second a million)


def stud_equity(engine: "Engine", players: Sequence[Cards], dead: Cards | None = None, game: str = "stud",
                samples: int | None = None, seed: int = 0, checked: int = CHECKED,
                progress: "Progress | None" = None) -> Equity:
    """Each player's equity in a boardless game, from his known cards (up to seven) and the
    dead cards; InvalidCards names what is wrong.

    >>> from engine import Engine
    >>> e = stud_equity(Engine(), ["AH AD AC 2S 3S 4S", "KH KD KC 5S 6S 7S"], game="stud")
    >>> e.exact, e.boards, round(e.share[0], 4)
    (True, 1560, 0.8083)
    >>> print(e.lines()[0])
    stud: exact: every one of 1,560 deals; a tie splits the pot equally
    """
    code, _ = engine._game(game)
    if code not in engine.boardless:
        raise InvalidCards(f"{game!r} is dealt with a board: poker equity deals it with --board")
    if not 2 <= len(players) <= 10:
        raise InvalidCards("equity takes 2 to 10 players")
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int) or samples < 1):
        raise InvalidCards(f"samples must be a positive number, not {samples!r}")
    hands = []
    for i, p in enumerate(players, 1):
        cards = engine.cards(p)
        if not 1 <= len(cards) <= CARDS:
            raise InvalidCards(f"player {i}: {game} deals seven cards; give 1 to 7 known, not {len(cards)}")
        hands.append(cards)
    gone = engine.cards(dead) if dead is not None else []
    deck = set(engine.deck)
    given = [c for h in hands for c in h] + list(gone)
    for c in given:
        if c not in deck:
            raise InvalidCards(f"{engine.notation.token(c)} is not a card of the rules' deck")
        if given.count(c) > 1:
            raise InvalidCards(f"{engine.notation.token(c)} is given twice")
    missing = [CARDS - len(h) for h in hands]
    if sum(missing) > len(deck) - len(given):
        raise InvalidCards(f"{len(deck) - len(given)} cards left, {sum(missing)} needed to give every player seven")
    table = five_card_table(engine, progress)
    position = {c: i for i, c in enumerate(table.cards)}
    rest = [i for c, i in position.items() if c not in set(given)]
    order_proof(engine, table).require("poker equity")
    low = lows = None
    split = split_games(engine).get(code)
    if split is not None:                         # the low half: the low rule set's own table
        lows = engine.low_engine(split)
        if lows.deck != engine.deck:
            raise InvalidCards(f"the low half's rule set {split!r} has another deck")
        low_table = five_card_table(lows, progress)
        order_proof(lows, low_table).require("poker equity")
        qualifying = lows.qualifying_ranks()
        low = (low_table.values, np.array([qualifying is None or rank in qualifying for rank, _ in low_table.classes]))
    known = [np.array([position[c] for c in h], dtype=np.int64) for h in hands]
    deals = math.comb(len(rest), sum(missing)) * _splits(missing)
    exact = samples is None and deals * len(hands) <= EXACT_WORK
    tally = sevens.Tally(len(hands), low is not None)
    first: list[np.ndarray] = []
    rng = np.random.Generator(np.random.PCG64(seed))
    count = deals if exact else samples or sevens.SAMPLES
    for chunk in (_every(rest, missing) if exact else _sampled(rest, missing, count, rng)):
        full = [np.concatenate([np.broadcast_to(k, (len(chunk[i]), len(k))), chunk[i]], axis=1)
                for i, k in enumerate(known)]
        values = np.stack([sevens.best_values(table.values, f)[0] for f in full])
        low_values = None
        if low is not None:
            low_values = np.stack([sevens.best_values(low[0], f)[0] for f in full])
            low_values = np.where(low[1][low_values], low_values, -1)
        tally.add(values, low_values)
        if len(first) < checked:
            first += [np.stack([f[j] for f in full]) for j in range(min(checked - len(first), len(full[0])))]
    result = tally.equity(exact, None if exact else seed)
    _check(engine, table, first, code, lows, low)
    fmt = engine.notation.format
    return StudEquity(**vars(result), players=tuple(fmt(h) for h in hands), board="", game=game,
                      checked=len(first), hands=(1,) * len(hands), matchups=1)


class StudEquity(Equity):
    """An Equity whose completions are deals of the players' missing cards (there is no board)."""

    def lines(self) -> list[str]:
        out = super().lines()
        out[0] = out[0].replace(", board (none):", ":").replace("boards", "deals")
        return [line.replace("of the boards", "of the deals") for line in out]


def _splits(missing: Sequence[int]) -> int:
    """The ways to share out sum(missing) chosen cards, missing[i] to player i."""
    out, left = 1, sum(missing)
    for m in missing:
        out *= math.comb(left, m)
        left -= m
    return out


def _shares(missing: Sequence[int]) -> list[list[np.ndarray]]:
    """Every way to share out the chosen cards' places 0..U-1: a list of each player's places."""
    places = range(sum(missing))
    out: list[list[np.ndarray]] = [[]]
    for m in missing:
        out = [have + [np.array(pick, dtype=np.int64)] for have in out
               for pick in itertools.combinations([p for p in places if not any(p in h for h in have)], m)]
    return out


def _every(rest: list[int], missing: Sequence[int]) -> Iterator[list[np.ndarray]]:
    """Every deal, in chunks: each player's missing cards (deck positions), a row a deal; the
    cards chosen together, then shared out in every way."""
    chosen = np.asarray(rest, dtype=np.int64)[sevens._combos(len(rest), sum(missing)).astype(np.int64)]
    shares = _shares(missing)
    for a in range(0, len(chosen), max(1, SAMPLE_CHUNK // len(shares))):
        part = chosen[a:a + max(1, SAMPLE_CHUNK // len(shares))]
        yield [np.concatenate([part[:, share[i]] for share in shares]) for i in range(len(missing))]


def _sampled(rest: list[int], missing: Sequence[int], count: int, rng: np.random.Generator
             ) -> Iterator[list[np.ndarray]]:
    """``count`` deals drawn at random, in chunks (bounded memory)."""
    cards = np.asarray(rest, dtype=np.int64)
    edges = np.cumsum([0, *missing])
    for done in range(0, count, SAMPLE_CHUNK):
        k = min(SAMPLE_CHUNK, count - done)
        order = np.argsort(rng.random((k, len(cards))), axis=1)[:, :edges[-1]]
        drawn = cards[order]
        yield [drawn[:, edges[i]:edges[i + 1]] for i in range(len(missing))]


def _check(engine: "Engine", table, deals: list[np.ndarray], code: int, lows: "Engine | None", low) -> None:
    """Judge these deals (players x seven deck positions) by the rules' showdown too (and the low
    rule set's showdown of a split game): its winners must be the table's."""
    if not deals:
        return
    halves = [(engine, code, table.values)]
    if lows is not None:
        name = {c: g for g, c in engine.games.items()}[code]
        halves.append((lows, lows.games[name], low[0]))
    for rules, game, values in halves:
        worlds = [World(tuple(tuple(table.cards[i] for i in row) for row in d), board=(), game=game) for d in deals]
        for d, w, v in zip(deals, worlds, verdicts(rules.evaluator(SMALL_BATCH + 1), worlds)):
            best = sevens.best_values(values, d)[0]
            winners = tuple(int(i) for i in np.flatnonzero(best == best.max()))
            if v.error or v.winners != winners:
                raise TableDisagrees(f"the rules' showdown ({rules.name}) and the five-card table disagree on "
                                     f"{' | '.join(engine.notation.format(h) for h in w.hands)}: rules "
                                     f"{v.winners or v.error}, table {winners}; equity is not given")
