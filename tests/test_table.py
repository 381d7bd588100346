"""engine.judging.table: the five-card value table computed by the loaded rules, and its verified cache.

On a 26-card deck (hearts and diamonds: the rules' cardId limited to two suits, as in
test_diff.py), where every table takes a second or two; the whole 52-card deck is one slow test.
"""

from __future__ import annotations

import json
import math
import os
import random
import stat
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from published import EXPECTED

from conftest import ROOT, copy_rules, edit, eventb_numbering
from engine import Engine
from engine import interface as I
from engine.evaluators import Ask, World
from engine.io.atomic import umask
from engine.judging import table as T
from engine.judging import tablecache as TC
from engine.judging.proof import suit_symmetry
from engine.judging.table import (
    FiveTable,
    TableError,
    _suit_classes,
    five_card_table,
    rules_digest,
)
from engine.judging.tablecache import cache_path
from engine.poker.sevens import colex, five_hands

DECK = "cardId_F: cardId(C, V, S) <= valueName(V, N, P) & suitName(S, M, Q) & (C == 13 * (S - 1) + V)"
N26 = math.comb(26, 5)


def small_deck(folder: Path) -> Path:
    rules = copy_rules(folder)
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")
    return rules


@pytest.fixture(scope="module")
def rules26(tmp_path_factory) -> Path:
    return small_deck(tmp_path_factory.mktemp("table") / "rules")


@pytest.fixture(scope="module")
def built(rules26) -> tuple[Engine, FiveTable]:
    engine = Engine(rules26)
    return engine, five_card_table(engine, cache=False)


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("POKER_CACHE_DIR", str(folder))
    monkeypatch.setattr(TC, "_warned", set())
    return folder


def hand_of(table: FiveTable, w: int) -> list[int]:
    return [table.cards[p] for p in five_hands(len(table.cards))[w]]


# ---- the table ------------------------------------------------------------------------------


def test_the_table_is_every_hand_of_the_deck_in_colex_order(built):
    engine, table = built
    assert table.cards == tuple(range(1, 27))
    assert table.values.dtype == np.int32 and table.values.shape == (N26,)
    assert table.ranks.dtype == np.int8 and table.ranks.shape == (N26,)
    assert not table.values.flags.writeable and not table.ranks.flags.writeable
    # dense: every class has a hand; strictly ascending; a class's rank is its hands' rank
    assert np.bincount(table.values).min() > 0 and len(table.classes) == table.values.max() + 1
    assert all(a < b for a, b in zip(table.classes, table.classes[1:]))
    assert (np.array([r for r, _ in table.classes])[table.values] == table.ranks).all()
    assert table.rules_digest == rules_digest(engine)
    hand = [3, 9, 14, 20, 26]
    positions = [c - 1 for c in hand]
    assert table.index(hand) == colex(np.array([positions]))[0]
    assert table.strength(hand) == engine.strength(hand)


def test_values_order_hands_as_the_rules_strength_does(built):
    engine, table = built
    rng = random.Random(5)
    ws = rng.sample(range(N26), 400)
    # a few of every rank, so that the rare ones (straight flushes, fours) are there too
    for r in np.unique(table.ranks):
        ws += rng.sample(np.flatnonzero(table.ranks == r).tolist(), min(5, int((table.ranks == r).sum())))
    strengths = [engine.strength(hand_of(table, w)) for w in ws]
    for w, s in zip(ws, strengths):
        assert table.ranks[w] == s[0]
        assert table.classes[table.values[w]] == s
    by_value = sorted(range(len(ws)), key=lambda j: (int(table.values[ws[j]]), j))
    by_strength = sorted(range(len(ws)), key=lambda j: (strengths[j], j))
    assert by_value == by_strength
    assert [table.values[ws[j]] for j in by_value] == sorted(table.values[w] for w in ws)


def test_values_agree_with_pydatalog_the_reference(built):
    engine, table = built
    rng = random.Random(9)
    ws = rng.sample(range(N26), 12) + [int(np.flatnonzero(table.ranks == r)[0]) for r in np.unique(table.ranks)]
    asks = [Ask(I.GET_RANK, (1, None)), Ask(I.HAND_KEY, (1, None, None, None))]
    answers = engine.reference.answers([World((tuple(hand_of(table, w)),)) for w in ws], asks)
    for w, a in zip(ws, answers):
        ranks = {r[1] for r in a[asks[0]]}
        assert len(ranks) == 1
        key = tuple(v for _, _, _, v in sorted(a[asks[1]]))
        assert table.classes[table.values[w]] == (ranks.pop(), key)


def test_the_categories_count_as_combinatorics_says(built):
    engine, table = built
    counts = Counter(engine.categories[int(r)] for r in table.ranks)
    straights = 10 * 2 ** 5                        # 10 runs, each card of two suits
    assert counts["straight flush"] + counts["royal flush"] == 2 * 10
    assert counts["royal flush"] == 2
    assert counts["flush"] == 2 * (math.comb(13, 5) - 10)
    assert counts["straight"] == straights - 2 * 10
    assert counts["four of a kind"] == 0 and counts["full house"] == 0   # two suits: no trips at all
    assert counts["three of a kind"] == 0
    assert counts["two pair"] == math.comb(13, 2) * 11 * 2
    assert sum(counts.values()) == N26


def test_progress_counts_every_hand(rules26):
    seen: list[tuple[str, int]] = []
    done: list[int] = []

    def progress(what: str, total: int):
        seen.append((what, total))
        return done.append

    five_card_table(Engine(rules26), progress=progress, cache=False)
    # the rules are blind to suits: one hand of each class of hands alike but for their suits
    classes = len(np.unique(_suit_classes([Engine(rules26)], 26)[1]))
    assert seen == [("classes of five-card hands alike but for their suits", classes)] and sum(done) == classes
    assert classes == N26 // 2          # two suits: swapping them fixes no five cards (five is odd)


def test_the_classes_of_a_deck_are_worked_out_once_and_shared_read_only(rules26, tmp_path):
    # Two rule sets of one deck (an edit in names only) share the classes of its hands: the
    # second table build does not sort its 65,780 hands again, and nobody can write into them.
    other = small_deck(tmp_path / "other")
    edit(other / "ranking.dl", "categoryName(1, 'high card')", "categoryName(1, 'high-card')")
    first, inverse = _suit_classes([Engine(rules26)], 26)
    again = _suit_classes([Engine(other)], 26)
    assert again[0] is first and again[1] is inverse
    assert not first.flags.writeable and not inverse.flags.writeable


def test_a_table_built_by_classes_is_the_table_of_every_hand(rules26, built, monkeypatch, tmp_path):
    # The same rules, built hand by hand (no symmetry), give the same table; and an edit that
    # reads one suit by name is not blind to suits, and is built hand by hand.
    import engine.judging.proof
    monkeypatch.setattr(engine.judging.proof, "suit_symmetry", lambda clauses: "not used")
    every = five_card_table(Engine(rules26), cache=False)
    _, built = built
    assert np.array_equal(every.values, built.values) and np.array_equal(every.ranks, built.ranks)
    assert every.classes == built.classes and every.places == built.places and every.is_hand == built.is_hand
    monkeypatch.undo()
    edited = copy_rules(tmp_path / "hearts")
    with open(edited / "ranking.dl", "a", encoding="utf-8") as f:
        f.write("\nx_D: hearts(S) <= member(S, C) & getSuit(C, 1)\n"
                "x_D: isHand(S) <= isSetCard(S) & hearts(S) & size(S, 5)\n")
    why = suit_symmetry(Engine(edited).ruleset.clauses)
    assert isinstance(why, str) and "getSuit is given a suit that is a constant" in why
    assert not isinstance(suit_symmetry(Engine(rules26).ruleset.clauses), str)


@pytest.mark.parametrize("named", ["getSuit(C, U) & getSuit(1, U)", "getSuit(C, U) & (D == 1) & getSuit(D, U)"])
def test_a_suit_named_through_a_card_that_is_not_the_hands_is_not_blind(tmp_path, named):
    # getSuit of a constant card names a suit (the ace of hearts': hearts) as surely as getSuit(C, 1)
    edited = copy_rules(tmp_path / "hearts")
    with open(edited / "ranking.dl", "a", encoding="utf-8") as f:
        f.write(f"\nx_D: hearts(S) <= member(S, C) & {named}\n"
                "x_D: isHand(S) <= isSetCard(S) & hearts(S) & size(S, 5)\n")
    why = suit_symmetry(Engine(edited).ruleset.clauses)
    assert isinstance(why, str) and "getSuit is given a card that is not one of the hand's" in why, why
    assert "ranking.dl" in why


def test_memoised_per_engine(built):
    engine, table = built
    before = T.STATS["memo"]
    assert five_card_table(engine, cache=False) is table
    assert T.STATS["memo"] == before + 1


def test_rules_that_do_not_compile_cannot_make_a_table(tmp_path):
    rules = small_deck(tmp_path / "rules")
    with open(rules / "ranking.dl", "a", encoding="utf-8") as f:
        f.write("\nr_x: (f[X] == max_(Y, order_by=I)) <= holds(X, I, Y)\n")
    engine = Engine(rules)
    assert engine.fallback
    with pytest.raises(TableError, match="needs compiled rules"):
        five_card_table(engine, cache=False)


def test_a_hand_without_exactly_one_rank_is_named(tmp_path, built):
    rules = small_deck(tmp_path / "rules")
    edit(rules / "ranking.dl", "getRank_Straight: getRank(S, 5) <= isHand(S) & isStraight(S) & ~isFlush(S)",
         "getRank_Straight: getRank(S, 5) <= isHand(S) & isStraight(S) & ~isFlush(S) & isA(S)")
    with pytest.raises(TableError, match="no rank") as info:
        five_card_table(Engine(rules), cache=False)
    hand = str(info.value).split("the hand ")[1].split(" no rank")[0]
    standard = built[0]
    assert standard.category(hand) == "straight" and not standard.is_a(hand)
    # two ranks for some hands: named as well
    rules2 = small_deck(tmp_path / "rules2")
    edit(rules2 / "ranking.dl", "getRank_Flush: getRank(S, 6) <= isHand(S) & ~isStraight(S) & isFlush(S)",
         "getRank_Flush: getRank(S, 6) <= isHand(S) & isFlush(S)")
    with pytest.raises(TableError, match="2 ranks"):
        five_card_table(Engine(rules2), cache=False)


def eventb26(folder: Path) -> Path:
    """The 26-card rules with the Event-B numbering (5 flush, 6 straight), as in test_diff.py."""
    return eventb_numbering(small_deck(folder))


def test_tables_built_together_are_the_tables_built_alone(tmp_path, rules26, built):
    # poker diff builds its two tables in one pass over the hands, in one joint program where
    # what both rule sets define alike is computed once: the tables must be the same.
    cardid = small_deck(tmp_path / "cardid")
    edit(cardid / "ranking.dl", "member(S, X) & getSuit(X, T) & member(S, Y) & getSuit(Y, U)",
         "member(S, X) & cardId(X, V, T) & member(S, Y) & cardId(Y, W, U)")
    folders = [rules26, eventb26(tmp_path / "eventb"), cardid]
    alone = [built[1]] + [five_card_table(Engine(f), cache=False) for f in folders[1:]]
    before = T.STATS["built"]
    together = T.five_card_tables([Engine(f) for f in folders], cache=False)
    assert T.STATS["built"] - before == 3
    for a, b in zip(alone, together):
        assert same(a, b) and a.rules_digest == b.rules_digest
    assert not same(together[0], together[1])          # the flush and the straight swapped ranks
    assert (together[0].values == together[2].values).all()   # suits through cardId: the same order
    twice = Engine(rules26)                            # one table for the same rules given twice
    first, second = T.five_card_tables([twice, Engine(rules26)], cache=False)
    assert first is second and same(first, built[1])


def test_a_table_built_together_names_the_rule_set_without_one_rank(tmp_path, rules26):
    bad = small_deck(tmp_path / "bad")
    edit(bad / "ranking.dl", "getRank_Flush: getRank(S, 6) <= isHand(S) & ~isStraight(S) & isFlush(S)",
         "getRank_Flush: getRank(S, 6) <= isHand(S) & isFlush(S)")
    good, wrong = Engine(rules26), Engine(bad)
    with pytest.raises(TableError, match="2 ranks") as info:
        T.five_card_tables([good, wrong], cache=False)
    assert str(info.value).startswith(f"{wrong.name}: the rules give the hand ")


# ---- the cache ------------------------------------------------------------------------------


def fresh(rules: Path, **kw) -> tuple[FiveTable, Counter]:
    """The table of a new Engine (no memo), and how it came (built / loaded)."""
    before = Counter(T.STATS)
    table = five_card_table(Engine(rules), **kw)
    return table, Counter({k: T.STATS[k] - before[k] for k in ("built", "loaded")})


def same(a: FiveTable, b: FiveTable) -> bool:
    return (a.cards == b.cards and a.classes == b.classes and a.values.dtype == b.values.dtype
            and (a.values == b.values).all() and a.ranks.dtype == b.ranks.dtype and (a.ranks == b.ranks).all())


def test_cache_round_trip(rules26, built, cache, capsys):
    table, how = fresh(rules26)
    assert how == {"built": 1, "loaded": 0} and same(table, built[1])
    path = cache_path(rules_digest(built[0]))
    assert path.parent == cache and path.is_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask()
    assert not [p for p in cache.iterdir() if p.name.endswith(".tmp")]
    again, how = fresh(rules26)
    assert how == {"built": 0, "loaded": 1} and same(again, built[1])
    assert capsys.readouterr().err == ""
    header, _ = split(path.read_bytes())
    assert header["digest"] == rules_digest(built[0]) and header["n"] == 26
    assert header["counts"]["hands"] == N26 and header["counts"]["classes"] == len(built[1].classes)
    # cache=False neither reads nor writes
    path.unlink()
    _, how = fresh(rules26, cache=False)
    assert how == {"built": 1, "loaded": 0} and not path.exists()


def test_tables_built_together_are_cached_each(tmp_path, rules26, built, cache, capsys):
    other = eventb26(tmp_path / "eventb")
    before = Counter(T.STATS)
    first = T.five_card_tables([Engine(rules26), Engine(other)])
    assert T.STATS["built"] - before["built"] == 2 and T.STATS["loaded"] == before["loaded"]
    assert same(first[0], built[1])
    before = Counter(T.STATS)
    again = T.five_card_tables([Engine(rules26), Engine(other)])
    assert T.STATS["loaded"] - before["loaded"] == 2 and T.STATS["built"] == before["built"]
    assert all(same(a, b) for a, b in zip(first, again))
    assert capsys.readouterr().err == ""


def test_the_cache_place_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("POKER_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert TC.cache_dir() == tmp_path / "xdg" / "poker-engine"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert TC.cache_dir() == tmp_path / "home" / ".cache" / "poker-engine"
    monkeypatch.setenv("POKER_CACHE_DIR", str(tmp_path / "mine"))
    assert TC.cache_dir() == tmp_path / "mine"


def test_an_edited_rule_set_never_reads_the_old_table(tmp_path, built, cache, capsys):
    rules = small_deck(tmp_path / "rules")
    first, how = fresh(rules)
    assert how["built"] == 1
    old = cache_path(rules_digest(Engine(rules)))
    # beat_Flush compares the flush's max card only: another table
    edit(rules / "fighting.dl", "beat_Flush: keyPart(6, 1, 'all')", "beat_Flush: keyPart(6, 1, 'maxCard')")
    digest = rules_digest(Engine(rules))
    assert cache_path(digest) != old
    second, how = fresh(rules)
    assert how == {"built": 1, "loaded": 0}
    assert len(second.classes) < len(first.classes)
    assert capsys.readouterr().err == ""
    # the old file put where the new one belongs: its header's digest gives it away
    cache_path(digest).write_bytes(old.read_bytes())
    third, how = fresh(rules)
    assert how == {"built": 1, "loaded": 0} and same(third, second)
    assert "digest differs" in capsys.readouterr().err


def test_a_table_cached_after_an_engine_looked_is_found_and_a_refused_one_is_not_read_again(rules26, built, cache, capsys):
    # A long-lived engine (the REPL, poker's per-process engines) that looked for its table when
    # none was cached must find the one another process caches later, and not look again (nor
    # verify again) while the file is unchanged.
    engine = Engine(rules26)
    assert engine.tabled() is None
    data = bytearray(TC._serialise(built[1]))
    data[-10] ^= 0x01
    path = planted(cache, built[1], bytes(data))          # a refused file: said once
    before = Counter(T.STATS)
    assert engine.tabled() is None and engine.tabled() is None
    assert len(capsys.readouterr().err.splitlines()) == 1
    os.utime(path, ns=(1, 1))
    planted(cache, built[1])                              # then a sound one, written by another process
    fast = engine.tabled()
    assert fast is not None and same(fast.table, built[1]) and engine.tabled() is fast
    assert Counter(T.STATS) - before == Counter({"loaded": 1})


def planted(cache: Path, table: FiveTable, data: bytes | None = None) -> Path:
    """A cache file for the table (or the given bytes) where the cache would look for it."""
    path = cache_path(table.rules_digest)
    cache.mkdir(parents=True, exist_ok=True)
    path.write_bytes(TC._serialise(table) if data is None else data)
    return path


def ignored(capsys, rules26, built, why: str) -> None:
    table, how = fresh(rules26)
    assert how == {"built": 1, "loaded": 0} and same(table, built[1])
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "is ignored" in err[0] and why in err[0] and "rebuilt" in err[0], err
    table, how = fresh(rules26)                       # the rebuilt file is sound again
    assert how == {"built": 0, "loaded": 1}
    assert capsys.readouterr().err == ""


def test_a_corrupted_payload_is_ignored(rules26, built, cache, capsys):
    data = bytearray(TC._serialise(built[1]))
    data[-10] ^= 0x01
    planted(cache, built[1], bytes(data))
    ignored(capsys, rules26, built, "SHA-256")


def split(data: bytes) -> tuple[dict, bytes]:
    """A cache file's header (JSON) and payload."""
    start = len(TC.MAGIC) + 4
    size = int.from_bytes(data[len(TC.MAGIC):start], "little")
    return json.loads(data[start:start + size]), data[start + size:]


def joined(header: dict, payload: bytes) -> bytes:
    head = json.dumps(header, separators=(",", ":")).encode()
    return TC.MAGIC + len(head).to_bytes(4, "little") + head + payload


def test_a_wrong_header_is_ignored(rules26, built, cache, capsys):
    header, payload = split(TC._serialise(built[1]))
    header["counts"]["hands"] += 1
    planted(cache, built[1], joined(header, payload))
    ignored(capsys, rules26, built, "header does not match")


def test_a_header_that_lies_about_an_array_is_ignored(rules26, built, cache, capsys):
    # A resigned payload whose ranks array claims more elements than its bytes hold.
    header, payload = split(TC._serialise(built[1]))
    sizes = dict(header["arrays"])
    at = sizes["values"]
    ranks = payload[at:at + sizes["ranks"]]
    bad = ranks.replace(f"({N26},)".encode(), f"({N26 * 1000},)".encode())
    assert bad != ranks and len(bad) == len(ranks) + 3
    payload = payload[:at] + bad + payload[at + sizes["ranks"]:]
    header["arrays"] = [[k, v + 3 if k == "ranks" else v] for k, v in header["arrays"]]
    header["payload"] = {"bytes": len(payload), "sha256": __import__("hashlib").sha256(payload).hexdigest()}
    planted(cache, built[1], joined(header, payload))
    ignored(capsys, rules26, built, "does not have the bytes its shape needs")


def test_a_file_that_is_not_a_table_is_ignored(rules26, built, cache, capsys):
    planted(cache, built[1], b"hello\n")
    ignored(capsys, rules26, built, "not a five-card table file")


def test_a_truncated_file_is_ignored(rules26, built, cache, capsys):
    data = TC._serialise(built[1])
    planted(cache, built[1], data[:len(data) // 2])
    ignored(capsys, rules26, built, "truncated")


def test_a_fifo_is_ignored_without_blocking(rules26, built, cache, capsys):
    cache.mkdir()
    os.mkfifo(cache_path(built[1].rules_digest))
    ignored(capsys, rules26, built, "not a regular file")
    assert cache_path(built[1].rules_digest).is_file()


def test_a_symbolic_link_to_a_device_is_ignored(rules26, built, cache, capsys):
    cache.mkdir()
    path = cache_path(built[1].rules_digest)
    path.symlink_to("/dev/zero")
    ignored(capsys, rules26, built, "symbolic link")
    assert path.is_file() and not path.is_symlink()      # replaced, never written through


def test_a_tampered_table_with_a_matching_checksum_is_caught_by_the_sample(rules26, built, cache, capsys):
    # The values of the one-pair hands shuffled among them: ranks, classes, density and the
    # checksum all hold, only the rules' answers for the hands tell.
    good = built[1]
    values = np.array(good.values)
    pairs = np.flatnonzero(good.ranks == 2)
    values[pairs] = np.random.default_rng(1).permutation(values[pairs])
    tampered = FiveTable(good.cards, values, np.array(good.ranks), good.classes, good.rules_digest)
    planted(cache, tampered)
    table, how = fresh(rules26, seed=0)
    assert how == {"built": 1, "loaded": 0} and same(table, good)
    err = capsys.readouterr().err
    assert "is ignored: the rules give the hand" in err and "strength" in err


def test_a_cache_directory_that_cannot_be_written_is_named_once(rules26, built, tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("POKER_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(TC, "_warned", set())
    table, how = fresh(rules26)
    assert how == {"built": 1, "loaded": 0} and same(table, built[1])
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and str(blocker / "cache") in err[0] and "cannot be written" in err[0]
    fresh(rules26)
    assert capsys.readouterr().err == ""                 # once


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root writes anywhere")
def test_a_read_only_cache_directory_is_read_and_not_written(rules26, built, cache, capsys):
    cache.mkdir()
    cache.chmod(0o500)
    try:
        table, how = fresh(rules26)
        assert how == {"built": 1, "loaded": 0}
        assert "cannot be written" in capsys.readouterr().err
        assert not list(cache.iterdir())
    finally:
        cache.chmod(0o700)
    planted(cache, built[1])
    cache.chmod(0o500)
    try:
        table, how = fresh(rules26)                       # a valid table there is still read
        assert how == {"built": 0, "loaded": 1} and same(table, built[1])
    finally:
        cache.chmod(0o700)


def test_two_processes_sharing_an_empty_cache_build_once(rules26, cache):
    script = ("import sys; from engine import Engine; from engine.judging.table import five_card_table, STATS; "
              "five_card_table(Engine(sys.argv[1])); print(STATS['built'], STATS['loaded'])")
    env = dict(os.environ, POKER_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-c", script, str(rules26)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert sorted(o.split() for o, _ in outs) == [["0", "1"], ["1", "0"]], outs
    assert all(err == "" for _, err in outs), outs


# ---- the whole deck ---------------------------------------------------------------------------


@pytest.mark.slow
def test_the_standard_table_over_all_2598960_hands(engine):
    table = five_card_table(engine)              # built once for the run: the shared cache (conftest)
    assert len(table.values) == 2_598_960 and len(table.classes) == 7462   # the distinct poker hands
    counts = Counter()
    for r, n in zip(*np.unique(table.ranks, return_counts=True)):
        counts[engine.categories[int(r)]] = int(n)
    assert counts == Counter(EXPECTED)
    rng = random.Random(2)
    ws = rng.sample(range(len(table.values)), 300)
    for w in ws:
        assert table.classes[table.values[w]] == engine.strength(hand_of(table, w))


def test_a_fresh_table_is_verified_outside_the_classes_it_was_built_from(rules26, built, monkeypatch, tmp_path, capsys):
    # Issue 30: a table built one hand per suit class is sampled on the other hands, as a cached
    # one is.  Rules that tell hearts flushes apart, with the symmetry proof told to say yes: the
    # sample finds it, and every hand is asked instead.
    import engine.judging.proof
    rules = small_deck(tmp_path / "hearts")
    edit(rules / "ranking.dl", "isFlush_F2: isFlush(S) <= isHand(S) & ~mixedSuits(S)",
         "isFlush_F2: isFlush(S) <= isHand(S) & ~mixedSuits(S) & ~hearts(S)\n"
         "x_D: hearts(S) <= member(S, C) & getSuit(C, 1)")
    eng = Engine(rules)
    assert isinstance(suit_symmetry(eng.ruleset.clauses), str)
    blind = suit_symmetry(Engine(rules26).ruleset.clauses)
    monkeypatch.setattr(engine.judging.proof, "suit_symmetry", lambda clauses: blind)
    table = five_card_table(eng, cache=False)
    err = capsys.readouterr().err
    assert err.count("is not the rules' on a hand outside them") == 1 and "every hand is asked instead" in err
    monkeypatch.undo()
    every = five_card_table(Engine(rules), cache=False)
    assert np.array_equal(table.values, every.values) and np.array_equal(table.ranks, every.ranks)
    flushes = {eng.categories[r]: n for r, n in zip(*np.unique(table.ranks, return_counts=True))}["flush"]
    assert flushes == math.comb(13, 5) - 10                  # diamonds only
    assert T.five_card_table(Engine(rules26), cache=False).values is not None      # a symmetric build says nothing
    assert capsys.readouterr().err == ""
