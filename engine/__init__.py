"""A poker-hand judge whose knowledge lives in Datalog rules (rules/*.dl)."""

from .core import Engine, Var
from .loader import RuleError
from .notation import InvalidCards

__all__ = ["Engine", "InvalidCards", "RuleError", "Var"]
