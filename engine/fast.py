"""The fast path: the rules' answers materialised per class of hands, used only where sound.

Asking the rules about a hand costs milliseconds.  But a rule set that looks at card ids only
through getValue and getSuit, compares ids only for equality, and looks at suits only through
isFlush gives every hand with the same values and the same isFlush the same answers.  The 2,598,960
hands fall into 7,462 such classes; the rules are asked once per class (on a representative hand)
and the answers are kept in a table, cached on disk by the rule set's content.

Whether a loaded rule set has those properties is decided here, statically, from its clauses
(`analyse`), plus one semantic check (isFlush over every suit vector).  Fights are judged from the
table only when the comparator clauses (beatRank, beat, compareSetCard's key machinery) are the
standard ones, which compare two hands by their keys (`handKey`); tie-break *parts* (keyPart, part)
and ranks may be edited freely.  Anything else falls back to asking the rules, hand by hand.
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import json
import multiprocessing
import os
import tempfile
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Iterable, Sequence

from . import loader, rulesets
from .core import Engine, Var

FORMAT = 1   # bump when what is cached changes

# The Card context: the interpretation of ids.  Outside it, ids are opaque.
CARD_CONTEXT = {"isCard", "getSuit", "getValue", "cardId", "suitName", "suitSymbol",
                "valueName", "valueSymbol"}
# Argument positions that hold ids (sets, input positions, cards, tables): opaque everywhere.
OPAQUE_SEEDS = {"declared": {0}, "holds": {0, 1, 2}, "seat": {0, 1}, "getValue": {0},
                "getSuit": {0}, "isCard": {0}}
RANK_TARGETS = ("isHand", "getRank", "handKey", "keyPart", "categoryName")
# The clauses that turn per-hand keys into verdicts; fights use the table only when they are
# exactly the standard ones.
COMPARATOR = ("validFighting", "shareCard", "beatRank", "beat", "handKey", "partDecides",
              "partDecidesAny", "decidingPart", "comparePart", "samePartSize", "keyDiff",
              "keyDiffers", "firstKeyDiff", "partKey", "partCount", "partAtLeast", "partHas",
              "partAce", "partSize", "upTo", "beaten", "invalidTable", "winner")


# --------------------------------------------------------------------------------------------
# Static analysis


@dataclass
class _Atom:
    pred: str
    args: list[ast.expr]


@dataclass
class _Shape:
    """A clause taken apart: its atoms (head first), comparisons and aggregates."""
    clause: loader.Clause
    atoms: list[_Atom] = field(default_factory=list)
    compares: list[tuple[ast.cmpop, ast.expr, ast.expr]] = field(default_factory=list)
    aggregates: list[tuple[str, ast.expr, list[ast.expr]]] = field(default_factory=list)

    @property
    def head(self) -> str:
        return self.clause.head

    def body_preds(self) -> set[str]:
        return {a.pred for a in self.atoms[1:]}


_RESULT = ast.Constant(value=None)   # stands for an aggregate's value in the head atom


def _shape(clause: loader.Clause) -> _Shape:
    shape = _Shape(clause)
    node = clause.node
    if isinstance(node, ast.Call):
        shape.atoms.append(_Atom(node.func.id, list(node.args)))
        return shape
    head, body = node.left, node.comparators[0]
    if isinstance(head, ast.Call):
        shape.atoms.append(_Atom(head.func.id, list(head.args)))
    else:                                     # (f[keys] == aggregate(X, order_by=...))
        agg = head.comparators[0]
        shape.atoms.append(_Atom(head.left.value.id, _keys(head.left) + [_RESULT]))
        order = [v for kw in agg.keywords for v in
                 (kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else [kw.value])]
        shape.aggregates.append((loader.AGGREGATES[agg.func.id], agg.args[0], order))
    _walk_body(body, shape)
    return shape


def _keys(sub: ast.Subscript) -> list[ast.expr]:
    return list(sub.slice.elts) if isinstance(sub.slice, ast.Tuple) else [sub.slice]


def _walk_body(node: ast.expr, shape: _Shape) -> None:
    if isinstance(node, ast.BinOp):
        _walk_body(node.left, shape)
        _walk_body(node.right, shape)
    elif isinstance(node, ast.UnaryOp):
        _walk_body(node.operand, shape)
    elif isinstance(node, ast.Call):
        shape.atoms.append(_Atom(node.func.id, list(node.args)))
    elif isinstance(node, ast.Compare):
        left, right, op = node.left, node.comparators[0], node.ops[0]
        for side, other in ((left, right), (right, left)):
            if isinstance(side, ast.Subscript):          # f[keys] == value: an atom of f
                if isinstance(op, ast.Eq) and isinstance(other, (ast.Name, ast.Constant)):
                    shape.atoms.append(_Atom(side.value.id, _keys(side) + [other]))
                    return
                shape.atoms.append(_Atom(side.value.id, _keys(side) + [_RESULT]))
        shape.compares.append((op, left, right))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _var(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) and loader.VARIABLE.match(node.id) else None


def _opaque_positions(shapes: list[_Shape]) -> dict[str, set[int]]:
    """Positions that hold ids, by propagation from the input facts through the clauses."""
    positions = {p: set(s) for p, s in OPAQUE_SEEDS.items()}
    changed = True
    while changed:
        changed = False
        for shape in shapes:
            if shape.head in CARD_CONTEXT:
                continue
            opaque = _opaque_vars(shape, positions)
            for atom in shape.atoms:
                for i, arg in enumerate(atom.args):
                    if _var(arg) in opaque and i not in positions.setdefault(atom.pred, set()):
                        positions[atom.pred].add(i)
                        changed = True
    return positions


def _opaque_vars(shape: _Shape, positions: dict[str, set[int]]) -> set[str]:
    return {_var(a) for atom in shape.atoms for i, a in enumerate(atom.args)
            if i in positions.get(atom.pred, ()) and _var(a)}


def _id_violations(shape: _Shape, positions: dict[str, set[int]]) -> list[str]:
    """How a clause outside the Card context looks at ids other than by identity."""
    where = f"{shape.clause.where} ({shape.clause.label})"
    opaque = _opaque_vars(shape, positions)
    found = []
    for atom in shape.atoms:
        for i, arg in enumerate(atom.args):
            if i in positions.get(atom.pred, ()) and arg is not _RESULT and not _var(arg):
                found.append(f"{where}: a constant or expression where {atom.pred} takes an id")
            if not isinstance(arg, ast.Name) and _names(arg) & opaque:
                found.append(f"{where}: arithmetic on an id")
    for op, left, right in shape.compares:
        sides = [_var(left), _var(right)]
        if (_names(left) | _names(right)) & opaque:
            if not (isinstance(op, (ast.Eq, ast.NotEq)) and all(s in opaque for s in sides)):
                found.append(f"{where}: an id compared other than for (in)equality with an id")
    for agg, var, order in shape.aggregates:
        if _var(var) in opaque and agg != "len_":
            found.append(f"{where}: {agg} over ids")
        if any(_names(o) & opaque for o in order):
            found.append(f"{where}: ids ordered in an aggregate")
    return found


def _card_context_violations(shape: _Shape) -> list[str]:
    """getValue, getSuit and isCard must be functions of the id alone (for ids that are cards)."""
    if shape.head not in ("getValue", "getSuit", "isCard"):
        return []
    outside = shape.body_preds() - CARD_CONTEXT
    if not outside:
        return []
    head_id = shape.atoms[0].args[0] if shape.atoms[0].args else None
    guarded = shape.head != "isCard" and _var(head_id) is not None and any(
        isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Invert) and n.operand.func.id == "isCard"
        and n.operand.args and _var(n.operand.args[0]) == _var(head_id)
        for n in ast.walk(shape.clause.node))
    if guarded:
        return []
    return [f"{shape.clause.where} ({shape.clause.label}): {shape.head} of a card depends on "
            f"{', '.join(sorted(outside))}"]


def _closure(graph: dict[str, set[str]], start: Iterable[str]) -> set[str]:
    seen, todo = set(), list(start)
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo.extend(graph.get(p, ()))
    return seen


@dataclass
class Soundness:
    """Why the table may not stand for the rules (empty lists: it may)."""
    ranks: list[str]      # for a hand's isHand, rank and key
    fights: list[str]     # for judging fights by keys

    @property
    def ranks_ok(self) -> bool:
        return not self.ranks

    @property
    def fights_ok(self) -> bool:
        return not self.ranks and not self.fights


def analyse(ruleset: rulesets.RuleSet, standard: rulesets.RuleSet | None = None) -> Soundness:
    """Decide statically whether per-class answers are the rules' answers for this rule set."""
    # Only what the answers depend on matters (other rule files, e.g. roles, may do as they like).
    shapes = [_shape(c) for c in relevant_clauses(ruleset)]
    graph: dict[str, set[str]] = {}
    for shape in shapes:
        graph.setdefault(shape.head, set()).update(shape.body_preds())
    positions = _opaque_positions(shapes)
    ranks: list[str] = []
    for shape in shapes:
        if shape.head not in CARD_CONTEXT:
            ranks += _id_violations(shape, positions)
        ranks += _card_context_violations(shape)
    # Suits may reach the answers only through isFlush: walk the graph with isFlush as a leaf.
    beside_flush = {p: (set() if p == "isFlush" else body) for p, body in graph.items()}
    for target in RANK_TARGETS + ("beat", "winner"):
        if target == "getSuit" or "getSuit" in _closure(beside_flush, graph.get(target, ())):
            ranks.append(f"{target} depends on suits other than through isFlush")
    if "getValue" in _closure(graph, graph.get("isFlush", ())):
        ranks.append("isFlush depends on values")
    fights: list[str] = []
    standard = standard or rulesets.resolve(rulesets.DEFAULT_RULES)
    for pred in COMPARATOR:
        mine = [(c.label, ast.dump(c.node)) for c in ruleset.clauses if c.head == pred]
        theirs = [(c.label, ast.dump(c.node)) for c in standard.clauses if c.head == pred]
        if mine != theirs:
            fights.append(f"the clauses of {pred} differ from the standard comparator")
    return Soundness(sorted(set(ranks)), fights)


# --------------------------------------------------------------------------------------------
# Classes of hands and the table


ClassKey = tuple[tuple[int, ...], bool]          # (values sorted, flush)


@dataclass(frozen=True)
class Entry:
    """The rules' answers for one class: isHand, getRank, handKey (values in key order)."""
    is_hand: bool
    rank: int | None
    key: tuple[int, ...]
    key_shape: tuple[tuple[int, int], ...]       # the (order, index) of each key value


# What a table entry is made of: the card table, isFlush (checked), isHand, getRank, handKey.
ENTRY_SOURCES = ("cardId", "isCard", "getValue", "getSuit", "isFlush", "isHand", "getRank", "handKey")


def relevant_clauses(ruleset: rulesets.RuleSet, targets: Sequence[str] = RANK_TARGETS + COMPARATOR
                     ) -> list[loader.Clause]:
    """The clauses that answers about the targets can depend on (those reachable from them)."""
    graph: dict[str, set[str]] = {}
    for clause in ruleset.clauses:
        graph.setdefault(clause.head, set()).update(_shape(clause).body_preds())
    relevant = _closure(graph, targets)
    return [c for c in ruleset.clauses if c.head in relevant]


def fingerprint(ruleset: rulesets.RuleSet) -> str:
    """What the cached entries depend on: the clauses they reach, in order, and this code's format."""
    h = hashlib.sha256(f"format {FORMAT}\n".encode())
    for c in relevant_clauses(ruleset, ENTRY_SOURCES):
        h.update(f"{c.label}\n{ast.dump(c.node)}\n".encode())
    return h.hexdigest()[:24]


def cache_dir() -> Path:
    base = os.environ.get("POKER_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "poker-engine")
    return Path(base)


class Table:
    """The rules' answers per class of hands, for one engine, and the judge that uses them."""

    def __init__(self, engine: Engine, workers: int | None = None, cache: bool = True):
        self.engine = engine
        self.soundness = analyse(engine.ruleset)
        self.workers = workers if workers is not None else min(2, os.cpu_count() or 1)
        self.fingerprint = fingerprint(engine.ruleset)
        self.path = cache_dir() / f"{self.fingerprint}.json" if cache else None
        self.entries: dict[ClassKey, Entry] = {}
        self.cards: dict[int, tuple[int, int]] = {}   # id -> (value, suit), by the rules
        self.by_value_suit: dict[tuple[int, int], int] = {}   # its inverse
        self.suits: list[int] = []
        self.flush_ok: bool | None = None
        self.problems: list[str] = list(self.soundness.ranks)
        if self.soundness.ranks_ok:
            self._load_cards()
            self._load_cache()
            if self.flush_ok is None:
                self.flush_ok = self._check_flush()
                self._save_cache()
            if not self.flush_ok:
                self.problems.append("isFlush is not 'all five cards share a suit'")

    @property
    def usable(self) -> bool:
        return not self.problems

    @property
    def fights_sound(self) -> bool:
        """The analysis allows judging fights by keys (still to confirm: key shapes per rank)."""
        return self.usable and self.soundness.fights_ok

    @property
    def fights_usable(self) -> bool:
        return self.fights_sound and self._shapes_consistent()

    # ---- the card table and the isFlush check -------------------------------------------

    def _load_cards(self) -> None:
        eng = self.engine
        for cid, _, _ in eng.ask("cardId", Var("C"), Var("V"), Var("S")):
            if not eng.holds("isCard", cid):
                continue
            value = eng.ask_one("getValue", cid, Var("V"))
            suit = eng.ask_one("getSuit", cid, Var("S"))
            if value is not None and suit is not None:
                self.cards[cid] = (value, suit)
        self.by_value_suit = {vs: cid for cid, vs in sorted(self.cards.items())}
        self.suits = sorted({s for _, s in self.cards.values()})

    def _check_flush(self) -> bool:
        """isFlush, asked of hands of every suit vector, is true exactly when the suits agree."""
        lookup = self.by_value_suit
        values = sorted({v for v, _ in self.cards.values()})
        for vector in itertools.product(self.suits, repeat=5):
            hand, used = [], set()
            for s in vector:
                v = next((v for v in values if v not in used and (v, s) in lookup), None)
                if v is None:
                    return False
                used.add(v)
                hand.append(lookup[(v, s)])
            if self.engine.is_flush(hand) != (len(set(vector)) == 1):
                return False
        return True

    # ---- classes ------------------------------------------------------------------------

    def class_of(self, ids: Sequence[int]) -> ClassKey | None:
        """The class of five distinct card ids, or None when the table cannot speak for them."""
        if len(ids) != 5 or len(set(ids)) != 5:
            return None
        try:
            vs = [self.cards[c] for c in ids]
        except KeyError:
            return None
        return tuple(sorted(v for v, _ in vs)), len({s for _, s in vs}) == 1

    def all_classes(self) -> dict[ClassKey, int]:
        """Every class with the number of hands in it (for `poker check`)."""
        per_value = Counter(v for v, _ in self.cards.values())
        suits_of: dict[int, set[int]] = {}
        for v, s in self.cards.values():
            suits_of.setdefault(v, set()).add(s)
        out: dict[ClassKey, int] = {}
        for combo in itertools.combinations_with_replacement(sorted(per_value), 5):
            counts = Counter(combo)
            if any(n > per_value[v] for v, n in counts.items()):
                continue
            total = 1
            for v, n in counts.items():
                total *= comb(per_value[v], n)
            flushes = len(set.intersection(*(suits_of[v] for v in combo))) if len(counts) == 5 else 0
            if flushes:
                out[(combo, True)] = flushes
            if total - flushes:
                out[(combo, False)] = total - flushes
        return out

    def representative(self, key: ClassKey) -> list[int]:
        values, flush = key
        lookup, suits = self.by_value_suit, self.suits
        if flush:
            suit = next(s for s in suits if all((v, s) in lookup for v in values))
            return [lookup[(v, suit)] for v in values]
        # Not a flush: take each value's suits in turn, and start the first card on another suit
        # than the last one when all values differ.
        for shift in range(len(suits)):
            hand, taken = [], Counter()
            for i, v in enumerate(values):
                options = [s for s in suits if (v, s) in lookup]
                s = options[(taken[v] + (shift if i == 0 else 0)) % len(options)]
                taken[v] += 1
                hand.append(lookup[(v, s)])
            if len(set(hand)) == 5 and len({self.cards[c][1] for c in hand}) > 1:
                return hand
        raise ValueError(f"no non-flush hand for values {values}")

    # ---- filling the table --------------------------------------------------------------

    def ensure(self, keys: Iterable[ClassKey], progress=None) -> None:
        """Ask the rules about every class not yet in the table (in parallel when many)."""
        missing = sorted(set(keys) - set(self.entries))
        if not missing:
            return
        if self.workers > 1 and len(missing) > 400 and "fork" in multiprocessing.get_all_start_methods():
            # Forked workers inherit this engine: no rule files are reread, no module re-imported.
            global _worker_engine
            _worker_engine = self.engine
            chunks = [missing[i::self.workers * 8] for i in range(self.workers * 8)]
            hands = [[self.representative(k) for k in chunk] for chunk in chunks]
            ctx = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(self.workers, mp_context=ctx) as pool:
                for chunk, results in zip(chunks, pool.map(_worker_run, hands)):
                    for k, entry in zip(chunk, results):
                        self.entries[k] = entry
                    if progress:
                        progress(len(chunk))
        else:
            for k in missing:
                self.entries[k] = evaluate(self.engine, self.representative(k))
                if progress:
                    progress(1)
        self._save_cache()

    def _shapes_consistent(self) -> bool:
        """Hands of one rank must have keys of one shape, or keys do not compare as the rules do."""
        shapes: dict[int | None, set] = {}
        for e in self.entries.values():
            shapes.setdefault(e.rank, set()).add(e.key_shape)
        return all(len(s) == 1 for s in shapes.values())

    # ---- cache --------------------------------------------------------------------------

    def _load_cache(self) -> None:
        if not self.path or not self.path.exists():
            return
        try:
            data = json.loads(self.path.read_text())
            if data.get("fingerprint") != self.fingerprint:
                return
            self.flush_ok = data.get("flush_ok")
            for values, flush, is_hand, rank, key, shape in data["entries"]:
                self.entries[(tuple(values), flush)] = Entry(is_hand, rank, tuple(key),
                                                             tuple(map(tuple, shape)))
        except (OSError, ValueError, KeyError, TypeError):
            self.entries.clear()        # a damaged cache is only a slower start

    def _save_cache(self) -> None:
        if not self.path:
            return
        data = {"fingerprint": self.fingerprint, "rules": self.engine.ruleset.name,
                "flush_ok": self.flush_ok,
                "entries": [[list(k[0]), k[1], e.is_hand, e.rank, list(e.key), [list(p) for p in e.key_shape]]
                            for k, e in sorted(self.entries.items())]}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, json.dumps(data))
        except OSError:
            pass                        # no cache directory: answers are the same, only slower


def evaluate(engine: Engine, hand: list[int]) -> Entry:
    """Ask the rules about one hand: isHand, getRank, handKey."""
    with engine.sets(hand) as (sid,):
        is_hand = engine.holds("isHand", sid)
        ranks = {r[0] for r in engine.ask("getRank", sid, Var("R"))}
        rows = sorted(engine.ask("handKey", sid, Var("O"), Var("I"), Var("V")))
    rank = ranks.pop() if len(ranks) == 1 else None
    return Entry(is_hand, rank, tuple(v for _, _, v in rows), tuple((o, i) for o, i, _ in rows))


_worker_engine: Engine | None = None


def _worker_run(hands: list[list[int]]) -> list[Entry]:
    assert _worker_engine is not None
    return [evaluate(_worker_engine, h) for h in hands]


def atomic_write(path: Path, text: str) -> None:
    """Write a file so that a reader sees the old content or the new, never half of it."""
    fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
