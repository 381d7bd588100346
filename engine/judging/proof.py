"""The proof that the loaded rules order hands by their five-card table: or why they do not.

The five-card table (:mod:`engine.judging.table`) holds every hand's strength: its getRank and its
handKey, ranked.  Equity, ``poker diff`` and ``check --cards 7`` read answers off it, so they need
the rules' own comparator, ``compareHands(A, B, R)`` (fighting.dl), to be the order of the table's
values: R = 1 when A's value is higher, 2 when lower, 0 when equal.  That is proven here, from the
loaded clauses, in two steps, or the paths that need it refuse in one line (never an answer
read off an unproven table):

1. **The comparator reads a hand only through the table** (syntax).  Every predicate that
   compareHands reaches before getRank and handKey (its *cone*) reads no input fact and no other
   predicate of the world; set ids are only passed on, at argument places that hold sets, never
   compared, computed or taken from outside the clause's head (so only hands A and B are read);
   and the values of handKey (its 4th argument) are only compared with each other, A's with B's
   at the same place (the same order and index variables), never with a constant, never
   computed, never passed on.  So compareHands(A, B, R) is a function of both hands' ranks and
   key places, and, for each place both keys have, of whether A's value there is below, equal to
   or above B's: their *pattern*.

2. **Every pattern gets the table's answer** (evaluation).  The table build records where each
   rank's key values are (``FiveTable.places``: the same places for every hand of a rank, else no
   proof).  For every ordered pair of ranks in the table and every pattern of their common
   places (3 ** common places: about 100,000 for the standard rules), two abstract hands are made
   whose only facts are a rank and key values realising the pattern (0, 1, 2), and the cone's
   clauses, with getRank and handKey as their input facts, are asked compareHands about them,
   all in one run of the compiled program.  The table orders by rank, then by the key's values
   in order of place: the first place where the pattern is not "equal" decides.  Each answer must
   be exactly that one row.

Together: for any two hands, compareHands is what the table's order says.  The proof is
memoised per table.  It costs a few seconds; it is what lets a table stand for the rules.
"""

from __future__ import annotations

import ast
import functools
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from engine import interface as I
from engine.datalog.graph import reach
from engine.datalog.ir import Atom, Compare, Const, Op, Untranslatable, Var, variables
from engine.datalog.loader import Clause, RuleError
from engine.datalog.program import Program
from engine.datalog.reader import read
from engine.evaluators import Ask, World
from engine.evaluators.local import LocalEvaluator
from engine.evaluators.sql.duckdb import Database, Disagreement, Worlds
from engine.interface import EngineView
from engine.judging.fivetable import FiveTable
from engine.limits import raise_if_stopped

TABLED = {I.GET_RANK: 0, I.HAND_KEY: 0}      # what the table holds: predicate -> its set argument
FIGHT_TABLED = {**TABLED, I.IS_HAND: 0}       # ... and what a fight reads of it (isHand: every hand)
READ = {I.DECLARED: 0, I.HOLDS: 0}           # the input facts a hand's predicates read (set place)
POSITION, CARD = 1, 2                         # holds(S, Position, Card)
VALUE = 3                                     # handKey(S, Order, Index, Value)
MAX_PATTERNS = 2_000_000                      # more abstract pairs than this: no proof (too costly)


@dataclass(frozen=True)
class Proof:
    """Whether the loaded rules' compareHands is the order of the table's values, and why (not)."""
    holds: bool
    why: str
    patterns: int = 0

    def require(self, what: str) -> None:
        """Raise Unproven (one line) unless the proof holds: ``what`` needs the table's order."""
        if not self.holds:
            raise Unproven(f"{what} reads hands off the five-card table, and these rules are not "
                           f"proven to order hands by it: {self.why}")


class Unproven(RuleError):
    """A path that needs the table's order, for rules not proven to follow it (one line)."""


_memo_lock = threading.RLock()          # a proof may ask another (showdown_proof, order_proof)


def order_proof(engine: EngineView, table: "FiveTable") -> Proof:
    """The proof for this engine's rules and its table (memoised per engine and table digest)."""
    return _memoised(engine, ("order", table.rules_digest),
                     lambda: prove(engine.ruleset.clauses, table.places, engine.local))


def fight_proof(engine: EngineView, table: "FiveTable", asked: str = I.BEAT) -> Proof:
    """Whether a fight of two hands of the deck that share no card gets, from the rules' beat,
    the table's order of their values (see :func:`prove_fights`); memoised like order_proof."""
    return _memoised(engine, ("fight", asked, table.rules_digest),
                     lambda: prove_fights(engine.ruleset.clauses, table.places, table.all_hands, asked))


def made(engine: EngineView) -> dict[tuple, Proof]:
    """The proofs made so far for this engine's rules (by kind and table digest), as values."""
    with _memo_lock:
        return dict(engine.state.proofs)


def adopt(engine: EngineView, proofs: dict[tuple, Proof]) -> None:
    """Take proofs made before for the same rules (read back from the cache: engine.judging.proofcache),
    keyed by the table's digest, which names the rules and deck they are of; a proof made here
    already is kept."""
    with _memo_lock:
        mine = engine.state.proofs
        for key, found in proofs.items():
            mine.setdefault(key, found)


def _memoised(engine: EngineView, key: tuple, make: Any) -> Proof:
    with _memo_lock:
        found = engine.state.proofs.get(key)
        if found is None:
            found = engine.state.proofs[key] = make()
        return found


# ---- 1. syntax -----------------------------------------------------------------------------


class _Fails(Exception):
    pass


Places = tuple[tuple[Any, tuple[tuple[Any, Any], ...]], ...]


def prove(clauses: Iterable[Any], places: Places | None, local: Any = None) -> Proof:
    """Both steps, from the clauses and where each rank's key values are (``FiveTable.places``:
    None when a rank has them at several places; see the module's docstring).  ``local``: the
    clauses' in-process evaluator, when the caller has one (not made again)."""
    clauses = list(clauses)
    try:
        rules = _rules(clauses, local)
        _check_local(rules, TABLED)
        cone, static = _cone(rules, I.COMPARE_HANDS, TABLED, {})
        _check_sets(cone, rules, {**{t: {0} for t in TABLED}, I.COMPARE_HANDS: {0, 1}})
        _check_values(cone, rules)
        return _evaluate(rules, cone, static, _places_or_fail(places))
    except _Fails as exc:
        return Proof(False, str(exc))
    except Untranslatable as exc:
        return Proof(False, f"the comparator cannot be compiled ({exc})")


def prove_fights(clauses: Iterable[Any], places: Places | None, all_hands: bool, asked: str = I.BEAT) -> Proof:
    """Whether the rules' ``beat(A, B, R)``, in a world of two hands that are five different cards
    of the deck each and share no card, is the table's order (R = 1, 2, 0) of their values (with
    ``asked`` beatRank: the order of their ranks).

    Three steps, like :func:`prove`'s.  (1) getRank, handKey and isHand are *local*: what they say
    of a set depends on its own cards only, in any order (so a fight's hands get the table's
    answers).  (2) beat reads a hand only through them and its cards, and the cards only as
    tokens: joined, ``==`` and ``!=`` compared, counted, never computed or compared with anything
    else (so any two disjoint hands are the image of two hands of fresh cards).  (3) For every
    pattern of two ranks' keys, two hands of fresh disjoint cards with those abstract values, each
    a hand (isHand holds of every hand of the deck: ``all_hands``), get beat's table order.
    """
    clauses = list(clauses)
    try:
        rules, cone, static = _fight_cone(clauses, asked)
        if not all_hands:
            raise _Fails("isHand does not hold of every five cards of the deck")
        return _evaluate(rules, cone, static, _places_or_fail(places), fights=True, asked=asked)
    except _Fails as exc:
        return Proof(False, str(exc))
    except Untranslatable as exc:
        return Proof(False, f"{asked} cannot be compiled ({exc})")


def _closure(rules: dict[str, list[Any]], roots: set[str]) -> set[str]:
    """The world predicates that the roots reach (the roots included)."""
    is_world = _world(rules)
    out = reach(roots, lambda name: [a.pred for r in rules.get(name, []) for a in _atoms(r)],
                lambda name: name not in I.INPUTS and is_world(name))
    missing = roots - out - set(rules)
    if missing:
        raise _Fails(f"the rules define no {', '.join(sorted(missing))}")
    return out


@dataclass(frozen=True)
class Symmetry:
    """The deck as values x suits (positions in the deck's order: ``values[p]``, ``suits[p]``,
    each numbered from 0), when the rules are proven blind to which suit is which.  The ``free``
    suits are those renamed; a card of no suit and no value (the joker) stands in a suit of its
    own, after them, that no renaming moves."""
    values: tuple[int, ...]
    suits: tuple[int, ...]
    free: tuple[int, ...]

    @property
    def fixed(self) -> bool:
        """Whether some card is in no free suit (a renaming must leave it where it is)."""
        return len(self.free) < len(set(self.suits))


def suit_symmetry(clauses: Iterable[Any]) -> Symmetry | str:
    """The deck's values and suits when getRank, handKey and isHand give every hand what they give
    it with its suits renamed (any permutation of the suits), else why not.

    Proven from the clauses: the deck is every pair of a value and a suit (getValue and getSuit,
    static once the clauses no card of the deck can fire are set aside, one of each a card), but
    for cards with neither (a joker), which every renaming leaves in place; the three are local
    (:func:`_check_local`); in their cone a card is read only as a token (:func:`_check_generic`),
    through getValue and getSuit, or through a static relation of facts that every renaming of the
    suits maps onto itself (:func:`_invariant_readers`: isJoker(53)), and a suit only as a token.
    A renaming of the suits then maps the cards one to one, keeps every card's value, and renames
    every suit read, so no answer of the cone changes but at card and suit places, and the three
    have none (checked).  The table build asks the rules about one hand of each class of hands
    under renamings, about 134,000 of the 2,598,960 (engine/judging/table.py)."""
    clauses = list(clauses)
    try:
        rules = _rules(clauses)
        is_world = _world(rules)
        for name in (I.GET_VALUE, I.GET_SUIT):
            if is_world(name):
                return f"{name} reads the input facts"
        local = LocalEvaluator(clauses)
        deck = sorted(_deck(local))
        views = {name: local.static_view(name, [(c,) for c in deck]) for name in (I.GET_VALUE, I.GET_SUIT)}

        def found(name: str, card: Any) -> set[Any]:      # asked card by card, in the deck's order
            rows = local.static[name] if name in local.static else next(views[name])
            return {r[1] for r in rows if r[0] == card}
        pairs: dict[Any, tuple[Any, Any]] = {}
        suitless: list[Any] = []
        for card in deck:
            value, suit = found(I.GET_VALUE, card), found(I.GET_SUIT, card)
            if not value and not suit:
                suitless.append(card)
                continue
            for name, got in ((I.GET_VALUE, value), (I.GET_SUIT, suit)):
                if len(got) != 1:
                    raise _Fails(f"{name} gives the card {card} {len(got)} values")
            pairs[card] = (value.pop(), suit.pop())
        values, suits = sorted({v for v, _ in pairs.values()}, key=repr), sorted({u for _, u in pairs.values()}, key=repr)
        if len(set(pairs.values())) != len(pairs) or len(pairs) != len(values) * len(suits) or not pairs:
            return "the deck is not every value in every suit"
        _check_local(rules, FIGHT_TABLED)
        cone = _closure(rules, set(FIGHT_TABLED) & set(rules))
        readers = _invariant_readers(cone, rules, local, pairs, suits)
        cards = _check_generic("card", cone, rules, {I.HOLDS: {CARD}},
                               {I.GET_VALUE: {0}, I.GET_SUIT: {0}, **readers})
        _check_suits_of_held_cards(cone, rules, cards)
        suit_places = _check_generic("suit", cone, rules, {I.GET_SUIT: {1}})
        for t in FIGHT_TABLED:
            if cards.get(t) or suit_places.get(t):
                return f"{t} gives a card or a suit"
        k = len(suits)
        at = {c: (values.index(v), suits.index(u)) for c, (v, u) in pairs.items()}
        at.update({c: (i, k) for i, c in enumerate(suitless)})
        return Symmetry(tuple(at[c][0] for c in deck), tuple(at[c][1] for c in deck), tuple(range(k)))
    except _Fails as exc:
        return str(exc)
    except Untranslatable as exc:
        return f"the rules cannot be compiled ({exc})"


def _check_suits_of_held_cards(cone: set[str], rules: dict[str, list[Any]], cards: dict[str, set[int]]) -> None:
    """Every suit the cone reads is a held card's: getSuit is given a card of the hand (a variable
    at a card place), never a constant or another value, which would name one suit (getSuit(1, U):
    hearts) that a renaming does not move."""
    for name in sorted(cone):
        for rule in rules[name]:
            kind = _bound_at(rule, cards)
            for a in _atoms(rule):
                if a.pred == I.GET_SUIT and not (a.args and isinstance(a.args[0], Var) and a.args[0].name in kind):
                    raise _Fails(f"{_where(rule)}: getSuit is given a card that is not one of the hand's, "
                                 "so it names a suit")


def _invariant_readers(cone: set[str], rules: dict[str, list[Any]], local: Any,
                       pairs: dict[Any, tuple[Any, Any]], suits: list[Any]) -> dict[str, set[int]]:
    """The static relations the cone hands cards to (not getValue, getSuit), with the places it
    hands them at, that every renaming of the suits maps onto themselves: a relation of facts
    (known whole) that, at each literal's card places, a swap of two suits and a rotation of all
    (which make every renaming) leave as it is.  A literal of such a relation, negated or not,
    answers alike of a hand and of its renamed image.  Anything else is left to _check_generic,
    which refuses it (and names the literal)."""
    cards = _propagate(cone, rules, {I.HOLDS: {CARD}})
    at = {(v, u): c for c, (v, u) in pairs.items()}
    renamings = [{suits[0]: suits[1], suits[1]: suits[0]} if len(suits) > 1 else {},
                 {u: suits[(i + 1) % len(suits)] for i, u in enumerate(suits)}]
    maps = [{c: at[(v, r.get(u, u))] for c, (v, u) in pairs.items()} for r in renamings]
    out: dict[str, set[int]] = {}
    refused: set[str] = set()
    for name in sorted(cone):
        for rule in rules[name]:
            kind = _bound_at(rule, cards)
            for a in _atoms(rule):
                if a.pred in cone or a.pred in I.INPUTS or a.pred in (I.GET_VALUE, I.GET_SUIT):
                    continue
                places = {i for i, t in enumerate(a.args) if isinstance(t, Var) and t.name in kind}
                facts = local.static.get(a.pred)
                if not places or facts is None:
                    continue
                if all({tuple(m.get(x, x) if i in places else x for i, x in enumerate(row)) for row in facts} == facts
                       for m in maps):
                    out.setdefault(a.pred, set()).update(places)
                else:
                    refused.add(a.pred)
    return {name: places for name, places in out.items() if name not in refused}


def fight_obstacle(clauses: Iterable[Any]) -> str | None:
    """Why :func:`prove_fights` must fail whatever the table (steps 1 and 2), else None: asked
    before a table is built only for fights."""
    return _obstacle(lambda: _fight_cone(list(clauses)), "beat")


def _obstacle(check: Any, what: str) -> str | None:
    try:
        check()
        return None
    except _Fails as exc:
        return str(exc)
    except Untranslatable as exc:
        return f"{what} cannot be compiled ({exc})"


def _fight_cone(clauses: list[Any], asked: str = I.BEAT) -> tuple[dict[str, list[Any]], set[str], set[str]]:
    """prove_fights' steps 1 and 2: the rules, the cone of beat (or ``asked``) and the static
    predicates it reads."""
    rules = _rules(clauses)
    _check_local(rules, FIGHT_TABLED)
    cone, static = _cone(rules, asked, FIGHT_TABLED, READ)
    _check_sets(cone, rules, {**{t: {0} for t in FIGHT_TABLED}, **{r: {p} for r, p in READ.items()},
                              asked: {0, 1}})
    _check_generic("card", cone, rules, {I.HOLDS: {CARD}})
    _check_generic("card position", cone, rules, {I.HOLDS: {POSITION}})
    _check_values(cone, rules)
    return rules, cone, static


def _places_or_fail(places: Places | None) -> dict[Any, tuple]:
    if places is None:
        raise _Fails("two hands of one rank have their key values at different places "
                     "(or one place twice), so a key cannot be read place by place")
    return dict(places)


def _rules(clauses: list[Any], local: Any = None) -> dict[str, list[Any]]:
    """The clauses read, by predicate, without those that cannot fire in a world whose cards are
    all of the deck (:func:`_dead`).  Read once per rule set: every proof and obstacle of an
    engine reads the same clauses (callers never change what they get).  ``local``: their
    in-process evaluator, if the caller has one (an engine's), else one is made."""
    return _read_rules(tuple(clauses), local)


@functools.lru_cache(maxsize=8)
def _read_rules(clauses: tuple[Any, ...], local: Any = None) -> dict[str, list[Any]]:
    local = local if local is not None else LocalEvaluator(clauses)
    deck = _deck(local)
    every: dict[str, list[Any]] = {}
    for clause in clauses:
        rule = read(clause)
        every.setdefault(rule.pred, []).append(rule)
    places = _held(every)
    return {name: kept for name, rules in every.items()
            if (kept := [r for r in rules if not _dead(r, local, deck, places)])}


def _deck(local: Any) -> set[Any]:
    """The card ids of cardId and cardSymbol (the deck, as Engine.deck): static facts, or (a deck
    that reads isCard, as short-deck's does) asked of the compiled rules in a world of no sets."""
    out: set[Any] = set()
    for name in (I.CARD_ID, I.CARD_SYMBOL):
        if name in local.static:
            out |= {r[0] for r in local.static[name]}
        elif name in local.program.preds:
            ask = Ask(name, (None, None, None))
            out |= {r[0] for r in local.answers([World(())], [ask])[0][ask]}
    return out


def _held(rules: dict[str, list[Any]]) -> dict[str, set[int]]:
    """The argument places that only ever hold a card some set holds: holds' card, and a place
    where every clause of its predicate puts a variable read at such a place (member's card)."""
    held: dict[str, set[int]] = {I.HOLDS: {CARD}}
    changed = True
    while changed:
        changed = False
        for name, rs in rules.items():
            if name in I.INPUTS or any(r.aggregate for r in rs):
                continue
            for i in range(len(rs[0].head)):
                if i in held.get(name, ()):
                    continue
                if all(isinstance(r.head[i], Var) and r.head[i].name in _held_vars(r, held) for r in rs):
                    held.setdefault(name, set()).add(i)
                    changed = True
    return held


def _held_vars(rule: Any, held: dict[str, set[int]]) -> set[str]:
    return {a.args[j].name for a in _atoms(rule) if not a.negated for j in held.get(a.pred, ())
            if j < len(a.args) and isinstance(a.args[j], Var)}


def _dead(rule: Any, local: Any, deck: set[Any], held_places: dict[str, set[int]]) -> bool:
    """A clause that needs a card held by some set to fail a static test that every card of the
    deck passes (``getValue(C, 0) <= holds(S, I, C) & ~isCard(C)``, ``foreign(S) <= member(S, C)
    & ~isCard(C)``): it never fires where every card held is of the deck, as in the table's
    worlds and the fights and showdowns read off it."""
    held = _held_vars(rule, held_places)
    for a in _atoms(rule):
        if not (deck and a.negated and len(a.args) == 1 and isinstance(a.args[0], Var) and a.args[0].name in held):
            continue
        pred = local.program.preds.get(a.pred)
        if pred is None or pred.world:
            continue
        if a.pred in local.static:
            if all((c,) in local.static[a.pred] for c in deck):
                return True
        elif pred.inputs == frozenset({0}):             # a test of a bound card (isCard)
            if all(local.static_view(a.pred, [(c,) for c in deck])):
                return True
    return False


def _atoms(rule: Any) -> list[Any]:
    return [s for s in rule.body if isinstance(s, Atom)]


def _world(rules: dict[str, list[Any]]) -> Any:
    """is_world(name): whether a predicate depends on the input facts."""
    world: dict[str, bool] = {}

    def is_world(name: str, path: tuple = ()) -> bool:
        if name in I.INPUTS:
            return True
        if name not in world:
            if name in path:
                return True                    # recursion: not compiled anyway
            world[name] = any(is_world(a.pred, path + (name,)) for r in rules.get(name, []) for a in _atoms(r))
        return world[name]
    return is_world


def _cone(rules: dict[str, list[Any]], root: str, stop: dict[str, int], read: dict[str, int]
          ) -> tuple[set[str], set[str]]:
    """The root's cone (the world predicates it reaches before those in ``stop``) and the static
    predicates the cone reads; _Fails naming the first clause that reads an input fact not in
    ``read``."""
    if root not in rules:
        raise _Fails(f"the rules define no {root}")
    is_world = _world(rules)
    cone: set[str] = set()
    static: set[str] = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name in cone or name in stop or name in I.INPUTS:
            continue
        cone.add(name)
        for rule in rules.get(name, []):
            for atom in _atoms(rule):
                if atom.pred in I.INPUTS and atom.pred not in read:
                    raise _Fails(f"{_where(rule)}: {name} reads the input fact {atom.pred}, which the table does not hold")
                if atom.pred in stop or atom.pred in I.INPUTS:
                    continue
                if is_world(atom.pred):
                    todo.append(atom.pred)
                else:
                    static |= _static_closure(atom.pred, rules)
    return cone, static


def _check_local(rules: dict[str, list[Any]], tabled: dict[str, int]) -> None:
    """Each tabled predicate says of a set what its own cards make it say, in any order: its cone
    reads only declared and holds, of the head's sets only (so the table's one-hand worlds and a
    fight's world agree), and positions only as tokens (the table gives the cards in ascending
    order, a fight as written)."""
    is_world = _world(rules)
    cone: set[str] = set()
    todo = [t for t in tabled if t in rules]
    while todo:
        name = todo.pop()
        if name in cone or name in I.INPUTS or not is_world(name):
            continue
        cone.add(name)
        for rule in rules[name]:
            for atom in _atoms(rule):
                if atom.pred in I.INPUTS and atom.pred not in READ:
                    raise _Fails(f"{_where(rule)}: {name} reads the input fact {atom.pred}: what it says "
                                 "of a hand is not the hand's own")
                todo.append(atom.pred)
    _check_sets(cone, rules, {**{t: {0} for t in tabled}, **{r: {p} for r, p in READ.items()}})
    positions = _check_generic("card position", cone, rules, {I.HOLDS: {POSITION}})
    for t in tabled:
        if positions.get(t):
            raise _Fails(f"{t} gives a card's position: it depends on the order the cards are given in")


def _static_closure(name: str, rules: dict[str, list[Any]]) -> set[str]:
    return reach([name], lambda n: [a.pred for r in rules.get(n, []) for a in _atoms(r)])


def _where(rule: Any) -> str:
    return f"{rule.clause.label} ({rule.clause.where})"


def _var_names(term: Any) -> set[str]:
    return variables(term)


def _bound_at(rule: Any, places: dict[str, set[int]]) -> set[str]:
    """The variables a clause's positive literals bind at these places (a kind's places)."""
    return {a.args[i].name for a in _atoms(rule) if not a.negated for i in places.get(a.pred, ())
            if i < len(a.args) and isinstance(a.args[i], Var)}


def _propagate(cone: set[str], rules: dict[str, list[Any]], seeds: dict[str, set[int]]) -> dict[str, set[int]]:
    """The argument places that hold a kind of value (sets, cards, positions): the seeds, and a
    cone predicate's head place wherever a clause puts there a variable read at such a place."""
    places = {name: set(at) for name, at in seeds.items()}
    changed = True
    while changed:
        changed = False
        for name in sorted(cone):
            for rule in rules[name]:
                got = _bound_at(rule, places)
                for i, t in enumerate(rule.head):
                    if isinstance(t, Var) and t.name in got and i not in places.setdefault(name, set()):
                        places[name].add(i)
                        changed = True
    return places


def _live(rule: Any, rules: dict[str, list[Any]], seeds: dict[str, set[int]]) -> list[Any]:
    """A clause's literals but those of predicates with no clause left (foreign, once its one
    clause is dead): an empty relation reads nothing."""
    return [a for a in _atoms(rule) if a.pred in rules or a.pred in I.INPUTS or a.pred in seeds]


def _check_generic(word: str, cone: set[str], rules: dict[str, list[Any]], seeds: dict[str, set[int]],
                   observers: dict[str, set[int]] | None = None) -> dict[str, set[int]]:
    """Values of a kind (``word``) read only as tokens: at their own places, never a constant
    there, compared only with each other by == and !=, counted but never min'd or max'd, never
    computed or handed to anything else (a static predicate, a table's) but at the ``observers``'
    places.  Then any one-to-one renaming of them (that the observers do not see) changes no answer
    of the cone.  The places, by predicate."""
    observers = observers or {}
    places = _propagate(cone, rules, seeds)
    for name in sorted(cone):
        for rule in rules[name]:
            kind = _bound_at(rule, places)
            for a in _live(rule, rules, seeds):
                at = places.get(a.pred, set())
                for i, t in enumerate(a.args):
                    if i in at and not (isinstance(t, Var) and t.name in kind):
                        raise _Fails(f"{_where(rule)}: {a.pred} is given a {word} that is a constant or computed")
                    if i not in at and _var_names(t) & kind and not (
                            i in observers.get(a.pred, ()) and isinstance(t, Var)):
                        raise _Fails(f"{_where(rule)}: a {word} is handed to {a.pred}, which reads it as a value")
            at = places.get(name, set())
            for i, t in enumerate(rule.head):        # every place of the head, not only the tracked ones
                if i in at and not (isinstance(t, Var) and t.name in kind):
                    raise _Fails(f"{_where(rule)}: {name} gives a {word} that is a constant or computed")
                if i not in at and _var_names(t) & kind:
                    raise _Fails(f"{_where(rule)}: {name} gives a {word} computed, at a place that holds none")
            for step in rule.body:
                if isinstance(step, Compare) and (_var_names(step.left) | _var_names(step.right)) & kind and not (
                        step.op in ("==", "!=") and isinstance(step.left, Var) and isinstance(step.right, Var)
                        and step.left.name in kind and step.right.name in kind):
                    raise _Fails(f"{_where(rule)}: a {word} is computed, or compared otherwise than by == and !=")
            if rule.aggregate and rule.aggregate[1].name in kind and rule.aggregate[0] != "len_":
                raise _Fails(f"{_where(rule)}: the {word}s are aggregated by {rule.aggregate[0]}")
            _understood(rule, kind, word)
    return places


def _understood(rule: Any, kind: set[str], word: str) -> None:
    """Deny by default: the only terms a proof reads are variables, constants and arithmetic
    over them, and an aggregate's keys are its head; a value of the kind in a sum_'s for_each
    (or any other place the checks above do not name) fails the proof."""
    for t in (*rule.head, *(x for s in rule.body for x in (s.args if isinstance(s, Atom) else (s.left, s.right)))):
        if not isinstance(t, (Var, Const, Op)):
            raise _Fails(f"{_where(rule)}: a term the proof does not read ({t!r})")
    for s in rule.body:
        if not isinstance(s, (Atom, Compare)):
            raise _Fails(f"{_where(rule)}: a literal the proof does not read ({s!r})")
    if rule.aggregate and any(v.name in kind for v in rule.aggregate[2]):
        raise _Fails(f"{_where(rule)}: a {word} is a key of {rule.aggregate[0]}")


def _check_sets(cone: set[str], rules: dict[str, list[Any]], seeds: dict[str, set[int]]) -> None:
    """Set ids only at set places, only the head's, never repeated, compared or computed."""
    places = _propagate(cone, rules, seeds)
    for name in sorted(cone):
        for rule in rules[name]:
            head_sets = [rule.head[i] for i in sorted(places.get(name, ()))]
            if not all(isinstance(t, Var) for t in head_sets) or \
                    len({t.name for t in head_sets}) != len(head_sets):
                raise _Fails(f"{_where(rule)}: {name} holds a set id that is not one variable a place")
            allowed = {t.name for t in head_sets}
            sets: set[str] = set()
            for a in _live(rule, rules, seeds):
                at = [a.args[i] for i in places.get(a.pred, ())]
                if not all(isinstance(t, Var) for t in at) or len({t.name for t in at}) != len(at):
                    raise _Fails(f"{_where(rule)}: a set id of {a.pred} is not one variable a place")
                sets |= {t.name for t in at}
            if not sets <= allowed:
                raise _Fails(f"{_where(rule)}: {name} reads a set other than its own ({', '.join(sorted(sets - allowed))})")
            # every other occurrence of a set variable: in a comparison, a non-set place, the head
            for a in _live(rule, rules, seeds):
                for i, t in enumerate(a.args):
                    if i not in places.get(a.pred, ()) and _var_names(t) & sets:
                        raise _Fails(f"{_where(rule)}: a set id is passed to {a.pred} as a value")
            for i, t in enumerate(rule.head):
                if i not in places.get(name, ()) and _var_names(t) & sets:
                    raise _Fails(f"{_where(rule)}: {name} gives a set id as a value")
            for step in rule.body:
                if not isinstance(step, Atom) and (_var_names(step.left) | _var_names(step.right)) & sets:
                    raise _Fails(f"{_where(rule)}: a set id is compared or computed")
            if rule.aggregate and rule.aggregate[1].name in sets:
                raise _Fails(f"{_where(rule)}: a set id is aggregated")
            _understood(rule, sets, "set id")


def _check_values(cone: set[str], rules: dict[str, list[Any]]) -> None:
    """handKey's values: only compared, A's with B's at the same place (module docstring, 1)."""
    for name in sorted(cone):
        for rule in rules[name]:
            bound: dict[str, Any] = {}
            for a in _atoms(rule):
                if a.pred != I.HAND_KEY:
                    continue
                v = a.args[VALUE]
                if not isinstance(v, Var) or a.negated or v.name in bound:
                    raise _Fails(f"{_where(rule)}: a key value is matched by handKey itself "
                                 "(a constant, a negation, or a variable used twice)")
                bound[v.name] = a
            if not bound:
                continue
            for a in _atoms(rule):
                for i, t in enumerate(a.args):
                    if (a.pred != I.HAND_KEY or i != VALUE) and _var_names(t) & set(bound):
                        raise _Fails(f"{_where(rule)}: a key value is passed to {a.pred}")
            for t in rule.head:
                if _var_names(t) & set(bound):
                    raise _Fails(f"{_where(rule)}: {name} gives a key value")
            if rule.aggregate and rule.aggregate[1].name in bound:
                raise _Fails(f"{_where(rule)}: a key value is aggregated")
            _understood(rule, set(bound), "key value")
            for step in rule.body:
                if not isinstance(step, Compare):
                    continue
                used = (_var_names(step.left) | _var_names(step.right)) & set(bound)
                if not used:
                    continue
                if not (isinstance(step.left, Var) and isinstance(step.right, Var)
                        and step.left.name in bound and step.right.name in bound):
                    raise _Fails(f"{_where(rule)}: a key value is computed, or compared with something else")
                x, y = bound[step.left.name], bound[step.right.name]
                if x.args[0] == y.args[0] or x.args[1] != y.args[1] or x.args[2] != y.args[2]:
                    raise _Fails(f"{_where(rule)}: two key values are compared that are not two hands' "
                                 "values at one place")


# ---- 2. evaluation -------------------------------------------------------------------------

# The pairs asked: an input fact of the proof's own, and a clause that asks compareHands for
# them (so that the compiled program computes it for those pairs only, as a fight asks it).
PAIR, ASKED = "proof$pair", "proof$asked"


def _ask_clause(asked: str) -> Any:
    text = f"{ASKED}(A, B, R) <= {PAIR}(A, B) & {asked}(A, B, R)"
    node = ast.parse(text.replace("$", "_"), mode="eval").body
    for n in ast.walk(node):                        # names with '$' cannot be written in a rule file
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            n.func.id = {"proof_pair": PAIR, "proof_asked": ASKED}.get(n.func.id, n.func.id)
    return Clause("proof", Path("engine/judging/proof.py"), 0, ASKED, node, text)


_ASK = {name: _ask_clause(name) for name in (I.COMPARE_HANDS, I.BEAT, I.RANK_ORDER, I.BEAT_RANK)}


def _patterns(ranks: list[int], places: dict[Any, tuple], by_rank: bool) -> tuple[Any, Any, Any, Any, Any]:
    """The abstract hands of :func:`_evaluate`, as arrays: each set's id and rank (first one hand
    A of each rank, every key value 1; then the hands B: for every pair of ranks (a, b) and every
    pattern of the places they share, a hand of rank b whose value at each shared place is 1, 0
    or 2: equal to, below or above A's, each such hand made once however many pairs ask it); the
    key rows (set, order, index, value); the pairs asked (A's set, B's set) and the answer the
    table's order gives each."""
    import numpy as np
    ids = {a: k for k, a in enumerate(ranks, 1)}          # the A hands: sets 1 .. len(ranks)
    keys = [np.array([(ids[a], o, i, 1) for a in ranks for o, i in places[a]], dtype=np.int64).reshape(-1, 4)]
    width = max((len(places[r]) for r in ranks), default=0)
    span = 3 ** width                                      # a B hand: its rank's index * span + its values in base 3
    asking, hands, expected = [], [], []
    symbol = np.array([1, 0, 2], dtype=np.int64)           # B's value: =, <, > A's
    for a in ranks:
        for k, b in enumerate(ranks):
            common = [p for p in places[a] if p in set(places[b])]
            m = 3 ** len(common)
            grid = np.indices((3,) * len(common)).reshape(len(common), m).T     # itertools.product's order
            at = symbol[grid]                                                   # (m, len(common))
            column = {p: c for c, p in enumerate(common)}
            values = np.ones((m, len(places[b])), dtype=np.int64)
            for j, p in enumerate(places[b]):
                if p in column:
                    values[:, j] = at[:, column[p]]
            asking.append(np.full(m, ids[a], dtype=np.int64))
            hands.append(k * span + values @ (3 ** np.arange(len(places[b]), dtype=np.int64)))
            if a != b or by_rank:
                expected.append(np.full(m, 1 if a > b else 2 if a < b else 0, dtype=np.int64))
            else:                        # the first place, in order, where B is not equal decides
                ordered = at[:, sorted(range(len(common)), key=lambda c: common[c])]
                decided = ordered != 1
                first = np.ones(m, dtype=np.int64) if not common else \
                    np.where(decided.any(axis=1), ordered[np.arange(m), decided.argmax(axis=1)], 1)
                expected.append(np.array([1, 0, 2], dtype=np.int64)[first])    # =: 0, <: 1, >: 2
    made, inverse = np.unique(np.concatenate(hands), return_inverse=True)
    first_b = len(ranks) + 1
    for k, b in enumerate(ranks):                          # the B hands' key rows, rank by rank
        at = np.flatnonzero(made // span == k)
        w = len(places[b])
        if not len(at) or not w:
            continue
        digits = (made[at, None] % span) // (3 ** np.arange(w, dtype=np.int64)) % 3
        block = np.empty((len(at) * w, 4), dtype=np.int64)
        block[:, 0] = np.repeat(first_b + at, w)
        block[:, 1] = np.tile([o for o, _ in places[b]], len(at))
        block[:, 2] = np.tile([i for _, i in places[b]], len(at))
        block[:, 3] = digits.reshape(-1)
        keys.append(block)
    rank_of = np.concatenate([np.array(ranks, dtype=np.int64), np.array(ranks, dtype=np.int64)[made // span]])
    seeds = np.stack([np.concatenate(asking), first_b + inverse.reshape(-1)], axis=1)
    return (np.arange(1, len(rank_of) + 1, dtype=np.int64), rank_of, np.concatenate(keys), seeds,
            np.concatenate(expected))


def _evaluate(rules: dict[str, list[Any]], cone: set[str], static: set[str], places: dict[Any, tuple],
              fights: bool = False, asked: str | None = None) -> Proof:
    """Ask the cone about every pattern of every pair of ranks (module docstring, 2): compareHands,
    or with ``fights`` beat, each hand then also declared, a hand, and five fresh cards its own."""
    import numpy as np
    ranks = sorted(places)
    if not all(isinstance(r, int) for r in ranks) or not all(
            isinstance(x, int) for ps in places.values() for p in ps for x in p):
        raise _Fails("the table's ranks or key places are not integers")
    pairs = [(a, b) for a in ranks for b in ranks]
    count = sum(3 ** len(set(places[a]) & set(places[b])) for a, b in pairs)
    if count > MAX_PATTERNS:
        raise _Fails(f"{count:,} patterns of key places to ask (more than {MAX_PATTERNS:,})")
    asked = asked or (I.BEAT if fights else I.COMPARE_HANDS)
    by_rank = asked in (I.RANK_ORDER, I.BEAT_RANK)   # the order of the ranks alone
    kept = [r.clause for name in sorted(cone | static) for r in rules.get(name, [])] + [_ASK[asked]]
    inputs = {I.GET_RANK: ("set", "rank"), I.HAND_KEY: ("set", "order", "index", "value"), PAIR: ("set", "set")}
    if fights:
        inputs.update({I.IS_HAND: ("set",), I.DECLARED: I.INPUTS[I.DECLARED], I.HOLDS: I.INPUTS[I.HOLDS]})
    program = Program(kept, inputs=inputs, asked=(ASKED,))
    if by_rank and not any(a.pred == I.HAND_KEY for name in cone for r in rules.get(name, []) for a in _atoms(r)):
        places = {r: () for r in ranks}     # the ranks' order, read without a key: one pattern a pair
    rank_ids, rank_of, key_rows, seeds, expected = _patterns(ranks, places, by_rank)
    db = Database(program, threads=1)
    try:
        zeros = lambda n: np.zeros(n, dtype=np.int64)  # noqa: E731  (every row of world 0)
        columns: dict[str, dict[str, Any]] = {
            I.GET_RANK: {"w": zeros(len(rank_ids)), "a0": rank_ids, "a1": rank_of},
            I.HAND_KEY: {"w": zeros(len(key_rows)), **{f"a{k}": key_rows[:, k] for k in range(4)}},
            PAIR: {"w": zeros(len(seeds)), "a0": seeds[:, 0], "a1": seeds[:, 1]},
            "expected": {"a": seeds[:, 0], "b": seeds[:, 1], "r": expected},
            "worlds": {"w": zeros(1)}}
        if fights:               # every set a hand of five fresh cards: set s holds 5s .. 5s + 4
            sets, position = np.repeat(rank_ids, 5), np.tile(np.arange(5, dtype=np.int64), len(rank_ids))
            columns.update({I.IS_HAND: {"w": zeros(len(rank_ids)), "a0": rank_ids},
                            I.DECLARED: {"w": zeros(len(rank_ids)), "a0": rank_ids},
                            I.HOLDS: {"w": zeros(len(sets)), "a0": sets, "a1": position, "a2": 5 * sets + position}})
        try:
            out = db.run(Worlds(columns=columns), [], reduce={"wrong": Disagreement(ASKED, "expected")},
                         compute=[ASKED])
        except Exception as exc:                 # the rules fail on the abstract hands: no proof
            raise_if_stopped(exc)                # ... but a stop is a stop, not a failed proof
            raise _Fails(f"{asked} cannot be asked about abstract hands ({type(exc).__name__}: "
                         f"{str(exc).splitlines()[0] if str(exc) else ''})") from None
    finally:
        db.close()
    if out["wrong"]:
        a_id, b_id, want, got = out["wrong"][0]
        ra, rb = int(rank_of[a_id - 1]), int(rank_of[b_id - 1])
        va = key_rows[key_rows[:, 0] == a_id, 3].tolist()
        vb = key_rows[key_rows[:, 0] == b_id, 3].tolist()
        return Proof(False, f"{asked} of a rank-{ra} hand with key values {va} and a rank-{rb} hand with "
                            f"{vb} (places {list(places[ra])}, {list(places[rb])}) gives {got or 'nothing'}, "
                            f"where the table's order says {want}", len(seeds))
    if fights:
        return Proof(True, f"{asked} reads a fight's hands only through getRank, handKey, isHand and their cards as "
                           f"tokens, and orders all {len(seeds):,} patterns of {len(ranks)} ranks' keys of two "
                           "disjoint hands as the table does", len(seeds))
    return Proof(True, f"{asked} reads hands only through getRank and handKey, and orders all "
                       f"{len(seeds):,} patterns of {len(ranks)} ranks' keys as the table does", len(seeds))
