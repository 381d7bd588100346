"""Judging batches of fights: N fights in, N results out, in order, bad ones marked.

Fights are read one by one and judged in chunks: each chunk is one question to the rules (through
the compiled evaluator, every fight its own world), so a batch of any size streams in bounded
memory.  A fight that cannot be read (not a mapping, not 2..10 hands, a bad card) is marked with
the reason; a fight the rules find invalid (a shared card, four cards) gets the rules' reason.
A fight with a ``board:`` (and a ``game:``, hold'em by default) is a showdown: each hand is a
player's own cards, and the result also gives the five each plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from .batch import check_fight
from .notation import InvalidCards

if TYPE_CHECKING:
    from .core import Engine
    from .evaluators import Evaluator, Verdict

MIN_HANDS, MAX_HANDS = 2, 10
CHUNK = 20_000          # fights per question to the rules: big enough to amortise, small in memory


@dataclass
class Result:
    """One fight's result, as written by `poker judge`.

    >>> Result("f1", 1, [0], [3, 2], ["two pair", "one pair"]).as_dict()
    {'id': 'f1', 'result': 1, 'winners': [0], 'ranks': [3, 2], 'categories': ['two pair', 'one pair']}
    """
    id: Any
    result: int
    winners: list[int]
    ranks: list[int]
    categories: list[str | None]
    error: str | None = None
    best: list[str] | None = None        # a showdown: each player's five that play

    def as_dict(self) -> dict:
        out = {"id": self.id, "result": self.result, "winners": self.winners,
               "ranks": self.ranks, "categories": self.categories}
        if self.best is not None:
            out["best"] = self.best
        if self.error:
            out["error"] = self.error
        return out


class Judge:
    """Judges fights with one engine (its compiled evaluator, or the one given)."""

    def __init__(self, engine: "Engine", evaluator: "Evaluator | None" = None, chunk: int = CHUNK):
        self.engine = engine
        self.chunk = chunk
        self.chosen = evaluator

    def evaluator(self, n: int) -> "Evaluator":
        return self.chosen or self.engine.evaluator(n)

    def judge(self, fights: Iterable[Any], progress: Callable[[int], None] | None = None) -> Iterator[Result]:
        """Judge fights in order, a chunk at a time; ``progress(n)`` after each chunk."""
        pending: list[tuple[Any, Any]] = []      # (ident, Result or hands)
        valid = 0
        for index, fight in enumerate(fights):
            parsed = self._parse(index, fight)
            pending.append(parsed)
            valid += not isinstance(parsed[1], Result)
            if valid >= self.chunk:
                yield from self._flush(pending, progress)
                pending, valid = [], 0
        yield from self._flush(pending, progress)

    def _flush(self, pending: list[tuple[Any, Any]], progress) -> Iterator[Result]:
        fights = [hands for _, hands in pending if not isinstance(hands, Result)]
        from .evaluators import verdicts
        answers: Iterator[Verdict] = iter(verdicts(self.evaluator(len(fights)), fights) if fights else [])
        for ident, hands in pending:
            yield hands if isinstance(hands, Result) else self._result(ident, next(answers))
        if progress and pending:
            progress(len(pending))

    def _result(self, ident: Any, v: "Verdict") -> Result:
        ranks = list(v.ranks)
        best = [self.engine.notation.format(b) for b in v.best] if v.best else None
        return Result(ident, v.result, list(v.winners), ranks,
                      [self.engine.categories.get(r) for r in ranks], v.error, best)

    def _parse(self, index: int, fight: Any) -> tuple[Any, Any]:
        ident = fight.get("id", index + 1) if isinstance(fight, dict) else index + 1
        try:
            reason = check_fight(fight)          # junk, or a hand far longer than five cards
            if reason is not None:
                raise InvalidCards(reason)
            if not isinstance(fight, dict):
                raise InvalidCards("a fight is a mapping with `hands:`")
            hands = fight.get("hands")
            if not isinstance(hands, list):
                raise InvalidCards("`hands` must be a list of hands")
            if not MIN_HANDS <= len(hands) <= MAX_HANDS:
                raise InvalidCards(f"a fight takes {MIN_HANDS} to {MAX_HANDS} hands, not {len(hands)}")
            if "board" in fight:                 # a showdown
                return ident, self.engine.deal(hands, fight["board"], fight.get("game", "holdem"))
            return ident, [tuple(self.engine.cards(h)) for h in hands]
        except InvalidCards as exc:
            n = len(fight.get("hands")) if isinstance(fight, dict) and isinstance(fight.get("hands"), list) else 0
            return ident, Result(ident, -1, [], [-1] * n, [None] * n, str(exc))


def judge(engine: "Engine", fights: Iterable[Any]) -> list[Result]:
    """Judge fights (mappings with `hands:`) with an engine.

    >>> from engine import Engine
    >>> [r.result for r in judge(Engine(), [{"hands": ["JH JD 2C 2S 4H", "TH TD 9C 9S 8H"]}, 42])]
    [1, -1]
    """
    return list(Judge(engine).judge(fights))
