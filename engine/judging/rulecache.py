"""Rule files parsed once: the clauses the loader makes of a file, kept in the table's cache
directory and read back by the next process, and the rule sets the loader's checks passed
(issue 35).

Parsing and checking the standard rules' eight files takes about 0.08 s of CPU, in every
process that loads them; reading back what was made takes a tenth of that.  What the loader
makes of a file is a function of its bytes and the engine's code (its path only names the
file in the clauses and in a refusal), so an entry is named by the SHA-256 of the two
(``rules-KEY.parsed``): an edited file has another name and is parsed again, and a copy of a
file elsewhere (a variant's folder, a rule author's copy) is read back, with its own path.
Deny by default, as the table's files (engine.judging.tablecache): an entry is taken only when
this user's key signs its header (the key, the engine's code, the payload's SHA-256) and the
payload has that hash; it is unpickled by a reader that makes nothing but syntax-tree nodes,
paths and clauses, and each clause is checked to be one and given this file's path.  Any
failure, or no key, and the file is parsed (and the entry written again); a file the loader
refuses is never kept.  A rule set whose clauses (their pickle, but for their paths) passed
loader.check_program is kept as an entry of no clauses under their SHA-256
(``rules-KEY.checked``), and not checked again; a refused one is never kept.  Entries unused
for tablecache.MAX_AGE_DAYS are pruned with the tables.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import hashlib
import hmac
import io
import json
import os
import pathlib
import pickle
from pathlib import Path
from typing import Any, Mapping, Sequence

from engine.datalog.loader import (
    MAX_FILE_BYTES,
    Clause,
    check_program,
    parse_data,
    read_rule_file,
)
from engine.io.atomic import replacing, umask
from engine.judging import tablecache as TC
from engine.version import source_digest

FORMAT = 1
_, PREFIX, SUFFIX = TC.PARSED
_, _, CHECKED = TC.CHECKED
MAX_BYTES = 16 << 20          # an entry is a few tens of kilobytes a file; a longer one is not read
_PATHS = {"PosixPath", "WindowsPath", "PurePosixPath", "PureWindowsPath", "Path"}


def path(key: str, suffix: str = SUFFIX) -> Path:
    """Where the clauses of the rule file of this key are kept (``CHECKED``: the record that a
    rule set passed the checks)."""
    return TC.cache_dir() / f"{PREFIX}{key}{suffix}"


def parsed(file: Path) -> list[Clause]:
    """The clauses of a rule file (engine.datalog.loader.parse_file's answer): read back when a
    signed entry holds them, else parsed and kept."""
    data = read_rule_file(file, MAX_FILE_BYTES)
    secret = TC.cache_key()
    if secret is None:
        return parse_data(data, file)
    key = hashlib.sha256(b"\0".join((str(FORMAT).encode(), source_digest().encode(), data))).hexdigest()
    where = path(key)
    found = _load(where, secret, key, file)
    if found is not None:
        return found
    payload = _keep(where, secret, key, parse_data(data, file))
    return pickle.loads(payload)        # (as the next process reads them: the checks' key is the same)


def checked(clauses: list[Clause], inputs: Mapping[str, Sequence[str]]) -> None:
    """loader.check_program's refusal of a rule set, or nothing; a set of exactly these clauses
    (their pickle's SHA-256, but for their paths: the checks name a path only in a refusal) that
    it passed before, as a signed entry of no clauses says, is not checked again (0.04 s of CPU
    for the standard rules)."""
    secret = TC.cache_key()
    if secret is None:
        return check_program(clauses, inputs)
    key = hashlib.sha256(b"\0".join((b"checked", str(FORMAT).encode(), source_digest().encode(),
                                     repr(sorted((k, list(v)) for k, v in inputs.items())).encode(),
                                     pickle.dumps([(c.label, c.line, c.head, c.node, c.text) for c in clauses],
                                                  protocol=pickle.HIGHEST_PROTOCOL)))).hexdigest()
    where = path(key, CHECKED)
    if _load(where, secret, key, None) == []:
        return None
    check_program(clauses, inputs)
    _keep(where, secret, key, [])
    return None


def _header(key: str, payload: bytes) -> dict[str, Any]:
    return {"format": FORMAT, "key": key, "code": source_digest(), "sha256": hashlib.sha256(payload).hexdigest()}


def _keep(where: Path, secret: bytes, key: str, clauses: list[Clause]) -> bytes:
    """Write an entry of these clauses, signed; their pickle."""
    payload = pickle.dumps(clauses, protocol=pickle.HIGHEST_PROTOCOL)
    header = _header(key, payload)
    header["mac"] = TC.mac(secret, header)
    with contextlib.suppress(OSError):          # a cache that cannot be written: parsed again next time
        where.parent.mkdir(parents=True, exist_ok=True)
        with replacing(where, 0o666 & ~umask()) as f:
            f.write(json.dumps(header, separators=(",", ":")).encode("ascii") + b"\n" + payload)
    return payload


def _load(where: Path, secret: bytes, key: str, file: Path | None) -> list[Clause] | None:
    """The clauses of a signed entry of this key, each given ``file`` as its path; None for
    anything else (an entry that a rule set passed the checks: no clauses, of no file)."""
    data = TC.read_small(where, MAX_BYTES)
    if data is None:
        return None
    head, _, payload = data.partition(b"\n")
    try:
        header = json.loads(head.decode("ascii"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(header, dict) or {k: v for k, v in header.items() if k != "mac"} != _header(key, payload) \
            or not hmac.compare_digest(str(header.get("mac")), TC.mac(secret, header)):
        return None
    try:
        clauses = _Reader(io.BytesIO(payload)).load()
    except Exception:                           # noqa: BLE001 (a payload that is no list of clauses: parsed again)
        return None
    if not (isinstance(clauses, list) and all(
            type(c) is Clause and isinstance(c.path, pathlib.PurePath) and type(c.label) is str
            and type(c.line) is int and type(c.head) is str and isinstance(c.node, ast.expr)
            and type(c.text) is str for c in clauses)):
        return None
    with contextlib.suppress(OSError):          # used now: what pruning keeps
        os.utime(where)
    # the same bytes at another path (a copy of the rules): the clauses name this file
    return [c if c.path == file else dataclasses.replace(c, path=file) for c in clauses]


class _Reader(pickle.Unpickler):
    """Unpickles syntax-tree nodes, paths and clauses, nothing else (no function, no other class)."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "ast" and isinstance(getattr(ast, name, None), type) and issubclass(getattr(ast, name), ast.AST):
            return getattr(ast, name)
        if module == "pathlib" and name in _PATHS:
            return getattr(pathlib, name)
        if module == Clause.__module__ and name == Clause.__name__:
            return Clause
        raise pickle.UnpicklingError(f"{module}.{name} is not part of parsed rules")
