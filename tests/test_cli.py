"""The command line's conventions: --version, `-` for stdin, --json everywhere, one-line usage
errors, progress bars cleared before output, output files (permissions, unwritable paths), the
piped-session protocol, line editing and completion; and a library that never imports its CLI."""

from __future__ import annotations

import io
import json
import os
import select
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from engine.cli import build_parser, common, main
from engine.cli.repl import Session
from engine.io.atomic import atomic_write, check_writable

ROOT = Path(__file__).resolve().parent.parent
ROYAL = "AH KH QH JH TH"
FIGHTS = """fights:
  - id: two-pair
    hands: ["JH JD 2C 2S 4H", "TH TD 9C 9S 8H"]
  - hands: ["AH KX QS JC TH", "2C 3D 4S 5H 7C"]
"""


class Tty(io.StringIO):
    """A stream that says it is a terminal (progress bars and prompts show; readline does not)."""

    def isatty(self) -> bool:
        return True


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# ---- the library never imports the CLI ------------------------------------------------------


def test_the_library_never_imports_the_cli():
    """Every module of the package but engine.cli (and __main__), imported in a fresh interpreter."""
    code = """
import pkgutil, sys, importlib
import engine
def walk(path, prefix):
    for m in pkgutil.iter_modules(path, prefix):
        if m.name not in ("engine.cli", "engine.__main__"):
            yield m.name
            if m.ispkg:
                yield from walk(importlib.import_module(m.name).__path__, m.name + ".")
names = sorted(walk(engine.__path__, "engine."))
for name in names:
    importlib.import_module(name)
from engine import Engine
Engine().role("Qs9s3dJd10h", "rest")            # the lazy imports too
loaded = sorted(m for m in sys.modules if m == "engine.cli" or m.startswith("engine.cli."))
print(" ".join(names)); print(loaded)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    names, loaded = done.stdout.splitlines()
    for module in ("engine.core", "engine.check", "engine.judging.roles", "engine.board.game", "engine.judge",
                   "engine.judging.explain", "engine.evaluators.pydatalog.query", "engine.io.atomic"):
        assert module in names.split()
    assert loaded == "[]"


def test_python_m_engine_and_the_package_entry_point():
    done = subprocess.run([sys.executable, "-m", "engine", "rank", ROYAL], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "royal flush (rank 10)\n", "")
    import engine.cli
    assert callable(engine.cli.main) and Path(engine.cli.__file__).name == "__init__.py"


# ---- --version -------------------------------------------------------------------------------


def test_version(capsys):
    status, out, err = run(capsys, "--version")
    assert status == 0 and err == ""
    assert out.startswith("poker ") and out.strip() != "poker" and out.count("\n") == 1


def test_version_is_the_distributions_and_reads_no_metadata():
    from importlib import metadata

    import engine.cli

    assert engine.cli.version() == metadata.version("poker-engine") == engine.__version__
    # `poker --version` (and every command) learns it without importing importlib.metadata
    code = "import sys; from engine.cli import main; main(['--version']); print('importlib.metadata' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.splitlines() == [f"poker {engine.__version__}", "False"]


def test_the_poker_process_eases_the_collector_and_importing_the_engine_does_not():
    """The `poker` command owns its process: its collector scans every object less often
    (engine.limits.ease_collector); a program that merely imports the engine keeps its own."""
    import gc

    from engine import limits
    show = "import gc, os, sys; real = os._exit; os._exit = lambda c: (print(gc.get_threshold()), sys.stdout.flush(), real(c)); "
    code = show + "sys.argv = ['poker', '--version']; from engine.cli import run; run()"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.splitlines()[1] == str(limits.COLLECTOR_THRESHOLDS)
    code = "import gc; default = gc.get_threshold(); import engine.cli; print(gc.get_threshold() == default)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out == "True\n" and limits.COLLECTOR_THRESHOLDS != (700, 10, 10) and gc.get_threshold() == limits.COLLECTOR_THRESHOLDS


# ---- usage errors: one line, exit 2 ---------------------------------------------------------


@pytest.mark.parametrize("argv, start", [
    ([], "poker: error: "),
    (["frobnicate"], "poker: error: argument COMMAND: invalid choice: 'frobnicate'"),
    (["--nope"], "poker: error: "),
    (["rank"], "poker rank: the following arguments are required: hand"),
    (["beat", "--explain"], "poker beat: the following arguments are required: HAND"),
    (["judge"], "poker judge: "),
    (["judge", "x.yaml", "--format", "xml"], "poker judge: argument --format: invalid choice: 'xml'"),
    (["check", "--samples", "many"], "poker check: argument --samples: invalid int value: 'many'"),
    (["role", "--rest", "--all", "Qs9s3dJd10h"], "poker role: argument --all: not allowed with"),
    (["deal"], "poker deal: the following arguments are required: --players"),
])
def test_usage_errors_are_one_line(capsys, argv, start):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(start), err
    assert "usage:" not in err


def test_help_still_prints_the_usage(capsys):
    status, out, _ = run(capsys, "rank", "--help")
    assert status == 0 and out.startswith("usage: poker rank")
    assert "--json" in out


@pytest.mark.parametrize("argv", [["rank", ""], ["rank", "  "], ["rank", ",", ","]])
def test_rank_of_nothing_names_what_was_wrong(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("poker: no cards given") and err.count("\n") == 1


def test_errors_of_a_command_are_one_line(capsys):
    status, out, err = run(capsys, "rank", "AH KH")
    assert (status, out) == (2, "") and err.startswith("poker: AH KH is not a hand: a hand has five cards") and err.count("\n") == 1
    status, out, err = run(capsys, "--rules", "nosuch", "rank", ROYAL)
    assert status == 2 and err.startswith("poker: unknown rule set 'nosuch'") and err.count("\n") == 1


# ---- --json: one flag, on every subcommand that prints results -----------------------------


def test_every_result_command_takes_json():
    parser = build_parser()
    helps = {name: " ".join(sub.format_help().split()) for name, sub in parser.commands.items()}
    with_json = {name for name, text in helps.items() if "--json" in text}
    assert with_json == {"rank", "beat", "judge", "check", "diff", "equity", "role", "deal", "repl", "cache", "range"}
    assert all("--json print JSON instead of text" in helps[name] for name in with_json)   # one meaning


def test_json_outputs(capsys, tmp_path):
    status, out, _ = run(capsys, "rank", "--json", ROYAL)
    assert status == 0 and json.loads(out) == {"hand": ROYAL, "rank": 10, "category": "royal flush"}
    status, out, _ = run(capsys, "beat", "--json", ROYAL, "2C 3D 4S 5H 7C")
    assert status == 0 and json.loads(out)["winners"] == [0]
    status, out, _ = run(capsys, "deal", "--json", "--players", "2", "--seed", "1")
    assert status == 0 and set(json.loads(out)) == {"hands", "ranks", "winners"}
    status, out, err = run(capsys, "role", "--json", "D3C3C10D10S3", "5d5d2d3dAd", "AhKh")
    data = json.loads(out)
    assert status == 2 and [d["code"] for d in data] == ["FH", "1P", None]
    assert "warnings" in data[1] and "five cards" in data[2]["error"]
    assert err.count("\n") == 2                                    # the warning and the error, as in text
    src = tmp_path / "in.yaml"
    src.write_text(FIGHTS)
    status, json_out, _ = run(capsys, "judge", "--json", str(src))
    status2, alias_out, _ = run(capsys, "judge", "--format", "json", str(src))
    assert status == status2 == 0 and json.loads(json_out) == json.loads(alias_out)
    assert json.loads(json_out)["results"][0]["result"] == 1
    status, _, err = run(capsys, "judge", "--json", "--format", "yaml", str(src))
    assert status == 2 and "disagree" in err


# ---- judge: `-` is stdin, output files --------------------------------------------------------


def test_judge_reads_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(FIGHTS))
    status, out, err = run(capsys, "judge", "-")
    assert status == 0
    results = yaml.safe_load(out)["results"]
    assert [r["result"] for r in results] == [1, -1]
    assert "fights: 2" in err


def test_judge_stdin_errors_name_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("fights:\n  - hands: [a\n  b: ]\n"))
    status, out, err = run(capsys, "judge", "-")
    assert (status, out) == (2, "") and err.startswith("poker: <stdin>:3: YAML syntax error")


def test_judge_stdin_in_a_subprocess(tmp_path):
    src = tmp_path / "f.yaml"
    src.write_text(FIGHTS)
    with src.open() as stdin:
        done = subprocess.run([sys.executable, "-m", "engine", "judge", "-", "--json"], stdin=stdin,
                              capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["results"]) == 2


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_output_file_gets_the_umask_permissions(tmp_path, capsys, mask, mode):
    src, out = tmp_path / "in.yaml", tmp_path / "out.yaml"
    src.write_text(FIGHTS)
    old = os.umask(mask)
    try:
        assert main(["judge", str(src), "-o", str(out)]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == mode
    assert yaml.safe_load(out.read_text())["results"][0]["id"] == "two-pair"


def test_atomic_write_keeps_the_mode_of_a_file_it_replaces(tmp_path):
    target = tmp_path / "out.yaml"
    target.write_text("old")
    target.chmod(0o640)
    atomic_write(target, "new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.yaml"]


@pytest.mark.parametrize("output, words", [
    ("missing/dir/out.yaml", "no directory"),
    ("afile/out.yaml", "not a directory"),
    (".", "directory"),
])
def test_unwritable_output_is_named_before_judging(tmp_path, capsys, monkeypatch, output, words):
    (tmp_path / "afile").write_text("")
    src = tmp_path / "in.yaml"
    src.write_text(FIGHTS)
    monkeypatch.chdir(tmp_path)
    import engine.judge

    def never(*_args, **_kwargs):
        raise AssertionError("judged before the output path was checked")
    monkeypatch.setattr(engine.judge.Judge, "judge", never)
    status, out, err = run(capsys, "judge", str(src), "-o", output)
    assert (status, out) == (2, "")
    assert err.startswith(f"poker: {output}: cannot write: ") and words in err and err.count("\n") == 1


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root writes anywhere")
def test_output_in_a_read_only_directory(tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(PermissionError):
            check_writable(ro / "out.yaml")
    finally:
        ro.chmod(0o700)


def test_check_writable_accepts_a_new_file(tmp_path):
    check_writable(tmp_path / "new.yaml")
    assert not (tmp_path / "new.yaml").exists()


# ---- progress bars ---------------------------------------------------------------------------


def test_progress_shows_on_a_terminal_only(monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert common.progress(10, "x") is None
    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    update = common.progress(10, "x")
    assert update is not None
    update(5)
    common.error("boom")                            # an error clears the bar first
    assert common._bars == []
    text = tty.getvalue()
    assert text.endswith("\rpoker: boom\n")
    assert text[:-len("poker: boom\n")].rstrip("\r").endswith(" ")   # the bar's line blanked


def test_one_bar_at_a_time(monkeypatch):
    monkeypatch.setattr(sys, "stderr", Tty())
    common.progress(10, "first")
    common.progress(10, "second")
    assert len(common._bars) == 1 and common._bars[0].desc == "second"
    common.clear_progress()
    assert common._bars == []


def test_judge_on_a_terminal_clears_its_bars_before_the_output(tmp_path, monkeypatch, capsys):
    src = tmp_path / "in.yaml"
    src.write_text(FIGHTS)
    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    events: list[str] = []
    real_write = sys.stdout.write

    def write(text: str) -> int:
        events.append("out" if common._bars == [] else "out while a bar shows")
        return real_write(text)
    monkeypatch.setattr(sys.stdout, "write", write)
    assert main(["judge", str(src)]) == 0
    out = capsys.readouterr().out
    assert "out while a bar shows" not in events
    assert out.startswith("results:\n") and yaml.safe_load(out)["results"][0]["result"] == 1
    assert "judging" in tty.getvalue() and tty.getvalue().rstrip("\n").endswith("(compiled (in-process))")


def test_interrupt_clears_the_bar_before_saying_so(tmp_path, monkeypatch, capsys):
    src = tmp_path / "in.yaml"
    src.write_text(FIGHTS)
    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    import engine.judge

    def interrupted(self, fights, progress=None, building=None, **_):
        progress(1)
        assert common._bars, "the bar should show while judging"
        raise KeyboardInterrupt
    monkeypatch.setattr(engine.judge.Judge, "judge", interrupted)
    assert main(["judge", str(src)]) == 130
    assert common._bars == []
    assert tty.getvalue().endswith("\rpoker: interrupted\n")
    assert capsys.readouterr().out == ""


# ---- piped sessions: `line N:` on every failing line ------------------------------------------


def test_piped_repl_prefixes_every_failing_line(monkeypatch, capsys):
    script = "\n".join([
        f"let a = {ROYAL}",
        "rank AH AD",                 # the subcommand's own error
        "rank",                       # a usage error
        "role AhKh D3C3C10D10S3",     # a subcommand's per-input error
        "beat AH",                    # fewer than two hands
        "judge /nonexistent.yaml",
        "getRank(a, R)",
        "nosuch(a, R)",
        "--rules nosuch rank AH",
    ]) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    status, out, err = run(capsys, "repl")
    assert status == 1
    assert out.splitlines() == ["a = AH KH QH JH TH", "FH", "R = 10"]
    lines = err.splitlines()
    numbers = [line.split(":")[1].strip() for line in lines]
    assert numbers == ["line 2", "line 3", "line 4", "line 5", "line 6", "line 8", "line 9"], lines
    assert all(line.startswith("poker: line ") for line in lines)
    assert "rank: the following arguments are required" in lines[1]


def test_repl_json_answers(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"let a = {ROYAL}\ngetRank(a, R)\nisPair(a)\nisFlush(a)\n"))
    status, out, err = run(capsys, "repl", "--json")
    assert (status, err) == (0, "")
    assert [json.loads(line) for line in out.splitlines()] == [[{"R": 10}], [], [{}]]


def test_line_session_protocol(monkeypatch, capsys):
    piped = common.LineSession(io.StringIO("one\ntwo\n"))
    with piped:
        assert piped.read("> ") == "one"
        piped.fail("bad")
        assert piped.read("> ") == "two"
        with pytest.raises(EOFError):
            piped.read("> ")
    assert piped.status == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "poker: line 1: bad\n"
    term = common.LineSession(Tty("x\n"))
    with term:
        assert term.read("> ") == "x"
        term.fail("bad")
    assert term.status == 0                                   # a terminal session exits 0
    out, err = capsys.readouterr()
    assert out == "> " and err == "poker: bad\n"


# ---- completion and line editing --------------------------------------------------------------


def test_repl_completes_commands_predicates_and_hands(engine):
    import argparse
    session = Session(argparse.Namespace(rules=None), build_parser)
    session.hands["alpha"] = ROYAL
    assert {"let", "reload", "rank", "role"} <= set(session.completions("", first=True))
    assert "repl" not in session.completions("re", first=True)
    assert session.completions("getR", first=True) == ["getRank"]
    assert session.completions("getRank__", first=False) == ["getRank__why"]
    assert "alpha" in session.completions("a", first=False) and "alpha" not in session.completions("a", first=True)
    assert session.completions("isP", first=False) == ["isPair"]
    assert session.completions("zz", first=False) == []
    offered = []
    state = 0
    while (word := session.complete("isF", state)) is not None:
        offered.append(word)
        state += 1
    assert offered == ["isFlush", "isFour"]


def _pty_session(argv: list[str], env: dict[str, str], lines: list[bytes], marker: bytes, cwd: Path) -> str:
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "engine", *argv], stdin=slave, stdout=slave, stderr=slave,
                            env={**os.environ, **env, "TERM": "dumb"}, cwd=cwd, start_new_session=True)
    os.close(slave)
    seen = b""

    def read_until(count: int) -> None:
        nonlocal seen
        deadline = time.monotonic() + 60
        while seen.count(marker) < count and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(master, 4096)
                except OSError:
                    return
    try:
        for i, line in enumerate(lines):
            read_until(i + 1)
            os.write(master, line)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return seen.decode(errors="replace")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")
def test_game_on_a_terminal_has_history(tmp_path):
    history = tmp_path / "game_history"
    text = _pty_session(["game"], {"POKER_GAME_HISTORY": str(history)},
                        [b"0\n", b"2H 2D 2C 9S 9H\n", b"3\n"], b":\r\n", tmp_path)
    assert "rank: 7 (full house)" in text
    assert "2H 2D 2C 9S 9H" in history.read_text()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")
def test_repl_tab_completes_on_a_terminal(tmp_path):
    text = _pty_session(["repl"], {"POKER_HISTORY": str(tmp_path / "h")},
                        [b"let a = AH KH QH JH TH\n", b"getRa\t(a, R)\n", b"\x04"], b"poker> ", tmp_path)
    assert "R = 10" in text


@pytest.mark.parametrize("argv, line", [(["repl"], f"rank {ROYAL}\n"), (["game"], "0\nAH AD 3C\n")])
def test_a_reader_that_leaves_ends_a_session_quietly(tmp_path, argv, line):
    """`poker repl < script | head -1`: no error per remaining line, exit 0."""
    script = tmp_path / "script"
    script.write_text(line * 500)
    with script.open() as stdin:
        proc = subprocess.Popen([sys.executable, "-m", "engine", *argv], stdin=stdin, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=tmp_path)
        assert proc.stdout.readline()
        proc.stdout.close()
        status = proc.wait(timeout=120)
        err = proc.stderr.read().decode()
        proc.stderr.close()
    assert (status, err) == (0, "")


def test_an_unknown_option_points_to_its_subcommands_help(capsys):
    assert main(["rank", "--jsn", "AH KH QH JH TH"]) == 2
    err = capsys.readouterr().err
    assert err == "poker rank: unrecognized arguments: --jsn (did you mean --json?) (see `poker rank --help`)\n"
    assert main(["judge", "x.yaml", "--strct"]) == 2
    assert "poker judge: unrecognized arguments: --strct (did you mean --strict?)" in capsys.readouterr().err


def test_poker_example_gives_the_sample_batch(capsys, tmp_path):
    status, out, _ = run(capsys, "example")
    assert status == 0 and out == (ROOT / "examples" / "fights.yaml").read_text(encoding="utf-8")
    target = tmp_path / "fights.yaml"
    status, out, err = run(capsys, "example", "-o", str(target))
    assert status == 0 and out == "" and target.read_text(encoding="utf-8").startswith("# The documents' fights")
    assert f"poker judge {target}" in err
    status, out, err = run(capsys, "judge", str(target), "--format", "jsonl")
    assert status == 0 and len(out.splitlines()) == 1026 and "fights: 1026" in err
