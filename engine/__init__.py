"""A poker-hand judge whose knowledge lives in Datalog rules (rules/*.dl).

The public names: `Engine` (the judge), `Var` (a query's variable), `BestFive`, `Notation` (the
rules' card symbols), and the errors, each a ValueError with a one-line message: `InvalidCards`,
`QueryError`, `RuleError`.  A batch of fights is `engine.judge.judge`: not exported here, where the
function would hide its module (`engine.judge` would no longer name the module).
"""

import gc as _gc
import os as _os
import sys as _sys
from typing import Any

# numpy serves the engine elementwise arrays, never linear algebra: OpenBLAS's thread pool (a
# thread a core, started as numpy is imported, each spinning a while) cost 0.05 s of CPU on every
# `poker` command and gave nothing.  So in the `poker` program's own process (its script, or
# `python -m engine`), when the engine's modules import numpy first, BLAS starts with one
# thread: the variable OpenBLAS reads then, set for the import only (neither the later
# environment nor the children keep it); a value the user set is kept.  A program that imports
# the engine keeps its BLAS as it would be: a library leaves its host alone.
_argv0 = _sys.argv[0] if _sys.argv else ""
_orig = getattr(_sys, "orig_argv", [])
_poker = _os.path.basename(_argv0) == "poker" or (
    _argv0 == "-m" and "-m" in _orig and _orig[_orig.index("-m") + 1:][:1] == ["engine"])
_one_blas = _poker and "numpy" not in _sys.modules and "OPENBLAS_NUM_THREADS" not in _os.environ
if _one_blas:
    _os.environ["OPENBLAS_NUM_THREADS"] = "1"
# The engine's modules (and numpy) make some hundred thousand objects as they are
# imported, none of them garbage: the collector, paused meanwhile, does not scan them some fifty
# times (15 ms of a `poker` command's start-up).
_collecting = _gc.isenabled()
_gc.disable()
try:
    from engine.core import BestFive, Engine, Var
    from engine.datalog.loader import RuleError
    from engine.evaluators.pydatalog.query import QueryError
    from engine.poker.notation import InvalidCards, Notation
    from engine.version import version
finally:
    if _collecting:
        _gc.enable()
    if _one_blas:
        _os.environ.pop("OPENBLAS_NUM_THREADS", None)


def __getattr__(name: str) -> Any:
    """``__version__``: the engine's version (engine.version)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return version()


__all__ = ["BestFive", "Engine", "InvalidCards", "Notation", "QueryError", "RuleError", "Var", "__version__"]
