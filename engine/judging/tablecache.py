"""The five-card table's on-disk cache: where it is, its files (written, read, checked), the
user's key that signs them, the signed record that a file was verified, the lock, the pruning.

:mod:`engine.judging.table` builds the table from the rules and decides when to load, verify
(asking the rules again) or write it; this module knows the file format and the cache directory,
and nothing of the rules.  Split from table.py (issue 31).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import hmac
import io
import json
import math
import mmap
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from engine.io.atomic import replacing, umask
from engine.judging.fivetable import FiveTable, TableError
from engine.notices import say
from engine.version import source_digest

__all__ = ["cache_dir", "cache_path", "cache_entries", "prune_cache", "CacheEntry", "cache_key", "key_path", "mac",
           "stamp_path", "VERIFIED"]

FORMAT = 4                    # the cache file's format (and part of the rules' digest); 4: signed (cache_key)
MAGIC = b"poker-engine five-card table\n"
MAX_HEADER = 64 * 1024
VERIFIED: dict[str, str] = {}   # rules digest -> SHA-256 of the cache file bytes this process verified or wrote
_warned: set[str] = set()
_held: set[str] = set()      # cache directories whose lock this process holds (under table's _memo_lock)


# ---- the cache's place ----------------------------------------------------------------------


def cache_dir() -> Path:
    """``$POKER_CACHE_DIR``, else ``$XDG_CACHE_HOME/poker-engine``, else ``~/.cache/poker-engine``."""
    if os.environ.get("POKER_CACHE_DIR"):
        return Path(os.environ["POKER_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "poker-engine"
    return Path.home() / ".cache" / "poker-engine"


def cache_path(digest: str) -> Path:
    return cache_dir() / f"five-card-{digest}.table"


# Files kept beside a table, of the same digest: the signed record that it was verified
# (_stamp) and the proofs made for its rules (engine.judging.proofcache).
SIDECARS = (".verified", ".proofs")
PARSED = ("parsed", "rules-", ".parsed")    # a rule file's clauses (engine.judging.rulecache): kind, prefix, suffix
CHECKED = ("checked", "rules-", ".checked")  # a rule set the loader's checks passed (engine.judging.rulecache)
MAX_AGE_DAYS = 30            # a cached table of other rules unused this long is pruned ...
MAX_CACHE_BYTES = 1 << 30    # ... and the oldest of them while the cache holds more than this


@dataclass(frozen=True)
class CacheEntry:
    """A file of the table cache: a table (``kind`` "table"), a file kept beside it ("verified",
    "proofs": :data:`SIDECARS`), a parsed rule file ("parsed": :data:`PARSED`), a rule set checked
    ("checked": :data:`CHECKED`) or a lock file an older version left behind ("lock"); ``used``:
    when it was last written or loaded (seconds since the epoch)."""
    path: Path
    kind: str
    digest: str
    bytes: int
    used: float


def cache_entries(folder: Path | None = None) -> list[CacheEntry]:
    """The table cache's files, oldest first (none when there is no cache directory)."""
    folder = cache_dir() if folder is None else folder
    out = []
    for kind, prefix, suffix in (("table", "five-card-", ".table"), ("lock", "five-card-", ".lock"),
                                 *((x[1:], "five-card-", x) for x in SIDECARS), PARSED, CHECKED):
        for path in folder.glob(f"{prefix}*{suffix}"):
            with contextlib.suppress(OSError):
                st = path.lstat()
                if stat.S_ISREG(st.st_mode):
                    out.append(CacheEntry(path, kind, path.name[len(prefix):-len(suffix)], st.st_size,
                                          st.st_mtime))
    return sorted(out, key=lambda e: e.used)


def prune_cache(keep: Iterable[str] = (), now: float | None = None, max_age_days: float = MAX_AGE_DAYS,
                max_bytes: int = MAX_CACHE_BYTES, folder: Path | None = None) -> list[CacheEntry]:
    """Remove the cache's tables of other rule sets (digests not in ``keep``) and rule files
    parsed or checked unused for ``max_age_days``, then the oldest of them while the tables take more than ``max_bytes``, and
    every lock file an older version left; the removed entries.  Called after a table is written
    (a table is 13 MB for 52 cards; every edit of the rules makes a new one)."""
    keep = set(keep)
    now = time.time() if now is None else now
    entries = [e for e in cache_entries(folder) if e.kind in ("table", "lock", "parsed", "checked")]  # sidecars: with their table
    gone = [e for e in entries if e.kind == "lock"
            or (e.digest not in keep and now - e.used > max_age_days * 86400)]    # (rules parsed, checked: by age)
    left = [e for e in entries if e.kind == "table" and e not in gone]
    total = sum(e.bytes for e in left)
    for e in left:                                    # oldest first
        if total <= max_bytes:
            break
        if e.digest not in keep:
            gone.append(e)
            total -= e.bytes
    removed = []
    for e in gone:
        try:
            e.path.unlink()
        except OSError:                               # gone already, or not ours to remove
            continue
        removed.append(e)
    # What is kept beside a table (SIDECARS): removed with it, and wherever its table is gone.
    sidecars = {suffix[1:] for suffix in SIDECARS}
    for e in cache_entries(folder):
        if e.kind in sidecars and not e.path.with_suffix(".table").exists():
            with contextlib.suppress(OSError):
                e.path.unlink()
                removed.append(e)
    return removed


# ---- the table ------------------------------------------------------------------------------




def _unwritable(folder: Path, why: str) -> None:
    if str(folder) not in _warned:
        _warned.add(str(folder))
        say(f"the cache directory {folder} cannot be written ({why}): "
             "the five-card table is computed without it")


def _lock(stack: contextlib.ExitStack, folder: Path) -> bool:
    """Hold the cache directory's lock until the stack closes (a second builder waits here for the
    first, then reads its file): ``flock`` on the directory itself, so that no lock file is left
    behind; False when the directory cannot be written (said once: the table is then read if
    there, else built and not written)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(errno.EACCES, "permission denied")
        key = str(folder.resolve())
        if key in _held:                             # this process holds it already (a nested build,
            return True                              # under _memo_lock): a second flock would wait forever
        fd = os.open(str(folder), os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        _unwritable(folder, exc.strerror or str(exc))
        return False
    _held.add(key)
    stack.callback(os.close, fd)                     # closing releases the lock
    stack.callback(_held.discard, key)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except (ImportError, OSError):                   # no locks here (Windows, some NFS): go on
        pass
    return True


def _arrays(table: FiveTable) -> dict[str, np.ndarray]:
    keys = [k for _, k in table.classes]
    flat = [v for k in keys for v in k]
    kinds = {type(v) for v in flat}
    if kinds <= {int}:
        key_values = np.array(flat, dtype=np.int64)
    elif kinds == {float}:
        key_values = np.array(flat, dtype=np.float64)
    elif kinds == {str}:
        key_values = np.array(flat, dtype=str)
    else:                                                            # pragma: no cover
        raise TableError("the tie-break keys mix kinds of values")
    return {"values": np.asarray(table.values), "ranks": np.asarray(table.ranks),
            "class_ranks": np.array([r for r, _ in table.classes], dtype=np.int64),
            "class_lengths": np.array([len(k) for k in keys], dtype=np.int64),
            "class_keys": key_values}


def _serialise(table: FiveTable) -> bytes:
    blobs: dict[str, bytes] = {}
    for name, array in _arrays(table).items():
        out = io.BytesIO()
        np.save(out, array, allow_pickle=False)
        blobs[name] = out.getvalue()
    payload = b"".join(blobs.values())
    header = {"format": FORMAT, "digest": table.rules_digest, "n": len(table.cards),
              "cards": list(table.cards),
              "counts": {"hands": len(table.values), "classes": len(table.classes),
                         "ranks": {str(r): int(c) for r, c in zip(*np.unique(table.ranks, return_counts=True))}},
              "is_hand": table.is_hand,
              "places": None if table.places is None else [[r, [list(p) for p in ps]] for r, ps in table.places],
              "arrays": [[name, len(blob)] for name, blob in blobs.items()],
              "payload": {"bytes": len(payload), "sha256": hashlib.sha256(payload).hexdigest()}}
    key = cache_key()
    if key is not None:                     # signed with this user's key: see _signed
        header["mac"] = mac(key, header)
    head = json.dumps(header, separators=(",", ":")).encode("ascii")
    return MAGIC + len(head).to_bytes(4, "little") + head + payload


def mac(key: bytes, header: dict) -> str:
    """The HMAC-SHA256, under the user's key, of a table file's header (its payload's SHA-256,
    the rules' digest, the deck, the counts and places), without its own ``mac``."""
    text = json.dumps({k: v for k, v in header.items() if k != "mac"}, separators=(",", ":"))
    return hmac.new(key, text.encode("ascii"), hashlib.sha256).hexdigest()


def key_path() -> Path:
    """This user's key for the cache: ``$XDG_CONFIG_HOME/poker-engine/cache.key``, else
    ``~/.config/poker-engine/cache.key`` (outside the cache directory, so that whoever can write
    the cache cannot sign a table with it)."""
    base = Path(os.environ["XDG_CONFIG_HOME"]) if os.environ.get("XDG_CONFIG_HOME") else Path.home() / ".config"
    return base / "poker-engine" / "cache.key"


_KEY: list[bytes | None] = []


def cache_key() -> bytes | None:
    """This user's secret key (32 random bytes, made on first use, mode 0600, owned by the user),
    or None where it cannot be read or made, or is not private (then a cached table is held to
    the sample alone, as before the key)."""
    if _KEY:
        return _KEY[0]
    path, key = key_path(), None
    with contextlib.suppress(OSError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(32))
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            data = f.read(33)
        if stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077 and len(data) == 32:
            key = data
    _KEY.append(key)
    return key


def _write(path: Path, table: FiveTable) -> None:
    """Write atomically: a temporary file in the same directory, then os.replace (a symbolic link
    at ``path`` is replaced, never written through); the permissions the umask gives."""
    data = _serialise(table)
    with replacing(path, 0o666 & ~umask()) as f:
        f.write(data)
    VERIFIED[table.rules_digest] = sha = hashlib.sha256(data).hexdigest()    # the rules' own, just asked
    _stamp(table.rules_digest, sha)


def stamp_path(digest: str) -> Path:
    """Where the signed record that the table file of a digest was verified is kept (beside the
    table, pruned with it)."""
    return cache_dir() / f"five-card-{digest}.verified"


def _stamp(digest: str, sha: str) -> None:
    """Record, signed with this user's key, that the table file of these bytes (SHA-256 ``sha``)
    was verified against the rules (built by them, or a sample asked again): a later load of
    the same signed bytes skips the sample (:func:`_stamped`).  Nothing without a key."""
    key = cache_key()
    if key is None:
        return
    header: dict[str, Any] = {"format": FORMAT, "digest": digest, "sha256": sha, "code": source_digest()}
    header["mac"] = mac(key, header)
    with contextlib.suppress(OSError):          # not written: the next load asks the sample again
        with replacing(stamp_path(digest), 0o666 & ~umask()) as f:
            f.write(json.dumps(header, separators=(",", ":")).encode("ascii"))


def _stamped(digest: str, sha: str) -> bool:
    """Whether a record signed with this user's key says that the table file of exactly these
    bytes was verified against these rules (never without a key: then every load asks)."""
    key = cache_key()
    if key is None:
        return False
    data = read_small(stamp_path(digest), 4096)
    try:
        header = json.loads(data.decode("ascii")) if data is not None else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return (isinstance(header, dict) and header.get("format") == FORMAT and header.get("digest") == digest
            and header.get("sha256") == sha and header.get("code") == source_digest()
            and hmac.compare_digest(str(header.get("mac")), mac(key, header)))


def read_small(path: Path, most: int) -> bytes | None:
    """A small cache file's bytes (a record, the proofs, parsed rules), or None when there is
    none, it is no regular file (a link is not followed, a FIFO does not block) or it is longer
    than ``most`` bytes: what another process planted there is not read whole."""
    flags = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(str(path), flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > most:
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(most + 1)
        return data if len(data) <= most else None
    except OSError:
        return None
    finally:
        os.close(fd)


class _Reject(Exception):
    """Why a cache file was ignored."""


def _max_bytes(n: int) -> int:
    """The longest file read for an n-card deck: 16 bytes a hand (a value and a rank take 5, or
    12 with the widest ranks) and 64 MiB for the classes and headers.  A longer file is refused
    unread (and the table rebuilt), so a file planted in the cache cannot make a load hold
    gigabytes."""
    return 16 * math.comb(n, 5) + (64 << 20)


def _read(path: Path, n: int) -> "bytes | memoryview | None":
    """The file's bytes, or None when there is none; _Reject when it is no regular file or too long.

    A file of this user's that no one else may write is memory-mapped, read-only, rather than
    read and copied: its pages are the page cache's, shared by every process that loads the
    table (the worker processes of a batch), and the arrays are made over them.  Only this
    user's processes could change it under the mapping, and they never write a table in place
    (a new one replaces the file: the mapping keeps the old one).  Any other file is read."""
    flags = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(str(path), flags)
    except (FileNotFoundError, NotADirectoryError):      # no file, or no directory for one
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _Reject("it is a symbolic link") from None
        raise _Reject(f"it cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Reject("it is not a regular file")
        limit = _max_bytes(n)
        if info.st_size > limit:
            raise _Reject(f"it is longer ({info.st_size} bytes) than a table can be")
        if info.st_size and info.st_uid == os.getuid() and not info.st_mode & 0o022:
            with contextlib.suppress(OSError, ValueError):
                return memoryview(mmap.mmap(fd, info.st_size, access=mmap.ACCESS_READ))
        chunks, left = [], info.st_size + 1        # one byte more: a file that grew shows
        while left > 0:
            data = os.read(fd, min(left, 1 << 24))
            if not data:
                break
            chunks.append(data)
            left -= len(data)
        data = b"".join(chunks)
        if len(data) > info.st_size:
            raise _Reject("it changed while it was read")
        return data
    finally:
        os.close(fd)


def _parse(data: "bytes | memoryview", cards: list[int], digest: str, hashed: bool = False
           ) -> tuple[dict[str, np.ndarray], Any, int | None]:
    """A table file's arrays, places and count of hands (``hashed``: the bytes are ones whose
    payload hash was checked already, by their SHA-256 as a whole)."""
    if bytes(data[:len(MAGIC)]) != MAGIC:
        raise _Reject("it is not a five-card table file")
    at = len(MAGIC)
    if len(data) < at + 4:
        raise _Reject("it is truncated")
    size = int.from_bytes(bytes(data[at:at + 4]), "little")
    if size > MAX_HEADER or len(data) < at + 4 + size:
        raise _Reject("its header is too long or truncated")
    try:
        header = json.loads(bytes(data[at + 4:at + 4 + size]).decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise _Reject("its header is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _Reject("it has another format")
    if header.get("digest") != digest:
        raise _Reject("it is for other rules or another deck (its digest differs)")
    total = math.comb(len(cards), 5)
    counts = header.get("counts")
    if header.get("n") != len(cards) or header.get("cards") != cards or not isinstance(counts, dict) \
            or counts.get("hands") != total:
        raise _Reject("its header does not match the deck")
    payload = data[at + 4 + size:]
    info = header.get("payload")
    if not isinstance(info, dict) or info.get("bytes") != len(payload):
        raise _Reject(f"its payload has {len(payload)} bytes, not the {info.get('bytes') if isinstance(info, dict) else '?'} "
                      "its header says (truncated?)")
    if not hashed and hashlib.sha256(payload).hexdigest() != info.get("sha256"):
        raise _Reject("its payload's SHA-256 does not match its header")
    arrays: dict[str, np.ndarray] = {}
    names = header.get("arrays")
    if not isinstance(names, list) or [a[0] if isinstance(a, list) and a else None for a in names] != \
            ["values", "ranks", "class_ranks", "class_lengths", "class_keys"]:
        raise _Reject("its header does not list the arrays")
    at = 0
    for name, length in names:
        if not isinstance(length, int) or length < 0 or at + length > len(payload):
            raise _Reject("its header's array sizes do not add up")
        arrays[name] = _npy(payload[at:at + length], name)
        at += length
    if at != len(payload):
        raise _Reject("its header's array sizes do not add up")
    is_hand = header.get("is_hand")
    if is_hand is not None and (type(is_hand) is not int or not 0 <= is_hand <= total):
        raise _Reject("its header's count of hands is malformed")
    key = None if hashed else cache_key()
    if key is not None and not hmac.compare_digest(str(header.get("mac")), mac(key, header)):
        raise _Reject("it is not signed with this user's key (written by another user, or altered)")
    return arrays, _places_of(header.get("places")), is_hand


def _places_of(places: Any) -> tuple | None:
    """FiveTable.places from a header's JSON (_Reject when it is not of that shape)."""
    if places is None:
        return None
    atom = (int, str)
    if not isinstance(places, list) or not all(
            isinstance(e, list) and len(e) == 2 and isinstance(e[0], atom) and isinstance(e[1], list)
            and all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, atom) for x in p) for p in e[1])
            for e in places):
        raise _Reject("its header's places are malformed")
    return tuple((r, tuple(tuple(p) for p in ps)) for r, ps in places)


def _npy(blob: "bytes | memoryview", name: str) -> np.ndarray:
    """A one-dimensional array of numbers or text from its .npy bytes, its header checked first
    (never pickled objects, never more elements than the bytes hold): read-only, over ``blob``."""
    from numpy.lib import format as npy
    f = io.BytesIO(bytes(blob[:1 << 17]))          # the header: at most 64 KiB in version 1
    try:
        version = npy.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = npy.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, fortran, dtype = npy.read_array_header_2_0(f)
        else:
            raise ValueError(f"version {version}")
    except (ValueError, OSError, EOFError, SyntaxError, TypeError) as exc:
        raise _Reject(f"its array {name} cannot be read ({exc})") from None
    if dtype.hasobject or dtype.kind not in "iufU" or len(shape) != 1 or fortran:
        raise _Reject(f"its array {name} is not a flat array of numbers or text")
    if shape[0] * dtype.itemsize != len(blob) - f.tell():
        raise _Reject(f"its array {name} does not have the bytes its shape needs")
    return np.frombuffer(blob, dtype=dtype, count=shape[0], offset=f.tell())


def _table_of(arrays: dict[str, np.ndarray], cards: list[int], digest: str, places: tuple | None = None,
              is_hand: int | None = None, checked: bool = False) -> FiveTable:
    """A table from its arrays, checked for consistency (``checked``: the arrays of bytes whose
    consistency was checked already, as a record signed with this user's key says: not again)."""
    values, ranks = arrays["values"], arrays["ranks"]
    class_ranks, lengths, keys = arrays["class_ranks"], arrays["class_lengths"], arrays["class_keys"]
    if checked:
        return FiveTable(tuple(cards), values, ranks.copy(), _classes(class_ranks, lengths, keys), digest, places,
                         is_hand)
    total = math.comb(len(cards), 5)
    if values.dtype != np.int32 or values.shape != (total,):
        raise _Reject("its values are not one int32 a hand")
    if ranks.dtype.kind != "i" or ranks.shape != (total,):
        raise _Reject("its ranks are not one integer a hand")
    k = len(class_ranks)
    if class_ranks.dtype != np.int64 or lengths.dtype != np.int64 or class_ranks.shape != (k,) \
            or lengths.shape != (k,) or keys.ndim != 1 or keys.dtype.kind not in "iUf" \
            or (lengths < 0).any() or int(lengths.sum()) != len(keys):
        raise _Reject("its classes are malformed")
    if total and (values.min() < 0 or values.max() >= k):
        raise _Reject("a value is not the place of a class")
    if (np.bincount(values, minlength=k) == 0).any():
        raise _Reject("its values are not dense (a class without a hand)")
    if total and (class_ranks[values] != ranks).any():
        raise _Reject("a hand's rank is not its class's rank")
    classes = _classes(class_ranks, lengths, keys)
    if any(not a < b for a, b in zip(classes, classes[1:])):
        raise _Reject("its classes are not in strictly ascending order")
    if places is not None and sorted(r for r, _ in places) != sorted({r for r, _ in classes}):
        raise _Reject("its places do not name the ranks of its classes")
    return FiveTable(tuple(cards), values, ranks.copy(), classes, digest, places, is_hand)


def _classes(class_ranks: np.ndarray, lengths: np.ndarray, keys: np.ndarray) -> tuple:
    """The classes (rank, key) of a table file's arrays, in their order."""
    ends = np.cumsum(lengths)
    flat = keys.tolist()
    return tuple((int(r), tuple(flat[e - ln:e])) for r, ln, e in zip(class_ranks.tolist(), lengths.tolist(),
                                                                      ends.tolist()))
