"""A poker-hand judge whose knowledge lives in Datalog rules (rules/*.dl).

The public names: `Engine` (the judge), `Var` (a query's variable), `BestFive`, `Notation` (the
rules' card symbols), and the errors, each a ValueError with a one-line message: `InvalidCards`,
`QueryError`, `RuleError`.  A batch of fights is `engine.judge.judge`: not exported here, where the
function would hide its module (`engine.judge` would no longer name the module).
"""

from typing import Any

from .core import BestFive, Engine, Var
from .loader import RuleError
from .notation import InvalidCards, Notation
from .query import QueryError


def __getattr__(name: str) -> Any:
    """``__version__``, from the installed distribution's metadata, read when first asked
    (importlib.metadata takes tens of milliseconds to import, on every command otherwise)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version
    try:
        value = version("poker-engine")
    except PackageNotFoundError:                # a checkout put on sys.path without installing
        value = "0+unknown"
    globals()["__version__"] = value
    return value

__all__ = ["BestFive", "Engine", "InvalidCards", "Notation", "QueryError", "RuleError", "Var", "__version__"]
