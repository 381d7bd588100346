"""Adversarial batches for `poker judge` and engine.batch (issue 11): whatever the file holds,
every fight gets a result (N in, N out, in order) or the run stops with one line and exit 2;
never a traceback, a segfault, memory exhaustion or output that is not valid JSON/YAML."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engine.cli import main
from engine.io import fights as batch
from engine.io.fights import BatchError, check_fight, read_fights
from engine.io.results import write_results

ROOT = Path(__file__).resolve().parent.parent
A, B = "JH JD 2C 2S 4H", "TH TD 9C 9S 8H"


def items(text: str | bytes, fmt: str | None = None) -> list:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return list(read_fights(io.BytesIO(data), fmt))


def refused(text: str | bytes, fmt: str | None = None) -> str:
    with pytest.raises(BatchError) as info:
        items(text, fmt)
    message = str(info.value)
    assert "\n" not in message and message.startswith("<stream>")
    return message


def judge(tmp_path: Path, capsys, text: str | bytes, name: str = "in.yaml", *extra: str):
    src = tmp_path / name
    src.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    status = main(["judge", str(src), *extra])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


# ---- the three formats, chosen by extension or content ---------------------------------------

FIGHTS = [{"id": "one", "hands": [A, B]}, {"hands": [[A], B, 7]}, "junk", {"id": 4, "hands": [B, A]}]


@pytest.mark.parametrize("fmt, text", [
    ("yaml", yaml.safe_dump({"fights": FIGHTS})),
    ("json", json.dumps({"fights": FIGHTS})),
    ("json", json.dumps({"other": [1, {"a": 2}], "fights": FIGHTS, "after": "x"}, indent=2)),
    ("jsonl", "\n".join(json.dumps(f) for f in FIGHTS) + "\n\n"),
])
def test_every_format_yields_every_item_in_order(fmt, text):
    assert items(text, fmt) == FIGHTS
    assert items(text) == FIGHTS                          # sniffed from the content


@pytest.mark.parametrize("head, fmt", [
    (b"fights: []", "yaml"), (b"# comment\nfights:\n", "yaml"), (b'{"fights": []}', "json"),
    (b'\xef\xbb\xbf {\n "fights": [', "json"), (b'{"hands": ["AH"]}\n{"id": 2}', "jsonl"),
    (b'{"id": 1, "hands": [', "json"), (b"{fights: []}", "yaml"), (b"", "yaml")])
def test_sniffing(head, fmt):
    assert batch.sniff(head) == fmt


def test_the_extension_decides_for_a_file(tmp_path):
    for name, fmt in [("a.yaml", "yaml"), ("a.YML", "yaml"), ("a.json", "json"), ("a.jsonl", "jsonl"),
                      ("a.ndjson", "jsonl"), ("a.txt", None), ("-", None)]:
        assert batch.format_of(name) == fmt
    src = tmp_path / "fights.txt"                         # unknown extension: sniffed
    src.write_text('{"hands": ["%s", "%s"]}\n' % (A, B))
    assert list(read_fights(str(src))) == [{"hands": [A, B]}]


def test_a_large_json_element_spans_read_chunks():
    fights = [{"id": "x" * 50_000, "hands": [A, B]}, {"id": 12345678901234567890, "hands": [A, B]}] * 3
    assert items(json.dumps({"fights": fights})) == fights


def test_a_text_stream_and_stdin_work(monkeypatch):
    assert list(read_fights(io.StringIO('{"fights": [1]}'))) == [1]
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"hands": [1]}\n'))
    assert list(read_fights("-")) == [{"hands": [1]}]


# ---- what stops a batch: one line naming the file and the line ------------------------------

@pytest.mark.parametrize("text, words", [
    ("", "the file is empty"),
    ("- a list\n", "expected a mapping with `fights:`"),
    ("fights: 3\n", "expected a mapping with `fights:`"),
    ("other: 1\n", "expected a mapping with `fights:`"),
    ("fights: [\n", "YAML syntax error"),
    ("fights: []\n---\nfights: []\n", "more than one YAML document"),
    ("fights: []\nfights: []\n", ":2: duplicate key 'fights'"),
    ("fights:\n  - hands: [a, b]\n    hands: [c, d]\n", ":3: duplicate key 'hands'"),
    ("fights:\n  - {id: 1, id: 2, hands: []}\n", "duplicate key 'id'"),
    ("x: {a: 1, a: 2}\nfights: []\n", ":1: duplicate key 'a'"),
    ("fights:\n  - &h [a, b]\n  - hands: *h\n", ":3: an alias (*h) is not allowed"),
    ("fights:\n  - hands: [{[1]: 2}]\n", "a mapping key must be a scalar"),
    (b"fights: [\xff]\n", "not UTF-8"),
])
def test_yaml_that_stops_the_batch(text, words):
    assert words in refused(text, "yaml")


@pytest.mark.parametrize("text, words", [
    ('[{"hands": []}]', 'expected an object with "fights"'),
    ('{"fights": 3}', '"fights" is no list'),
    ('{"x": 1}', 'expected an object with "fights"'),
    ('{"fights": [1, 2,]}', "JSON syntax error"),
    ('{"fights": [1]} 2', "extra data"),
    ('{"fights": [], "fights": []}', "duplicate key 'fights'"),
    ('{"fights": [\n{"hands": [], "hands": []}]}', ":2: duplicate key 'hands'"),
    ('{"fights": [' + "[" * 5000 + "]" * 5000 + "]}", "nested too deeply"),
    (b'{"fights": ["\xff"]}', "not UTF-8"),
])
def test_json_that_stops_the_batch(text, words):
    assert words in refused(text, "json")


@pytest.mark.parametrize("text, words", [
    ('{"hands": []}\n{"hands": [}\n', ":2: JSON syntax error"),
    ('{"hands": []}\n\n{"id": 1, "id": 2}\n', ":3: duplicate key 'id'"),
    ("[" * 100_000 + "\n", ":1: nested too deeply"),
    ('"' + "x" * (batch.MAX_ITEM_CHARS + 10) + '"\n', ":1: the line is too long"),
])
def test_json_lines_that_stop_the_batch(text, words):
    assert words in refused(text, "jsonl")


def test_an_unreadable_file_is_named(tmp_path):
    with pytest.raises(BatchError, match=r"nope\.yaml: cannot read: No such file"):
        read_fights(str(tmp_path / "nope.yaml"))
    with pytest.raises(BatchError, match=r": cannot read: Is a directory"):
        list(read_fights(str(tmp_path), "json"))


# ---- nesting, alias bombs, huge scalars: refused before they are built ----------------------

def test_deep_yaml_nesting_is_refused_at_the_batchs_own_limit():
    depth = batch.MAX_DEPTH + 1
    assert "nested too deeply" in refused("fights:\n  - " + "[" * depth + "]" * depth + "\n")
    assert "nested too deeply" in refused("fights:\n" + "".join("  " * i + "- \n" for i in range(1, 200)))


@pytest.mark.parametrize("depth", [30_000, 1_000_000])
def test_deeper_yaml_nesting_is_refused_on_its_line(depth):
    """libyaml overflowed the C stack (a segfault) at about 30,000 levels; PyYAML 6.0.4 refuses
    deep flow nesting itself, before our own check sees the events.  Either way: one line that
    names the place, whatever the library's words."""
    assert refused("fights:\n  - " + "[" * depth + "]" * depth + "\n").startswith("<stream>:2: ")


def test_deep_yaml_nesting_crashes_no_process(tmp_path):
    src = tmp_path / "deep.yaml"
    src.write_text("fights:\n  - " + "[" * 40_000 + "]" * 40_000 + "\n")
    done = subprocess.run([sys.executable, "-m", "engine", "judge", str(src)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and f"{src}:2: " in done.stderr


def test_an_alias_bomb_is_refused_at_its_first_alias():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))
    assert "an alias (*a) is not allowed" in refused(bomb + "fights: []\n")


@pytest.mark.parametrize("text", [
    "fights:\n  - hands: ['" + "x" * (batch.MAX_SCALAR + 1) + "']\n",
    "fights:\n  - hands: [" + "x" * 5_000_000 + "]\n",          # refused before libyaml holds it
    "# " + "x" * 5_000_000 + "\nfights: []\n",
])
def test_a_huge_scalar_is_refused(text):
    assert "more than 65536 characters" in refused(text)


def test_a_fight_of_too_many_values_is_refused():
    assert f"more than {batch.MAX_ITEM_NODES} values" in refused("fights:\n  - hands: [" + "a, " * 20_000 + "]\n")


def test_a_json_element_over_the_limit_is_refused():
    big = json.dumps({"fights": [{"id": "x" * (batch.MAX_ITEM_CHARS + 1)}]})
    assert "an element is too long" in refused(big)


# ---- odd values: kept as text so that the output stays valid --------------------------------

def test_ids_json_cannot_carry_are_kept_as_text():
    text = ("fights:\n"
            "  - {id: 2024-01-02, hands: []}\n"
            "  - {id: 2024-01-02 10:00:00, hands: []}\n"
            "  - {id: !!binary aGVsbG8=, hands: []}\n"
            "  - {id: !!set {a, b}, hands: []}\n"
            "  - {id: .nan, hands: []}\n"
            "  - {id: -.inf, hands: []}\n"
            f"  - {{id: {'9' * 5000}, hands: []}}\n"
            "  - {id: [1, {a: 2}], hands: []}\n"
            "  - {id: !custom tag, hands: []}\n"
            "  - {id: 0x1F, hands: []}\n"
            "  - {id: null, hands: []}\n")
    ids = [f["id"] for f in items(text)]
    assert ids[:3] == ["2024-01-02", "2024-01-02 10:00:00", "aGVsbG8="]
    assert json.loads(ids[3]) == {"a": None, "b": None}
    assert ids[4:7] == [".nan", "-.inf", "9" * 5000]
    assert json.loads(ids[7]) == [1, {"a": 2}]
    assert ids[8:] == ["tag", 31, None]
    json_ids = [f["id"] for f in items('{"fights": [{"id": NaN}, {"id": -Infinity}, {"id": 1e999}, '
                                       '{"id": %s}, {"id": 1.5}]}' % ("7" * 5000))]
    assert json_ids == ["NaN", "-Infinity", "1e999", "7" * 5000, 1.5]


def test_the_output_is_valid_json_and_yaml_whatever_the_ids(tmp_path, capsys):
    text = ("fights:\n  - {id: 2024-01-02, hands: ['%s', '%s']}\n  - {id: .nan, hands: ['%s', '%s']}\n"
            "  - {id: %s, hands: ['%s', '%s']}\n  - {id: \"\\u2028\\x85\\t\", hands: [1]}\n"
            % (A, B, A, B, "1" * 4400, A, B))
    for form in ("json", "jsonl", "yaml"):
        status, out, err = judge(tmp_path, capsys, text, "in.yaml", "--format", form)
        assert status == 0, err
        if form == "json":
            results = json.loads(out)["results"]
        elif form == "jsonl":
            results = [json.loads(line) for line in out.splitlines()]
        else:
            results = yaml.safe_load(out)["results"]
        assert [r["id"] for r in results] == ["2024-01-02", ".nan", "1" * 4400, "\u2028\x85\t"]
        assert [r["result"] for r in results] == [1, 1, 1, -1]


def test_write_results_makes_anything_json_safe():
    import datetime
    rows = [{"id": float("inf"), "result": 1}, {"id": 10 ** 500, "x": {1, 2}},
            {"id": datetime.datetime(2020, 1, 1), "e": "\ud800"}, {"id": b"\xff"}]
    for form in ("json", "jsonl", "yaml"):
        out = io.StringIO()
        assert write_results(out, rows, form) == 4
        text = out.getvalue()
        text.encode("utf-8")                               # no lone surrogate left raw
        data = (json.loads(text)["results"] if form == "json"
                else [json.loads(x) for x in text.splitlines()] if form == "jsonl"
                else yaml.safe_load(text)["results"])
        assert data[0]["id"] == "inf" and data[1]["x"] == [1, 2]
        assert data[1]["id"].startswith("0x") and data[2]["id"] == "2020-01-01 00:00:00"
        assert not any(isinstance(v, float) and not math.isfinite(v) for d in data for v in d.values())
    for form in ("json", "jsonl", "yaml"):
        out = io.StringIO()
        write_results(out, [], form)
        assert out.getvalue() in ('{"results": []}\n', "", "results: []\n")


# ---- bad fights are marked, N in N out ------------------------------------------------------

@pytest.mark.parametrize("item, reason", [
    ({"hands": [A, B]}, None),
    ({"hands": [[1, 2, 3, 4, 5], "2C 3D 4S 5H 7C"]}, None),
    (42, "a fight is a mapping with `hands:`"),
    ({"id": 1}, "a fight is a mapping with `hands:`"),
    ({"hands": A}, "`hands` must be a list of hands"),
    ({"hands": [A]}, "a fight takes 2 to 10 hands, not 1"),
    ({"hands": [A] * 11}, "a fight takes 2 to 10 hands, not 11"),
    ({"hands": [A, "AH " * 100]}, "hand 2: too long (300 characters; a hand is five cards)"),
    ({"hands": [A, "A,H," * 40]}, "hand 2: too many cards (80; a hand is five cards)"),
    ({"hands": [A, ["AH"] * 65]}, "hand 2: too many cards (65; a hand is five cards)"),
    ({"hands": [A, ["x" * 300]]}, "hand 2: a card of 300 characters"),
    ({"hands": [A, None]}, "hand 2: expected cards (a string or a list), not nothing"),
    ({"hands": [{"a": 1}, A]}, "hand 1: expected cards (a string or a list), not a dict"),
])
def test_check_fight(item, reason):
    assert check_fight(item) == reason


def test_bad_fights_are_marked_and_the_batch_goes_on(tmp_path, capsys):
    fights = [{"id": "ok", "hands": [A, B]}, {"id": "long", "hands": [A, "AH " * 1000]},
              {"hands": [A, ["AH"] * 200]}, "junk", [1, 2], {"id": "three", "hands": [A, B, "3C 5D 6S 7H KC"]},
              {"id": "none", "hands": None}]
    text = "\n".join(json.dumps(f) for f in fights) + "\n"
    status, out, err = judge(tmp_path, capsys, text, "in.jsonl", "--format", "jsonl")
    assert status == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in results] == ["ok", "long", 3, 4, 5, "three", "none"]
    assert [r["result"] for r in results] == [1, -1, -1, -1, -1, 1, -1]
    assert results[1]["error"].startswith("hand 2: too long") and results[1]["ranks"] == [None, None]
    assert results[2]["error"].startswith("hand 2: too many cards")
    assert results[3]["error"] == "a fight is a mapping with `hands:`"
    assert "fights: 7, judged: 2, invalid: 5" in err


@pytest.mark.parametrize("n", [2, 400])            # in-process, and through DuckDB
def test_a_card_id_past_64_bits_is_marked(tmp_path, capsys, n):
    huge = [10 ** 30, 1, 2, 3, 4]
    fights = [{"id": i, "hands": [huge if i % 2 else A, B]} for i in range(n)]
    text = "\n".join(json.dumps(f) for f in fights) + "\n"
    status, out, err = judge(tmp_path, capsys, text, "in.jsonl", "--format", "jsonl")
    assert status == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in results] == list(range(n))
    assert [r["result"] for r in results] == [1 if i % 2 == 0 else -1 for i in range(n)]
    assert results[1]["error"] == "bad card id of 100 bits: a card id is a 64-bit integer"


def test_a_failure_halfway_writes_nothing(tmp_path, capsys):
    good = "".join(json.dumps({"hands": [A, B]}) + "\n" for _ in range(5))
    out = tmp_path / "out.json"
    out.write_text("old\n")
    status, stdout, err = judge(tmp_path, capsys, good + "{broken\n", "in.jsonl", "-o", str(out))
    assert (status, stdout) == (2, "") and err.count("\n") == 1 and ":6: JSON syntax error" in err
    assert out.read_text() == "old\n" and sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "out.json"]
    status, stdout, err = judge(tmp_path, capsys, good + "{broken\n", "in.jsonl")      # stdout: nothing
    assert (status, stdout) == (2, "")


def test_stdin_is_sniffed(tmp_path):
    lines = "".join(json.dumps({"id": i, "hands": [A, B]}) + "\n" for i in range(3))
    done = subprocess.run([sys.executable, "-m", "engine", "judge", "-", "--format", "jsonl"], input=lines,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [json.loads(x)["id"] for x in done.stdout.splitlines()] == [0, 1, 2]


def test_json_and_jsonl_formats_and_their_flags(tmp_path, capsys):
    text = json.dumps({"fights": [{"hands": [A, B]}]})
    status, out, _ = judge(tmp_path, capsys, text, "in.json", "--json")
    assert status == 0 and json.loads(out) == {"results": [
        {"id": 1, "result": 1, "winners": [0], "ranks": [3, 3], "categories": ["two pair", "two pair"]}]}
    status, _, err = judge(tmp_path, capsys, text, "in.json", "--json", "--format", "jsonl")
    assert status == 2 and "disagree" in err


def test_a_batch_streams_in_bounded_memory(tmp_path):
    """Reading and writing 200,000 fights keeps memory flat (bench/bench_batch.py does 1,000,000)."""
    src = tmp_path / "many.jsonl"
    line = json.dumps({"id": "x", "hands": [A, B]}) + "\n"
    src.write_text(line * 200_000)
    code = ("import resource, sys; from engine.io.fights import read_fights; from engine.io.results import write_results; "
            "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024; "
            "n = write_results(open('/dev/null', 'w'), ({'id': f['id'], 'result': 1} for f in "
            "read_fights(sys.argv[1])), 'json'); "
            "print(n, base, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)")
    done = subprocess.run([sys.executable, "-c", code, str(src)], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    count, base_mb, peak_mb = map(int, done.stdout.split())
    # flat: what the batch adds to the imports stays far below what 200,000 fights would take
    assert count == 200_000 and peak_mb - base_mb < 40, (base_mb, peak_mb)


# ---- every command: a hand far longer than any game plays, a path of no user (issue 19) -----

HUGE = " ".join(["AH", "KH", "QH", "JH", "TH"] * 1600)            # 8,000 cards
QUOTED = "'AH KH QH JH TH AH KH QH JH TH AH KH QH J…'"


@pytest.mark.parametrize("argv, stdin, status, error", [
    (["rank", HUGE], "", 2, f"poker: {QUOTED}: too long (23999 characters; a hand is five cards)"),
    (["rank", "AHKHQHJHTH" * 14], "", 2,
     "poker: 'AHKHQHJHTHAHKHQHJHTHAHKHQHJHTHAHKHQHJHTH…': too many cards (70; a hand is five cards)"),
    (["beat", HUGE, A], "", 2, f"poker: {QUOTED}: too long (23999 characters; a hand is five cards)"),
    (["beat", "--board", "2C 3D 4S", A, HUGE], "", 2,
     f"poker: {QUOTED}: too long (23999 characters; a hand is five cards)"),
    (["equity", "AS AD", "KC KD", "--dead", HUGE], "", 2,
     f"poker: {QUOTED}: too long (23999 characters; a hand is five cards)"),
    (["repl"], f"let a = {HUGE}\n", 1,
     f"poker: line 1: let a: {QUOTED}: too long (23999 characters; a hand is five cards)"),
    (["game"], f"0\n{HUGE}\n", 1, f"poker: line 2: {QUOTED}: too long (23999 characters; a hand is five cards)"),
])
def test_a_hand_longer_than_any_game_is_refused_by_every_command(monkeypatch, capsys, argv, stdin, status, error):
    """Refused as it is read, with the batches' check (engine.poker.notation.oversized): 8,000 cards
    ran `poker beat` for a minute, to 6 GB.  (The budget only keeps a failure quick.)"""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert main([*argv, "--timeout", "5"]) == status
    out, err = capsys.readouterr()
    assert err == error + "\n" and out == ""


def test_rules_in_the_home_of_no_user_are_one_line(capsys):
    assert main(["--rules", "~nosuchuser", "rank", A]) == 2
    assert capsys.readouterr().err == \
        "poker: ~nosuchuser: not a directory of rule files (no home directory for '~nosuchuser')\n"


def test_a_card_whose_value_has_no_symbol_is_written_as_its_id():
    # rules whose cardId names a value no valueSymbol writes (an edit the table fuzzer made): the
    # card is written as its id in every message, never a KeyError
    from engine.poker.notation import Notation
    n = Notation.from_tables(values=[(1, "A", 0)], suits=[(1, "H", 0)], ids=[(1, 1, 1), (2, 0, 1)])
    assert n.format([1, 2]) == "AH 2" and n.token(2) == "2"
