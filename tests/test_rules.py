"""Rule sets: editing a copy of rules/ changes the answers; engines side by side; the loader."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from conftest import copy_rules
from engine import Engine, RuleError

FLUSH, STRAIGHT = "2H 5H 7H 9H JH", "AH 2D 3C 4S 5H"


@pytest.fixture
def rules_copy(tmp_path) -> Path:
    return copy_rules(tmp_path / "rules")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_copy_of_the_rules_gives_the_same_answers(rules_copy, engine):
    copy = Engine(rules_copy)
    assert copy.get_rank(FLUSH) == engine.get_rank(FLUSH) == 6
    assert copy.beat(FLUSH, "AC 2C 3D 4S 5D") == 1


def test_editing_a_rule_changes_the_answer_without_python(rules_copy, engine):
    # Swap the numbers of straight and flush (the Event-B reading of Rank) in the rule file only.
    ranking = rules_copy / "ranking.dl"
    edit(ranking, "getRank_Flush: getRank(S, 6)", "getRank_Flush: getRank(S, 5)")
    edit(ranking, "getRank_Straight: getRank(S, 5)", "getRank_Straight: getRank(S, 6)")
    edit(ranking, "categoryName(5, 'straight')", "categoryName(5, 'flush!')")
    edited = Engine(rules_copy)
    assert edited.get_rank(FLUSH) == 5 and edited.get_rank(STRAIGHT) == 6
    assert edited.category(FLUSH) == "flush!"
    assert edited.beat(STRAIGHT, "2S 5S 7S 9S JS") == 1
    # The default engine, alive in the same process, is untouched.
    assert engine.get_rank(FLUSH) == 6 and engine.beat(STRAIGHT, "2S 5S 7S 9S JS") == 2


def test_editing_a_tie_break_changes_the_winner(rules_copy):
    # Make two pair compare the odd card first.
    edit(rules_copy / "fighting.dl", "keyPart(3, 1, 'pairs')", "keyPart(3, 3, 'pairs')")
    edited = Engine(rules_copy)
    assert edited.beat("JH JD 2C 2S 4H", "TH TD 9C 9S 8H") == 2


def test_engines_interleave_and_work_in_threads(rules_copy, engine):
    edit(rules_copy / "ranking.dl", "getRank_Four: getRank(S, 8)", "getRank_Four: getRank(S, 1)")
    edited = Engine(rules_copy)
    four = "AH AD AC AS KH"
    results = {}

    def work(name, eng):
        results[name] = [eng.get_rank(four) for _ in range(3)]

    threads = [threading.Thread(target=work, args=(n, e)) for n, e in (("std", engine), ("edit", edited))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {"std": [8, 8, 8], "edit": [1, 1, 1]}
    assert [engine.get_rank(four), edited.get_rank(four), engine.get_rank(four)] == [8, 1, 8]


def test_unknown_rule_set_is_a_clear_error():
    with pytest.raises(RuleError, match="unknown rule set 'nosuch'"):
        Engine("nosuch")


def test_syntax_error_names_file_and_line(rules_copy):
    (rules_copy / "zz.dl").write_text("ok_D: ok(1)\nbad_D: p(X <= q(X)\n", encoding="utf-8")
    with pytest.raises(RuleError, match=r"zz\.dl:2"):
        Engine(rules_copy)


@pytest.mark.parametrize("source, words", [
    ("x_D: __import__('os').system('true')", "attribute access"),
    ("x_D: p(X) <= __import__(X)", "dunder"),
    ("x_D: p(X) <= q(X) & X.foo(1)", "attribute access"),
    ("import os", "import"),
    ("x = 3", "assignment"),
    ("x_D: p(X) <= open(X)", "reserved"),
    ("x_D: p(X) <= q(lambda: 1)", "lambda"),
    ("x_D: p(X) <= q(X) and r(X)", "and/or"),
    ("x_D: p(X) <= q(X) & (X == f'{X}')", "f-string"),
    ("x_D: ask(1)", "reserved"),
])
def test_the_loader_refuses_what_is_not_datalog(rules_copy, source, words):
    (rules_copy / "zz.dl").write_text(source + "\n", encoding="utf-8")
    with pytest.raises(RuleError, match=words):
        Engine(rules_copy)
