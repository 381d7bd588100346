"""The grid of starting hands: two hole cards as poker players draw them, one cell a starting hand.

The deck's values run down the rows and the columns, highest first, as the rules' ``rangeOrder``
orders them (rules/cards.dl: 13 values and 169 cells in the standard deck, AA at the top left;
a short deck has fewer).  A pair is on the diagonal, two values of one suit above it (``AKs``:
row A, column K) and of different suits below it (``AKo``: row K, column A).  A cell holds the
hands of its starting hand that a range holds (:func:`range_grid`), or their equity against the
other player's range (:func:`equity_grid`).  Drawn as text (ANSI colours on a terminal), SVG or
HTML, nothing fetched from anywhere.

>>> from engine import Engine
>>> g = range_grid(Engine(), "QQ+,AKs")
>>> [c.label for c in g.held()]
['AA', 'AKs', 'KK', 'QQ']
>>> print(g.text().splitlines()[0])
AA   AKs  .    .    .    .    .    .    .    .    .    .    .
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field
from html import escape
from typing import Iterable, Sequence

from engine import interface as I
from engine.core import Engine
from engine.equity import Equity
from engine.poker.notation import Cards, InvalidCards
from engine.poker.ranges import Range, read_range

CELL = 52                   # an SVG cell's side, in pixels
_RESET = "\x1b[0m"


@dataclass
class Cell:
    """One starting hand: its ``label`` (``AKs``), the ``total`` hands of the deck it names, the
    ``held`` hands of them in the range, and (an equity grid) the deals they were dealt and their
    share of those pots (``pot``: wins plus half the ties)."""
    label: str
    total: int
    held: int = 0
    deals: int = 0
    pot: float = 0.0

    @property
    def equity(self) -> float | None:
        """The cell's equity against the other range: None where it was dealt nothing."""
        return self.pot / self.deals if self.deals else None


@dataclass
class Grid:
    """The cells, ``rows[i][j]`` (row and column ``values[i]``, ``values[j]``, highest first), what
    the grid shows (``title``), and the hands of the range that no cell holds (``off_grid``: a
    joker)."""
    values: tuple[str, ...]
    rows: list[list[Cell]]
    title: str
    off_grid: int = 0
    equities: bool = False
    notes: list[str] = field(default_factory=list)

    def cells(self) -> Iterable[Cell]:
        """Every cell, row by row."""
        return (c for row in self.rows for c in row)

    def held(self) -> list[Cell]:
        """The cells the range holds a hand of, row by row."""
        return [c for c in self.cells() if c.held]

    # ---- text ----------------------------------------------------------------------------------

    def text(self, color: bool = False) -> str:
        """The grid as lines of text: a cell's label where the range holds it (``*``: some of its
        hands only), ``.`` elsewhere; an equity grid has each cell's equity under its label.
        ``color``: ANSI background colours (green the range; red to green the equity), the other
        labels dim."""
        lines = []
        for row in self.rows:
            top, bottom = [], []
            for c in row:
                if not c.held:
                    top.append(_paint(f"{c.label if color else '.':<4}", None, color, dim=True))
                    bottom.append(_paint("    ", None, color))
                    continue
                mark = "*" if c.held < c.total else ""
                rgb = _ramp(c.equity) if self.equities and c.equity is not None else (
                    (0x4c, 0xaf, 0x50) if not mark else (0xc5, 0xe1, 0xa5))
                top.append(_paint(f"{c.label + mark:<4}", rgb, color))
                share = f"{100 * c.equity:3.0f}%" if c.equity is not None else "  - "
                bottom.append(_paint(share, rgb, color))
            lines.append(" ".join(top).rstrip() if not color else " ".join(top))
            if self.equities and any(c.held for c in row):      # a row of nothing held: one line
                lines.append(" ".join(bottom).rstrip() if not color else " ".join(bottom))
        return "\n".join(lines)

    def summary(self) -> list[str]:
        """The lines around the grid: what it shows, and how much of it."""
        held = self.held()
        out = [self.title]
        if any(c.held < c.total for c in held):
            out.append("*: the range holds some of the starting hand's hands, not all")
        out.extend(self.notes)
        if self.off_grid:
            out.append(f"{self.off_grid:,} hand{'s' if self.off_grid != 1 else ''} of the range on no cell "
                       f"(a card of no value and suit)")
        return out

    # ---- SVG and HTML --------------------------------------------------------------------------

    def svg(self) -> str:
        """The grid as an SVG image: one ``<g class="cell">`` a starting hand, with a tooltip."""
        n = len(self.values)
        width = n * CELL + 2
        # lines wrapped to the grid's width: about 9 pixels a character of the bold 15-pixel
        # title, 7 of the 12-pixel notes
        title = textwrap.wrap(self.title, max(20, width // 9))
        notes = [line for note in self.summary()[1:] for line in textwrap.wrap(note, max(20, width // 7))]
        head = 12 + 20 * len(title)
        height = n * CELL + head + 18 * len(notes) + 8
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                 f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
                 f"<title>{escape(self.title)}</title>",
                 f'<rect width="{width}" height="{height}" fill="#ffffff"/>']
        for k, line in enumerate(title):
            parts.append(f'<text x="4" y="{22 + 20 * k}" font-size="15" font-weight="bold">{escape(line)}</text>')
        for i, row in enumerate(self.rows):
            for j, c in enumerate(row):
                x, y = 1 + j * CELL, head + i * CELL
                if not c.held:
                    fill, ink = "#f2f2f2", "#9e9e9e"
                elif self.equities and c.equity is not None:
                    fill, ink = _hex(_ramp(c.equity)), "#000000"
                else:
                    fill, ink = ("#4caf50" if c.held == c.total else "#c5e1a5"), "#000000"
                tip = f"{c.label}: {c.held} of {c.total} hands"
                if c.equity is not None:
                    tip += f", equity {100 * c.equity:.2f}% over {c.deals:,} deals"
                parts.append(f'<g class="cell" data-hand="{c.label}"><title>{escape(tip)}</title>'
                             f'<rect x="{x}" y="{y}" width="{CELL - 1}" height="{CELL - 1}" fill="{fill}" '
                             f'stroke="#ffffff"/>'
                             f'<text x="{x + CELL / 2:g}" y="{y + (20 if self.equities else 30)}" font-size="14" '
                             f'text-anchor="middle" fill="{ink}">{c.label}{"*" if 0 < c.held < c.total else ""}</text>')
                if self.equities and c.equity is not None:
                    parts.append(f'<text x="{x + CELL / 2:g}" y="{y + 40}" font-size="12" text-anchor="middle" '
                                 f'fill="{ink}">{100 * c.equity:.1f}%</text>')
                parts.append("</g>")
        for k, note in enumerate(notes):
            parts.append(f'<text x="4" y="{head + n * CELL + 18 * (k + 1)}" font-size="12" '
                         f'fill="#555555">{escape(note)}</text>')
        parts.append("</svg>")
        return "\n".join(parts) + "\n"

    def html(self) -> str:
        """A page holding the SVG, for a browser (nothing fetched from the network)."""
        return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                f"<title>{escape(self.title)}</title>\n"
                "<style>body{font-family:sans-serif;margin:1.5em}</style>\n</head>\n<body>\n"
                f"{self.svg()}</body>\n</html>\n")


def range_grid(engine: "Engine", cards: "Cards | Range") -> Grid:
    """Which starting hands a range holds (``cards``: a range's text, as engine.ranges reads it)."""
    r = cards if isinstance(cards, Range) else read_range(engine, cards)
    grid = _empty(engine, f"{r.text}: {len(r):,} hand{'s' if len(r) != 1 else ''}")
    place = _Places(engine, grid)
    for combo in r.combos:
        cell = place(combo)
        if cell is None:
            grid.off_grid += 1
        else:
            cell.held += 1
    every = sum(c.total for c in grid.cells())
    if every:
        grid.title += f" of {every:,} ({100 * len(r) / every:.2f}%), {len(grid.held())} starting hands"
    return grid


def equity_grid(engine: "Engine", result: "Equity") -> Grid:
    """Each starting hand of the first player's range: its equity against the second player's, from
    an equity of two players counted exactly (:func:`engine.equity.equity`); InvalidCards when the
    result holds no such counts (sampled, or more than two players)."""
    if len(result.players) != 2:
        raise InvalidCards("the grid shows one player's range against another's: give two players")
    if result.by_hand is not None:
        counts = [(tuple(h), w + t / 2, p) for h, w, t, p in result.by_hand]
    elif not result.ranged and result.exact and result.high is None:
        hole = tuple(engine.cards(result.players[0]))
        counts = [(hole, result.share[0] * result.boards, result.boards)]
    else:
        raise InvalidCards("the grid needs each hand's equity counted exactly: two ranges of hold'em, "
                           "no --samples (these were sampled; a board or narrower ranges count exactly)")
    grid = _empty(engine, f"equity of {result.players[0]} against {result.players[1]}"
                          f"{', board ' + result.board if result.board else ''}", equities=True)
    place = _Places(engine, grid)
    for hand, pot, deals in counts:
        cell = place(hand)
        if cell is None:
            grid.off_grid += 1
            continue
        cell.held += 1
        cell.deals += deals
        cell.pot += pot
    grid.notes.append(f"each cell: its hands' share of the pot over every deal against the other range "
                      f"(overall {100 * result.share[0]:.2f}%)")
    return grid


def _empty(engine: "Engine", title: str, equities: bool = False) -> Grid:
    """A grid of the rules' values, highest first by rangeOrder, every cell empty."""
    if not any(c.head == I.RANGE_ORDER for c in engine.ruleset.clauses):
        raise InvalidCards("these rules give no rangeOrder (rules/cards.dl), so no grid of starting hands")
    order = dict(engine.static(I.RANGE_ORDER, 2))
    deck = set(engine.deck)
    suits: dict[int, set[int]] = {}
    for (value, suit), card in engine.notation.ids.items():
        if card in deck and value in order:
            suits.setdefault(value, set()).add(suit)
    values = sorted(suits, key=order.__getitem__, reverse=True)
    symbol = engine.notation.value_symbol
    rows = []
    for i, high in enumerate(values):
        row = []
        for j, other in enumerate(values):
            a, b = (high, other) if i <= j else (other, high)     # the higher value first
            same = len(suits[a] & suits[b])
            if i == j:
                row.append(Cell(symbol[a] * 2, math.comb(len(suits[a]), 2)))
            elif i < j:
                row.append(Cell(f"{symbol[a]}{symbol[b]}s", same))
            else:
                row.append(Cell(f"{symbol[a]}{symbol[b]}o", len(suits[a]) * len(suits[b]) - same))
        rows.append(row)
    return Grid(tuple(symbol[v] for v in values), rows, title, equities=equities)


class _Places:
    """The cell of a hand of two cards (None: a card of no value and suit, or not two cards)."""

    def __init__(self, engine: "Engine", grid: Grid) -> None:
        self.grid = grid
        self.card = {card: vs for vs, card in engine.notation.ids.items()}
        symbol = engine.notation.value_symbol
        where = {s: i for i, s in enumerate(grid.values)}
        self.at = {v: where[s] for v, s in symbol.items() if s in where}

    def __call__(self, hand: Sequence[int]) -> Cell | None:
        if len(hand) != 2 or any(c not in self.card for c in hand):
            return None
        (v, s), (w, t) = self.card[hand[0]], self.card[hand[1]]
        if v not in self.at or w not in self.at:
            return None
        i, j = sorted((self.at[v], self.at[w]))
        if i == j:
            return self.grid.rows[i][i]
        return self.grid.rows[i][j] if s == t else self.grid.rows[j][i]


def _ramp(share: float) -> tuple[int, int, int]:
    """Red (0) through yellow (one half) to green (1)."""
    share = min(1.0, max(0.0, share))
    if share < 0.5:
        return 0xe5, round(0x57 + (0xd6 - 0x57) * share * 2), 0x50
    return round(0xe5 - (0xe5 - 0x4c) * (share - 0.5) * 2), round(0xd6 - (0xd6 - 0xaf) * (share - 0.5) * 2), 0x50


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _paint(text: str, rgb: tuple[int, int, int] | None, color: bool, dim: bool = False) -> str:
    """Text on a background of 256-colour ANSI (the nearest of the 6x6x6 cube), black on it."""
    if not color:
        return text
    if rgb is None:
        return f"\x1b[2m{text}{_RESET}" if dim else text
    r, g, b = (round(x / 255 * 5) for x in rgb)
    return f"\x1b[30;48;5;{16 + 36 * r + 6 * g + b}m{text}{_RESET}"


def use_color(choice: str, stream_is_tty: bool, environ: dict[str, str]) -> bool:
    """Whether to colour: ``always``, ``never``, or ``auto`` (a terminal, and no ``NO_COLOR``).

    >>> use_color("auto", True, {}), use_color("auto", True, {"NO_COLOR": "1"}), use_color("auto", False, {})
    (True, False, False)
    >>> use_color("always", False, {"NO_COLOR": "1"}), use_color("never", True, {})
    (True, False)
    """
    if choice == "always":
        return True
    if choice == "never":
        return False
    return stream_is_tty and not environ.get("NO_COLOR")


__all__ = ["Cell", "Grid", "range_grid", "equity_grid", "use_color"]
