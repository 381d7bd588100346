"""The installed distribution's version, read from its metadata when first asked.

importlib.metadata takes tens of milliseconds to import, so it is not read on every command.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path


@functools.cache
def version() -> str:
    """``poker-engine``'s version, or ``0+unknown`` in a checkout put on sys.path uninstalled."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed
    try:
        return installed("poker-engine")
    except PackageNotFoundError:
        return "0+unknown"


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
