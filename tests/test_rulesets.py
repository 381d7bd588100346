"""Rule sets (engine/datalog/rulesets.py): where the rule files are, variants and what they extend.

The standard set is rules/*.dl; a variant is a folder of rules/variants/ with a variant.toml that
names the set it extends; rules/board/board.dl is the board's and belongs to no poker rule set.
Nothing loads silently empty: a missing or empty rule set is a RuleError that names it.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from engine import Engine, RuleError, board
from engine.datalog import rulesets

BASE = "kind_D: kind(1)\nkind_D: kind(2)\nkeep_D: keep(1)\n"


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def variant(root: Path, name: str, extends: str, clauses: str = "", **more: str) -> Path:
    folder = root / "variants" / name
    keys = "".join(f'{k} = "{v}"\n' for k, v in {"extends": extends, **more}.items())
    write(folder, "variant.toml", keys)
    if clauses:
        write(folder, "v.dl", clauses)
    return folder


@pytest.fixture
def rules(tmp_path, monkeypatch) -> Path:
    """A rules folder of its own: a two-label standard set, no variants yet."""
    root = tmp_path / "rules"
    write(root, "a.dl", BASE)
    monkeypatch.setattr(rulesets, "RULES_DIR", root)
    return root


def texts(rs: rulesets.RuleSet) -> list[tuple[str, str]]:
    return [(c.label, c.text) for c in rs.clauses]


# ---- the shipped layout ---------------------------------------------------------------------

def test_the_rules_are_found_with_importlib_resources():
    found = resources.files(rulesets.RULES_PACKAGE)
    assert Path(str(found)) == rulesets.RULES_DIR
    assert (rulesets.RULES_DIR / "cards.dl").is_file()


def test_the_named_rule_sets():
    assert rulesets.available() == ["standard", "ace-to-five", "badugi", "deuce-to-seven", "eight-or-better", "eventb", "joker",
                                    "short-deck", "short-deck-triton"]
    eventb = rulesets.resolve("eventb")
    assert eventb.extends == "standard" and eventb.description.startswith("the literal reading")
    assert eventb.files[-2:] == rulesets.rule_files(rulesets.RULES_DIR / "variants" / "eventb")


def test_the_board_rules_live_with_the_rules_but_are_no_poker_rule_set():
    assert board.RULES == rulesets.RULES_DIR / "board" / "board.dl" and board.RULES.is_file()
    for name in rulesets.available():
        rs = rulesets.resolve(name)
        assert "violation" not in rs.predicates()
        assert all(f.parent.name != "board" for f in rs.files)
    assert "board" not in rulesets.available() and "variants" not in rulesets.available()
    with pytest.raises(RuleError, match="unknown rule set 'board'"):
        rulesets.resolve("board")


# ---- variants ---------------------------------------------------------------------------------

def test_a_variant_may_extend_another_variant(rules):
    variant(rules, "one", "standard", "kind_D: kind(9)\nnew_D: new(1)\n", description="first")
    variant(rules, "two", "one", "keep_D: keep(7)\n")
    assert rulesets.available() == ["standard", "one", "two"]
    two = rulesets.resolve("two")
    assert texts(two) == [("kind_D", "kind(9)"), ("keep_D", "keep(7)"), ("new_D", "new(1)")]
    assert two.extends == "one" and [f.parent.name for f in two.files] == ["rules", "one", "two"]
    assert rulesets.resolve("one").description == "first"


@pytest.mark.parametrize("chain, words", [
    ({"a": "a"}, r"a/variant\.toml: a cycle of rule sets, each extending the next: a -> a"),
    ({"a": "b", "b": "a"}, r"b/variant\.toml: a cycle of rule sets, each extending the next: a -> b -> a"),
    ({"a": "b", "b": "c", "c": "b"}, r"c/variant\.toml: a cycle of rule sets, .*: a -> b -> c -> b"),
], ids=["self", "two", "three"])
def test_a_cycle_of_variants_is_refused(rules, chain, words):
    for name, extends in chain.items():
        variant(rules, name, extends, "keep_D: keep(2)\n")
    with pytest.raises(RuleError, match=words):
        rulesets.resolve("a")
    with pytest.raises(RuleError, match="a cycle of rule sets"):
        Engine("a")


@pytest.mark.parametrize("toml, words", [
    (None, r"variant\.toml: missing; a variant names the rule set it extends"),
    ("extends = standard\n", r"variant\.toml: not TOML"),
    ('extends = "standard"\ncolour = "red"\n', r"unknown key 'colour'"),
    ('description = "no base"\n', r"`extends` must name a rule set .* not None"),
    ("extends = 3\n", r"`extends` must name a rule set"),
    ('extends = "nosuch"\n', r"extends 'nosuch', which is no rule set \(available: standard, v\)"),
    ('extends = "standard"\ndescription = 1\n', r"`description` must be a string"),
    ('extends = "standard"\nremoves = "kind_D"\n', r"`removes` must be a list of labels"),
    ('extends = "standard"\nremoves = ["nosuch_D"]\n', r"removes 'nosuch_D', a label the rule set it extends does not have"),
    ('extends = "standard"\nremoves = ["keep_D"]\n', r"removes 'keep_D' and gives clauses of it too"),
], ids=["missing", "not-toml", "unknown-key", "no-extends", "not-a-name", "unknown-base", "description",
        "removes-not-a-list", "removes-unknown", "removes-and-gives"])
def test_a_bad_variant_toml_is_named(rules, toml, words):
    folder = rules / "variants" / "v"
    write(folder, "v.dl", "keep_D: keep(2)\n")
    if toml is not None:
        write(folder, "variant.toml", toml)
    with pytest.raises(RuleError, match=words):
        rulesets.resolve("v")


def test_a_variant_removes_labels_of_the_set_it_extends(rules):
    variant(rules, "v", "standard", "new_D: new(1)\n")
    with (rules / "variants" / "v" / "variant.toml").open("a", encoding="utf-8") as f:
        f.write('removes = ["kind_D"]\n')
    assert texts(rulesets.resolve("v")) == [("keep_D", "keep(1)"), ("new_D", "new(1)")]


def test_published_tables_are_read_and_inherited(rules):
    write(rules, "expected.toml", 'hands = 10\ndistinct = 3\n[frequencies]\n"pair" = 4\n"high" = 6\n'
                                  '[sevens]\nhands = 20\n')
    variant(rules, "v", "standard", "keep_D: keep(2)\n")
    for name in ("standard", "v"):                          # v has none of its own: it inherits
        five = rulesets.resolve(name).published.five
        assert (five.hands, five.distinct, five.frequencies) == (10, 3, {"pair": 4, "high": 6})
    assert rulesets.resolve("v").published.sevens.hands == 20
    write(rules / "variants" / "v", "expected.toml", "hands = 7\n")
    assert rulesets.resolve("v").published.five.hands == 7 and rulesets.resolve("v").published.sevens is None


@pytest.mark.parametrize("toml, words", [
    ("hands = -1\n", r"`hands` must be a count"),
    ('[frequencies]\n"pair" = "four"\n', r"`frequencies.pair` must be a count"),
    ("frequencies = 3\n", r"`frequencies` must be a table"),
    ("colour = 1\n", r"unknown key 'colour'"),
    ("[sevens]\nsevens = 1\n", r"unknown key 'sevens.sevens'"),
    ("hands = \n", r"not TOML"),
])
def test_a_bad_published_table_is_named(rules, toml, words):
    write(rules, "expected.toml", toml)
    with pytest.raises(RuleError, match=r"expected\.toml: " + words):
        rulesets.resolve("standard")


def test_a_folder_without_variant_toml_is_no_variant(rules):
    write(rules / "variants" / "notes", "readme.dl", "keep_D: keep(2)\n")
    write(rules / "drafts", "x.dl", "keep_D: keep(3)\n")
    assert rulesets.available() == ["standard"]
    with pytest.raises(RuleError, match="unknown rule set 'drafts'"):
        rulesets.resolve("drafts")


def test_a_directory_with_variant_toml_is_a_variant_of_what_it_names(rules, tmp_path):
    mine = tmp_path / "mine"
    write(mine, "variant.toml", 'extends = "standard"\ndescription = "mine"\n')
    write(mine, "x.dl", "keep_D: keep(5)\n")
    rs = rulesets.resolve(mine)
    assert texts(rs) == [("kind_D", "kind(1)"), ("kind_D", "kind(2)"), ("keep_D", "keep(5)")]
    assert rs.extends == "standard" and rs.name == str(mine)


# ---- never an empty rule set --------------------------------------------------------------------

def test_an_empty_or_missing_standard_set_is_a_rule_error(tmp_path, monkeypatch):
    for root in (tmp_path / "empty", tmp_path / "missing"):
        if root.name == "empty":
            root.mkdir()
        monkeypatch.setattr(rulesets, "RULES_DIR", root)
        with pytest.raises(RuleError, match=re.escape(f"{root}: no *.dl rule files for the standard rule set")):
            Engine()
        assert rulesets.available() == ["standard"]


def test_a_rule_set_without_clauses_is_a_rule_error(rules, tmp_path):
    write(rules, "a.dl", "# only a comment\n")
    with pytest.raises(RuleError, match="rule set 'standard' has no clauses"):
        rulesets.resolve()
    write(tmp_path / "blank", "b.dl", "\n")
    with pytest.raises(RuleError, match="has no clauses"):
        rulesets.resolve(tmp_path / "blank")


def test_a_variant_without_rule_files_is_a_rule_error(rules):
    variant(rules, "hollow", "standard")
    with pytest.raises(RuleError, match=r"hollow: no \*\.dl rule files in the variant 'hollow'"):
        rulesets.resolve("hollow")


def test_a_directory_without_rule_files_is_a_rule_error(tmp_path):
    with pytest.raises(RuleError, match=r"no \*\.dl rule files in it"):
        Engine(tmp_path)
    with pytest.raises(RuleError, match="not a directory of rule files"):
        Engine(tmp_path / "nosuch")
