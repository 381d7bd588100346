"""What is made once from one engine's loaded rules, kept with that engine (Engine.state) rather
than in module globals: it lives and dies with the engine, and two engines never share it."""

from __future__ import annotations

from typing import Any


class RulesState:
    """The per-engine memo of judging and the applications.

    Attributes:
        proofs: The proofs made for these rules (engine.judging.proof), by kind, shape and table digest.
        table: Their five-card table once made or loaded (engine.judging.table), or None.
        split_games: The games that halve the pot with a low, and the low's rule set
            (engine.judging.hilo), or None before first asked.
        foreseeable: Whether a hand's pots can be foreseen before its showdowns are judged
            (engine.history), or None before first asked.
    """

    __slots__ = ("proofs", "table", "split_games", "foreseeable")

    def __init__(self) -> None:
        self.proofs: dict[tuple, Any] = {}
        self.table: Any = None
        self.split_games: dict[int, str] | None = None
        self.foreseeable: bool | None = None
