"""Batch results written: one line of JSON a result, in YAML, JSON or JSON Lines, as they come.

Every result is valid JSON whatever its ``id`` holds (:func:`engine.io.fights.json_safe`), UTF-8
encodable, and free of the characters some readers take for line breaks; the fight files are read
by :mod:`engine.io.fights`.

>>> import io, json
>>> out = io.StringIO()
>>> write_results(out, [{"id": float("nan"), "result": 1}], "json")
1
>>> json.loads(out.getvalue())
{'results': [{'id': 'nan', 'result': 1}]}
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from typing import IO, Any, Callable, Iterable

from engine.io.fights import OUTPUT_FORMATS, json_safe

__all__ = ["write_results", "to_yaml", "dumps", "safe_line", "Dumped", "Block"]

# Characters YAML may not carry raw in a double-quoted scalar (non-printable, or read as a line break):
# compiled when a text first needs it (4.5 ms, on every command, for texts that are nearly all ASCII).
_NOT_RAW_IN_YAML = "[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"


def _yaml_safe(text: str) -> str:
    return re.sub(_NOT_RAW_IN_YAML, lambda m: f"\\u{ord(m.group(0)):04x}", text)


def _no_default(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON")


def _encoder() -> Callable[[Any], str]:
    """json.dumps(ensure_ascii=False, allow_nan=False) made once: json.dumps and JSONEncoder.encode
    make a new C encoder per call, which was a fifth of the cost of writing a result."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:                                                    # pragma: no cover
        return json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
    c = make(None, _no_default, json.encoder.encode_basestring, None, ": ", ", ", False, False, False)
    return lambda item: "".join(c(item, 0))


_encode = _encoder()


class Dumped(str):
    """A result already written as :func:`dumps` writes it (by a worker process of a batch, so
    that what crosses back is text, not objects to pickle): :func:`write_results` writes it as it is."""

    __slots__ = ()


def dumps(item: Any) -> str:
    """One result as one line of JSON, as :func:`write_results` writes it (a Dumped as it is)."""
    return item if isinstance(item, Dumped) else _dumps(item)


def _dumps(item: Any) -> str:
    """One result as one line of JSON: always valid (ids made JSON-safe), UTF-8 encodable, and
    with the characters that some readers take for line breaks (U+2028, U+0085 …) escaped."""
    try:
        text = _encode(item)
    except (ValueError, TypeError):
        text = _encode(json_safe(item))
    return safe_line(text)


def safe_line(text: str) -> str:
    """A line of JSON with the characters that some readers take for line breaks (U+2028, U+0085
    …) and DEL escaped (\\uXXXX, an escape JSON and YAML both read)."""
    if not text.isascii() or "\x7f" in text:   # DEL is ASCII, and not printable in YAML
        text = _yaml_safe(text)
    return text


def write_results(stream: IO[str], results: Iterable[Mapping[str, Any]], fmt: str) -> int:
    """Write results to a text stream as they come; return how many were written.

    * ``yaml``: ``results:`` and one JSON flow mapping per line (YAML reads JSON as it is; this is
      ten times faster than PyYAML's emitter, and a reader gets the same data back);
    * ``json``: ``{"results": [...]}``, one result per line;
    * ``jsonl``: one result object per line.

    An item may be a :class:`Block` of results written already.  Every result is valid JSON whatever its ``id`` holds (:func:`json_safe`).
    """
    if fmt not in OUTPUT_FORMATS:
        raise ValueError(f"unknown output format {fmt!r} (one of {', '.join(OUTPUT_FORMATS)})")
    write = stream.write
    count = 0
    if fmt == "yaml":
        for item in results:
            if type(item) is Block:
                if item:
                    write(("results:\n- " if count == 0 else "- ") + "\n- ".join(item) + "\n")
                    count += len(item)
                continue
            write(("results:\n- " if count == 0 else "- ") + dumps(item) + "\n")
            count += 1
        if count == 0:
            write("results: []\n")
    elif fmt == "json":
        write('{"results": [')
        for item in results:
            if type(item) is Block:
                if item:
                    write(("\n" if count == 0 else ",\n") + ",\n".join(item))
                    count += len(item)
                continue
            write(("\n" if count == 0 else ",\n") + dumps(item))
            count += 1
        write("\n]}\n" if count else "]}\n")
    else:
        for item in results:
            if type(item) is Block:
                if item:
                    write("\n".join(item) + "\n")
                    count += len(item)
                continue
            write(dumps(item) + "\n")
            count += 1
    return count


class Block(list):
    """Results already written as :func:`dumps` writes them, one line of JSON each, many at once
    (the columnar path of engine.judge.columnar): :func:`write_results` writes them joined, as it would
    write them one by one."""

    __slots__ = ()


def to_yaml(payload: Mapping[str, Iterable[Mapping[str, Any]]]) -> str:
    """A whole payload (``{"results": [...]}``) as :func:`write_results` writes YAML."""
    out = io.StringIO()
    for key, items in payload.items():
        start = out.tell()
        write_results(out, items, "yaml")
        if key != "results":                    # the same layout under another key
            text = out.getvalue()[start:]
            out.seek(start)
            out.truncate()
            out.write(key + text[len("results"):])
    return out.getvalue()
