"""The tutorial (docs/tutorial.md) as written: its folder built from the page's code blocks, step by
step (a block titled ``manila/FILE`` is that file whole, as it stands from there on), and each
``$ poker …`` command of its console blocks run in that folder, its output (stdout and stderr, as a
terminal shows them) held to the page's (``...`` stands for any text, as in doctests)."""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import common, main

PAGE = Path(__file__).resolve().parent.parent / "docs" / "tutorial.md"
FENCE = re.compile(r'^```(\w+)(?: title="([^"]+)")?\n(.*?)^```\n', re.MULTILINE | re.DOTALL)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def steps(text: str) -> list[tuple[str, str, str]]:
    """The page's blocks in order: ("file", path, content) and ("run", command, expected output)."""
    out: list[tuple[str, str, str]] = []
    for lang, title, body in FENCE.findall(text):
        if title:
            out.append(("file", title, body))
        elif lang == "console":
            for chunk in re.split(r"^\$ ", body, flags=re.MULTILINE)[1:]:
                command, _, want = chunk.partition("\n")
                out.append(("run", command, want))
    return out


def test_the_page_has_its_steps() -> None:
    found = steps(PAGE.read_text())
    files = {path for kind, path, _ in found if kind == "file"}
    assert files == {f"manila/{name}" for name in ("variant.toml", "cards.dl", "straights.dl", "order.dl",
                                                   "fighting.dl", "expected.toml")}
    assert sum(kind == "run" for kind, _, _ in found) >= 15


def _in_process(args: list[str]) -> str:
    """What ``poker ARGS`` prints, stdout and stderr together as a terminal shows them: the
    command's main run in this process (a Python start-up less a command; the piped commands
    and one plain one still run through the shell)."""
    common._engines.clear()                        # a command is a process: the folder as it now is
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main(args)
        except SystemExit:
            pass
    return out.getvalue()


def test_the_tutorial_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shim = tmp_path / "bin" / "poker"              # `poker` is this interpreter's engine
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m engine "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    settings = {"POKER_CACHE_DIR": str(tmp_path / "cache"), "NO_COLOR": "1", "COLUMNS": "200"}
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ.get('PATH', '')}", **settings}
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    checker = doctest.OutputChecker()
    shell = True                                   # the first plain command through the shell too
    for kind, what, body in steps(PAGE.read_text()):
        if kind == "file":
            (work / what).parent.mkdir(exist_ok=True)
            (work / what).write_text(body)
            continue
        words = shlex.split(what)
        if shell or words[0] != "poker" or "|" in words:
            shell = shell and words[0] != "poker"
            printed = subprocess.run(["/bin/sh", "-c", what], cwd=work, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, timeout=300).stdout
        else:
            printed = _in_process(words[1:])
        assert checker.check_output(body, printed, FLAGS), \
            f"$ {what}\n--- the page shows:\n{body}--- it prints:\n{printed}"
