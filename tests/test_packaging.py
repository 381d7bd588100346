"""Packaging (pyproject.toml): the wheel carries every subpackage and every rule file.

.ci/run builds the wheel, installs it (not editable) in a fresh venv and runs `poker` from outside
the checkout; these checks catch the usual slips earlier: a new subpackage or rule file that the
configuration does not name.
"""

from __future__ import annotations

import glob
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import engine
from conftest import ROOT
from engine.version import VERSION

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def test_every_subpackage_of_engine_is_packaged():
    """Every folder of engine/ with Python files (with an __init__.py or not) is in `packages`."""
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "engine").rglob("*.py")}
    assert found | {"engine.rules", "engine.examples"} == set(SETUPTOOLS["packages"])
    assert SETUPTOOLS["package-dir"]["engine.rules"] == "rules"
    assert SETUPTOOLS["package-dir"]["engine.examples"] == "examples"


def test_every_rule_file_is_package_data():
    rules = ROOT / "rules"
    shipped = {Path(f) for pattern in SETUPTOOLS["package-data"]["engine.rules"]
               for f in glob.glob(pattern, root_dir=rules)}
    files = {p.relative_to(rules) for p in rules.rglob("*")
             if p.is_file() and p.suffix not in (".py", ".pyc")}
    assert files == shipped
    assert {Path("board/board.dl"), Path("variants/eventb/variant.toml")} <= shipped
    examples = {Path(f) for pattern in SETUPTOOLS["package-data"]["engine.examples"]
                for f in glob.glob(pattern, root_dir=ROOT / "examples")}
    assert examples == {Path("fights.yaml")}


def test_metadata():
    project = PYPROJECT["project"]
    assert "version" in project["dynamic"] and "version" not in project
    assert engine.__version__ == metadata.version("poker-engine") == VERSION
    assert SETUPTOOLS["dynamic"]["version"] == {"attr": "engine.version.VERSION"}
    assert project["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert {f"Programming Language :: Python :: 3.{v}" for v in (11, 12, 13)} <= set(project["classifiers"])
    assert "pyDatalog==0.22.4" in project["dependencies"]
    assert (ROOT / "engine" / "py.typed").is_file()
    assert "py.typed" in SETUPTOOLS["package-data"]["engine"]


def test_every_dependency_says_why():
    """Each requirement in pyproject.toml has a comment line (or a trailing one) saying why."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = text[text.index("dependencies = ["):text.index("[project.scripts]")]
    lines = block.splitlines()
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith('"'):
            assert "#" in line or lines[i - 1].strip().startswith("#"), line


@pytest.mark.parametrize("page", sorted(p.name for p in (ROOT / "docs").glob("*.md") if ">>>" in p.read_text()))
def test_the_docs_run_under_plain_doctest(page):
    """`python -m doctest docs/PAGE.md` passes as pytest's doctests do (no option needed from outside)."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "doctest", f"docs/{page}"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
