"""Shared fixtures: one engine per rule set, the documents' examples from hands.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine import Engine

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = yaml.safe_load((ROOT / "hands.yaml").read_text(encoding="utf-8"))
EULER = ROOT.parent / "shared" / "data" / "euler54-poker.txt"


def cases(section: str) -> list:
    """pytest params of one section of hands.yaml, each with a readable id."""
    return [pytest.param(case, id=str(case.get("id", i))) for i, case in enumerate(FIXTURES[section])]


@pytest.fixture(scope="session")
def engine() -> Engine:
    return Engine()
