"""One-line notices on stderr from the library (a cache ignored, a table rebuilt), and what must
happen before one is printed (the command line registers: clear its progress bars)."""

from __future__ import annotations

import sys
from typing import Callable

_before: list[Callable[[], None]] = []


def before_notice(hook: Callable[[], None]) -> None:
    """Run ``hook()`` before every notice (once registered, for the life of the process)."""
    if hook not in _before:
        _before.append(hook)


def say(line: str) -> None:
    """``poker: line`` on stderr, control characters escaped (it stays one line)."""
    for hook in list(_before):
        try:
            hook()
        except Exception:       # a notice is never the reason a command fails
            pass
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in line)
    print(f"poker: {text}", file=sys.stderr, flush=True)
