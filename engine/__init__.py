"""A poker-hand judge whose knowledge lives in Datalog rules (rules/*.dl)."""

from importlib.metadata import PackageNotFoundError, version

from .core import BestFive, Engine, Var
from .loader import RuleError
from .notation import InvalidCards

try:
    __version__ = version("poker-engine")      # the installed distribution's metadata
except PackageNotFoundError:                    # a checkout put on sys.path without installing
    __version__ = "0+unknown"

__all__ = ["BestFive", "Engine", "InvalidCards", "RuleError", "Var", "__version__"]
