"""The proof that the loaded rules order hands by their five-card table: or why they do not.

The five-card table (:mod:`engine.table`) holds every hand's strength: its getRank and its
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

import itertools
import threading
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from . import interface as I
from .loader import RuleError

if TYPE_CHECKING:
    from .core import Engine
    from .table import FiveTable

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


_memo: "weakref.WeakKeyDictionary[Any, dict[tuple, Proof]]" = weakref.WeakKeyDictionary()
_memo_lock = threading.Lock()


def order_proof(engine: "Engine", table: "FiveTable") -> Proof:
    """The proof for this engine's rules and its table (memoised per engine and table digest)."""
    return _memoised(engine, ("order", table.rules_digest), lambda: prove(engine.ruleset.clauses, table.places))


def fight_proof(engine: "Engine", table: "FiveTable") -> Proof:
    """Whether a fight of two hands of the deck that share no card gets, from the rules' beat,
    the table's order of their values (see :func:`prove_fights`); memoised like order_proof."""
    return _memoised(engine, ("fight", table.rules_digest),
                     lambda: prove_fights(engine.ruleset.clauses, table.places, table.all_hands))


def _memoised(engine: "Engine", key: tuple, make: Any) -> Proof:
    with _memo_lock:
        found = _memo.setdefault(engine, {}).get(key)
        if found is None:
            found = _memo[engine][key] = make()
        return found


# ---- 1. syntax -----------------------------------------------------------------------------


class _Fails(Exception):
    pass


Places = tuple[tuple[Any, tuple[tuple[Any, Any], ...]], ...]


def prove(clauses: Iterable[Any], places: Places | None) -> Proof:
    """Both steps, from the clauses and where each rank's key values are (``FiveTable.places``:
    None when a rank has them at several places; see the module's docstring)."""
    from .evaluators.compiled import Untranslatable
    clauses = list(clauses)
    try:
        rules = _rules(clauses)
        _check_local(rules, TABLED)
        cone, static = _cone(rules, I.COMPARE_HANDS, TABLED, {})
        _check_sets(cone, rules, {**{t: {0} for t in TABLED}, I.COMPARE_HANDS: {0, 1}})
        _check_values(cone, rules)
        return _evaluate(rules, cone, static, _places_or_fail(places))
    except _Fails as exc:
        return Proof(False, str(exc))
    except Untranslatable as exc:
        return Proof(False, f"the comparator cannot be compiled ({exc})")


def prove_fights(clauses: Iterable[Any], places: Places | None, all_hands: bool) -> Proof:
    """Whether the rules' ``beat(A, B, R)``, in a world of two hands that are five different cards
    of the deck each and share no card, is the table's order (R = 1, 2, 0) of their values.

    Three steps, like :func:`prove`'s.  (1) getRank, handKey and isHand are *local*: what they say
    of a set depends on its own cards only, in any order (so a fight's hands get the table's
    answers).  (2) beat reads a hand only through them and its cards, and the cards only as
    tokens: joined, ``==`` and ``!=`` compared, counted, never computed or compared with anything
    else (so any two disjoint hands are the image of two hands of fresh cards).  (3) For every
    pattern of two ranks' keys, two hands of fresh disjoint cards with those abstract values, each
    a hand (isHand holds of every hand of the deck: ``all_hands``), get beat's table order.
    """
    from .evaluators.compiled import Untranslatable
    clauses = list(clauses)
    try:
        rules, cone, static = _fight_cone(clauses)
        if not all_hands:
            raise _Fails("isHand does not hold of every five cards of the deck")
        return _evaluate(rules, cone, static, _places_or_fail(places), fights=True)
    except _Fails as exc:
        return Proof(False, str(exc))
    except Untranslatable as exc:
        return Proof(False, f"beat cannot be compiled ({exc})")


def fight_obstacle(clauses: Iterable[Any]) -> str | None:
    """Why :func:`prove_fights` must fail whatever the table (steps 1 and 2), else None: asked
    before a table is built only for fights."""
    from .evaluators.compiled import Untranslatable
    try:
        _fight_cone(list(clauses))
        return None
    except _Fails as exc:
        return str(exc)
    except Untranslatable as exc:
        return f"beat cannot be compiled ({exc})"


def _fight_cone(clauses: list[Any]) -> tuple[dict[str, list[Any]], set[str], set[str]]:
    """prove_fights' steps 1 and 2: the rules, beat's cone and the static predicates it reads."""
    rules = _rules(clauses)
    _check_local(rules, FIGHT_TABLED)
    cone, static = _cone(rules, I.BEAT, FIGHT_TABLED, READ)
    _check_sets(cone, rules, {**{t: {0} for t in FIGHT_TABLED}, **{r: {p} for r, p in READ.items()},
                              I.BEAT: {0, 1}})
    _check_generic("card", cone, rules, {I.HOLDS: {CARD}})
    _check_generic("card position", cone, rules, {I.HOLDS: {POSITION}})
    _check_values(cone, rules)
    return rules, cone, static


def _places_or_fail(places: Places | None) -> dict[Any, tuple]:
    if places is None:
        raise _Fails("two hands of one rank have their key values at different places "
                     "(or one place twice), so a key cannot be read place by place")
    return dict(places)


def _rules(clauses: list[Any]) -> dict[str, list[Any]]:
    """The clauses read, by predicate, without those that cannot fire in a world whose cards are
    all of the deck (:func:`_dead`)."""
    from .evaluators.compiled import _Reader
    from .evaluators.local import LocalEvaluator
    local = LocalEvaluator(clauses)
    deck = {r[0] for r in local.static.get(I.CARD_ID, ())}
    out: dict[str, list[Any]] = {}
    for clause in clauses:
        rule = _Reader(clause).rule()
        if not _dead(rule, local, deck):
            out.setdefault(rule.pred, []).append(rule)
    return out


def _dead(rule: Any, local: Any, deck: set[Any]) -> bool:
    """A clause that needs a card held by some set to fail a static test that every card of the
    deck passes (``getValue(C, 0) <= holds(S, I, C) & ~isCard(C)``): it never fires where every
    card held is of the deck, as in the table's worlds and the fights read off it."""
    from .evaluators.compiled import Var
    from .evaluators.local import _Run
    held = {a.args[CARD].name for a in _atoms(rule)
            if a.pred == I.HOLDS and not a.negated and len(a.args) == 3 and isinstance(a.args[CARD], Var)}
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
            run = _Run(local, {})
            if all(run.view_lookup(a.pred, (c,), (), ()) for c in deck):
                return True
    return False


def _atoms(rule: Any) -> list[Any]:
    from .evaluators.compiled import Atom
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
    out, todo = set(), [name]
    while todo:
        n = todo.pop()
        if n not in out:
            out.add(n)
            todo += [a.pred for r in rules.get(n, []) for a in _atoms(r)]
    return out


def _where(rule: Any) -> str:
    return f"{rule.clause.label} ({rule.clause.where})"


def _var_names(term: Any) -> set[str]:
    from .evaluators.compiled import _vars
    return _vars(term)


def _propagate(cone: set[str], rules: dict[str, list[Any]], seeds: dict[str, set[int]]) -> dict[str, set[int]]:
    """The argument places that hold a kind of value (sets, cards, positions): the seeds, and a
    cone predicate's head place wherever a clause puts there a variable read at such a place."""
    from .evaluators.compiled import Var
    places = {name: set(at) for name, at in seeds.items()}
    changed = True
    while changed:
        changed = False
        for name in sorted(cone):
            for rule in rules[name]:
                got = {a.args[i].name for a in _atoms(rule) if not a.negated for i in places.get(a.pred, ())
                       if i < len(a.args) and isinstance(a.args[i], Var)}
                for i, t in enumerate(rule.head):
                    if isinstance(t, Var) and t.name in got and i not in places.setdefault(name, set()):
                        places[name].add(i)
                        changed = True
    return places


def _check_generic(word: str, cone: set[str], rules: dict[str, list[Any]], seeds: dict[str, set[int]]
                   ) -> dict[str, set[int]]:
    """Values of a kind (``word``) read only as tokens: at their own places, never a constant
    there, compared only with each other by == and !=, counted but never min'd or max'd, never
    computed or handed to anything else (a static predicate, a table's).  Then any one-to-one
    renaming of them changes no answer of the cone.  The places, by predicate."""
    from .evaluators.compiled import Compare, Var
    places = _propagate(cone, rules, seeds)
    for name in sorted(cone):
        for rule in rules[name]:
            kind = {a.args[i].name for a in _atoms(rule) if not a.negated for i in places.get(a.pred, ())
                    if i < len(a.args) and isinstance(a.args[i], Var)}
            for a in _atoms(rule):
                at = places.get(a.pred, set())
                for i, t in enumerate(a.args):
                    if i in at and not (isinstance(t, Var) and t.name in kind):
                        raise _Fails(f"{_where(rule)}: {a.pred} is given a {word} that is a constant or computed")
                    if i not in at and _var_names(t) & kind:
                        raise _Fails(f"{_where(rule)}: a {word} is handed to {a.pred}, which reads it as a value")
            at = places.get(name, set())
            for i, t in enumerate(rule.head):
                if i in at and not (isinstance(t, Var) and t.name in kind):
                    raise _Fails(f"{_where(rule)}: {name} gives a {word} that is a constant or computed")
            for step in rule.body:
                if isinstance(step, Compare) and (_var_names(step.left) | _var_names(step.right)) & kind and not (
                        step.op in ("==", "!=") and isinstance(step.left, Var) and isinstance(step.right, Var)
                        and step.left.name in kind and step.right.name in kind):
                    raise _Fails(f"{_where(rule)}: a {word} is computed, or compared otherwise than by == and !=")
            if rule.aggregate and rule.aggregate[1].name in kind and rule.aggregate[0] != "len_":
                raise _Fails(f"{_where(rule)}: the {word}s are aggregated by {rule.aggregate[0]}")
    return places


def _check_sets(cone: set[str], rules: dict[str, list[Any]], seeds: dict[str, set[int]]) -> None:
    """Set ids only at set places, only the head's, never repeated, compared or computed."""
    from .evaluators.compiled import Atom, Var
    places = _propagate(cone, rules, seeds)
    for name in sorted(cone):
        for rule in rules[name]:
            head_sets = [rule.head[i] for i in sorted(places.get(name, ()))]
            if not all(isinstance(t, Var) for t in head_sets) or \
                    len({t.name for t in head_sets}) != len(head_sets):
                raise _Fails(f"{_where(rule)}: {name} holds a set id that is not one variable a place")
            allowed = {t.name for t in head_sets}
            sets: set[str] = set()
            for a in _atoms(rule):
                at = [a.args[i] for i in places.get(a.pred, ())]
                if not all(isinstance(t, Var) for t in at) or len({t.name for t in at}) != len(at):
                    raise _Fails(f"{_where(rule)}: a set id of {a.pred} is not one variable a place")
                sets |= {t.name for t in at}
            if not sets <= allowed:
                raise _Fails(f"{_where(rule)}: {name} reads a set other than its own ({', '.join(sorted(sets - allowed))})")
            # every other occurrence of a set variable: in a comparison, a non-set place, the head
            for a in _atoms(rule):
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


def _check_values(cone: set[str], rules: dict[str, list[Any]]) -> None:
    """handKey's values: only compared, A's with B's at the same place (module docstring, 1)."""
    from .evaluators.compiled import Compare, Var
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
    import ast
    from pathlib import Path
    from .loader import Clause
    text = f"{ASKED}(A, B, R) <= {PAIR}(A, B) & {asked}(A, B, R)"
    node = ast.parse(text.replace("$", "_"), mode="eval").body
    for n in ast.walk(node):                        # names with '$' cannot be written in a rule file
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            n.func.id = {"proof_pair": PAIR, "proof_asked": ASKED}.get(n.func.id, n.func.id)
    return Clause("proof", Path("engine/proof.py"), 0, ASKED, node, text)


_ASK = {name: _ask_clause(name) for name in (I.COMPARE_HANDS, I.BEAT)}


def _evaluate(rules: dict[str, list[Any]], cone: set[str], static: set[str], places: dict[Any, tuple],
              fights: bool = False) -> Proof:
    """Ask the cone about every pattern of every pair of ranks (module docstring, 2): compareHands,
    or with ``fights`` beat, each hand then also declared, a hand, and five fresh cards its own."""
    import numpy as np
    from .evaluators.compiled import Compiled, Program, Worlds
    ranks = sorted(places)
    if not all(isinstance(r, int) for r in ranks) or not all(
            isinstance(x, int) for ps in places.values() for p in ps for x in p):
        raise _Fails("the table's ranks or key places are not integers")
    pairs = [(a, b) for a in ranks for b in ranks]
    count = sum(3 ** len(set(places[a]) & set(places[b])) for a, b in pairs)
    if count > MAX_PATTERNS:
        raise _Fails(f"{count:,} patterns of key places to ask (more than {MAX_PATTERNS:,})")
    asked = I.BEAT if fights else I.COMPARE_HANDS
    kept = [r.clause for name in sorted(cone | static) for r in rules.get(name, [])] + [_ASK[asked]]
    inputs = {I.GET_RANK: ("set", "rank"), I.HAND_KEY: ("set", "order", "index", "value"), PAIR: ("set", "set")}
    if fights:
        inputs.update({I.IS_HAND: ("set",), I.DECLARED: I.INPUTS[I.DECLARED], I.HOLDS: I.INPUTS[I.HOLDS]})
    program = Program(kept, inputs=inputs, asked=(ASKED,))
    rank_rows: list[tuple[int, int]] = []
    key_rows: list[tuple[int, int, int, int]] = []
    seeds: list[tuple[int, int]] = []
    expected: list[int] = []
    ids = itertools.count(1)
    mine: dict[Any, int] = {}
    for a in ranks:                                  # A: every value 1
        mine[a] = s = next(ids)
        rank_rows.append((s, a))
        key_rows += [(s, o, i, 1) for o, i in places[a]]
    for a, b in pairs:
        common = [p for p in places[a] if p in set(places[b])]
        for pattern in itertools.product((1, 0, 2), repeat=len(common)):    # B's value: =, <, >
            s = next(ids)
            at = dict(zip(common, pattern))
            rank_rows.append((s, b))
            key_rows += [(s, o, i, at.get((o, i), 1)) for o, i in places[b]]
            seeds.append((mine[a], s))
            if a != b:
                expected.append(1 if a > b else 2)
            else:
                first = next((v for p, v in sorted(at.items()) if v != 1), 1)
                expected.append({1: 0, 0: 1, 2: 2}[first])
    db = Compiled(program=program, threads=2)
    try:
        con = db._con
        cols = lambda rows, n: {f"c{k}": np.array([r[k] for r in rows], dtype=np.int64) for k in range(n)}  # noqa: E731
        con.register("x_rank", cols(rank_rows, 2))
        con.register("x_key", cols(key_rows, 4))
        con.register("x_pairs", {**cols(seeds, 2), "r": np.array(expected, dtype=np.int64)})
        sql = {I.GET_RANK: 'SELECT 0, c0, c1 FROM "x_rank"', I.HAND_KEY: 'SELECT 0, c0, c1, c2, c3 FROM "x_key"',
               PAIR: 'SELECT 0, c0, c1 FROM "x_pairs"', "worlds": "SELECT 0 AS w"}
        if fights:               # every set a hand of five fresh cards: set s holds 5s .. 5s + 4
            sql.update({I.IS_HAND: 'SELECT 0, c0 FROM "x_rank"', I.DECLARED: 'SELECT 0, c0 FROM "x_rank"',
                        I.HOLDS: 'SELECT 0, c0, p.range, 5 * c0 + p.range FROM "x_rank", range(5) p'})
        red = {"wrong": 'SELECT p.c0, p.c1, p.r, list(c.a2 ORDER BY c.a2) FROM "x_pairs" p '
                        'LEFT JOIN {' + ASKED + '} c ON c.a0 = p.c0 AND c.a1 = p.c1 '
                        'GROUP BY p.c0, p.c1, p.r HAVING count(c.a2) <> 1 OR bool_or(c.a2 <> p.r) '
                        'ORDER BY p.c0, p.c1 LIMIT 1'}
        out = db.run(Worlds(sql=sql), [], reduce=red, compute=[ASKED])
    finally:
        db.close()
    if out["wrong"]:
        a_id, b_id, want, got = out["wrong"][0]
        ra, rb = rank_rows[a_id - 1][1], rank_rows[b_id - 1][1]
        va = [k[3] for k in key_rows if k[0] == a_id]
        vb = [k[3] for k in key_rows if k[0] == b_id]
        return Proof(False, f"{asked} of a rank-{ra} hand with key values {va} and a rank-{rb} hand with "
                            f"{vb} (places {list(places[ra])}, {list(places[rb])}) gives {got or 'nothing'}, "
                            f"where the table's order says {want}", len(seeds))
    if fights:
        return Proof(True, f"beat reads a fight's hands only through getRank, handKey, isHand and their cards as "
                           f"tokens, and orders all {len(seeds):,} patterns of {len(ranks)} ranks' keys of two "
                           "disjoint hands as the table does", len(seeds))
    return Proof(True, f"{asked} reads hands only through getRank and handKey, and orders all "
                       f"{len(seeds):,} patterns of {len(ranks)} ranks' keys as the table does", len(seeds))
