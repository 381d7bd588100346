"""House of Games in play: an AGame on a Board (``poker deal`` and ``poker game`` use it).

The game only moves cards; every poker answer (rank, category, verdict, winners, the set
predicates) is asked of the rules through the Engine, so a rule-set variant changes the game too.
"""

from __future__ import annotations

import random

from engine.board import Board, InvariantError, card_id

PLAYERS = range(2, 11)      # Engine.winners judges 2..10 hands; 10 hands of five fit in 52 cards
HAND_SIZE = 5
# The games `poker deal --game` deals: each player's own cards, then the board's streets.
DEALS = {"five": (5, ()), "holdem": (2, (3, 1, 1)), "omaha": (4, (3, 1, 1))}
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

    def deal_board(self, cards: int, burn: int = 1) -> None:
        """Burn ``burn`` cards to aDiscard, then turn ``cards`` onto aCentral, the shared board
        (hold'em's flop is 3, the turn 1, the river 1)."""
        if burn + cards > len(self.order[DECK]):
            raise ValueError(f"the deck has {len(self.order[DECK])} cards, too few to burn {burn} "
                             f"and turn {cards}")
        for _ in range(burn):
            self.move(self.order[DECK][0], DISCARD)
        for _ in range(cards):
            self.move(self.order[DECK][0], CENTRAL)

    def board_cards(self) -> list[int]:
        """The board: aCentral's cards, in the order turned."""
        return list(self.order[CENTRAL])

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
