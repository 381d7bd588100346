"""House of Games in play: the AGame on a board, `poker deal` and `poker game` (report 3.4)."""

from __future__ import annotations

import io
import json
import random

import pytest

from engine.board import InvariantError
from engine.board.game import CENTRAL, DECK, DISCARD, Game
from engine.cli import main
from engine.cli.game import MENU, SET_PREDICATES

ALL_CARDS = set(range(1, 53))


def run(capsys, *argv: str, stdin: str | None = None, tty: bool = False, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        stream = _Tty(stdin) if tty else io.StringIO(stdin)
        monkeypatch.setattr("sys.stdin", stream)
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


# ---- the game on the board --------------------------------------------------------------------

@pytest.mark.parametrize("players", range(2, 11))
def test_dealt_hands_are_disjoint_and_come_off_the_deck(players: int) -> None:
    game = Game(players, seed=players)
    assert game.board.counters_at(DECK) == ALL_CARDS
    game.deal()
    game.check()
    hands = [game.hand(i) for i in range(players)]
    assert all(len(h) == 5 and len(set(h)) == 5 for h in hands)
    held = [c for h in hands for c in h]
    assert len(set(held)) == 5 * players                         # disjoint
    deck = game.board.counters_at(DECK)
    assert len(deck) == 52 - 5 * players and deck.isdisjoint(held)
    assert deck | set(held) == ALL_CARDS == game.board.counters  # nothing made, nothing lost
    for i, h in enumerate(hands):
        assert game.board.counters_at(game.hands[i]) == set(h)
        assert all(game.board.place_of(c) == game.hands[i] for c in h)
    assert game.board.places == {DECK, CENTRAL, DISCARD, *game.hands}
    assert game.board.counters_at(CENTRAL) == game.board.counters_at(DISCARD) == set()


def test_deal_goes_round_the_table_from_the_top_of_the_shuffled_deck() -> None:
    shuffled = list(range(1, 53))
    random.Random(42).shuffle(shuffled)
    game = Game(3, seed=42)
    game.deal()
    for i in range(3):
        assert game.hand(i) == shuffled[i:15:3]
    assert game.order[DECK] == shuffled[15:]


def test_same_seed_same_hands_other_seed_other_hands() -> None:
    def hands(seed: int) -> list[list[int]]:
        game = Game(4, seed)
        game.deal()
        return [game.hand(i) for i in range(4)]
    assert hands(7) == hands(7)
    assert hands(7) != hands(8)


def test_a_game_has_2_to_10_players_and_enough_cards() -> None:
    for bad in (0, 1, 11):
        with pytest.raises(ValueError, match="2 to 10 players"):
            Game(bad)
    game = Game(10, seed=1)
    game.deal()
    with pytest.raises(ValueError, match="too few"):
        game.deal(1)                                 # 2 cards left for 10 hands


def test_game_check_sees_a_sequence_that_disagrees_with_the_board() -> None:
    game = Game(2, seed=1)
    game.deal()
    game.order[game.hands[0]].append(game.order[DECK][0])    # claimed, but the board says deck
    with pytest.raises(InvariantError, match="hand 1"):
        game.check()


def test_moving_a_card_to_the_discard_uses_the_board() -> None:
    game = Game(2, seed=3)
    game.deal()
    card = game.hand(0)[2]
    game.move(card, DISCARD)
    game.check()
    assert game.board.place_of(card) == DISCARD and card not in game.hand(0)
    with pytest.raises(InvariantError):
        game.move(99, DISCARD)
    with pytest.raises(ValueError, match="not a place"):
        game.move(card, "table")
    assert game.board.place_of(card) == DISCARD                 # nothing lost on the way
    game.check()


# ---- poker deal ----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 6, 10])
def test_deal_json(capsys, engine, players: int) -> None:
    status, out, err = run(capsys, "deal", "--players", str(players), "--seed", "2024", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"hands", "ranks", "winners"}
    hands = data["hands"]
    assert len(hands) == players and all(len(h) == 5 and all(isinstance(t, str) for t in h) for h in hands)
    ids = [engine.cards(h) for h in hands]
    assert len({c for h in ids for c in h}) == 5 * players
    assert data["ranks"] == [engine.get_rank(h) for h in ids]
    assert data["winners"] == engine.winners(ids)
    assert data["winners"] and all(0 <= w < players for w in data["winners"])
    # the same hands as the Game deals with that seed
    game = Game(players, 2024)
    game.deal()
    assert ids == [game.hand(i) for i in range(players)]


def test_deal_same_seed_same_output(capsys) -> None:
    first = run(capsys, "deal", "--players", "5", "--seed", "11", "--json")
    again = run(capsys, "deal", "--players", "5", "--seed", "11", "--json")
    other = run(capsys, "deal", "--players", "5", "--seed", "12", "--json")
    assert first == again
    assert json.loads(first[1])["hands"] != json.loads(other[1])["hands"]


def test_deal_text(capsys, engine) -> None:
    status, out, err = run(capsys, "deal", "--players", "3", "--seed", "5")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "seed 5"
    data = json.loads(run(capsys, "deal", "--players", "3", "--seed", "5", "--json")[1])
    for i, (hand, rank) in enumerate(zip(data["hands"], data["ranks"])):
        assert lines[1 + i] == f"hand {i + 1}: {' '.join(hand)}  {engine.categories[rank]} (rank {rank})"
    assert lines[4] in {f"winner: hand {data['winners'][0] + 1}",
                        "winners (tie): " + ", ".join(f"hand {w + 1}" for w in data["winners"])}


def test_deal_without_seed_prints_the_seed_that_replays_it(capsys) -> None:
    status, out, _ = run(capsys, "deal", "--players", "2")
    seed = out.splitlines()[0].split()[1]
    assert status == 0
    assert run(capsys, "deal", "--players", "2", "--seed", seed)[1] == out


@pytest.mark.parametrize("argv, message", [
    (["--players", "1"], "--players takes 2 to 10, not 1"),
    (["--players", "11"], "--players takes 2 to 10, not 11"),
    (["--players", "0"], "--players takes 2 to 10, not 0"),
    (["--players", "-3"], "--players takes 2 to 10, not -3"),
    (["--players", "two"], "--players takes an integer, not 'two'"),
    (["--players", "3", "--seed", "x"], "--seed takes an integer, not 'x'"),
])
def test_deal_bad_arguments_are_one_line_errors(capsys, argv: list[str], message: str) -> None:
    status, out, err = run(capsys, "deal", *argv)
    assert status == 2 and out == ""
    assert err == f"poker: {message}\n"


# ---- poker game ----------------------------------------------------------------------------

SCRIPT = "\n".join([
    "0", "AH AD 3C",                                       # test a set of cards
    "0", "AS KS QS JS TS",
    "1", "AH KH QH JH TH", "2C 3D 4S 5H 7C",               # beat with 2 hands
    "2", "AH AD 3C 4C 5C", "AS AC 3D 4D 5D", "KH KD 2C 2D 9S",   # beat with 3 hands
    "1", "AH AD 3C 4C 5C", "AH 2C 3C 4S 5S",              # a card in two hands: no valid fight
    "7",                                                   # bad choice
    "0", "ZZ",                                             # bad cards
    "",                                                    # blank line: ignored
    "2", "AH AD 3C 4C 5C", "AS AC 3D 4D 5D", "2H 2D 2C 9S 9H",
    "1", "AH AD 3C 4C 5C", "AS AC 3D 4D 5D",               # a tie
    "3",                                                   # exit
    "0", "AH",                                             # never read
]) + "\n"


def test_game_scripted_session(capsys, monkeypatch, engine) -> None:
    status, out, err = run(capsys, "game", stdin=SCRIPT, monkeypatch=monkeypatch)
    assert status == 1                                            # piped, and two lines were bad
    assert "WELCOME" not in out and "Give me" not in out          # no prompts when piped
    blocks = out.split("cards: ")
    first = ["AH AD 3C"] + [f"{name}: {'true' if name in ('isPair', 'isA') else 'false'}" for name in SET_PREDICATES] \
        + ["rank: -1 (not a hand: a hand has five cards)", ""]
    assert blocks[1].split("\n") == first
    royal = blocks[2].split("\n")
    assert royal[0] == "AS KS QS JS TS"
    assert royal[1:8] == [f"{name}: {'false' if name in ('isPair', 'isThree', 'isFour') else 'true'}"
                          for name in SET_PREDICATES]
    assert royal[8] == "rank: 10 (royal flush)"
    rest = royal[9:]
    assert rest[:4] == ["hand 1: AH KH QH JH TH  royal flush (rank 10)",
                        "hand 2: 2C 3D 4S 5H 7C  high card (rank 1)",
                        f"beat: {engine.beat('AH KH QH JH TH', '2C 3D 4S 5H 7C')}",
                        "winner: hand 1"]
    assert rest[4:8] == ["hand 1: AH AD 3C 4C 5C  one pair (rank 2)",
                         "hand 2: AS AC 3D 4D 5D  one pair (rank 2)",
                         "hand 3: KH KD 2C 2D 9S  two pair (rank 3)",
                         "winner: hand 3"]
    assert rest[8:11] == ["hand 1: AH AD 3C 4C 5C  one pair (rank 2)",
                          "hand 2: AH 2C 3C 4S 5S  straight (rank 5)",
                          "beat: -1"]
    assert rest[11].startswith("no winner: not a valid fight")
    assert rest[12:16] == ["hand 1: AH AD 3C 4C 5C  one pair (rank 2)",
                           "hand 2: AS AC 3D 4D 5D  one pair (rank 2)",
                           "hand 3: 2H 2D 2C 9S 9H  full house (rank 7)",
                           "winner: hand 3"]
    assert rest[16:20] == ["hand 1: AH AD 3C 4C 5C  one pair (rank 2)",
                           "hand 2: AS AC 3D 4D 5D  one pair (rank 2)",
                           "beat: 0",
                           "winners (tie): hand 1, hand 2"]
    assert rest[20:] == [""]                                      # the exit stops reading
    errors = err.splitlines()
    assert len(errors) == 2
    assert errors[0] == "poker: line 15: choose 0, 1, 2 or 3, not '7'"
    assert errors[1].startswith("poker: line 17: bad card") and "'ZZ'" in errors[1]


def test_game_ends_cleanly_at_eof_even_mid_question(capsys, monkeypatch) -> None:
    status, out, err = run(capsys, "game", stdin="1\nAH KH QH JH TH\n", monkeypatch=monkeypatch)
    assert (status, out, err) == (0, "", "")
    assert run(capsys, "game", stdin="", monkeypatch=monkeypatch) == (0, "", "")


def test_game_on_a_terminal_prompts_like_the_screenshot(capsys, monkeypatch) -> None:
    status, out, err = run(capsys, "game", stdin="0\n2H 2D 2C 9S 9H\n3\n", tty=True, monkeypatch=monkeypatch)
    assert status == 0 and err == ""
    assert out.startswith("\nWELCOME TO POKER GAME\n" + MENU + "\nGive me your choice:\n")
    assert MENU.splitlines() == ["What do you want to do?", "0. Test a set of cards", "1. Beat with 2 hand",
                                 "2. Beat with 3 hand", "3. Exit"]
    assert "Give me a set of cards" in out
    assert "rank: 7 (full house)" in out
    assert out.count(MENU) == 2                                   # the menu comes back after each answer


def test_game_takes_the_rules_option(capsys, monkeypatch) -> None:
    status, out, err = run(capsys, "game", "--rules", "no-such-rules", stdin="3\n", monkeypatch=monkeypatch)
    assert status == 2 and out == "" and err.startswith("poker: unknown rule set 'no-such-rules'")


def test_game_on_a_terminal_bad_input_goes_on_without_line_numbers(capsys, monkeypatch) -> None:
    status, out, err = run(capsys, "game", stdin="9\n1\nAH KH\n", tty=True, monkeypatch=monkeypatch)
    assert status == 0
    assert err == "poker: choose 0, 1, 2 or 3, not '9'\n"
    assert out.count(MENU) == 2 and "Give me hand 1" in out and "Give me hand 2" in out
    assert out.endswith("Give me hand 2 (e.g. AH KH QH JH TH):\n\n")      # Ctrl-D: a clean newline
