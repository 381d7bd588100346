"""The interface between the rules and Python, declared once.

The engine asserts the input facts; the rules define everything else.  Every module that asserts
facts or asks the rules names the predicates through this module, never as strings of its own.

>>> INPUTS["holds"]
('set', 'position', 'card')
>>> sorted(INPUTS)
['ante', 'bet', 'board', 'candidate', 'declared', 'folded', 'game', 'holds', 'potHigh', 'potLow', 'seat', 'unshown',
 'upCard']
"""

from __future__ import annotations

from typing import Any, Final, Iterator, Protocol, Sequence

# Input facts: predicate -> the meaning of each argument.  The rules read them, never define them.
DECLARED: Final = "declared"      # declared(S): S names a set of cards
HOLDS: Final = "holds"            # holds(S, I, C): the I-th card given for S is the id C
SEAT: Final = "seat"              # seat(T, S): the set S sits at the table T (an N-hand fight)
BOARD: Final = "board"            # board(T, B): the set B is the board of table T (a showdown)
GAME: Final = "game"              # game(T, G): table T plays the game G (gameName)
CANDIDATE: Final = "candidate"    # candidate(P, S): S is a five drawn from P's cards and the board
# A hand history's chips (rules/pots.dl): amounts in the hand's smallest unit, exact integers.
ANTE: Final = "ante"              # ante(T, P, X): player P of hand T put X in as an ante
BET: Final = "bet"                # bet(T, P, S, X): P put X in on betting round S (1, 2 …)
FOLDED: Final = "folded"          # folded(T, P): P folded or mucked, and so forfeits what he put in
POT_HIGH: Final = "potHigh"       # potHigh(T, L, P): P's hand is the best of those who contest pot L
POT_LOW: Final = "potLow"         # potLow(T, L, P): P's low is the best qualifying low among them
UNSHOWN: Final = "unshown"        # unshown(T, P): P is in at the showdown and his cards were not shown
# A stud hand's street (rules/stud.dl): the up cards, with game(T, G) and folded(T, P).
UP_CARD: Final = "upCard"         # upCard(T, P, C): player P of hand T has the card C face up
INPUTS: Final[dict[str, tuple[str, ...]]] = {
    DECLARED: ("set",),
    HOLDS: ("set", "position", "card"),
    SEAT: ("table", "set"),
    BOARD: ("table", "set"),
    GAME: ("table", "game"),
    CANDIDATE: ("player", "set"),
    ANTE: ("table", "player", "amount"),
    BET: ("table", "player", "round", "amount"),
    FOLDED: ("table", "player"),
    POT_HIGH: ("table", "level", "player"),
    POT_LOW: ("table", "level", "player"),
    UNSHOWN: ("table", "player"),
    UP_CARD: ("table", "player", "card"),
}
# The inputs given as World.chips (not sets of cards): a hand history's chips, a stud street's up cards.
CHIPS: Final = (ANTE, BET, FOLDED, POT_HIGH, POT_LOW, UNSHOWN, UP_CARD)

# Predicates the engine asks.
IS_CARD: Final = "isCard"
GET_SUIT: Final = "getSuit"
GET_VALUE: Final = "getValue"
CARD_ID: Final = "cardId"
CARD_SYMBOL: Final = "cardSymbol"    # cardSymbol(C, Symbol, Order): a card written as one symbol (the joker)
VALUE_SYMBOL: Final = "valueSymbol"
SUIT_SYMBOL: Final = "suitSymbol"
RANGE_ORDER: Final = "rangeOrder"    # rangeOrder(V, O): value V's place in range notation (QQ+, T9s-65s)
VALUE_NAME: Final = "valueName"
CATEGORY_NAME: Final = "categoryName"
IS_HAND: Final = "isHand"
HAND_SIZE: Final = "handSize"        # handSize(N): a hand holds N cards
GET_RANK: Final = "getRank"
HAND_KEY: Final = "handKey"          # handKey(S, Order, Index, Value): a hand's tie-break key
ONE_VALUE: Final = "oneValue"        # oneValue(P): P gives a set one value at most (its last argument)
WHY_NOT_HAND: Final = "whyNotHand"
WHY_NOT_FIGHT: Final = "whyNotFight"
BEAT: Final = "beat"                 # beat(A, B, R): the spec's fight of two hands
BEAT_RANK: Final = "beatRank"        # beatRank(A, B, R): the fight decided by rank alone
WINNER: Final = "winner"             # winner(T, H): the hands at table T that no other beats
INVALID_TABLE: Final = "invalidTable"
COMPARE_HANDS: Final = "compareHands"  # compareHands(A, B, R): beat's order, fight or not
RANK_ORDER: Final = "rankOrder"      # rankOrder(A, B, R): what getRank says of two hands
# Showdowns (rules/showdown.dl): more than five cards, a board, a game.
GAME_NAME: Final = "gameName"        # gameName(G, Name)
HOLE_CARDS: Final = "holeCards"      # holeCards(G, N): each player's own cards in game G
USES_OWN: Final = "usesOwn"          # usesOwn(G, N): exactly N of a player's own cards play in game G
BOARD_CARDS: Final = "boardCards"    # boardCards(N): a board may hold N cards
NO_BOARD: Final = "noBoard"          # noBoard(G): game G has no board (stud: seven cards each)
PLAYS: Final = "plays"               # plays(P, S): the five S is player P's hand
MAY_PLAY: Final = "mayPlay"          # mayPlay(P, S): the five S may be player P's hand
SHOWDOWN_WINNER: Final = "showdownWinner"
INVALID_SHOWDOWN: Final = "invalidShowdown"
WHY_NOT_SHOWDOWN: Final = "whyNotShowdown"  # whyNotShowdown(T, S, Why)
WHY_NOT_SEAT: Final = "whyNotSeat"   # whyNotSeat(T, P, Why): a player's own cards cannot play (optional)
# Split pots (engine/judging/hilo.py): optional.
SPLIT_LOW: Final = "splitLow"        # splitLow(G, RuleSet): game G halves the pot with a low judged by RuleSet
QUALIFYING_RANK: Final = "qualifyingRank"  # qualifyingRank(R): a low of rank R takes the low half
# Pots (rules/pots.dl): what a hand history's chips come to.
RETURNED: Final = "returned"      # returned(T, P, X): the part of P's stake no one matched, given back
CONTESTS: Final = "contests"      # contests(T, L, P): P contests the pot of level L
POT_AMOUNT: Final = "potAmount"   # potAmount(T, L, X): the pot of level L holds X
AWARD: Final = "award"            # award(T, L, Half, P, X): P takes X of pot L (Half 1 high, 2 low)
SHOWS: Final = "shows"            # shows(T, L, P): P's hand is in the showdown of pot L (shown)
UNJUDGED: Final = "unjudged"      # unjudged(T, L): pot L has a showdown and no hand shown in it
# Stud (rules/stud.dl): who acts first on a street.
BRINGS_IN: Final = "bringsIn"     # bringsIn(T, P): P brings in on third street
OPENS: Final = "opens"            # opens(T, P): P's showing hand opens a later street

# What the engine asks of a batch (verdicts, ranks, keys, reasons): the calls that narrowing
# serves in the compiled program (engine.datalog.passes.restrict).
ASKED: Final = (GET_RANK, IS_HAND, HAND_KEY, BEAT, WINNER, INVALID_TABLE, WHY_NOT_HAND, WHY_NOT_FIGHT, PLAYS,
                SHOWDOWN_WINNER, INVALID_SHOWDOWN, WHY_NOT_SHOWDOWN, WHY_NOT_SEAT)

class EngineView(Protocol):
    """An Engine as the layers below it see it (judging, the poker helpers): the loaded rules, their
    deck and notation, and the evaluators that ask them.  engine.core.Engine is the one
    implementation; the layers below type their engine argument with this, so that none of them
    imports core."""

    name: str
    ruleset: Any            # engine.datalog.rulesets.RuleSet
    notation: Any           # engine.poker.notation.Notation
    fallback: str | None    # why the rules are not compiled (then every answer is pyDatalog's)
    local: Any              # the compiled program run in Python (LocalEvaluator), or None
    categories: dict[int, str]
    state: Any              # engine.judging.state.RulesState: what is made once from these rules

    @property
    def deck(self) -> list[int]: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def games(self) -> dict[str, int]: ...
    def evaluator(self, worlds: "int | Sequence[Any]" = 1) -> Any: ...
    def static(self, predicate: str, arity: int) -> list[tuple]: ...
    def low_engine(self, name: str) -> "EngineView": ...
    def ask(self, predicate: str, *args: Any) -> list[tuple]: ...
    def ask_one(self, predicate: str, *args: Any, default: Any = None) -> Any: ...
    def cards(self, cards: Any) -> list[int]: ...
    def sets(self, *card_sets: Any) -> Iterator[list[int]]: ...
