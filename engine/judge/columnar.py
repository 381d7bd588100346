"""JSON Lines batches of fights and showdowns judged in blocks, off the five-card table (issue 35).

``poker judge`` of a JSON Lines file reads it here in blocks of about 4 MB.  Each block is decoded
at once by msgspec into fights of a fixed shape (``hands``, an optional ``id``); the hands' text
becomes card ids by one array lookup per token, the fights become table indexes, values and
ranks by array operations, and the results are written a block at a time.  Only where the judge
reads fights off the table at all (engine.policy's "fights" path, asked through
:attr:`engine.tabled.Tabled.fights`; never with ``--plain`` or ``--no-table``) and only for the rows it vouches for: a line of one JSON object with the keys
``hands`` and ``id`` each once (no escape, no other key), two hands each written ``"AH KH QH JH TH"``
(five tokens the notation reads as one card each, one space between), ten different cards of the
table's deck, an id that is absent, null, a string without control characters or an integer of
64 bits.  A showdown (a ``board``, maybe a ``game``) is read likewise where the judge reads
showdowns off the table (engine.policy's "showdowns" path, :attr:`engine.judging.tabled.Tabled.showdowns`),
by shape, as arrays (:meth:`_Columns._showdowns` says which rows it vouches for).  Every other row
(a bad card, a shared card, a split pot, a game without a board, a duplicate or unknown key, a
syntax error, a blank line) goes, in its place, through the reader and the judge of every other
batch (:func:`engine.batch.json_line`, :class:`engine.judge.Judge`), so the output is the same,
byte for byte, and N fights in give N results out, in order.  Each vouched result's line is the
one :func:`engine.batch.dumps` writes for the :class:`engine.judge.Result` the judge makes of the
table's verdict, made once per (result, rank, rank) and completed with the fight's id.
"""

from __future__ import annotations

import itertools
import operator
import re
from typing import IO, Any, Callable, Iterator

import msgspec
import numpy as np

from engine.core import MAX_SHOWDOWN_CARDS
from engine.io.fights import (
    BLANK,
    MAX_ITEM_CHARS,
    BatchError,
    json_line,
    read_fights,
)
from engine.io.results import Block, dumps
from engine.judge import GAME, MAX_HANDS, MIN_HANDS, Judge, Result
from engine.judging.hilo import split_games
from engine.limits import collector_paused
from engine.poker import sevens
from engine.poker.notation import InvalidCards

READ = 1 << 22              # bytes read at a time: a block of about 60,000 fights
WIDTH = 14                  # "AH KH QH JH TH": five two-character tokens, one space between
_SPACES = [2, 5, 8, 11, 16, 19, 22, 25]                     # in a row of two hands, 28 characters
_FIRST = [0, 3, 6, 9, 12, 14, 17, 20, 23, 26]               # each token's first character
_SECOND = [c + 1 for c in _FIRST]
_ID_LIMIT = 1 << 63


class _Fight(msgspec.Struct, forbid_unknown_fields=True):
    """The rows this path vouches for: ``hands`` and an optional ``id``, and a showdown's
    ``board`` and ``game`` (msgspec checks the types; a row of any other shape is left to the
    judge)."""
    hands: list[str]
    id: int | str | None = msgspec.UNSET
    board: str = msgspec.UNSET        # type: ignore[assignment]
    game: str = msgspec.UNSET         # type: ignore[assignment]


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


_YAML_HEAD = b"fights:\n"
# A fight as bench/bench_million.py writes YAML: an integer id (no leading zero: 0123 is octal to
# YAML 1.1), two single-quoted hands of printable ASCII without a quote (read as written).
_YAML_ROW = re.compile(rb"^((?:  )?- )\{id: (0|[1-9][0-9]{0,17}), hands: \['([ -&(-~]{14})', '([ -&(-~]{14})'\]\}\n",
                       re.MULTILINE)


def judge_yaml(judge: Judge, path: str, progress: Callable[[int], None] | None = None) -> Iterator[Result | Block]:
    """The results of a YAML batch file, in order.  While the file is ``fights:`` and then only
    lines ``- {id: N, hands: ['…', '…']}`` (one indentation), which YAML reads as nothing else
    than those fights, it is read in blocks as JSON Lines are; at the first line of any other
    kind (or the end of a file without a line break, or a judge that does not read the table)
    the file is read again from its start by the YAML reader of every batch, the fights judged
    so far skipped: the same results, and the same one-line error, as today's path."""
    columns = _Columns(judge, path)
    done, clean, lead = 0, False, None
    with open(path, "rb") as f, collector_paused():
        if f.read(len(_YAML_HEAD)) == _YAML_HEAD:
            carry = b""
            while True:
                chunk = f.read(READ)
                if not chunk:
                    clean = not carry and done > 0
                    break
                data = carry + chunk
                cut = data.rfind(b"\n") + 1
                block, carry = data[:cut], data[cut:]
                if len(carry) > 4 * MAX_ITEM_CHARS:
                    break
                rows = _YAML_ROW.findall(block)
                leads = {r[0] for r in rows} | ({lead} if lead is not None else set())
                if not rows or len(rows) != block.count(b"\n") or len(leads) != 1:
                    break
                lead = rows[0][0]
                if judge.fast is None:
                    judge._look(done + len(rows))
                if not usable(judge):
                    break
                yield from columns.yaml_block(rows)
                done += len(rows)
                if progress is not None:
                    progress(len(rows))
    if clean:
        return
    items = read_fights(path, "yaml")
    rest = ((done + k, item) for k, item in enumerate(itertools.islice(items, done, None)))
    yield from judge.judge(rest, progress=progress, indexed=True)


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
        self._lut: np.ndarray | None = None
        self._span: tuple[int, int] | None = None   # the table's lowest rank, and how many ranks
        self._made: np.ndarray | None = None        # code -> the line after the id (see _tail)
        self._shapes: dict[tuple, Any] = {}         # a showdown's game and lengths as written -> its shape
        self._made_pieces: dict[int, Any] = {}      # players -> the parts of a showdown's line (_pieces)
        self._rank_low = -1
        self._tokens: tuple[np.ndarray, np.ndarray | None] | None = None

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
        """A block of JSON Lines: the lines read off the table, the others as the reader reads them."""
        found: tuple[list[int], list[Any], list[str]] = ([], [], [])
        if self.judge.chosen is None and self.judge.fast is not None:
            found = self._read(lines)
        yield from self._merge(len(lines), found, lambda j: json_line(lines[j], self.name, number + j))

    def yaml_block(self, rows: list[tuple[bytes, ...]]) -> Iterator[Result | Block]:
        """A block of fights of a YAML file whose every line is ``- {id: N, hands: ['…', '…']}``
        (judge_yaml): those the table answers, the others as the YAML reader reads them."""
        ids = list(map(int, (r[1] for r in rows)))
        hands = [[r[2].decode("ascii"), r[3].decode("ascii")] for r in rows]
        found = self._judged(list(range(len(rows))), hands, ids)
        yield from self._merge(len(rows), found, lambda j: {"id": ids[j], "hands": hands[j]})

    def _merge(self, size: int, found: tuple[list[int], list[Any], list[str]],
               item: Callable[[int], Any]) -> Iterator[Result | Block]:
        """The results of a block of ``size`` rows in order: the lines of the rows ``found`` read
        off the table (rows, ids, lines after the id), the judge's results for every other row
        (``item(j)``: the row as its reader reads it, or BLANK)."""
        rows, ids, tails = found
        if rows:
            self.judge.used["five-card table"] = None
        if len(rows) == size:                # every row a fight read off the table
            texts = self._texts(ids, self.index)
            self.index += size
            yield Block(map('{{"id": {}{}'.format, texts, tails))
            return
        vouched = dict(zip(rows, zip(ids, tails)))
        order: list[Any] = []                # a line, or None: the judge's next result
        pending: list[tuple[int, Any]] = []
        for j in range(size):
            if j in vouched:
                ident, tail = vouched[j]
                order.append('{"id": ' + self._texts([ident], self.index)[0] + tail)
                self.index += 1
                continue
            fight = item(j)
            if fight is BLANK:
                continue
            pending.append((self.index, fight))
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

    @staticmethod
    def _texts(ids: list[Any], index: int) -> list[str]:
        """Each id as the judge writes it: the fight's, else its number in the batch (``index``:
        the fights before the first)."""
        if set(map(type, ids)) == {int}:
            return list(map(str, ids))
        return [str(index + k + 1) if ident is msgspec.UNSET else str(ident) if type(ident) is int
                else dumps(ident) for k, ident in enumerate(ids)]

    def _read(self, lines: list[bytes]) -> tuple[list[int], list[Any], list[str]]:
        """The rows of the block this path vouches for: their lines, ids and result lines after
        the id.  Showdowns laid out as json.dumps writes them are read by :meth:`_canonical`
        without decoding; the other lines are decoded (:meth:`_decode`)."""
        blob = b"".join(lines)
        fast = self.judge.fast
        if b'"board"' not in blob or fast is None or not fast.showdowns:
            return self._decode(lines, blob)
        rows, ids, tails = self._canonical(blob, lines)
        if len(rows) == len(lines):
            return rows, ids, tails
        taken = set(rows)
        rest = [j for j in range(len(lines)) if j not in taken]
        part = [lines[j] for j in rest]
        others = self._decode(part, b"".join(part))
        return _in_order((rows, ids, tails), ([rest[j] for j in others[0]], others[1], others[2]))

    def _decode(self, lines: list[bytes], blob: bytes) -> tuple[list[int], list[Any], list[str]]:
        """The rows of these lines this path vouches for, decoded by msgspec: their places,
        ids and result lines after the id.  The lines are decoded at once; where that fails (a
        blank line, a row of another shape), line by line."""
        try:
            if b"\\" in blob:
                raise ValueError("escapes: line by line")
            many = _MANY.decode(b"[" + b",".join(lines) + b"]")
            fields = _fields(many)
            n = len(many)
            if n != len(lines) or blob.count(b'"hands"') != n or any(
                    blob.count(b'"' + key.encode() + b'"') != n - column.count(msgspec.UNSET)
                    for key, column in zip(("id", "board", "game"), (fields[0], fields[2], fields[3]))):
                raise ValueError("a key written twice, or in a value: line by line")
            js = list(range(len(lines)))
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError, UnicodeDecodeError):
            js, many = [], []
            for j, line in enumerate(lines):
                if b"\\" in line or len(line) > MAX_ITEM_CHARS or not line.strip():
                    continue
                try:
                    f = _ONE.decode(line)
                except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
                    continue
                if line.count(b'"hands"') == 1 and all(
                        line.count(b'"' + key.encode() + b'"') == (getattr(f, key) is not msgspec.UNSET)
                        for key in ("id", "board", "game")):
                    js.append(j)
                    many.append(f)
            fields = _fields(many)
        if js and max(map(len, lines)) > MAX_ITEM_CHARS:
            keep = [k for k, j in enumerate(js) if len(lines[j]) <= MAX_ITEM_CHARS]
            js, many = [js[k] for k in keep], [many[k] for k in keep]
            fields = _fields(many)
        ids, hands, boards, games = fields
        if b'"board"' not in blob and b'"game"' not in blob:          # no showdown in the block
            return self._judged(js, hands, ids)
        if msgspec.UNSET not in boards:                               # every row a showdown
            return self._showdowns(js, ids, hands, boards, games if b'"game"' in blob else None)
        plain = [k for k, f in enumerate(many) if f.board is msgspec.UNSET and f.game is msgspec.UNSET]
        if len(plain) == len(many):
            return self._judged(js, hands, ids)
        found = self._judged([js[k] for k in plain], [hands[k] for k in plain], [ids[k] for k in plain])
        shown = [k for k, b in enumerate(boards) if b is not msgspec.UNSET]
        shows = self._showdowns([js[k] for k in shown], [ids[k] for k in shown], [hands[k] for k in shown],
                                [boards[k] for k in shown], [games[k] for k in shown])
        return _in_order(found, shows)

    def _showdowns(self, js: list[int], ids: list[Any], hands: list[list[str]], boards: list[str],
                   games: list[Any] | None) -> tuple[list[int], list[Any], list[str]]:
        """Of the decoded showdowns (their places, ids, hands, boards and games; None: no row
        names one), in order, those the table answers (engine.policy's "showdowns" path:
        Tabled.showdowns) and this path vouches for: 2 to 10 hands of one length and a board,
        each written as two-character tokens the notation reads as one card, one space between,
        in ASCII; an id as :func:`_good_id` says; a game the rules know, whose pot is not split
        and which has a board; a shape the rules find valid (Tabled._shape); all different cards
        of the deck.  Each row is its hands and board joined by NUL (no JSON string holds one
        unescaped: a row holding any other than the joins is the judge's), grouped by shape with
        array operations, read as arrays (Tabled.showdown_arrays) and written as the judge
        writes the table's verdict.  Their places, ids and result lines after the id."""
        fast = self.judge.fast
        if not js or fast is None or not fast.showdowns:
            return [], [], []
        n = len(js)
        text = list(map(operator.add, map("\0".join, hands), map("\0".__add__, boards)))
        count = np.fromiter(map(len, hands), dtype=np.int64, count=n)
        board = np.fromiter(map(len, boards), dtype=np.int64, count=n)
        good = (count >= MIN_HANDS) & (count <= MAX_HANDS)
        blob = "".join(text)
        if not blob.isascii():                      # rows with other characters: the judge's
            ascii_ = np.fromiter(map(str.isascii, text), dtype=bool, count=n)
            good &= ascii_
            text = [t if a else "" for t, a in zip(text, ascii_.tolist())]
            blob = "".join(text)
        types = set(map(type, ids))
        if not (types == {int} and -_ID_LIMIT <= min(ids) and max(ids) < _ID_LIMIT or types <= {type(msgspec.UNSET)}):
            good &= np.fromiter(map(_good_id, ids), dtype=bool, count=n)
        size = np.fromiter(map(len, text), dtype=np.int64, count=n)
        names: dict[Any, int] = {msgspec.UNSET: 0}
        game = np.zeros(n, dtype=np.int64) if games is None else \
            np.fromiter((names.setdefault(g, len(names)) for g in games), dtype=np.int64, count=n)
        tails, done = self._by_shape(np.frombuffer(blob.encode("ascii"), dtype=np.uint8), size, count, board,
                                     good, game, {code: name for name, code in names.items()})
        if done.all():
            return js, ids, tails.tolist()
        vouched = np.flatnonzero(done).tolist()
        return [js[i] for i in vouched], [ids[i] for i in vouched], tails[vouched].tolist()

    def _by_shape(self, data: np.ndarray, size: np.ndarray, count: np.ndarray, board: np.ndarray,
                  good: np.ndarray, game: np.ndarray, named: dict[int, Any]) -> tuple[np.ndarray, np.ndarray]:
        """Showdowns as rows of bytes one after another in ``data`` (each its hands and board
        joined by NUL, ``size`` bytes; ``count`` hands, a board of ``board`` bytes, ``good``: worth
        reading, ``game``: its game's number in ``named``, UNSET for none): each row's result line
        after the id (an object array) and whether it was read off the table."""
        n = len(size)
        tails = np.full(n, None, dtype=object)
        done = np.zeros(n, dtype=bool)
        start = np.cumsum(size) - size
        hand, rest = np.divmod(size - board, np.maximum(count, 1))       # a hand and its join
        good = good & (rest == 0) & (hand >= 1) & (hand <= 64) & (board < 64)
        key = ((game * 16 + count) * 64 + hand - 1) * 64 + board
        rows = np.flatnonzero(good)
        kinds, which = np.unique(key[rows], return_inverse=True)
        fast = self.judge.fast
        assert fast is not None
        for u, kind in enumerate(kinds.tolist()):
            rest_, b = divmod(kind, 64)
            rest_, width = divmod(rest_, 64)
            g, players = divmod(rest_, 16)
            name = named[g]
            found = self._shape(GAME if name is msgspec.UNSET else name, (width,) * players, b)
            if found is None:
                continue
            shape, first, spaces, joins = found
            mine = rows[which == u]
            chars = _rows(data, start[mine], players * (width + 1) + b)
            ok = (chars[:, spaces] == 32).all(axis=1) & (chars[:, joins] == 0).all(axis=1)
            ok &= np.count_nonzero(chars == 0, axis=1) == players              # no NUL but the joins
            cards = self.lut()[chars[:, first].astype(np.int64) << 8 | chars[:, first + 1]]
            ok &= (cards >= 0).all(axis=1)
            pos, fine = fast._positions(np.where(cards >= 0, cards, 0))
            ok &= fine
            if not ok.any():
                continue
            five, rank, wins = fast.showdown_arrays(shape, pos[ok])
            tails[mine[ok]] = np.asarray(self._lines(shape, cards[ok], five, rank, wins), dtype=object)
            done[mine[ok]] = True
        return tails, done

    def _canonical(self, blob: bytes, lines: list[bytes]) -> tuple[list[int], list[Any], list[str]]:
        """The showdowns among these lines written exactly as json.dumps writes
        ``{"id": N, "hands": ["…", …], "board": "…"}`` (N a non-negative integer of at most 18
        digits; no escape, no other key, one space after each colon and comma), read without
        decoding: the lines are grouped by where their quotes are, each group's fixed bytes
        compared with the one layout those quotes allow, its id's digits read as a number and
        its hands and board joined by NUL as :meth:`_showdowns` joins them (:meth:`_by_shape`).
        Any other line is left to :meth:`_decode`.  Their places, ids and result lines."""
        data = np.frombuffer(blob, dtype=np.uint8)
        length = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
        start = np.cumsum(length) - length
        body = length - (data[start + length - 1] == 10)                 # without its line break
        quotes = np.flatnonzero(data == 34)
        first_quote = np.searchsorted(quotes, start)
        k = (np.searchsorted(quotes, start + body) - first_quote - 8) // 2
        every = (k >= MIN_HANDS) & (k <= MAX_HANDS) & (body <= MAX_ITEM_CHARS) & (body > 0)
        every &= (np.searchsorted(quotes, start + body) - first_quote) % 2 == 0
        places: list[np.ndarray] = []
        numbers: list[np.ndarray] = []
        texts: list[np.ndarray] = []
        sizes: list[np.ndarray] = []
        counts: list[np.ndarray] = []
        boards: list[np.ndarray] = []
        for players in sorted(set(k[every].tolist())):          # (np.unique would import numpy.ma)
            mine = np.flatnonzero(every & (k == players))
            at = quotes[first_quote[mine, None] + np.arange(2 * players + 8)] - start[mine, None]
            hand = at[:, 5:2 * players + 4:2] - at[:, 4:2 * players + 4:2] - 1
            board = at[:, 2 * players + 7] - at[:, 2 * players + 6] - 1
            digits_ = at[:, 2] - 9
            same = (hand.min(axis=1) == hand.max(axis=1)) & (hand[:, 0] > 0) & (hand[:, 0] < 64) \
                & (board > 0) & (board < 64) & (digits_ > 0) & (digits_ <= 18)
            mine, at = mine[same], at[same]                 # hands of one length, as the shapes need
            key = (digits_[same] * 64 + hand[same, 0]) * 64 + board[same]
            kinds, which, firsts = _groups(key)
            for u in range(len(kinds)):
                rows = mine[which == u]
                quoted = at[which == u]
                kind = quoted[0].tolist()
                layout = _layout(kind, int(body[rows[0]]), players)
                if layout is None:
                    continue
                rows = rows[(quoted == quoted[0]).all(axis=1) & (body[rows] == body[rows[0]])]
                template, fixed, digits, content = layout
                chars = _rows(data, start[rows], int(body[rows[0]]))
                id_digits = chars[:, digits]
                ok = (chars[:, fixed] == template).all(axis=1) & ((id_digits >= 48) & (id_digits <= 57)).all(axis=1)
                if len(digits) > 1:
                    ok &= id_digits[:, 0] != 48                                 # no leading zero
                if not ok.any():
                    continue
                rows, chars, id_digits = rows[ok], chars[ok], id_digits[ok]
                joined = np.where(content >= 0, chars[:, np.maximum(content, 0)], 0).astype(np.uint8)
                places.append(rows)
                numbers.append((id_digits.astype(np.int64) - 48) @ (10 ** np.arange(len(digits) - 1, -1, -1)))
                texts.append(joined.reshape(-1))
                sizes.append(np.full(len(rows), joined.shape[1]))
                counts.append(np.full(len(rows), players))
                boards.append(np.full(len(rows), kind[2 * players + 7] - kind[2 * players + 6] - 1))
        if not places:
            return [], [], []
        rows = np.concatenate(places)
        tails, done = self._by_shape(np.concatenate(texts), np.concatenate(sizes), np.concatenate(counts),
                                     np.concatenate(boards), np.ones(len(rows), dtype=bool),
                                     np.zeros(len(rows), dtype=np.int64), {0: msgspec.UNSET})
        order = np.argsort(rows[done], kind="stable")
        return (rows[done][order].tolist(), np.concatenate(numbers)[done][order].tolist(),
                tails[done][order].tolist())

    def _shape(self, game: str, sizes: tuple[int, ...], board: int) -> tuple[tuple, np.ndarray, np.ndarray, np.ndarray] | None:
        """A showdown shape this path reads (the game's code, each hand's cards, the board's),
        with the characters of its rows (hands and board joined by NUL) where a token starts,
        where a space must be and where a join, from the lengths of its hands and board as
        written; None where it does not vouch for the shape: an unknown game, a split pot (its
        low half is another rule set's), a game without a board, a hand or a board not of whole
        tokens, too many cards, a shape the rules find invalid."""
        key = (game, sizes, board)
        if key in self._shapes:
            return self._shapes[key]
        self._shapes[key] = None
        engine = self.judge.engine
        try:
            code = engine._game(game)[0]
        except InvalidCards:
            return None
        if code in split_games(engine) or code in engine.boardless:
            return None
        lengths = sizes + (board,)
        if any(n < 2 or (n + 1) % 3 for n in lengths):
            return None
        cards = [(n + 1) // 3 for n in lengths]
        if max(cards[:-1]) + cards[-1] > MAX_SHOWDOWN_CARDS:
            return None
        shape = (code, tuple(cards[:-1]), cards[-1])
        assert self.judge.fast is not None
        if self.judge.fast._shape(shape) is None:
            return None
        offsets = np.cumsum([0] + [n + 1 for n in lengths])
        first = np.array([o + 3 * i for o, c in zip(offsets, cards) for i in range(c)], dtype=np.int64)
        spaces = np.array([o + 3 * i + 2 for o, c in zip(offsets, cards) for i in range(c - 1)], dtype=np.int64)
        joins = offsets[1:-1] - 1
        self._shapes[key] = (shape, first, spaces, joins)
        return self._shapes[key]

    def _lines(self, shape: tuple, ids: np.ndarray, five: np.ndarray, rank: np.ndarray,
               wins: np.ndarray) -> list[str]:
        """The result lines after the id of showdowns of one shape read off the table (rows of
        card ids: the hands, then the board; each player's five, rank and whether it wins), as
        the judge writes them (Judge._result, dumps): each part of a line made once (a rank's
        category, a set of winners) and each player's five from its cards' tokens."""
        holes = shape[1]
        m, k = rank.shape
        pieces = self._pieces(k)
        code = (wins.astype(np.int64) << np.arange(k)).sum(axis=1)
        columns = [pieces[0][code].tolist()]
        low = self._rank_low
        for p in range(k):
            columns.append(pieces[1][p][rank[:, p] - low].tolist())
        for p in range(k):
            columns.append(pieces[2][p][rank[:, p] - low].tolist())
        columns.append(self._best(holes, ids, five))
        return list(map("".join, zip(*columns)))

    def _pieces(self, k: int) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
        """For showdowns of k players, the parts of a result line as the judge writes them:
        by the set of winners (bit p: player p wins), ``, "result": …, "winners": […], "ranks": [``;
        by player and rank (-1: no five), the rank and the category."""
        found = self._made_pieces.get(k)
        if found is None:
            assert self.judge.fast is not None
            ranks = self.judge.fast.table.ranks
            low = self._rank_low = min(int(ranks.min()), -1)
            span = range(low, max(int(ranks.max()), -1) + 1)
            winners = np.empty(1 << k, dtype=object)
            for code in range(1 << k):
                won = [p for p in range(k) if code >> p & 1]
                result = won[0] + 1 if len(won) == 1 else 0
                winners[code] = f', "result": {result}, "winners": {dumps(won)}, "ranks": ['
            names = self.judge.engine.categories
            rank_parts, category_parts = [], []
            for p in range(k):
                rank_parts.append(np.array([("" if p == 0 else ", ") + dumps(None if r == -1 else r) for r in span],
                                           dtype=object))
                category_parts.append(np.array([('], "categories": [' if p == 0 else ", ") + dumps(names.get(r))
                                                for r in span], dtype=object))
            found = self._made_pieces[k] = (winners, rank_parts, category_parts)
        return found

    def _best(self, holes: tuple[int, ...], ids: np.ndarray, five: np.ndarray) -> list[str]:
        """The ``"best"`` part of each row's line: each player's five (its place in the
        combinations of hand + board; -1: none) as the notation writes those cards (dumps), in
        the order of hand + board (every hand of one size, as :meth:`_by_shape` groups them).
        Where every card's token is as wide and plain ASCII, the parts are laid out as bytes."""
        text, plain = self.tokens()
        m, k = five.shape
        starts = np.cumsum((0,) + holes)
        board = list(range(starts[k], ids.shape[1]))
        mine = ids[:, [list(range(starts[p], starts[p + 1])) + board for p in range(k)]]   # (hands of one size)
        combos = sevens.subsets(mine.shape[2])[0]
        cards = np.take_along_axis(mine, combos[np.maximum(five, 0)], axis=2)
        head, tail = '], "best": [', "]}"
        if plain is not None and (five >= 0).all():
            width = plain.shape[1]
            line = np.empty((m, len(head) + k * (5 * width + 8) + 1), dtype=np.uint8)
            line[:, :len(head)] = np.frombuffer(head.encode("ascii"), dtype=np.uint8)
            row = line[:, len(head):-1].reshape(m, k, 5 * width + 8)        # '"t t t t t", ' a player
            words = row[:, :, 1:5 * width + 6].reshape(m, k, 5, width + 1)
            words[:, :, :, :width] = plain[cards]
            words[:, :, :, width] = ord(" ")
            row[:, :, 0] = row[:, :, 5 * width + 5] = ord('"')
            row[:, :, 5 * width + 6:] = np.frombuffer(b", ", dtype=np.uint8)
            line[:, -3:-1] = np.frombuffer(tail.encode("ascii"), dtype=np.uint8)   # the last ", " is "]}"
            line[:, -1] = ord("\n")
            return line.tobytes().decode("ascii").split("\n")[:-1]
        out = []
        fmt = self.judge.engine.notation.format
        for chosen, row in zip(five.tolist(), cards.tolist()):
            out.append(head + ", ".join(dumps(fmt(c)) if at >= 0 else "null" for at, c in zip(chosen, row)) + tail)
        return out

    def tokens(self) -> tuple[np.ndarray, np.ndarray | None]:
        """Each card id's token as the notation writes it (an object array over the lookup's
        card ids), and the same as rows of bytes where every token is as wide and written by
        dumps as it is (printable ASCII, no quote or backslash); else None."""
        if self._tokens is None:
            lut = self.lut()
            cards = sorted(set(lut[lut >= 0].tolist()))         # (np.unique would import numpy.ma)
            text = np.full(max(cards, default=0) + 1, "", dtype=object)
            fmt = self.judge.engine.notation.format
            for card in cards:
                text[card] = fmt([card])
            words = {text[c] for c in cards}
            plain = None
            if len({len(w) for w in words}) == 1 and all(dumps(w) == '"' + w + '"' and w.isascii() and w.isprintable()
                                                         for w in words):
                plain = np.zeros((len(text), len(next(iter(words)))), dtype=np.uint8)
                for card in cards:
                    plain[card] = np.frombuffer(text[card].encode("ascii"), dtype=np.uint8)
            self._tokens = (text, plain)
        return self._tokens

    def _judged(self, js: list[int], hands: list[list[str]], ids: list[Any]) -> tuple[list[int], list[Any], list[str]]:
        """Of the decoded rows (their places, hands, ids), those the table answers (where the
        fights proof holds: :func:`usable`): their places, ids and result lines after the id."""
        if not js or not usable(self.judge):
            return [], [], []
        types = set(map(type, ids))
        if set(map(len, hands)) != {2} or not (types == {int} and -_ID_LIMIT <= min(ids) and max(ids) < _ID_LIMIT
                                               or types <= {type(msgspec.UNSET)}):
            keep = [k for k in range(len(js)) if len(hands[k]) == 2 and _good_id(ids[k])]
            js, hands, ids = [js[k] for k in keep], [hands[k] for k in keep], [ids[k] for k in keep]
        if not js:
            return [], [], []
        a = list(map(operator.itemgetter(0), hands))
        b = list(map(operator.itemgetter(1), hands))
        text = "".join(map(operator.add, a, b))
        if len(text) != 2 * WIDTH * len(js) or not text.isascii():
            keep = [k for k in range(len(js)) if len(a[k]) == WIDTH == len(b[k]) and a[k].isascii() and b[k].isascii()]
            js, ids = [js[k] for k in keep], [ids[k] for k in keep]
            text = "".join(a[k] + b[k] for k in keep)
            if not js:
                return [], [], []
        chars = np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(len(js), 2 * WIDTH)
        ok = (chars[:, _SPACES] == 32).all(axis=1)
        codes = chars[:, _FIRST].astype(np.int64) << 8 | chars[:, _SECOND]
        cards = self.lut()[codes]
        ok &= (cards >= 0).all(axis=1)
        cards[~ok] = 0
        fine, results, ra, rb = self.judge.fast.two_arrays(cards)
        ok &= fine
        if self._span is None:                # every rank of the table, so that codes hold across blocks
            ranks = self.judge.fast.table.ranks
            self._span = (int(ranks.min()), int(ranks.max()) - int(ranks.min()) + 1)
        low, span = self._span
        code = (results.astype(np.int64) * span + (ra.astype(np.int64) - low)) * span + (rb.astype(np.int64) - low)
        if self._made is None:
            self._made = np.full(3 * span * span, None, dtype=object)
        made = self._made
        for k in np.flatnonzero(np.bincount(code, minlength=len(made))).tolist():
            if made[k] is None:
                made[k] = self._tail(k, span, low)
        tails = made[code]
        if not ok.all():
            keep = np.flatnonzero(ok)
            js, ids, tails = [js[k] for k in keep.tolist()], [ids[k] for k in keep.tolist()], tails[keep]
        return js, ids, tails.tolist()

    def _tail(self, code: int, span: int, low: int) -> str:
        """The line of a result after its id, as the judge writes the table's verdict (code:
        (result * span + rank - low) * span + rank - low)."""
        rest, b = divmod(code, span)
        r, a = divmod(rest, span)
        verdict = self.judge.fast.verdict(r, a + low, b + low)
        line = dumps(self.judge._result(0, verdict).as_dict())
        if not line.startswith('{"id": 0, '):         # pragma: no cover - as_dict puts the id first
            raise AssertionError(line)
        return line[len('{"id": 0'):]


def _rows(data: np.ndarray, starts: np.ndarray, width: int) -> np.ndarray:
    """The ``width`` bytes of ``data`` from each start, as rows (copied from a strided view of
    every window, without an array of every byte's index).

    >>> _rows(np.frombuffer(b"abcdef", dtype=np.uint8), np.array([0, 3]), 2).tobytes()
    b'abde'
    """
    if len(data) < width:
        return np.empty((0, width), dtype=data.dtype)
    return np.lib.stride_tricks.sliding_window_view(data, width)[starts]


def _groups(key: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct keys, each element's group and each group's first element (np.unique of a
    flat array, with its inverse)."""
    kinds, firsts, which = np.unique(key, return_index=True, return_inverse=True)
    return kinds, which.reshape(-1), firsts


def _layout(quotes: list[int], size: int, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The one way json.dumps writes ``{"id": N, "hands": [...], "board": "..."}`` with its
    quotes at these places in a line of ``size`` bytes: the bytes it fixes and where they are,
    where the id's digits are, and for the hands and board joined by NUL, where each byte comes
    from (-1: a NUL); None where no such line has its quotes there.

    >>> template, fixed, digits, content = _layout([1, 4, 10, 16, 20, 26, 29, 35, 39, 45, 48, 63], 65, 2)
    >>> bytes(template).decode(), digits.tolist(), bytes(np.where(content < 0, 124, 88).astype(np.uint8)).decode()
    ('{"id": , "hands": ["", ""], "board": ""}', [7], 'XXXXX|XXXXX|XXXXXXXXXXXXXX')
    """
    if quotes[:2] != [1, 4] or quotes[2] < 10 or quotes[2] - 9 > 18:
        return None
    d = quotes[2] - 9                                      # the id's digits
    text = bytearray(size)
    fixed = np.zeros(size, dtype=bool)

    def put(at: int, piece: bytes) -> bool:
        if at < 0 or at + len(piece) > size or fixed[at:at + len(piece)].any():
            return False
        text[at:at + len(piece)] = piece
        fixed[at:at + len(piece)] = True
        return True
    ok = put(0, b'{"id": ') and put(7 + d, b', "hands": [')
    content: list[int] = []
    for h in range(players):
        begin, end = quotes[4 + 2 * h], quotes[5 + 2 * h]
        ok = ok and end > begin + 1 and put(begin, b'"') and put(end, b'"')
        ok = ok and (h == 0 and begin == 7 + d + 12 or h > 0 and put(begin - 2, b", "))
        content += list(range(begin + 1, end)) + [-1]
    last = quotes[3 + 2 * players]
    ok = ok and put(last + 1, b'], "board": "') and quotes[4 + 2 * players] == last + 4 \
        and quotes[5 + 2 * players] == last + 10 and quotes[6 + 2 * players] == last + 13
    begin, end = quotes[6 + 2 * players], quotes[7 + 2 * players]
    ok = ok and end > begin + 1 and put(end, b'"}') and end + 2 == size
    if not ok or fixed.sum() + d + sum(1 for c in content if c >= 0) + (end - begin - 1) != size:
        return None
    content += list(range(begin + 1, end))
    where = np.flatnonzero(fixed)
    return (np.frombuffer(bytes(text), dtype=np.uint8)[where], where, np.arange(7, 7 + d),
            np.asarray(content, dtype=np.int64))


_FIELD = operator.attrgetter("id", "hands", "board", "game")


def _in_order(*parts: tuple[list[int], list[Any], list[str]]) -> tuple[list[int], list[Any], list[str]]:
    """Parts of a block's vouched rows (places, ids, lines after the id), each in order, merged
    into one in the order of their places."""
    merged = sorted(zip(*(sum((list(part[i]) for part in parts), []) for i in range(3))), key=lambda r: r[0])
    return [r[0] for r in merged], [r[1] for r in merged], [r[2] for r in merged]


def _fields(many: list[_Fight]) -> tuple[list[Any], list[list[str]], list[Any], list[Any]]:
    """The decoded rows' ids, hands, boards and games (UNSET where a row has none), as columns."""
    if not many:
        return [], [], [], []
    return tuple(map(list, zip(*map(_FIELD, many))))       # type: ignore[return-value]


def _good_id(ident: Any) -> bool:
    """An id the path writes as the judge would: absent, null, a 64-bit integer, or a string
    without control characters."""
    t = type(ident)
    if t is int:
        return -_ID_LIMIT <= ident < _ID_LIMIT
    if t is str:
        return ident.isprintable()
    return ident is None or ident is msgspec.UNSET
