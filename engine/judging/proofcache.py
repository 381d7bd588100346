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
import math
import threading
from pathlib import Path
from typing import Any

from engine.interface import EngineView
from engine.io.atomic import replacing, umask
from engine.judging import proof as P
from engine.judging import tablecache as TC
from engine.judging.fivetable import FiveTable
from engine.version import source_digest

FORMAT = 2                   # 2: with the showdown shapes asked of the rules (Tabled._shape)
MAX_BYTES = 1 << 20          # a proofs file is a few kilobytes; a longer one is not read
MAX_SHAPES = 256             # shapes kept a file (a batch asks a few: hold'em of 2 to 10 players is nine)
_kept: dict[Path, frozenset] = {}    # file -> the proofs' keys this process read from it or wrote
_shapes: dict[Path, dict[tuple, Any]] = {}   # file -> the shapes read from it or asked here (Tabled)
_lock = threading.Lock()


def path(digest: str) -> Path:
    """Where the proofs of the rules of this digest are kept."""
    return TC.cache_dir() / f"five-card-{digest}.proofs"


def adopt(engine: EngineView, table: "FiveTable") -> int:
    """Take the proofs kept for these rules (engine.proof.adopt), if a file signed with this
    user's key names their digest; how many were taken."""
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
    shapes = _read_shapes(header.get("shapes"))
    P.adopt(engine, proofs)
    with _lock:
        _kept[where] = frozenset(proofs) | frozenset(("shape",) + k for k in shapes)
        _shapes.setdefault(where, {}).update(shapes)
    return len(proofs)


def shapes(table: "FiveTable") -> dict[tuple, Any]:
    """The showdown shapes kept for this table's rules that this process read (:func:`adopt`)
    or asked (:func:`keep`): shape -> for each player the places of the fives mayPlay allows,
    or None (the rules find such a showdown invalid)."""
    with _lock:
        return dict(_shapes.get(path(table.rules_digest), {}))


def _read_shapes(entries: Any) -> dict[tuple, Any]:
    """The shapes of a file, each checked (ints; each player's places increasing and within
    their fives); none at all if one is not as :func:`keep` writes it."""
    out: dict[tuple, Any] = {}
    if not isinstance(entries, list) or len(entries) > MAX_SHAPES:
        return out
    for entry in entries:
        if not (isinstance(entry, list) and len(entry) == 4 and type(entry[0]) is int and type(entry[2]) is int
                and isinstance(entry[1], list) and 0 < len(entry[1]) <= 64 and 0 <= entry[2] <= 64
                and all(type(h) is int and 0 <= h <= 64 for h in entry[1])):
            return {}
        game, holes, board, allowed = entry[0], tuple(entry[1]), entry[2], entry[3]
        if allowed is not None:
            if not (isinstance(allowed, list) and len(allowed) == len(holes) and all(
                    isinstance(a, list) and all(type(x) is int for x in a)
                    and a == sorted(set(a)) and all(0 <= x < math.comb(h + board, 5) for x in a)
                    for a, h in zip(allowed, holes))):
                return {}
        out[(game, holes, board)] = allowed
    return out


def keep(engine: EngineView, table: "FiveTable", asked: dict[tuple, Any] | None = None) -> None:
    """Write the proofs made so far for these rules (those of this table's digest, and the
    candidate proof, a function of the clauses alone) and the showdown shapes asked of them
    (``asked``: shape -> each player's places of the fives mayPlay allows, or None; they
    depend on the clauses and the deck alone, as the proofs), when there are ones the file
    lacks and this user has a key to sign them."""
    key = TC.cache_key()
    if key is None:
        return
    digest = table.rules_digest
    mine = {k: v for k, v in P.made(engine).items() if k == ("candidate",) or digest in k}
    where = path(digest)
    with _lock:
        known = _shapes.setdefault(where, {})
        for shape, allowed in (asked or {}).items():
            if len(known) < MAX_SHAPES:
                known.setdefault(shape, allowed)
        names = frozenset(mine) | frozenset(("shape",) + k for k in known)
        if not mine or names <= _kept.get(where, frozenset()):
            return
        header: dict[str, Any] = {"format": FORMAT, "digest": digest, "code": source_digest(),
                                  "proofs": [[_list(k), v.holds, v.why, v.patterns] for k, v in mine.items()],
                                  "shapes": [[g, list(h), b, a] for (g, h, b), a in known.items()]}
        header["mac"] = TC.mac(key, header)
        with contextlib.suppress(OSError):       # a cache that cannot be written: made again next time
            with replacing(where, 0o666 & ~umask()) as f:
                f.write(json.dumps(header, separators=(",", ":")).encode("ascii"))
        _kept[where] = names


def _read(where: Path) -> Any:
    """The file's JSON, or None: no file, not a regular file, longer than MAX_BYTES, not JSON."""
    data = TC.read_small(where, MAX_BYTES)
    try:
        return None if data is None else json.loads(data.decode("ascii"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def _list(key: Any) -> Any:
    return [_list(k) for k in key] if isinstance(key, tuple) else key


def _tuple(key: Any) -> Any:
    return tuple(_tuple(k) for k in key) if isinstance(key, list) else key
