"""The columnar path of JSON Lines batches (engine/judge/columnar.py) against today's reader and judge:
the same bytes out, row for row, on the examples, on hostile rows mixed into good ones and on a
file laid out as the benchmarks lay it; N in, N out; the same one-line error."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

import pytest
import yaml

from conftest import EULER, ROOT, edit
from engine.cli import main
from engine.io import fights as batch
from engine.io.results import Block, write_results
from engine.judge import Judge, columnar

DECK = [v + s for v in "23456789TJQKA" for s in "CDHS"]


def today(engine, data: bytes, fmt: str) -> str:
    """What today's path writes: the reader of every batch, the judge fight by fight."""
    out = io.StringIO()
    judge = Judge(engine, table=True)
    write_results(out, (r.as_dict() for r in judge.judge(batch.read_fights(io.BytesIO(data), "jsonl"))), fmt)
    return out.getvalue()


def columns(engine, data: bytes, fmt: str, read: int | None = None) -> tuple[str, Judge]:
    """What the columnar path writes (``read``: bytes a block, small to make many blocks)."""
    out = io.StringIO()
    judge = Judge(engine, table=True)
    judge._look(0)
    opened = batch.open_batch(io.BytesIO(data), "jsonl")
    old = columnar.READ
    if read:
        columnar.READ = read
    judge.vouched = 0                                     # type: ignore[attr-defined]

    def results():
        for r in columnar.judge_lines(judge, opened.stream, opened.name):
            if type(r) is Block:
                judge.vouched += len(r)                   # type: ignore[attr-defined]
                yield r
            else:
                yield r.as_dict()
    try:
        write_results(out, results(), fmt)
    finally:
        columnar.READ = old
    return out.getvalue(), judge


def good(rng: random.Random, ident: object = None) -> dict:
    cards = rng.sample(DECK, 10)
    fight = {"hands": [" ".join(cards[:5]), " ".join(cards[5:])]}
    if ident is not None:
        fight = {"id": ident, **fight}
    return fight


def hostile(rng: random.Random) -> str:
    """A line today's reader or judge reads otherwise than a plain fight of two hands."""
    f = good(rng, rng.randint(1, 99))
    a, b = f["hands"]
    choices = [
        json.dumps({"id": "bad card", "hands": [a[:-2] + "XX", b]}),
        json.dumps({"id": "twice", "hands": [a[:3] + a[:2] + a[5:], b]}),           # a card given twice
        json.dumps({"id": "shared", "hands": [a, a[:2] + b[2:]]}),                  # a card in both hands
        json.dumps({"id": "four", "hands": [a[:11], b]}),
        json.dumps({"id": "three hands", "hands": [a, b, " ".join(rng.sample(DECK, 5))]}),
        json.dumps({"id": "lists", "hands": [a.split(), b.split()]}),
        json.dumps({"id": "unknown key", "hands": [a, b], "borad": "AH"}),
        json.dumps({"id": "showdown", "hands": [a[:5], b[:5]], "board": " ".join(
            c for c in DECK if c not in a and c not in b)[:14]}),
        json.dumps({"id": 1.5, "hands": [a, b]}),
        json.dumps({"id": 10 ** 30, "hands": [a, b]}),
        json.dumps({"id": True, "hands": [a, b]}),
        json.dumps({"id": None, "hands": [a, b]}),
        json.dumps({"id": ["a", 1], "hands": [a, b]}),
        json.dumps({"id": "é\u2028ü", "hands": [a, b]}, ensure_ascii=False),
        json.dumps({"id": "\u0007bell", "hands": [a, b]}),
        json.dumps({"id": "ok", "hands": [a.lower(), b]}),
        json.dumps({"id": "ok", "hands": [a.replace("T", "10"), b]}),
        json.dumps({"id": "spaces", "hands": [" " + a, b + "  "]}),
        json.dumps({"id": "comma", "hands": [a.replace(" ", ","), b]}),
        '{"id": "esc", "hands": ["\\u0041' + a[1:] + '", "' + b + '"]}',
        '{"hands": ["' + a + '", "' + b + '"], "id": "id"}',
        '{"id": 7, "hands": ["' + a + '", "' + b + '"]}   ',
        json.dumps([a, b]),
        json.dumps("just text"),
        "42",
        json.dumps({"hands": [a, b]}),
        json.dumps({"id": "no hands"}),
        json.dumps({"id": "one", "hands": [a]}),
        json.dumps({"id": "empty", "hands": []}),
        json.dumps({"id": "nulls", "hands": [None, b]}),
        "",
        "   \t",
        "\u3000",
    ]
    return rng.choice(choices)


def mixed(n: int, seed: int, share: float = 0.2, crlf: bool = False, bom: bool = False) -> bytes:
    rng = random.Random(seed)
    lines = []
    for i in range(n):
        if rng.random() < share:
            lines.append(hostile(rng))
        else:
            lines.append(json.dumps(good(rng, i + 1 if rng.random() < 0.8 else rng.choice([None, f"f{i}"]))))
    text = ("\r\n" if crlf else "\n").join(lines) + ("" if rng.random() < 0.5 else "\n")
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")


@pytest.mark.parametrize("fmt", batch.OUTPUT_FORMATS)
def test_hostile_rows_mixed_into_good_ones_give_todays_bytes(engine, fmt):
    data = mixed(3_000, seed=35)
    mine, judge = columns(engine, data, fmt, read=8_000)     # many blocks, rows cut across them
    assert mine == today(engine, data, fmt)
    assert 2_000 < judge.vouched < 3_000                  # most rows read here, the hostile ones by the judge


@pytest.mark.parametrize("crlf, bom", [(True, False), (False, True), (True, True)])
def test_line_breaks_and_a_byte_order_mark_as_the_text_reader_reads_them(engine, crlf, bom):
    data = mixed(600, seed=7, crlf=crlf, bom=bom)
    assert columns(engine, data, "jsonl", read=1_000)[0] == today(engine, data, "jsonl")


def test_every_row_vouched_is_a_plain_fight_and_n_in_n_out(engine):
    data = mixed(2_000, seed=3, share=0.0)
    mine, judge = columns(engine, data, "jsonl")
    rows = [json.loads(line) for line in mine.splitlines()]
    assert len(rows) == 2_000 and mine == today(engine, data, "jsonl")
    assert all(r["result"] in (0, 1, 2) and "error" not in r for r in rows)
    assert judge.vouched == 2_000


def test_the_examples_give_todays_bytes(engine):
    """The sample batch (`poker example`) and Project Euler 54's fights, as JSON Lines."""
    fights = yaml.safe_load((ROOT / "examples" / "fights.yaml").read_text(encoding="utf-8"))["fights"]
    for line in EULER.read_text(encoding="utf-8").splitlines():
        cards = line.split()
        fights.append({"hands": [" ".join(cards[:5]), " ".join(cards[5:])]})
    data = "".join(json.dumps(f) + "\n" for f in fights).encode()
    mine, _ = columns(engine, data, "yaml", read=20_000)
    assert mine == today(engine, data, "yaml")
    assert sum(r["result"] == 1 for r in yaml.safe_load(mine)["results"][-1000:]) == 376


@pytest.mark.parametrize("bad, words", [
    ('{"id": 1, "id": 2, "hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]}', "duplicate key 'id'"),
    ('{"hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"], "hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7D"]}',
     "duplicate key 'hands'"),
    ('{"id": 1, "hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]', "JSON syntax error"),
    ('{"id": NaN, "hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]}', None),
    ('{"hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]}, {"hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]}',
     "JSON syntax error"),                                                      # two on one line
    ('{"hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]}]', "JSON syntax error"),
    ('[{"hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]}', None),
])
def test_a_line_today_refuses_is_refused_with_todays_line(engine, bad, words):
    rng = random.Random(1)
    lines = [json.dumps(good(rng, i)) for i in range(50)]
    lines.insert(31, bad)
    data = ("\n".join(lines) + "\n").encode()
    try:
        expected = today(engine, data, "jsonl")
    except batch.BatchError as exc:
        expected = str(exc)
    try:
        got = columns(engine, data, "jsonl")[0]
    except batch.BatchError as exc:
        got = str(exc)
    assert got == expected
    if words:
        assert got.startswith("<stream>:32: ") and words in got


def test_a_line_far_too_long_stops_the_batch_in_one_line(engine):
    data = b'{"id": 1, "hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]}\n' + b" " * (4 * batch.MAX_ITEM_CHARS + 10)
    with pytest.raises(batch.BatchError, match=r"^<stream>:2: the line is too long"):
        columns(engine, data, "jsonl", read=1 << 16)
    with pytest.raises(batch.BatchError, match=r"^<stream>:2: the line is too long"):
        today(engine, data, "jsonl")


def test_the_cli_writes_todays_bytes_and_counts_every_fight(engine, tmp_path):
    """`poker judge` of a file laid out as bench/bench_million.py lays it, hostile rows mixed
    in, long enough for the table: the output is what today's path writes."""
    data = mixed(12_000, seed=19, share=0.01)
    src, out = tmp_path / "fights.jsonl", tmp_path / "out.yaml"
    src.write_bytes(data)
    run = subprocess.run([sys.executable, "-m", "engine", "judge", str(src), "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert out.read_text(encoding="utf-8") == today(engine, data, "yaml")
    summary = run.stderr.strip().splitlines()[-1]
    n = len([line for line in data.decode("utf-8-sig").split("\n") if line.strip() and not line.isspace()])
    assert summary.startswith(f"fights: {n},") and "five-card table" in summary


def test_where_the_fights_proof_fails_no_row_is_read_off_the_table(tmp_path):
    """beat's tie-break with the hands swapped (a 26-card deck): the proof fails, the path
    vouches for nothing, and every fight is the rules' (the weaker of one rank wins)."""
    from test_proof import small_rules

    from engine import Engine
    rules = small_rules(tmp_path)
    edit(rules / "fighting.dl", "beat_D: beat(A, B, R) <= beatRank(A, B, 0) & tieBreak(A, B, R)",
         "beat_D: beat(A, B, R) <= beatRank(A, B, 0) & tieBreak(B, A, R)")
    eng = Engine(rules)
    rng = random.Random(5)
    deck = [c for c in DECK if c[1] in "HD"]
    lines = [json.dumps({"id": i, "hands": [" ".join(h[:5]), " ".join(h[5:])]})
             for i, h in enumerate(rng.sample(deck, 10) for _ in range(300))]
    lines.append(json.dumps({"id": "weaker", "hands": ["AH KH 2D 4D 6D", "AD KD 3H 5H 7H"]}))
    data = ("\n".join(lines) + "\n").encode()
    mine, judge = columns(eng, data, "jsonl")
    assert judge.fast is not None and not judge.fast.fights and not columnar.usable(judge)
    assert judge.vouched == 0
    assert mine == today(eng, data, "jsonl")
    assert json.loads(mine.splitlines()[-1])["result"] == 1


def test_engine_beat_warm_reads_the_table_as_the_rules_judge(tmp_path):
    """Engine.beat once warm (engine.tabled.Tabled.beat): the rules' result on random fights
    and ties; a shared card, four cards and lists of cards go the rules' way; a bad card still
    raises."""
    from engine import Engine
    from engine.evaluators import verdicts
    from engine.judging.policy import ENGINE_AFTER as TABLE_AFTER
    from engine.poker.notation import InvalidCards
    warm, cold = Engine(), Engine()
    rng = random.Random(11)
    fights = [(" ".join(c[:5]), " ".join(c[5:])) for c in (rng.sample(DECK, 10) for _ in range(TABLE_AFTER + 400))]
    fights += [("AH KH QH JH TH", "AS KS QS JS TS"), ("2C 3D 4S 5H 7C", "2D 3C 4H 5S 7D"),
               ("AH KH QH JH TH", "AH 2C 3D 4S 6H"), ("AH KH QH JH", "2C 3D 4S 5H 7C")]
    for a, b in fights[:TABLE_AFTER]:
        warm.beat(a, b)
    assert warm.tabled() is not None and warm.tabled().fights
    parsed = [[tuple(cold.cards(a)), tuple(cold.cards(b))] for a, b in fights]
    truth = [v.result for v in verdicts(cold.evaluator(len(parsed)), parsed)]      # the rules, no table
    got = [warm.beat(a, b) for a, b in fights]
    assert got == truth and got[-4:] == [0, 0, -1, -1]
    assert warm.tabled().beat(tuple(warm.cards("AH KH QH JH TH")), tuple(warm.cards("AH 2C 3D 4S 6H"))) is None
    assert warm.beat(["AH", "KH", "QH", "JH", "TH"], "2C 3D 4S 5H 7C") == 1
    with pytest.raises(InvalidCards):
        warm.beat("AH KH QH JH XX", "2C 3D 4S 5H 7C")


# ---- YAML laid out one fight a line (columnar.judge_yaml) ---------------------------------------

def yaml_today(engine, path) -> str:
    out = io.StringIO()
    write_results(out, (r.as_dict() for r in Judge(engine, table=True).judge(batch.read_fights(str(path)))),
                        "jsonl")
    return out.getvalue()


def yaml_columns(engine, path, read: int = 3_000) -> tuple[str, int]:
    out, judge = io.StringIO(), Judge(engine, table=True)
    judge._look(0)
    vouched = [0]

    def results():
        for r in columnar.judge_yaml(judge, str(path)):
            if type(r) is Block:
                vouched[0] += len(r)
                yield r
            else:
                yield r.as_dict()
    old, columnar.READ = columnar.READ, read
    try:
        write_results(out, results(), "jsonl")
    finally:
        columnar.READ = old
    return out.getvalue(), vouched[0]


def yaml_rows(n: int, seed: int, lead: str = "  - ") -> list[str]:
    """Rows as bench/bench_million.py writes them; one in ten a bad card, a shared card or four."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        a, b = good(rng)["hands"]
        kind = rng.random()
        if kind < 0.03:
            a = a[:-2] + "XX"
        elif kind < 0.06:
            b = a[:2] + b[2:]
        elif kind < 0.1:
            a = "AH AH" + a[5:]
        out.append(f"{lead}{{id: {i + 1}, hands: ['{a}', '{b}']}}\n")
    return out


@pytest.mark.parametrize("lead, tail, vouched", [
    ("  - ", "", True),                                           # every line a plain row
    ("- ", "", True),                                             # the sequence not indented
    ("  - ", "# a comment\n", False),                             # another kind of line: read again
    ("  - ", "  - {id: 0123, hands: ['AH KH QH JH TH', '2C 3D 4S 5H 7C']}\n", False),   # octal to YAML 1.1
    ("  - ", "  - {board: AH KH QH 2C 3D, hands: ['JH TH', 'AS AD']}\n", False),
    ("  - ", "  - {id: 9, hands: ['AH KH QH JH TH', '2C 3D 4S 5H 7C']}", False),        # no last line break
])
def test_yaml_a_line_at_a_time_gives_todays_bytes(engine, tmp_path, lead, tail, vouched):
    rows = yaml_rows(400, seed=len(tail), lead=lead)
    path = tmp_path / "fights.yaml"
    text = "".join(rows[:300]) + tail + "".join(rows[300:]) if tail.endswith("\n") else "".join(rows) + tail
    path.write_text("fights:\n" + text, encoding="utf-8")
    mine, read = yaml_columns(engine, path)
    assert mine == yaml_today(engine, path)
    assert len(mine.splitlines()) == 400 + bool(tail.strip() and not tail.startswith("#"))
    assert (read > 300) if vouched else (read < 300 or not tail.endswith("\n"))


def test_yaml_a_syntax_error_after_good_rows_is_todays_line(engine, tmp_path):
    path = tmp_path / "fights.yaml"
    path.write_text("fights:\n" + "".join(yaml_rows(200, seed=2)) + "- {id: 1, hands: ['AH KH QH JH TH', '2C 3D 4S 5H 7C']}\n"
                    + "".join(yaml_rows(100, seed=3)), encoding="utf-8")          # another indentation
    with pytest.raises(batch.BatchError) as mine:
        yaml_columns(engine, path, read=1_000)
    with pytest.raises(batch.BatchError) as today_:
        yaml_today(engine, path)
    assert str(mine.value) == str(today_.value) and str(mine.value).startswith(f"{path}:")


def test_the_cli_reads_yaml_a_line_at_a_time_with_todays_bytes(engine, tmp_path):
    src, out = tmp_path / "fights.yaml", tmp_path / "out.yaml"
    src.write_text("fights:\n" + "".join(yaml_rows(12_000, seed=4)), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "engine", "judge", str(src), "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    expected = io.StringIO()
    write_results(expected, (r.as_dict() for r in Judge(engine, table=True).judge(batch.read_fights(str(src)))),
                        "yaml")
    assert out.read_text(encoding="utf-8") == expected.getvalue()
    assert run.stderr.strip().splitlines()[-1].startswith("fights: 12000,")


@pytest.mark.parametrize("text", ["fights:\n  - {id: 1, hands: ['AH KH QH JH TH', '2C 3D 4S 5H 7C']}\n",
                                  '{"id": 1, "hands": ["AH KH QH JH TH", "2C 3D 4S 5H 7C"]}\n'])
def test_a_pipe_named_as_a_file_is_read_once(text):
    """A path that is no regular file (/dev/stdin on a pipe) is sniffed by the reader that reads
    it, never opened twice: its first bytes are not lost."""
    run = subprocess.run([sys.executable, "-m", "engine", "judge", "/dev/stdin", "--format", "jsonl"],
                         input=text, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert [json.loads(line)["result"] for line in run.stdout.splitlines()] == [1]


def showdown(rng: random.Random, game: str | None, players: int, holes: int = 2) -> dict:
    cards = rng.sample(DECK, holes * players + 5)
    fight = {"id": rng.randint(1, 10 ** 6), "hands": [" ".join(cards[holes * p:holes * p + holes])
                                                     for p in range(players)], "board": " ".join(cards[-5:])}
    if game is not None:
        fight["game"] = game
    return fight


def test_showdowns_in_the_columnar_path_give_todays_bytes(engine):
    """Hold'em and Omaha showdowns read off the table in blocks; split pots, a shared card, a
    turn board, an unknown game, a game without a board, each in its place through the judge."""
    rng = random.Random(9)
    fights = [showdown(rng, rng.choice([None, "holdem"]), rng.randint(2, 9)) for _ in range(400)]
    fights += [showdown(rng, "omaha", rng.randint(2, 6), holes=4) for _ in range(100)]
    fights += [good(rng, i) for i in range(100)]
    fights += [showdown(rng, game, 3, holes=4) for game in ("holdem-hilo", "omaha-hilo")]   # split pots: the judge's
    shared = showdown(rng, None, 3)
    shared["hands"][1] = shared["hands"][0][:2] + shared["hands"][1][2:]                       # a shared card
    turn = showdown(rng, None, 4)
    turn["board"] = turn["board"][:11]
    fights += [shared, turn, showdown(rng, "badugi", 2), {"id": 7, "hands": good(rng)["hands"], "game": "holdem"}]
    rng.shuffle(fights)
    for fight in fights[::10]:
        fight.pop("id", None)
    data = "".join(json.dumps(f) + "\n" for f in fights).encode()
    mine, judge = columns(engine, data, "yaml", read=8_000)
    assert mine == today(engine, data, "yaml")
    results = yaml.safe_load(mine)["results"]
    assert len(results) == len(fights) and sum("best" in r for r in results) >= 500
    assert judge.vouched >= 600


@pytest.mark.parametrize("bom", [False, True])
def test_stdin_of_json_lines_is_read_in_blocks_with_todays_bytes(engine, monkeypatch, capsys, bom):
    """`poker judge -` tells JSON Lines by stdin's first line and reads the rest in blocks, as it
    reads a file: the sniffed line put back, the same bytes as today's reader, N in, N out."""
    data = mixed(1_500, seed=11, bom=bom)
    calls = []
    real = columnar.judge_lines

    def spy(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)
    monkeypatch.setattr(columnar, "judge_lines", spy)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    status = main(["judge", "-", "--format", "jsonl"])
    out, err = capsys.readouterr()
    assert (status, calls) == (0, ["<stdin>"]), err
    assert out == today(engine, data, "jsonl")


def test_stdin_that_is_no_json_lines_is_read_once_by_the_reader_of_its_format(monkeypatch, capsys):
    text = "# a comment\nfights:\n  - {id: 1, hands: ['AH KH QH JH TH', '2C 3D 4S 5H 7C']}\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))
    monkeypatch.setattr(columnar, "judge_lines", None)        # never called
    assert main(["judge", "-", "--format", "jsonl"]) == 0
    assert [json.loads(line)["result"] for line in capsys.readouterr().out.splitlines()] == [1]
