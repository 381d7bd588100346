"""The old path of :mod:`engine.poker.ranges` (issue 31 moved it), kept for code that imports ``engine.ranges``:
the same module object, not a copy."""

import sys

from engine.poker import ranges

sys.modules[__name__] = ranges
