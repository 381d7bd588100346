"""The Engine: cards in as facts, the rules' answers out.

Every answer is a query against the loaded rules.  For each question the engine asserts the sets
it names (``declared(S)``, ``holds(S, I, C)``), asks, and retracts them.  Each Engine keeps its
own pyDatalog ``Logic``, so engines with different rule sets live side by side in one process.
"""

from __future__ import annotations

import itertools
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from engine import interface as I
from engine.datalog import loader, rulesets
from engine.datalog.ir import Untranslatable
from engine.evaluators import Ask, Evaluator, Verdict, World, arities, verdicts
from engine.evaluators.local import LocalEvaluator
from engine.evaluators.pydatalog.build import build
from engine.evaluators.pydatalog.lazy import pyParser
from engine.evaluators.pydatalog.query import QueryError, compile_query
from engine.evaluators.pydatalog.reference import ReferenceEvaluator
from engine.evaluators.pydatalog.runtime import (
    LogicOwner,
    Var,
    assert_fact,
    retract_fact,
)
from engine.evaluators.sql.evaluator import CompiledEvaluator
from engine.evaluators.workers import SMALL_BATCH, worker_count
from engine.judging import policy, rulecache
from engine.judging.fivetable import TableError
from engine.judging.hilo import with_low
from engine.judging.proof import fight_obstacle
from engine.judging.roles import role
from engine.judging.showdownproof import showdown_obstacle
from engine.judging.state import RulesState
from engine.judging.table import cached_table, five_card_table, table_digest
from engine.judging.tablecache import cache_path
from engine.judging.tabled import Tabled
from engine.poker.notation import Cards, InvalidCards, Notation, deck_bound, show

MAX_WORKERS = 4               # DuckDB databases judging a batch side by side (each holds a chunk)
MAX_SHOWDOWN_CARDS = 10       # a player's cards and the board: C(10, 5) = 252 fives to choose from


@dataclass(frozen=True)
class BestFive:
    """The five of a player's cards that play, as the rules choose them, with their rank.

    Attributes:
        text: The five cards, in the notation (``'AH KH QH JH TH'``).
        rank: Their rank, the rules' getRank.
        category: The rank's name (categoryName).
        cards: The five card ids.

    >>> Engine().best_five("2C 3D AH KH QH JH TH")
    BestFive(text='AH KH QH JH TH', rank=10, category='royal flush')
    """
    text: str
    rank: int
    category: str
    cards: tuple[int, ...] = ()

    def __repr__(self) -> str:
        return f"BestFive(text={self.text!r}, rank={self.rank}, category={self.category!r})"


class Engine(LogicOwner):
    """A poker judge whose knowledge is a rule set (``standard``, a variant name, or a directory).

    Every answer is asked of the loaded rules; each Engine keeps its own pyDatalog Logic, so
    engines of different rule sets work side by side, in one thread or several.

    Args:
        rules: A rule set's name (``"standard"``, the default; ``"short-deck"``, ...) or the path
            of a directory of ``*.dl`` files (a variant when it holds a ``variant.toml``).

    Raises:
        RuleError: The rule set is unknown, a file is outside the accepted Datalog subset, or the
            rules define too little to judge hands (the error names the file, line or predicate).

    Attributes:
        ruleset: The loaded rule set: its name, files and clauses (``engine.datalog.rulesets``).
        notation: The symbols of the rules' cards, which read and print cards.
        categories: Each rank's name (categoryName): ``{10: 'royal flush', ...}``.
        fallback: Why the rules are not compiled (every answer then comes from pyDatalog), or None.

    >>> eng = Engine()
    >>> eng.get_rank("AH KH QH JH TH"), eng.category("JH JD 2C 2S 4H")
    (10, 'two pair')
    >>> eng.beat("JH JD 2C 2S 4H", "TH TD 9C 9S 8H")    # 1: the first hand wins
    1
    >>> eng.winners(["2C 3D 4S 5H 7C", "9S 9D 9C 4H 4D", "AH KH QH JH TH"])
    [2]
    >>> eventb = Engine("eventb")                        # a variant: 5 flush, 6 straight
    >>> eventb.get_rank("AH 2D 3C 4S 5H"), eventb.category("AH 2D 3C 4S 5H")
    (6, 'straight')
    >>> Engine("nosuch")
    Traceback (most recent call last):
      ...
    engine.RuleError: unknown rule set 'nosuch' (available: standard, ace-to-five, ...; or give a directory)
    """

    def __init__(self, rules: str | Path | None = None):
        self.ruleset = rulesets.check_required(rulesets.resolve(rules, parse=rulecache.parsed, check=rulecache.checked))
        self.state = RulesState()                 # proofs, table, split games: made once, kept here
        self._ids = itertools.count(1)
        # pyDatalog, the reference, is built on first use (the REPL, --explain, queries, roles).
        self._init_logic(self._build_logic, lazy=True)
        self._batch: Evaluator | None = None
        self._workers: tuple[int, list[Evaluator]] | None = None    # (how many asked, them)
        self._reference: Evaluator | None = None
        self.fallback: str | None = None          # why the rules are not compiled, if they are not
        self._fast: "Tabled | bool | None" = None   # None: not decided yet (tabled)
        self._built = False
        # A table looked for in the cache and not found (or refused): its digest and its file then.
        self._missed: tuple[str, tuple[int, ...] | None] | None = None
        self._asked = 0                           # fights and showdowns asked: when to look for the table
        self._statics: dict[tuple[str, int], tuple] = {}
        self._games: dict[str, tuple[int, int]] = {}
        self._lows: dict[str, Engine] = {}
        try:
            self.local: LocalEvaluator | None = LocalEvaluator(self.ruleset.clauses)
        except Untranslatable as exc:
            self.local, self.fallback = None, str(exc)
        if self.local is not None:
            self.local.reference = self.reference      # where a compiled run fails (exact.py)
        values, suits = self.static(I.VALUE_SYMBOL, 3), self.static(I.SUIT_SYMBOL, 3)
        try:
            deck_bound(values, suits, f"rule set {self.name!r}")
            self.notation = Notation.from_tables(values, suits, self.static(I.CARD_ID, 3), self._whole_cards())
        except ValueError as exc:
            raise loader.RuleError(str(exc)) from None
        self.categories: dict[int, str] = dict(self.static(I.CATEGORY_NAME, 2))

    def _build_logic(self) -> None:
        """The rules in pyDatalog, and every input predicate made known to it (a fact asserted and
        retracted): pyDatalog fails a negated literal on a predicate it has never seen (a hand
        history where no one folded, ``~folded(T, P)``) but not on one it has seen without facts,
        so without this its answer would depend on the worlds asked before; now it is the
        compiled evaluator's: an input with no facts is an empty relation."""
        build(self.ruleset.clauses)
        for name, args in I.INPUTS.items():
            row = (0,) * len(args)
            assert_fact(name, row)
            retract_fact(name, row)

    @property
    def name(self) -> str:
        """The rule set's name (a directory's path when it was given one)."""
        return self.ruleset.name

    @property
    def deck(self) -> list[int]:
        """The rules' deck: every card id of cardId and of cardSymbol (a card of no value and
        suit, the joker), ascending (a hand's positions index it)."""
        return sorted({c for c, _, _ in self.static(I.CARD_ID, 3)} | {c for c, _, _ in self._whole_cards()})

    @property
    def hand_size(self) -> int:
        """How many cards a hand holds (the rules' handSize; 5 where they do not say)."""
        if not any(c.head == I.HAND_SIZE for c in self.ruleset.clauses):
            return 5
        sizes = {n for (n,) in self.static(I.HAND_SIZE, 1)}
        if len(sizes) != 1:
            raise loader.RuleError(f"rule set {self.name!r}: handSize gives {sorted(sizes)}, not one number of cards")
        return sizes.pop()

    def _whole_cards(self) -> list[tuple]:
        """cardSymbol's rows (card, symbol, order), when the rules write some card as one symbol."""
        if not any(c.head == I.CARD_SYMBOL for c in self.ruleset.clauses):
            return []
        return self.static(I.CARD_SYMBOL, 3)

    # ---- evaluators ------------------------------------------------------------------------

    @property
    def reference(self) -> Evaluator:
        """pyDatalog, asked world by world: the rules' own interpreter (the reference the
        compiled evaluators are held to)."""
        if self._reference is None:
            self._reference = ReferenceEvaluator(self, arities(self.ruleset.clauses))
        return self._reference

    def evaluator(self, worlds: "int | Sequence[Any]" = 1) -> Evaluator:
        """What answers a batch: the compiled program, in-process for a small one, on DuckDB for
        more; pyDatalog when the rules cannot be compiled (``fallback`` says why).

        Args:
            worlds: The batch's fights and worlds (small by the sets of cards they assert:
                ``engine.judging.policy.in_process``), or how many worlds it holds (small: up
                to ``SMALL_BATCH``).

        Returns:
            The evaluator to ask.
        """
        if self.local is None:
            return self.reference
        if worlds <= SMALL_BATCH if isinstance(worlds, int) else policy.in_process(worlds):
            return self.local
        if self._batch is None:
            self._batch = CompiledEvaluator(program=self.local.program)
            self._batch.reference = self.reference
        return self._batch

    def workers(self) -> list[Evaluator]:
        """Evaluators for large batches that run side by side, one a core (at most
        ``MAX_WORKERS``; ``$POKER_WORKERS`` sets how many): compiled, each its own DuckDB
        database of one thread, the same program, opened by the thread that first uses it.
        Worlds are independent, so a batch split between them gets the answers one database
        gives.  One evaluator where the rules are not compiled (pyDatalog is one per thread) or
        there is one core.

        Raises:
            ValueError: ``$POKER_WORKERS`` is not a number of workers (the message names it).
        """
        n = worker_count(MAX_WORKERS)
        if self._workers is None or self._workers[0] != n:
            if self.local is None or n <= 1:
                evaluators = [self.evaluator(SMALL_BATCH + 1)]
            else:
                evaluators = [CompiledEvaluator(program=self.local.program, threads=1, lazy=True)
                              for _ in range(n)]
                for evaluator in evaluators:
                    evaluator.reference = self.reference
            self._workers = (n, evaluators)
        return self._workers[1]

    def static(self, predicate: str, arity: int) -> list[tuple]:
        """Every answer of a predicate that needs no input facts (symbols, names, the deck):
        asked once (they cannot change), a fresh list each call."""
        found = self._statics.get((predicate, arity))
        if found is None:
            if self.local is not None and predicate in self.local.static:
                found = tuple(sorted(self.local.static[predicate], key=repr))
            else:
                ask = Ask(predicate, (None,) * arity)
                found = tuple(self.evaluator().answers([World(())], [ask])[0][ask])
            self._statics[(predicate, arity)] = found
        return list(found)

    def _answers(self, sets: Sequence[Cards], *asks: Ask) -> list[list[tuple]]:
        """The asked predicates' rows, with the given sets as sets 1..k (one world)."""
        world = World(tuple(tuple(self.cards(c)) for c in sets))
        answers = self.evaluator().answers([world], asks)[0]
        return [answers[a] for a in asks]

    def _value(self, predicate: str, sets: Sequence[Cards], *bound: Any, default: Any = None) -> Any:
        """The one value of a functional predicate (its last argument) for bound arguments."""
        rows, = self._answers(sets, Ask(predicate, (*bound, None)))
        return _single([r[-1:] for r in rows], f"{predicate}{bound} in rules {self.name}", default)

    def fights(self, fights: Sequence[Sequence[Cards]], matrix: bool = False) -> list[Verdict]:
        """The verdicts of many fights at once: the one way a fight is judged.

        Args:
            fights: Each fight's 2..10 hands (cards as text or lists).
            matrix: Also give the rules' beat for every ordered pair of hands (``Verdict.beats``).

        Returns:
            One Verdict a fight, in order: ``result`` (the spec's beat for two hands), ``winners``
            (0-based), ``ranks``, and ``error`` for a fight that is not valid.

        Raises:
            InvalidCards: A hand does not read as cards.
        """
        parsed = [[tuple(self.cards(h)) for h in hands] for hands in fights]
        return self._verdicts(parsed, matrix)

    def _verdicts(self, fights: Sequence[Any], matrix: bool = False, split: bool = True) -> list[Verdict]:
        """verdicts(), off the table when one is at hand and this engine has been asked enough;
        showdowns of a split game with their low half (``split``; a low half is asked without)."""
        self._asked += len(fights)
        fast = self.tabled() if self._asked >= policy.ENGINE_AFTER else None
        out = verdicts(self.evaluator(fights), fights, matrix, fast)
        return with_low(self, fights, out) if split else out

    def low_engine(self, name: str) -> "Engine":
        """The engine of the rule set that judges a split game's low half (splitLow), made once.

        Args:
            name: The low rule set's name (``"eight-or-better"``).
        """
        found = self._lows.get(name)
        if found is None:
            found = self._lows[name] = Engine(name)
        return found

    def qualifying_ranks(self) -> frozenset[int] | None:
        """The ranks of a low that takes the low half (qualifyingRank); None: every rank does."""
        if not any(c.head == I.QUALIFYING_RANK for c in self.ruleset.clauses):
            return None
        return frozenset(r for (r,) in self.static(I.QUALIFYING_RANK, 1))

    def tabled(self, build: bool = False, announce: Callable[[str], None] | None = None) -> "Tabled | None":
        """What reads fights and showdowns off the five-card table, for what the rules are proven
        to allow (``engine.judging.proof.fight_proof``, ``engine.judging.showdownproof.showdown_proof``, each made when
        its kind is first asked).  The table is used when it is at hand (memoised, or cached on
        disk and verified; one not found is looked for again when its cache file changes, as
        when another process caches it).  Engine.fights and showdowns turn to a table at hand
        by themselves after ``engine.judging.policy.ENGINE_AFTER`` questions; ``poker judge`` on
        a long batch.

        Args:
            build: Build the table when it is not at hand (seconds for 52 cards, then cached),
                unless the rules' clauses already rule both proofs out.
            announce: Told in a line, first, that the table is being built.

        Returns:
            The reader of the table, or None when there is no table.
        """
        if self._fast is False and self._missed is not None and _signature(self._missed[0]) != self._missed[1]:
            self._fast = self._missed = None      # cached since, by another process: read (and verified)
        if self._fast is None or (self._fast is False and build and not self._built):
            table = cached_table(self)
            if table is None and build and self.fallback is None and (
                    fight_obstacle(self.ruleset.clauses) is None or showdown_obstacle(self.ruleset.clauses) is None):
                self._built = True
                if announce is not None:
                    announce("building the rules' five-card table once (seconds where the rules are blind to "
                             "suits, else about half a minute; then cached)")
                try:
                    table = five_card_table(self)
                except TableError:
                    table = None
            if table is None:
                digest = table_digest(self)
                self._fast, self._missed = False, None if digest is None else (digest, _signature(digest))
            else:
                self._fast = Tabled(self, table)
        return self._fast or None

    def strength(self, hand: Cards, board: Cards | None = None, game: str = "holdem"
                 ) -> tuple[int, tuple[int, ...]]:
        """A hand's strength as one comparable value: the rules' rank, then its tie-break key
        (handKey, in keyPart order).  Fights are judged by the rules' beat, not by this value.

        Args:
            hand: Five cards, or more (then the strength of the five that play, `best_five`).
            board: A showdown's board: the strength of the five that play of hand and board.
            game: The showdown's game (``"holdem"``, ``"omaha"``, ...).

        Returns:
            ``(rank, key)``: -1 and an empty key for cards that are not a hand.

        Raises:
            InvalidCards: The cards do not read, or make no showdown of ``game``.

        >>> eng = Engine()
        >>> eng.strength("AH AD KC KS 2H")
        (3, (1, 13, 13, 1, 1, 0, 2))
        >>> eng.strength("AH AD KC KS 2H") > eng.strength("AH AD QC QS KH")
        True
        """
        cards = self.cards(hand)
        if board is not None or len(cards) > 5:
            cards = list(self.best_five(cards, board, game).cards)
        ranks, keys = self._answers([cards], Ask(I.GET_RANK, (1, None)), Ask(I.HAND_KEY, (1, None, None, None)))
        rank = _single([r[1:] for r in ranks], f"getRank in rules {self.name}", -1)
        return rank, tuple(v for _, _, _, v in sorted(keys))

    def __repr__(self) -> str:
        return f"Engine(rules={self.name!r})"

    # ---- plumbing --------------------------------------------------------------------------

    def ask(self, predicate: str, *args: Any) -> list[tuple]:
        """Ask pyDatalog a predicate of the rules, inside a `sets` block for the sets it names.

        Args:
            predicate: The predicate's name (``"getRank"``, ``"getRank__why"``).
            *args: Its arguments: values (set ids, numbers, strings) or `Var` for the unknowns.

        Returns:
            One tuple of the variables' values per answer, sorted; ``[()]`` for a yes without
            variables, ``[]`` for no (or a predicate the rules do not define).
        """
        with self._context():
            terms = [pyParser.Term(a.name) if isinstance(a, Var) else a for a in args]
            query = pyParser.Term(predicate)(*terms)
            try:
                data = query.ask()
            except AttributeError as exc:   # pyDatalog: "Predicate without definition"
                if "without definition" in str(exc):
                    return []
                raise
            if data is True:
                return [()]
            return sorted(data or [], key=repr)

    def ask_one(self, predicate: str, *args: Any, default: Any = None) -> Any:
        """The single value of a functional predicate (one `Var` among its arguments).

        Args:
            predicate: The predicate's name.
            *args: Its arguments, one of them a `Var`.
            default: What to return when it has no answer.

        Raises:
            RuntimeError: The rules give it several values.
        """
        return _single(self.ask(predicate, *args), f"{predicate}{args} in rules {self.name}", default)

    def holds(self, predicate: str, *args: Any) -> bool:
        """Whether a predicate of the rules has an answer for these arguments (`ask`, as a yes or no)."""
        return bool(self.ask(predicate, *args))

    def cards(self, cards: Cards) -> list[int]:
        """Read a hand or set of cards in the rules' notation.

        Args:
            cards: Text (``"AH KH"``, ``"Qs9s3dJd10h"``, ``"D3C3"``), or a list of tokens or ids.

        Returns:
            The card ids, in the order given.

        Raises:
            InvalidCards: A token is not a card of the rules' deck (the message names it).
        """
        return self.notation.parse(cards)

    @contextmanager
    def sets(self, *card_sets: Cards) -> Iterator[list[int]]:
        """Assert sets of cards as facts for the duration of a ``with`` block (for `ask`).

        Args:
            *card_sets: Each set's cards.

        Yields:
            The sets' ids, in order; the facts are retracted when the block ends.

        Raises:
            InvalidCards: A set does not read as cards.
        """
        parsed = [self.cards(c) for c in card_sets]
        with self._context():
            ids = [next(self._ids) for _ in parsed]
            facts = [("declared", (sid,)) for sid in ids] + \
                    [("holds", (sid, i, c)) for sid, cs in zip(ids, parsed) for i, c in enumerate(cs)]
            for name, args in facts:
                assert_fact(name, args)
            try:
                yield ids
            finally:
                for name, args in facts:
                    retract_fact(name, args)

    # ---- the spec's predicates (Card, Poker, Ranking, Fighting) ----------------------------

    def get_suit(self, card: int) -> int:
        """The spec's getSuit of a card id (1 hearts, 2 diamonds, 3 clubs, 4 spades).

        Returns:
            The suit; 0 for an id that is not a card (getSuit_Invalid speaks of held ids).
        """
        return self._value(I.GET_SUIT, [[card]], card, default=0)

    def get_value(self, card: int) -> int:
        """The spec's getValue of a card id: 1 (the ace) to 13 (the king); 0 for no card."""
        return self._value(I.GET_VALUE, [[card]], card, default=0)

    def _flag(self, predicate: str, cards: Cards) -> bool:
        rows, = self._answers([cards], Ask(predicate, (1,)))
        return bool(rows)

    def is_empty(self, cards: Cards) -> bool:
        """The spec's isEmpty: the set holds no card."""
        return self._flag("isEmpty", cards)

    def is_set_card(self, cards: Cards) -> bool:
        """The spec's isSetCard: the cards form a set (no card twice)."""
        return self._flag("isSetCard", cards)

    def is_pair(self, cards: Cards) -> bool:
        """The spec's isPair: some value is held twice (or more)."""
        return self._flag("isPair", cards)

    def is_three(self, cards: Cards) -> bool:
        """The spec's isThree: some value is held three times (or more)."""
        return self._flag("isThree", cards)

    def is_four(self, cards: Cards) -> bool:
        """The spec's isFour: some value is held four times."""
        return self._flag("isFour", cards)

    def is_a(self, cards: Cards) -> bool:
        """The spec's isA: the set holds an ace."""
        return self._flag("isA", cards)

    def is_k(self, cards: Cards) -> bool:
        """The spec's isK: the set holds a king."""
        return self._flag("isK", cards)

    def is_hand(self, cards: Cards) -> bool:
        """The spec's isHand: the cards are a hand (five different cards of the deck)."""
        return self._flag(I.IS_HAND, cards)

    def is_flush(self, cards: Cards) -> bool:
        """The spec's isFlush: a hand of one suit."""
        return self._flag("isFlush", cards)

    def is_straight(self, cards: Cards) -> bool:
        """The spec's isStraight: a hand of five values in a row (the rules say which rows)."""
        return self._flag("isStraight", cards)

    def get_max(self, cards: Cards) -> int:
        """The spec's getMax: the highest value of the cards (the ace as 1); 0 for no cards."""
        return self._value("getMax", [cards], 1, default=0)

    def get_max_card(self, cards: Cards) -> list[int]:
        """The spec's getMaxCard: every card of the highest value (the report leaves the choice
        among them open), as ids."""
        rows, = self._answers([cards], Ask("getMaxCard", (1, None)))
        return sorted(r[1] for r in rows)

    def compare_set_card(self, a: Cards, b: Cards) -> int:
        """The spec's compareSetCard of two sets: 1 a is higher, 2 b is, 0 fair; -1 no answer."""
        return self._value("compareSetCard", [a, b], 1, 2, default=-1)

    def get_rank(self, hand: Cards) -> int:
        """The spec's getRank of a hand.

        Returns:
            1 (high card) to 10 (royal flush) in the standard rules; -1 when it is not a hand.

        Raises:
            InvalidCards: The cards do not read.
        """
        return self._value(I.GET_RANK, [hand], 1, default=-1)

    def valid_fighting(self, a: Cards, b: Cards) -> bool:
        """The spec's validFighting: two hands with no card in common."""
        rows, = self._answers([a, b], Ask("validFighting", (1, 2)))
        return bool(rows)

    def beat_rank(self, a: Cards, b: Cards) -> int:
        """The spec's beatRank: 1 a's rank is higher, 2 b's, 0 equal; -1 not a valid fight."""
        return self._value("beatRank", [a, b], 1, 2, default=-1)

    def beat(self, a: Cards, b: Cards) -> int:
        """The spec's beat of two hands.

        Returns:
            1 a wins, 2 b wins, 0 fair, -1 not a valid fight (a card twice, or not two hands).

        Raises:
            InvalidCards: A hand does not read as cards.
        """
        if self._asked >= policy.ENGINE_AFTER:           # warm: two lookups, where the fights proof holds
            fast = self.tabled()
            if fast is not None:
                quick = self.notation.quick
                found = fast.beat(quick(a), quick(b))
                if found is not None:
                    self._asked += 1
                    return found
        return self.fights([[a, b]])[0].result

    # ---- convenience -----------------------------------------------------------------------

    def load_pydatalog(self) -> None:
        """Load the rules into pyDatalog now: done by the first query otherwise (0.7 s for the
        standard rules), whose time budget it would then count (the REPL loads them first,
        under a budget of their own)."""
        with self._context():
            pass

    def query(self, text: str, /, **hands: Cards) -> list[dict[str, Any]]:
        """Answers of a Datalog query over named hands: one dict of the variables' values each.

        The query is a rule body (literals, ``~`` negation, comparisons, joined by ``&``) checked
        against the rule files' whitelist, never eval'd (``engine.evaluators.pydatalog.query``).

        Args:
            text: The query (``"getRank(a, R)"``); lower-case names in argument positions are hands.
            **hands: The hands it names, as keywords (``a="AH KH QH JH TH"``).

        Returns:
            One dict of the variables' values per answer; ``[{}]`` (yes) or ``[]`` (no) for a
            query without variables.

        Raises:
            QueryError: The query is refused (the message says why) or names a hand not given.
            InvalidCards: A hand cannot be read.

        >>> eng = Engine()
        >>> eng.query("getRank(a, R)", a="AH KH QH JH TH")
        [{'R': 10}]
        >>> eng.query("beat(a, b, R) & getRank__why(b, K, L)", a="AH AD 3C 4C 5C", b="2H 2D 2C 9S 9H")
        [{'R': 2, 'K': 7, 'L': 'getRank_FullHouse'}]
        >>> eng.query("member(a, C) & getValue(C, V) & (V > 11)", a="AH KH QH JH TH")
        [{'C': 12, 'V': 12}, {'C': 13, 'V': 13}]
        >>> eng.query("isPair(a)", a="AH KH QH JH TH")
        []
        """
        compiled = compile_query(text)
        missing = [name for name in compiled.hands if name not in hands]
        if missing:
            raise QueryError(f"no hand named {missing[0]!r} (pass {missing[0]}=CARDS)")
        with self.sets(*(hands[name] for name in compiled.hands)) as ids, self._context():
            return compiled.ask(dict(zip(compiled.hands, ids)))

    def role(self, text: Cards, problem: str = "first") -> str:
        """The Doukaku role code of five cards (``engine.judging.roles``).

        Args:
            text: Five cards, rank first or suit first (``"Qs9s3dJd10h"``, ``"D3C3C10D10S3"``).
            problem: ``"first"`` (4K FH 3K 2P 1P), ``"rest"`` (RF SF FL ST 4SF 4F 4S) or ``"all"``.

        Returns:
            The code (``"FH"``; ``"--"`` or ``"-"`` for none).
        """
        return role(self, text, problem)

    def category(self, hand: Cards) -> str:
        """The name of a hand's rank (categoryName).

        Raises:
            InvalidCards: It is not a hand (the message says why, from whyNotHand).
        """
        rank = self.get_rank(hand)
        if rank not in self.categories:
            raise InvalidCards(f"{show(hand)} is not a hand: {self.why_not_hand(hand)}")
        return self.categories[rank]

    def why_not_hand(self, hand: Cards) -> str:
        """Why the rules find cards no hand (whyNotHand, each reason once, joined by ``; ``)."""
        rows, = self._answers([hand], Ask(I.WHY_NOT_HAND, (1, None)))
        return "; ".join(sorted(r[1] for r in rows)) or "the rules give it no rank"

    def winners(self, hands: Sequence[Cards], board: Cards | None = None, game: str = "holdem") -> list[int]:
        """The best of 2..10 hands (several on a tie): beat_Bonus made N-hand.

        Args:
            hands: The hands; with a ``board``, each player's own cards.
            board: A showdown's board.
            game: The showdown's game (``"holdem"``, ``"omaha"``, ...).

        Returns:
            The 0-based indices of the winners.

        Raises:
            InvalidCards: Not 2 to 10 hands, a card given twice, or cards that do not read.

        >>> Engine().winners(["AS AD", "JH TH"], board="AH KH QH 2C 3D")
        [1]
        """
        if isinstance(hands, str) or not 2 <= len(hands) <= 10:
            raise InvalidCards("a fight takes 2 to 10 hands")
        verdict = self.fights([hands])[0] if board is None else self.showdown(hands, board, game)
        if verdict.error:
            raise InvalidCards(verdict.error)
        return list(verdict.winners)

    # ---- more than five cards (rules/showdown.dl) ------------------------------------------

    @property
    def games(self) -> dict[str, int]:
        """The games the rules know (gameName): ``{"holdem": 1, ...}``, name to code."""
        return {name: code for code, name in self.static(I.GAME_NAME, 2)}

    @property
    def boardless(self) -> frozenset[int]:
        """The games (codes) the rules deal without a board (noBoard: the stud games)."""
        if not any(c.head == I.NO_BOARD for c in self.ruleset.clauses):
            return frozenset()
        return frozenset(g for (g,) in self.static(I.NO_BOARD, 1))

    def deal(self, hands: Sequence[Cards], board: Cards | None = None, game: str = "holdem") -> World:
        """A showdown as the rules see it: the players' own cards, the board, the game's code.

        Without a board, each hand holds all its cards: the first two (four in Omaha) are its own
        and the rest its board, which is every five of them in hold'em; a stud game (noBoard) has
        none, each player's seven cards are his own.

        Raises:
            InvalidCards: The cards do not read, the game is unknown, or the cards are too many
                or too few for it.
        """
        code, own = self._game(game)
        players = [tuple(self.cards(h)) for h in hands]
        cards = tuple(self.cards(board)) if board is not None else None
        if cards is None and code in self.boardless:           # stud: each player's own cards alone
            cards = ()
        if cards is None:
            if len(players) != 1:
                raise InvalidCards("a showdown of several players needs a board")
            sizes = sorted(n for (n,) in self.static(I.BOARD_CARDS, 1))
            if sizes and not own + sizes[0] <= len(players[0]) <= own + sizes[-1]:
                raise InvalidCards(f"{len(players[0])} cards: {game} plays the best five of "
                                   f"{own + sizes[0]} to {own + sizes[-1]} cards")
            players, cards = [players[0][:own]], players[0][own:]
        return self._seat(players, cards, code)

    def _seat(self, players: Sequence[tuple[int, ...]], board: tuple[int, ...], code: int) -> World:
        """A showdown of card ids already read (`deal` reads them), the game by its code."""
        for i, p in enumerate(players, 1):
            if len(p) + len(board) > MAX_SHOWDOWN_CARDS:
                raise InvalidCards(f"player {i}: {len(p)} cards and a board of {len(board)}: "
                                   f"at most {MAX_SHOWDOWN_CARDS} in all")
        return World(tuple(players), board=board, game=code)

    def _game(self, game: str) -> tuple[int, int]:
        """A game's code and its players' number of own cards (InvalidCards naming it if unknown)."""
        found = self._games.get(game)
        if found is None:
            games = self.games
            if not games:
                raise InvalidCards(f"the rule set {self.name!r} has no showdown rules (gameName, showdown.dl)")
            if game not in games:
                raise InvalidCards(f"unknown game {game!r} (the rules know {', '.join(sorted(games))})")
            if self.hand_size != 5:           # showdown.dl plays the best five: these rules rank no five
                raise InvalidCards(f"the rule set {self.name!r} holds hands of {self.hand_size} cards: "
                                   f"a showdown of {game} plays the best five, which it does not rank")
            found = self._games[game] = (games[game], dict(self.static(I.HOLE_CARDS, 2)).get(games[game], 2))
        return found

    def showdown(self, hands: Sequence[Cards], board: Cards | None = None, game: str = "holdem") -> Verdict:
        """The rules' verdict of a showdown.

        Args:
            hands: Each player's own cards.
            board: The board (None: the one hand holds all its cards, `deal`).
            game: ``"holdem"``, ``"omaha"``, or a split game (``"holdem-hilo"``).

        Returns:
            A Verdict: ``winners``, each player's five that play (``best``) and their ``ranks``;
            for a split game the low half too (``low``, ``shares``).

        Raises:
            InvalidCards: The cards do not read, or make no showdown of ``game``.
        """
        return self._verdicts([self.deal(hands, board, game)])[0]

    def best_five(self, cards: Cards, board: Cards | None = None, game: str = "holdem") -> BestFive:
        """The five that play of a player's cards and the board (the rules' ``plays``).

        Raises:
            InvalidCards: The cards do not read, or make no hand of ``game``.

        >>> eng = Engine()
        >>> eng.best_five("AH AD", board="AC KS KD 7H 2C")
        BestFive(text='AH AD AC KS KD', rank=7, category='full house')
        >>> eng.best_five("AH 5D 9C 9S", board="2H 3H 4H KS KD", game="omaha")
        BestFive(text='AH 5D 2H 3H 4H', rank=5, category='straight')
        """
        verdict = self.showdown([cards], board, game)
        if verdict.error:
            raise InvalidCards(verdict.error.replace("player 1: ", ""))
        five, rank = verdict.best[0], verdict.ranks[0]
        return BestFive(self.notation.format(five), rank, self.categories.get(rank, f"rank {rank}"), five)


def _single(rows: list[tuple], what: str, default: Any) -> Any:
    """The one value of a functional predicate's answers (a row of one value, or the whole row)."""
    values = {r[0] if len(r) == 1 else r for r in rows}
    if len(values) > 1:
        raise RuntimeError(f"the rules give {what} several values: {sorted(values)}")
    return values.pop() if values else default


def _signature(digest: str) -> tuple[int, ...] | None:
    """The cache file of a table, as its inode, size and time of change (None: there is none):
    a table not found is looked for again when this changes, as when another process caches it."""
    try:
        st = cache_path(digest).stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)
