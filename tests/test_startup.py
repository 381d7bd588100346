"""Start-up (issue 35): the proofs kept beside their table (engine/proofcache.py) and the signed
record that a table file was verified (engine.judging.tablecache._stamp), each taken only when this user's key
signs it for these rules' digest (deny by default)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import copy_rules, edit
from engine import Engine
from engine.evaluators import World
from engine.judging import proof as P
from engine.judging import proofcache
from engine.judging import table as T
from engine.judging import tablecache as TC
from engine.judging import tabled as tabled_module

ROOT = Path(__file__).resolve().parent.parent

DECK = "cardId_F: cardId(C, V, S) <= valueName(V, N, P) & suitName(S, M, Q) & (C == 13 * (S - 1) + V)"
SWAPPED = ("beat_D: beat(A, B, R) <= beatRank(A, B, 0) & tieBreak(A, B, R)",
           "beat_D: beat(A, B, R) <= beatRank(A, B, 0) & tieBreak(B, A, R)")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setenv("POKER_CACHE_DIR", str(folder))
    return folder


def small(tmp_path, swapped: bool = False):
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")           # 26 cards: a small table
    if swapped:                                                     # beat is not the table's order
        edit(rules / "fighting.dl", *SWAPPED)
    return rules


def test_the_next_process_takes_the_proofs_and_makes_none(cache, tmp_path, monkeypatch):
    rules = small(tmp_path)
    assert Engine(rules).tabled(build=True).fights
    kept = json.loads(proofcache.path(T.rules_digest(Engine(rules))).read_text())
    assert any(k[0] == "fight" and holds for k, holds, _, _ in kept["proofs"])
    monkeypatch.setattr(P, "prove_fights", lambda *a, **k: pytest.fail("the fights proof made again"))
    assert Engine(rules).tabled().fights                           # a new engine: read from the file


def test_an_altered_proofs_file_is_ignored_and_the_proof_made_again(cache, tmp_path):
    rules = small(tmp_path, swapped=True)
    assert not Engine(rules).tabled(build=True).fights             # not proven: kept as such
    where = proofcache.path(T.rules_digest(Engine(rules)))
    kept = json.loads(where.read_text())
    for entry in kept["proofs"]:
        entry[1] = True                                            # "proven", without the key's signature
    where.write_text(json.dumps(kept))
    eng = Engine(rules)
    assert proofcache.adopt(eng, eng.tabled().table) == 0
    assert not eng.tabled().fights
    assert eng.beat("AH KH 2D 4D 6D", "AD KD 3H 5H 7H") == 1        # the rules' (swapped) answer


def test_proofs_of_other_rules_are_not_taken(cache, tmp_path):
    rules = small(tmp_path)
    assert Engine(rules).tabled(build=True).fights
    other = small(tmp_path / "other", swapped=True)
    eng = Engine(other)
    digest = T.rules_digest(eng)
    proofcache.path(T.rules_digest(Engine(rules))).rename(proofcache.path(digest))    # planted under its name
    assert not eng.tabled(build=True).fights


def test_a_verified_table_file_is_not_sampled_again_and_other_bytes_are(cache, tmp_path, monkeypatch):
    rules = small(tmp_path)
    T.five_card_table(Engine(rules))                               # built: verified, stamped
    digest = T.rules_digest(Engine(rules))
    assert TC.stamp_path(digest).exists()
    monkeypatch.setattr(T, "_verify", lambda *a, **k: pytest.fail("sampled again"))
    assert T.cached_table(Engine(rules)) is not None
    stamp = json.loads(TC.stamp_path(digest).read_text())
    stamp["sha256"] = "0" * 64                                     # the record of other bytes
    TC.stamp_path(digest).write_text(json.dumps(stamp))
    asked = []
    monkeypatch.setattr(T, "_verify", lambda *a, **k: asked.append(1))
    assert T.cached_table(Engine(rules)) is not None and asked == [1]


def test_a_table_file_only_this_user_may_write_is_mapped_any_other_is_read(cache, tmp_path):
    rules = small(tmp_path)
    T.five_card_table(Engine(rules))
    path = TC.cache_path(T.rules_digest(Engine(rules)))
    mapped = TC._read(path, 26)
    assert isinstance(mapped, memoryview) and mapped.readonly
    path.chmod(0o666)                                              # others may write it in place: read and copied
    read = TC._read(path, 26)
    assert isinstance(read, bytes) and read == bytes(mapped)
    path.chmod(0o644)
    table = T.cached_table(Engine(rules))
    assert table is not None and not table.values.flags.writeable and table.values.base is not None


def test_proofs_kept_by_other_engine_code_are_not_taken(cache, tmp_path, monkeypatch):
    rules = small(tmp_path)
    assert Engine(rules).tabled(build=True).fights
    eng = Engine(rules)
    monkeypatch.setattr(proofcache, "source_digest", lambda: "another engine's source")
    assert proofcache.adopt(eng, T.five_card_table(eng)) == 0


def _holdem_shape(eng, players: int = 3):
    return (eng.games["holdem"], (2,) * players, 5)


def test_the_next_process_takes_the_showdown_shapes_and_asks_none(cache, tmp_path, monkeypatch):
    rules = small(tmp_path)
    fast = Engine(rules).tabled(build=True)
    assert fast.showdowns
    shape = _holdem_shape(fast.engine)
    asked = fast.shapes([shape])[shape]
    kept = json.loads(proofcache.path(fast.table.rules_digest).read_text())
    assert [shape[0], list(shape[1]), shape[2], [a.tolist() for a in asked[1]]] in kept["shapes"]
    monkeypatch.setattr(proofcache, "_shapes", {})                 # a new process: nothing in memory
    monkeypatch.setattr(proofcache, "_kept", {})
    monkeypatch.setattr(tabled_module, "fives_of_shapes", lambda *a, **k: pytest.fail("the shape asked again"))
    eng = Engine(rules)
    taken = eng.tabled().shapes([shape])[shape]
    assert [a.tolist() for a in taken[1]] == [a.tolist() for a in asked[1]]
    assert [c.tolist() for c in taken[2]] == [c.tolist() for c in asked[2]]
    board, hands = "2H 3H 4H 9D KD", ["AH 5H", "KH QH", "2D 3D"]     # (the small deck: hearts and diamonds)
    found = eng.tabled().verdicts([World(tuple(tuple(eng.cards(h)) for h in hands), board=tuple(eng.cards(board)),
                                         game=eng.games["holdem"])])[0]
    assert found is not None and found.winners == (0,)              # the steel wheel
    assert found.ranks == Engine(rules).showdown(hands, board=board).ranks


def test_a_kept_shape_no_showdown_can_have_is_asked_of_the_rules(cache, tmp_path, monkeypatch):
    rules = small(tmp_path)
    fast = Engine(rules).tabled(build=True)
    assert fast.showdowns
    shape = _holdem_shape(fast.engine)
    asked = fast.shapes([shape])[shape]
    where = proofcache.path(fast.table.rules_digest)
    kept = json.loads(where.read_text())
    for entry in kept["shapes"]:
        entry[3][0] = [21, 0]                                      # past a player's 21 fives, and not ascending
    kept["mac"] = TC.mac(TC.cache_key(), kept)                     # signed: the check is the shape's own
    where.write_text(json.dumps(kept))
    monkeypatch.setattr(proofcache, "_shapes", {})
    monkeypatch.setattr(proofcache, "_kept", {})
    eng = Engine(rules)
    calls, ask = [], tabled_module.fives_of_shapes
    monkeypatch.setattr(tabled_module, "fives_of_shapes", lambda *a, **k: calls.append(a[0]) or ask(*a, **k))
    again = eng.tabled().shapes([shape])[shape]
    assert calls == [[shape]]                                      # asked of the rules again
    assert [a.tolist() for a in again[1]] == [a.tolist() for a in asked[1]]


def test_judging_hand_histories_loads_neither_yaml_nor_asyncio(cache, tmp_path):
    out = tmp_path / "out.yaml"
    code = ("import sys; from engine.cli import main; "
            f"status = main(['judge', {str(ROOT / 'tests' / 'data' / 'phh' / 'side_pots.phh')!r}, '-o', {str(out)!r}]); "
            "print(status, sorted(m for m in ('yaml', 'asyncio') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split("\n")[0] == "0 []", done.stderr
    assert '"status": "judged"' in out.read_text()
    code = ("import sys; from engine.cli import main; "
            f"status = main(['judge', {str(ROOT / 'examples' / 'fights.yaml')!r}, '-o', {str(tmp_path / 'f.yaml')!r}]); "
            "print(status, 'yaml' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split("\n")[0] == "0 True", done.stderr                     # a YAML batch: read with it


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="threads counted in /proc")
def test_the_poker_command_starts_numpys_blas_with_one_thread_and_a_program_keeps_its_own(tmp_path):
    """OpenBLAS reads OPENBLAS_NUM_THREADS once, as numpy is imported (by the engine's modules):
    in `poker`'s own process one thread then (no pool of a thread a core), the variable not
    kept; a value the user set is the one OpenBLAS reads, and kept; a program that imports the
    engine gets the BLAS it would get without."""
    (tmp_path / "show.py").write_text(
        "import os, sys, engine.cli, numpy\n"
        "print(open('/proc/self/status').read().split('Threads:')[1].split()[0], "
        "os.environ.get('OPENBLAS_NUM_THREADS'))\n")

    def threads(argv: list[str], **env: str) -> list[str]:
        base = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
        done = subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=60,
                              env={**base, "PYTHONPATH": str(ROOT), **env}, cwd=tmp_path)
        return done.stdout.split() or [done.stderr]

    poker = tmp_path / "poker"                       # a script named as the command's
    poker.write_text((tmp_path / "show.py").read_text())
    assert threads([str(poker)]) == ["1", "None"]
    assert threads([str(poker)], OPENBLAS_NUM_THREADS="2") == ["2", "2"]
    assert threads(["show.py"])[0] != "1" or (os.cpu_count() or 1) == 1     # a program's own BLAS
