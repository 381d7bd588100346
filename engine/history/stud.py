"""Stud hand histories (PHH ``F7S``, ``F7S/8``, ``FR``): replayed street by street, the order of
play asked of the rules.

Seven-card stud has no button and no board: each player is dealt two cards down and one up
(third street), three up (fourth to sixth), one down (seventh), a betting round after each deal.
PHH writes a player's cards in the order dealt, so which are up is their place: the third to the
sixth (:data:`UP_PLACES`).  The forced bets are antes and the bring-in (``pN pb``); the bets are
fixed: the small bet on third and fourth street, the big bet after (a completion of the bring-in
to the small bet, then raises of one bet each, four in a round at most).

Who acts first is the rules' (rules/stud.dl): ``bringsIn`` on third street, ``opens`` after it,
read off the up cards.  The replay takes the first to act on each street from the record, checks
the rest of the round against it, and keeps the street (:class:`Opening`); :func:`check_openings`
then asks the rules about every street of a chunk of hands at once, and a hand whose record
lets someone else act first is invalid, with a one-line reason.  What each player put in, who
folded and the cards are a :class:`engine.io.phhtext.Played`, paid by rules/pots.dl as any hand is.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Sequence

from engine import interface as I
from engine.core import Engine
from engine.evaluators import Ask, World
from engine.io.phhtext import MAX_UNITS, VARIANTS, HistoryError, Played, _short, _text
from engine.io.replay import (
    _SEATS,
    _UNKNOWN,
    _amounts,
    _Bad,
    _cards,
    _decimal,
    _in_units,
    _may_show,
    _places,
    _Table,
)

UP_PLACES = range(2, 6)          # a player's 3rd to 6th cards are dealt face up
CARDS = 7                        # each player's cards in all
DECK = 52                        # the cards a stud deck holds (a common card when they run out)
ROUNDS = 5                       # third to seventh street
CAP = 4                          # completions, bets and raises in a betting round at most
STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
_ASKS = (Ask(I.BRINGS_IN, (0, None)), Ask(I.OPENS, (0, None)))


@dataclass(frozen=True)
class Opening:
    """A street as the record opens it: its round (0 third street), each player's up cards
    (PHH numbers from 1; folded players left out; None for a card the record does not know),
    who could act (0-based, seat order), and who acted first (0-based)."""
    round: int
    up: tuple[tuple[int, tuple[str | None, ...]], ...]
    able: tuple[int, ...]
    first: int
    action: int                  # the record's action number (1-based), for the message
    common: bool = False         # a common card (``d db``) was dealt by then


@dataclass
class StudPlayed(Played):
    """A stud hand replayed: a Played, and its streets' openings for the rules to check."""
    openings: tuple[Opening, ...] = ()


def _unit(doc: dict, key: str, where: str) -> int | Decimal:
    value = doc.get(key)
    if value is None:
        raise HistoryError(f"{where}: a stud hand needs {key} (the fixed limit's bets)")
    return _decimal(value, f"{where}: {key}")


def replay(doc: dict, ident: Any = "hand") -> StudPlayed:
    """A stud hand's actions replayed: stakes, folds, cards, the openings of its streets;
    HistoryError (one line) when they cannot have happened.

    >>> hand = replay({"variant": "F7S", "antes": [1, 1], "bring_in": 2, "small_bet": 5,
    ...     "big_bet": 10, "starting_stacks": [100, 100], "actions": [
    ...     "d dh p1 AcAd2h", "d dh p2 KcKdQh", "p1 pb", "p2 cc", "d dh p1 3s", "d dh p2 Qs",
    ...     "p2 cbr 5", "p1 f"]})
    >>> hand.stakes, hand.folded, [(o.round, o.first) for o in hand.openings]
    ((3, 8), (0,), [(0, 0), (1, 1)])
    """
    where = f"hand {ident}"
    code = doc.get("variant")
    stacks_in = doc["starting_stacks"]
    if not isinstance(stacks_in, list) or not 2 <= len(stacks_in) <= 10:
        raise HistoryError(f"{where}: starting_stacks must list 2 to 10 players")
    n = len(stacks_in)
    stacks = [s if type(s) is int and s >= 0 or s is None else _decimal(s, f"{where}: starting_stacks[{i}]")
              for i, s in enumerate(stacks_in)]
    stacks = [None if isinstance(s, Decimal) and s.is_infinite() else s for s in stacks]
    antes = _amounts(doc, "antes", n, where) or [0] * n
    if n == 2:                                    # heads-up: the forced bets are reversed (pokerkit)
        antes = antes[::-1]
    bring_in = _decimal(doc.get("bring_in", 0), f"{where}: bring_in")
    small, big = _unit(doc, "small_bet", where), _unit(doc, "big_bet", where)
    finishing, winnings = _amounts(doc, "finishing_stacks", n, where), _amounts(doc, "winnings", n, where)
    actions = doc["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HistoryError(f"{where}: actions must be a list of strings")
    numbers = [*antes, bring_in, small, big, *(s for s in stacks if s is not None), *(finishing or ()),
               *(winnings or ())]
    places = 0 if set(map(type, numbers)) <= {int} else max(map(_places, numbers), default=0)
    scale = 10 ** min(places, 6)

    def bad(why: str) -> HistoryError:
        return HistoryError(f"{where}: {why}")

    def units(amounts: list[int | Decimal]) -> list[int]:
        return _in_units(amounts, scale, bad)

    known = iter(units([s for s in stacks if s is not None]))
    start = [_UNKNOWN if s is None else next(known) for s in stacks]
    bring, small_u, big_u = units([bring_in, small, big])
    table = _Table(n, start, scale)
    for p, x in enumerate(units(antes)):
        if x:
            table.pay(p, x, ante=True)
    hole: list[list[str | None]] = [[] for _ in range(n)]
    board: list[str] = []                         # common cards: dealt when the deck runs out
    dealt: set[str] = set()
    shown: list[list[str | None] | None] = [None] * n
    openings: list[Opening] = []
    round_no, betting, raises, completing = 0, False, 0, False
    seats = _SEATS[n]

    def runout() -> bool:
        """No more betting: every player still in but at most one is all in, nothing owed."""
        return table.in_hand > 1 and not table.to_act and len(table.can_act()) <= 1

    def live() -> list[int]:
        return [q for q in range(n) if q not in table.folded]

    for k, raw in enumerate(actions, 1):
        text = (raw.split("#", 1)[0] if "#" in raw else raw).split()
        if not text:
            continue
        try:
            actor, verb, args = text[0], (text[1] if len(text) > 1 else ""), text[2:]
            if actor == "d":
                if verb == "db":               # the deck runs out: one card for every player, face up
                    _common(table, hole, board, args, dealt, round_no if not runout() else None)
                    continue
                if verb != "dh" or len(args) != 2 or args[0] not in seats:
                    raise _Bad("cannot read the dealer's action" if verb != "dh" or len(args) != 2
                               else f"there is no player {args[0]}")
                p = seats[args[0]]
                if p in table.folded:
                    raise _Bad(f"{args[0]} is dealt a card after folding")
                if table.to_act:
                    raise _Bad(f"a card is dealt while p{table.to_act[0] + 1} is to act")
                cards = _cards(args[1])
                allowed = (CARDS if runout() else 3 + round_no) - len(board)
                if len(hole[p]) + len(cards) > allowed:
                    raise _Bad(f"{args[0]} is dealt more than {allowed} cards by {STREETS[min(allowed, 7) - 3]} street"
                               if allowed < CARDS else f"{args[0]} holds more than {CARDS} cards")
                for c in cards:
                    if c is not None:
                        if c in dealt:
                            raise _Bad(f"the card {c} is dealt twice")
                        dealt.add(c)
                hole[p] += cards
                continue
            p = seats.get(actor, -1)
            if p < 0:
                raise _Bad(f"unknown actor {actor!r}" if actor[:1] != "p" or not actor[1:].isdigit()
                           else f"there is no player {actor}")
            if verb in ("cc", "f", "cbr", "pb"):
                if (verb == "cbr") != (len(args) == 1) or len(args) > 1:
                    raise _Bad("cannot read the action")
                if not betting:
                    if round_no >= ROUNDS:
                        raise _Bad(f"p{p + 1} bets after the last betting round")
                    short = [q for q in live() if len(hole[q]) + len(board) < 3 + round_no]
                    if short:
                        raise _Bad(f"betting before p{short[0] + 1} is dealt his {STREETS[round_no]} street card")
                    table.open_round(p)
                    able = tuple(table.to_act)
                    up = tuple((q + 1, tuple(c for i, c in enumerate(hole[q]) if i in UP_PLACES))
                               for q in live())
                    openings.append(Opening(round_no, up, able, p, k, bool(board)))     # type: ignore[arg-type]
                    betting, raises, completing = True, 0, round_no == 0 and bring > 0
                    if verb == "pb" and not completing:
                        raise _Bad(f"p{p + 1} posts a bring-in on {STREETS[round_no]} street"
                                   + ("" if round_no == 0 else ": only third street has one"))
                    if completing and verb in ("cc", "f"):
                        raise _Bad(f"p{p + 1} must bring in (pb) or complete, not {'call' if verb == 'cc' else 'fold'}")
                elif verb == "pb":
                    raise _Bad(f"p{p + 1} posts a bring-in, which only the first to act on third street does")
                amount = None
                if verb == "cbr":
                    a = args[0]
                    amount = int(a) * scale if a.isascii() and a.isdigit() else \
                        _in_units([_decimal(a, "the amount", bad=_Bad)], scale, _Bad, _UNKNOWN)[0]
                    if raises >= CAP:
                        raise _Bad(f"p{p + 1} raises a fifth time; fixed limit allows {CAP} bets a round")
                    unit = small_u if round_no < 2 else big_u
                    want = small_u if completing else table.top + unit
                    want = min(want, table.stack[p] + table.bet[p])
                    if amount != want:
                        raise _Bad(f"p{p + 1} raises to {_text(amount, scale)}; the fixed limit makes it "
                                   f"{_text(want, scale)}")
                    raises += 1
                    completing = False
                if verb == "pb":
                    _bring_in(table, p, bring)
                else:
                    table.act(p, verb, amount)
                if not table.to_act:
                    table.close_round()
                    round_no, betting = round_no + 1, False
            elif verb == "sm":
                _may_show(table, p, n, args)
                if not args:
                    table.mucked.add(p)
                elif args[0] == "-":
                    shown[p] = list(hole[p])
                else:
                    cards = _cards(args[0])
                    if len(cards) != len(hole[p]) or any(c is not None and d is not None and c != d
                                                         for c, d in zip(cards, hole[p])):
                        raise _Bad(f"p{p + 1} shows {args[0]}, not the cards he was dealt")
                    new = [c for c, d in zip(cards, hole[p]) if d is None and c is not None]
                    if any(c in dealt for c in new):
                        raise _Bad(f"p{p + 1} shows a card dealt elsewhere")
                    dealt.update(new)                     # type: ignore[arg-type]
                    shown[p] = list(cards)
            elif verb == "sd":
                raise _Bad(f"a draw in {code}, which has none")
            else:
                raise _Bad(f"unknown action {_short(verb)!r}")
        except _Bad as exc:
            raise HistoryError(f"{where}, action {k} ({_short(raw.strip())!r}): {exc}") from None

    folded = sorted(table.folded | table.mucked)
    still = tuple(p for p in range(n) if p not in folded)
    over = len(still) == 1 or ((round_no >= ROUNDS or runout()) and not betting
                               and all(len(hole[p]) + len(board) == CARDS for p in still))
    finals: list[tuple[str, ...] | None] = []
    for p in range(n):
        cards = shown[p] if shown[p] is not None else hole[p]
        finals.append(tuple(cards) if len(cards) + len(board) == CARDS and None not in cards  # type: ignore[arg-type]
                      else None)
    if max(table.put) > MAX_UNITS:
        raise bad(f"the amount {_text(max(table.put), scale)} is finer than a millionth, or too large")
    names = tuple(str(x) for x in doc.get("players", [])) or tuple(f"p{i + 1}" for i in range(n))
    return StudPlayed(ident, code, names, scale, tuple(None if s is None else x for s, x in zip(stacks, start)),
                      tuple(table.put), tuple(table.ante), tuple(tuple(r) for r in table.rounds if any(r)),
                      tuple(folded), still, tuple(finals), tuple(board), over,
                      tuple(units(finishing)) if finishing else None,
                      tuple(units(winnings)) if winnings else None, openings=tuple(openings))


def _common(table: _Table, hole: list[list[str | None]], board: list[str], args: list[str], dealt: set[str],
            street: int | None) -> None:
    """A common card (``d db``), as pokerkit deals it: in place of a street's card, when the
    cards not in the live players' hands (the deck, the burnt and the mucked) are fewer than the
    players to deal to (eight players on seventh street); every player's own card, face up."""
    live = [q for q in range(table.n) if q not in table.folded]
    if table.to_act or len(args) != 1:
        raise _Bad("cannot read the dealer's action" if len(args) != 1 else
                   f"a card is dealt while p{table.to_act[0] + 1} is to act")
    cards = _cards(args[0])
    if len(cards) != 1 or None in cards:
        raise _Bad("a common card is one known card")
    held = {len(hole[q]) for q in live}
    if len(held) != 1 or (street is not None and held != {2 + street - len(board)}) or min(held) + len(board) < 3:
        raise _Bad("a common card is dealt in place of a street's cards, before any player has his")
    left = DECK - sum(len(hole[q]) for q in live) - len(board)
    if len(live) <= left:
        raise _Bad(f"a common card, but {left} cards are left for the {len(live)} players")
    if cards[0] in dealt:
        raise _Bad(f"the card {cards[0]} is dealt twice")
    dealt.add(cards[0])                           # type: ignore[arg-type]
    board.append(cards[0])                        # type: ignore[arg-type]


def _bring_in(table: _Table, p: int, amount: int) -> None:
    """The bring-in posted by the first to act: a bet the others call, fold or complete."""
    if not table.to_act or table.to_act[0] != p:
        raise _Bad(f"p{p + 1} acts out of turn" + (f" (p{table.to_act[0] + 1} is to act)" if table.to_act else ""))
    table.pay(p, amount)
    table.to_act = [q for q in ((p + i) % table.n for i in range(1, table.n))
                    if q not in table.folded and table.stack[q] > 0]
    if table.in_hand == 1:
        table.to_act = []


def openers(engine: "Engine", game: str, streets: Sequence[Opening]) -> list[int | None]:
    """Who opens each street, as the rules say (0-based; None when they name no one): bringsIn on
    third street, opens after, asked about every street at once (its up cards all known)."""
    code = engine.games[game]
    worlds = [World((), board=(), game=code,
                    chips=tuple((I.UP_CARD, (0, q, c)) for q, cards in s.up for c in engine.cards(" ".join(cards))))
              for s in streets]
    out: list[int | None] = []
    for s, answers in zip(streets, engine.evaluator(worlds).answers(worlds, _ASKS) if worlds else []):
        rows = answers[_ASKS[0] if s.round == 0 else _ASKS[1]]
        out.append(rows[0][1] - 1 if len(rows) == 1 else None)
    return out


def check_openings(engine: "Engine", hands: Sequence[Any]) -> None:
    """Each stud hand's streets checked against the rules: the first to act must be the rules'
    opener, or the first after him in seat order who can act; a hand whose record has another
    act first fails as invalid (``hand.fail``), naming the street and the rules' player.  A
    street where some player's up card is not known (``????``) cannot be asked: the hand's notes
    say so, and its pots are paid as the record plays them."""
    asked: list[tuple[Any, Opening]] = []
    for h in hands:
        for s in h.played.openings:
            unknown = [q for q, cards in s.up if None in cards]
            if s.common:             # the rules' openers read up cards, not a common card: not asked
                h.played.notes.append(f"who acts first on {STREETS[s.round]} street is not checked: "
                                      "a common card was dealt")
            elif unknown:              # the rules cannot be asked: said in the record's notes
                h.played.notes.append(f"who acts first on {STREETS[s.round]} street is not checked: "
                                      + " and ".join(f"p{q}'s" for q in unknown) + " up cards are not known")
            else:
                asked.append((h, s))
    by_game: dict[str, list[int]] = {}
    for i, (h, _) in enumerate(asked):
        by_game.setdefault(VARIANTS[h.played.variant].game, []).append(i)
    for game, idx in by_game.items():
        for i, who in zip(idx, openers(engine, game, [asked[i][1] for i in idx])):
            h, s = asked[i]
            if h.status != "judged":
                continue
            rule = "bringsIn" if s.round == 0 else "opens"
            if who is None:
                h.fail("invalid", f"hand {h.ident}: the rules name no one to act first on {STREETS[s.round]} "
                                  f"street ({rule})")
                continue
            n = len(h.played.stakes)
            first = next((q for q in ((who + j) % n for j in range(n)) if q in s.able), None)
            if first != s.first:
                what = "brings in" if s.round == 0 else "opens by the up cards"
                h.fail("invalid", f"hand {h.ident}, action {s.action}: p{s.first + 1} acts first on "
                                  f"{STREETS[s.round]} street, but p{who + 1} {what} ({rule})"
                                  + (f" and p{first + 1} is the first who can act" if first != who else ""))
