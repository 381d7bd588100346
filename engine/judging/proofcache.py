"""The proofs made from the rules once, kept beside their five-card table (issue 35).

A proof (engine.proof, asked through engine.policy) is a function of the rule set's clauses and
its table, so of the rules' digest (engine.judging.table.rules_digest: the clauses, the deck, the engine's
version and the table's format).  Making the fights proof alone takes about a second (a run of the
compiled rules), in every process that reads the table.  So the proofs made for a table are
written to ``five-card-DIGEST.proofs`` beside the table (engine.judging.tablecache.cache_dir; pruned with it), signed like the
table with the user's key (the HMAC of engine.judging.tablecache.cache_key), and read back by the next
process for the same rules.  Deny by default: a file is taken only when this user's key signs it
and it names these rules' digest and this engine's source (:func:`engine.version.source_digest`); without a private key nothing is read (the proofs are made
again), and a file that fails a check is ignored (and replaced the next time proofs are made).

>>> from engine import Engine
>>> eng = Engine()
>>> tabled = eng.tabled(build=True)
>>> tabled.fights                      # made, or read from the file that the last run wrote
True
>>> path(tabled.table.rules_digest).name.endswith(".proofs")
True
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import stat
import threading
from pathlib import Path
from typing import Any

from engine.interface import EngineView
from engine.io.atomic import replacing, umask
from engine.judging import proof as P
from engine.judging import tablecache as TC
from engine.judging.fivetable import FiveTable
from engine.version import source_digest

FORMAT = 2                   # 2: with the showdown shapes
MAX_BYTES = 1 << 20          # a proofs file is a few kilobytes; a longer one is not read
_kept: dict[Path, frozenset] = {}    # file -> the proofs' keys and shapes this process read from it or wrote
_shapes: dict[Path, dict[tuple, Any]] = {}   # file -> the shapes' answers known (engine.judging.shapes.allowed_of)
_lock = threading.Lock()


def path(digest: str) -> Path:
    """Where the proofs of the rules of this digest are kept."""
    return TC.cache_dir() / f"five-card-{digest}.proofs"


def adopt(engine: EngineView, table: "FiveTable") -> int:
    """Take the proofs kept for these rules (engine.proof.adopt), if a file signed with this
    user's key names their digest; how many were taken.  The showdown shapes kept with them are
    then :func:`shapes`'."""
    key = TC.cache_key()
    if key is None:
        return 0
    digest = table.rules_digest
    where = path(digest)
    header = _read(where)
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("digest") != digest \
            or header.get("code") != source_digest() \
            or not hmac.compare_digest(str(header.get("mac")), TC.mac(key, header)):
        return 0
    proofs: dict[tuple, P.Proof] = {}
    for entry in header.get("proofs") or ():
        if not (isinstance(entry, list) and len(entry) == 4 and isinstance(entry[1], bool)
                and isinstance(entry[2], str) and type(entry[3]) is int):
            return 0
        proofs[_tuple(entry[0])] = P.Proof(entry[1], entry[2], entry[3])
    found: dict[tuple, Any] = {}
    for entry in header.get("shapes") or ():
        if not (isinstance(entry, list) and len(entry) == 2 and _is_shape(shape := _tuple(entry[0]))):
            return 0
        found[shape] = entry[1]
    P.adopt(engine, proofs)
    with _lock:
        _kept[where] = frozenset(proofs) | frozenset(found)
        _shapes[where] = found | _shapes.get(where, {})
    return len(proofs)


def shapes(table: "FiveTable") -> dict[tuple, Any]:
    """The showdown shapes' answers kept for these rules (read by :func:`adopt`, or noted by
    :func:`note`): shape -> engine.judging.shapes.allowed_of's value, to be checked by
    engine.judging.shapes.from_allowed."""
    with _lock:
        return dict(_shapes.get(path(table.rules_digest), {}))


def note(table: "FiveTable", found: dict[tuple, Any]) -> None:
    """Shapes asked of the rules for this table (shape -> engine.judging.shapes.allowed_of's
    value), kept by the next :func:`keep`."""
    where = path(table.rules_digest)
    with _lock:
        _shapes[where] = _shapes.get(where, {}) | {s: a for s, a in found.items() if _is_shape(s)}


def _is_shape(shape: Any) -> bool:
    """(game code, each player's cards, the board's cards): integers."""
    return isinstance(shape, tuple) and len(shape) == 3 and type(shape[0]) is int and type(shape[2]) is int \
        and isinstance(shape[1], tuple) and all(type(h) is int for h in shape[1])


def keep(engine: EngineView, table: "FiveTable") -> None:
    """Write the proofs made so far for these rules (those of this table's digest, and the
    candidate proof, a function of the clauses alone), when there are ones the file lacks and
    this user has a key to sign them."""
    key = TC.cache_key()
    if key is None:
        return
    digest = table.rules_digest
    mine = {k: v for k, v in P.made(engine).items() if k == ("candidate",) or digest in k}
    where = path(digest)
    with _lock:
        known = _shapes.get(where, {})
        if not mine or set(mine) | set(known) <= _kept.get(where, frozenset()):
            return
        header: dict[str, Any] = {"format": FORMAT, "digest": digest, "code": source_digest(),
                                  "proofs": [[_list(k), v.holds, v.why, v.patterns] for k, v in mine.items()],
                                  "shapes": [[_list(k), v] for k, v in known.items()]}
        header["mac"] = TC.mac(key, header)
        with contextlib.suppress(OSError):       # a cache that cannot be written: made again next time
            with replacing(where, 0o666 & ~umask()) as f:
                f.write(json.dumps(header, separators=(",", ":")).encode("ascii"))
        _kept[where] = frozenset(mine) | frozenset(known)


def _read(where: Path) -> Any:
    """The file's JSON, or None: no file, not a regular file, longer than MAX_BYTES, not JSON."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(str(where), flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return None
        data = os.read(fd, MAX_BYTES + 1)
        return json.loads(data.decode("ascii")) if len(data) <= MAX_BYTES else None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    finally:
        os.close(fd)


def _list(key: Any) -> Any:
    return [_list(k) for k in key] if isinstance(key, tuple) else key


def _tuple(key: Any) -> Any:
    return tuple(_tuple(k) for k in key) if isinstance(key, list) else key
