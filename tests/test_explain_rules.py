"""`poker explain-rules` and the golden SQL of the standard rules (tests/golden/sql/).

The golden files hold the SQL each relation of a rule set is computed by, as rendered from the
compiled program; a change to the compiler that changes it shows here, predicate by predicate.
``POKER_UPDATE_GOLDEN=1`` rewrites them (then read the diff before committing it)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from engine import interface as I
from engine.cli import main
from engine.cli.rules import explain
from engine.datalog import rulesets
from engine.datalog.program import NAMES, Program
from engine.evaluators.sql.render import program_sql

GOLDEN = Path(__file__).parent / "golden" / "sql"
GOLDEN_RULES = ("standard", "eventb")


def _text(sql: dict[str, str]) -> str:
    return "".join(f"-- {name}\n{text};\n" for name, text in sql.items())


def _parsed(text: str) -> dict[str, str]:
    return dict(re.findall(r"^-- (.+)\n(.*);$", text, flags=re.M))


@pytest.mark.parametrize("name", GOLDEN_RULES)
def test_the_sql_of_the_rules_is_the_golden_one(name):
    sql = program_sql(Program(rulesets.resolve(name).clauses, I.INPUTS, I.ASKED))
    path = GOLDEN / f"{name}.sql"
    if os.environ.get("POKER_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_text(sql), encoding="utf-8")
    golden = _parsed(path.read_text(encoding="utf-8"))
    assert list(sql) == list(golden), "the relations or their order changed"
    changed = [pred for pred in sql if sql[pred] != golden[pred]]
    assert not changed, f"the SQL of {', '.join(changed[:5])} changed (POKER_UPDATE_GOLDEN=1 rewrites {path.name})"


def test_explain_rules_prints_the_program_after_each_pass_and_the_sql(capsys):
    assert main(["explain-rules"]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^# after (\w+)$", out, flags=re.M) == list(NAMES)
    after_read = out.split("# after checks")[0]
    assert "getRank(S, 9) <= " in after_read and "demand$" not in after_read    # as read: no demand yet
    assert "demand$" in out.split("# after demand")[1]                            # the demand pass adds them
    assert main(["explain-rules", "--pass", "types", "--sql"]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^# after (\w+)$", out, flags=re.M) == ["types"]
    sql = _parsed(out.split("# SQL\n")[1])
    assert sql == program_sql(Program(rulesets.resolve("standard").clauses, I.INPUTS, I.ASKED))


def test_explain_rules_refuses_what_it_cannot_compile_in_one_line(tmp_path, capsys):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "r.dl").write_text("r_a: r(X) <= declared(X) & (Y == X / 2) & (X == Y)\n", encoding="utf-8")
    assert main(["explain-rules", "--rules", str(rules)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "r.dl:1" in err[0] and "true division" in err[0]
    with pytest.raises(Exception):
        explain(list(rulesets.resolve(str(rules)).clauses))
