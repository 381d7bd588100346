"""Hand histories in the PHH standard (phh-std): read them, replay their actions, check them.

A PHH file is TOML: the variant, the forced bets, the starting stacks and the actions
(``d dh p1 AcAd``, ``p2 cbr 100``, ``p1 cc``, ``p1 f``, ``d db AhKhQh``, ``p1 sm AcAd`` …); a
``.phhs`` file holds many, each under a ``[n]`` header.  This module is the input format only:
it reads the text, replays the actions to learn what each player put in, who folded, which
cards were dealt and shown, and refuses what cannot have happened (an action out of turn, a card
dealt twice, a bet larger than the stack) with a one-line reason.  Who wins what is the rules'
(rules/pots.dl and the showdown rules, asked by :mod:`engine.history`).

Amounts are read as decimals (never binary floats) and given to the rules as integers in the
hand's smallest unit (:attr:`Played.scale`: 100 for cents).

>>> hand = replay(parse_hand('''
... variant = "NT"
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 100]
... actions = ["d dh p1 AsAd", "d dh p2 KcKd", "p2 cbr 6", "p1 cc", "d db 2c3d4h", "p1 cc", "p2 cc",
...            "d db 9s", "p1 cc", "p2 cc", "d db Jc", "p1 cc", "p2 cc", "p2 sm KcKd", "p1 sm AsAd"]
... '''))
>>> hand.stakes, hand.live, hand.board, hand.hole, hand.over
((6, 6), (0, 1), ('2C', '3D', '4H', '9S', 'JC'), (('AS', 'AD'), ('KC', 'KD')), True)
"""

from __future__ import annotations

import datetime
import itertools
import re
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation, localcontext
from typing import IO, Any, Callable, Iterator, Sequence

MAX_UNITS = 10 ** 15          # amounts past this (in the smallest unit) are refused: 64-bit sums
MAX_DIGITS = 40               # an amount's characters, a decimal's digits and exponent: bounded
_AMOUNT = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z")    # an action's amount (ASCII)


class HistoryError(ValueError):
    """A hand history that cannot be read or replayed; the message is one line."""


@dataclass(frozen=True)
class Variant:
    """How a PHH variant maps onto a rule set: its game (a board game of rules/showdown.dl) or
    None (a draw game: the final hands are fought), its hole cards, betting rounds, draws."""
    rules: str
    game: str | None
    hole: int
    rounds: int
    board: tuple[int, ...] = ()       # cards dealt to the board before rounds 2, 3, … (flop, turn, river)
    draws: int = 0                    # draw rounds (before rounds 2 .. draws + 1)
    deck: int = 52                    # the cards of its deck


VARIANTS: dict[str, Variant] = {
    "NT": Variant("standard", "holdem", 2, 4, (3, 1, 1)),
    "FT": Variant("standard", "holdem", 2, 4, (3, 1, 1)),
    "NS": Variant("short-deck", "holdem", 2, 4, (3, 1, 1), deck=36),
    "PO": Variant("standard", "omaha", 4, 4, (3, 1, 1)),
    "FO/8": Variant("standard", "omaha-hilo", 4, 4, (3, 1, 1)),
    "N2L1D": Variant("deuce-to-seven", None, 5, 2, draws=1),
    "F2L3D": Variant("deuce-to-seven", None, 5, 4, draws=3),
    "FB": Variant("badugi", None, 4, 4, draws=3),
    # Stud: seven cards each, no board, five rounds; replayed by engine.stud (who opens: the rules).
    "F7S": Variant("standard", "stud", 7, 5),
    "F7S/8": Variant("standard", "stud-hilo", 7, 5),
    "FR": Variant("ace-to-five", "razz", 7, 5),
}
# Variants of the standard whose games the rules do not have yet: reported per hand.
UNSUPPORTED: dict[str, str] = {}
STUD = ("F7S", "F7S/8", "FR")     # replayed by engine.stud.replay, not here
REQUIRED = ("variant", "antes", "starting_stacks", "actions")
# PHH's cards ("Ac") -> our notation's symbols ("AC"); "" for an unknown card ("??")
_CARDS = {v + s: (v + s).upper() for v in "23456789TJQKA" for s in "cdhs"} | {"??": ""}


@dataclass
class Played:
    """A hand replayed: what the rules need to pay it out, and what the record says."""
    ident: Any
    variant: str
    names: tuple[str, ...]
    scale: int                            # amounts are integers of 1/scale
    starting: tuple[int | None, ...]      # None: an unknown (infinite) stack
    stakes: tuple[int, ...]               # what each player put in, in all
    antes: tuple[int, ...]
    bets: tuple[tuple[int, ...], ...]     # each betting round's bets, a player each
    folded: tuple[int, ...]               # 0-based: folded or mucked
    live: tuple[int, ...]                 # 0-based: still in at the end
    hole: tuple[tuple[str, ...] | None, ...]  # each player's final own cards (None: not known)
    board: tuple[str, ...]
    over: bool                            # the record reaches the end of the hand
    finishing: tuple[int, ...] | None = None
    winnings: tuple[int, ...] | None = None
    notes: list[str] = field(default_factory=list)

    def amount(self, units: int) -> str:
        """An amount as an exact decimal string.

        >>> Played(1, "NT", (), 100, (), (), (), (), (), (), (), (), False).amount(250)
        '2.5'
        """
        return _text(units, self.scale)


# ---- reading -------------------------------------------------------------------------------


def parse_hand(text: str, where: str = "hand") -> dict:
    """One hand's TOML (a .phh file, or a section of a .phhs), decimals kept exact."""
    try:
        doc = _quick(text)
    except ValueError:                          # an integer past Python's 4,300 digits
        doc = None
    if doc is None:
        try:
            doc = tomllib.loads(text, parse_float=Decimal)
        except tomllib.TOMLDecodeError as exc:
            raise HistoryError(f"{where}: not TOML: {exc}") from None
        except ValueError:                      # tomllib reads integers with int(): bounded
            raise HistoryError(f"{where}: a number of thousands of digits, too long to read") from None
    missing = [k for k in REQUIRED if k not in doc]
    if missing:
        raise HistoryError(f"{where}: not a PHH hand: no {', '.join(missing)}")
    return doc


# The TOML a hand history is written in, read fast: ``key = value`` lines whose values are strings
# without escapes, integers, decimals, booleans, local times and flat arrays of them (every field
# of the PHH standard).  Anything else (a table, an escape, an exponent, inf …) returns None and
# the text goes to tomllib, the reference: a test holds the two to the same documents.
_KEY = re.compile(r"[ \t]*([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=[ \t]*")
_VALUE = re.compile(r'"([^"\\\x00-\x08\x0a-\x1f\x7f]*)"|\'([^\'\x00-\x08\x0a-\x1f\x7f]*)\''
                    r'|([+-]?(?:0|[1-9][0-9]*))(\.[0-9]+)?(?![\w.:+-])'
                    r"|(true|false)(?![\w.])|((?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9])(?![\w.:])")
_GAP = re.compile(r"(?:[ \t]|\r?\n|#[^\x00-\x08\x0a-\x1f\x7f]*)*")
# Two arrays read whole (most of a hand history, by _LINE): of plain strings (the actions), of integers.
_STRINGS = re.compile(r'\[(?:(?:[ \t]|\r?\n)*"[^"\\\x00-\x08\x0a-\x1f\x7f]*"(?:[ \t]|\r?\n)*,)*(?:[ \t]|\r?\n)*'
                      r'(?:"[^"\\\x00-\x08\x0a-\x1f\x7f]*"(?:[ \t]|\r?\n)*)?\]')
_STRING = re.compile(r'"([^"]*)"')
_INTS = re.compile(r"\[(?:[ \t]*[+-]?(?:0|[1-9][0-9]*)[ \t]*,)*[ \t]*(?:[+-]?(?:0|[1-9][0-9]*)[ \t]*)?\]")
_END = re.compile(r"[ \t]*(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?(?:\r?\n|$)")
# A whole ``key = value`` line of the kinds above (arrays of integers or plain strings, a plain
# string, a whole number) in one match: most lines of a hand history.
_LINE = re.compile(_GAP.pattern + r"([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=[ \t]*(?:(" + _INTS.pattern + r")|("
                   + _STRINGS.pattern + r')|"([^"\\\x00-\x08\x0a-\x1f\x7f]*)"|((?:0|[1-9][0-9]*)(?![\w.:+-])))'
                   + _END.pattern)


def _quick(text: str) -> dict | None:
    out: dict[str, Any] = {}
    pos, n = 0, len(text)
    while True:
        line = _LINE.match(text, pos)
        if line is not None:
            key, ints, strings, string, number = line.groups()
            if key in out:
                return None
            if ints is not None:
                parts = ints[1:-1].split(",")
                if parts[-1].isspace() or not parts[-1]:          # [] or a trailing comma
                    parts.pop()
                out[key] = list(map(int, parts))
            elif strings is not None:
                out[key] = _STRING.findall(strings)
            else:
                out[key] = string if string is not None else int(number)
            pos = line.end()
            continue
        pos = _GAP.match(text, pos).end()
        if pos >= n:
            return out
        m = _KEY.match(text, pos)
        if m is None or m.group(1) in out:
            return None
        key, pos = m.group(1), m.end()
        if text.startswith("[", pos):
            items: list[Any] = []
            pos += 1
            while True:
                pos = _GAP.match(text, pos).end()
                if text.startswith("]", pos):
                    pos += 1
                    break
                v = _VALUE.match(text, pos)
                if v is None:
                    return None
                items.append(_scalar(v))
                pos = _GAP.match(text, v.end()).end()
                if text.startswith(",", pos):
                    pos += 1
                elif not text.startswith("]", pos):
                    return None
            value: Any = items
        else:
            v = _VALUE.match(text, pos)
            if v is None:
                return None
            value, pos = _scalar(v), v.end()
        end = _END.match(text, pos)
        if end is None:
            return None
        out[key], pos = value, end.end()


def _scalar(m: re.Match) -> Any:
    s1, s2, whole, frac, flag, clock = m.groups()
    if s1 is not None or s2 is not None:
        return s1 if s1 is not None else s2
    if whole is not None:
        return Decimal(whole + frac) if frac else int(whole)
    if flag is not None:
        return flag == "true"
    return datetime.time.fromisoformat(clock)


def read_sections(source: str | IO[str], name: str = "input") -> Iterator[tuple[Any, str | dict | HistoryError]]:
    """The hands of a .phh or .phhs text, in order, as (id, its TOML text), unparsed: a bulk
    file's sections are read one at a time, so memory stays bounded, and split where TOML
    splits them (_Splitter: a ``[99]`` line inside a string or an array is no header; ``[1.x]``
    is a table of hand 1; a section defined twice is that section's error).  A single hand (no
    ``[section]``) is parsed at once and given as its document, so that a text that is no PHH at
    all raises HistoryError (one line) before anything is judged; so does text before a bulk
    file's first section."""
    lines = iter(source.splitlines(keepends=True) if isinstance(source, str) else source)
    split = _Splitter()
    head: list[str] = []
    keys = None
    for line in lines:                        # up to the first section header, if any
        keys = split.header(line, head)
        if keys:
            break
        head.append(line)
    if not keys:                              # a single hand
        text = "".join(head)
        if not text.strip():
            raise HistoryError(f"{name}: empty: no hand history in it")
        try:
            doc = parse_hand(text, name)
        except HistoryError as exc:
            raise HistoryError(f"{name}: not a PHH hand history ({str(exc).split(': ', 1)[-1]})") from None
        yield doc.get("hand", 1), doc
        return
    if "".join(head).strip() and not all(ln.strip().startswith("#") or not ln.strip() for ln in head):
        raise HistoryError(f"{name}: not a PHH file: text before the first [section]")
    section, body = keys[0], [_subtable(keys)]
    seen: set[str] = set()
    rest: Iterator[str] | None = lines
    while rest is not None:
        for line in rest:
            if "[" not in line or line[:1] != "[" and line.lstrip(" \t")[:1] != "[":
                body.append(line)                    # (most lines, at once)
                continue
            keys = split.header(line, body)
            if keys is None and split.depth and split.closing is None and _HEADER.match(line):
                # a header inside an array left open: a header (that hand's array is its error)
                # unless the array goes on after it (an array of arrays, as TOML reads it)
                after = _meaningful(lines)
                if not _ARRAY_GOES_ON.match(after[-1] if after else ""):
                    split.depth, split.mark = 0, 0
                    keys = split.header(line, [])
                rest = itertools.chain(after, lines)         # the lines looked at, read next
            if not keys or len(keys) > 1 and (keys[0] == section or keys[0] in seen):
                body.append(_subtable(keys) if keys and keys[0] == section else line)    # a table of this hand
            else:
                yield _section(section, body, seen, name, split)
                section, body = keys[0], [_subtable(keys)]
            if rest is not lines:
                lines = rest
                break
        else:
            rest = None
    yield _section(section, body, seen, name, split)


def _meaningful(lines: Iterator[str], most: int = 100) -> list[str]:
    """The next lines up to the first that is no comment and not blank (at most ``most``)."""
    out: list[str] = []
    for line in lines:
        out.append(line)
        s = line.strip()
        if s and not s.startswith("#") or len(out) >= most:
            break
    return out


# What goes on an array: a value, a comma, its end.
_ARRAY_GOES_ON = re.compile(r"""[ \t]*(?:[\]\[,"'{+.0-9-]|true|false|inf|nan)""")


def _subtable(keys: tuple[str, ...]) -> str:
    """A hand's own table (``[1.x]`` in hand 1) as its TOML reads it: ``[x]``; its header: nothing."""
    return "[" + ".".join(f'"{k}"' for k in keys[1:]) + "]\n" if len(keys) > 1 else ""


def _section(section: str, body: list[str], seen: set[str], name: str,
             split: "_Splitter") -> tuple[Any, str | HistoryError]:
    ident = _ident(section)
    if section in seen:
        return ident, HistoryError(f"{name} [{_short(section)}]: the section is defined twice "
                                   "(TOML refuses a table defined twice)")
    seen.add(section)
    joined = split.joined
    if joined is not None and joined[0] is body and joined[1] == len(body):
        return ident, joined[2]                     # joined once already, to follow its lines
    return ident, "".join(body)


# A table header's keys: bare, "basic" or 'literal', joined by dots.
_KEYS = r"""[A-Za-z0-9_-]+|"[^"\\\n]*"|'[^'\n]*'"""
_HEADER = re.compile(r"[ \t]*\[[ \t]*((?:" + _KEYS + r")(?:[ \t]*\.[ \t]*(?:" + _KEYS + r"))*)"
                     r"[ \t]*\][ \t]*(?:#.*)?\r?$")
_HEADER_KEY = re.compile(_KEYS)
# A line's strings (one line each: no triple quote in it), set aside before its brackets are counted.
_ONE_LINE = re.compile(r"""'[^'\n]*'|"[^"\\\n]*(?:\\.[^"\\\n]*)*\"""")
_COMMENT = re.compile(r"#[^\n]*")
_TOKEN = re.compile(r'''"""|\'\'\'|"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[#\[\]]''')
_CLOSE = {'"""': re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""'), "'''": re.compile(r"(?s).*?'''")}


class _Splitter:
    """Where a bulk file's hands start, as TOML reads it: a table header is a line ``[keys]``
    outside any string and any array.  The lines of a hand are followed only when a line that
    looks like a header comes (once a hand, in one pass of a regular expression); a text with a
    triple quote is read token by token."""

    def __init__(self) -> None:
        self.depth = 0                   # arrays open
        self.closing: str | None = None  # the quotes that close the multi-line string open
        self.mark = 0                    # the lines of the hand before this one are followed
        self.joined: tuple[list[str], int, str] | None = None

    def header(self, line: str, body: list[str]) -> tuple[str, ...] | None:
        """The keys of the table header ``line`` is, or None; ``body``: the lines before it
        since the last header."""
        m = _HEADER.match(line)
        if m is None:
            return None
        text = "".join(body[self.mark:])
        self.joined = (body, len(body), text) if self.mark == 0 else None   # the hand's text, for _section
        self.follow(text)
        self.mark = len(body)
        if self.depth or self.closing is not None:
            return None                              # a line of a value
        self.mark = 0
        return tuple(k[1:-1] if k[:1] in "\"'" else k for k in _HEADER_KEY.findall(m.group(1)))

    def follow(self, text: str) -> None:
        """Lines of values: the arrays and the multi-line string they leave open."""
        if self.closing is None and '"""' not in text and "'''" not in text:
            opens = text.count("[")
            if "#" not in text and opens == text.count("= [") and opens == text.count("]\n") + text.endswith("]") \
                    and opens == text.count("]"):
                return      # every bracket opens a value (``= [``) or ends a line: none in a string, none open
            n = len(text)
            opens, shuts = text.find("["), text.find("]")
            while opens >= 0 or shuts >= 0:         # the lines with a bracket, one by one
                at = opens if shuts < 0 or 0 <= opens < shuts else shuts
                pos = text.find("\n", at) + 1 or n
                if 0 <= opens < pos:
                    opens = text.find("[", pos)
                if 0 <= shuts < pos:
                    shuts = text.find("]", pos)
                line = text[text.rfind("\n", 0, at) + 1:pos]
                if '"' in line or "'" in line or "#" in line:      # brackets in a string are no arrays
                    line = _COMMENT.sub("", _ONE_LINE.sub("", line))
                self.depth = max(self.depth + line.count("[") - line.count("]"), 0)
            return
        pos = 0
        while pos < len(text):
            if self.closing is not None:
                m = _CLOSE[self.closing].match(text, pos)
                if m is None:
                    return                          # the string goes on
                self.closing, pos = None, m.end()
                continue
            m = _TOKEN.search(text, pos)
            if m is None:
                return
            token, pos = m.group(), m.end()
            if token == "#":
                pos = text.find("\n", pos) + 1 or len(text)
            elif token in ('"""', "'''"):
                self.closing = token
            elif token == "[":
                self.depth += 1
            elif token == "]":
                self.depth = max(self.depth - 1, 0)


def read_histories(source: str | IO[str], name: str = "input") -> Iterator[tuple[Any, dict | HistoryError]]:
    """The hands of a .phh or .phhs text, in order, as (id, document, or the error of that hand)."""
    for ident, item in read_sections(source, name):
        try:
            yield ident, item if isinstance(item, (dict, HistoryError)) else parse_hand(item, f"{name} [{ident}]")
        except HistoryError as exc:
            yield ident, exc


def _ident(section: str) -> Any:
    """A section's id: a number when it is one of at most 18 ASCII digits, else its text."""
    return int(section) if section.isascii() and section.isdigit() and len(section) <= 18 else section


def looks_like_phh(head: str) -> bool:
    """Whether a text's start reads as PHH (stdin is told apart from our fight files by content):
    its first line that is no comment is a table header or a TOML ``key = value``."""
    for line in head.splitlines():
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        return bool(_HEADER.match(s)) or bool(re.match(r"[A-Za-z0-9_-]+[ \t]*=[ \t]*[^\s=]", s))
    return False


# ---- replaying -----------------------------------------------------------------------------
#
# The replay counts in integers of the hand's smallest unit (Played.scale), found before the
# first action from every amount the hand names: the documents' numbers are ints (TOML integers)
# or Decimals (decimals, read exact), never binary floats.

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
    if all(type(v) is int and (signed or v >= 0) for v in value):
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


def _short(text: str, most: int = 40) -> str:
    """A value of the input as echoed in a message: at most ``most`` characters."""
    return text if len(text) <= most else text[:most] + f"… ({len(text):,} characters)"


def _text(units: int, scale: int) -> str:
    """Units as an exact decimal string (``_text(250, 100)``: ``'2.5'``)."""
    if scale == 1:
        return str(units)
    whole, part = divmod(abs(units), scale)
    sign = "-" if units < 0 else ""
    if not part:
        return f"{sign}{whole}"
    digits = str(part).rjust(len(str(scale)) - 1, "0").rstrip("0")
    return f"{sign}{whole}.{digits}"


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

    def can_act(self) -> list[int]:
        return [p for p in range(self.n) if p not in self.folded and self.stack[p] > 0]

    def open_round(self, first: int) -> None:
        """A betting round: everyone who can act, in order from ``first``; none when at most one
        can and nothing is owed to him."""
        can = set(self.can_act())
        # As pokerkit opens a round (and the PHH standard replays it): a player who can lose
        # nothing more (his stack, or what the second deepest player still in can put in past his
        # bet, is nothing) has no decision in it.
        deep = sorted(self.bet[p] + self.stack[p] for p in range(self.n) if p not in self.folded)
        second = deep[-2] if len(deep) > 1 else 0
        can = {p for p in can if second - self.bet[p] > 0}
        able = [p for p in ((first + i) % self.n for i in range(self.n)) if p in can]
        if len(able) < 2 and all(self.bet[p] >= self.top for p in able):
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
        elif what == "cc":
            self.pay(p, self.top - self.bet[p])
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
            self.to_act = [q for q in ((p + i) % n for i in range(1, n)) if q not in folded and stack[q] > 0]
        if self.in_hand == 1:
            self.to_act = []

    def close_round(self) -> None:
        self.rounds.append([0] * self.n)
        self.bet = self.rounds[-1]
        self.top = 0


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
    finishing, winnings = _amounts(doc, "finishing_stacks", n, where), _amounts(doc, "winnings", n, where)
    actions = doc["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HistoryError(f"{where}: actions must be a list of strings")
    if n == 2:                                    # heads-up: the forced bets are reversed
        antes, blinds = antes[::-1], blinds[::-1]
    # The unit: the finest of the amounts the hand names (an action's amount that cannot be read
    # is that action's error, below); whole units unless some amount has a point or an exponent.
    numbers = [*antes, *blinds, *(s for s in stacks if s is not None), *(finishing or ()), *(winnings or ())]
    places = 0 if set(map(type, numbers)) <= {int} else max(map(_places, numbers), default=0)
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

    known = iter(units([s for s in stacks if s is not None]))
    start = [_UNKNOWN if s is None else next(known) for s in stacks]
    table = _Table(n, start, scale)
    for p, x in enumerate(units(antes)):
        if x:
            table.pay(p, x, ante=True)
    for p, x in enumerate(units(blinds)):
        if x:
            table.pay(p, abs(x))
    forced = [table.bet[p] * ((blinds[p] > 0) - (blinds[p] < 0)) for p in range(n)]    # a post counts against
    last_big = max(range(n), key=lambda p: (forced[p], p))        # the last player with the largest blind
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
        if fresh and any(c in reserve for c in cards if c is not None):
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
                    p = player(args[0])
                    over("a card dealt")
                    cards = _cards(args[1])
                    deal(cards)
                    hole[p] += cards                      # dealt, or drawn after a discard
                    if len(hole[p]) > v.hole:
                        raise _Bad(f"{args[0]} holds more than {v.hole} cards")
                elif verb == "db" and len(args) == 1:
                    if not v.board:
                        raise _Bad(f"{code} has no board")
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
                    reserve.update(c for c in hole[p] if c is not None)    # the folded cards, set aside
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
    live = tuple(p for p in range(n) if p not in folded)
    betting_over = round_no >= v.rounds or runout()
    over = len(live) == 1 or (betting_over and not drawing and len(board) == out_before[-1]
                              and (draws_done >= v.draws or round_no >= v.rounds))
    finals: list[tuple[str, ...] | None] = []
    for p in range(n):
        cards = shown[p] if shown[p] is not None else hole[p]
        finals.append(tuple(cards) if cards and None not in cards and len(cards) == v.hole else None)  # type: ignore[arg-type]
    if max(table.put) > MAX_UNITS:
        raise HistoryError(f"{where}: the amount {_text(max(table.put), scale)} is too large")
    return Played(ident, code, names,
                  scale, tuple(None if s is None else x for s, x in zip(stacks, start)),
                  tuple(table.put), tuple(table.ante), tuple(tuple(r) for r in table.rounds if any(r)),
                  tuple(folded), live, tuple(finals), tuple(board), over,   # type: ignore[arg-type]
                  tuple(units(finishing)) if finishing else None,
                  tuple(units(winnings)) if winnings else None)


def _names(doc: dict, n: int, where: str) -> tuple[str, ...]:
    """The players' names (``players``: one text a player), or p1, p2 …"""
    names = doc.get("players")
    if names is None:
        return tuple(f"p{i + 1}" for i in range(n))
    if not isinstance(names, list) or len(names) != n or not all(isinstance(x, str) for x in names):
        raise HistoryError(f"{where}: players must list one name (a text) a player ({n}), "
                           f"not {_short(repr(names))}")
    return tuple(names)


class Unsupported(HistoryError):
    """A hand of a PHH variant whose game the rules do not have (reported, the batch goes on)."""
