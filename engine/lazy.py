"""pyDatalog, imported on first use.

pyDatalog (with what it imports: logging, decimal, inspect …) takes tens of milliseconds to
import, and the commands that ask only the compiled rules (``poker judge``, ``check``, ``diff``)
never use it: the reference interpreter is built when the REPL, ``--explain`` or ``--plain``
asks for it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """A module that is imported when one of its attributes is first read.

    >>> math = LazyModule("math")
    >>> math.floor(2.5)
    2
    """

    def __init__(self, name: str):
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)

    def __repr__(self) -> str:
        return f"LazyModule({self._name!r})"


pyDatalog = LazyModule("pyDatalog.pyDatalog")
pyParser = LazyModule("pyDatalog.pyParser")
