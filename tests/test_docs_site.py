"""The documentation site: every public name of `engine` in the API reference, each with a
docstring that says its parameters, returns and raises in Google style (no Sphinx roles, which
Markdown shows raw), and the built site (where the docs extra is installed) as CI builds it
(--strict: a broken link or reference fails), with no page that loads anything from the network."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine import Engine

ROOT = Path(__file__).resolve().parent.parent
API = (ROOT / "docs" / "api.md").read_text()
ROLE = re.compile(r":(func|meth|class|mod|data|attr|exc):`")
# An element that makes a browser fetch: script, stylesheet, image, frame, media, object.
FETCH = re.compile(r"<(script|link|img|iframe|source|video|audio|embed|object)\b[^>]*\b(src|href|data)="
                   r"[\"']?(https?:)?//", re.IGNORECASE)


def test_every_public_name_is_in_the_reference() -> None:
    names = [n for n in engine.__all__ if not n.startswith("_")]
    assert {"Engine", "Var", "Notation", "QueryError", "InvalidCards", "RuleError"} <= set(names)
    assert [n for n in names if f"::: engine.{n}\n" not in API] == []
    assert "::: engine.judge.judge\n" in API            # the batch judge, in its module


def engine_members() -> list[tuple[str, object]]:
    return [(n, m.fget if isinstance(m, property) else m) for n, m in vars(Engine).items()
            if not n.startswith("_") and (callable(m) or isinstance(m, property))]


def test_every_public_method_of_engine_has_a_docstring() -> None:
    assert [n for n, m in engine_members() if not inspect.getdoc(m)] == []


@pytest.mark.parametrize("name", [n for n, _ in engine_members()] + ["Engine"])
def test_docstrings_use_google_sections_not_sphinx_roles(name: str) -> None:
    member = Engine if name == "Engine" else dict(engine_members())[name]
    doc = inspect.getdoc(member) or ""
    assert not ROLE.search(doc), doc
    sig = inspect.signature(member) if callable(member) else None
    params = [p for p in (sig.parameters if sig else {}) if p not in ("self", "cls")]
    if "Args:" in doc:               # where parameters are described, every one is
        assert [p for p in params if not re.search(rf"^\s+\*{{0,2}}{p}:", doc, re.MULTILINE)] == []


def test_the_public_names_import_from_engine() -> None:
    from engine import (  # noqa: F401
        BestFive,
        Engine,
        InvalidCards,
        Notation,
        QueryError,
        RuleError,
        Var,
    )
    assert all(issubclass(e, ValueError) for e in (InvalidCards, QueryError, RuleError))
    import engine.judge  # still the module: no name of the package hides it
    assert hasattr(engine.judge, "Judge") and callable(engine.judge.judge)


def test_the_site_builds_and_loads_nothing_from_the_network(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")
    pytest.importorskip("material", reason="the docs extra is not installed (pip install -e '.[docs]')")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(site)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    pages = sorted(site.rglob("*.html"))
    assert {p.name for p in pages} >= {"index.html", "api.html", "tutorial.html", "glossary.html", "changelog.html"}
    fetching = {p.name: FETCH.findall(p.read_text()) for p in pages}
    assert {name: found for name, found in fetching.items() if found} == {}
    api = (site / "api.html").read_text()
    for name in ("Engine", "Notation", "Var", "QueryError", "InvalidCards", "RuleError", "judge.judge"):
        assert f'id="engine.{name}"' in api, name
    assert api.count('id="engine.Engine.') > 40          # every public method and property
    assert "Bases:" not in api and ":func:`" not in api and ":meth:`" not in api
    assert api.count(">Parameters:<") >= 12 and ">Raises:<" in api and ">Returns:<" in api
    assert re.search(r'class="language-python highlight".*?<span class="k">', (site / "tutorial.html").read_text(),
                     re.DOTALL)      # Pygments' tokens, made at build time
