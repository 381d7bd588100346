"""Notation: text to card ids and back.

The symbols (``A``, ``T``/``10``, ``H``/``♥`` …) and the id of each (value, suit) come from the
loaded rules (``valueSymbol``, ``suitSymbol``, ``cardId`` in rules/cards.dl); this module only
knows the syntax.  A card is a value symbol and a suit symbol in either order: rank first
(``AH``, ``Ah``, ``10h``, ``Th``, ``A♥``) or suit first as in the Doukaku problem (``SA``, ``D10``).
Cards are separated by spaces or commas, or written together (``D3C3C10D10S3``, ``Qs9s3dJd10h``).
A hand may also be a list of such tokens or a list of spec ids (ints).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence, Union

Cards = Union[str, Sequence[Union[str, int]]]
SEPARATORS = re.compile(r"[\s,;]+")
MAX_HAND_TOKENS = 64            # cards: far more than any game plays (a showdown plays at most 10)
MAX_HAND_CHARS = 256            # characters of a hand, or of one card, as written
SHORT = 2 * MAX_HAND_TOKENS - 2 # a hand this short cannot hold more than MAX_HAND_TOKENS cards
EXCERPT = 40                    # characters of a refused hand quoted in its error


MAX_DECK = 1_024      # cards a rule set's deck may hold: past that, its notation and tables are refused at load


def deck_bound(values: Sequence[tuple], suits: Sequence[tuple], where: str) -> None:
    """ValueError (one line) when a deck of these values and suits (symbol rows) could hold more
    than MAX_DECK cards: checked before the cards are asked of the rules, which would take
    minutes for a deck of 100,000."""
    n = len({r[0] for r in values}) * len({r[0] for r in suits})
    if n > MAX_DECK:
        raise ValueError(f"{where}: a deck of {len({r[0] for r in values}):,} values and "
                         f"{len({r[0] for r in suits}):,} suits ({n:,} cards): at most {MAX_DECK:,} cards")


class InvalidCards(ValueError):
    """Text that does not read as cards; the message names the offending token.

    >>> from engine import Engine
    >>> Engine().cards("AH KH QX")
    Traceback (most recent call last):
      ...
    engine.InvalidCards: bad card 'QX': unknown symbol 'X'
    >>> isinstance(InvalidCards("bad card"), ValueError)
    True
    """


InvalidCards.__module__ = "engine"      # its public name (engine.InvalidCards), in tracebacks and reprs


@dataclass(frozen=True)
class Notation:
    """Symbol tables read from a rule set.

    An Engine builds its own from the rules (``Engine().notation``).  A deck of two cards, whose
    ten is written ``T`` or ``10`` and whose one suit ``H`` or ``♥``:

    >>> n = Notation.from_tables(values=[(1, "A", 1), (10, "T", 1), (10, "10", 2)],
    ...                          suits=[(1, "H", 1), (1, "♥", 2)], ids=[(1, 1, 1), (10, 10, 1)])
    >>> n.parse("AH 10h"), n.parse("T♥,HA"), n.parse("AH10H"), n.parse(["AH", 10])
    ([1, 10], [10, 1], [1, 10], [1, 10])
    >>> n.format([10, 1])
    'TH AH'
    >>> n.parse("AH KH")
    Traceback (most recent call last):
      ...
    engine.InvalidCards: bad card 'KH': unknown symbol 'K'
    """
    values: dict[str, int]          # upper-cased symbol -> value
    suits: dict[str, int]           # upper-cased symbol -> suit
    ids: dict[tuple[int, int], int]  # (value, suit) -> card id
    value_symbol: dict[int, str]    # value -> printed symbol
    suit_symbol: dict[int, str]     # suit -> printed symbol
    # Cards written as one symbol, of no value and suit (the joker, JK: cardSymbol in its rules)
    cards: dict[str, int] = field(default_factory=dict)      # upper-cased symbol -> card id
    card_symbol: dict[int, str] = field(default_factory=dict)  # card id -> printed symbol

    @classmethod
    def from_tables(cls, values: Iterable[tuple[int, str, int]], suits: Iterable[tuple[int, str, int]],
                    ids: Iterable[tuple[int, int, int]], cards: Iterable[tuple[int, str, int]] = ()) -> "Notation":
        """Build from rows (value, symbol, order), (suit, symbol, order), (id, value, suit), and
        (id, symbol, order) of the cards written as one symbol.

        >>> joker = Notation.from_tables([(1, "A", 0)], [(1, "H", 0)], [(1, 1, 1)], [(53, "JK", 0)])
        >>> joker.parse("AH JK"), joker.parse("jkAH"), joker.format([53, 1])
        ([1, 53], [53, 1], 'JK AH')
        """
        values, suits = sorted(values, key=lambda r: r[2]), sorted(suits, key=lambda r: r[2])
        ids = list(ids)
        if len(ids) > MAX_DECK:
            raise ValueError(f"a deck of {len(ids):,} cards: at most {MAX_DECK:,}")
        whole = sorted(cards, key=lambda r: r[2])
        value_symbol: dict[int, str] = {}
        suit_symbol: dict[int, str] = {}
        card_symbol: dict[int, str] = {}
        for v, sym, _ in values:
            value_symbol.setdefault(v, sym)
        for s, sym, _ in suits:
            suit_symbol.setdefault(s, sym)
        for c, sym, _ in whole:
            card_symbol.setdefault(c, sym)
        return cls({sym.upper(): v for v, sym, _ in values}, {sym.upper(): s for s, sym, _ in suits},
                   {(v, s): c for c, v, s in ids}, value_symbol, suit_symbol,
                   {sym.upper(): c for c, sym, _ in whole}, card_symbol)

    # ---- reading ---------------------------------------------------------------------------

    def parse(self, cards: Cards) -> list[int]:
        """Card ids of a hand or set, in the order given (duplicates kept: the rules judge them).
        A hand far longer than any game plays is refused (:func:`oversized`), before and after
        it is read."""
        quick = self.quick(cards)
        if quick is not None:
            return list(quick)
        problem = oversized(cards)
        if problem:
            raise InvalidCards(f"{_excerpt(cards)}: {problem}")
        ids = self._parse(cards)
        if len(ids) > MAX_HAND_TOKENS:            # cards written together: AHKHQH…
            raise InvalidCards(f"{_excerpt(cards)}: {oversized(ids)}")
        return ids

    def quick(self, cards: object) -> tuple[int, ...] | None:
        """The common case read fast: a short string of whitespace-separated one-card tokens
        (too short to be oversized); None for anything else, which :meth:`parse` reads."""
        if type(cards) is not str or len(cards) > SHORT:
            return None
        single = self.__dict__.get("_single_tokens") or self._single()
        try:
            return tuple(map(single.__getitem__, cards.split()))
        except KeyError:
            return None

    def _parse(self, cards: Cards) -> list[int]:
        if isinstance(cards, str):
            text = cards.strip()
            parts = SEPARATORS.split(text)
            single = self._single()
            try:
                return [single[part] for part in parts]      # the common case: one card a token
            except KeyError:
                pass                                         # (an error below is not chained to this)
            return [c for part in parts if part for c in self._run(part)]
        if isinstance(cards, (bytes, bytearray)) or not isinstance(cards, Sequence):
            raise InvalidCards(f"cannot read cards from {type(cards).__name__} {cards!r}")
        out: list[int] = []
        for item in cards:
            if isinstance(item, bool) or not isinstance(item, (int, str)):
                raise InvalidCards(f"bad card {item!r}: give a token such as 'AH' or a card id")
            if isinstance(item, int):
                if not -(1 << 63) <= item < (1 << 63):   # what the compiled rules can hold
                    raise InvalidCards(f"bad card id of {item.bit_length()} bits: a card id is a 64-bit integer")
                out.append(item)
            else:
                out.extend(self._run(item.strip(), single=True))
        return out

    def _single(self) -> dict[str, int]:
        """Every token that is one card, as written most often (value then suit, either case)."""
        found = self.__dict__.get("_single_tokens")
        if found is None:
            found = {}
            for (value, suit), card in self.ids.items():
                for v in (s for s, x in self.values.items() if x == value):
                    for u in (s for s, x in self.suits.items() if x == suit):
                        for token in {v + u, (v + u).lower(), v + u.lower(), v.lower() + u}:
                            try:
                                if self._read(token, True) == [card]:
                                    found[token] = card
                            except InvalidCards:
                                pass
            for sym, card in self.cards.items():
                found.setdefault(sym, card)
                found.setdefault(sym.lower(), card)
            object.__setattr__(self, "_single_tokens", found)
        return found

    def _run(self, text: str, single: bool = False) -> list[int]:
        """Read a run of cards written together; ``single`` asks for exactly one card.

        A run read once is remembered (a batch spells the same 52 cards over and over)."""
        known = self.__dict__.get("_known")
        if known is None:
            known = {}
            object.__setattr__(self, "_known", known)
        key = (text, single)
        cards = known.get(key)
        if cards is None:
            cards = self._read(text, single)
            if len(text) <= 3 and len(known) < 4096:
                known[key] = cards
        return list(cards)

    def _read(self, text: str, single: bool) -> list[int]:
        symbols = self._symbols(text)
        cards: list[int] = []
        i = 0
        while i < len(symbols):
            if symbols[i][0] == "card":                 # a card of one symbol (the joker)
                cards.append(symbols[i][1])
                i += 1
                continue
            if i + 1 >= len(symbols):
                raise InvalidCards(f"bad card {symbols[i][2]!r} in {text!r}: a card needs a value and a suit")
            (k1, x1, s1), (k2, x2, s2) = symbols[i], symbols[i + 1]
            if {k1, k2} != {"value", "suit"}:
                if k2 == "card":
                    raise InvalidCards(f"bad card {s1!r} in {text!r}: a card needs a value and a suit")
                raise InvalidCards(f"bad card {s1 + s2!r} in {text!r}: a card is a value and a suit")
            value, suit = (x1, x2) if k1 == "value" else (x2, x1)
            if (value, suit) not in self.ids:
                where = "" if s1 + s2 == text else f" in {text!r}"
                raise InvalidCards(f"bad card {s1 + s2!r}{where}: no such card in the deck")
            cards.append(self.ids[(value, suit)])
            i += 2
        if single and len(cards) != 1:
            raise InvalidCards(f"bad card {text!r}: expected one card")
        return cards

    def _symbols(self, text: str) -> list[tuple[str, int, str]]:
        """Split text into (kind, number, symbol) by longest match on the known symbols."""
        out = []
        i = 0
        pattern = self._pattern()
        while i < len(text):
            m = pattern.match(text, i)
            if not m:
                where = f"bad card {text!r}" if len(text) <= 3 else f"bad card near {text[i:i + 3]!r} in {text!r}"
                raise InvalidCards(f"{where}: unknown symbol {text[i]!r}")
            sym = m.group(0)
            key = sym.upper()
            out.append(("card", self.cards[key], sym) if key in self.cards else
                       ("value", self.values[key], sym) if key in self.values else ("suit", self.suits[key], sym))
            i = m.end()
        if not out:
            raise InvalidCards(f"bad card {text!r}: empty")
        return out

    def _pattern(self) -> "re.Pattern[str]":
        pattern = self.__dict__.get("_compiled")
        if pattern is None:
            symbols = sorted(list(self.cards) + list(self.values) + list(self.suits), key=len, reverse=True)
            pattern = re.compile("|".join(map(re.escape, symbols)), re.IGNORECASE)
            object.__setattr__(self, "_compiled", pattern)
        return pattern

    # ---- writing ---------------------------------------------------------------------------

    def token(self, card: int) -> str:
        """Rank-first token of a card id (``AH``, ``TS``); the id itself when it is no card."""
        found = self._tokens().get(card)
        return found if found is not None else str(card)

    def _tokens(self) -> dict[int, str]:
        """card id -> its token, the first pair of cardId that names it (made once)."""
        found = self.__dict__.get("_token_of")
        if found is None:
            found = {}
            for (value, suit), cid in self.ids.items():
                if value in self.value_symbol and suit in self.suit_symbol:   # else written as its id
                    found.setdefault(cid, self.value_symbol[value] + self.suit_symbol[suit])
            for cid, sym in self.card_symbol.items():
                found.setdefault(cid, sym)
            object.__setattr__(self, "_token_of", found)
        return found

    def format(self, cards: Iterable[int]) -> str:
        tokens = self.__dict__.get("_token_of") or self._tokens()
        try:
            return " ".join(map(tokens.__getitem__, cards))
        except (KeyError, TypeError):
            return " ".join([tokens.get(c) or str(c) for c in cards])


def oversized(cards: object) -> str | None:
    """Why a hand (or a board) as given is far longer than any game plays, else None: more than
    :data:`MAX_HAND_TOKENS` cards or :data:`MAX_HAND_CHARS` characters.  Such a hand is refused
    before the rules see it (8,000 cards ran a fight for a minute, to 6 GB); batches
    (engine.io.fights) and every parse of cards share this check.

    >>> oversized("AH KH QH JH TH") is None, oversized(["AH"] * 65)
    (True, 'too many cards (65; a hand is five cards)')
    """
    if isinstance(cards, str):
        if len(cards) > MAX_HAND_CHARS:
            return f"too long ({len(cards)} characters; a hand is five cards)"
        if len(cards) > 2 * MAX_HAND_TOKENS - 2:     # room for more tokens than allowed
            tokens = sum(1 for t in SEPARATORS.split(cards) if t)
            if tokens > MAX_HAND_TOKENS:
                return f"too many cards ({tokens}; a hand is five cards)"
    elif isinstance(cards, (list, tuple)) or (isinstance(cards, Sequence)
                                              and not isinstance(cards, (bytes, bytearray))):
        if len(cards) > MAX_HAND_TOKENS:
            return f"too many cards ({len(cards)}; a hand is five cards)"
        for card in cards:
            if isinstance(card, str) and len(card) > MAX_HAND_CHARS:
                return f"a card of {len(card)} characters"
    return None


def _excerpt(cards: Cards) -> str:
    """The start of a hand as given, quoted, for an error message."""
    text = cards if isinstance(cards, str) else " ".join(map(str, cards))
    return repr(text if len(text) <= EXCERPT else text[:EXCERPT] + "…")


def show(cards: Cards) -> str:
    """Cards as the user gave them, for messages."""
    return cards if isinstance(cards, str) else " ".join(map(str, cards))
