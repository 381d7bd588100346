"""pyDatalog, imported on first use, with its engine interpreted.

pyDatalog (with what it imports: logging, decimal, inspect …) takes tens of milliseconds to
import, and the commands that ask only the compiled rules (``poker judge``, ``check``, ``diff``)
never use it: the reference interpreter is built when the REPL, ``--explain`` or ``--plain``
asks for it.

pyDatalog 0.22.4 ships its engine (``pyDatalog.pyEngine``) twice: as Python source and built by
Cython.  The Cython build runs a query's whole search in C holding the GIL, and never checks for
signals: no Python signal handler runs (the time budget's alarm, Ctrl-C) and no other thread
gets the GIL (a watchdog) until the query ends, so a join of four ``cardId`` ran 47 s past a 5 s
budget, to 5.7 GB.  Importing this module makes ``import pyDatalog`` load the source instead
(:class:`InterpretedEngine`): Python's interpreter checks for signals every few instructions, so
budgets and Ctrl-C stop pyDatalog within a tick, at the price of pyDatalog answering about 1.5
times slower.  A process that imported pyDatalog before ``engine`` keeps the Cython build.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from types import ModuleType
from typing import Any, Sequence

ENGINE_MODULE = "pyDatalog.pyEngine"


class InterpretedEngine(importlib.abc.MetaPathFinder):
    """Finds ``pyDatalog.pyEngine`` as its Python source where the package ships it (else leaves
    the import to the usual finders), so that budgets and Ctrl-C reach into pyDatalog's search."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != ENGINE_MODULE:
            return None
        for folder in path or ():
            source = os.path.join(folder, "pyEngine.py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


if not any(isinstance(finder, InterpretedEngine) for finder in sys.meta_path):
    sys.meta_path.insert(0, InterpretedEngine())


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
pyEngine = LazyModule(ENGINE_MODULE)
