"""`poker check`: the obligations over all 2,598,960 hands (a reduced sample of fights in CI),
for the standard rules and for edited rule sets, including edits that once fooled a static
analysis (a suit read through cardId)."""

from __future__ import annotations

import json
import math

import pytest
from published import EXPECTED

from conftest import copy_rules, edit, manila
from engine import Engine
from engine.check import check
from engine.cli import main
from engine.datalog import rulesets

DECK = "(C == 13 * (S - 1) + V)"
SAMPLES = 3000        # CI's reduced check: all hands, fewer sampled fights (the benchmark runs 100,000)


@pytest.fixture(scope="module")
def report(engine):
    return check(engine, samples=SAMPLES, reference_samples=10)


def test_every_hand_has_one_rank_and_the_frequencies_are_the_table(report):
    assert report.total == 2598960 == sum(EXPECTED.values())
    assert report.frequencies == EXPECTED
    assert report.ok, [o for o in report.obligations if not o.holds]
    names = {o.name for o in report.obligations}
    assert {"getRank total and single-valued", "frequencies equal the published table",
            "beat antisymmetric", "beat transitive (beat_Bonus)", "beatRank agrees with getRank",
            "compiled evaluator agrees with pyDatalog"} <= names


def test_check_command_json(report, capsys):
    assert main(["check", "--json", "--samples", "500", "--reference-samples", "4"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 2598960 and data["frequencies"] == EXPECTED
    assert all(o["holds"] and o["counterexample"] is None for o in data["obligations"].values())
    assert set(data["paths"].values()) == {"off the table (proven)"} and len(data["paths"]) == 7
    assert all(line.startswith("holds: ") for lines in data["proofs"].values() for line in lines)
    assert "proven for every fight of two disjoint hands" in data["obligations"]["beat antisymmetric"]["checked"]
    assert "one hand of each class of hands alike but for their suits" in data["method"]


def test_a_broken_rule_fails_with_a_counterexample(tmp_path, report, capsys):
    # A four of a kind named a full house: the table is the same, the frequencies are not.
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "ranking.dl", "categoryName(8, 'four of a kind')", "categoryName(8, 'full house')")
    assert main(["--rules", str(rules), "check", "--samples", "200", "--reference-samples", "2"]) == 1
    out = capsys.readouterr().out
    assert "FAILS  frequencies equal the published table" in out
    assert "'full house': {'got': 4368, 'expected': 3744}" in out


def test_an_asymmetric_beat_is_caught(tmp_path):
    # beat_F00 edited so that a higher rank no longer wins the other way round.
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "fighting.dl", "beat_F00: beat(A, B, R) <= beatRank(A, B, R) & (R != 0)",
         "beat_F00: beat(A, B, R) <= beatRank(A, B, R) & (R == -1)\n"
         "beat_F00: beat(A, B, 1) <= beatRank(A, B, R) & (R > 0)")
    edited = Engine(rules)
    result = check(edited, samples=60, reference_samples=2)
    failed = {o.name: o for o in result.obligations if not o.holds}
    assert "beat antisymmetric" in failed
    assert "not proven" in result.paths["two-hand fights (judge, beat)"]          # beat is not the table's order
    example = failed["beat antisymmetric"].counterexample
    assert example["beat"]["12"] == example["beat"]["21"] == 1          # both hands win
    a, b = (Engine(rules).cards(h) for h in example["hands"])
    assert edited.beat(a, b) == edited.beat(b, a) == 1                  # and the rules say so


def test_a_suit_read_through_cardid_is_checked_like_any_rule(tmp_path):
    # The edit that fooled the old class table's static analysis: isFlush reads suits through
    # cardId instead of getSuit.  Every hand is asked of these rules, so it simply holds.  On a
    # 26-card deck (hearts and diamonds; 65,780 hands, not 2,598,960: 4 s, not 32), whose counts
    # are those of the same rules reading getSuit, checked one hand a suit class.
    decks = []
    for name in ("getsuit", "cardid"):
        rules = copy_rules(tmp_path / name)
        edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")
        (rules / "expected.toml").unlink()                  # the 52-card deck's counts
        decks.append(rules)
    edit(decks[1] / "ranking.dl",
         "mixedSuits_D: mixedSuits(S) <= member(S, X) & getSuit(X, T) & member(S, Y) & getSuit(Y, U) & (T != U)",
         "mixedSuits_D: mixedSuits(S) <= member(S, X) & cardId(X, V, T) & member(S, Y) & cardId(Y, W, U) & (T != U)")
    plain, result = (check(Engine(rules), samples=300, reference_samples=3) for rules in decks)
    assert plain.ok and result.ok, [o for o in result.obligations if not o.holds]
    assert result.total == plain.total == 65_780 and result.frequencies == plain.frequencies
    assert result.frequencies["flush"] == 2 * (math.comb(13, 5) - 10)
    assert "one hand of each class of hands alike but for their suits" in plain.method
    assert "asked about every hand" in result.method          # not provably blind to suits: every hand


# ---- where "expected" comes from; a folder without variant.toml (issue 34) ------------------

def test_check_says_the_expected_counts_are_inherited(tmp_path, capsys):
    """Manila (its straightTop fixed) as a variant without expected.toml: standard poker's counts
    fail three obligations, and check says whose they are."""
    rules = manila(tmp_path / "manila", variant=True)
    with (rules / "ranking.dl").open("a", encoding="utf-8") as f:
        f.write("straightTop_FA: straightTop(S, C) <= isStraight(S) & hasValue(S, 10) & hasValue(S, 13) "
                "& member(S, C) & getValue(C, 1)\n")
    assert main(["check", "--rules", str(rules), "--samples", "10", "--reference-samples", "0"]) == 1
    out = capsys.readouterr().out.splitlines()
    standard = str(rulesets.RULES_DIR / "expected.toml")
    said = f"{standard}, inherited from standard: {rules} has no expected.toml of its own"
    assert f"expected counts: {said}" in out
    assert sum(line.startswith("FAILS ") for line in out) == 3
    assert any(line.strip().startswith(f"(the expected counts are {said}") for line in out)


def test_a_variant_with_its_own_table_says_so():
    assert rulesets.resolve("short-deck").published_from() == str(
        rulesets.variants_dir() / "short-deck" / "expected.toml")
    assert "inherited from short-deck" in rulesets.resolve("short-deck-triton").published_from()


def test_a_folder_of_variant_clauses_without_variant_toml_gets_a_hint(tmp_path, capsys):
    rules = manila(tmp_path / "manila", variant=True)
    (rules / "variant.toml").unlink()
    assert main(["rank", "--rules", str(rules), "AH KH QH JH TH"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{rules} has no variant.toml" in err and 'extends = "standard"' in err
