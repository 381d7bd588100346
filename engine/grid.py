"""The old path of :mod:`engine.equity.grid` (issue 31 moved it), kept for code that imports ``engine.grid``:
the same module object, not a copy."""

import sys

from engine.equity import grid

sys.modules[__name__] = grid
