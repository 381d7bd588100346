"""Hand histories on the command line: `poker judge FILE.phh|.phhs` and `poker history FILE`."""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from pathlib import Path
from typing import IO, Any, Iterator

from ..core import Engine
from ..history import Histories
from ..phh import HistoryError, looks_like_phh, read_sections
from .common import CommandError, clear_progress, load_engine, progress, rules_key

STDIN = "-"
EXTENSIONS = (".phh", ".phhs")
HEAD_LINES = 100_000      # comment lines read at most, before the first line that tells the format


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
        stream = io.TextIOWrapper(raw, encoding="utf-8-sig") if raw is not None else sys.stdin
        try:
            head = _head(stream)
        except UnicodeDecodeError as exc:
            raise CommandError(f"<stdin>: not UTF-8 text ({exc.reason})") from None
        if always or looks_like_phh(head):
            return "<stdin>", _Joined(head, stream), None
        return "<stdin>", None, _Rewound(head, stream)
    if not always and Path(path).suffix.lower() not in EXTENSIONS:
        return path, None, path
    try:
        return path, open(path, encoding="utf-8-sig"), None
    except OSError as exc:
        raise CommandError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _head(stream: IO[str]) -> str:
    """stdin's first lines: up to its first that is no comment and not blank (the one that tells
    the format), or HEAD_LINES of them past that many comments."""
    lines: list[str] = []
    while len(lines) < HEAD_LINES:
        line = stream.readline()
        lines.append(line)
        if not line or line.strip() and not line.lstrip().startswith("#"):
            break
    return "".join(lines)


class _Joined:
    """Lines of ``head`` then of ``stream``: what was read to tell the format, put back."""

    def __init__(self, head: str, stream: IO[str]):
        self.head, self.stream = head, stream

    def __iter__(self) -> Iterator[str]:
        yield from io.StringIO(self.head)
        yield from self.stream


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
    disagree: list[str] = []
    for line in judge.judge(hands, progress=progress(None, "auditing", "hand"), name=name):
        if '"agrees": false' in line and len(disagree) < 10:     # (a key: inside a text its quotes are escaped)
            r = json.loads(line)
            disagree.append(f"  hand {r['id']}: " + "; ".join(r["record"].get("notes", [])))
    clear_progress()
    print(judge.summary().replace(", ", "\n"))
    if disagree:
        print("disagreements with the record (the first ten):")
        print("\n".join(disagree))
    print(f"time: {time.perf_counter() - start:.2f} s")
    return 0
