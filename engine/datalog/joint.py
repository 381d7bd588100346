"""Several rule sets as one program, for one run that answers each (``poker diff``'s tables)."""

from __future__ import annotations

import ast
import copy
from typing import Mapping, Sequence

from engine.datalog import loader
from engine.datalog.graph import called, callers
from engine.datalog.program import Program


def joint_program(rulesets: Sequence[Sequence[loader.Clause]], inputs: Mapping[str, Sequence[str]],
                  asked: Sequence[str]) -> tuple[Program, list[dict[str, str]]]:
    """Several rule sets as one program.

    The first rule set's clauses come as they are.  Of every other, only the predicates that
    differ are added, renamed ``r<k>$name`` (no rule file can spell ``$``): a predicate differs
    when its clauses (labels and text, as parsed) are not the first rule set's, or when one of
    the predicates it calls differs.  The rest is the same relation in both rule sets and is
    computed once: for ``standard`` and ``eventb`` every predicate of a hand's shape (isFlush,
    isStraight, the parts and their keys), and only getRank, keyPart and handKey twice.
    Returns the program and, for each rule set, the name of each of its predicates in it.
    """
    def table(clauses: Sequence[loader.Clause]) -> tuple[dict[str, list[tuple[str, str]]], dict[str, set[str]]]:
        own: dict[str, list[tuple[str, str]]] = {}
        calls: dict[str, set[str]] = {}
        for c in clauses:
            own.setdefault(c.head, []).append((c.label, ast.dump(c.node)))
            calls.setdefault(c.head, set()).update(called(c.node))
        return own, calls

    first = list(rulesets[0])
    own0, _ = table(first)
    clauses, names, all_asked = list(first), [{}], list(asked)
    for k, ruleset in enumerate(rulesets[1:], 1):
        own, calls = table(ruleset)
        differ = callers({p for p in set(own) | set(own0) if own.get(p) != own0.get(p)}, calls)
        rename = {p: f"r{k}${p}" for p in differ}
        for c in ruleset:
            if c.head in rename:
                node = Rename(rename).visit(copy.deepcopy(c.node))
                clauses.append(loader.Clause(c.label, c.path, c.line, rename[c.head], node, c.text))
        names.append(rename)
        all_asked += [rename[a] for a in asked if a in rename]
    return Program(clauses, inputs, all_asked), names


class Rename(ast.NodeTransformer):
    """Renames predicates and functions in a clause's tree (never variables or aggregates)."""

    def __init__(self, names: Mapping[str, str]):
        self.names = names

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in self.names:
            node.func = ast.Name(self.names[node.func.id], ast.Load())
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id in self.names:
            node.value = ast.Name(self.names[node.value.id], ast.Load())
        return node
