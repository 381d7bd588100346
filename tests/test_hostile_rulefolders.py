"""Rule folders under attack (issue 32): folders whose hands are not five cards, odd decks, decks
past any reasonable size, long chains of variants.  Every command that needs the five-card table
or a showdown says in one line why it cannot (exit 2); the commands that need neither still answer."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from engine import Engine
from engine.cli import main
from engine.datalog import rulesets
from engine.datalog.loader import RuleError
from engine.poker.notation import MAX_DECK

SUITS = ("suitName_F: suitName(1, 'heart', 'hearts')\nsuitName_F: suitName(2, 'diamond', 'diamonds')\n"
         "suitName_F: suitName(3, 'club', 'clubs')\nsuitName_F: suitName(4, 'spade', 'spades')\n"
         "suitName_F: suitName(5, 'star', 'stars')\n"
         "suitSymbol_F: suitSymbol(1, 'H', 0)\nsuitSymbol_F: suitSymbol(2, 'D', 0)\n"
         "suitSymbol_F: suitSymbol(3, 'C', 0)\nsuitSymbol_F: suitSymbol(4, 'S', 0)\n"
         "suitSymbol_F: suitSymbol(5, 'X', 0)\n")


def folder(root: Path, name: str, files: dict[str, str], extends: str = "standard") -> str:
    path = root / name
    path.mkdir(parents=True)
    (path / "variant.toml").write_text(f'extends = "{extends}"\ndescription = "{name}"\n')
    for file, text in files.items():
        (path / file).write_text(text)
    return str(path)


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("folders")
    out = {f"hand of {n}": folder(root, f"hs{n}", {"ranking.dl": f"handSize_D: handSize({n})\n"})
           for n in (0, 50, -3)}
    out["65 cards"] = folder(root, "d65", {"cards.dl": SUITS})
    values = "".join(f"valueName_F: valueName({v}, 'v{v}', 'v{v}s')\n" for v in range(1, 301)) + \
        "".join(f"valueSymbol_F: valueSymbol({v}, 'V{v}X', 0)\n" for v in range(1, 301))
    out["1,200 cards"] = folder(root, "big", {"cards.dl": values})
    return out


def one_line(capsys, argv: list[str], says: str) -> None:
    assert main(argv) == 2, argv
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("poker: ") and says in err, (argv, err)
    assert "internal error" not in err


NEEDS_A_TABLE = {            # folder: what the commands that need the table or a showdown say
    "hand of 0": "holds 0 cards",
    "hand of 50": "holds 50 cards",
    "hand of -3": "holds -3 cards",
    "65 cards": "a deck of 5..64 cards, not 65",
}


@pytest.mark.parametrize("name", NEEDS_A_TABLE)
@pytest.mark.parametrize("command", [["check", "--cards", "7"], ["equity", "AhKh", "2c3c"],
                                     ["beat", "--board", "AH KH QH 2C 3D", "JH TH", "AS AD"]])
def test_a_folder_that_cannot_make_a_table_is_one_line_from_what_needs_one(folders, name, command, capsys):
    says = NEEDS_A_TABLE[name]
    if command[0] == "beat":
        if name == "65 cards":                       # five-card hands: a showdown needs no table
            assert main(["--rules", folders[name], *command]) == 0
            assert "royal flush" in capsys.readouterr().out
            return
        says = says.replace("holds", "holds hands of")
    if command[0] == "equity" and name != "65 cards":
        says = says.replace("holds", "holds hands of")
    one_line(capsys, ["--rules", folders[name], *command], says)


@pytest.mark.parametrize("name", ["hand of 0", "hand of -3"])
def test_check_of_a_folder_whose_hands_hold_no_cards_is_one_line(folders, name, capsys):
    one_line(capsys, ["--rules", folders[name], "check"], "there is no hand to check")


def test_badugi_needs_no_five_card_table_and_says_so(capsys):
    one_line(capsys, ["--rules", "badugi", "check", "--cards", "7"], "holds 4 cards")
    one_line(capsys, ["--rules", "badugi", "equity", "AhKh", "2c3c"], "holds hands of 4 cards")


def test_commands_that_need_no_table_still_answer(folders, capsys):
    assert main(["--rules", folders["65 cards"], "rank", "AH KH QH JH TH"]) == 0
    assert "royal flush" in capsys.readouterr().out
    assert main(["--rules", folders["65 cards"], "beat", "AH KH QH JH TH", "2C 3C 4C 5C 7D"]) == 0
    assert main(["--rules", "badugi", "rank", "AH 2C 3D 4S"]) == 0
    capsys.readouterr()
    one_line(capsys, ["--rules", folders["hand of 0"], "rank", "AH KH QH JH TH"], "is not a hand")


def test_a_deck_past_the_bound_is_refused_at_load_in_a_second(folders, capsys):
    start = time.perf_counter()
    one_line(capsys, ["--rules", folders["1,200 cards"], "rank", "V1XH V2XH V3XH V4XH V5XH"],
             f"(1,200 cards): at most {MAX_DECK:,} cards")
    assert time.perf_counter() - start < 30


def test_a_long_chain_of_variants_is_one_line_not_a_recursion_error(tmp_path, monkeypatch):
    for i in range(rulesets.MAX_CHAIN + 8):
        folder(tmp_path, f"v{i}", {"ranking.dl": "handSize_D: handSize(5)\n"},
               extends="standard" if i == 0 else f"v{i - 1}")
    monkeypatch.setattr(rulesets, "variants_dir", lambda: tmp_path)
    with pytest.raises(RuleError) as caught:
        Engine(f"v{rulesets.MAX_CHAIN + 7}")
    why = str(caught.value)
    assert f"a chain of more than {rulesets.MAX_CHAIN} rule sets" in why and "\n" not in why and len(why) < 400
    assert Engine(f"v{rulesets.MAX_CHAIN - 2}").get_rank("AH KH QH JH TH") == 10    # a chain within it loads


def test_a_board_judged_with_rules_of_four_card_hands_is_marked_never_judged(tmp_path, capsys):
    fights = tmp_path / "fights.yaml"
    fights.write_text("fights:\n  - board: AH KH QH 2C 3D\n    hands: [JH TH, AS AD]\n"
                      "  - hands: [AH 2D 3C 4S, AD 2C 3S 5H]\n")
    out = tmp_path / "out.jsonl"
    assert main(["--rules", "badugi", "judge", str(fights), "-o", str(out)]) == 0
    board, plain = [json.loads(line) for line in out.read_text().splitlines()]
    assert board["winners"] == [] and "holds hands of 4 cards" in board["error"]
    assert plain["result"] == 1 and "error" not in plain
    assert "judged: 1, invalid: 1" in capsys.readouterr().err
