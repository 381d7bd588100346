"""`poker judge` and the other judging commands: N in, N out, bad fights marked, atomic output."""

from __future__ import annotations

import json
import os

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, ROOT
from engine.cli import main
from engine.io.atomic import atomic_write
from engine.io.results import to_yaml
from engine.judge import judge as judge_fights

BATCH = """
fights:
  - id: two-pair
    hands: ["JH JD 2C 2S 4H", "TH TD 9C 9S 8H"]
  - hands: [[AH, KH, QH, JH, TH], "2C 3D 4S 5H 7C", "9S 9D 9C 4H 4D"]
  - hands: ["AH KX QS JC TH", "2C 3D 4S 5H 7C"]
  - hands: ["AH KD QS JC TH", "AH 3D 4S 5H 7C"]
  - hands: ["AH AH QS JC TH", "2C 3D 4S 5H 7C"]
  - hands: "AH KD QS JC TH"
  - hands: ["AH KD QS JC TH"]
  - 42
  - hands: ["AH KD QS JC", "2C 3D 4S 5H 7C"]
  - id: tie
    hands: ["AH KH QH JH TH", "AS KS QS JS TS", "2C 2D 2H 5S 7C"]
"""


def judge(tmp_path, text: str, *extra: str) -> tuple[int, list[dict]]:
    src, out = tmp_path / "in.yaml", tmp_path / "out.yaml"
    src.write_text(text, encoding="utf-8")
    status = main(["judge", str(src), "-o", str(out), *extra])
    results = yaml.safe_load(out.read_text())["results"] if status == 0 else None
    return status, results


def test_n_fights_in_n_results_out_in_order(tmp_path, capsys):
    status, results = judge(tmp_path, BATCH)
    assert status == 0 and len(results) == 10
    assert [r["id"] for r in results] == ["two-pair", 2, 3, 4, 5, 6, 7, 8, 9, "tie"]
    assert results[0] == {"id": "two-pair", "result": 1, "winners": [0], "ranks": [3, 3],
                          "categories": ["two pair", "two pair"]}
    assert results[1]["result"] == 1 and results[1]["winners"] == [0] and results[1]["ranks"] == [10, 1, 7]
    assert results[9]["result"] == 0 and results[9]["winners"] == [0, 1]
    errors = {r["id"]: r.get("error") for r in results}
    assert "KX" in errors[3] and "share a card" in errors[4] and "given twice" in errors[5]
    assert "list" in errors[6] and "2 to 10" in errors[7] and "mapping" in errors[8] and "five" in errors[9]
    assert all(r["result"] == -1 for r in results[2:9])
    assert "fights: 10, judged: 3, invalid: 7" in capsys.readouterr().err


def test_json_output_and_stdout(tmp_path, capsys):
    src = tmp_path / "in.yaml"
    src.write_text(BATCH)
    assert main(["judge", str(src), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["results"]) == 10 and data["results"][0]["result"] == 1


def test_examples_file_gives_euler_376(tmp_path):
    src = (ROOT / "examples" / "fights.yaml").read_text()
    status, results = judge(tmp_path, src)
    euler = [r for r in results if str(r["id"]).startswith("euler54-")]
    assert status == 0 and len(euler) == 1000
    assert sum(r["result"] == 1 for r in euler) == 376
    documents = {f["id"]: f["result"] for f in FIXTURES["fights"]}
    assert all(r["result"] == documents[r["id"]] for r in results if r["id"] in documents)


@pytest.mark.parametrize("text, words", [
    ("fights:\n  - hands: [a\n  b: ]\n", r"in\.yaml:3: YAML syntax error"),
    ("- just a list\n", "expected a mapping with `fights:`"),
    ("fights: 3\n", "expected a mapping with `fights:`"),
])
def test_a_bad_file_is_one_line_exit_2_and_no_output(tmp_path, capsys, text, words):
    out = tmp_path / "out.yaml"
    out.write_text("old results\n")
    status, _ = judge(tmp_path, text)
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert __import__("re").search(words, err)
    assert out.read_text() == "old results\n"


def test_a_missing_file(tmp_path, capsys):
    assert main(["judge", str(tmp_path / "nope.yaml")]) == 2
    assert "nope.yaml: cannot read" in capsys.readouterr().err


def test_atomic_write_leaves_the_old_file_when_interrupted(tmp_path, monkeypatch):
    target = tmp_path / "out.yaml"
    target.write_text("old")

    def boom(*_):
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.yaml"]     # no temporary file left


@settings(max_examples=200, deadline=None)
@given(st.lists(st.fixed_dictionaries({
    "id": st.one_of(st.integers(), st.text()),
    "result": st.integers(-1, 10),
    "winners": st.lists(st.integers(0, 9)),
    "categories": st.lists(st.one_of(st.none(), st.text())),
    "error": st.text()})))
@example([{"id": "\x7f", "result": 0, "winners": [], "categories": ["\x7f"], "error": "\x7f"}])  # DEL: ASCII, not YAML
def test_yaml_output_reads_back_as_written(results):
    assert yaml.safe_load(to_yaml({"results": results})) == {"results": results}


def test_rank_and_beat_commands(capsys):
    assert main(["rank", "AH", "KH", "QH", "JH", "TH"]) == 0
    assert capsys.readouterr().out == "royal flush (rank 10)\n"
    assert main(["beat", "--json", "JH JD 2C 2S 4H", "TH TD 9C 9S 8H"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == 1
    assert main(["beat", "AH KD QS JC TH", "AH 3D 4S 5H 7C"]) == 2
    err = capsys.readouterr().err
    assert err == "poker: not a valid fight: hands 1 and 2: they share a card\n"


@pytest.mark.parametrize("case", [f for f in FIXTURES["fights"]], ids=lambda f: f["id"])
def test_explain_names_the_axiom_that_decided(case, capsys):
    assert main(["beat", "--explain", *case["hands"]]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == str(case["result"])
    assert lines[-1].startswith(case["axiom"] + ":")
    assert all(" by getRank_" in line for line in lines[2:4])


def test_explain_says_on_what(capsys):
    main(["beat", "--explain", "JH JD 2C 2S 4H", "TH TD 9C 9S 8H"])
    assert capsys.readouterr().out.splitlines()[-1] == "beat_TwoPair2: jacks over tens (pairs)"


@pytest.mark.parametrize("name, loads", [("out.json", lambda t: json.loads(t)["results"]),
                                         ("out.jsonl", lambda t: [json.loads(x) for x in t.splitlines()]),
                                         ("out.yml", lambda t: yaml.safe_load(t)["results"])])
def test_the_output_format_follows_the_outputs_name(tmp_path, capsys, name, loads):
    src, out = tmp_path / "in.yaml", tmp_path / name
    src.write_text(BATCH, encoding="utf-8")
    assert main(["judge", str(src), "-o", str(out)]) == 0
    assert [r["id"] for r in loads(out.read_text())] == ["two-pair", 2, 3, 4, 5, 6, 7, 8, 9, "tie"]


def test_a_format_that_contradicts_the_outputs_name_is_one_line(tmp_path, capsys):
    src = tmp_path / "in.yaml"
    src.write_text(BATCH, encoding="utf-8")
    assert main(["judge", str(src), "-o", str(tmp_path / "out.json"), "--format", "yaml"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--format yaml and the output's name out.json disagree" in err
    assert not (tmp_path / "out.json").exists()
    assert main(["judge", str(src), "-o", str(tmp_path / "out.txt"), "--format", "jsonl"]) == 0


def test_no_table_asks_the_rules_and_gives_the_same_results(tmp_path, capsys):
    # 11,000 fights: past the point where a judge turns to the five-card table when it is cached.
    import random

    from engine import Engine
    from engine.judging.table import five_card_table
    engine = Engine()
    five_card_table(engine)
    rng = random.Random(4)
    lines = []
    for k in range(11_000):
        cards = rng.sample(engine.deck, 10)
        lines.append(json.dumps({"id": k, "hands": [engine.notation.format(cards[:5]), engine.notation.format(cards[5:])]}))
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    outs = []
    for extra in ([], ["--no-table"]):
        out = tmp_path / f"out{len(extra)}.jsonl"
        assert main(["judge", str(src), "-o", str(out), *extra]) == 0
        outs.append(out.read_text())
        err = capsys.readouterr().err
        assert ("five-card table" in err) == (not extra)
    assert outs[0] == outs[1] and outs[0].count("\n") == 11_000


def test_a_showdowns_weight_in_a_chunk_grows_with_what_the_rules_compare():
    from engine import Engine
    from engine.judging.policy import weight as _weight
    engine = Engine()
    two = engine.deal(["AH KH", "2C 3D"], "4S 5S 6S 7D 9C")
    nine = engine.deal([f"{v}H {v}D" for v in "23456789T"], "AS KS QS JC 9C")
    assert _weight([(1, 2, 3, 4, 5), (6, 7, 8, 9, 10)]) == 1
    assert _weight(two) == 2 * 21 ** 2 // 8 and _weight(nine) == 9 * 21 ** 2 // 8


def test_an_unknown_key_is_a_warning_or_with_strict_an_invalid_fight(tmp_path, capsys):
    text = ("fights:\n"
            "  - {id: typo, hands: ['AH KH QH JH TH', '2C 3D 4S 5H 7C'], borad: 'AS KS QS'}\n"
            "  - {id: fine, hands: ['AH KH QH JH TH', '2C 3D 4S 5H 7C']}\n")
    status, results = judge(tmp_path, text)
    assert status == 0 and [r["result"] for r in results] == [1, 1] and "error" not in results[0]
    err = capsys.readouterr().err
    assert "poker: warning: fight 'typo': unknown key 'borad' (did you mean 'board'?)" in err
    assert err.count("warning") == 1
    status, results = judge(tmp_path, text, "--strict")
    assert status == 0 and [r["result"] for r in results] == [-1, 1]
    assert results[0]["error"] == "unknown key 'borad' (did you mean 'board'?)"


def test_many_unknown_keys_warn_a_few_lines_then_count(tmp_path, capsys):
    text = "fights:\n" + "".join(f"  - {{id: {k}, hands: ['AH KH QH JH TH', '2C 3D 4S 5H 7C'], note: x}}\n"
                                 for k in range(25))
    status, results = judge(tmp_path, text)
    assert status == 0 and len(results) == 25 and all(r["result"] == 1 for r in results)
    err = capsys.readouterr().err
    assert err.count("unknown key 'note'") == 10 and "poker: warning: 15 more fights with unknown keys" in err


def test_invalid_means_invalid_no_rank_for_what_is_no_hand(engine):
    """An invalid fight keeps the ranks of its hands that are hands, and null for the others;
    a fight that cannot be read has null for every hand."""
    results = {r.id: r.as_dict() for r in judge_fights(engine, [
        {"id": "shared", "hands": ["AH KH QH JH TH", "AH 2D 3C 4S 5H"]},
        {"id": "four", "hands": ["AH KH QH JH", "2D 3C 4S 5H 7C"]},
        {"id": "unread", "hands": ["AH KH QH JH XX", "2D 3C 4S 5H 7C"]}])}
    assert (results["shared"]["ranks"], results["shared"]["categories"]) == ([10, 5], ["royal flush", "straight"])
    assert (results["four"]["ranks"], results["four"]["categories"]) == ([None, 1], [None, "high card"])
    assert (results["unread"]["ranks"], results["unread"]["categories"]) == ([None, None], [None, None])
    assert all(r["result"] == -1 and r["winners"] == [] for r in results.values())


def test_invalid_means_invalid_in_showdowns_too(engine):
    """A player whose own cards cannot play (whyNotSeat: three hole cards in hold'em) shows no five
    and no rank; players whose cards are fine but shared keep theirs (the showdown is invalid)."""
    results = {r.id: r.as_dict() for r in judge_fights(engine, [
        {"id": "three", "hands": ["AH KD 2C", "3H QD"], "board": "9S TH JC KH 8D"},
        {"id": "shared", "hands": ["AH KD", "AH QD"], "board": "9S TH JC KH 8D"}])}
    three, shared = results["three"], results["shared"]
    assert (three["ranks"], three["categories"], three["best"]) == ([None, 5], [None, "straight"],
                                                                    [None, "QD 9S TH JC KH"])
    assert "player 1: the wrong number of cards for the game" in three["error"]
    assert shared["ranks"] == [2, 5] and None not in shared["best"] and shared["result"] == -1
