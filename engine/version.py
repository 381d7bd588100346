"""The installed distribution's version, read from its metadata when first asked.

importlib.metadata takes tens of milliseconds to import, so it is not read on every command.
"""

from __future__ import annotations

import functools


@functools.cache
def version() -> str:
    """``poker-engine``'s version, or ``0+unknown`` in a checkout put on sys.path uninstalled."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed
    try:
        return installed("poker-engine")
    except PackageNotFoundError:
        return "0+unknown"
