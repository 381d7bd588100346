"""The grid of starting hands (engine/equity/grid.py; `poker range`, `poker equity --grid`): its cells
against an independent reading of ranges, each cell's equity against equity() of that starting hand
alone, the SVG as XML, the command line, and the picture in a real browser (headless Chromium)."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

from engine import Engine
from engine.cli import main
from engine.equity import equity
from engine.equity.grid import equity_grid, range_grid
from engine.poker.notation import InvalidCards
from engine.poker.ranges import read_range

CHROMIUM = "/usr/bin/chromium"
SVG = "{http://www.w3.org/2000/svg}"
VALUES = "AKQJT98765432"          # highest first, as the grid's rows and columns


@pytest.fixture(scope="module")
def eng() -> Engine:
    return Engine()


def cell_of(a: str, b: str) -> str:
    """An independent naming of two tokens' starting hand (standard deck)."""
    (va, sa), (vb, sb) = sorted([(a[0], a[1]), (b[0], b[1])], key=lambda t: VALUES.index(t[0]))
    return va + vb if va == vb else va + vb + ("s" if sa == sb else "o")


def test_a_range_marks_exactly_its_starting_hands(eng: Engine) -> None:
    g = range_grid(eng, "QQ+,AKs")
    assert {c.label: (c.held, c.total) for c in g.held()} == {"AA": (6, 6), "KK": (6, 6), "QQ": (6, 6),
                                                              "AKs": (4, 4)}
    assert len(list(g.cells())) == 169 and g.values == tuple(VALUES)


def test_pairs_on_the_diagonal_suited_above_offsuit_below(eng: Engine) -> None:
    g = range_grid(eng, "random")
    for i, j in itertools.product(range(13), repeat=2):
        a, b = VALUES[min(i, j)], VALUES[max(i, j)]
        want = a + b if i == j else a + b + ("s" if i < j else "o")
        assert g.rows[i][j].label == want
        assert g.rows[i][j].held == g.rows[i][j].total == (6 if i == j else 4 if i < j else 12)
    assert sum(c.held for c in g.cells()) == 1326


def test_every_hand_of_a_range_lands_in_its_own_cell(eng: Engine) -> None:
    text = "TT-77,AJs+,KQo,T9s-65s,AhQd,2c2d"
    g = range_grid(eng, text)
    want: dict[str, int] = {}
    for combo in read_range(eng, text).combos:
        a, b = eng.notation.format(combo).split()
        want[cell_of(a, b)] = want.get(cell_of(a, b), 0) + 1
    assert {c.label: c.held for c in g.held()} == want
    assert next(c for c in g.cells() if c.label == "AQo").held == 1    # one hand of 12: a part only
    assert "*" in g.text()


def test_a_short_deck_has_a_smaller_grid() -> None:
    g = range_grid(Engine("short-deck"), "random")
    assert g.values == tuple("AKQJT9876") and sum(c.held for c in g.cells()) == 630


@pytest.mark.parametrize("board", ["2C 7D 9H TS", "2C 7C 9C"])
def test_each_cell_is_the_equity_of_its_starting_hand_alone(eng: Engine, board: str) -> None:
    """A cell's equity is equity() of the first range cut to that starting hand.  On the one-suit
    flop three suits are renamed away, each class of boards counted once (a hand's own counts may
    then be another renaming's: summed over a starting hand they are exact)."""
    other = "JJ,AQs,KQo"
    result = equity(eng, ["QQ+,AKs,T9s", other], board=board)
    g = equity_grid(eng, result)
    held = {c.label: c for c in g.held()}
    assert set(held) == {"AA", "KK", "QQ", "AKs", "T9s"}
    for label, cell in held.items():
        alone = equity(eng, [label, other], board=board)
        assert cell.equity == pytest.approx(alone.share[0], abs=1e-12), label
        assert cell.deals == alone.boards
    pot = sum(c.pot for c in held.values())
    assert pot / sum(c.deals for c in held.values()) == pytest.approx(result.share[0], abs=1e-12)


def test_a_sampled_equity_has_no_grid(eng: Engine) -> None:
    result = equity(eng, ["QQ+", "random", "KK"], board="2C 7D 9H", samples=2000)
    with pytest.raises(InvalidCards, match="two players"):
        equity_grid(eng, result)


def test_the_svg_is_xml_of_169_cells(eng: Engine) -> None:
    root = ET.fromstring(range_grid(eng, "QQ+,AKs").svg())
    assert root.tag == f"{SVG}svg"
    cells = root.findall(f"{SVG}g[@class='cell']")
    assert len(cells) == 169
    held = [c.get("data-hand") for c in cells if c.find(f"{SVG}rect").get("fill") != "#f2f2f2"]
    assert held == ["AA", "AKs", "KK", "QQ"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_poker_range_prints_the_grid(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                     tmp_path: Path) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, out, err = run(capsys, "range", "QQ+,AKs")
    assert code == 0 and err == "" and "\x1b[" not in out          # not a terminal: no colours
    assert out.splitlines()[0].split()[:3] == ["AA", "AKs", "."]
    assert "22 hands of 1,326" in out
    code, out, _ = run(capsys, "range", "QQ+,AKs", "--color=always")
    assert code == 0 and "\x1b[" in out
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in run(capsys, "range", "QQ+,AKs")[1]
    assert "\x1b[" in run(capsys, "range", "QQ+,AKs", "--color", "always")[1]
    target = tmp_path / "r.html"
    code, out, _ = run(capsys, "range", "AKs", "-o", str(target))
    assert code == 0 and target.read_text().startswith("<!DOCTYPE html>")
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]      # no temporary file left


@pytest.mark.parametrize("argv, named", [
    (["range", "AKx"], "'AKx'"),
    (["range", "AKs", "-o", "grid.png"], "grid.png"),
    (["equity", "QQ+", "KK", "AA", "--grid"], "--grid"),
    (["equity", "QQ+", "KK", "--samples", "100", "--grid"], "--grid"),
    (["equity", "QQ+", "KK", "--grid", "/no/such/dir/g.svg"], "/no/such/dir/g.svg"),
])
def test_bad_grids_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], named: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and named in err


def test_poker_equity_grid_writes_the_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "g.svg"
    code, out, err = run(capsys, "equity", "QQ+,AKs", "JJ,AQs", "--board", "2C 7D 9H TS", "--grid", str(target))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[1].startswith("player 1 (QQ+,AKs: 22 hands)")
    assert lines[4].split()[:2] == ["AA", "AKs"] and lines[5].split()[0].endswith("%")
    cells = ET.parse(target).getroot().findall(f"{SVG}g[@class='cell']")
    assert len(cells) == 169


def png_pixels(data: bytes) -> tuple[int, int, list[tuple[int, ...]]]:
    """Width, height and the pixels of an 8-bit RGB or RGBA PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + size]
        header = body if kind == b"IHDR" else header
        idat += body if kind == b"IDAT" else b""
        pos += 12 + size
    width, height, depth, color = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and color in (2, 6)
    bpp = 3 if color == 2 else 4
    raw, stride, prev, pixels = zlib.decompress(idat), width * bpp, bytearray(width * bpp), []
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + [0, a, b, (a + b) // 2,
                                  a if pa <= pb and pa <= pc else b if pb <= pc else c][kind]) & 0xFF
        pixels.extend(tuple(line[i:i + 3]) for i in range(0, stride, bpp))
        prev = line
    return width, height, pixels


@pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason=f"no {CHROMIUM}: the grid is not rendered in a "
                                                             "browser here (apt-get install chromium)")
@pytest.mark.parametrize("suffix", [".svg", ".html"])
def test_a_browser_draws_the_grid(eng: Engine, tmp_path: Path, suffix: str) -> None:
    g = range_grid(eng, "QQ+,AKs")
    page = tmp_path / f"grid{suffix}"
    page.write_text(g.svg() if suffix == ".svg" else g.html())
    shot = tmp_path / "grid.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run",
                    f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={shot}", "--window-size=800,800",
                    page.as_uri()], capture_output=True, timeout=120, check=True)
    width, height, pixels = png_pixels(shot.read_bytes())
    assert (width, height) == (800, 800)
    green = sum(1 for r, g_, b in pixels if abs(r - 0x4C) < 12 and abs(g_ - 0xAF) < 12 and abs(b - 0x50) < 12)
    grey = sum(1 for r, g_, b in pixels if r == g_ == b and 0xE8 <= r <= 0xF6)
    # four held cells of about 51 x 51 pixels, less their labels; 165 empty ones
    assert 4 * 1800 < green < 4 * 2700 and grey > 165 * 1500
    shutil.rmtree(tmp_path / "profile", ignore_errors=True)


def test_the_page_shows_what_poker_range_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md's example of `poker range`, as the command prints it."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text()
    block = page.split('$ poker range "QQ+,AKs,AhQh"\n', 1)[1].split("```", 1)[0]
    code, out, err = run(capsys, "range", "QQ+,AKs,AhQh")
    assert (code, err, out) == (0, "", block)


def test_poker_range_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "range", "--json", "QQ+,AhKh")
    assert code == 0 and err == ""
    assert json.loads(out) == {"range": "QQ+,AhKh", "hands": 19, "cells": [
        {"hand": "AA", "held": 6, "of": 6}, {"hand": "AKs", "held": 1, "of": 4}, {"hand": "KK", "held": 6, "of": 6},
        {"hand": "QQ", "held": 6, "of": 6}]}
