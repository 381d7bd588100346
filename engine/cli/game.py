"""`poker deal` and `poker game` (the report's mini program, PokerGame.jar) over engine.game."""

from __future__ import annotations

import argparse
import contextlib
import random
from typing import Any, Callable

from engine import limits
from engine.board.game import DEALS, PLAYERS, Game
from engine.cli.common import (
    CommandError,
    LineSession,
    add_json_option,
    add_rules_option,
    load_engine,
    load_session_engine,
    print_json,
    query_budget,
)
from engine.core import Engine
from engine.poker.notation import InvalidCards

HISTORY = ("POKER_GAME_HISTORY", "~/.poker_game_history")     # (environment variable, default)


def register(sub: Any) -> None:
    p = sub.add_parser("deal", help="shuffle a deck on a board, deal five cards to each player (or "
                                    "a game's hole cards and board), judge")
    p.add_argument("--players", required=True, metavar="N", help="2 to 10 players")
    p.add_argument("--seed", metavar="S", help="an integer; the same seed deals the same hands")
    p.add_argument("--game", choices=sorted(DEALS), default="five",
                   help="five: five cards each (default); holdem: two each, then a flop, turn and "
                        "river on aCentral (a card burnt to aDiscard before each); omaha: four each")
    add_json_option(p, '{"hands": [[token, ...], ...], "ranks": [...], "winners": [0-based ...]} '
                       '(and "board", "best" for a game with a board)')
    add_rules_option(p)
    p.set_defaults(run=run_deal)

    p = sub.add_parser("game", help="the report's mini program (PokerGame.jar): a menu on stdin",
                       description="The report's mini program. On a terminal it prompts, with line "
                                   "editing and history; with piped stdin it prints only answers, "
                                   "and the exit status is 1 if any line was bad.")
    add_rules_option(p)
    p.set_defaults(run=run_game)


# ---- poker deal ----------------------------------------------------------------------------


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
    own, streets = DEALS[args.game]
    game = Game(players, seed)
    try:
        game.deal(own)
        for street in streets:
            game.deal_board(street)
    except ValueError as exc:
        raise CommandError(f"--game {args.game} with {players} players: {exc}") from None
    game.check()
    hands = [game.hand(i) for i in range(players)]
    tokens = [[engine.notation.token(c) for c in h] for h in hands]
    if not streets:
        ranks = [engine.get_rank(h) for h in hands]
        winners = engine.winners(hands)
        if args.json:
            print_json({"hands": tokens, "ranks": ranks, "winners": winners})
            return 0
        print(f"seed {seed}")
        for i, (hand, rank) in enumerate(zip(tokens, ranks)):
            print(f"hand {i + 1}: {' '.join(hand)}  {engine.categories.get(rank, '?')} (rank {rank})")
        print(winners_line(winners))
        return 0
    board = game.board_cards()
    v = engine.showdown(hands, board, args.game)
    if v.error:
        raise InvalidCards(v.error)
    best = [engine.notation.format(b) for b in v.best]
    if args.json:
        print_json({"hands": tokens, "board": [engine.notation.token(c) for c in board], "best": best,
                    "ranks": list(v.ranks), "winners": list(v.winners)})
        return 0
    print(f"seed {seed}")
    print(f"board: {engine.notation.format(board)}")
    for i, (hand, five, rank) in enumerate(zip(tokens, best, v.ranks)):
        print(f"hand {i + 1}: {' '.join(hand)}  plays {five}  {engine.categories.get(rank, '?')} (rank {rank})")
    print(winners_line(list(v.winners)))
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


class Menu:
    """One run of the menu over a :class:`LineSession`.  On a terminal it prompts as the
    report's screenshot shows; piped, it prints only answers.  Bad input is one line on stderr
    and the menu goes on; the end of input ends the game cleanly.  Each answer is computed
    within ``budget`` (seconds, bytes), the time spent waiting for input outside it."""

    def __init__(self, engine: Engine, lines: LineSession,
                 budget: tuple[float | None, int | None] = (None, None)):
        self.engine, self.lines, self.budget = engine, lines, budget

    def answering(self) -> contextlib.AbstractContextManager[None]:
        """The budget of one answer: past it, BudgetExceeded (the line fails, the menu goes on)."""
        seconds, memory = self.budget
        return limits.budget(seconds, memory, what="the answer")

    def say(self, text: str) -> None:
        print(text, flush=True)

    def read(self, question: str) -> str:
        """The answer to a question (shown on a terminal, on a line of its own); EOFError at the end."""
        if self.lines.interactive:
            self.say(question)
        return self.lines.read().strip()

    def run(self) -> int:
        actions: dict[str, Callable[[], None]] = {"0": self.test_set, "1": lambda: self.fight(2),
                                                  "2": lambda: self.fight(3)}
        if self.lines.interactive:
            self.say("\nWELCOME TO POKER GAME")
        first = True
        while True:
            if self.lines.interactive:
                self.say(MENU if first else "\n" + MENU)
                first = False
            try:
                choice = self.read("Give me your choice:")
                if choice.lower() in ("3", "exit", "quit"):
                    break
                if not choice:
                    continue
                if choice not in actions:
                    self.lines.fail(f"choose 0, 1, 2 or 3, not {choice!r}")
                    continue
                actions[choice]()
            except EOFError:
                if self.lines.interactive:
                    self.say("")
                break
            except (InvalidCards, limits.BudgetExceeded) as exc:
                self.lines.fail(str(exc))
            except BrokenPipeError:      # the reader left: stop (main exits quietly)
                raise
            except Exception as exc:     # a bug, or pyDatalog surprising us: still one line
                self.lines.fail(f"{type(exc).__name__}: {exc}")
        return self.lines.status

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
        with self.answering():
            self.say(f"cards: {e.notation.format(cards)}")
            for name, flag in zip(SET_PREDICATES, flags):
                self.say(f"{name}: {'true' if flag(cards) else 'false'}")
            rank, name = self._category(cards)
            self.say(f"rank: {rank} ({name})")

    def fight(self, n: int) -> None:
        hands = [self.engine.cards(self.read(f"Give me hand {i + 1} (e.g. AH KH QH JH TH):")) for i in range(n)]
        with self.answering():
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
    budget = query_budget(args)
    engine = load_session_engine(args, budget)
    with LineSession(history=HISTORY) as lines:
        return Menu(engine, lines, budget).run()
