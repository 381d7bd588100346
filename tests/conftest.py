"""Shared fixtures: one engine per rule set, the documents' examples from hands.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine import Engine

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = yaml.safe_load((ROOT / "hands.yaml").read_text(encoding="utf-8"))
# Project Euler problem 54's 1,000 fights (poker.txt, projecteuler.net): player 1 wins 376.
EULER = ROOT / "tests" / "data" / "euler54-poker.txt"


def cases(section: str) -> list:
    """pytest params of one section of hands.yaml, each with a readable id."""
    return [pytest.param(case, id=str(case.get("id", i))) for i, case in enumerate(FIXTURES[section])]


@pytest.fixture(scope="session", autouse=True)
def table_cache(tmp_path_factory) -> Path:
    """One five-card table cache for the whole run, shared by the xdist workers (engine.table locks
    it, so the table of a rule set is built once), never the user's own cache."""
    import os
    shared = tmp_path_factory.getbasetemp().parent / "poker-cache"
    shared.mkdir(exist_ok=True)
    os.environ["POKER_CACHE_DIR"] = str(shared)
    return shared


@pytest.fixture(scope="session")
def engine() -> Engine:
    return Engine()


def copy_rules(target: Path) -> Path:
    """A copy of the standard rule files and their published tables (no variants), for tests
    that edit rules."""
    import shutil
    from engine.rulesets import PUBLISHED_FILE, RULES_DIR, rule_files
    target.mkdir(parents=True, exist_ok=True)
    for f in rule_files(RULES_DIR) + [RULES_DIR / PUBLISHED_FILE]:
        shutil.copy(f, target / f.name)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def eventb_numbering(rules: Path) -> Path:
    """Edit a copy of the standard rules to the Event-B numbering (5 flush, 6 straight), keeping
    its other edits (a smaller deck): what the eventb variant does, for a test's own deck."""
    for old, new in (("categoryName(5, 'straight')", "categoryName(5, 'flush')"),
                     ("categoryName(6, 'flush')", "categoryName(6, 'straight')"),
                     ("getRank_Flush: getRank(S, 6)", "getRank_Flush: getRank(S, 5)"),
                     ("getRank_Straight: getRank(S, 5)", "getRank_Straight: getRank(S, 6)")):
        edit(rules / "ranking.dl", old, new)
    for old, new in (("beat_Flush: keyPart(6, 1, 'all')", "beat_Flush: keyPart(5, 1, 'all')"),
                     ("beat_Straight: keyPart(5, 1, 'top')", "beat_Straight: keyPart(6, 1, 'top')")):
        edit(rules / "fighting.dl", old, new)
    return rules
