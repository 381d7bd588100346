"""The engine's layers (docs/development.md): each module imports only its own layer and those below,
engine modules at the top of a module, and no cycle.

The imports are read from the source (ast), not from a running interpreter, so an import inside a
function or under ``if TYPE_CHECKING:`` counts as much as one at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine"

# Lowest first.  A module belongs to the first layer one of whose prefixes names it (a package
# prefix takes its subpackages).  The applications are every other module of engine/.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("engine.interface", "engine.limits", "engine.notices", "engine.version")),
    ("poker", ("engine.poker",)),
    ("io", ("engine.io",)),
    ("datalog", ("engine.datalog",)),
    ("evaluators", ("engine.evaluators",)),
    ("judging", ("engine.judging",)),
    ("core", ("engine.core",)),
    ("applications", ()),
    ("runs", ("engine.cluster",)),                   # many files: judge and history, here or on a cluster
    # engine/__init__.py (the public names) and the old paths of moved public modules
    ("package", ("engine", "engine.ranges", "engine.phh", "engine.explain", "engine.grid")),
    ("cli", ("engine.cli", "engine.__main__")),
]
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}
# Where one layer may not see another though it is below: the language knows no poker, and the
# pure poker helpers and the files know no rules.
FORBIDDEN = {("datalog", "poker"), ("datalog", "io"), ("poker", "io")}
# Third-party packages heavy enough to be imported where used (start-up time of every command).
# readline changes how input() reads a terminal, and is for the REPL alone; multiprocessing and
# concurrent.futures (tens of milliseconds) for the runs that start workers; asyncio (30 ms) for
# the runs on a Dask cluster, which import it with distributed.
LAZY_ALLOWED = {"duckdb", "numpy", "yaml", "tqdm", "pyDatalog", "importlib.metadata", "orjson", "msgspec",
                "dask", "distributed", "readline", "multiprocessing", "concurrent.futures", "asyncio"}


def _name(path: Path) -> str:
    parts = list(path.relative_to(ENGINE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in ENGINE.rglob("*.py") if "rules" not in p.relative_to(ENGINE).parts[:1]}


def layer(module: str) -> str:
    for name, prefixes in LAYERS:
        if any(module == p or (module.startswith(p + ".") and p != "engine") for p in prefixes):
            return name
    return "applications"


def _unit(module: str) -> str:
    """An application: a module or a package of engine/ (engine.history and its replay of stud)."""
    return ".".join(module.split(".")[:2])


def _target(module: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The engine modules an import statement names (a module, or a module's attribute)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in MODULES]
    if node.level:
        base = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        full = ".".join(base + ([node.module] if node.module else []))
    else:
        full = node.module or ""
    out = []
    for alias in node.names:
        sub = f"{full}.{alias.name}"
        if sub in MODULES:
            out.append(sub)
        elif full in MODULES:
            out.append(full)
    return out


def imports() -> dict[str, list[tuple[str, int, bool]]]:
    """module -> [(engine module imported, line, at the top of the module)]."""
    found: dict[str, list[tuple[str, int, bool]]] = {}
    for module, path in MODULES.items():
        edges = found.setdefault(module, [])

        def visit(node: ast.AST, nested: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    edges.extend((t, child.lineno, not nested) for t in _target(module, child) if t != module)
                visit(child, nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                                           ast.ClassDef)))
        visit(ast.parse(path.read_text()), False)
    return found


def lazy_third_party() -> list[str]:
    """Function-level imports of anything that is neither an engine module nor a heavy package."""
    bad = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import):
                    names = [a.name for a in inner.names]
                elif isinstance(inner, ast.ImportFrom) and not inner.level:
                    names = [inner.module or ""]
                else:
                    continue
                for n in names:
                    if not any(n == h or n.startswith(h + ".") for h in LAZY_ALLOWED) and not n.startswith("engine"):
                        bad.append(f"{module}:{inner.lineno} imports {n} in a function")
    return bad


def test_every_engine_import_names_a_module_of_engine_and_is_absolute():
    """A relative import, or a name of engine that is no module, fails here (not only when run)."""
    bad = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                bad.append(f"{module}:{node.lineno}: a relative import")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine"):
                if node.module not in MODULES and node.module != "engine.rules":
                    bad.append(f"{module}:{node.lineno}: {node.module} is no module of engine")
            elif isinstance(node, ast.Import):
                bad += [f"{module}:{node.lineno}: {a.name} is no module of engine" for a in node.names
                        if a.name.startswith("engine") and a.name not in MODULES]
    assert bad == []


def test_engine_modules_are_imported_at_the_top():
    nested = [f"{m}:{line} imports {t} in a function or class" for m, edges in imports().items()
              for t, line, top in edges if not top]
    assert nested == []


def test_every_import_goes_down_the_layers():
    wrong = []
    for module, edges in imports().items():
        mine = layer(module)
        for target, line, _ in edges:
            theirs = layer(target)
            if RANK[theirs] > RANK[mine] or (mine, theirs) in FORBIDDEN:
                wrong.append(f"{module}:{line} ({mine}) imports {target} ({theirs})")
            elif mine == theirs == "applications" and _unit(module) != _unit(target):
                wrong.append(f"{module}:{line}: an application imports another, {target}")
    assert wrong == []


def test_nothing_imports_the_command_line_but_main():
    users = sorted({m for m, edges in imports().items() for t, _, _ in edges
                    if layer(t) == "cli" and layer(m) != "cli"})
    assert users == []


def test_no_import_cycle():
    graph = {m: sorted({t for t, _, _ in edges}) for m, edges in imports().items()}
    state: dict[str, int] = {}
    cycles = []

    def walk(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                walk(nxt, path + [nxt])
        state[node] = 2

    for m in sorted(graph):
        if m not in state:
            walk(m, [m])
    assert cycles == []


def test_only_heavy_packages_are_imported_in_functions():
    assert lazy_third_party() == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_has_a_layer_and_a_docstring(module):
    assert layer(module) in RANK
    assert ast.get_docstring(ast.parse(MODULES[module].read_text())), f"{module} says nothing of itself"
