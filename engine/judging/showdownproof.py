"""The proofs that a showdown can be read off the five-card table: its plays and winners are the
table's best fives (:func:`prove_showdowns`), and a player plays only their own candidates
(:func:`prove_candidates`).

They build on :mod:`engine.judging.proof` (the comparator's order, the syntactic checks and the
evaluation of patterns), which knows nothing of showdowns.  Split from proof.py (issue 31).
"""

from __future__ import annotations

from typing import Any, Iterable

from engine import interface as I
from engine.datalog.ir import Atom, Const, Untranslatable, Var
from engine.interface import EngineView
from engine.judging.fivetable import FiveTable
from engine.judging.proof import (
    CARD,
    POSITION,
    TABLED,
    Places,
    Proof,
    _atoms,
    _check_generic,
    _check_local,
    _check_sets,
    _check_values,
    _closure,
    _cone,
    _evaluate,
    _Fails,
    _memoised,
    _obstacle,
    _places_or_fail,
    _rules,
    _where,
    order_proof,
)


def showdown_proof(engine: EngineView, table: "FiveTable") -> Proof:
    """Whether a showdown's plays and winners are the table's best fives (see
    :func:`prove_showdowns`); memoised like order_proof."""
    return _memoised(engine, ("showdown", table.rules_digest),
                     lambda: prove_showdowns(engine.ruleset.clauses, table.places, order_proof(engine, table),
                                             engine.local))


def candidate_proof(engine: EngineView) -> Proof:
    """Whether mayPlay(P, S) implies candidate(P, S) (see :func:`prove_candidates`); memoised."""
    return _memoised(engine, ("candidate",), lambda: prove_candidates(engine.ruleset.clauses, engine.local))


def prove_candidates(clauses: Iterable[Any], local: Any = None) -> Proof:
    """Whether every five the rules let a player play is one of that player's own candidates:
    each clause of mayPlay (that some card of the deck can fire) has ``candidate(P, S)`` among
    its positive literals, P and S its head's two distinct variables.  The table's showdowns read
    mayPlay's rows for each player's own fives only (engine/judging/tabled.py); a rule that lets a player
    play another's five fails here, and its showdowns are asked of the rules."""
    try:
        rules = _rules(list(clauses), local)
        found = rules.get(I.MAY_PLAY, [])
        if not found:
            return Proof(False, f"the rules define no {I.MAY_PLAY}")
        for rule in found:
            head = rule.head
            if rule.aggregate or len(head) != 2 or not all(isinstance(t, Var) for t in head) or head[0] == head[1]:
                return Proof(False, f"{_where(rule)}: {I.MAY_PLAY}'s head is not two distinct variables")
            if not any(a.pred == I.CANDIDATE and not a.negated and a.args == head for a in _atoms(rule)):
                return Proof(False, f"{_where(rule)}: {I.MAY_PLAY}({head[0].name}, {head[1].name}) does not "
                                    f"require {I.CANDIDATE}({head[0].name}, {head[1].name}): a player may play a "
                                    "five that is not one of their own")
        return Proof(True, f"every clause of {I.MAY_PLAY}(P, S) requires {I.CANDIDATE}(P, S)")
    except Untranslatable as exc:
        return Proof(False, f"{I.MAY_PLAY} cannot be compiled ({exc})")


def showdown_obstacle(clauses: Iterable[Any]) -> str | None:
    """Why :func:`prove_showdowns` must fail whatever the table (steps 2 and 3), else None."""
    return _obstacle(lambda: _showdown_shape(_rules(list(clauses))), "the showdown")


def prove_showdowns(clauses: Iterable[Any], places: Places | None, order: Proof | None = None,
                    local: Any = None) -> Proof:
    """Whether, in a showdown whose cards are all different cards of the deck, each player plays
    exactly the fives of the highest table value among those the rules let them play, and the
    winners are the players whose five no other player's beats in the table's order.

    (1) compareHands and rankOrder are the table's orders of values and of ranks (each proven as
    :func:`prove` proves compareHands).  (2) plays is written as the best of mayPlay:
    ``plays(P, S) <= Y(P, S) & ~Z(P, S)`` with ``Z(P, S) <= Y(P, S) & Y(P, R) & C(R, S, 1)``, C
    compareHands and Y mayPlay, or Y itself the best of mayPlay by rankOrder or compareHands (a
    value's order refines its rank's, so the best of the best ranked is the best); and
    showdownWinner is the players seated that no other seated player's plays beats, when the
    showdown is valid (showdown.dl's clauses, read as written).  (3) mayPlay and invalidShowdown
    read cards only as tokens (:func:`_check_generic`, once the clauses that no card of the deck
    can fire are set aside), so that what they say of a showdown is what they say of any other of
    the same shape (game, players' numbers of cards, board): the engine asks the rules once per
    shape, about a showdown of the first cards of the deck (engine/judging/tabled.py).  ``order``: the
    proof of step (1) for compareHands, when :func:`prove` has made it already.
    """
    clauses = list(clauses)
    try:
        rules = _rules(clauses, local)
        _check_local(rules, TABLED)
        at = _places_or_fail(places)
        proofs = [order] if order is not None else []
        if order is not None and not order.holds:
            return order
        for asked in (I.COMPARE_HANDS, I.RANK_ORDER)[len(proofs):]:
            cone, static = _cone(rules, asked, TABLED, {})
            _check_sets(cone, rules, {**{t: {0} for t in TABLED}, asked: {0, 1}})
            _check_values(cone, rules)
            proofs.append(_evaluate(rules, cone, static, at, asked=asked))
            if not proofs[-1].holds:
                return proofs[-1]
        _showdown_shape(rules)
        return Proof(True, f"compareHands and rankOrder order all {proofs[0].patterns:,} patterns of two ranks' keys "
                           "as the table does; plays is the best of mayPlay and showdownWinner the best of plays; "
                           "mayPlay and invalidShowdown read cards only as tokens", proofs[0].patterns)
    except _Fails as exc:
        return Proof(False, str(exc))
    except Untranslatable as exc:
        return Proof(False, f"the showdown cannot be compiled ({exc})")


def _showdown_shape(rules: dict[str, list[Any]]) -> None:
    """prove_showdowns' steps 2 and 3, which need no table."""
    _best_plays(rules)
    _best_players(rules)
    shape = _closure(rules, {I.MAY_PLAY, I.INVALID_SHOWDOWN})
    _check_generic("card", shape, rules, {I.HOLDS: {CARD}})
    _check_generic("card position", shape, rules, {I.HOLDS: {POSITION}})


def _one_rule(rules: dict[str, list[Any]], name: str, how: str) -> Any:
    found = rules.get(name, [])
    if len(found) != 1 or found[0].aggregate or not all(isinstance(t, Var) for t in found[0].head) \
            or len({t.name for t in found[0].head}) != len(found[0].head):
        raise _Fails(f"{name} is not written as {how} (one clause, its arguments variables)")
    return found[0]


def _steps(rule: Any) -> list[tuple]:
    """A clause's body as comparable tuples: ('atom', pred, negated, args) or ('cmp', op, l, r)."""
    return sorted((("atom", s.pred, s.negated, s.args) if isinstance(s, Atom) else ("cmp", s.op, s.left, s.right)
                   for s in rule.body), key=repr)


def _best_of(rules: dict[str, list[Any]], name: str) -> tuple[str, str]:
    """(Y, C) when ``name(P, S) <= Y(P, S) & ~Z(P, S)`` and ``Z(P, S) <= Y(P, S) & Y(P, R) &
    C(R, S, 1)`` (C rankOrder or compareHands): the fives of Y that no other of P's fives of Y
    beats in C's order.  _Fails otherwise."""
    how = f"the best of a relation ({name}(P, S) <= Y(P, S) & ~Z(P, S))"
    rule = _one_rule(rules, name, how)
    if len(rule.head) != 2 or len(rule.body) != 2:
        raise _Fails(f"{name} is not written as {how}")
    p, s = rule.head
    pos = [a for a in _atoms(rule) if not a.negated and a.args == (p, s)]
    neg = [a for a in _atoms(rule) if a.negated and a.args == (p, s)]
    if len(pos) != 1 or len(neg) != 1 or pos[0].pred in (name, neg[0].pred) or neg[0].pred in I.INPUTS:
        raise _Fails(f"{name} is not written as {how}")
    y, z = pos[0].pred, neg[0].pred
    inner = _one_rule(rules, z, f"Y(P, S) & Y(P, R) & C(R, S, 1) for {name}")
    if len(inner.head) != 2:
        raise _Fails(f"{z} is not written as Y(P, S) & Y(P, R) & C(R, S, 1) for {name}")
    p2, s2 = inner.head
    r = next((a.args[1] for a in _atoms(inner)                 # the other five, whatever its name
              if a.pred == y and len(a.args) == 2 and a.args[0] == p2 and a.args[1] != s2), None)
    for order in (I.RANK_ORDER, I.COMPARE_HANDS):
        if isinstance(r, Var) and r.name not in (p2.name, s2.name) and _steps(inner) == sorted([
                ("atom", y, False, (p2, s2)), ("atom", y, False, (p2, r)),
                ("atom", order, False, (r, s2, Const(1)))], key=repr):
            return y, order
    raise _Fails(f"{z} is not written as {y}(P, S) & {y}(P, R) & C(R, S, 1), C rankOrder or compareHands")


def _best_plays(rules: dict[str, list[Any]]) -> None:
    """plays is the best of mayPlay by compareHands, maybe after the best by rank (_Fails if not)."""
    y, order = _best_of(rules, I.PLAYS)
    if order != I.COMPARE_HANDS:
        raise _Fails("plays does not choose by compareHands: ties of rank are not broken by the table's values")
    if y != I.MAY_PLAY:
        y2, _ = _best_of(rules, y)
        if y2 != I.MAY_PLAY:
            raise _Fails(f"plays is the best of {y}, which is the best of {y2}, not of mayPlay")


def _best_players(rules: dict[str, list[Any]]) -> None:
    """``showdownWinner(T, P) <= seat(T, P) [& board(T, B)] & ~invalidShowdown(T) & ~O(T, P)`` and
    ``O(T, P) <= seat(T, P) & seat(T, Q) & (Q != P) & plays(P, S) & plays(Q, R) &
    compareHands(R, S, 1)`` (_Fails if not)."""
    how = "the seated players that no other outdraws when the showdown is valid"
    rule = _one_rule(rules, I.SHOWDOWN_WINNER, how)
    if len(rule.head) != 2:
        raise _Fails(f"{I.SHOWDOWN_WINNER} is not written as {how}")
    t, p = rule.head
    out = [a.pred for a in _atoms(rule) if a.negated and a.args == (t, p)]
    boards = [a for a in _atoms(rule) if a.pred == I.BOARD and not a.negated and len(a.args) == 2
              and a.args[0] == t and isinstance(a.args[1], Var) and a.args[1] not in (t, p)]
    want = [("atom", I.SEAT, False, (t, p)), ("atom", I.INVALID_SHOWDOWN, True, (t,))]
    if len(out) != 1 or out[0] in I.INPUTS or _steps(rule) != sorted(
            want + [("atom", out[0], True, (t, p))] + [("atom", I.BOARD, False, b.args) for b in boards[:1]], key=repr):
        raise _Fails(f"{I.SHOWDOWN_WINNER} is not written as {how}")
    inner = _one_rule(rules, out[0], "a player outdrawn by another")
    if len(inner.head) != 2:
        raise _Fails(f"{out[0]} is not written as a player outdrawn by another")
    t2, p2 = inner.head
    names = {}
    for step in inner.body:
        if hasattr(step, "args") and step.pred == I.SEAT and step.args[0] == t2 and step.args[1] != p2:
            names["q"] = step.args[1]
        if hasattr(step, "args") and step.pred == I.PLAYS and step.args[0] == p2:
            names["s"] = step.args[1]
    q, s = names.get("q"), names.get("s")
    r = next((step.args[1] for step in inner.body if hasattr(step, "args") and step.pred == I.PLAYS
              and step.args[0] == q), None)
    ok = all(isinstance(v, Var) for v in (q, s, r)) and len({v.name for v in (t2, p2, q, s, r)}) == 5
    if not ok or _steps(inner) not in ([sorted([
            ("atom", I.SEAT, False, (t2, p2)), ("atom", I.SEAT, False, (t2, q)), cmp,
            ("atom", I.PLAYS, False, (p2, s)), ("atom", I.PLAYS, False, (q, r)),
            ("atom", I.COMPARE_HANDS, False, (r, s, Const(1)))], key=repr)
            for cmp in (("cmp", "!=", q, p2), ("cmp", "!=", p2, q))]):
        raise _Fails(f"{out[0]} is not written as a player outdrawn by another: seat(T, P) & seat(T, Q) & "
                     "(Q != P) & plays(P, S) & plays(Q, R) & compareHands(R, S, 1)")
