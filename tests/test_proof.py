"""The proof that the rules order hands by their five-card table (engine/proof.py).

On a 26-card deck (hearts and diamonds), so that each table builds in a second or two: the
standard and eventb readings are proven; edits that make the comparator something else than the
table's order, or that read a hand by another way than the table, are not, and then equity and
diff refuse in one line instead of answering from the table.  And the proof's conclusion is held
to the rules themselves: compareHands asked of the compiled rules about real pairs of hands.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from conftest import copy_rules, edit, eventb_numbering
from engine import Engine, sevens
from engine.diff import diff
from engine.equity import equity
from engine.evaluators import Ask, World
from engine.proof import Unproven, order_proof, prove
from engine.table import five_card_table

DECK = "cardId_F: cardId(C, V, S) <= valueName(V, N, P) & suitName(S, M, Q) & (C == 13 * (S - 1) + V)"
MIN = "(decidingPart[A, B] == min_(O, order_by=O))"


def small_rules(tmp_path, name: str = "rules"):
    rules = copy_rules(tmp_path / name)
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")           # hearts and diamonds: 26 cards
    return rules


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Engine:
    return Engine(small_rules(tmp_path_factory.mktemp("proof")))


def test_the_standard_and_eventb_orders_are_proven(small, tmp_path):
    proof = order_proof(small, five_card_table(small, cache=False))
    assert proof.holds, proof.why
    assert proof.patterns > 1000 and "orders all" in proof.why
    eventb = Engine(eventb_numbering(small_rules(tmp_path)))
    assert prove(eventb.ruleset.clauses, five_card_table(eventb, cache=False).places).holds


def test_the_proof_is_what_the_rules_say_about_real_hands(small):
    # compareHands of the compiled rules about real pairs of hands (same rank, and any) against the
    # table's values: what the proof claims, asked directly.
    table = five_card_table(small, cache=False)
    rng = random.Random(3)
    hands = sevens.five_hands(26)
    by_rank: dict[int, list[int]] = {}
    for i, r in enumerate(table.ranks.tolist()):
        by_rank.setdefault(r, []).append(i)
    pairs = [(rng.randrange(len(hands)), rng.randrange(len(hands))) for _ in range(300)]
    pairs += [tuple(rng.sample(rows, 2)) for rows in by_rank.values() if len(rows) > 1 for _ in range(40)]
    cards = np.asarray(table.cards)
    worlds = [World((tuple(cards[hands[x]].tolist()), tuple(cards[hands[y]].tolist()))) for x, y in pairs]
    ask = Ask("compareHands", (1, 2, None))
    got = small.evaluator(len(worlds)).answers(worlds, [ask])
    for (x, y), answers in zip(pairs, got):
        vx, vy = int(table.values[x]), int(table.values[y])
        assert answers[ask] == [(1, 2, 1 if vx > vy else 2 if vx < vy else 0)]


def test_a_comparator_that_is_not_the_tables_order_is_refused(tmp_path, capsys):
    # The last differing part decides: two pair AH AD 2C 2S 3H beats KH KD QC QS 4H under the
    # rules, but the table's key (aces first) says the opposite only for the edit.
    rules = small_rules(tmp_path)
    edit(rules / "fighting.dl", MIN, MIN.replace("min_", "max_"))
    engine = Engine(rules)
    table = five_card_table(engine, cache=False)
    proof = order_proof(engine, table)
    assert not proof.holds and "compareHands of a rank-" in proof.why and "table's order says" in proof.why
    with pytest.raises(Unproven, match="poker equity reads hands off the five-card table"):
        equity(engine, ["AH AD", "KH KD"], board="2H 7D 9H")
    changed = diff(small_engine := Engine(small_rules(tmp_path, "other")), engine, cache=False)
    assert changed.unproven and "not proven" in changed.unproven and not changed.kinds
    assert changed.lines()[-1].startswith("fights: not counted: ")
    assert changed.as_dict()["fights"] == {"unproven": changed.unproven}
    assert small_engine.beat("AH AD 2H 2D 3H", "KH KD QH QD 4H") == 1


@pytest.mark.parametrize("clause, why", [
    ("x_D: compareHands(A, B, 1) <= member(A, C) & getValue(C, 1) & getRank(A, K) & getRank(B, K)",
     "getValue_Invalid"),                              # getValue of a held non-card reads holds
    ("x_D: compareHands(A, B, 1) <= handKey(A, 1, 1, X) & (X > 12) & getRank(B, 2)",
     "a key value is computed, or compared with something else"),
    ("x_D: compareHands(A, B, 1) <= getRank(A, K) & getRank(B, K) & (A < B)", "a set id is compared"),
    ("x_D: compareHands(A, B, 1) <= getRank(A, K) & getRank(C, K) & getRank(B, 1)", "reads a set other than its own"),
    ("x_D: compareHands(A, B, 1) <= handKey(A, 1, I, X) & handKey(B, 1, J, Y) & (X > Y)",
     "not two hands' values at one place"),
])
def test_a_comparator_that_reads_more_than_the_table_is_not_proven(small, tmp_path, clause, why):
    rules = small_rules(tmp_path)
    with open(rules / "fighting.dl", "a", encoding="utf-8") as f:
        f.write("\n" + clause + "\n")
    proof = prove(Engine(rules).ruleset.clauses, five_card_table(small, cache=False).places)
    assert not proof.holds and why in proof.why


def test_no_places_no_proof(small):
    proof = prove(small.ruleset.clauses, None)
    assert not proof.holds and "different places" in proof.why
