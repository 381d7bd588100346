"""Shared fixtures: one engine per rule set, the documents' examples from hands.yaml."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import yaml

from engine import Engine, limits
from engine.cli import common

ROOT = Path(__file__).resolve().parent.parent

# A run started in the background of a script (`pytest &`, nohup) inherits Ctrl-C ignored, and so
# would every `poker` the tests start: the tests that send it SIGINT stand for a terminal's Ctrl-C.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
# The test processes ask the rules as the `poker` command does, thousands of engines' worth:
# the collector's full scans, at Python's default thresholds, were a fifth of their CPU.
limits.ease_collector()
FIXTURES = yaml.safe_load((ROOT / "hands.yaml").read_text(encoding="utf-8"))
# Project Euler problem 54's 1,000 fights (poker.txt, projecteuler.net): player 1 wins 376.
EULER = ROOT / "tests" / "data" / "euler54-poker.txt"


def cases(section: str) -> list:
    """pytest params of one section of hands.yaml, each with a readable id."""
    return [pytest.param(case, id=str(case.get("id", i))) for i, case in enumerate(FIXTURES[section])]


@pytest.fixture(scope="session", autouse=True)
def table_cache(tmp_path_factory) -> Path:
    """One five-card table cache for the whole run, shared by the xdist workers (engine.judging.table locks
    it, so the table of a rule set is built once), never the user's own cache nor its key."""
    import os
    shared = tmp_path_factory.getbasetemp().parent / "poker-cache"
    shared.mkdir(exist_ok=True)
    os.environ["POKER_CACHE_DIR"] = str(shared)
    # the cache's key (engine.judging.tablecache.cache_key) too: a test run writes nothing in the user's home
    os.environ["XDG_CONFIG_HOME"] = str(shared.parent / "config")
    return shared


@pytest.fixture(autouse=True)
def cli_engines_of_folders():
    """The engines the command line keeps per process (engine.cli.common, one per --rules) are
    let go after each test when they are a folder's: a test's folder is its own, and an xdist
    worker kept every one of them (its table, proofs and DuckDB) to the end of the run.  The
    named rule sets stay, as in one process they would."""
    yield
    for key in [k for k in common._engines if os.sep in k or k.startswith(".")]:
        del common._engines[key]


@pytest.fixture(scope="session")
def engine() -> Engine:
    return Engine()


def copy_rules(target: Path) -> Path:
    """A copy of the standard rule files and their published tables (no variants), for tests
    that edit rules."""
    import shutil

    from engine.datalog.rulesets import PUBLISHED_FILE, RULES_DIR, rule_files
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


# Manila poker as a rule author first writes it from docs/games.md (issue 34): 32 cards, 7 to A;
# A-7-8-9-T the lowest straight; a flush beats a full house.  The base's straightTop_FA (a straight
# holding a ten and an ace tops at the ace) still fires for A-7-8-9-T: that hand has two top cards.
MANILA_DECK = ("isCard_D: isCard(C) <= (C >= 1) & (C <= 52) & (M == C % 13) & (M >= 7)\n"
               "isCard_D: isCard(C) <= (C >= 1) & (C <= 52) & (M == C % 13) & (M <= 1)\n")
MANILA_STRAIGHT = (
    "isStraight_A7: isStraight(S) <= isHand(S) & hasValue(S, 1) & hasValue(S, 7) & hasValue(S, 8) "
    "& hasValue(S, 9) & hasValue(S, 10)\n"
    "straightTop_A7: straightTop(S, C) <= isStraight(S) & hasValue(S, 1) & hasValue(S, 7) & member(S, C) "
    "& getValue(C, 10)\n")
MANILA_ORDER = ("getRank_FullHouse: getRank(S, 6) <= isHand(S) & isThree(S) & pairBesideThree(S)\n"
                "getRank_Flush: getRank(S, 7) <= isHand(S) & ~isStraight(S) & isFlush(S)\n")
MANILA_KEYS = ("beat_FullHouse: keyPart(6, 1, 'three')\nbeat_Flush: keyPart(7, 1, 'all')\n"
               "beat_SharedBoard: keyPart(8, 2, 'rest')\nbeat_SharedBoard: keyPart(6, 2, 'pairs')\n"
               "beat_SharedBoard: keyPart(4, 2, 'rest')\n")


def manila(target: Path, variant: bool = False, rank_names: bool = True) -> Path:
    """Manila poker, with the author's first mistake (two top cards for A-7-8-9-T): a whole folder
    edited from a copy of the standard rules (copy_rules, edit), or (``variant``) a variant folder
    of only what differs, as docs/games.md writes short deck; ``rank_names``: with Rank_D."""
    names = "".join(f"Rank_D: categoryName({r}, '{n}')\n" for r, n in enumerate(
        ["high card", "one pair", "two pair", "three of a kind", "straight", "full house", "flush",
         "four of a kind", "straight flush", "royal flush"], 1))
    if variant:
        target.mkdir(parents=True, exist_ok=True)
        (target / "variant.toml").write_text('extends = "standard"\ndescription = "Manila poker"\n', encoding="utf-8")
        (target / "cards.dl").write_text(MANILA_DECK + "cardId_F: cardId(C, V, S) <= valueName(V, N, P) & "
                                         "suitName(S, M, Q) & (C == 13 * (S - 1) + V) & isCard(C)\n", encoding="utf-8")
        (target / "ranking.dl").write_text((names if rank_names else "") + MANILA_STRAIGHT + MANILA_ORDER,
                                           encoding="utf-8")
        (target / "fighting.dl").write_text(MANILA_KEYS, encoding="utf-8")
        return target
    copy_rules(target)
    (target / "expected.toml").unlink()                  # standard poker's counts, not Manila's
    edit(target / "cards.dl", "isCard_D: isCard(C) <= (C >= 1) & (C <= 52)\n", MANILA_DECK)
    edit(target / "cards.dl", "& (C == 13 * (S - 1) + V)\n", "& (C == 13 * (S - 1) + V) & isCard(C)\n")
    if rank_names:
        for old, new in (("(6, 'flush')", "(6, 'full house')"), ("(7, 'full house')", "(7, 'flush')")):
            edit(target / "ranking.dl", old, new)
    edit(target / "ranking.dl", "part_Top:", MANILA_STRAIGHT + "part_Top:")
    edit(target / "ranking.dl", "getRank_FullHouse: getRank(S, 7)", "getRank_FullHouse: getRank(S, 6)")
    edit(target / "ranking.dl", "getRank_Flush: getRank(S, 6)", "getRank_Flush: getRank(S, 7)")
    for old, new in (("keyPart(7, 1, 'three')", "keyPart(6, 1, 'three')"),
                     ("keyPart(6, 1, 'all')", "keyPart(7, 1, 'all')"),
                     ("keyPart(7, 2, 'pairs')", "keyPart(6, 2, 'pairs')")):
        edit(target / "fighting.dl", old, new)
    return target
