"""Showdowns in the columnar path (engine/judge/columnar.py, issue 35): read by shape as arrays,
each player's best five by engine.poker.sevens.best_fives, against the judge's own path row by row
(the same bytes, N in, N out, every row it cannot vouch for in its place), the rules asked world by
world, treys, and brute force; nothing read off the table where the showdown proof fails or for a
game whose pot is split or which has no board."""

from __future__ import annotations

import io
import itertools
import json
import random

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from test_columnar import DECK, columns, good, today

from conftest import edit
from engine import Engine
from engine.io import fights as batch
from engine.io.results import write_results
from engine.judge import Judge, columnar
from engine.poker import sevens


def deal(rng: random.Random, players: int, holes: int = 2, board: int = 5, game: str | None = None,
         deck: list[str] = DECK, ident: object = "auto") -> dict:
    cards = rng.sample(deck, holes * players + board)
    fight: dict = {"hands": [" ".join(cards[holes * p:holes * p + holes]) for p in range(players)],
                   "board": " ".join(cards[holes * players:])}
    if ident == "auto":
        fight["id"] = rng.randint(1, 10 ** 9)
    elif ident is not None:
        fight["id"] = ident
    if game is not None:
        fight["game"] = game
    return fight


def jsonl(fights: list) -> bytes:
    return "".join((f if isinstance(f, str) else json.dumps(f)) + "\n" for f in fights).encode()


def rules_world_by_world(engine, data: bytes) -> str:
    """What the rules answer, no table: every showdown asked of the compiled rules."""
    out = io.StringIO()
    write_results(out, (r.as_dict() for r in Judge(engine, table=False).judge(batch.read_fights(io.BytesIO(data), "jsonl"))),
                  "jsonl")
    return out.getvalue()


# ---- the best five of each row ---------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.data())
def test_best_fives_is_the_first_best_five_in_the_columns_order(data):
    """Against brute force: every five of the row's columns in itertools' order, sorted, looked up,
    the first of the highest value.  Few distinct values, so that fives tie often."""
    n = data.draw(st.integers(7, 52))
    r = data.draw(st.integers(5, min(10, n)))
    spread = data.draw(st.sampled_from([2, 3, 50, 7462]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 32 - 1)))
    values = rng.integers(0, spread, size=sevens._c(n, 5)).astype(np.int16)
    rows = np.array([rng.permutation(n)[:r] for _ in range(data.draw(st.integers(1, 40)))])
    best, first, index = sevens.best_fives(values, rows, n)
    for row, b, f, i in zip(rows.tolist(), best.tolist(), first.tolist(), index.tolist()):
        fives = [sorted(row[c] for c in cols) for cols in itertools.combinations(range(r), 5)]
        worth = [int(values[sevens.colex(np.array([five]), n)[0]]) for five in fives]
        at = worth.index(max(worth))
        assert (b, f, i) == (max(worth), at, int(sevens.colex(np.array([fives[at]]), n)[0]))


# ---- the same bytes as the judge row by row ----------------------------------------------------------

@pytest.mark.parametrize("seed, fmt", [(1, "jsonl"), (2, "yaml"), (3, "json")])
def test_random_showdowns_give_the_row_paths_bytes(engine, seed, fmt):
    """Hold'em of 2 to 10 players on the flop, turn and river, named or not, Omaha, plain fights
    and ids of every kind, in blocks of a few kilobytes: today's bytes, and every showdown and
    fight read off the table."""
    rng = random.Random(seed)
    fights = []
    for _ in range(700):
        kind = rng.random()
        if kind < 0.7:
            fights.append(deal(rng, rng.randint(2, 10), board=rng.choice([3, 4, 5, 5, 5]),
                               game=rng.choice([None, "holdem"])))
        elif kind < 0.85:
            fights.append(deal(rng, rng.randint(2, 6), holes=4, board=rng.choice([3, 4, 5]), game="omaha"))
        else:
            fights.append(good(rng, rng.randint(0, 10 ** 6)))
    for f in fights[::7]:
        f["id"] = rng.choice([None, "a string", -3, 2 ** 62])
    for f in fights[::11]:
        f.pop("id", None)
    data = jsonl(fights)
    mine, judge = columns(engine, data, fmt, read=6_000)
    assert mine == today(engine, data, fmt)
    assert judge.vouched == len(fights)


def test_showdowns_of_one_shape_in_one_big_block(engine):
    """20,000 river showdowns of 2 to 9 players as bench/bench_showdowns.py lays them out."""
    rng = random.Random(20)
    data = jsonl([deal(rng, rng.randint(2, 9), ident=i + 1) for i in range(20_000)])
    mine, judge = columns(engine, data, "jsonl")
    assert mine == today(engine, data, "jsonl") and judge.vouched == 20_000


def test_showdowns_however_the_json_is_laid_out(engine):
    """Lines as json.dumps writes them (read without decoding) among the same showdowns written
    otherwise (compact, keys in another order, spaces, an id of 19 digits, negative, a string,
    none, a game named): today's bytes, every row read off the table, in order."""
    rng = random.Random(21)
    lines = []
    for i in range(600):
        fight = deal(rng, rng.randint(2, 9), ident=rng.choice([i, 0, 10 ** 17 + i, 2 ** 63 - 1 - i, -i, "s%d" % i,
                                                               None, 123456789012345678]))
        way = rng.random()
        if way < 0.6:
            lines.append(json.dumps(fight))
        elif way < 0.7:
            lines.append(json.dumps(fight, separators=(",", ":")))
        elif way < 0.8:
            lines.append(json.dumps(dict(reversed(list(fight.items())))))
        elif way < 0.9:
            lines.append(json.dumps(fight).replace('": ', '" : ', 1))
        else:
            lines.append(json.dumps({**fight, "game": "holdem"}))
    data = jsonl(lines)
    mine, judge = columns(engine, data, "jsonl", read=9_000)
    assert mine == today(engine, data, "jsonl") and judge.vouched == len(lines)


def test_the_lines_read_without_decoding_are_exactly_json_dumps_layout(engine):
    """columnar._Columns._canonical reads a line only when it is json.dumps' layout of an id of
    at most 18 digits, hands of one length and a board; the rest is left to msgspec."""
    rng = random.Random(3)
    base = deal(rng, 3, ident=None)
    rows = [({"id": 0, **base}, True), ({"id": 7, **base}, True), ({"id": 10 ** 17, **base}, True),
            ({"id": 10 ** 18, **base}, False), ({"id": -3, **base}, False), ({"id": "x", **base}, False),
            ({**base}, False), ({"id": 8, **base, "game": "holdem"}, False),
            ({"id": 9, "hands": ["AH KH", "QD JD 2C"], "board": "3C 4D 5S 6H 8C"}, False)]
    lines = [(json.dumps(f) + "\n").encode() for f, _ in rows]
    lines.insert(2, (json.dumps(rows[1][0], separators=(",", ":")) + "\n").encode())
    read = [True, True, False] + [r for _, r in rows[2:]]
    judge = Judge(engine, table=True)
    judge._look(0)
    got, ids, tails = columnar._Columns(judge, "x")._canonical(b"".join(lines), lines)
    assert got == [j for j, r in enumerate(read) if r] and ids == [0, 7, 10 ** 17]
    assert all(t.startswith(', "result": ') for t in tails)


HOSTILE = [
    '{"id": 1, "hands": ["AH KH", "AH QD"], "board": "2C 3D 4S 5H 9C"}',           # a shared card
    '{"id": 2, "hands": ["AH KH", "QD JD"], "board": "2C 2C 4S 5H 9C"}',           # a card twice on the board
    '{"id": 3, "hands": ["AH KH", "QD JD"], "board": "AH 3D 4S 5H 9C"}',           # a player's card on the board
    '{"id": 4, "hands": ["AH XX", "QD JD"], "board": "2C 3D 4S 5H 9C"}',           # no such card
    '{"id": 5, "hands": ["10H KH", "QD JD"], "board": "2C 3D 4S 5H 9C"}',          # a token of three characters
    '{"id": 6, "hands": ["AH  KH", "QD JD"], "board": "2C 3D 4S 5H 9C"}',          # two spaces
    '{"id": 7, "hands": ["AH\\tKH", "QD JD"], "board": "2C 3D 4S 5H 9C"}',         # an escape
    '{"id": 8, "hands": ["A\u2665 KH", "QD JD"], "board": "2C 3D 4S 5H 9C"}',       # not ASCII
    '{"id": 9, "hands": ["AH KH", "QD"], "board": "2C 3D 4S 5H 9C"}',              # hands of two sizes
    '{"id": 10, "hands": ["AH KH"], "board": "2C 3D 4S 5H 9C"}',                   # one player
    '{"id": 11, "hands": ["AH KH", "QD JD"], "board": ""}',                        # no board
    '{"id": 12, "hands": ["AH KH", "QD JD"], "board": "2C 3D 4S 5H 9C", "game": "badugi"}',
    '{"id": 13, "hands": ["AH KH", "QD JD"], "board": "2C 3D 4S 5H 9C", "game": "holdem-hilo"}',
    '{"id": 14, "hands": ["AH KH QH JH", "QD JD 8C 7C"], "board": "2C 3D 4S 5H 9C", "game": "omaha-hilo"}',
    '{"id": 15, "hands": ["AH KH QH JH TH 9H 8H", "QD JD TD 9D 8D 7D 6D"], "board": "", "game": "stud"}',
    '{"id": 16, "hands": ["AH KH QH JH TH 9H 8H", "QD JD TD 9D 8D 7D 6D"], "game": "stud"}',
    '{"id": 17, "hands": ["AH KH QH JH TH 9H 8H", "QD JD TD 9D 8D 7D 6D"], "game": "stud-hilo"}',
    '{"id": 18, "hands": ["AH KH QH JH TH 9H 8H", "QD JD TD 9D 8D 7D 6D"], "game": "razz"}',
    '{"id": 1.5, "hands": ["AH KH", "QD JD"], "board": "2C 3D 4S 5H 9C"}',          # ids it does not write
    '{"id": true, "hands": ["AH KH", "QD JD"], "board": "2C 3D 4S 5H 9C"}',
    '{"id": 1180591620717411303424, "hands": ["AH KH", "QD JD"], "board": "2C 3D 4S 5H 9C"}',
    '{"id": "x\\u0001", "hands": ["AH KH", "QD JD"], "board": "2C 3D 4S 5H 9C"}',
    '{"id": 23, "hands": ["AH KH", "QD JD"], "borad": "2C 3D 4S 5H 9C"}',           # an unknown key
    '{"id": 25, "hands": "AH KH", "board": "2C 3D 4S 5H 9C"}',
    '{"id": 26, "hands": ["AH KH", "QD JD"], "board": null}',
    '{"id": 27, "hands": ["AH KH", "QD JD"], "board": "2C 3D 4S 5H 9C", "game": 3}',
    '{"id": 28, "hands": ["AH KH", "QD JD"], "board": "2C 3D 4S 5H 9C 6D 7D"}',    # a board of seven
    '{"id": 29, "hands": ["AH KH", "QD JD", "2D 3C", "4D 5C", "6D 7C", "8D 9D", "TC JC", "QC KC", "AC 2H", '
    '"3H 4H", "5D 6C"], "board": "7H 8H 9S TS JS"}',                                # eleven players
    '{"id": 30, "hands": ["AH KH", "QD JD"], "board": "2C 3D 4S 5H 9C", "game": "no such game"}',
    "",                                                                             # a blank line
]


@pytest.mark.parametrize("read", [None, 2_000])
def test_rows_it_cannot_vouch_for_go_through_the_judge_in_their_place(engine, read):
    """Each hostile showdown among good ones: today's bytes (the judge's result or error in its
    place), N in, N out, and only the good rows read off the table."""
    rng = random.Random(31)
    fights: list = []
    for row in HOSTILE:
        fights += [deal(rng, rng.randint(2, 9)) for _ in range(rng.randint(0, 4))]
        fights.append(row)
    lower = deal(rng, 3)
    lower["hands"], lower["board"] = [h.lower() for h in lower["hands"]], lower["board"].lower()
    fights.append(lower)                                        # lower case reads as the same cards
    data = jsonl(fights)
    mine, judge = columns(engine, data, "jsonl", read=read)
    assert mine == today(engine, data, "jsonl")
    assert len(mine.splitlines()) == len(fights) - 1            # the blank line is no fight
    assert judge.vouched == sum(isinstance(f, dict) for f in fights)


def test_ties_between_players_and_between_a_players_fives(engine):
    """The board plays for everyone (all win, each plays the board as dealt); two players split on
    the same straight; a player whose straight can be made with either of two sevens (the first
    five in the order of hand + board plays)."""
    rows = [{"id": 1, "hands": ["2C 3D", "4S 5H", "7C 8D"], "board": "AH KH QH JH TH"},
            {"id": 2, "hands": ["9C 2D", "9S 3H"], "board": "8H 7D 6C 5S AD"},
            {"id": 3, "hands": ["7C 8D", "2S 2H"], "board": "7H 6D 5C 4S KD"},
            {"id": 4, "hands": ["AC AD", "AH AS"], "board": "KC KD 7H 7S 2C"}]
    data = jsonl(rows)
    mine, judge = columns(engine, data, "jsonl")
    assert mine == today(engine, data, "jsonl") == rules_world_by_world(engine, data) and judge.vouched == 4
    got = [json.loads(line) for line in mine.splitlines()]
    assert got[0]["result"] == 0 and got[0]["winners"] == [0, 1, 2]
    assert got[0]["best"] == ["AH KH QH JH TH"] * 3 and got[0]["categories"] == ["royal flush"] * 3
    assert (got[1]["result"], got[1]["winners"], got[1]["categories"]) == (0, [0, 1], ["straight", "straight"])
    assert got[2]["best"][0] == "7C 8D 6D 5C 4S" and got[2]["winners"] == [0]     # 8-high, the hand's 7 first
    assert (got[3]["result"], got[3]["best"]) == (0, ["AC AD KC KD 7H", "AH AS KC KD 7H"])


def test_the_rules_world_by_world_and_treys_agree(engine):
    """Independent truth: the rules asked world by world (no table) on a sample, and treys (a
    hand-coded evaluator) on the winners and categories of every showdown."""
    treys = pytest.importorskip("treys")
    rng = random.Random(77)
    fights = [deal(rng, rng.randint(2, 9), ident=i) for i in range(1_500)]
    data = jsonl(fights)
    mine, judge = columns(engine, data, "jsonl")
    assert judge.vouched == len(fights)
    got = [json.loads(line) for line in mine.splitlines()]
    assert mine.splitlines()[:40] == rules_world_by_world(engine, jsonl(fights[:40])).splitlines()
    ev = treys.Evaluator()

    def cards(text: str) -> list[int]:
        return [treys.Card.new(t[0] + t[1].lower()) for t in text.split()]
    words = {"royal flush": "Straight Flush", "one pair": "Pair"}
    for fight, result in zip(fights, got):
        scores = [ev.evaluate(cards(fight["board"]), cards(h)) for h in fight["hands"]]
        assert result["winners"] == [p for p, s in enumerate(scores) if s == min(scores)]
        assert [words.get(c, c).lower() for c in result["categories"]] == \
            [ev.class_to_string(ev.get_rank_class(s)).lower() for s in scores]


# ---- where the table may not be read for showdowns ------------------------------------------------------

def small(tmp_path):
    from test_proof import small_rules
    return small_rules(tmp_path)


def test_where_the_showdown_proof_fails_no_showdown_is_read_off_the_table(tmp_path):
    """plays not written as the best of a relation (a 26-card deck): the path vouches for no
    showdown, and every one is the rules' answer."""
    rules = small(tmp_path)
    edit(rules / "showdown.dl", "plays_Best: plays(P, S) <= bestRanked(P, S) & ~outplayed(P, S)",
         "plays_Best: plays(P, S) <= bestRanked(P, S)")
    eng = Engine(rules)
    rng = random.Random(4)
    deck = [c for c in DECK if c[1] in "HD"]
    data = jsonl([deal(rng, rng.randint(2, 4), deck=deck) for _ in range(30)])
    mine, judge = columns(eng, data, "jsonl")
    assert judge.fast is not None and not judge.fast.showdowns
    assert judge.vouched == 0 and mine == today(eng, data, "jsonl") == rules_world_by_world(eng, data)


def test_where_may_play_allows_fewer_fives_the_table_plays_only_those(tmp_path):
    """A five plays only with a card of the player's own (20 of the 21): the proofs still hold,
    the path reads the rules' fives for the shape, and answers as the rules do world by world."""
    from test_proof import MAY_PLAY_ANY
    rules = small(tmp_path)
    edit(rules / "showdown.dl", MAY_PLAY_ANY, MAY_PLAY_ANY + " & hasOwn(P, S)")
    eng = Engine(rules)
    rng = random.Random(6)
    deck = [c for c in DECK if c[1] in "HD"]
    fights = [deal(rng, rng.randint(2, 4), deck=deck) for _ in range(40)]
    fights.append({"id": "board plays", "hands": ["2H 3D", "4H 5D"], "board": "AH KH QH JH TH"})
    data = jsonl(fights)
    mine, judge = columns(eng, data, "jsonl")
    assert judge.fast.showdowns and judge.vouched == len(fights)
    assert mine == today(eng, data, "jsonl") == rules_world_by_world(eng, data)
    assert json.loads(mine.splitlines()[-1])["categories"] != ["royal flush", "royal flush"]


@pytest.mark.parametrize("name", ["ace-to-five", "short-deck"])
def test_other_rule_sets_give_the_row_paths_bytes(name):
    """A low game's rule set and a short deck: showdowns of hold'em and Omaha read off their own
    tables where their proofs hold; their split pots and stud games through the judge."""
    eng = Engine(name)
    deck = [eng.notation.format([c]) for c in eng.deck]
    rng = random.Random(12)
    fights = [deal(rng, rng.randint(2, 5), deck=deck, game=rng.choice([None, "holdem"])) for _ in range(150)]
    fights += [deal(rng, rng.randint(2, 3), holes=4, deck=deck, game="omaha") for _ in range(40)]
    split = [deal(rng, 2, deck=deck, game="holdem-hilo") for _ in range(5)]
    stud = [{"id": i, "hands": [" ".join(c[:7]), " ".join(c[7:])], "game": g}
            for i, (c, g) in enumerate((rng.sample(deck, 14), g) for g in sorted(set(eng.games) & {"stud", "razz"}))]
    fights += split + stud
    rng.shuffle(fights)
    data = jsonl(fights)
    mine, judge = columns(eng, data, "jsonl")
    assert mine == today(eng, data, "jsonl")
    shown = 190 if judge.fast is not None and judge.fast.showdowns else 0
    assert judge.vouched == shown
    assert all("low" in r for r in (json.loads(line) for line in mine.splitlines()) if r["id"] in
               {f["id"] for f in split} and "error" not in r)


def test_yaml_output_of_a_showdown_batch_reads_back(engine):
    rng = random.Random(8)
    data = jsonl([deal(rng, rng.randint(2, 9)) for _ in range(300)])
    mine, _ = columns(engine, data, "yaml")
    assert len(yaml.safe_load(mine)["results"]) == 300


def test_the_fives_written_one_by_one_where_tokens_differ_in_width(engine, monkeypatch):
    """Where the notation's tokens are not all as wide (or not plain ASCII), each player's five is
    written by the notation and dumps, one by one: the same bytes."""
    rng = random.Random(14)
    data = jsonl([deal(rng, rng.randint(2, 9)) for _ in range(200)])
    tokens = columnar._Columns.tokens
    monkeypatch.setattr(columnar._Columns, "tokens", lambda self: (tokens(self)[0], None))
    mine, judge = columns(engine, data, "jsonl")
    assert mine == today(engine, data, "jsonl") and judge.vouched == 200


def test_a_batch_of_showdowns_does_not_make_the_fights_proof(tmp_path, monkeypatch):
    """A batch of showdowns needs the showdown proof only: with an empty cache (nothing kept),
    the fights proof is not made, and the summary still says the table was read."""
    from engine.judging import proof
    monkeypatch.setenv("POKER_CACHE_DIR", str(tmp_path / "cache"))
    eng = Engine()
    rng = random.Random(2)
    data = jsonl([deal(rng, rng.randint(2, 9)) for _ in range(50)])
    mine, judge = columns(eng, data, "jsonl")
    assert judge.vouched == 50 and "five-card table" in judge.used
    made = proof.made(eng)
    assert any(k[0] == "showdown" for k in made) and not any(k[0] == "fight" for k in made)
