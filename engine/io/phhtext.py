"""PHH text (phh-std) read: a hand history's TOML, its sections, and the types of a hand.

A PHH file is TOML: the variant, the forced bets, the starting stacks and the actions; a ``.phhs``
file holds many, each under a ``[n]`` header.  This module reads the text, section by section, into
documents (or a one-line :class:`HistoryError` for a hand that cannot be read), and declares what a
replayed hand is (:class:`Played`) and the variants known; :mod:`engine.io.replay` replays the
actions.  Users import both from :mod:`engine.io.phh`.
"""

from __future__ import annotations

import datetime
import itertools
import re
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from typing import IO, Any, Iterator

MAX_UNITS = 10 ** 15          # amounts past this (in the smallest unit) are refused: 64-bit sums
MAX_DIGITS = 40               # an amount's characters, a decimal's digits and exponent: bounded
_AMOUNT = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z")    # an action's amount (ASCII)


class HistoryError(ValueError):
    """A hand history that cannot be read or replayed; the message is one line."""




class Unsupported(HistoryError):
    """A hand of a PHH variant whose game the rules do not have (reported, the batch goes on)."""


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
_REQUIRED = frozenset(REQUIRED)
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
    if doc.keys() >= _REQUIRED:
        return doc
    missing = [k for k in REQUIRED if k not in doc]
    if missing:
        raise HistoryError(f"{where}: not a PHH hand: no {', '.join(missing)}")
    return doc


class _Lazy:
    """A regular expression compiled when first used: those of the TOML that pokerkit's files
    never need (the patterns below, _patterns) cost every command 8 ms to compile at import."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern

    def __getattr__(self, name: str) -> Any:    # (once: then the compiled pattern's methods are its own)
        compiled = re.compile(self.pattern)
        for method in ("match", "findall"):
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


# The TOML a hand history is written in, read fast: ``key = value`` lines whose values are strings
# without escapes, integers, decimals, booleans, local times and flat arrays of them (every field
# of the PHH standard).  Anything else (a table, an escape, an exponent, inf …) returns None and
# the text goes to tomllib, the reference: a test holds the two to the same documents.
_KEY = _Lazy(r"[ \t]*([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=[ \t]*")
_VALUE = _Lazy(r'"([^"\\\x00-\x08\x0a-\x1f\x7f]*)"|\'([^\'\x00-\x08\x0a-\x1f\x7f]*)\''
               r'|([+-]?(?:0|[1-9][0-9]*))(\.[0-9]+)?(?![\w.:+-])'
               r"|(true|false)(?![\w.])|((?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9])(?![\w.:])")
_GAP = _Lazy(r"(?:[ \t]|\r?\n|#[^\x00-\x08\x0a-\x1f\x7f]*)*")
# Two arrays read whole (most of a hand history, by _LINE): of plain strings (the actions), of integers.
# (a string of either kind TOML has without escapes: "basic", or 'literal', whose backslash is itself)
_PLAIN = r""""[^"\\\x00-\x08\x0a-\x1f\x7f]*"|'[^'\x00-\x08\x0a-\x1f\x7f]*'"""
_STRINGS = _Lazy(r'\[(?:(?:[ \t]|\r?\n)*(?:' + _PLAIN + r')(?:[ \t]|\r?\n)*,)*(?:[ \t]|\r?\n)*'
                 r'(?:(?:' + _PLAIN + r')(?:[ \t]|\r?\n)*)?\]')
_STRING = _Lazy(r""""([^"]*)"|'([^']*)'""")
_BASICS, _LITERALS = _Lazy(r'"([^"]*)"'), _Lazy(r"'([^']*)'")
_INTS = _Lazy(r"\[(?:[ \t]*[+-]?(?:0|[1-9][0-9]*)[ \t]*,)*[ \t]*(?:[+-]?(?:0|[1-9][0-9]*)[ \t]*)?\]")
_END = _Lazy(r"[ \t]*(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?(?:\r?\n|$)")
# A whole ``key = value`` line of the kinds above (arrays of integers or plain strings, a plain
# string of either kind, a whole number, a boolean) in one match: every line of the hand histories
# pokerkit and the PHH dataset write.
_LINE = _Lazy(_GAP.pattern + r"([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=[ \t]*(?:(" + _INTS.pattern + r")|("
              + _STRINGS.pattern + r')|"([^"\\\x00-\x08\x0a-\x1f\x7f]*)"|((?:0|[1-9][0-9]*)(?![\w.:+-]))'
              + r"|'([^'\x00-\x08\x0a-\x1f\x7f]*)'|(true|false)(?![\w.]))" + _END.pattern)


# What no plain string holds (TOML: a control character but the tab).
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
# The short arrays read (the forced bets, the stacks, the players of a bulk file's hands repeat),
# by their text; an array of actions is read each time.
_ARRAYS: dict[str, tuple[Any, ...]] = {}
_ARRAYS_MOST, _ARRAY_TEXT = 4096, 160
_KNOWN: dict[str, tuple[str, Any]] = {}          # whole lines read (_lines), by their text
_LINE_TEXT = 200
_INT_ITEMS = re.compile(r"[+-]?(?:0|[1-9][0-9]*)(?:, [+-]?(?:0|[1-9][0-9]*))*\Z")


def _lines(text: str) -> dict | None:
    """The hand's TOML when every line is ``key = value`` as pokerkit writes it (one space either
    side of ``=``, a bare key of ASCII letters, digits and ``_``; a plain string of either kind,
    an unsigned whole number, a boolean, or a flat array of plain strings of one kind or of
    whole numbers, each followed by ``, ``), read with string methods; None for any other text
    (then _quick's regular expressions read it: this reads a subset of what they read, the same).
    A comment, a carriage return, spaces at the end of a line: none of these forms."""
    out: dict[str, Any] = {}
    for line in text.split("\n"):
        if not line:
            continue
        known = _KNOWN.get(line)
        if known is not None:                       # (a line read before: its key and value)
            key, value = known
            if key in out:
                return None
            out[key] = list(value) if type(value) is tuple else value
            continue
        key, eq, value = line.partition(" = ")
        if not eq or not key.isascii() or not key.isidentifier() or key in out or not value:
            return None
        first = value[0]
        if first == "[":
            known = _ARRAYS.get(value)
            if known is not None:                   # (an array read before: a list of its own)
                out[key] = list(known)
                _keep(line, key, known)
                continue
            if value[-1] != "]":
                return None
            second = value[1:2]
            if (second == "'" or second == '"') and value[-2] == second and len(value) > 3:
                body = value[2:-2]          # the texts, each without the quotes it is in
                items = body.split(second + ", " + second)
                if body.count(second) != 2 * len(items) - 2 or second == '"' and "\\" in body \
                        or not body.isprintable() and _CONTROL.search(body):
                    return None
                out[key] = items
            elif value == "[]":
                out[key] = []
            elif _INT_ITEMS.match(value, 1, len(value) - 1) is not None:
                out[key] = list(map(int, value[1:-1].split(", ")))
            else:
                return None
            if len(value) <= _ARRAY_TEXT:
                if len(_ARRAYS) >= _ARRAYS_MOST:
                    _ARRAYS.clear()
                _ARRAYS[value] = tuple(out[key])
                _keep(line, key, _ARRAYS[value])
        elif first == "'":
            if len(value) < 2 or value[-1] != "'" or "'" in value[1:-1] \
                    or not value.isprintable() and _CONTROL.search(value):
                return None
            out[key] = value[1:-1]
            _keep(line, key, out[key])
        elif first == '"':
            if len(value) < 2 or value[-1] != '"' or '"' in value[1:-1] or "\\" in value \
                    or not value.isprintable() and _CONTROL.search(value):
                return None
            out[key] = value[1:-1]
            _keep(line, key, out[key])
        elif value == "true" or value == "false":
            out[key] = value == "true"
            _keep(line, key, out[key])
        elif value.isdigit() and value.isascii() and (first != "0" or value == "0"):
            out[key] = int(value)
            _keep(line, key, out[key])
        else:
            return None
    return out


def _keep(line: str, key: str, value: Any) -> None:
    """A short line read, kept by its text (a bulk file's hands repeat most of theirs: the
    variant, the forced bets, the stacks): its key and value, an array as a tuple (each hand
    that reads it gets a list of its own)."""
    if len(line) <= _LINE_TEXT:
        if len(_KNOWN) >= _ARRAYS_MOST:
            _KNOWN.clear()
        _KNOWN[line] = (key, value)


def _quick(text: str) -> dict | None:
    """A hand's TOML read fast (_lines, else _patterns), or None: tomllib reads it."""
    lines = _lines(text)
    return lines if lines is not None else _patterns(text)


def _patterns(text: str) -> dict | None:
    out: dict[str, Any] = {}
    pos, n = 0, len(text)
    while True:
        line = _LINE.match(text, pos)
        if line is not None:
            key, ints, strings, string, number, literal, flag = line.groups()
            if key in out:
                return None
            if ints is not None:
                parts = ints[1:-1].split(",")
                if parts[-1].isspace() or not parts[-1]:          # [] or a trailing comma
                    parts.pop()
                out[key] = list(map(int, parts))
            elif strings is not None:          # (of one kind of quotes: each text at once)
                out[key] = _LITERALS.findall(strings) if '"' not in strings else \
                    _BASICS.findall(strings) if "'" not in strings else \
                    [basic or lit for basic, lit in _STRING.findall(strings)]
            elif string is not None or literal is not None:
                out[key] = string if string is not None else literal
            else:
                out[key] = int(number) if number is not None else flag == "true"
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
            if "[" not in line or line[:1] != "[" and (line[:1] not in " \t" or line.lstrip(" \t")[:1] != "["):
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
