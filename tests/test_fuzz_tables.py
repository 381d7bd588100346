"""The proofs that license the five-card table (engine/proof.py), fuzzed: random legal edits of the
standard rules (tests/rulefuzz.py's edit_case), on a 26-card deck so that each table builds in a
second.  Where an edited rule set's fight or showdown proof holds, every verdict read off its
table (engine/tabled.py) must be the verdict its rules give world by world, for random fights
(valid, sharing a card, four cards, a card twice, a card off the deck) and showdowns; where a
proof fails, the table answers nothing of that kind.  A proof that holds of rules it should not
would show here as a verdict that differs.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import rulefuzz as F
from engine import Engine
from engine.evaluators import verdicts
from engine.table import TableError, five_card_table
from test_proof import random_fights, random_showdowns

DECK = "(C == 13 * (S - 1) + V)"
# Edits per CI run (each 5 to 20 s: a table, its proofs, 200 fights and showdowns asked of the rules);
# POKER_FUZZ_TABLES=N runs N.
SEEDS = range(1, 1 + int(os.environ.get("POKER_FUZZ_TABLES", "6")))


def edited_engine(seed: int, folder: Path) -> tuple[Engine, F.Case] | None:
    case = F.edit_case(seed)
    text = F.rule_text(case)
    if DECK not in text:                       # the deck's clause edited: not this test's concern
        return None
    folder.mkdir()
    (folder / "fuzz.dl").write_text(text.replace(DECK, DECK + " & (S <= 2)", 1), encoding="utf-8")
    try:
        engine = Engine(folder)
    except Exception:                          # rules the loader or pyDatalog refuse
        return None
    return (engine, case) if engine.fallback is None else None


@pytest.mark.parametrize("seed", SEEDS)
def test_what_the_table_answers_is_what_the_rules_answer(tmp_path, seed):
    made = edited_engine(seed, tmp_path / "rules")
    if made is None:
        pytest.skip("the edit leaves no compiled rule set over the small deck")
    engine, case = made
    try:
        five_card_table(engine, cache=False)
    except TableError:
        pytest.skip("the edited rules give some hand not exactly one rank: no table")
    tabled = engine.tabled(build=True)
    assert tabled is not None
    fights = random_fights(engine, 160, seed) + random_showdowns(engine, 40, seed)
    read = tabled.verdicts(fights)
    if not tabled.fights:
        assert all(v is None for f, v in zip(fights, read) if isinstance(f, list))
    if not tabled.showdowns:
        assert all(v is None for f, v in zip(fights, read) if not isinstance(f, list))
    edits = "\n".join(map(str, case.edits))
    for fight, mine, theirs in zip(fights, read, _asked(engine, fights)):
        if mine is None:
            continue
        assert theirs is not None, f"the rules give no one verdict of {fight}, the table does\n{edits}"
        assert (mine.result, mine.winners, mine.ranks, mine.best) == \
            (theirs.result, theirs.winners, theirs.ranks, theirs.best), f"{fight}\n{edits}"
        assert theirs.error is None


def _asked(engine: Engine, fights: list) -> list:
    """The rules' verdicts world by world; None for a fight they give no one verdict of (an edit
    can make beat give two values: the verdict is then the rules' fault, Verdict.fault)."""
    return [None if v.fault else v for v in verdicts(engine.evaluator(len(fights)), fights)]
