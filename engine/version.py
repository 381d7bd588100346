"""The engine's version, written here once: the distribution's metadata takes it from this file
(pyproject.toml: ``version = {attr = "engine.version.VERSION"}``), so a command does not import
importlib.metadata (25 ms of every command) to learn it.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

VERSION = "0.1.0"


def version() -> str:
    """``poker-engine``'s version (the installed distribution's, which is read from this module)."""
    return VERSION


@functools.cache
def source_digest() -> str:
    """SHA-256 over the engine's own source (every module of the package): what is made from the
    rules is made by this code as much as by the rules, and the version is not bumped with every
    edit, so what other code made or verified (kept proofs, a table's verification) is not taken."""
    h = hashlib.sha256()
    root = Path(__file__).resolve().parent
    for source in sorted(root.rglob("*.py")):
        h.update(source.relative_to(root).as_posix().encode("utf-8") + b"\0")
        try:
            h.update(source.read_bytes())
        except OSError:
            pass
        h.update(b"\0")
    return h.hexdigest()
