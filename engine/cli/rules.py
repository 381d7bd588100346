"""`poker explain-rules`: the compiled program of a rule set after each pass, and its SQL.

For a reader of the compiler (engine/datalog/, engine/evaluators/sql/): what each pass made of
the rules, and the SQL that fills each relation.  Nothing is run and pyDatalog is not loaded.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from engine import interface as I
from engine.cli.common import CommandError, add_rules_option
from engine.datalog import loader, rulesets
from engine.datalog.ir import ProgramIR, Untranslatable, dump
from engine.datalog.program import NAMES, Program
from engine.evaluators.sql.render import program_sql


def register(sub: Any) -> None:
    p = sub.add_parser("explain-rules", help="print the rule set's compiled program after each pass (the IR) "
                                             "and, with --sql, the SQL of each relation")
    p.add_argument("--pass", dest="only", metavar="NAME", choices=NAMES,
                   help=f"print the program after this pass only ({', '.join(NAMES)})")
    p.add_argument("--sql", action="store_true",
                   help="print the SQL of each relation (after the last pass); with no --pass, the SQL alone")
    add_rules_option(p)
    p.set_defaults(run=run_explain_rules)


def explain(clauses: list[loader.Clause], only: str | None = None, sql: bool = False) -> str:
    """The text `poker explain-rules` prints (Untranslatable when a pass refuses the rules)."""
    out: list[str] = []

    def trace(name: str, program: ProgramIR) -> None:
        if (only is None and not sql) or name == only:
            out.append(f"# after {name}\n{dump(program)}")

    program = Program(clauses, I.INPUTS, I.ASKED, trace=trace)
    if sql:
        out.append("# SQL\n" + "".join(f"-- {name}\n{text};\n" for name, text in program_sql(program).items()))
    return "\n".join(out)


def run_explain_rules(args: argparse.Namespace) -> int:
    ruleset = rulesets.resolve(getattr(args, "rules", None) or rulesets.DEFAULT_RULES)
    try:
        text = explain(list(ruleset.clauses), args.only, args.sql)
    except Untranslatable as exc:
        raise CommandError(f"the rules are not compiled: {exc}") from None
    sys.stdout.write(text)
    return 0
