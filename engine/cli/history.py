"""Hand histories on the command line: `poker judge FILE.phh|.phhs` and `poker history FILE`."""

from __future__ import annotations

import argparse
import functools
import io
import json
import sys
import time
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from engine.cli.common import (
    CommandError,
    batch_collector,
    clear_progress,
    load_engine,
    progress,
    rules_key,
)
from engine.core import Engine
from engine.history import Histories
from engine.io.fights import Prefixed
from engine.io.phhtext import HistoryError, looks_like_phh, read_sections

STDIN = "-"
EXTENSIONS = (".phh", ".phhs")
HEAD_LINES = 100_000        # comment lines read at most, before the first line that tells the format
MAX_LINE = 1 << 20          # characters of one line of a hand history (a real one: a few hundred)
MAX_HAND = 16 << 20         # characters of one hand (from one line opening with "[" to the next)


def register(sub: Any) -> None:
    p = sub.add_parser("history", help="audit hand histories (PHH): hands, showdowns, agreement with the record")
    p.add_argument("file", help="a .phh or .phhs hand history (PHH, the pokerkit authors' standard); - reads stdin")
    p.add_argument("--explain", action="store_true", help="also judge with the deciding axiom of every showdown (slower)")
    p.set_defaults(run=run_history)


def open_phh(path: str, always: bool = False) -> tuple[str, IO[str] | None, Any]:
    """(name, a text stream of hand histories or None, what else to read): a hand-history file
    by its extension, stdin by its first lines; anything else is a batch of fights, given back
    as its path (or stdin with the lines read put back).  ``always``: any file is read as hand
    histories (`poker history`), and says so if it is none."""
    if path == STDIN:
        raw = getattr(sys.stdin, "buffer", None)
        if raw is None:                         # a text stream in stdin's place (tests, embedders)
            head = _head_text(sys.stdin)
            if always or looks_like_phh(head):
                return "<stdin>", _Bounded(_Joined(head, sys.stdin), "<stdin>"), None
            return "<stdin>", None, _Rewound(head, sys.stdin)
        # bytes: the lines read to tell the format are put back in front, and a batch of fights
        # stays bytes, for the reader of JSON Lines in blocks (engine.judge.columnar)
        first = _head_bytes(raw)
        try:
            head = first.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CommandError(f"<stdin>: not UTF-8 text ({exc.reason})") from None
        rest = Prefixed(first, raw, "<stdin>")
        if always or looks_like_phh(head):
            text = io.TextIOWrapper(io.BufferedReader(rest, 1 << 16), encoding="utf-8-sig")
            return "<stdin>", _Bounded(text, "<stdin>"), None
        return "<stdin>", None, rest
    if not always and Path(path).suffix.lower() not in EXTENSIONS:
        return path, None, path
    try:
        return path, _Bounded(open(path, encoding="utf-8-sig"), path), None
    except OSError as exc:
        raise CommandError(f"{path}: cannot read: {exc.strerror or exc}") from None


class _Bounded:
    """The lines of a text stream, each read with a limit (:data:`MAX_LINE`), a hand's lines
    counted (:data:`MAX_HAND`): a file, a device or stdin without a line break (``/dev/zero``)
    is refused in one line after a megabyte, not read whole into memory."""

    def __init__(self, stream: Any, name: str):
        self.stream, self.name = stream, name

    def __iter__(self) -> Iterator[str]:
        readline = getattr(self.stream, "readline", None)
        lines: Iterator[str] = iter(functools.partial(readline, MAX_LINE + 1), "") if readline else iter(self.stream)
        number = hand = 0
        for line in lines:
            number += 1
            if len(line) > MAX_LINE:
                raise CommandError(f"{self.name}:{number}: the line is too long (more than {MAX_LINE} characters)")
            hand = len(line) if line[:1] == "[" else hand + len(line)
            if hand > MAX_HAND:
                raise CommandError(f"{self.name}:{number}: the hand is too long (more than {MAX_HAND} characters)")
            yield line


def _head(readline: Callable[[int], str]) -> str:
    """stdin's first lines: up to its first that is no comment and not blank (the one that tells
    the format), or HEAD_LINES of them past that many comments, MAX_HAND characters in all.
    ``readline(number)`` gives line ``number`` as text, a CommandError when it is longer than
    MAX_LINE characters."""
    lines: list[str] = []
    size = 0
    while len(lines) < HEAD_LINES:
        line = readline(len(lines) + 1)
        size += len(line)
        if size > MAX_HAND:
            raise CommandError(f"<stdin>:{len(lines) + 1}: more than {MAX_HAND} characters before the first "
                               "line that is no comment")
        lines.append(line)
        if not line or line.strip() and not line.lstrip().startswith("#"):
            break
    return "".join(lines)


def _too_long(number: int) -> CommandError:
    return CommandError(f"<stdin>:{number}: the line is too long (more than {MAX_LINE} characters)")


def _head_text(stream: IO[str]) -> str:
    """:func:`_head` of a text stream."""
    def readline(number: int) -> str:
        line = stream.readline(MAX_LINE + 1)
        if len(line) > MAX_LINE:
            raise _too_long(number)
        return line
    return _head(readline)


def _head_bytes(raw: IO[bytes]) -> bytes:
    """:func:`_head` of a binary stream (UTF-8, an optional BOM), as the bytes read."""
    read: list[bytes] = []
    cap = 4 * (MAX_LINE + 1)                    # bytes that hold more than MAX_LINE characters

    def readline(number: int) -> str:
        line = raw.readline(cap)
        try:
            text = line.decode("utf-8-sig" if number == 1 else "utf-8") if len(line) < cap else None
        except UnicodeDecodeError as exc:
            raise CommandError(f"<stdin>: not UTF-8 text ({exc.reason})") from None
        if text is None or len(text) > MAX_LINE:
            raise _too_long(number)
        read.append(line)
        return text
    _head(readline)
    return b"".join(read)


class _Joined:
    """Lines of ``head`` then of ``stream``: what was read to tell the format, put back."""

    def __init__(self, head: str, stream: IO[str]):
        self.head, self.stream = head, stream

    def __iter__(self) -> Iterator[str]:
        yield from io.StringIO(self.head)
        yield from iter(lambda: self.stream.readline(MAX_LINE + 1), "")


class _Rewound(io.TextIOBase):
    """stdin with its first lines put back, for the batch reader (text)."""

    name = "<stdin>"

    def __init__(self, head: str, stream: IO[str]):
        self._head, self._stream = head, stream

    def read(self, size: int | None = -1) -> str:
        if size == 0:
            return ""
        out, self._head = self._head, ""
        return out + self._stream.read(-1 if size is None or size < 0 else max(size - len(out), 0))

    def readline(self, limit: int = -1) -> str:
        if self._head:
            line, _, rest = self._head.partition("\n")
            self._head = rest
            return line + "\n" if _ or not rest else line
        return self._stream.readline(limit)

    def readable(self) -> bool:
        return True


def histories(args: argparse.Namespace, name: str, stream: IO[str], dumped: bool = False
              ) -> tuple[Histories, Iterator[Any]]:
    """The judge of hand histories (each variant's rule set; --rules in place of the standard
    one) and the hands read; a text that is no PHH at all is a CommandError (one line).
    ``dumped``: the results as lines of JSON, written by the processes that judge them."""
    own = rules_key(args)
    cache: dict[str, Engine] = {}

    def engines(rules: str) -> Engine:
        if rules == "standard" and own not in (None, "standard"):
            return load_engine(args)
        if rules not in cache:
            cache[rules] = load_engine(argparse.Namespace(**{**vars(args), "rules": rules}))
        return cache[rules]

    try:
        hands = read_sections(stream, name)
        first = next(hands)
    except HistoryError as exc:
        raise CommandError(str(exc)) from None
    except StopIteration:
        raise CommandError(f"{name}: no hand in it") from None
    except UnicodeDecodeError as exc:
        raise CommandError(f"{name}: not UTF-8 text ({exc.reason})") from None

    def all_hands() -> Iterator[Any]:
        yield first
        try:
            yield from hands
        except UnicodeDecodeError as exc:
            raise CommandError(f"{name}: not UTF-8 text ({exc.reason})") from None

    return Histories(engines, explain=getattr(args, "explain", False), dumped=dumped), all_hands()


def run_history(args: argparse.Namespace) -> int:
    """`poker history FILE`: the audit of a hand-history file, in a few lines."""
    start = time.perf_counter()
    name, stream, _ = open_phh(args.file, always=True)
    judge, hands = histories(args, name, stream, dumped=True)
    with batch_collector():
        lines = audit(judge, hands, name, progress(None, "auditing", "hand"))
    clear_progress()
    print("\n".join(lines))
    print(f"time: {time.perf_counter() - start:.2f} s")
    return 0


def audit(judge: Histories, hands: Iterator[Any], name: str, tick: Any = None) -> list[str]:
    """The audit's lines (the summary, then the first ten disagreements with the record)."""
    disagree: list[str] = []
    for line in judge.judge(hands, progress=tick, name=name):
        if '"agrees": false' in line and len(disagree) < 10:     # (a key: inside a text its quotes are escaped)
            r = json.loads(line)
            disagree.append(f"  hand {r['id']}: " + "; ".join(r["record"].get("notes", [])))
    lines = judge.summary().split(", ")
    if disagree:
        lines.append("disagreements with the record (the first ten):")
        lines += disagree
    return lines
