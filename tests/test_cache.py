"""The table cache's housekeeping (engine/judging/tablecache.py, `poker cache`): no lock file left behind, old
tables of other rules pruned, and the cache listed and cleared by a command."""

from __future__ import annotations

import json
import os
import time

import pytest

from conftest import copy_rules, edit
from engine import Engine
from engine.cli import main
from engine.judging import tablecache as TC
from engine.judging.table import five_card_table, rules_digest
from engine.judging.tablecache import cache_entries, prune_cache

DECK = "cardId_F: cardId(C, V, S) <= valueName(V, N, P) & suitName(S, M, Q) & (C == 13 * (S - 1) + V)"
DAY = 86400


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("POKER_CACHE_DIR", str(folder))
    return folder


def table_file(folder, digest: str, size: int, age_days: float, suffix: str = ".table"):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"five-card-{digest}{suffix}"
    path.write_bytes(b"x" * size)
    when = time.time() - age_days * DAY
    os.utime(path, (when, when))
    return path


def test_a_build_leaves_its_table_and_no_lock_file(cache, tmp_path):
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")           # 26 cards: a small table
    engine = Engine(rules)
    five_card_table(engine)
    digest = rules_digest(engine)
    # the table, and the signed record that it was verified (engine.judging.tablecache._stamp);
    # beside them each rule file parsed (engine.judging.rulecache)
    assert sorted(p.name for p in cache.iterdir() if p.suffix not in (".parsed", ".checked")) == \
        [f"five-card-{digest}.table", f"five-card-{digest}.verified"]
    assert len(list(cache.glob("rules-*.parsed"))) == len(list(rules.glob("*.dl")))


def test_what_is_kept_beside_a_table_goes_with_it(cache, tmp_path):
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")
    engine = Engine(rules)
    assert engine.tabled(build=True).fights                           # the proofs made, and kept
    digest = rules_digest(engine)
    assert {p.suffix for p in cache.iterdir()} == {".table", ".verified", ".proofs", ".parsed", ".checked"}
    orphan = cache / f"five-card-{'f' * 64}.proofs"
    orphan.write_text("{}")
    prune_cache(keep={digest})
    assert orphan.exists() is False and len([p for p in cache.iterdir() if p.suffix not in (".parsed", ".checked")]) == 3
    prune_cache(keep=(), max_age_days=0, max_bytes=0)
    assert not list(cache.iterdir())


def test_pruning_keeps_what_is_used_and_drops_old_tables_of_other_rules(cache):
    keep = table_file(cache, "a" * 64, 10, age_days=90)              # the current rules': kept however old
    old = table_file(cache, "b" * 64, 10, age_days=31)
    young = table_file(cache, "c" * 64, 10, age_days=2)
    lock = table_file(cache, "d" * 64, 0, age_days=0, suffix=".lock")  # an older version's
    gone = prune_cache(keep={"a" * 64})
    assert {e.path for e in gone} == {old, lock}
    assert keep.exists() and young.exists()


def test_pruning_drops_the_oldest_tables_beyond_the_cap(cache):
    files = [table_file(cache, c * 64, 100, age_days=age) for c, age in zip("abcd", (5, 4, 3, 2))]
    gone = prune_cache(keep={"a" * 64}, max_bytes=250)
    assert [e.path for e in gone] == files[1:3]                       # the oldest not kept, until <= 250
    assert sum(e.bytes for e in cache_entries(cache)) == 200


def test_a_loaded_table_counts_as_used(cache, tmp_path):
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")
    five_card_table(Engine(rules))
    path = next(cache.glob("*.table"))
    os.utime(path, (0, 0))
    five_card_table(Engine(rules))                                    # a new engine: read from the cache
    assert time.time() - path.stat().st_mtime < DAY


def test_poker_cache_lists_and_clears(cache, capsys, monkeypatch):
    monkeypatch.setattr(TC, "cache_key", lambda: None)    # no key: no rule file parsed is kept (rulecache)
    standard = rules_digest(Engine())
    table_file(cache, standard, 2 ** 20, age_days=1)
    table_file(cache, "e" * 64, 2 ** 20, age_days=40)
    assert main(["cache", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["directory"] == str(cache) and data["bytes"] == 2 * 2 ** 20
    assert [e["rules"] for e in data["entries"]] == [None, "standard"]
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert "2 files, 2.0 MB" in out and "standard" in out and "other rules" in out
    assert main(["cache", "--prune"]) == 0
    assert "removed 1 file (1.0 MB)" in capsys.readouterr().out
    assert main(["cache", "--clear"]) == 0
    assert "removed 1 file (1.0 MB)" in capsys.readouterr().out and not list(cache.iterdir())


def test_poker_cache_lists_what_is_kept_beside_a_table_and_clears_it(cache, capsys, tmp_path):
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")
    assert Engine(rules).tabled(build=True).fights                    # the table, its record, its proofs
    assert {p.suffix for p in cache.iterdir()} == {".table", ".verified", ".proofs", ".parsed", ".checked"}
    assert main(["cache", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    n = len(list(cache.iterdir()))      # and each rule file parsed, each rule set checked (every one it names)
    kinds = [e["kind"] for e in data["entries"]]
    assert sorted(k for k in kinds if k not in ("parsed", "checked")) == ["proofs", "table", "verified"]
    assert len(kinds) == n and {"parsed", "checked"} <= set(kinds)
    assert data["bytes"] == sum(p.stat().st_size for p in cache.iterdir())
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert f"{n} files" in out and "its proofs" in out and "its verified record" in out and "a rule file, parsed" in out
    assert main(["cache", "--clear"]) == 0
    assert f"removed {n} files" in capsys.readouterr().out and not list(cache.iterdir())
