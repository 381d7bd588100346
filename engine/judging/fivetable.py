"""The five-card value table: the rules' value of every five-card hand of a deck, as data.

engine.judging.table makes it from the rules (and keeps it in a verified cache); the proofs
(engine.judging.proof) read its places; the readers (engine.judging.tabled, engine.poker.sevens)
its values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from engine.datalog.loader import RuleError
from engine.poker import sevens


class TableError(RuleError):
    """The table cannot be made from these rules (the message says why, naming a hand): a
    RuleError, one line from every command that needs the table."""


@dataclass(frozen=True, eq=False)
class FiveTable:
    """The rules' value of every five-card hand of a deck.

    ``cards``: the deck's card ids in ascending order (position -> id); ``values[r]``: the value
    of the hand of colex index ``r`` (int32; ``sevens.five_hands(len(cards))[r]`` are its
    positions), higher is stronger, equal is a tie; ``ranks[r]``: its getRank (int8, or int16
    when the ranks need it); ``classes[v]``: the strength ``(rank, key)`` of value ``v``, in
    ascending order; ``rules_digest``: the digest of the rule set and deck it was computed from
    (:func:`rules_digest`).  The arrays are read-only.

    A table for a deck of six cards (six hands), as the rules would give it:

    >>> import numpy as np
    >>> t = FiveTable(cards=(1, 2, 3, 4, 5, 6), values=np.array([0, 1, 1, 2, 0, 3], dtype=np.int32),
    ...               ranks=np.array([1, 1, 1, 2, 1, 2], dtype=np.int8),
    ...               classes=((1, (5,)), (1, (6,)), (2, (1,)), (2, (2,))), rules_digest="example")
    >>> t.strength([2, 3, 4, 5, 6])           # the hand of cards 2..6: colex index 5
    (2, (2,))
    >>> t.value([1, 2, 3, 4, 6]) > t.value([1, 2, 3, 4, 5])
    True
    """
    cards: tuple[int, ...]
    values: np.ndarray
    ranks: np.ndarray
    classes: tuple[tuple[Any, tuple], ...]
    rules_digest: str
    # The places (order, index) of handKey's values, in the key's order, for every hand of each
    # rank: ((rank, ((o, i), ...)), ...); None when two hands of one rank have their values at
    # different places (or one place twice).  What engine.proof needs to read a key place by place.
    places: tuple[tuple[Any, tuple[tuple[Any, Any], ...]], ...] | None = None
    # How many of the hands isHand holds of (None: not asked).  engine.proof's fight proof needs
    # every hand of the deck to be one.
    is_hand: int | None = None

    @property
    def all_hands(self) -> bool:
        """isHand holds of every five cards of the deck."""
        return self.is_hand == len(self.values)

    def __post_init__(self) -> None:
        for array in (self.values, self.ranks):
            array.flags.writeable = False

    def index(self, hand: Sequence[int]) -> int:
        """The colex index of a hand given as card ids."""
        where = {c: i for i, c in enumerate(self.cards)}
        positions = sorted(where[c] for c in hand)
        if len(positions) != 5 or len(set(positions)) != 5:
            raise ValueError("a hand is five different cards of the deck")
        return int(sevens.colex(np.array([positions]))[0])

    def value(self, hand: Sequence[int]) -> int:
        return int(self.values[self.index(hand)])

    def strength(self, hand: Sequence[int]) -> tuple[Any, tuple]:
        """The (rank, key) of a hand, as Engine.strength gives it."""
        return self.classes[self.value(hand)]
