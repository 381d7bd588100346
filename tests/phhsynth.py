"""Synthetic hand histories in the PHH format, dealt and played by pokerkit.

Why: to test and time the PHH reader and the pot rules on many realistic hands whose outcome was
settled by an independent implementation (pokerkit), not by our own engine.  Each hand is dealt
from a shuffled deck and played with random legal actions until it is over; every player still in
at the showdown shows, so every hand can be judged; ``finishing_stacks`` is pokerkit's result.

Hands are written as a bulk ``.phhs`` file (TOML: sections ``[1]``, ``[2]``, ...).  Hand *i* of a
seed depends only on (seed, i, variants, players), so a shorter file is a prefix of a longer one.

    .venv/bin/python tests/phhsynth.py 10000 --seed 1 --variant NT --variant PO -o hands.phhs

Quirks of pokerkit 0.7.7 this module works around:

* ``FO/8`` is built on pokerkit's *pot-limit* betting structure (a bug of the class), so the
  player here always completes/bets/raises by exactly one fixed-limit unit, with a cap.
* ``State`` shuffles its deck with the global ``random``; we replace the deck's order with our
  own (seeded) one, so that the cards, and the burn cards, are reproducible.
* The replay (``HandHistory.__iter__``) uses cash-game mode and no ante trimming (antes are dead
  money in the main pot); the hands are played in the same mode so that both agree.
* pokerkit pays some splits by conventions of its own (see ``_standard``); such a hand is dealt
  again, so that every ``finishing_stacks`` here is the one answer of the rule books.
* Its hand killing evaluates each live hand once per live player: ``_MemoState`` remembers.
* In the draw games (``N2L1D``, ``F2L3D``, ``FB``) a player discards at most what the deck can
  replace for everyone still to draw: past it, pokerkit deals discarded cards again.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import random
import sys
import tempfile
from pathlib import Path

from pokerkit import (
    Automation,
    FixedLimitBadugi,
    FixedLimitDeuceToSevenLowballTripleDraw,
    FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    FixedLimitTexasHoldem,
    HandHistory,
    Mode,
    NoLimitDeuceToSevenLowballSingleDraw,
    NoLimitShortDeckHoldem,
    NoLimitTexasHoldem,
    Pot,
    PotLimitOmahaHoldem,
    State,
)
from pokerkit.games import Poker
from pokerkit.hands import Hand

__all__ = ["synthesize", "write", "cached", "play", "VARIANTS", "CACHE_DIR"]

FORMAT = 1                                  # bump when hands change: names the cached files
CACHE_DIR = Path("/tmp/poker-phh-synth")
VARIANTS = ("NT", "FT", "PO", "FO/8", "NS", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")
STUD = {"F7S": FixedLimitSevenCardStud, "F7S/8": FixedLimitSevenCardStudHighLowSplitEightOrBetter,
        "FR": FixedLimitRazz}
DRAW_PLAYERS = 6     # five cards each and the draws: the deck replaces every discard
STUD_PLAYERS = 6     # seven cards each and four burnt: past six players pokerkit deals mucked cards again

# The bookkeeping is pokerkit's; dealing and showing are ours, so they appear among the actions.
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
STAKES = (2, 2, 2, 4, 10, 20, 50, 100)     # big blinds; the small blind is half
DRAW = {"N2L1D": NoLimitDeuceToSevenLowballSingleDraw, "F2L3D": FixedLimitDeuceToSevenLowballTripleDraw,
        "FB": FixedLimitBadugi}
FIXED_LIMIT = {"FT", "FO/8", "F2L3D", "FB", *STUD}
# At most this many completions/bets/raises a betting round in fixed limit: the big blind counts
# as the opening bet preflop, so "a bet and three raises" everywhere (also within pokerkit's 4).
FIXED_CAP = (3, 4, 4, 4)


class _MemoState(State):
    """pokerkit's State, remembering its hand evaluations.  Why: to decide which hands to kill,
    pokerkit evaluates every live player's hand (21 or 60 five-card combinations, twice in hi/lo)
    once for each live player, which was nine tenths of the time.  The two methods below are
    pokerkit's own, with the evaluation of a (hand type, cards, board) done once a hand: same
    hands, same errors, same results."""

    def _evaluate(self, hand_type_index: int, cards: tuple, board: tuple) -> Hand | Exception:
        memo = self.__dict__.setdefault("_hand_memo", {})
        key = (hand_type_index, cards, board)
        if key not in memo:
            try:
                memo[key] = self.hand_types[hand_type_index].from_game(cards, board)
            except (KeyError, ValueError) as exc:
                memo[key] = exc
        return memo[key]

    def get_hand(self, player_index: int, board_index: int, hand_type_index: int) -> Hand | None:
        if not self.statuses[player_index]:
            return None
        hand = self._evaluate(hand_type_index, tuple(filter(None, self.hole_cards[player_index])),
                              tuple(self.get_board_cards(board_index)))
        return None if isinstance(hand, Exception) else hand

    def get_up_hand(self, player_index: int, board_index: int, hand_type_index: int) -> Hand | None:
        if not self.statuses[player_index]:
            return None
        hand = self._evaluate(hand_type_index, tuple(self.get_up_cards(player_index)),
                              tuple(self.get_board_cards(board_index)))
        if isinstance(hand, KeyError):                 # pokerkit lets this one through here
            raise hand
        return None if isinstance(hand, Exception) else hand


def _game(variant: str, ante: list[int], blinds: list[int], bb: int) -> Poker:
    """The pokerkit game of a variant, in the mode and with the ante rule its replay uses."""
    kw = dict(automations=AUTOMATIONS, ante_trimming_status=False, raw_antes=ante,
              raw_blinds_or_straddles=blinds, mode=Mode.CASH_GAME)
    if variant == "NT":
        return NoLimitTexasHoldem(min_bet=bb, **kw)
    if variant == "NS":
        return NoLimitShortDeckHoldem(min_bet=bb, **kw)
    if variant == "PO":
        return PotLimitOmahaHoldem(min_bet=bb, **kw)
    if variant == "FO/8":
        return FixedLimitOmahaHoldemHighLowSplitEightOrBetter(small_bet=bb, big_bet=2 * bb, **kw)
    if variant == "FT":
        return FixedLimitTexasHoldem(small_bet=bb, big_bet=2 * bb, **kw)
    if variant == "N2L1D":
        return NoLimitDeuceToSevenLowballSingleDraw(min_bet=bb, **kw)
    if variant in DRAW:
        return DRAW[variant](small_bet=bb, big_bet=2 * bb, **kw)
    if variant in STUD:         # antes and a bring-in (a quarter of the small bet), no blinds
        del kw["raw_blinds_or_straddles"]
        return STUD[variant](bring_in=max(1, bb // 4), small_bet=bb, big_bet=2 * bb, **kw)
    raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")


def _table(rng: random.Random, n: int, variant: str) -> tuple[list[int], list[int], list[int], int]:
    """Forced bets and stacks: (antes, blinds, starting stacks, big blind).  Stacks vary from a
    few big blinds to 400, so that all-ins and side pots are common."""
    bb = rng.choice(STAKES)
    sb = bb // 2
    blinds = [sb, bb] + [0] * (n - 2)
    ante = [0] * n
    r = rng.random()
    if variant in STUD:                                # stud: antes always, no blinds
        blinds = [0] * n
        r = 0.0
    if r < 0.2:                                        # uniform antes
        a = max(1, round(bb * rng.choice((0.1, 0.125, 0.2, 0.25, 0.5))))
        ante = [a] * n
    elif r < 0.35:                                     # a big-blind ante (p2 = the big blind;
        ante[1] = bb                                   # heads-up, pokerkit reverses both lists)
    short = rng.choice((0.1, 0.25, 0.4, 0.6))               # this table's share of short stacks
    stacks = []
    for i in range(n):
        if rng.random() < short:
            s = rng.randint(bb, 10 * bb) + rng.randrange(bb)      # 1 to 10 big blinds, odd chips
        else:
            s = int(bb * math.exp(rng.uniform(math.log(20), math.log(400))))
        # Nobody all-in on the forced bets alone: pokerkit's untrimmed antes are dead money that
        # every live player contests, which differs from a pot built on contributions when a
        # player cannot cover the ante.
        posted = ante[i if n > 2 else 1 - i] + blinds[i if n > 2 else 1 - i]
        stacks.append(max(s, posted + bb))
    return ante, blinds, stacks, bb


def _act(rng: random.Random, state: State, variant: str, style: tuple[float, float, float]) -> None:
    """One random legal action of the player to act: fold (only facing a bet), check/call, or
    complete/bet/raise to a random legal amount (all-in now and then)."""
    fold_p, raise_p, shove_p = style
    owed = state.checking_or_calling_amount or 0
    lo = state.min_completion_betting_or_raising_to_amount
    hi = state.max_completion_betting_or_raising_to_amount
    if variant in FIXED_LIMIT and lo is not None:
        street = state.street_index or 0
        if variant in STUD and state.can_post_bring_in() and rng.random() < 0.8:
            state.post_bring_in()                      # the bring-in, mostly; else a completion
            return
        if variant not in STUD and state.completion_betting_or_raising_count >= FIXED_CAP[min(street, 3)]:
            lo = None
        else:
            hi = lo                                    # one fixed unit (or all-in for less)
    if not state.street_index:                         # preflop, the many weak starting hands
        fold_p += 0.2
    p = state.actor_index
    assert p is not None
    if state.stacks[p] <= 12 * max(state.blinds_or_straddles):
        # A short stack pushes or folds (and pushes often): the all-ins and side pots.
        raise_p, shove_p = 2 * raise_p + 0.1, 0.85
    if owed:                                           # a cheap call is folded less (pot odds)
        pot = state.total_pot_amount                   # the outstanding bets included
        fold_p *= min(1.0, 0.5 + 1.5 * owed / (pot + owed))
    if owed and rng.random() < fold_p and state.can_fold():
        state.fold()
        return
    # Each raise of the round makes the next less likely, as at a real table.
    if lo is not None and rng.random() < raise_p / (1 + state.completion_betting_or_raising_count):
        if lo >= hi or rng.random() < shove_p:
            amount = hi
        else:
            k = rng.random()
            if k < 0.35:
                amount = lo
            elif k < 0.7:                              # about a pot (or the most pot-limit allows)
                amount = min(hi, max(lo, max(state.bets) + state.total_pot_amount + owed))
            else:
                amount = rng.randint(lo, hi)
        state.complete_bet_or_raise_to(amount)
        return
    if state.can_check_or_call():
        state.check_or_call()
    else:                                              # the bring-in: post it, or complete
        state.post_bring_in() if state.can_post_bring_in() else state.complete_bet_or_raise_to(lo)


def _play_once(rng: random.Random, variant: str, n: int) -> tuple[Poker, State, bool]:
    """Deal and play one hand to its end: (game, final state, whether pokerkit's payout is the
    one the standard rules give, see _standard)."""
    ante, blinds, stacks, bb = _table(rng, n, variant)
    game = _game(variant, ante, blinds, bb)
    state = game(stacks, n)
    state.__class__ = _MemoState                        # only adds a memo (see the class)
    deck = list(game.deck)                              # the deck's fixed order, then ours
    rng.shuffle(deck)
    state.deck_cards.clear()
    state.deck_cards.extend(deck)
    # A style for the whole hand: how often to fold to a bet, to raise, to shove when raising.
    style = (rng.uniform(0.15, 0.5), rng.uniform(0.06, 0.3), rng.uniform(0.05, 0.4))
    showdown: tuple[list[Pot], list[int]] | None = None
    while state.status:
        if state.can_deal_hole():
            for i in state.player_indices:
                k = len(state.hole_dealing_statuses[i])
                if k:
                    state.deal_hole(k, i)
        elif state.can_deal_board():
            state.deal_board(state.board_dealing_count)
        elif state.can_stand_pat_or_discard():
            _draw(rng, state)
        elif state.actor_index is not None:
            _act(rng, state, variant, style)
        elif state.showdown_index is not None:
            if showdown is None:                        # the betting is over: the pots as they are
                showdown = (list(state.pots), list(state.stacks))
            state.show_or_muck_hole_cards(True)
        else:                                           # pragma: no cover - pokerkit stuck
            raise RuntimeError(f"pokerkit state stuck: {state.operations[-3:]}")
    return game, state, showdown is None or _standard(state, *showdown)


def _draw(rng: random.Random, state: State) -> None:
    """A draw: stand pat or discard up to three cards, never more than the deck can replace for
    every player still to draw (pokerkit would deal discarded cards again)."""
    p = state.stand_patter_or_discarder_index
    assert p is not None
    waiting = sum(1 for i in state.player_indices if state.standing_pat_or_discarding_statuses[i])
    k = min(rng.choice((0, 0, 1, 1, 2, 3)), len(state.deck_cards) // max(waiting, 1))
    state.stand_pat_or_discard(rng.sample(list(state.hole_cards[p]), k))


def _standard(state: _MemoState, pots: list[Pot], before: list[int]) -> bool:
    """Whether pokerkit paid the hand as every rule book would.  Why: pokerkit 0.7.7 has payout
    conventions of its own -- a pot's whole odd-chip remainder to the first winner, pots merged
    once the losing hands are killed (so odd chips, and hi/lo halves of odd pots, move), and a
    low half paid to the pot's players when none of them has a low but someone outside the pot
    does -- so a hand with a split that leaves odd chips, or paid otherwise than pot by pot with
    the high half taking the odd chip, is dealt again rather than recorded."""
    board = tuple(state.get_board_cards(0))
    hands = [[state._evaluate(k, tuple(state.hole_cards[i]), board) for i in state.player_indices]
             for k in state.hand_type_indices]
    won = [0] * state.player_count
    for pot in pots:
        kinds = [k for k, of in enumerate(hands)
                 if any(not isinstance(of[i], Exception) for i in pot.player_indices)]
        half, odd = divmod(pot.amount, len(kinds))
        for j, k in enumerate(kinds):
            share = half + (odd if j == 0 else 0)      # the high half takes the odd chip
            live = [i for i in pot.player_indices if not isinstance(hands[k][i], Exception)]
            best = max(hands[k][i] for i in live)
            winners = [i for i in live if hands[k][i] == best]
            if share % len(winners):
                return False                           # odd chips: a matter of convention
            for i in winners:
                won[i] += share // len(winners)
    return [b + w for b, w in zip(before, won)] == list(state.stacks)


def play(rng: random.Random, variant: str, n: int) -> tuple[Poker, State]:
    """Deal and play one hand of `n` players to its end, again until pokerkit's payout is the
    standard one (a few hands in a hundred); (game, final state)."""
    while True:
        game, state, standard = _play_once(rng, variant, n)
        if standard:
            return game, state


def _toml(value: object) -> str:
    """A TOML value: ints, strings and lists of them (all the fields here need)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def _hand_text(index: int, game: Poker, state: State) -> str:
    """One hand's PHH section: pokerkit builds the actions and the forced bets from the state."""
    hh = HandHistory.from_game_state(game, state)
    n = len(hh.starting_stacks)
    fields: list[tuple[str, object]] = [("variant", hh.variant), ("antes", hh.antes)]
    if hh.variant in STUD:
        fields.append(("bring_in", hh.bring_in))
    else:
        fields.append(("blinds_or_straddles", hh.blinds_or_straddles))
    if hh.variant in FIXED_LIMIT:
        fields += [("small_bet", hh.small_bet), ("big_bet", hh.big_bet)]
    else:
        fields.append(("min_bet", hh.min_bet))
    fields += [("starting_stacks", hh.starting_stacks), ("actions", hh.actions),
               ("hand", index), ("players", [f"P{i + 1}" for i in range(n)]),
               ("finishing_stacks", list(state.stacks))]
    lines = [f"[{index}]"]
    for key, value in fields:
        if key == "actions":
            lines.append("actions = [\n" + "".join(f"  {_toml(a)},\n" for a in value) + "]")
        else:
            lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def synthesize(count: int, seed: int = 0, variants: tuple[str, ...] = ("NT",),
               players: tuple[int, int] = (2, 9)) -> str:
    """`count` hands as PHHS text, reproducible from `seed` (hand i depends on seed and i only)."""
    variants = tuple(variants)
    for v in variants:
        if v not in VARIANTS:
            raise ValueError(f"unknown variant {v!r} (known: {', '.join(VARIANTS)})")
    lo, hi = players
    if not 2 <= lo <= hi <= 9:
        raise ValueError(f"players must be within 2..9, not {players!r}")
    out = io.StringIO()
    for i in range(1, count + 1):
        rng = random.Random(f"phh-synth/{seed}/{i}")   # str seeds: stable across runs
        variant = rng.choice(variants)
        most = STUD_PLAYERS if variant in STUD else DRAW_PLAYERS if variant in DRAW else hi
        game, state = play(rng, variant, rng.randint(lo, min(hi, most)))
        if i > 1:
            out.write("\n")
        out.write(_hand_text(i, game, state))
    return out.getvalue()


def write(path: str | os.PathLike[str], count: int, seed: int = 0,
          variants: tuple[str, ...] = ("NT",), players: tuple[int, int] = (2, 9)) -> Path:
    """Write `count` hands to `path` atomically, so a reader never sees half a file."""
    path = Path(path)
    text = synthesize(count, seed, variants, players)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        umask = os.umask(0)                            # mkstemp makes 0600: a plain file's mode
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def cached(count: int, seed: int = 0, variants: tuple[str, ...] = ("NT",)) -> Path:
    """The file under /tmp/poker-phh-synth/ named by count, seed, variants; made once (making
    10,000 hands takes seconds, benchmarks want the same hands every run)."""
    tag = "+".join(v.replace("/", "") for v in variants)
    path = CACHE_DIR / f"v{FORMAT}-{count}-s{seed}-{tag}.phhs"
    if not path.exists():
        write(path, count, seed, tuple(variants))
    return path


def main(argv: list[str] | None = None) -> int:
    """The command line: COUNT hands to OUT (or standard output)."""
    ap = argparse.ArgumentParser(description="Synthesize PHH hand histories played by pokerkit.")
    ap.add_argument("count", metavar="COUNT", type=int, help="how many hands")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument("--variant", action="append", choices=VARIANTS,
                    help="a variant to deal (repeatable; default NT)")
    ap.add_argument("--players", default="2-9", help="players a hand, as MIN-MAX (default 2-9)")
    ap.add_argument("-o", "--out", help="output file (default: standard output)")
    args = ap.parse_args(argv)
    variants = tuple(args.variant or ("NT",))
    lo, _, hi = args.players.partition("-")
    players = (int(lo), int(hi or lo))
    if args.out:
        write(args.out, args.count, args.seed, variants, players)
    else:
        sys.stdout.write(synthesize(args.count, args.seed, variants, players))
    return 0


if __name__ == "__main__":
    sys.exit(main())
