"""Batches of fights: read them safely and incrementally (:mod:`engine.io.results` writes the results).

``poker judge FILE|-`` reads three formats, chosen by the file's extension or, for stdin (or an
unknown extension), by its first bytes:

* **YAML** (``.yaml``, ``.yml``): a mapping with ``fights:``, a list of fights;
* **JSON** (``.json``): ``{"fights": [...]}``;
* **JSON Lines** (``.jsonl``, ``.ndjson``): one fight object per line (blank lines are skipped).

A fight is a mapping with ``hands:`` (a list of 2..10 hands) and an optional ``id:``.
:func:`read_fights` yields every item of the list in order, whatever it holds, so that N fights
in give N results out: an item that is no fight is yielded too and marked bad later
(:func:`check_fight` says why).  Nothing is read whole: YAML is parsed event by event with
libyaml, JSON element by element, JSON Lines line by line, so memory stays bounded whatever the
size of the batch.

What stops a batch, as a :class:`BatchError` (a ``ValueError``) of one line naming the file and,
when known, the line: a file that cannot be read or is not UTF-8, a syntax error, a top level that
is not a mapping with a ``fights`` list, a duplicate key anywhere (YAML and JSON would keep the
last one silently), a YAML alias (``*name``: the way to a "billion laughs" bomb), nesting deeper
than :data:`MAX_DEPTH` (libyaml's own loader overflows the C stack at about 30,000 levels; this
reader counts levels as the events arrive and never builds such a tree), a scalar longer than
:data:`MAX_SCALAR` characters, a fight of more than :data:`MAX_ITEM_NODES` values or a JSON
element (or line) over :data:`MAX_ITEM_CHARS` characters.

Values that JSON cannot carry are kept as their text, so that the output stays valid JSON and
YAML: dates and timestamps, ``!!binary``, other tags, NaN and infinities, and integers of more than
:data:`MAX_INT_DIGITS` digits.  A collection given as an ``id`` becomes its JSON text.

>>> import io, json
>>> list(read_fights(io.StringIO('{"fights": [{"id": 1e999, "hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]}]}')))
[{'id': '1e999', 'hands': ['AH KH QH JH TH', '2C 3D 4S 5H 7C']}]
>>> check_fight({"hands": ["AH " * 100, "2C 3D 4S 5H 7C"]})
'hand 1: too long (300 characters; a hand is five cards)'
"""

from __future__ import annotations

import io
import json
import math
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, Iterator

from engine.poker.notation import MAX_HAND_CHARS, MAX_HAND_TOKENS, oversized

__all__ = ["BatchError", "FORMATS", "OUTPUT_FORMATS", "read_fights", "check_fight",
           "format_of", "sniff", "json_safe", "STDIN",
           "MAX_DEPTH", "MAX_SCALAR", "MAX_ITEM_CHARS", "MAX_ITEM_NODES", "MAX_INT_DIGITS",
           "MAX_HAND_TOKENS", "MAX_HAND_CHARS", "open_batch", "Opened", "Prefixed", "json_line", "BLANK"]

STDIN = "-"
FORMATS = ("yaml", "json", "jsonl")
OUTPUT_FORMATS = FORMATS
EXTENSIONS = {".yaml": "yaml", ".yml": "yaml", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}

# Limits of the input.  A real batch is far inside all of them.
MAX_DEPTH = 100                 # nesting levels (a fight needs 4: the top, fights, a fight, hands)
MAX_SCALAR = 64 * 1024          # characters of one YAML scalar (a hand is 14)
MAX_ITEM_CHARS = 1 << 20        # characters of one JSON element or JSON Lines line
MAX_ITEM_NODES = 10_000         # values in one fight (or other top-level value) of YAML
MAX_INT_DIGITS = 100            # longer integers are kept as text

_CHUNK = 1 << 16                # characters read at a time (JSON)
_SNIFF = 1 << 16                # bytes of stdin looked at to tell the format


class BatchError(ValueError):
    """A batch that cannot be read: one line, naming the file (and the line when known)."""


# ---- formats -------------------------------------------------------------------------------


def format_of(source: str) -> str | None:
    """The format a file's extension names (``yaml``, ``json``, ``jsonl``), else None."""
    if source == STDIN:
        return None
    return EXTENSIONS.get(Path(source).suffix.lower())


_JSON_START = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"')


def sniff(head: bytes) -> str:
    """The format of a batch from its first bytes.

    JSON when it opens with ``{"`` (an object with a quoted key); JSON Lines when, moreover, its
    first line is a whole JSON object without ``fights``; YAML otherwise (YAML reads JSON as well).

    >>> sniff(b'fights: []'), sniff(b'{"fights": [\\n'), sniff(b'{"hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]}\\n')
    ('yaml', 'json', 'jsonl')
    """
    if not _JSON_START.match(head):
        return "yaml"
    first = head.split(b"\n", 1)[0]
    try:
        value = json.loads(first.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError):
        return "json"
    return "json" if not isinstance(value, dict) or "fights" in value else "jsonl"


# ---- reading -------------------------------------------------------------------------------


def read_fights(source: str | IO[Any], fmt: str | None = None) -> Iterator[Any]:
    """The fights of a batch, one item at a time, in order.

    ``source`` is a path, ``-`` for stdin, or an open file (text or binary).  ``fmt`` is ``yaml``,
    ``json`` or ``jsonl``; None chooses by the extension, else by the first bytes (:func:`sniff`).

    The file is opened and read up to its first fight before this returns, so that a file that
    cannot be read, or whose top level is wrong, raises :class:`BatchError` at once; a problem
    further on raises it while iterating.  Every item of the fights list is yielded, whatever it
    is: one that is no fight is marked bad by :func:`check_fight`.  A stream given (or stdin) is
    read but not closed.
    """
    opened = open_batch(source, fmt)
    try:
        reader = {"yaml": _YamlReader, "json": _JsonReader, "jsonl": _JsonLinesReader}[opened.fmt](
            opened.stream, opened.name)
        reader.start()
    except BaseException:
        opened.close()
        raise
    return _closing(reader.items(), opened.owned)


class Opened:
    """A batch opened, its format told (:func:`open_batch`): ``stream`` (binary, the sniffed head
    put back in front; or the text stream given), ``fmt``, the ``name`` errors give, and the file
    this opened (closed by :meth:`close`; a stream given, or stdin, is left open)."""

    def __init__(self, stream: IO[Any], fmt: str, name: str, owned: IO[Any] | None):
        self.stream, self.fmt, self.name, self.owned = stream, fmt, name, owned

    def close(self) -> None:
        if self.owned is not None:
            self.owned.close()


def open_batch(source: str | IO[Any], fmt: str | None = None) -> Opened:
    """Open a batch and tell its format, as :func:`read_fights` does before reading it
    (BatchError naming the file when it cannot be read)."""
    if fmt is not None and fmt not in FORMATS:
        raise ValueError(f"unknown batch format {fmt!r} (one of {', '.join(FORMATS)})")
    owned: IO[Any] | None = None
    if isinstance(source, str):
        name = "<stdin>" if source == STDIN else source
        fmt = fmt or format_of(source)
        if source == STDIN:
            stream: IO[Any] = getattr(sys.stdin, "buffer", sys.stdin)
        else:
            try:
                stream = owned = open(source, "rb")
            except OSError as exc:
                raise BatchError(f"{name}: cannot read: {exc.strerror or exc}") from None
    else:
        name = getattr(source, "name", None)
        name = name if isinstance(name, str) else "<stream>"
        stream = source
    try:
        stream, fmt = _prepared(stream, name, fmt)
    except BaseException:
        if owned is not None:
            owned.close()
        raise
    return Opened(stream, fmt, name, owned)


def _closing(items: Iterator[Any], owned: IO[Any] | None) -> Iterator[Any]:
    try:
        yield from items
    finally:
        if owned is not None:
            owned.close()


def _read(stream: IO[Any], size: int, name: str) -> Any:
    try:
        return stream.read(size)
    except OSError as exc:
        raise BatchError(f"{name}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise BatchError(f"{name}: not UTF-8 text ({exc.reason})") from None


def _prepared(stream: IO[Any], name: str, fmt: str | None) -> tuple[IO[Any], str]:
    """The stream to read (the sniffed head put back in front) and the format."""
    probe = _read(stream, 0, name)
    if isinstance(probe, str):                  # a text stream (a StringIO, a text file)
        if fmt is None:
            try:
                line = stream.readline(MAX_ITEM_CHARS + 1)
            except (OSError, UnicodeDecodeError) as exc:
                raise BatchError(f"{name}: cannot read: {exc}") from None
            fmt = sniff(line.encode("utf-8", "surrogatepass"))
            stream = _PrefixedText(line, stream, name)
        return stream, fmt
    head = b""
    if fmt is None:                             # up to the first line break (JSON Lines or not)
        head = chunk = _read(stream, _SNIFF, name)
        while chunk and b"\n" not in head and len(head) <= MAX_ITEM_CHARS:
            chunk = _read(stream, _SNIFF, name)
            head += chunk
        fmt = sniff(head)
    # A wrapper that never closes the stream under it (stdin stays open), and gives head first.
    return Prefixed(head, stream, name), fmt


class Prefixed(io.RawIOBase):
    """A binary stream that gives ``head`` first, then the rest of ``stream``; closing it leaves
    ``stream`` open."""

    def __init__(self, head: bytes, stream: IO[bytes], name: str | None = None):
        super().__init__()
        self.head, self.stream = head, stream
        self.name = name or getattr(stream, "name", None)      # in the errors that name the stream

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if self.head:
            if size is None or size < 0:
                out, self.head = self.head + self.stream.read(), b""
                return out
            out, self.head = self.head[:size], self.head[size:]
            return out
        return self.stream.read(-1 if size is None else size)

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


class _PrefixedText:
    """A text stream that gives ``head`` first, then the rest of ``stream`` (read, readline)."""

    def __init__(self, head: str, stream: IO[str], name: str):
        self.head, self.stream, self.name = head, stream, name

    def read(self, size: int | None = -1) -> str:
        if not self.head:
            return self.stream.read(-1 if size is None else size)
        if size is None or size < 0:
            out, self.head = self.head + self.stream.read(), ""
            return out
        out, self.head = self.head[:size], self.head[size:]
        return out

    def readline(self, limit: int = -1) -> str:
        if not self.head:
            return self.stream.readline(limit)
        cut = self.head.find("\n") + 1 or len(self.head)
        if 0 <= limit < cut:
            cut = limit
        out, self.head = self.head[:cut], self.head[cut:]
        if not out.endswith("\n") and not self.head and (limit < 0 or len(out) < limit):
            out += self.stream.readline(-1 if limit < 0 else limit - len(out))
        return out


def _text(stream: IO[Any]) -> IO[str]:
    """A text view (UTF-8, an optional BOM) of a stream."""
    if isinstance(stream, Prefixed):
        return io.TextIOWrapper(io.BufferedReader(stream, 1 << 16), encoding="utf-8-sig", errors="strict")
    return stream


def _safe_int(text: str) -> Any:
    return int(text) if len(text) <= MAX_INT_DIGITS else text


def _safe_float(text: str) -> Any:
    value = float(text)
    return value if math.isfinite(value) else text


class _Duplicate(ValueError):
    def __init__(self, key: Any):
        super().__init__(key)
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(key)
            seen.add(key)
    return out


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_int=_safe_int, parse_float=_safe_float,
                            parse_constant=str)
_SCAN = _DECODER.scan_once


def _decode_line(line: str) -> Any:
    """One line of JSON Lines: the usual one (an object, then the newline) straight through the
    scanner, which JSONDecoder.decode wraps in two regular expressions a call; anything else, and
    every error, through decode, for its message."""
    if line[:1] == "{":
        try:
            item, end = _SCAN(line, 0)
        except StopIteration:
            return _DECODER.decode(line)
        if end == len(line) or line[end:].isspace():
            return item
    return _DECODER.decode(line)


def _fight_id(item: Any) -> Any:
    """The item with an ``id`` JSON can carry (see :func:`json_safe`)."""
    if type(item) is dict and "id" in item:
        ident = item["id"]
        if not (ident is None or type(ident) in (str, int, bool)):
            item["id"] = _as_text(ident)
        elif type(ident) is int and ident.bit_length() > 332:
            item["id"] = _as_text(ident)
    return item


def _as_text(value: Any) -> Any:
    """A value JSON can carry: itself when it is a scalar JSON takes, else its text."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        if value.bit_length() <= 332:       # at most 100 digits
            return int(value)
        return f"{value:#x}"                # decimal text of huge ints is refused by Python itself
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "backslashreplace")
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return json.dumps(json_safe(value), ensure_ascii=False, sort_keys=False)
    return str(value)


def json_safe(value: Any, depth: int = 0) -> Any:
    """A copy of ``value`` that ``json.dumps(..., allow_nan=False)`` accepts: NaN, infinities,
    huge integers, dates, bytes and other objects become text; sets become lists; keys become
    text.  Nesting beyond :data:`MAX_DEPTH` becomes text too.

    >>> import datetime
    >>> json_safe({"id": datetime.date(2024, 1, 2), "x": [float("inf"), 10 ** 200 > 0, {1, 2}]})
    {'id': '2024-01-02', 'x': ['inf', True, [1, 2]]}
    """
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _as_text(value)
    if depth >= MAX_DEPTH:
        return "…"
    if isinstance(value, Mapping):
        return {k if isinstance(k, str) else str(_as_text(k)): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_safe(v, depth + 1) for v in value]
    return _as_text(value)


class _JsonLinesReader:
    """One fight per line; a line over MAX_ITEM_CHARS, or one that is not JSON, stops the batch."""

    def __init__(self, stream: IO[Any], name: str):
        self.stream, self.name = _text(stream), name

    def start(self) -> None:
        pass

    def items(self) -> Iterator[Any]:
        readline, name = self.stream.readline, self.name
        number = 0
        while True:
            try:
                line = readline(MAX_ITEM_CHARS + 1)
            except OSError as exc:
                raise BatchError(f"{name}: cannot read: {exc.strerror or exc}") from None
            except UnicodeDecodeError as exc:
                raise BatchError(f"{name}:{number + 1}: not UTF-8 text ({exc.reason})") from None
            if not line:
                return
            number += 1
            item = json_line(line, name, number)
            if item is not BLANK:
                yield item


BLANK = object()       # what json_line gives for a line of whitespace (skipped: no fight)


def json_line(line: str | bytes, name: str, number: int) -> Any:
    """Line ``number`` of a JSON Lines batch as its reader reads it: the item (its ``id`` made
    JSON-safe), or :data:`BLANK` for whitespace; BatchError naming the line when it is too long,
    not UTF-8 (``line`` as bytes) or not JSON."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BatchError(f"{name}:{number}: not UTF-8 text ({exc.reason})") from None
    if len(line) > MAX_ITEM_CHARS:
        raise BatchError(f"{name}:{number}: the line is too long (more than {MAX_ITEM_CHARS} characters)")
    if line.isspace():
        return BLANK
    try:
        item = _decode_line(line)
    except json.JSONDecodeError as exc:
        raise BatchError(f"{name}:{number}: JSON syntax error: {exc.msg} (column {exc.colno})") from None
    except _Duplicate as exc:
        raise BatchError(f"{name}:{number}: duplicate key {exc.key!r}") from None
    except RecursionError:
        raise BatchError(f"{name}:{number}: nested too deeply") from None
    return _fight_id(item)


_WS = re.compile(r"[ \t\r\n]*")


class _JsonReader:
    """``{"fights": [...]}``, decoded one element at a time from a sliding buffer."""

    def __init__(self, stream: IO[Any], name: str):
        self.stream, self.name = _text(stream), name
        self.buf, self.pos, self.eof = "", 0, False
        self.lines = 0                          # line breaks before the buffer
        self.seen: set[str] = set()

    # -- the buffer
    def fill(self) -> bool:
        """Read more; False at the end of the file."""
        if self.eof:
            return False
        if self.pos > 0:
            self.lines += self.buf.count("\n", 0, self.pos)
            self.buf, self.pos = self.buf[self.pos:], 0
        try:
            chunk = self.stream.read(max(_CHUNK, len(self.buf)))
        except OSError as exc:
            raise BatchError(f"{self.name}: cannot read: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise BatchError(f"{self.name}:{self.line()}: not UTF-8 text ({exc.reason})") from None
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def line(self, pos: int | None = None) -> int:
        return self.lines + self.buf.count("\n", 0, self.pos if pos is None else pos) + 1

    def fail(self, message: str, pos: int | None = None) -> BatchError:
        return BatchError(f"{self.name}:{self.line(pos)}: {message}")

    def peek(self) -> str:
        """The next character that is not white space ('' at the end)."""
        while True:
            self.pos = _WS.match(self.buf, self.pos).end()
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.fill():
                return ""

    def expect(self, chars: str, what: str) -> str:
        c = self.peek()
        if not c or c not in chars:
            found = repr(c) if c else "the end of the file"
            raise self.fail(f"JSON syntax error: expected {what}, found {found}")
        self.pos += 1
        return c

    def value(self) -> Any:
        """Decode the value at the position; read more while it may be cut off by the buffer."""
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if len(self.buf) - self.pos > MAX_ITEM_CHARS:
                    raise self.fail(f"an element is too long (more than {MAX_ITEM_CHARS} characters)") from None
                if self.fill():
                    continue
                raise self.fail(f"JSON syntax error: {exc.msg}", exc.pos) from None
            except _Duplicate as exc:
                raise self.fail(f"duplicate key {exc.key!r}") from None
            except RecursionError:
                raise self.fail("nested too deeply") from None
            if end >= len(self.buf) and not self.eof and self.fill():
                continue                        # a number may go on in the next chunk
            if end - self.pos > MAX_ITEM_CHARS:
                raise self.fail(f"an element is too long (more than {MAX_ITEM_CHARS} characters)")
            self.pos = end
            return value

    # -- the document
    def start(self) -> None:
        """Read up to the first fight: `{`, any other keys, `"fights":` and `[`."""
        if self.peek() != "{":
            raise self.fail('expected an object with "fights", a list of fights')
        self.pos += 1
        if not self.next_fights():
            raise self.fail('expected an object with "fights", a list of fights')

    def next_fights(self) -> bool:
        """Skip keys up to "fights" (True, after its `[`) or the end of the object (False)."""
        first = not self.seen
        while True:
            c = self.peek()
            if c == "}":
                self.pos += 1
                return False
            if not first:
                self.expect(",", "',' or '}'")
            first = False
            if self.peek() != '"':
                raise self.fail("JSON syntax error: expected a key in double quotes")
            key = self.value()
            if key in self.seen:
                raise self.fail(f"duplicate key {key!r}")
            self.seen.add(key)
            self.expect(":", "':'")
            if key == "fights":
                if self.peek() != "[":
                    raise self.fail('expected an object with "fights", a list of fights ("fights" is no list)')
                self.pos += 1
                return True
            self.value()                        # another key: read and dropped

    def items(self) -> Iterator[Any]:
        if self.peek() == "]":
            self.pos += 1
        else:
            while True:
                yield _fight_id(self.value())
                if self.expect(",]", "',' or ']'") == "]":
                    break
        self.next_fights()                      # the keys after: a second "fights" is a duplicate
        if self.peek():
            raise self.fail("JSON syntax error: extra data after the object")


# ---- YAML ----------------------------------------------------------------------------------

_TAG = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_TAG + t for t in ("str", "int", "float", "bool", "null"))
# PyYAML, imported when the first YAML batch is read (_yaml): `poker judge` of hand histories or
# JSON never loads it (a hundredth of a second of start-up).
yaml: Any = None
_Loader: Any = None              # libyaml's loader when PyYAML has it: ~10x faster
_Scalars: Any = None


def _yaml() -> None:
    """PyYAML, and the loader and scalar constructor made of it, at hand."""
    global yaml, _Loader, _Scalars
    if _Scalars is not None:
        return
    import yaml as module

    class Scalars(module.constructor.SafeConstructor, module.resolver.Resolver):
        """Resolves and constructs one scalar at a time (YAML 1.1, as yaml.safe_load)."""

        def __init__(self) -> None:
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            self.cache: dict[str, Any] = {}

        def plain(self, value: str) -> Any:
            """A plain (unquoted, untagged) scalar."""
            try:
                return self.cache[value]
            except KeyError:
                pass
            out = self.tagged(self.resolve(yaml.ScalarNode, value, (True, False)), value)
            if len(self.cache) < 4096 and len(value) < 64:
                self.cache[value] = out
            return out

        def tagged(self, tag: str, value: str) -> Any:
            """Text unless the tag is one JSON can carry: null, bool, int, float (finite)."""
            try:
                if tag == _STR:
                    return value
                if tag == _NULL:
                    return None
                if tag == _BOOL:
                    return self.construct_yaml_bool(yaml.ScalarNode(tag, value))
                if tag == _INT:
                    return value if len(value) > MAX_INT_DIGITS else self.construct_yaml_int(yaml.ScalarNode(tag, value))
                if tag == _FLOAT:
                    number = self.construct_yaml_float(yaml.ScalarNode(tag, value))
                    return number if math.isfinite(number) else value
            except (ValueError, yaml.YAMLError):     # an explicit !!int that is no integer …
                return value
            return value                            # timestamps, binary, unknown tags: the text

    yaml, _Loader = module, getattr(module, "CSafeLoader", module.SafeLoader)
    _Scalars = Scalars


class _Metered:
    """A stream that refuses to give libyaml more than ``limit`` bytes between two events: a
    huge scalar (or comment) stops before libyaml holds it in memory."""

    def __init__(self, stream: IO[Any], reader: "_YamlReader", limit: int):
        self.stream, self.reader, self.limit = stream, reader, limit
        self.count = 0

    def read(self, size: int = -1) -> Any:
        data = self.stream.read(size)
        self.count += len(data)
        if self.count > self.limit:
            raise self.reader.fail(self.reader.last, "a scalar (or comment) of more than "
                             f"{MAX_SCALAR} characters")
        return data


class _YamlReader:
    """The fights of a YAML document, built from libyaml's events one fight at a time."""

    def __init__(self, stream: IO[Any], name: str):
        self.name = name
        _yaml()
        self.meter = _Metered(stream, self, 4 * MAX_SCALAR + (1 << 16))
        self.parser = _Loader(self.meter)
        self.scalars = _Scalars()
        self.nodes = 0
        self.last: Any = None                  # the last event, for the line of an error

    def fail(self, event: Any, message: str) -> BatchError:
        mark = getattr(event, "start_mark", None)
        where = f"{self.name}:{mark.line + 1}" if mark is not None else self.name
        return BatchError(f"{where}: {message}")

    def event(self) -> Any:
        try:
            ev = self.last = self.parser.get_event()
            self.meter.count = 0
            return ev
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
            where = f"{self.name}:{mark.line + 1}" if mark is not None else self.name
            problem = getattr(exc, "problem", None) or getattr(exc, "reason", None) or str(exc).splitlines()[0]
            if isinstance(exc, yaml.reader.ReaderError):
                raise BatchError(f"{where}: not UTF-8 text ({problem})") from None
            raise BatchError(f"{where}: YAML syntax error: {problem}") from None
        except OSError as exc:
            raise BatchError(f"{self.name}: cannot read: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise BatchError(f"{self.name}: not UTF-8 text ({exc.reason})") from None

    def start(self) -> None:
        """Read up to the first fight: the document's mapping, other keys, ``fights:``."""
        self.event()                            # StreamStart
        ev = self.event()
        if isinstance(ev, yaml.StreamEndEvent):
            raise self.fail(ev, "expected a mapping with `fights:`, a list of fights (the file is empty)")
        ev = self.event()                       # after DocumentStart
        if not isinstance(ev, yaml.MappingStartEvent):
            raise self.fail(ev, "expected a mapping with `fights:`, a list of fights")
        self.keys: set[Any] = set()
        if not self.next_fights(ev):
            raise self.fail(ev, "expected a mapping with `fights:`, a list of fights")

    def next_fights(self, where: Any) -> bool:
        """Read keys (and drop their values) up to ``fights`` (True) or the mapping's end (False)."""
        while True:
            ev = self.event()
            if isinstance(ev, yaml.MappingEndEvent):
                return False
            key = self.key(ev, 1)
            if key in self.keys:
                raise self.fail(ev, f"duplicate key {key!r}")
            self.keys.add(key)
            if key == "fights":
                ev = self.event()
                if not isinstance(ev, yaml.SequenceStartEvent):
                    raise self.fail(ev, "expected a mapping with `fights:`, a list of fights (`fights` is no list)")
                return True
            self.nodes = 0
            self.node(self.event(), 2)

    def items(self) -> Iterator[Any]:
        event, node = self.event, self.node
        while True:
            ev = event()
            if type(ev) is yaml.SequenceEndEvent:
                break
            self.nodes = 0
            item = node(ev, 3)
            yield _fight_id(item)
        if self.next_fights(ev):
            raise AssertionError("unreachable: a second `fights` is a duplicate key")
        ev = self.event()                       # DocumentEnd
        ev = self.event()
        if not isinstance(ev, yaml.StreamEndEvent):
            raise self.fail(ev, "more than one YAML document (a batch is one)")

    def key(self, ev: Any, depth: int) -> Any:
        value = self.node(ev, depth + 1)
        if isinstance(value, (dict, list)):
            raise self.fail(ev, "a mapping key must be a scalar")
        return value

    def node(self, ev: Any, depth: int) -> Any:
        """The value that starts with ``ev`` (its events read to its end)."""
        self.nodes += 1
        if self.nodes > MAX_ITEM_NODES:
            raise self.fail(ev, f"a fight of more than {MAX_ITEM_NODES} values")
        kind = type(ev)
        if kind is yaml.ScalarEvent:
            value = ev.value
            if len(value) > MAX_SCALAR:
                raise self.fail(ev, f"a scalar of more than {MAX_SCALAR} characters")
            tag = ev.tag
            if tag is None or tag == "!":
                if ev.style or not ev.implicit[0]:
                    return value                # quoted: a string
                return self.scalars.plain(value)
            return self.scalars.tagged(tag, value)
        if depth > MAX_DEPTH:
            raise self.fail(ev, f"nested too deeply (more than {MAX_DEPTH} levels)")
        if kind is yaml.SequenceStartEvent:
            out: list[Any] = []
            while True:
                ev = self.event()
                if type(ev) is yaml.SequenceEndEvent:
                    return out
                out.append(self.node(ev, depth + 1))
        if kind is yaml.MappingStartEvent:
            mapping: dict[Any, Any] = {}
            while True:
                ev = self.event()
                if type(ev) is yaml.MappingEndEvent:
                    return mapping
                key = self.key(ev, depth)
                if key in mapping:
                    raise self.fail(ev, f"duplicate key {key!r}")
                mapping[key] = self.node(self.event(), depth + 1)
        if kind is yaml.AliasEvent:
            raise self.fail(ev, f"an alias (*{ev.anchor}) is not allowed in a batch: write the value out")
        raise self.fail(ev, f"unexpected YAML {kind.__name__}")


# ---- checking a fight ----------------------------------------------------------------------

def _cards_problem(cards: Any) -> str | None:
    """Why a hand (or a board) as read is no set of cards: not text or a list, or far too long
    (:func:`engine.poker.notation.oversized`, which every command's cards pass as well)."""
    if not isinstance(cards, (str, list)):
        kind = "nothing" if cards is None else f"a {type(cards).__name__}"
        return f"expected cards (a string or a list), not {kind}"
    return oversized(cards)


def check_fight(item: Any) -> str | None:
    """Why an item read from a batch is no fight to judge, or None when it may be one.

    Checks the shape only: a mapping with ``hands``, a list of 2..10 hands, each a string or a list
    of cards, none far longer than five cards (more than :data:`MAX_HAND_TOKENS` cards or
    :data:`MAX_HAND_CHARS` characters); a showdown's ``board`` likewise, and its ``game`` a name.
    The rules judge the cards themselves.

    >>> check_fight({"hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]}) is None
    True
    >>> check_fight({"hands": "AH KH QH JH TH"}), check_fight([1, 2])
    ('`hands` must be a list of hands', 'a fight is a mapping with `hands:`')
    """
    if not isinstance(item, Mapping):
        return "a fight is a mapping with `hands:`"
    if "hands" not in item:
        return "a fight is a mapping with `hands:`"
    hands = item["hands"]
    if not isinstance(hands, list):
        return "`hands` must be a list of hands"
    if not 2 <= len(hands) <= 10:
        return f"a fight takes 2 to 10 hands, not {len(hands)}"
    for number, hand in enumerate(hands, 1):
        problem = _cards_problem(hand)
        if problem:
            return f"hand {number}: {problem}"
    if "board" in item:
        problem = _cards_problem(item["board"])
        if problem:
            return f"board: {problem}"
    if "game" in item:
        if "board" not in item:
            return "`game` is for a showdown: give its `board` too"
        if not isinstance(item["game"], str) or not item["game"].isidentifier() or len(item["game"]) > 64:
            return "`game` must be a game's name, such as holdem or omaha"
    return None
