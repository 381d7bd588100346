"""A poker-hand judge whose knowledge lives in Datalog rules (rules/*.dl).

The public names: `Engine` (the judge), `Var` (a query's variable), `BestFive`, `Notation` (the
rules' card symbols), `judge` (a batch of fights), and the errors, each a ValueError with a
one-line message: `InvalidCards`, `QueryError`, `RuleError`.
"""

from typing import Any

from .core import BestFive, Engine, Var
from .judge import judge
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

__all__ = ["BestFive", "Engine", "InvalidCards", "Notation", "QueryError", "RuleError", "Var", "judge",
           "__version__"]
