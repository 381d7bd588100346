"""Shared by every test item: tests/, and the doctests of README.md and engine/.

Nothing is shared today: the engine keeps no cache (every answer is computed from the loaded
rules), so tests need no private state.  The file stays so that fixtures for the doctests
(collected outside tests/) have one place.
"""

# The old paths of moved modules (engine/ranges.py …) are the moved modules themselves, aliased in
# sys.modules: their doctests run at the new paths.
collect_ignore = ["engine/ranges.py", "engine/phh.py", "engine/explain.py", "engine/grid.py"]
