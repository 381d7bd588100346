"""Fixtures for every test item: tests/, and the doctests of README.md and engine/.

Here rather than in tests/conftest.py so that the doctests (collected outside tests/) get them
too.  Under pytest-xdist each worker runs the session fixtures once, with its own tmp_path_factory
directory, so the workers never share a cache.
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """Class tables go to a fresh cache: tests build what they use and never read a stale one."""
    old = os.environ.get("POKER_CACHE_DIR")
    os.environ["POKER_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if old is None:
        os.environ.pop("POKER_CACHE_DIR", None)
    else:
        os.environ["POKER_CACHE_DIR"] = old
