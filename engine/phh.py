"""The old path of :mod:`engine.io.phh` (issue 31 moved it), kept for code that imports ``engine.phh``:
the same module object, not a copy."""

import sys

from engine.io import phh

sys.modules[__name__] = phh
