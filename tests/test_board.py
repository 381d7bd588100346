"""House of Games (003_…): the board's four operations, its invariant, the consistency lemmas,
and the card categories of Axiom 1.2 / Example 5.

The operations are checked against a small reference model written straight from the schemas
(sets C and P, the partial function C_ as a dict), so a test states what the spec says, not what
the implementation does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import JOKER, Board, InvariantError, card_id, category, category_of

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Places are strings, counters ints: the pools P and C are disjoint (Axiom 1.1).
PLACES = st.sampled_from(["p0", "p1", "p2", "p3"])
COUNTERS = st.integers(0, 7)
OPS = st.lists(st.one_of(
    st.tuples(st.just("add_place"), PLACES),
    st.tuples(st.just("remove_place"), PLACES),
    st.tuples(st.just("add_counter"), COUNTERS, PLACES),
    st.tuples(st.just("remove_counter"), COUNTERS),
), max_size=25)


@dataclass
class Model:
    """The Board schema's state as the spec writes it: C, P and C_ : P -|-> P C."""
    C: set = field(default_factory=set)
    P: set = field(default_factory=set)
    dist: dict = field(default_factory=dict)

    def add_place(self, p) -> bool:          # APlace1 / APlace2
        if p in self.P:
            return False
        self.P |= {p}
        self.dist[p] = set()
        return True

    def remove_place(self, p) -> bool:       # RPlace1 / RPlace2
        if p not in self.P:
            return False
        self.C -= self.dist[p]
        self.P -= {p}
        del self.dist[p]
        return True

    def add_counter(self, c, p) -> bool:     # ACounter1 / ACounter2
        if c in self.C or p not in self.P:
            return False
        self.C |= {c}
        self.dist[p] = self.dist[p] | {c}
        return True

    def remove_counter(self, c) -> bool:     # RCounter1 / RCounter2
        if c not in self.C:
            return False
        q = next(p for p in self.P if c in self.dist[p])      # mu p : P | c in C_p
        self.C -= {c}
        self.dist[q] = self.dist[q] - {c}
        return True


def apply(board: Board, model: Model, op: tuple) -> None:
    name, *args = op
    assert getattr(board, name)(*args) == getattr(model, name)(*args), op
    assert_same(board, model)


def assert_same(board: Board, model: Model) -> None:
    assert board.places == model.P
    assert board.counters == model.C
    for p in model.P:
        assert board.counters_at(p) == model.dist[p]
    for c in model.C:
        assert c in model.dist[board.place_of(c)]


def build(ops: list[tuple]) -> tuple[Board, Model]:
    board, model = Board(), Model()
    for op in ops:
        apply(board, model, op)
    return board, model


@pytest.fixture
def board() -> Board:
    return Board()


# ---- Operation 1.1 APlace ---------------------------------------------------------------------

def test_aplace1_adds_an_empty_place(board: Board) -> None:
    assert board.add_place("deck") is True
    assert board.places == {"deck"}
    assert board.counters_at("deck") == set()
    assert board.counters == set()
    board.check()


def test_aplace2_skips_a_place_on_the_board(board: Board) -> None:
    board.add_place("deck")
    board.add_counter(1, "deck")
    assert board.add_place("deck") is False
    assert board.places == {"deck"}
    assert board.counters_at("deck") == {1}        # re-adding does not empty it


# ---- Operation 1.2 RPlace ---------------------------------------------------------------------

def test_rplace1_removes_the_place_and_its_counters(board: Board) -> None:
    board.add_place("deck")
    board.add_place("hand")
    for c in (1, 2, 3):
        board.add_counter(c, "deck")
    board.add_counter(4, "hand")
    assert board.remove_place("deck") is True
    assert board.places == {"hand"}
    assert board.counters == {4}
    assert board.place_of(1) is None
    assert board.counters_at("hand") == {4}
    board.check()


def test_rplace2_skips_a_place_not_on_the_board(board: Board) -> None:
    board.add_place("hand")
    board.add_counter(4, "hand")
    assert board.remove_place("deck") is False
    assert board.places == {"hand"} and board.counters == {4}


# ---- Operation 1.3 ACounter -------------------------------------------------------------------

def test_acounter1_puts_the_counter_on_the_place(board: Board) -> None:
    board.add_place("deck")
    assert board.add_counter(7, "deck") is True
    assert board.counters == {7}
    assert board.counters_at("deck") == {7}
    assert board.place_of(7) == "deck"
    board.check()


def test_acounter2_skips_a_counter_already_on_the_board(board: Board) -> None:
    board.add_place("deck")
    board.add_place("hand")
    board.add_counter(7, "deck")
    assert board.add_counter(7, "hand") is False     # it stays where it is
    assert board.place_of(7) == "deck"
    assert board.counters_at("hand") == set()


def test_acounter2_skips_a_place_not_on_the_board(board: Board) -> None:
    assert board.add_counter(7, "nowhere") is False
    assert board.counters == set() and board.places == set()
    assert board.place_of(7) is None


# ---- Operation 1.4 RCounter -------------------------------------------------------------------

def test_rcounter1_takes_the_counter_off_its_place(board: Board) -> None:
    board.add_place("deck")
    board.add_counter(7, "deck")
    board.add_counter(8, "deck")
    assert board.remove_counter(7) is True
    assert board.counters == {8}
    assert board.counters_at("deck") == {8}
    assert board.place_of(7) is None
    assert board.places == {"deck"}                  # Xi Place
    board.check()


def test_rcounter2_skips_a_counter_not_on_the_board(board: Board) -> None:
    board.add_place("deck")
    board.add_counter(8, "deck")
    assert board.remove_counter(7) is False
    assert board.counters == {8}


# ---- Axiom 1.1, types, and living beside an Engine -----------------------------------------------

def test_axiom_1_1_a_name_is_not_both_a_counter_and_a_place(board: Board) -> None:
    board.add_place("deck")
    board.add_counter("x", "deck")
    with pytest.raises(ValueError, match="Axiom 1.1"):
        board.add_place("x")
    with pytest.raises(ValueError, match="Axiom 1.1"):
        board.add_counter("deck", "deck")
    board.check()


@pytest.mark.parametrize("bad", [None, 1.5, True, ("a",)])
def test_counters_and_places_are_ints_or_strings(board: Board, bad: object) -> None:
    with pytest.raises(TypeError):
        board.add_place(bad)
    board.add_place("deck")
    with pytest.raises(TypeError):
        board.add_counter(bad, "deck")


def test_boards_and_engines_keep_their_own_facts(engine) -> None:
    """Each has its own pyDatalog Logic; using one in between must not lose the other's facts."""
    a, b = Board(), Board()
    a.add_place("deck")
    assert engine.get_rank("AH KH QH JH TH") == 10
    b.add_place("hand")
    a.add_counter(1, "deck")
    assert engine.category("AH AD 3C 4S 5D") == "one pair"
    b.add_counter(1, "hand")
    assert (a.places, a.counters_at("deck")) == ({"deck"}, {1})
    assert (b.places, b.counters_at("hand")) == ({"hand"}, {1})
    assert engine.winners(["AH AD 3C 4S 5D", "2H 3H 4H 5H 6H"]) == [1]
    a.check()
    b.check()


# ---- the consistency lemmas -----------------------------------------------------------------

@SETTINGS
@given(OPS)
def test_no_sequence_of_operations_breaks_the_invariant(ops: list[tuple]) -> None:
    """Lemmas 1..4 together: from the empty board, every operation keeps the Board schema."""
    board, model = Board(), Model()
    for op in ops:
        apply(board, model, op)
        assert board.violations() == []
    board.check()


@SETTINGS
@given(OPS, PLACES)
def test_lemma_1_aplace(ops: list[tuple], p: str) -> None:
    board, model = build(ops)
    apply(board, model, ("add_place", p))
    board.check()


@SETTINGS
@given(OPS, PLACES)
def test_lemma_2_rplace(ops: list[tuple], p: str) -> None:
    board, model = build(ops)
    apply(board, model, ("remove_place", p))
    board.check()


@SETTINGS
@given(OPS, COUNTERS, PLACES)
def test_lemma_3_acounter(ops: list[tuple], c: int, p: str) -> None:
    board, model = build(ops)
    apply(board, model, ("add_counter", c, p))
    board.check()


@SETTINGS
@given(OPS, COUNTERS)
def test_lemma_4_rcounter(ops: list[tuple], c: int) -> None:
    board, model = build(ops)
    apply(board, model, ("remove_counter", c))
    board.check()


# ---- check() finds a corrupted board ----------------------------------------------------------

# Each corruption writes facts behind the operations' back; a0, a1 and counter 100 are always on
# the board (100 on a0), 99 and 'zz' never are.  The value is the schema line check() must name.
CORRUPTIONS = {
    "a place with no entry in C_": ([], [("dist", ("a0",))], "Board [2] dom C_ = P"),
    "an entry of C_ for no place": ([("dist", ("zz",))], [], "Board [2] dom C_ = P"),
    "a counter on a place outside dom C_": ([("counter", (99,)), ("on", (99, "zz"))], [], "Board [2] dom C_ = P"),
    "a counter on two places": ([("on", (100, "a1"))], [], "Board [3] {C_p} partitions C"),
    "a counter on no place": ([("counter", (99,))], [], "Board [3] {C_p} partitions C"),
    "a placed counter missing from C": ([], [("counter", (100,))], "Board [3] {C_p} partitions C"),
    "a place holds a counter not in C": ([("on", (99, "a1"))], [], "Board [3] {C_p} partitions C"),
    "a place that is also a counter": ([("counter", ("a1",)), ("on", ("a1", "a0"))], [], "Axiom 1.1"),
}


@SETTINGS
@given(OPS, st.sampled_from(sorted(CORRUPTIONS)))
def test_check_detects_a_corrupted_board(ops: list[tuple], kind: str) -> None:
    board, _ = build(ops + [("add_place", "a0"), ("add_place", "a1"), ("add_counter", 100, "a0")])
    board.check()
    add, remove, line = CORRUPTIONS[kind]
    board._change(add=add, remove=remove)
    with pytest.raises(InvariantError, match=r"the board breaks its schema") as caught:
        board.check()
    assert line in str(caught.value)
    assert any(v.startswith(line) for v in board.violations())


def test_place_of_refuses_a_counter_on_two_places(board: Board) -> None:
    board.add_place("a")
    board.add_place("b")
    board.add_counter(1, "a")
    board._change(add=[("on", (1, "b"))], remove=[])
    with pytest.raises(InvariantError, match="on 2 places"):
        board.place_of(1)


# ---- Axiom 1.2 and Example 5: categories -----------------------------------------------------

SUIT_SYMBOLS = "HDCS"                       # suit index 0..3 = the spec's suits 1..4
RANK_SYMBOLS = "A23456789TJQK"              # rank index 0..12 = the spec's values 1..13


@pytest.mark.parametrize("i", range(52))
def test_category_of_a_standard_card(engine, i: int) -> None:
    """c i = (i div 13, i mod 13); with id = i + 1 that is (suit - 1, value - 1) of the spec's
    GetSuit/getValue, and the notation prints rank symbol then suit symbol."""
    suit, rank = category(i)
    assert (suit, rank) == (i // 13, i % 13)
    assert card_id(i) == i + 1 and category_of(i + 1) == i
    assert engine.get_suit(card_id(i)) == suit + 1
    assert engine.get_value(card_id(i)) == rank + 1
    assert engine.notation.token(card_id(i)) == RANK_SYMBOLS[rank] + SUIT_SYMBOLS[suit]
    assert engine.cards(RANK_SYMBOLS[rank] + SUIT_SYMBOLS[suit]) == [card_id(i)]


def test_category_landmarks() -> None:
    assert category(0) == (0, 0)        # ace of hearts, id 1, AH
    assert category(12) == (0, 12)      # king of hearts, id 13, KH
    assert category(13) == (1, 0)       # ace of diamonds, id 14, AD
    assert category(51) == (3, 12)      # king of spades, id 52, KS


def test_without_jokers_c_is_a_bijection_onto_4_by_13() -> None:
    image = [category(i) for i in range(52)]
    assert sorted(image) == [(s, r) for s in range(4) for r in range(13)]


@pytest.mark.parametrize("jokers", [1, 2, 3])
def test_jokers_are_rank_13_and_c_is_not_injective(jokers: int) -> None:
    assert [category(i, jokers) for i in range(52)] == [category(i) for i in range(52)]
    assert [category(52 + j, jokers) for j in range(jokers)] == [JOKER] * jokers == [(0, 13)] * jokers
    assert category(0, jokers) == (0, 0)            # the ace of hearts shares suit 0 with a joker,
    assert len({category(i, jokers) for i in range(52 + jokers)}) == 53   # but not its rank
    with pytest.raises(ValueError):
        category(52 + jokers, jokers)


@pytest.mark.parametrize("i, jokers", [(52, 0), (-1, 0), (-1, 2), (100, 2), (0, -1)])
def test_category_outside_its_domain(i: int, jokers: int) -> None:
    with pytest.raises(ValueError):
        category(i, jokers)


@pytest.mark.parametrize("i", [52, 53, -1])
def test_jokers_and_strangers_have_no_card_id(i: int) -> None:
    with pytest.raises(ValueError):
        card_id(i)


@pytest.mark.parametrize("card", [0, 53, True, "AH"])
def test_category_of_takes_a_card_id(card: object) -> None:
    with pytest.raises(ValueError):
        category_of(card)
