"""Faults around output files (issue 11): SIGTERM, like Ctrl-C, leaves no temporary file behind;
an output path that is a symbolic link is written through to its target; a device is written,
never replaced."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from engine.cli import main
from engine.io.atomic import (
    Terminated,
    atomic_write,
    atomic_writer,
    check_writable,
    target_of,
    terminate_cleanly,
)

ROOT = Path(__file__).resolve().parent.parent
FIGHT = '{"hands": ["JH JD 2C 2S 4H", "TH TD 9C 9S 8H"]}\n'


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("signum, status, said", [(signal.SIGTERM, 128 + signal.SIGTERM, "poker: terminated\n"),
                                                  (signal.SIGINT, 130, "poker: interrupted\n")])
def test_a_signal_while_writing_leaves_no_temporary_file(tmp_path, signum, status, said):
    """One line, and nothing else: a SIGTERM that ended as a SystemExit let DuckDB's nanobind
    print 43 lines of "leaked" instances as the interpreter shut down (issue 19)."""
    src = tmp_path / "in.jsonl"
    src.write_text(FIGHT * 60_000)                  # judged for many seconds: killed long before
    out = tmp_path / "out.yaml"
    out.write_text("old results\n")
    proc = subprocess.Popen([sys.executable, "-m", "engine", "judge", str(src), "-o", str(out), "--no-table"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not _temporaries(tmp_path) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        assert _temporaries(tmp_path), "the temporary output file never appeared"
        time.sleep(1.5)                             # judging: inside a DuckDB query
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == status, err
    assert err == said
    assert _temporaries(tmp_path) == [] and out.read_text() == "old results\n"


def test_the_next_write_removes_the_temporary_file_of_a_killed_run(tmp_path, capsys):
    """SIGKILL leaves the temporary file; the next run writing there removes it, and only it:
    named for that target, with its writer's process gone (issue 19)."""
    src = tmp_path / "in.jsonl"
    src.write_text(FIGHT * 60_000)
    out = tmp_path / "out.yaml"
    proc = subprocess.Popen([sys.executable, "-m", "engine", "judge", str(src), "-o", str(out), "--no-table"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not _temporaries(tmp_path) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
    finally:
        proc.kill()
        proc.wait()
    left = _temporaries(tmp_path)
    assert len(left) == 1 and f".out.yaml.{proc.pid}." in left[0]
    kept = [f".out.yaml.{os.getppid()}.abcdefgh.tmp",       # a live writer's
            f".other.yaml.{proc.pid}.abcdefgh.tmp",          # another target's
            ".out.yaml.tmp", f".out.yaml.{proc.pid}.tmp"]    # not named as the writer names them
    for name in kept:
        (tmp_path / name).write_text("mine\n")
    src.write_text(FIGHT)
    assert main(["judge", str(src), "-o", str(out)]) == 0
    assert _temporaries(tmp_path) == sorted(kept) and yaml.safe_load(out.read_text())["results"][0]["result"] == 1


def test_sigterm_raises_in_the_main_thread_only_while_active():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated) as info:
        with terminate_cleanly():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)
    assert info.value.code == 128 + signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is before


def test_atomic_writer_removes_its_temporary_file_on_any_failure(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    for failure in (ValueError("boom"), KeyboardInterrupt(), Terminated()):
        with pytest.raises(type(failure)):
            with atomic_writer(target) as stream:
                stream.write("half")
                raise failure
        assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


# ---- symbolic links are written through -----------------------------------------------------

def test_an_output_link_is_written_through(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(FIGHT)
    real = tmp_path / "real"
    real.mkdir()
    target = real / "results.yaml"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "latest.yaml"
    link.symlink_to(target)
    chain = tmp_path / "chain.yaml"
    chain.symlink_to(link)
    assert target_of(chain) == target.resolve()
    assert main(["judge", str(src), "-o", str(chain)]) == 0
    assert chain.is_symlink() and link.is_symlink() and os.readlink(link) == str(target)
    assert yaml.safe_load(target.read_text())["results"][0]["result"] == 1
    assert stat.S_IMODE(target.stat().st_mode) == 0o640                  # the target keeps its mode
    assert _temporaries(tmp_path) == [] and _temporaries(real) == []


def test_a_dangling_output_link_creates_its_target(tmp_path):
    target = tmp_path / "sub" / "new.json"
    target.parent.mkdir()
    link = tmp_path / "out.json"
    link.symlink_to(target)
    check_writable(link)
    atomic_write(link, "{}\n")
    assert link.is_symlink() and target.read_text() == "{}\n"


def test_a_link_into_a_missing_directory_is_named(tmp_path, capsys):
    link = tmp_path / "out.yaml"
    link.symlink_to(tmp_path / "missing" / "x.yaml")
    src = tmp_path / "in.jsonl"
    src.write_text(FIGHT)
    assert main(["judge", str(src), "-o", str(link)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"poker: {link}: cannot write: no directory") and err.count("\n") == 1


def test_a_device_is_written_not_replaced(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(FIGHT)
    assert main(["judge", str(src), "-o", os.devnull, "--format", "json"]) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert capsys.readouterr().out == ""

