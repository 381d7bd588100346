"""The table cache under attack (issue 32).  The decision: every cached table is signed with the
user's own key (HMAC-SHA256 of its header, which holds its payload's SHA-256; the key is 32
random bytes in ``$XDG_CONFIG_HOME/poker-engine/cache.key``, mode 0600, outside the cache
directory).  Whoever can write the cache but not the key can no longer plant a table altered to
consistent wrong values with its checksum recomputed: it is refused in one line and rebuilt.
Without a private key (none can be made, or it is readable by others) a table is held to the
random sample alone, as before."""

from __future__ import annotations

import hashlib
import math
import os
from pathlib import Path

import numpy as np
import pytest
from test_table import fresh, joined, split

from conftest import copy_rules, edit
from engine import Engine
from engine.judging import tablecache as TC
from engine.judging.table import FiveTable, five_card_table
from engine.judging.tablecache import cache_path

DECK = "cardId_F: cardId(C, V, S) <= valueName(V, N, P) & suitName(S, M, Q) & (C == 13 * (S - 1) + V)"


@pytest.fixture(scope="module")
def rules26(tmp_path_factory) -> Path:
    rules = copy_rules(tmp_path_factory.mktemp("cache") / "rules")
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")
    return rules


@pytest.fixture(scope="module")
def good(rules26) -> FiveTable:
    return five_card_table(Engine(rules26), cache=False)


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache and a key directory of this test's own."""
    monkeypatch.setenv("POKER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr(TC, "_KEY", [])
    monkeypatch.setattr(TC, "_warned", set())
    (tmp_path / "cache").mkdir()
    return tmp_path / "cache"


def altered(table: FiveTable) -> FiveTable:
    """Two one-pair hands' values swapped: ranks, classes, density hold; only two answers differ,
    which a sample of 2,000 of 65,780 hands almost never draws."""
    values = np.array(table.values)
    pairs = np.flatnonzero(table.ranks == 2)
    a = pairs[0]
    b = next(p for p in pairs if values[p] != values[a])
    values[[a, b]] = values[[b, a]]
    return FiveTable(table.cards, values, np.array(table.ranks), table.classes, table.rules_digest)


def resigned_without_the_key(table: FiveTable) -> bytes:
    """What an attacker who can write the cache writes: the file, its checksum made to match again,
    the MAC left as it was (or made with a key of his own)."""
    header, payload = split(TC._serialise(table))
    header["payload"] = {"bytes": len(payload), "sha256": hashlib.sha256(payload).hexdigest()}
    header["mac"] = "0" * 64
    return joined(header, payload)


def test_the_key_is_made_private_on_first_use(cache, rules26):
    fresh(rules26, seed=0)
    key = TC.key_path()
    assert key.is_file() and len(key.read_bytes()) == 32
    assert os.stat(key).st_mode & 0o777 == 0o600


def test_a_table_altered_and_rechecksummed_without_the_key_is_refused_in_one_line(cache, rules26, good, capsys,
                                                                                   monkeypatch):
    table, how = fresh(rules26, seed=0)                                  # the key made, the true table cached
    assert how == {"built": 1, "loaded": 0}
    cache_path(good.rules_digest).write_bytes(resigned_without_the_key(altered(good)))
    table, how = fresh(rules26, seed=0)
    assert how == {"built": 1, "loaded": 0} and (table.values == good.values).all()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not signed with this user's key" in err[0] and "rebuilt" in err[0]
    # what the key closes: held to the sample alone, the same file is loaded, two hands wrong
    cache_path(good.rules_digest).write_bytes(resigned_without_the_key(altered(good)))
    monkeypatch.setattr(TC, "_KEY", [None])
    table, how = fresh(rules26, seed=0)
    assert how == {"built": 0, "loaded": 1} and (table.values != good.values).sum() == 2


def test_the_same_alteration_signed_by_the_user_is_held_to_the_sample(cache, rules26, good, capsys):
    """The key guards against others; a file the user's own process signed is trusted as far as
    the sample goes (what the docs say is left)."""
    cache_path(good.rules_digest).write_bytes(TC._serialise(good))
    table, how = fresh(rules26, seed=0)
    assert how == {"built": 0, "loaded": 1}
    assert capsys.readouterr().err == ""


def test_a_table_signed_with_another_users_key_is_rebuilt(cache, rules26, good, tmp_path, monkeypatch, capsys):
    cache_path(good.rules_digest).write_bytes(TC._serialise(good))          # this user's
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "other"))
    monkeypatch.setattr(TC, "_KEY", [])
    table, how = fresh(rules26, seed=0)
    assert how == {"built": 1, "loaded": 0}
    assert "not signed with this user's key" in capsys.readouterr().err


def test_a_key_others_can_read_is_no_key(cache, rules26, good, capsys):
    key = TC.key_path()
    key.parent.mkdir(parents=True)
    key.write_bytes(os.urandom(32))
    key.chmod(0o644)
    assert TC.cache_key() is None
    cache_path(good.rules_digest).write_bytes(TC._serialise(good))          # unsigned: held to the sample
    table, how = fresh(rules26, seed=0)
    assert how == {"built": 0, "loaded": 1} and capsys.readouterr().err == ""
    assert math.comb(26, 5) == len(table.values)
