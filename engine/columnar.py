"""JSON Lines batches of two-hand fights judged in blocks, off the five-card table (issue 35).

``poker judge`` of a JSON Lines file reads it here in blocks of about 4 MB.  Each block is decoded
at once by msgspec into fights of a fixed shape (``hands``, an optional ``id``); the hands' text
becomes card ids by one array lookup per token, the fights become table indexes, values and
ranks by array operations, and the results are written a block at a time.  Only where the judge
reads fights off the table at all (engine.policy's "fights" path, asked through
:attr:`engine.tabled.Tabled.fights`; never with ``--plain`` or ``--no-table``) and only for the rows it vouches for: a line of one JSON object with the keys
``hands`` and ``id`` each once (no escape, no other key), two hands each written ``"AH KH QH JH TH"``
(five tokens the notation reads as one card each, one space between), ten different cards of the
table's deck, an id that is absent, null, a string without control characters or an integer of
64 bits.  Every other row (a showdown, a bad card, a shared card, a duplicate or unknown key, a
syntax error, a blank line) goes, in its place, through the reader and the judge of every other
batch (:func:`engine.batch.json_line`, :class:`engine.judge.Judge`), so the output is the same,
byte for byte, and N fights in give N results out, in order.  Each vouched result's line is the
one :func:`engine.batch.dumps` writes for the :class:`engine.judge.Result` the judge makes of the
table's verdict, made once per (result, rank, rank) and completed with the fight's id.
"""

from __future__ import annotations

import operator
from typing import IO, Any, Callable, Iterator

import msgspec
import numpy as np

from .batch import BLANK, MAX_ITEM_CHARS, BatchError, Block, dumps, json_line
from .judge import Judge, Result
from .limits import collector_paused

READ = 1 << 22              # bytes read at a time: a block of about 60,000 fights
WIDTH = 14                  # "AH KH QH JH TH": five two-character tokens, one space between
_SPACES = [2, 5, 8, 11, 16, 19, 22, 25]                     # in a row of two hands, 28 characters
_FIRST = [0, 3, 6, 9, 12, 14, 17, 20, 23, 26]               # each token's first character
_SECOND = [c + 1 for c in _FIRST]
_ID_LIMIT = 1 << 63


class _Fight(msgspec.Struct, forbid_unknown_fields=True):
    """The fights this path vouches for: ``hands`` and an optional ``id`` (msgspec checks the
    types; a row of any other shape is left to the judge)."""
    hands: list[str]
    id: int | str | None = msgspec.UNSET


_ONE = msgspec.json.Decoder(_Fight)
_MANY = msgspec.json.Decoder(list[_Fight])


def usable(judge: Judge) -> bool:
    """Whether this path may judge fights for ``judge`` now: it reads fights off the table
    (engine.policy's "fights" path, asked by Tabled.fights).  A split pot's low half
    (engine.hilo.with_low) is a showdown's only, never a fight's."""
    return judge.chosen is None and judge.fast is not None and judge.fast.fights


def judge_lines(judge: Judge, stream: IO[bytes], name: str,
                progress: Callable[[int], None] | None = None) -> Iterator[Result | Block]:
    """The results of a JSON Lines batch (a binary stream, as engine.batch.open_batch gives it),
    in order: Result objects for the rows the judge judged one by one, Blocks of lines for the
    rows read off the table here."""
    columns = _Columns(judge, name)
    seen = 0
    with collector_paused():               # as Judge.judge: millions of objects, no cycles
        for number, lines in _blocks(stream, name):
            seen += len(lines)
            if judge.fast is None:
                judge._look(seen)          # the judge's own rule for when to turn to the table
            yield from columns.block(number, lines)
            if progress is not None:
                progress(len(lines))


def _blocks(stream: IO[bytes], name: str) -> Iterator[tuple[int, list[bytes]]]:
    """(number of the first line, lines with their line break) a block at a time, as the text
    reader of engine.batch would read them: a byte-order mark at the start dropped, ``\\r\\n``
    and ``\\r`` read as line breaks; a line far longer than a line may be stops the batch."""
    carry, number, first, eof = b"", 1, True, False
    while not eof:
        try:
            chunk = stream.read(READ)
        except OSError as exc:
            raise BatchError(f"{name}: cannot read: {exc.strerror or exc}") from None
        eof = not chunk
        data = carry + chunk
        if first:
            first = False
            if data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
        hold = b""
        if not eof and data.endswith(b"\r"):          # maybe half of \r\n: read with the next
            data, hold = data[:-1], b"\r"
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        cut = len(data) if eof else data.rfind(b"\n") + 1
        block, carry = data[:cut], data[cut:] + hold
        if len(carry) > 4 * MAX_ITEM_CHARS + 4:       # UTF-8: four bytes a character at most
            at = number + block.count(b"\n")
            raise BatchError(f"{name}:{at}: the line is too long "
                             f"(more than {MAX_ITEM_CHARS} characters)")
        if block:
            lines = _lines(block)
            yield number, lines
            number += len(lines)


def _lines(block: bytes) -> list[bytes]:
    """The lines of a block, each with its ``\\n`` (the last one without, at the end of a file
    that has none)."""
    parts = block.split(b"\n")
    last = parts.pop()
    out = [p + b"\n" for p in parts]
    if last:
        out.append(last)
    return out


class _Columns:
    """The blocks of one batch: the table's answers turned into lines, the rest to the judge."""

    def __init__(self, judge: Judge, name: str):
        self.judge, self.name = judge, name
        self.index = 0                      # fights so far (blank lines are none)
        self.tails: dict[int, str] = {}     # (result, rank, rank) code -> the line after the id
        self._lut: np.ndarray | None = None
        self._span: tuple[int, int] | None = None   # the table's lowest rank, and how many ranks

    def lut(self) -> np.ndarray:
        """Card id of each two-character token (its two bytes as one 16-bit number) that the
        notation reads as one card; -1 elsewhere (such rows are left to the judge)."""
        if self._lut is None:
            lut = np.full(1 << 16, -1, dtype=np.int64)
            single = self.judge.engine.notation._single()
            for token, card in single.items():
                raw = token.encode("utf-8", "replace")
                if len(token) == 2 and len(raw) == 2 and token.isascii() and " " not in token \
                        and self.judge.engine.notation.quick(token) == (card,) and 0 <= card < (1 << 62):
                    lut[raw[0] << 8 | raw[1]] = card
            self._lut = lut
        return self._lut

    def block(self, number: int, lines: list[bytes]) -> Iterator[Result | Block]:
        fast = usable(self.judge)
        full = [j for j, line in enumerate(lines) if line.strip()]
        fights: dict[int, str] = {}          # line in the block -> the result's line
        if fast and full:
            fights = self._read(lines, full)
        if len(fights) == len(lines):        # every line a fight read off the table
            out = Block(self._ids(lines, range(len(lines)), fights))
            self.index += len(out)
            yield out
            return
        # Mixed: in order, the table's lines and the judge's results.
        order: list[Any] = []                # a line, or None: the judge's next result
        pending: list[tuple[int, Any]] = []
        for j, line in enumerate(lines):
            if j in fights:
                order.append(self._ids(lines, (j,), fights)[0])
                self.index += 1
                continue
            item = json_line(line, self.name, number + j)
            if item is BLANK:
                continue
            pending.append((self.index, item))
            order.append(None)
            self.index += 1
        results = self.judge.judge(pending, indexed=True) if pending else iter(())
        done: Block = Block()
        for entry in order:
            if entry is None:
                if done:
                    yield done
                    done = Block()
                yield next(results)
            else:
                done.append(entry)
        if done:
            yield done
        for _ in results:                    # pragma: no cover - the judge gives N for N
            raise AssertionError("the judge gave more results than fights")

    def _ids(self, lines: list[bytes], rows: Any, fights: dict[int, str]) -> list[str]:
        """Each row's line: its id (the fight's, else its number in the batch) and its result."""
        out = []
        index = self.index
        for j in rows:
            ident, tail = fights[j]
            if ident is msgspec.UNSET:
                ident = index + 1
            out.append('{"id": ' + (str(ident) if type(ident) is int else dumps(ident)) + tail)
            index += 1
        return out

    def _read(self, lines: list[bytes], full: list[int]) -> dict[int, Any]:
        """The rows of the block this path vouches for: line -> (id, the line after the id)."""
        blob = b"".join(lines[j] for j in full) if len(full) != len(lines) else b"".join(lines)
        decoded: list[tuple[int, _Fight]] = []
        try:
            if b"\\" in blob:
                raise ValueError("escapes: line by line")
            many = _MANY.decode(b"[" + b",".join(lines[j] for j in full) + b"]")
            ids = sum(f.id is not msgspec.UNSET for f in many)
            if blob.count(b'"hands"') != len(many) or blob.count(b'"id"') != ids:
                raise ValueError("a key written twice, or in a value: line by line")
            decoded = list(zip(full, many))
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError, UnicodeDecodeError):
            for j in full:
                line = lines[j]
                if b"\\" in line or len(line) > MAX_ITEM_CHARS:
                    continue
                try:
                    f = _ONE.decode(line)
                except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
                    continue
                if line.count(b'"hands"') == 1 and line.count(b'"id"') == (f.id is not msgspec.UNSET):
                    decoded.append((j, f))
        if any(len(lines[j]) > MAX_ITEM_CHARS for j, _ in decoded):
            decoded = [(j, f) for j, f in decoded if len(lines[j]) <= MAX_ITEM_CHARS]
        return self._judged(decoded)

    def _judged(self, decoded: list[tuple[int, _Fight]]) -> dict[int, Any]:
        """The decoded rows the table answers, each with its id and the line after its id."""
        rows = [(j, f) for j, f in decoded if len(f.hands) == 2 and _good_id(f.id)]
        if not rows:
            return {}
        a = [f.hands[0] for _, f in rows]
        b = [f.hands[1] for _, f in rows]
        text = "".join(map(operator.add, a, b))
        if len(text) != 2 * WIDTH * len(rows) or not text.isascii():
            keep = [k for k in range(len(rows)) if len(a[k]) == WIDTH == len(b[k])
                    and a[k].isascii() and b[k].isascii()]
            rows = [rows[k] for k in keep]
            text = "".join(a[k] + b[k] for k in keep)
            if not rows:
                return {}
        chars = np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(len(rows), 2 * WIDTH)
        ok = (chars[:, _SPACES] == 32).all(axis=1)
        codes = chars[:, _FIRST].astype(np.int64) << 8 | chars[:, _SECOND]
        ids = self.lut()[codes]
        ok &= (ids >= 0).all(axis=1)
        ids[~ok] = 0
        fine, results, ra, rb = self.judge.fast.two_arrays(ids)
        ok &= fine
        if self._span is None:                # every rank of the table, so that codes hold across blocks
            ranks = self.judge.fast.table.ranks
            self._span = (int(ranks.min()), int(ranks.max()) - int(ranks.min()) + 1)
        low, span = self._span
        code = (results.astype(np.int64) * span + (ra.astype(np.int64) - low)) * span + (rb.astype(np.int64) - low)
        kinds, inverse = np.unique(np.where(ok, code, -1), return_inverse=True)
        tails = np.array([self._tail(int(k), span, low) if k >= 0 else "" for k in kinds.tolist()], dtype=object)
        out: dict[int, Any] = {}
        for (j, f), good, tail in zip(rows, ok.tolist(), tails[inverse.ravel()].tolist()):
            if good:
                out[j] = (f.id, tail)
        return out

    def _tail(self, code: int, span: int, low: int) -> str:
        """The line of a result after its id, as the judge writes the table's verdict."""
        tail = self.tails.get(code)
        if tail is None:
            rest, b = divmod(code, span)
            r, a = divmod(rest, span)
            verdict = self.judge.fast.verdict(r, a + low, b + low)
            line = dumps(self.judge._result(0, verdict).as_dict())
            if not line.startswith('{"id": 0, '):         # pragma: no cover - as_dict puts the id first
                raise AssertionError(line)
            tail = self.tails[code] = line[len('{"id": 0'):]
        return tail


def _good_id(ident: Any) -> bool:
    """An id the path writes as the judge would: absent, null, a 64-bit integer, or a string
    without control characters."""
    t = type(ident)
    if t is int:
        return -_ID_LIMIT <= ident < _ID_LIMIT
    if t is str:
        return ident.isprintable()
    return ident is None or ident is msgspec.UNSET
