"""Rule files parsed once (engine/judging/rulecache.py): read back by the next engine, never
trusted (a changed, re-signed or unsigned entry is parsed again), an edited file parsed anew."""

from __future__ import annotations

import ast
import hashlib
import json
import pickle

import pytest

from conftest import copy_rules, edit
from engine import Engine
from engine.judging import rulecache
from engine.judging import tablecache as TC

DECK = "cardId_F: cardId(C, V, S) <= valueName(V, N, P) & suitName(S, M, Q) & (C == 13 * (S - 1) + V)"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("POKER_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def parses(monkeypatch):
    """The rule files the loader parsed (rather than read back), by name."""
    done: list[str] = []
    real = rulecache.parse_data

    def counted(data, path):
        done.append(path.name)
        return real(data, path)
    monkeypatch.setattr(rulecache, "parse_data", counted)
    return done


def clauses(engine: Engine) -> list[tuple]:
    return [(c.label, c.path, c.line, c.head, c.text, ast.dump(c.node, include_attributes=True))
            for c in engine.ruleset.clauses]


def entries(cache) -> list:
    return sorted(cache.glob("rules-*.parsed"))


def checked(cache) -> list:
    return sorted(cache.glob("rules-*.checked"))


def test_a_second_engine_reads_the_clauses_back(cache, tmp_path, parses):
    rules = copy_rules(tmp_path / "rules")
    first = Engine(rules)
    files = sorted(p.name for p in rules.glob("*.dl"))
    assert sorted(parses) == files and len(entries(cache)) == len(files)
    parses.clear()
    second = Engine(rules)
    assert parses == [] and clauses(second) == clauses(first)
    assert second.beat("AH KH QH JH TH", "9S 9D 9C 4H 4D") == 1


def test_a_copy_of_the_rules_elsewhere_is_read_back_naming_its_own_files(cache, tmp_path, parses, monkeypatch):
    first = copy_rules(tmp_path / "one")
    Engine(first)
    parses.clear()
    checks: list[int] = []
    monkeypatch.setattr(rulecache, "check_program", lambda clauses, inputs: checks.append(len(clauses)))
    second = copy_rules(tmp_path / "two")
    copy = Engine(second)
    assert parses == [] and checks == []            # the same bytes, the same clauses: read back
    assert {c.path.parent for c in copy.ruleset.clauses} == {second}
    assert clauses(copy) == [(label, second / path.name, *rest) for label, path, *rest in clauses(Engine(first))]


def test_an_edited_rule_file_is_parsed_anew(cache, tmp_path, parses):
    rules = copy_rules(tmp_path / "rules")
    assert len(Engine(rules).deck) == 52
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2)")
    parses.clear()
    smaller = Engine(rules)
    assert parses == ["cards.dl"] and len(smaller.deck) == 26         # the other files read back
    assert len(entries(cache)) == len(list(rules.glob("*.dl"))) + 1


def _tamper(entry, how: str) -> None:
    """Change an entry: its payload, its header, or a payload re-signed with the user's key that
    makes something other than clauses."""
    data = entry.read_bytes()
    head, _, payload = data.partition(b"\n")
    header = json.loads(head)
    if how == "payload":
        payload = payload.replace(b"cardId", b"cardIx", 1)
    elif how == "header":
        header["sha256"] = hashlib.sha256(payload[:-1]).hexdigest()
        payload = payload[:-1]
    elif how in ("signed-other", "signed-no-clause"):
        if how == "signed-other":
            payload = pickle.dumps(print)                                 # a function, not clauses
        else:
            clauses = pickle.loads(payload)
            payload = pickle.dumps([c.__class__(**{**c.__dict__, "path": str(entry)}) for c in clauses])
        header = rulecache._header(header["key"], payload)
        header["mac"] = TC.mac(TC.cache_key(), header)
    entry.write_bytes(json.dumps(header).encode() + b"\n" + payload)


@pytest.mark.parametrize("how", ["payload", "header", "signed-other", "signed-no-clause"])
def test_a_tampered_entry_is_not_trusted(cache, tmp_path, parses, how):
    rules = copy_rules(tmp_path / "rules")
    want = clauses(Engine(rules))
    target = rules / "cards.dl"
    entry = next(e for e in entries(cache) if b"cards.dl" in e.read_bytes())
    _tamper(entry, how)
    parses.clear()
    again = Engine(rules)
    assert parses == [target.name] and clauses(again) == want and len(again.deck) == 52
    parses.clear()
    assert clauses(Engine(rules)) == want and parses == []              # the entry written again


def test_nothing_is_kept_without_the_users_key(cache, tmp_path, parses, monkeypatch):
    monkeypatch.setattr(TC, "cache_key", lambda: None)
    rules = copy_rules(tmp_path / "rules")
    Engine(rules)
    parses.clear()
    Engine(rules)
    assert len(parses) == len(list(rules.glob("*.dl"))) and entries(cache) == checked(cache) == []


def test_a_refused_rule_file_is_never_kept(cache, tmp_path, parses):
    rules = copy_rules(tmp_path / "rules")
    edit(rules / "cards.dl", DECK, DECK + " & (S <= 2) &")
    for _ in range(2):
        with pytest.raises(Exception) as err:
            Engine(rules)
        assert "cards.dl" in str(err.value).splitlines()[0]
    assert parses.count("cards.dl") == 2 and not any(b"cards.dl" in e.read_bytes() for e in entries(cache))


def test_a_rule_set_the_checks_passed_is_not_checked_again(cache, tmp_path, monkeypatch):
    checks: list[int] = []
    real = rulecache.check_program

    def counted(clauses, inputs):
        checks.append(len(clauses))
        return real(clauses, inputs)
    monkeypatch.setattr(rulecache, "check_program", counted)
    rules = copy_rules(tmp_path / "rules")
    for _ in range(3):                      # parsed and checked, then read back
        Engine(rules)
    assert len(checks) == 1 and len(checked(cache)) == 1
    checks.clear()
    assert Engine(rules).beat("AH KH QH JH TH", "9S 9D 9C 4H 4D") == 1 and checks == []
    # a set the checks refuse (a predicate defined nowhere) is checked, and refused, every time
    edit(rules / "cards.dl", DECK, DECK + " & nowhere(C)")
    for _ in range(2):
        with pytest.raises(Exception) as err:
            Engine(rules)
        assert "nowhere" in str(err.value).splitlines()[0]
    assert len(checks) == 2 and len(checked(cache)) == 1                   # nothing kept of it
