"""Hand ranges: the hole cards a player may hold, as players write them (``QQ+,AKs,T9s-65s``).

A range is a comma-separated list of items, each weighted equally, every hand once:

* exact cards (``AhKh``, ``Ah Kh``; four in Omaha), as the notation reads them;
* ``random``: every hand of the game's number of hole cards;
* a pair ``QQ``, the pairs from it up ``QQ+``, a run of pairs ``22-55``;
* two values, suited ``AKs`` (same suit), offsuit ``AKo``, or both ``AK``; the second value from
  it up to just below the first ``ATs+``; a run with the first value fixed ``A2s-A5s``, or both
  values stepping together ``T9s-65s``.

Which value is higher, and so what ``+`` climbs and ``-`` steps along, is the rules'
``rangeOrder`` (rules/cards.dl): the ace above the king.  The shorthands name two hole cards;
Omaha takes exact cards or ``random``.  A bad item is one line quoting it (InvalidCards).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Iterable

from engine import interface as I
from engine.interface import EngineView
from engine.poker.notation import Cards, InvalidCards

MAX_RANGE_CHARS = 4096          # a range longer than any written by hand is refused, not read
RANDOM = "random"
SHAPES = "QQ, QQ+, 22-55, AKs, AKo, AK, ATs+, A2s-A5s, T9s-65s"


@dataclass(frozen=True)
class Range:
    """A player's possible hole cards: ``combos``, each a tuple of card ids (ascending, but for
    one hand of exact cards, kept as written), each once, as ``text`` wrote them.

    >>> from engine import Engine
    >>> e = Engine()
    >>> r = read_range(e, "QQ+,AKs")
    >>> len(r), r.text
    (22, 'QQ+,AKs')
    >>> [e.notation.format(c) for c in read_range(e, "AKs").combos]
    ['AH KH', 'AD KD', 'AC KC', 'AS KS']
    >>> len(read_range(e, "random")), len(read_range(e, "T9s-65s")), len(read_range(e, "A2-A5"))
    (1326, 20, 64)
    >>> read_range(e, "AhKh").exact
    True
    """
    text: str
    combos: tuple[tuple[int, ...], ...]

    def __len__(self) -> int:
        return len(self.combos)

    @property
    def exact(self) -> bool:
        """One hand: the player's cards are known."""
        return len(self.combos) == 1

    def without(self, cards: Iterable[int]) -> "Range":
        """The hands that hold none of these cards (those on the board, or dead)."""
        gone = set(cards)
        return Range(self.text, tuple(c for c in self.combos if gone.isdisjoint(c)))


def read_range(engine: EngineView, text: Cards, size: int = 2, game: str = "holdem") -> Range:
    """The range a player's text names (``size`` hole cards a hand).  Text that reads as exactly
    ``size`` cards is those cards, whatever separates them (``Ah Kh``, ``Ah,Kh``: one hand);
    otherwise it is read item by item (module docstring).

    >>> from engine import Engine
    >>> read_range(Engine(), "AKx")
    Traceback (most recent call last):
      ...
    engine.InvalidCards: range 'AKx': 'AKx' is not 2 cards, random, or a range such as QQ, QQ+, 22-55, AKs, AKo, AK, ATs+, A2s-A5s, T9s-65s
    """
    if not isinstance(text, str):
        cards = engine.cards(text)
        _combo(cards, size, game)
        return Range(engine.notation.format(cards), (tuple(cards),))
    if len(text) > MAX_RANGE_CHARS:
        raise InvalidCards(f"a range of {len(text):,} characters: at most {MAX_RANGE_CHARS:,}")
    try:
        cards = engine.cards(text)
    except InvalidCards:
        cards = None
    if cards is not None and len(cards) == size:
        try:
            _combo(cards, size, game)
        except InvalidCards as exc:
            raise InvalidCards(f"{_shown(text)}: {exc}") from None
        return Range(text, (tuple(cards),))          # as written: the order a player's cards are shown in
    items = [item.strip() for item in text.split(",")]
    if not any(items):
        raise InvalidCards("an empty range: give cards, random, or a range such as QQ+,AKs")
    reader = _Reader(engine, size, game)
    found: dict[tuple[int, ...], None] = {}
    for item in dict.fromkeys(items):                 # an item written twice is read once
        if not item:
            raise InvalidCards(f"range {_shown(text)}: an empty item between commas")
        try:
            for combo in reader.item(item):
                found.setdefault(combo, None)
        except InvalidCards as exc:
            why = str(exc)
            if len(items) == 1 and why.startswith(f"{_shown(item)}: "):     # the range is this item
                why = why[len(_shown(item)) + 2:]
            raise InvalidCards(f"range {_shown(text)}: {why}") from None
    return Range(text, tuple(sorted(found)))


def _shown(text: str, most: int = 60) -> str:
    """A range or an item as a message shows it: quoted, at most ``most`` characters of it."""
    return repr(text) if len(text) <= most else repr(text[:most]) + f"… ({len(text):,} characters)"


def _combo(cards: list[int], size: int, game: str) -> tuple[int, ...]:
    if len(cards) != size:
        raise InvalidCards(f"{game} deals {size} hole cards, not {len(cards)}")
    if len(set(cards)) != size:
        raise InvalidCards("a card is given twice in one hand")
    return tuple(sorted(cards))


class _Reader:
    """Reads one item of a range against the rules' deck, symbols and rangeOrder."""

    def __init__(self, engine: EngineView, size: int, game: str) -> None:
        self.engine, self.size, self.game = engine, size, game
        self.deck = engine.deck
        ranks = engine.static(I.RANGE_ORDER, 2) if any(
            c.head == I.RANGE_ORDER for c in engine.ruleset.clauses) else []
        self.order = {v: o for v, o in ranks}
        self.by_value: dict[int, list[int]] = {}
        for (value, suit), card in sorted(engine.notation.ids.items()):
            if card in self.deck:
                self.by_value.setdefault(value, []).append(card)
        self.suit = {card: suit for (_, suit), card in engine.notation.ids.items()}
        symbols = sorted(engine.notation.values, key=len, reverse=True)
        value = "|".join(map(re.escape, symbols)) or "(?!)"
        one = rf"({value})({value})([SO]?)"
        self.plus = re.compile(rf"{one}(\+?)", re.IGNORECASE)
        self.span = re.compile(rf"{one}-{one}", re.IGNORECASE)

    def item(self, item: str) -> list[tuple[int, ...]]:
        if item.lower() == RANDOM:
            return [tuple(c) for c in itertools.combinations(self.deck, self.size)]
        plus, span = self.plus.fullmatch(item), self.span.fullmatch(item)
        if plus is None and span is None:
            try:
                cards = self.engine.cards(item)
            except InvalidCards:
                raise InvalidCards(f"{_shown(item)} is not {self.size} cards, random, or a range such as "
                                   f"{SHAPES}") from None
            try:
                return [_combo(cards, self.size, self.game)]
            except InvalidCards as exc:
                raise InvalidCards(f"{_shown(item)}: {exc}") from None
        if self.size != 2:
            raise InvalidCards(f"{_shown(item)}: a range such as {SHAPES} names two hole cards; "
                               f"{self.game} deals {self.size} (give the cards, or random)")
        if not self.order:
            raise InvalidCards(f"{_shown(item)}: these rules give no rangeOrder, so no range can be read; "
                               f"give the cards, or random")
        if plus is not None:
            high, low = self._pair_of(plus.group(1), plus.group(2), item)
            kind, up = plus.group(3).lower(), plus.group(4)
            if not up:
                return self._hands(high, low, kind, item)
            if high == low:                      # QQ+: the pairs from it up
                return [h for v in self._values_from(high) for h in self._hands(v, v, kind, item)]
            return [h for v in self._values_from(low) if self.order[v] < self.order[high]
                    for h in self._hands(high, v, kind, item)]
        assert span is not None
        a, b = self._pair_of(span.group(1), span.group(2), item)
        c, d = self._pair_of(span.group(4), span.group(5), item)
        kind = span.group(3).lower()
        if kind != span.group(6).lower():
            raise InvalidCards(f"{_shown(item)}: both ends of a run are suited, offsuit, or neither")
        (a, b), (c, d) = sorted([(a, b), (c, d)], key=lambda p: (self.order[p[0]], self.order[p[1]]))
        o = self.order
        if a == b and c == d:                    # 22-55
            steps = [(v, v) for v in self._values_from(a) if o[v] <= o[c]]
        elif a == c and b != a and d != c:       # A2s-A5s
            steps = [(a, v) for v in self._values_from(b) if o[v] <= o[d]]
        elif a != b and c != d and o[a] - o[b] == o[c] - o[d]:   # T9s-65s
            gap = o[a] - o[b]
            steps = [(v, w) for v in self._values_from(a) if o[v] <= o[c]
                     for w in self.by_value if o[w] == o[v] - gap]
        else:
            raise InvalidCards(f"{_shown(item)}: a run keeps the first value (A2s-A5s), keeps the gap "
                               f"(T9s-65s), or is of pairs (22-55)")
        return [h for high, low in steps for h in self._hands(high, low, kind, item)]

    def _pair_of(self, x: str, y: str, item: str) -> tuple[int, int]:
        """The two values of an item, the higher first."""
        values = self.engine.notation.values
        a, b = values[x.upper()], values[y.upper()]
        for v in (a, b):
            if v not in self.order or v not in self.by_value:
                raise InvalidCards(f"{_shown(item)}: the value {x if v == a else y!r} is not in these rules' deck")
        return (a, b) if self.order[a] >= self.order[b] else (b, a)

    def _values_from(self, value: int) -> list[int]:
        """The deck's values from this one up, in rangeOrder."""
        return sorted((v for v in self.by_value if v in self.order and self.order[v] >= self.order[value]),
                      key=self.order.__getitem__)

    def _hands(self, high: int, low: int, kind: str, item: str) -> list[tuple[int, ...]]:
        """The hands of one value and another (the same: a pair), suited, offsuit or both."""
        if high == low:
            if kind:
                raise InvalidCards(f"{_shown(item)}: a pair is neither suited nor offsuit")
            return [tuple(sorted(p)) for p in itertools.combinations(self.by_value[high], 2)]
        out = []
        for x in self.by_value[high]:
            for y in self.by_value[low]:
                suited = self.suit[x] == self.suit[y]
                if kind == "" or (kind == "s") == suited:
                    out.append(tuple(sorted((x, y))))
        return out
