"""`poker diff A B`: category transitions, renumbered ranks and changed fights, with examples
asked of both rule sets' beat.  On a 26-card deck (hearts and diamonds), so that it runs in
seconds; the full standard/eventb run is bench/bench_diff.py (and the README's example).

Both ways of getting the strengths are run: the five-card tables (memoised, cached) and, for rules
that leave a hand without one rank, every hand asked through engine.check.every_hand; they must
give the same Diff.  The counting in numpy is checked against a count of every pair of groups."""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pytest

import engine.check.diff as D
from conftest import copy_rules, edit, eventb_numbering
from engine import Engine
from engine.check import unrank
from engine.check.diff import diff
from engine.cli import main
from engine.judging import table as T
from engine.poker.sevens import five_hands, uncolex

DECK = "cardId_F: cardId(C, V, S) <= valueName(V, N, P) & suitName(S, M, Q) & (C == 13 * (S - 1) + V)"


def small_deck(tmp_path, name: str):
    rules = copy_rules(tmp_path / name)
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")
    return rules


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("diff")
    a = small_deck(tmp, "a")
    b = eventb_numbering(small_deck(tmp, "b"))          # 5 flush, 6 straight
    return a, b


HANDS = math.comb(26, 5)
FLUSHES, STRAIGHTS = 2 * (math.comb(13, 5) - 10), 10 * 2 ** 5 - 2 * 10
HIGH_CARDS = (math.comb(13, 5) - 10) * (2 ** 5 - 2)
STRAIGHT_FLUSHES = 2 * 10


def test_the_swap_of_flush_and_straight(pair):
    a, b = (Engine(p) for p in pair)
    result = diff(a, b)
    hands = math.comb(26, 5)
    flushes, straights = 2 * (math.comb(13, 5) - 10), 10 * 2 ** 5 - 2 * 10
    assert result.hands == hands
    assert result.categories == []                                  # no hand changes category
    assert {(r["category"], r["from"], r["to"], r["count"]) for r in result.renumbered} == {
        ("flush", 6, 5, flushes), ("straight", 5, 6, straights)}
    assert result.pairs == hands * (hands - 1) // 2
    assert [(k["hands"], k["from"], k["to"], k["count"]) for k in result.kinds] == [
        (["flush", "straight"], 1, 2, flushes * straights)]
    assert result.changed == flushes * straights
    example = result.kinds[0]["example"]
    assert example["agrees"] and (example["a"], example["b"]) == (1, 2)
    x, y = example["hands"]
    assert a.category(x) == "flush" and a.category(y) == "straight"
    assert a.beat(x, y) == 1 and b.beat(x, y) == 2              # the rules' own word


def test_a_rule_set_against_itself_changes_nothing(pair):
    a = Engine(pair[0])
    result = diff(a, a)
    assert result.categories == result.renumbered == result.kinds == [] and result.changed == 0


def test_diff_command_text_and_json(pair, capsys):
    a, b = map(str, pair)
    assert main(["diff", a, b]) == 0
    out = capsys.readouterr().out
    assert "flush: rank 6 -> 5: 2,554" in out and "flush vs straight: 1 -> 2: 766,200" in out
    assert main(["diff", a, b, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["fights"]["changed"] == 766_200 and "unordered pairs" in data["fights"]["counted"]


def test_diff_names_a_rule_set_it_cannot_read(capsys):
    assert main(["diff", "standard", "nosuch"]) == 2
    assert "nosuch" in capsys.readouterr().err



def small_variant(folder, extends: str):
    """A named rule set on the 26-card deck: a variant of it that only narrows cardId."""
    folder.mkdir()
    (folder / "variant.toml").write_text(f'extends = "{extends}"\n', encoding="utf-8")
    (folder / "deck.dl").write_text(DECK + " & (S <= 2)\n", encoding="utf-8")
    return folder


def test_standard_against_eventb_every_kind_has_an_example(tmp_path):
    """eventb also lets A-2-3-4-5 beat every straight but 10-J-Q-K-A: two kinds of change, each
    with a disjoint example fight whose verdicts are the strengths' (the first hands of the two
    groups of straights share cards: the examples must look further)."""
    a, b = (Engine(small_variant(tmp_path / name, name.rstrip("26"))) for name in ("standard26", "eventb26"))
    assert len(a.deck) == 26
    result = diff(a, b)
    wheels, middle = 2 ** 5 - 2, 8 * (2 ** 5 - 2)          # 6-high to K-high straights
    assert [(k["hands"], k["from"], k["to"], k["count"]) for k in result.kinds] == [
        (["flush", "straight"], 1, 2, FLUSHES * STRAIGHTS), (["straight", "straight"], 1, 2, wheels * middle)]
    for kind in result.kinds:
        example = kind["example"]
        x, y = example["hands"]
        assert not set(x.split()) & set(y.split()) and example["agrees"]
        assert [a.category(x), a.category(y)] == kind["hands"]
        assert (a.beat(x, y), b.beat(x, y)) == (example["a"], example["b"]) == (1, 2)

# ---- where the strengths come from: the tables, or every hand asked -------------------------


def _no_every_hand(*args, **kwargs):
    raise AssertionError("every_hand asked although the tables serve")


def test_the_table_and_every_hand_give_the_same_diff(pair, monkeypatch, capsys):
    a, b = (Engine(p) for p in pair)
    monkeypatch.setattr(D, "every_hand", _no_every_hand)
    via_table = diff(a, b)
    assert capsys.readouterr().err == ""
    monkeypatch.undo()
    asked = Counter()
    real = D.every_hand

    def counting(engine, *args, **kwargs):
        asked[engine.name] += 1
        yield from real(engine, *args, **kwargs)

    def no_table(engines, *args, **kwargs):
        raise T.TableError(f"{engines[0].name}: no table here")

    monkeypatch.setattr(D, "every_hand", counting)
    monkeypatch.setattr(D, "five_card_tables", no_table)
    slow = diff(Engine(pair[0]), Engine(pair[1]))
    assert set(asked) == {a.name, b.name}                         # both rule sets asked hand by hand
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{a.name}: no table here" in err and "slower" in err
    assert slow.as_dict() == via_table.as_dict()                # examples and all
    assert slow.unranked == {} and slow.changed == FLUSHES * STRAIGHTS


def test_a_second_diff_reuses_the_memoised_tables(pair, monkeypatch):
    a, b = (Engine(p) for p in pair)
    first = diff(a, b)
    before = Counter(T.STATS)
    monkeypatch.setattr(D, "every_hand", _no_every_hand)
    second = diff(a, b)
    got = Counter(T.STATS)
    got.subtract(before)
    assert +got == Counter(memo=2)                       # neither built nor read from the cache
    assert second.as_dict() == first.as_dict()


def test_hands_without_one_rank_take_every_hand(pair, tmp_path, capsys):
    """A gives straight flushes two ranks, B gives high cards none: no table for either, so
    every hand is asked of both; the hands without one rank are counted and left out."""
    a = copy_rules(tmp_path / "a2")
    for f in pair[0].iterdir():
        (a / f.name).write_bytes(f.read_bytes())
    edit(a / "ranking.dl", "getRank_Straight: getRank(S, 5) <= isHand(S) & isStraight(S) & ~isFlush(S)",
         "getRank_Straight: getRank(S, 5) <= isHand(S) & isStraight(S)")
    b = copy_rules(tmp_path / "b2")
    for f in pair[1].iterdir():
        (b / f.name).write_bytes(f.read_bytes())
    edit(b / "ranking.dl", "getRank_HightCard: getRank(S, 1) <= isHand(S) & ~isPair(S)",
         "getRank_HightCard: getRank(S, 1) <= isHand(S) & isPair(S) & ~isPair(S)")
    a, b = Engine(a), Engine(b)
    result = diff(a, b)
    err = capsys.readouterr().err
    assert f"no five-card table ({a.name}: the rules give the hand" in err and "2 ranks" in err
    assert result.hands == HANDS
    assert result.unranked == {a.name: STRAIGHT_FLUSHES, b.name: HIGH_CARDS}
    ranked = HANDS - STRAIGHT_FLUSHES - HIGH_CARDS
    assert result.pairs == ranked * (ranked - 1) // 2
    assert result.categories == []
    assert {(r["category"], r["from"], r["to"], r["count"]) for r in result.renumbered} == {
        ("flush", 6, 5, FLUSHES), ("straight", 5, 6, STRAIGHTS)}
    assert [(k["hands"], k["from"], k["to"], k["count"]) for k in result.kinds] == [
        (["flush", "straight"], 1, 2, FLUSHES * STRAIGHTS)]
    assert f"  {HIGH_CARDS:,} hands get no single rank from {b.name}" in result.lines()
    x, y = result.kinds[0]["example"]["hands"]
    assert Engine(pair[0]).category(x) == "flush" and Engine(pair[0]).category(y) == "straight"


def test_no_cache_from_the_command_line(pair, tmp_path, monkeypatch, capsys):
    folder = tmp_path / "cache"
    monkeypatch.setenv("POKER_CACHE_DIR", str(folder))
    a, b = map(str, pair)

    def run(*extra: str) -> Counter:
        before = Counter(T.STATS)
        assert main(["diff", a, b, *extra]) == 0
        assert "flush vs straight: 1 -> 2: 766,200" in capsys.readouterr().out
        got = Counter(T.STATS)
        got.subtract(before)
        return +got

    assert run("--no-cache") == Counter(built=2)
    assert not folder.exists() or not list(folder.glob("*.table"))      # nothing written
    assert run() == Counter(built=2) and len(list(folder.glob("*.table"))) == 2
    assert run() == Counter(loaded=2)                                   # read back, verified
    assert run("--no-cache") == Counter(built=2)                        # the files are not read


# ---- the counting, against every pair of groups ----------------------------------------------


def test_the_counts_match_every_pair_of_groups():
    rng = np.random.default_rng(7)
    for _ in range(200):
        ka, kb, labels = (int(rng.integers(1, k)) for k in (12, 12, 4))
        pairs = sorted({(int(rng.integers(0, ka)), int(rng.integers(0, kb)))
                        for _ in range(rng.integers(1, 40))})
        ga, gb = (np.array(c) for c in zip(*pairs))
        n = rng.integers(1, 50, size=len(pairs))
        lab = rng.integers(0, labels, size=ka)[ga]               # a class under A has one rank
        want: dict = {}
        first: dict = {}
        for p, q in ((p, q) for p in range(len(pairs)) for q in range(p)):
            va = int(ga[p] > ga[q])
            vb = 1 if gb[p] > gb[q] else 2 if gb[p] < gb[q] else 0
            if va != vb:
                kind = (int(lab[p]), int(lab[q]), va, vb)
                want[kind] = want.get(kind, 0) + int(n[p] * n[q])
                first.setdefault(kind, (p, q))
        assert D._kinds(ga, gb, n, lab, labels) == want
        assert {k: D._first_pair(ga, gb, lab, k[0], k[1], k[2:]) for k in want} == first


def test_hands_are_found_by_their_index():
    n = 9
    total = math.comb(n, 5)
    assert uncolex(np.arange(total), n).tolist() == five_hands(n).tolist()
    colex = D._colex_of_lex(np.arange(total), n)
    assert [five_hands(n)[c].tolist() for c in colex] == [unrank(w, list(range(n))) for w in range(total)]
    assert uncolex([math.comb(70, 5) - 1], 70).tolist() == [[65, 66, 67, 68, 69]]   # beyond 64 cards


# ---- issue 30, 3: fights counted by beat, or sampled where beat is not proven ----------------------

SWAPPED = ("beat_D: beat(A, B, R) <= beatRank(A, B, 0) & tieBreak(A, B, R)",
           "beat_D: beat(A, B, R) <= beatRank(A, B, 0) & tieBreak(B, A, R)")
MIN = "(decidingPart[A, B] == min_(O, order_by=O))"


def test_the_examples_beat_with_the_tie_break_swapped(tmp_path):
    # The fight, on the 52-card deck: no table needed, the rules are asked.
    rules = copy_rules(tmp_path / "swapped")
    edit(rules / "fighting.dl", *SWAPPED)
    assert Engine(rules).beat("JH JD 2C 2S 4H", "TH TD 9C 9S 8H") == 2
    assert Engine().beat("JH JD 2C 2S 4H", "TH TD 9C 9S 8H") == 1


def test_a_beat_not_proven_to_be_the_tables_order_is_sampled(pair, tmp_path, capsys):
    b = small_deck(tmp_path, "swapped")
    edit(b / "fighting.dl", *SWAPPED)
    a, edited = Engine(pair[0]), Engine(b)
    result = diff(a, edited, samples=3000, seed=4)
    s = result.sampled
    assert result.unproven and "beat of two disjoint hands is the table's order" in result.unproven
    assert not result.kinds and s is not None and s.fights == 3000 and s.stratified > 0
    assert s.changed > 500                                  # every fight of one category and distinct keys
    assert s.interval[0] < s.changed / s.fights < s.interval[1]
    assert s.population == math.comb(26, 5) * math.comb(21, 5) // 2
    assert sum(k["count"] for k in s.kinds) == s.changed
    for kind in s.kinds[:4]:
        for x, y in kind["examples"]:
            assert (a.beat(x, y), edited.beat(x, y)) == (kind["from"], kind["to"])   # the rules' own word
    lines = result.lines()
    assert lines[2].startswith(f"fights (sampled, seed 4): {s.changed:,} of 3,000 sampled fights")
    assert lines[3].startswith("  (sampled, not counted: for ")
    assert main(["diff", str(pair[0]), str(b), "--samples", "3000", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["fights"]
    assert data["sampled"]["changed"] == s.changed and data["unproven"] == result.unproven


def test_a_tie_break_that_is_not_a_strength_is_sampled_not_left_uncounted(pair, tmp_path):
    b = small_deck(tmp_path, "max")
    edit(b / "fighting.dl", MIN, MIN.replace("min_", "max_"))
    result = diff(Engine(pair[0]), Engine(b), samples=2000)
    assert result.sampled is not None and not any(line.startswith("fights: not counted") for line in result.lines())
    assert result.sampled.changed + result.sampled.stratified_changed > 0


def test_diff_samples_must_be_positive(pair, capsys):
    assert main(["diff", str(pair[0]), str(pair[1]), "--samples", "0"]) == 2
    assert "--samples" in capsys.readouterr().err


def test_a_budget_that_runs_out_while_fights_are_sampled_stops_the_diff(pair, monkeypatch):
    # BudgetExceeded is a RuntimeError, as is "several ranks for one hand": only the latter is
    # asked again fight by fight.
    from engine.limits import BudgetExceeded

    def run_out(*args, **kwargs):
        raise BudgetExceeded("the diff ran past its time budget")
    monkeypatch.setattr(D, "verdicts", run_out)
    a = Engine(pair[0])
    with pytest.raises(BudgetExceeded):
        D._results(a, [[tuple(a.cards("AH 2H 3H 4H 6D")), tuple(a.cards("KD QD 9H 8H 7H"))]] * 4, None)


def test_sampled_examples_are_the_fights_as_asked(pair, tmp_path):
    # Found by the table-path fuzzer: validFighting reads only the first hand's lowest card, so
    # beat is not antisymmetric; an example turned round was not the rules' verdict.
    b = small_deck(tmp_path, "asymmetric")
    edit(b / "fighting.dl", "validFighting_F: validFighting(A, B) <= isHand(A) & isHand(B) & ~shareCard(A, B)",
         "validFighting_F: validFighting(A, B) <= isHand(A) & isHand(B) & ~shareCard(A, B) & ~x(A)\n"
         "x_D: (low[S] == min_(C, order_by=C)) <= member(S, C)\nx_D: x(S) <= (low[S] == 13)")
    a, edited = Engine(pair[0]), Engine(b)
    result = diff(a, edited, samples=400, seed=3)
    assert result.sampled is not None and result.sampled.kinds
    for kind in result.sampled.kinds:
        assert kind["to"] == -1
        for x, y in kind["examples"]:
            assert (a.beat(x, y), edited.beat(x, y)) == (kind["from"], kind["to"])
            assert min(edited.cards(x)) == 13
