"""A poker-hand judge whose knowledge lives in Datalog rules (rules/*.dl).

The public names: `Engine` (the judge), `Var` (a query's variable), `BestFive`, `Notation` (the
rules' card symbols), and the errors, each a ValueError with a one-line message: `InvalidCards`,
`QueryError`, `RuleError`.  A batch of fights is `engine.judge.judge`: not exported here, where the
function would hide its module (`engine.judge` would no longer name the module).
"""

import gc as _gc
from typing import Any

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


def __getattr__(name: str) -> Any:
    """``__version__``: the engine's version (engine.version)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return version()


__all__ = ["BestFive", "Engine", "InvalidCards", "Notation", "QueryError", "RuleError", "Var", "__version__"]
