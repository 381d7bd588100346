"""The old path of :mod:`engine.judging.explain` (issue 31 moved it), kept for code that imports ``engine.explain``:
the same module object, not a copy."""

import sys

from engine.judging import explain

sys.modules[__name__] = explain
