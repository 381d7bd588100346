"""House of Games in play: an AGame on a Board, the `poker deal` and `poker game` subcommands.

The game only moves cards; every poker answer (rank, category, verdict, winners, the set
predicates) is asked of the rules through the Engine, so a rule-set variant changes the game too.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Callable, TextIO

from .board import Board, InvariantError, card_id
from .cli import CommandError, add_rules_option, load_engine, print_json
from .core import Engine
from .notation import InvalidCards

PLAYERS = range(2, 11)      # Engine.winners judges 2..10 hands; 10 hands of five fit in 52 cards
HAND_SIZE = 5
DECK, CENTRAL, DISCARD = "deck", "central", "discard"


class Game:
    """AGame (Schema 1.3): a deck, aCentral, aDiscard and the sequence aHand of N hands.

    The board holds which cards are on which place (sets, Schema 1.1); a hand is an injective
    sequence (AHand is ``iseq ACard``), so the game also keeps each place's order, and ``check``
    holds the two views together.  Cards are the spec's ids 1..52, i.e. Example 5's categories
    0..51 plus one (:func:`engine.board.card_id`).
    """

    def __init__(self, players: int, seed: int | None = None):
        if players not in PLAYERS:
            raise ValueError(f"a game has {PLAYERS.start} to {PLAYERS.stop - 1} players, not {players}")
        self.board = Board()
        self.hands = [f"hand {i + 1}" for i in range(players)]
        self.order: dict[str, list[int]] = {p: [] for p in (DECK, CENTRAL, DISCARD, *self.hands)}
        for place in self.order:
            self.board.add_place(place)
        deck = [card_id(i) for i in range(52)]
        random.Random(seed).shuffle(deck)
        for card in deck:
            self._put(card, DECK)

    def _put(self, card: int, place: str) -> None:
        if not self.board.add_counter(card, place):
            raise InvariantError(f"card {card} could not go to {place}")
        self.order[place].append(card)

    def move(self, card: int, place: str) -> None:
        """Take a card from its place and put it on another: RCounter then ACounter."""
        if place not in self.order:
            raise ValueError(f"{place!r} is not a place of this game")
        source = self.board.place_of(card)
        if source is None or not self.board.remove_counter(card):
            raise InvariantError(f"card {card} is not on the board")
        self.order[source].remove(card)
        self._put(card, place)

    def deal(self, cards: int = HAND_SIZE) -> None:
        """Deal from the top of the deck, one card to each hand in turn, ``cards`` rounds."""
        if cards * len(self.hands) > len(self.order[DECK]):
            raise ValueError(f"the deck has {len(self.order[DECK])} cards, too few for "
                             f"{cards} each to {len(self.hands)} hands")
        for _ in range(cards):
            for hand in self.hands:
                self.move(self.order[DECK][0], hand)

    def hand(self, i: int) -> list[int]:
        """The cards of hand i (0-based), in the order dealt."""
        return list(self.order[self.hands[i]])

    def check(self) -> None:
        """The board's invariant, and every place's sequence is injective and agrees with the board."""
        self.board.check()
        for place, seq in self.order.items():
            if len(set(seq)) != len(seq) or set(seq) != self.board.counters_at(place):
                raise InvariantError(f"{place}: the sequence {seq} disagrees with the board "
                                     f"{sorted(self.board.counters_at(place))}")


# ---- poker deal ----------------------------------------------------------------------------

def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deal", help="shuffle a deck on a board, deal five cards to each player, judge")
    p.add_argument("--players", required=True, metavar="N", help="2 to 10 players")
    p.add_argument("--seed", metavar="S", help="an integer; the same seed deals the same hands")
    p.add_argument("--json", action="store_true",
                   help='print {"hands": [[token, ...], ...], "ranks": [...], "winners": [0-based ...]}')
    add_rules_option(p)
    p.set_defaults(run=run_deal)

    p = sub.add_parser("game", help="the report's mini program (PokerGame.jar): a menu on stdin")
    add_rules_option(p)
    p.set_defaults(run=run_game)


def _integer(text: str | None, option: str) -> int | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise CommandError(f"{option} takes an integer, not {text!r}") from None


def run_deal(args: argparse.Namespace) -> int:
    players = _integer(args.players, "--players")
    if players not in PLAYERS:
        raise CommandError(f"--players takes {PLAYERS.start} to {PLAYERS.stop - 1}, not {players}")
    seed = _integer(args.seed, "--seed")
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 32)
    engine = load_engine(args)
    game = Game(players, seed)
    game.deal()
    game.check()
    hands = [game.hand(i) for i in range(players)]
    ranks = [engine.get_rank(h) for h in hands]
    winners = engine.winners(hands)
    tokens = [[engine.notation.token(c) for c in h] for h in hands]
    if args.json:
        print_json({"hands": tokens, "ranks": ranks, "winners": winners})
        return 0
    print(f"seed {seed}")
    for i, (hand, rank) in enumerate(zip(tokens, ranks)):
        print(f"hand {i + 1}: {' '.join(hand)}  {engine.categories.get(rank, '?')} (rank {rank})")
    print(winners_line(winners))
    return 0


def winners_line(winners: list[int]) -> str:
    return ("winner: " if len(winners) == 1 else "winners (tie): ") + ", ".join(f"hand {i + 1}" for i in winners)


# ---- poker game ----------------------------------------------------------------------------

MENU = ("What do you want to do?\n"
        "0. Test a set of cards\n"
        "1. Beat with 2 hand\n"
        "2. Beat with 3 hand\n"
        "3. Exit")
SET_PREDICATES = ("isPair", "isThree", "isFour", "isFlush", "isStraight", "isA", "isK")


class _Session:
    """One run of the menu.  With a terminal it prompts as the report's screenshot shows; with
    piped input it prints only answers, so a script can drive it, and (as `poker repl` does) each
    error names its input line and the exit status is 1 if any input was bad.  Bad input is one
    line on err and the menu goes on; the end of input ends the game cleanly."""

    def __init__(self, engine: Engine, inp: TextIO, out: TextIO, err: TextIO, interactive: bool):
        self.engine, self.inp, self.out, self.err, self.interactive = engine, inp, out, err, interactive
        self.line = 0
        self.failed = False

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def complain(self, message: str) -> None:
        where = "" if self.interactive else f"line {self.line}: "
        print(f"poker: {where}{message}", file=self.err, flush=True)
        self.failed = True

    def read(self, prompt: str) -> str:
        """The next line (EOFError at the end); the prompt shows only on a terminal."""
        if self.interactive:
            self.say(prompt)
        line = self.inp.readline()
        if not line:
            raise EOFError
        self.line += 1
        return line.strip()

    def run(self) -> int:
        actions: dict[str, Callable[[], None]] = {"0": self.test_set, "1": lambda: self.fight(2),
                                                  "2": lambda: self.fight(3)}
        if self.interactive:
            self.say("\nWELCOME TO POKER GAME")
        first = True
        while True:
            if self.interactive:
                self.say(MENU if first else "\n" + MENU)
                first = False
            try:
                choice = self.read("Give me your choice:")
                if choice.lower() in ("3", "exit", "quit"):
                    break
                if not choice:
                    continue
                if choice not in actions:
                    self.complain(f"choose 0, 1, 2 or 3, not {choice!r}")
                    continue
                actions[choice]()
            except EOFError:
                if self.interactive:
                    self.say("")
                break
            except InvalidCards as exc:
                self.complain(str(exc))
            except Exception as exc:     # a bug, or pyDatalog surprising us: still one line
                self.complain(f"{type(exc).__name__}: {exc}")
        return 1 if self.failed and not self.interactive else 0

    def _category(self, cards: list[int]) -> tuple[int, str]:
        """The rules' rank of the cards and its name (or why they are not a hand)."""
        rank = self.engine.get_rank(cards)
        if rank in self.engine.categories:
            return rank, self.engine.categories[rank]
        return rank, f"not a hand: {self.engine.why_not_hand(cards)}"

    def test_set(self) -> None:
        cards = self.engine.cards(self.read("Give me a set of cards (e.g. AH AD 3C):"))
        e = self.engine
        flags = (e.is_pair, e.is_three, e.is_four, e.is_flush, e.is_straight, e.is_a, e.is_k)
        self.say(f"cards: {e.notation.format(cards)}")
        for name, flag in zip(SET_PREDICATES, flags):
            self.say(f"{name}: {'true' if flag(cards) else 'false'}")
        rank, name = self._category(cards)
        self.say(f"rank: {rank} ({name})")

    def fight(self, n: int) -> None:
        hands = [self.engine.cards(self.read(f"Give me hand {i + 1} (e.g. AH KH QH JH TH):")) for i in range(n)]
        for i, hand in enumerate(hands):
            rank, name = self._category(hand)
            self.say(f"hand {i + 1}: {self.engine.notation.format(hand)}  {name} (rank {rank})")
        if n == 2:
            self.say(f"beat: {self.engine.beat(*hands)}")
        try:
            winners = self.engine.winners(hands)
        except InvalidCards as exc:      # the rules' verdict on these hands, not bad input
            self.say(f"no winner: {exc}")
            return
        self.say(winners_line(winners))


def run_game(args: argparse.Namespace) -> int:
    engine = load_engine(args)
    return _Session(engine, sys.stdin, sys.stdout, sys.stderr, sys.stdin.isatty()).run()
