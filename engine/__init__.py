"""A poker-hand judge whose knowledge lives in Datalog rules (rules/*.dl)."""

from typing import Any

from .core import BestFive, Engine, Var
from .loader import RuleError
from .notation import InvalidCards


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

__all__ = ["BestFive", "Engine", "InvalidCards", "RuleError", "Var", "__version__"]
