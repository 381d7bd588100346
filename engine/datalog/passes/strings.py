"""Code each string constant as its rank among the rules' strings.

Strings only ever come from the rules' constants (the input facts are integers), so equality and
order stay Python's, and every column is an integer, which DuckDB hashes and compares fastest."""

from __future__ import annotations

from engine.datalog.ir import ProgramIR, constants


def run(program: ProgramIR) -> None:
    program.strings = sorted({t.value for r in program.all_rules() for t in constants(r) if isinstance(t.value, str)})
    program.codes = {text: i for i, text in enumerate(program.strings)}
