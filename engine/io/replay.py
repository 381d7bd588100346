"""A PHH hand's actions replayed (button games: hold'em, Omaha, draw): what each player put in,
who folded, which cards were dealt and shown; what cannot have happened (an action out of turn, a
card dealt twice, a bet larger than the stack) is refused with a one-line reason.  Stud is replayed
by :mod:`engine.history.stud`, with the helpers of this module.  Who wins what is the rules'
(rules/pots.dl and the showdown rules, asked by :mod:`engine.history`).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation, localcontext
from operator import add as _add
from typing import Any, Callable, Sequence

from engine.io.phhtext import (
    _AMOUNT,
    _CARDS,
    MAX_DIGITS,
    MAX_UNITS,
    STUD,
    UNSUPPORTED,
    VARIANTS,
    HistoryError,
    Played,
    Unsupported,
    _short,
    _text,
)

# ---- replaying -----------------------------------------------------------------------------
#
# The replay counts in integers of the hand's smallest unit (Played.scale), found before the
# first action from every amount the hand names: the documents' numbers are ints (TOML integers)
# or Decimals (decimals, read exact), never binary floats.

_INT = {int}                  # (type(x) is int: a bool is no amount)
_STR = {str}
_UNKNOWN = 10 ** 30           # an unknown stack, in units: more than any hand can put in


def _decimal(value: Any, what: str, signed: bool = False, bad: type[Exception] = HistoryError) -> int | Decimal:
    """A number of the document or an action, exact: an int as it is, else a Decimal.  A text
    (an action's amount) is ASCII digits, a point and an exponent at most (no ``6_0``, no
    full-width digits, which Decimal would read), of at most MAX_DIGITS characters; a decimal's
    exponent is bounded too, so that no arithmetic on it can overflow."""
    what = f"{what}: " if what else ""
    if type(value) is int:
        if value < 0 and not signed:
            raise bad(f"{what}{_short(str(value))!r} is not an amount")
        return value
    if isinstance(value, str):
        if len(value) > MAX_DIGITS:
            raise bad(f"{what}the amount {_short(value)} has more than {MAX_DIGITS} characters")
        if not _AMOUNT.match(value):
            raise bad(f"{what}{_short(value)!r} is not an amount (ASCII digits, a point, an exponent)")
    elif isinstance(value, bool) or not isinstance(value, Decimal):
        raise bad(f"{what}{_short(repr(value))} is not a number")
    try:
        d = Decimal(value)
    except InvalidOperation:
        raise bad(f"{what}{_short(repr(value))} is not a number") from None
    if d.is_nan() or d < 0 and not signed:
        raise bad(f"{what}{_short(str(value))!r} is not an amount")
    if d.is_finite() and d.adjusted() > MAX_DIGITS:
        raise bad(f"{what}the amount {_short(str(value))} is too large")
    if d.is_finite() and _exact_places(d) > MAX_DIGITS:
        raise bad(f"{what}the amount {_short(str(value))} is finer than a millionth")
    return d


def _amounts(doc: dict, key: str, n: int, where: str, signed: bool = False) -> list[int | Decimal] | None:
    value = doc.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != n:
        raise HistoryError(f"{where}: {key} must list one amount a player ({n}), not {_short(repr(value))}")
    if set(map(type, value)) <= _INT and (signed or not value or min(value) >= 0):
        return list(value)                       # the usual case, at once
    for i, v in enumerate(value):
        if isinstance(v, str):                   # a TOML text is not a number
            raise HistoryError(f"{where}: {key}[{i}]: {_short(repr(v))} is not a number")
    return [_decimal(v, f"{where}: {key}[{i}]", signed) for i, v in enumerate(value)]


def _places(x: int | Decimal) -> int:
    """The decimal places an amount is written with (``2.50``: 2)."""
    if type(x) is int or not x.is_finite():
        return 0
    return max(-int(x.as_tuple().exponent), 0)


def _exact_places(x: Decimal) -> int:
    """The decimal places an amount needs (``2.50``: 1), counted exactly: without Decimal's
    arithmetic, which rounds to 28 digits."""
    _, digits, exponent = x.as_tuple()
    if not any(digits):
        return 0
    zeros = len(digits) - len("".join(map(str, digits)).rstrip("0"))
    return max(-(int(exponent) + zeros), 0)


def _in_units(amounts: list[int | Decimal], scale: int, bad: Callable[[str], Exception],
              most: int = MAX_UNITS) -> list[int]:
    """Amounts in the hand's smallest unit; ``bad(message)`` for one finer than that, or past
    ``most`` (what 64-bit sums hold).  Exact: an amount's places are counted, never rounded."""
    if scale == 1 and set(map(type, amounts)) <= _INT and (not amounts or -most <= min(amounts)
                                                           and max(amounts) <= most):
        return list(amounts)                     # whole units within bounds: as they are
    out = []
    for x in amounts:
        if type(x) is int:
            units = x * scale
        else:
            if not x.is_finite() or x.adjusted() > MAX_DIGITS:
                raise bad(f"the amount {_short(str(x))} is too large")
            if _exact_places(x) > len(str(scale)) - 1:
                raise bad(f"the amount {_short(str(x))} is finer than a millionth")
            with localcontext() as exact:
                exact.prec = 2 * MAX_DIGITS + 8          # enough for any bounded amount: no rounding
                units = int(x * scale)
        if units > most or -units > most:
            raise bad(f"the amount {_short(str(x))} is too large")
        out.append(units)
    return out




class _Bad(Exception):
    """What is wrong with one action (replay adds which hand and action)."""


def _cards(text: str) -> tuple[str | None, ...]:
    """PHH cards (``AcKd``, ``????``) as our notation's symbols, None for an unknown card."""
    found = _READ.get(text)
    if found is not None:
        return found
    if len(text) % 2:
        raise _Bad(f"cannot read the cards {text!r}")
    out: list[str | None] = []
    for i in range(0, len(text), 2):
        card = _CARDS.get(text[i:i + 2])
        if card is None:
            raise _Bad(f"cannot read the card {text[i:i + 2]!r} in {text!r}")
        out.append(card or None)
    if len(_READ) >= _READ_MOST:
        _READ.clear()
    found = _READ[text] = tuple(out)
    return found


_OUT_BEFORE = {code: [sum(v.board[:r]) for r in range(v.rounds + 1)]      # board cards out when round r starts
               for code, v in VARIANTS.items()}
_SEATS = {n: {f"p{i + 1}": i for i in range(n)} for n in range(2, 11)}     # "p3" -> 2, at n players
_READ: dict[str, tuple[str | None, ...]] = {}     # cards read (hole cards, boards): a few thousand
_READ_MOST = 100_000
_OPENINGS: dict[tuple, tuple[_Table, int]] = {}   # (variant, stacks, antes, blinds) -> the table, who bets last (replay)
_OPENINGS_MOST = 4096


def _may_show(table: _Table, p: int, n: int, args: Sequence[str]) -> None:
    """Whether player ``p`` may show or muck now (every game's ``sm``): no one is to act, he has
    not folded, and he is not the last player in mucking (a pot is never left to no one)."""
    if table.to_act:
        raise _Bad(f"p{p + 1} shows while p{table.to_act[0] + 1} is to act")
    if p in table.folded:
        raise _Bad(f"p{p + 1} shows after folding")
    if not args and all(q in table.folded or q in table.mucked for q in range(n) if q != p):
        raise _Bad(f"p{p + 1} mucks, the last player in: every other has folded or mucked, "
                   "and a pot is never left to no one")


class _Table:
    """The betting of one hand, action by action (button games: hold'em, Omaha, draw), in units."""

    __slots__ = ("n", "scale", "stack", "put", "ante", "rounds", "bet", "top", "folded", "mucked", "in_hand",
                 "to_act")

    def __init__(self, n: int, stacks: list[int], scale: int):
        self.n = n
        self.scale = scale
        self.stack = list(stacks)
        self.put = [0] * n                   # in all
        self.ante = [0] * n
        self.rounds: list[list[int]] = [[0] * n]   # each betting round's bets
        self.bet = self.rounds[-1]           # this round's
        self.top = 0                         # the largest bet of this round
        self.folded: set[int] = set()
        self.mucked: set[int] = set()
        self.in_hand = n                     # players who have not folded
        self.to_act: list[int] = []          # who must still act this round, in order

    def pay(self, p: int, amount: int, ante: bool = False) -> None:
        amount = min(amount, self.stack[p])
        self.stack[p] -= amount
        self.put[p] += amount
        if ante:
            self.ante[p] += amount
        else:
            self.bet[p] += amount
            if self.bet[p] > self.top:
                self.top = self.bet[p]

    def copy(self) -> "_Table":
        """This table as it is now, its own lists and sets."""
        t = _Table.__new__(_Table)
        t.n, t.scale, t.top, t.in_hand = self.n, self.scale, self.top, self.in_hand
        t.stack, t.put, t.ante, t.to_act = list(self.stack), list(self.put), list(self.ante), list(self.to_act)
        t.rounds = [list(r) for r in self.rounds]
        t.bet = t.rounds[-1]
        t.folded, t.mucked = set(self.folded), set(self.mucked)
        return t

    def can_act(self) -> list[int]:
        return [p for p in range(self.n) if p not in self.folded and self.stack[p] > 0]

    def open_round(self, first: int) -> None:
        """A betting round: everyone who can act, in order from ``first``; none when at most one
        can and nothing is owed to him."""
        n, bet, stack, folded = self.n, self.bet, self.stack, self.folded
        # As pokerkit opens a round (and the PHH standard replays it): a player who can lose
        # nothing more (his stack, or what the second deepest player still in can put in past his
        # bet, is nothing) has no decision in it.
        if folded:
            deep = [bet[p] + stack[p] for p in range(n) if p not in folded]
        else:
            deep = list(map(_add, bet, stack))
        deep.sort()
        second = deep[-2] if len(deep) > 1 else 0
        able = []
        for p in (*range(first, n), *range(first)):
            if stack[p] > 0 and second > bet[p] and p not in folded:
                able.append(p)
        if len(able) < 2 and all(bet[p] >= self.top for p in able):
            self.to_act = []
        else:
            self.to_act = able

    def act(self, p: int, what: str, amount: int | None) -> None:
        to_act = self.to_act
        if not to_act:
            raise _Bad(f"p{p + 1} acts when no betting is open")
        if to_act[0] != p:
            raise _Bad(f"p{p + 1} acts out of turn (p{to_act[0] + 1} is to act)")
        del to_act[0]
        if what == "f":
            self.folded.add(p)
            self.in_hand -= 1
        elif what == "cc":                   # (pay, at once: what a call adds is never past the top)
            bet, stack = self.bet, self.stack
            amount = min(self.top - bet[p], stack[p])
            stack[p] -= amount
            self.put[p] += amount
            bet[p] += amount
        else:
            assert amount is not None
            if amount <= self.top:
                raise _Bad(f"p{p + 1} raises to {_text(amount, self.scale)}, not above the bet of "
                           f"{_text(self.top, self.scale)}")
            if amount - self.bet[p] > self.stack[p]:
                raise _Bad(f"p{p + 1} bets {_text(amount - self.bet[p], self.scale)}, more than the "
                           f"{_text(self.stack[p], self.scale)} in front of him")
            self.pay(p, amount - self.bet[p])
            n, folded, stack = self.n, self.folded, self.stack
            self.to_act = [q for q in (*range(p + 1, n), *range(p)) if q not in folded and stack[q] > 0]
        if self.in_hand == 1:
            self.to_act = []

    def close_round(self) -> None:
        self.rounds.append([0] * self.n)
        self.bet = self.rounds[-1]
        self.top = 0


def _outcome(doc: dict, n: int, where: str) -> tuple[list | None, list | None, list[str]]:
    """A hand's finishing stacks and winnings (as _amounts reads them) and its actions, checked
    to be a list of strings."""
    finishing, winnings = _amounts(doc, "finishing_stacks", n, where), _amounts(doc, "winnings", n, where)
    actions = doc["actions"]
    if not isinstance(actions, list) or not (set(map(type, actions)) <= _STR or all(isinstance(a, str) for a in actions)):
        raise HistoryError(f"{where}: actions must be a list of strings")
    return finishing, winnings, actions


def replay(doc: dict, ident: Any = "hand") -> Played:
    """A hand's actions replayed: stakes, folds, cards; HistoryError (one line) when they cannot
    have happened."""
    where = f"hand {ident}"
    code = doc.get("variant")
    if not isinstance(code, str):
        raise HistoryError(f"{where}: variant must be a text (\"NT\"), not {_short(repr(code))}")
    if code in UNSUPPORTED:
        raise Unsupported(f"{code}: {UNSUPPORTED[code]}")
    if code not in VARIANTS:
        raise Unsupported(f"{_short(code)!r} is not a PHH variant this engine knows "
                          f"({', '.join(sorted({*VARIANTS, *UNSUPPORTED}))})")
    if code in STUD:
        raise HistoryError(f"{where}: {code} is a stud game: engine.stud replays it")
    v = VARIANTS[code]
    stacks_in = doc["starting_stacks"]
    if not isinstance(stacks_in, list) or not 2 <= len(stacks_in) <= 10:
        raise HistoryError(f"{where}: starting_stacks must list 2 to 10 players")
    n = len(stacks_in)
    names = _names(doc, n, where)
    # The table once the forced bets are paid depends on the stacks, antes and blinds alone: kept
    # by them (whole numbers, each of type int: a Decimal equal to one may be a finer unit), and
    # taken for a hand of whole units (every amount it names an int, no amount with a point or an
    # exponent in its actions: the unit is 1) within bounds.  Kept only once a hand made it (the
    # same numbers, read and checked as they were then, give the same table: exact).
    antes_in, blinds_in = doc.get("antes"), doc.get("blinds_or_straddles")
    key: tuple | None = None
    opening = None
    if set(map(type, stacks_in)) <= _INT and (antes_in is None or type(antes_in) is list and set(map(type, antes_in)) <= _INT) \
            and (blinds_in is None or type(blinds_in) is list and set(map(type, blinds_in)) <= _INT):
        key = (code, tuple(stacks_in), antes_in if antes_in is None else tuple(antes_in),
               blinds_in if blinds_in is None else tuple(blinds_in))
        opening = _OPENINGS.get(key)
    if opening is not None:
        finishing, winnings, actions = _outcome(doc, n, where)
        recorded = [*(finishing or ()), *(winnings or ())]
        joined = "\n".join(actions)
        if not (set(map(type, recorded)) <= _INT and (not recorded or -MAX_UNITS <= min(recorded) and max(recorded) <= MAX_UNITS)
                and "." not in joined and "e" not in joined and "E" not in joined):
            opening = None                        # not of whole units: the way below
    if opening is not None:
        scale, units, unknown = 1, list, False
        stacks, start = list(stacks_in), list(stacks_in)
        table, last_big = opening[0].copy(), opening[1]
    else:
        if set(map(type, stacks_in)) <= _INT and min(stacks_in) >= 0:
            stacks: list = list(stacks_in)                  # the usual case, at once
        else:
            for i, s in enumerate(stacks_in):
                if isinstance(s, str):
                    raise HistoryError(f"{where}: starting_stacks[{i}]: {_short(repr(s))} is not a number")
            stacks = [s if type(s) is int and s >= 0 else _decimal(s, f"{where}: starting_stacks[{i}]")
                      for i, s in enumerate(stacks_in)]
            stacks = [None if isinstance(s, Decimal) and s.is_infinite() else s for s in stacks]   # unknown
        antes = _amounts(doc, "antes", n, where) or [0] * n
        # A negative blind is a post (a new player's bet to play at once): paid, but it does not set
        # who opens the betting (as pokerkit reads it).
        blinds = _amounts(doc, "blinds_or_straddles", n, where, signed=True) or [0] * n
        finishing, winnings, actions = _outcome(doc, n, where)
        if n == 2:                                    # heads-up: the forced bets are reversed
            antes, blinds = antes[::-1], blinds[::-1]
        # The unit: the finest of the amounts the hand names (an action's amount that cannot be read
        # is that action's error, below); whole units unless some amount has a point or an exponent.
        numbers = [*antes, *blinds, *(stacks if None not in stacks else [s for s in stacks if s is not None]),
                   *(finishing or ()), *(winnings or ())]
        whole = set(map(type, numbers)) <= _INT
        places = 0 if whole else max(map(_places, numbers), default=0)
        joined = "\n".join(actions)
        if "." in joined or "e" in joined or "E" in joined:
            for raw in actions:
                text = raw.split("#", 1)[0].split()
                if len(text) == 3 and text[1] == "cbr" and not (text[2].isascii() and text[2].isdigit()):
                    if len(text[2]) <= MAX_DIGITS and _AMOUNT.match(text[2]):
                        places = max(places, _places(Decimal(text[2])))
        scale = 10 ** min(places, 6)
        bad = lambda why: HistoryError(f"{where}: {why}")     # noqa: E731

        def units(amounts: list[int | Decimal]) -> list[int]:
            return _in_units(amounts, scale, bad)

        if scale == 1 and whole and (not numbers or -MAX_UNITS <= min(numbers) and max(numbers) <= MAX_UNITS):
            units = list                              # whole units within bounds (_in_units): as they are

        unknown = None in stacks
        if unknown:
            known = iter(units([s for s in stacks if s is not None]))
            start = [_UNKNOWN if s is None else next(known) for s in stacks]
        else:
            start = units(stacks)
        table = _Table(n, start, scale)
        if any(antes):
            for p, x in enumerate(units(antes)):
                if x:
                    table.pay(p, x, ante=True)
        for p, x in enumerate(units(blinds)):
            if x:
                table.pay(p, abs(x))
        forced = [table.bet[p] * ((blinds[p] > 0) - (blinds[p] < 0)) for p in range(n)]    # a post counts against
        last_big = n - 1 - forced[::-1].index(max(forced))            # the last player with the largest blind
        if key is not None and units is list and not unknown:
            if len(_OPENINGS) >= _OPENINGS_MOST:
                _OPENINGS.clear()
            _OPENINGS[key] = (table.copy(), last_big)
    hole: list[list[str | None]] = [[] for _ in range(n)]
    dealt: set[str] = set()
    board: list[str] = []
    shown: list[list[str | None] | None] = [None] * n
    out_before = _OUT_BEFORE[code]
    round_no, draws_done, betting = 0, 0, False
    drawing: list[int] = []

    # The deck runs out in a draw game of many players: then, as pokerkit deals (and the card
    # rooms), the cards set aside (discarded, folded) are shuffled into a new deck and dealt again.
    reserve: set[str] = set()             # known cards set aside since the deck was last made
    left = [v.deck]                       # cards left in the deck at most (burns are not recorded)

    def deal(cards: tuple[str | None, ...], fresh: bool = True) -> None:
        """Cards dealt (``fresh``: from the deck; else a shown card that was dealt face down)."""
        if fresh and reserve and not reserve.isdisjoint(cards):        # (reserve holds no None)
            # a card set aside, dealt again: only once the deck has run out, counting a burn a
            # street (pokerkit burns one before every deal of a street; PHH does not record it)
            if left[0] - (round_no + draws_done + 1) >= len(cards):
                c = next(c for c in cards if c in reserve)
                raise _Bad(f"the card {c} is dealt twice (it was set aside, and the deck had "
                           f"{left[0]} cards left)")
            dealt.difference_update(reserve)
            left[0] += len(reserve)
            reserve.clear()
        for c in cards:
            if c is not None:
                if c in dealt:
                    raise _Bad(f"the card {c} is dealt twice")
                dealt.add(c)
        if fresh:
            left[0] -= len(cards)

    def runout() -> bool:
        """No more betting: every player still in but at most one is all in, nothing owed."""
        return table.in_hand > 1 and not table.to_act and len(table.can_act()) <= 1 \
            and (round_no > 0 or any(table.put))

    seats = _SEATS[n]

    def player(actor: str) -> int:
        p = seats.get(actor)
        if p is None:
            if actor[:1] == "p" and actor[1:].isascii() and actor[1:].isdigit():
                raise _Bad(f"there is no player {_short(actor)}")
            raise _Bad(f"unknown actor {_short(actor)!r}")
        return p

    def over(what: str) -> None:
        """An action after the hand is over: every player but one has folded."""
        if table.in_hand == 1:
            last = next(q for q in range(n) if q not in table.folded)
            raise _Bad(f"{what} after the hand is over (every player but p{last + 1} has folded)")
    for k, raw in enumerate(actions, 1):
        text = (raw.split("#", 1)[0] if "#" in raw else raw).split()
        if not text:                              # only a comment (or nothing): no action
            continue
        try:
            actor, verb, args = text[0], (text[1] if len(text) > 1 else ""), text[2:]
            p = seats.get(actor, -1)
            if p < 0 and actor == "d":
                if verb == "dh" and len(args) == 2:
                    p = seats.get(args[0], -1)
                    if p < 0:
                        p = player(args[0])
                    if table.in_hand == 1:
                        over("a card dealt")
                    cards = _READ.get(args[1]) or _cards(args[1])
                    if reserve:
                        deal(cards)
                    else:                                 # (deal's usual case, at once)
                        for c in cards:
                            if c is not None:
                                if c in dealt:
                                    raise _Bad(f"the card {c} is dealt twice")
                                dealt.add(c)
                        left[0] -= len(cards)
                    hole[p] += cards                      # dealt, or drawn after a discard
                    if len(hole[p]) > v.hole:
                        raise _Bad(f"{args[0]} holds more than {v.hole} cards")
                elif verb == "db" and len(args) == 1:
                    if not v.board:
                        raise _Bad(f"{code} has no board")
                    if table.in_hand == 1:
                        over("the board dealt")
                    cards = _cards(args[0])
                    if None in cards:
                        raise _Bad("a board card is not known")
                    if table.to_act:
                        raise _Bad(f"the board is dealt while p{table.to_act[0] + 1} is to act")
                    allowed = out_before[-1] if runout() else out_before[min(round_no, v.rounds)]
                    if len(board) + len(cards) > allowed:
                        raise _Bad("the board is dealt before the betting of its street is over")
                    deal(cards)
                    board.extend(cards)                   # type: ignore[arg-type]
                else:
                    raise _Bad("cannot read the dealer's action")
                continue
            if p < 0:
                p = player(actor)
            if verb == "cc" or verb == "f" or verb == "cbr":
                if verb == "cbr" and len(args) != 1 or verb != "cbr" and args:
                    raise _Bad("cannot read the action")
                if table.in_hand == 1:
                    over(f"p{p + 1} acts")
                if not betting:
                    if round_no >= v.rounds:
                        raise _Bad(f"p{p + 1} acts after the last betting round: the hand is over")
                    if round_no > 0 and v.board and len(board) < out_before[min(round_no, v.rounds)]:
                        raise _Bad(f"betting before the board's {out_before[min(round_no, v.rounds)]} cards are dealt")
                    if draws_done < min(round_no, v.draws):
                        raise _Bad("betting before the draw")
                    table.open_round((last_big + 1) % n if round_no == 0 else 0)
                    betting = True
                amount = None
                if verb == "cbr":
                    a = args[0]
                    amount = int(a) * scale if a.isascii() and a.isdigit() and len(a) <= MAX_DIGITS else \
                        _in_units([_decimal(a, "", bad=_Bad)], scale, _Bad, _UNKNOWN)[0]  # stack bounds it
                table.act(p, verb, amount)
                if verb == "f":
                    reserve.update(hole[p])                 # the folded cards, set aside
                    reserve.discard(None)
                if not table.to_act:
                    table.close_round()
                    round_no, betting = round_no + 1, False
                    if v.draws and draws_done < v.draws and round_no <= v.draws and table.in_hand > 1:
                        drawing = [q for q in range(n) if q not in table.folded]
            elif verb == "sd":
                over(f"p{p + 1} draws")
                if not drawing and runout() and draws_done < v.draws:
                    drawing = [q for q in range(n) if q not in table.folded]   # all in: the draws go on
                if not drawing:
                    raise _Bad("a draw when no draw is open")
                if drawing[0] != p:
                    raise _Bad(f"p{p + 1} draws out of turn (p{drawing[0] + 1} is to draw)")
                drawing.pop(0)
                if args:
                    for c in _cards(args[0]):
                        if c is not None and c in hole[p]:
                            hole[p].remove(c)
                            reserve.add(c)
                        elif c is None and None in hole[p]:
                            hole[p].remove(None)
                        else:
                            raise _Bad(f"p{p + 1} discards {c or '??'}, which he does not hold")
                if not drawing:
                    draws_done += 1
            elif verb == "sm":
                _may_show(table, p, n, args)
                if not args:
                    table.mucked.add(p)
                elif args[0] == "-":
                    shown[p] = list(hole[p])
                else:
                    cards = _cards(args[0])
                    known = [c for c in hole[p] if c is not None]
                    if any(c is not None and c not in known and c in dealt for c in cards):
                        raise _Bad(f"p{p + 1} shows a card dealt elsewhere")
                    if known and any(c not in cards for c in known):
                        raise _Bad(f"p{p + 1} shows {args[0]}, not the cards he was dealt")
                    deal(tuple(c for c in cards if c is not None and c not in known), fresh=False)
                    shown[p] = cards
            elif verb == "pb":
                raise _Bad(f"a bring-in in {code}, which has none")
            else:
                raise _Bad(f"unknown action {_short(verb)!r}")
        except _Bad as exc:
            raise HistoryError(f"{where}, action {k} ({_short(raw.strip())!r}): {exc}") from None

    folded = sorted(table.folded | table.mucked)
    live = tuple([p for p in range(n) if p not in folded])
    betting_over = round_no >= v.rounds or runout()
    over = len(live) == 1 or (betting_over and not drawing and len(board) == out_before[-1]
                              and (draws_done >= v.draws or round_no >= v.rounds))
    whole_hand = v.hole
    finals = [tuple(cards) if cards and len(cards) == whole_hand and None not in cards else None  # type: ignore[arg-type]
              for cards in (s if s is not None else h for s, h in zip(shown, hole))]
    if max(table.put) > MAX_UNITS:
        raise HistoryError(f"{where}: the amount {_text(max(table.put), scale)} is too large")
    return Played(ident, code, names,
                  scale, tuple(None if s is None else x for s, x in zip(stacks, start)) if unknown else tuple(start),
                  tuple(table.put), tuple(table.ante), tuple([tuple(r) for r in table.rounds if any(r)]),
                  tuple(folded), live, tuple(finals), tuple(board), over,   # type: ignore[arg-type]
                  tuple(units(finishing)) if finishing else None,
                  tuple(units(winnings)) if winnings else None)


def _names(doc: dict, n: int, where: str) -> tuple[str, ...]:
    """The players' names (``players``: one text a player), or p1, p2 …"""
    names = doc.get("players")
    if names is None:
        return tuple(f"p{i + 1}" for i in range(n))
    if not isinstance(names, list) or len(names) != n or \
            not (set(map(type, names)) <= _STR or all(isinstance(x, str) for x in names)):
        raise HistoryError(f"{where}: players must list one name (a text) a player ({n}), "
                           f"not {_short(repr(names))}")
    return tuple(names)
