"""The loader accepts only Datalog: adversarial rule files are refused, naming file and line.

pyDatalog reads programs with Python's exec; the loader never does.  Each hostile file below
would run Python (most would create a marker file) if it were exec'd, or would reach a part of
pyDatalog that runs Python (str.format, lambdas, attribute access).  Each must be refused with a
RuleError (a ValueError) that names the file and the line, and the marker must not exist.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from pyDatalog import Logic, pyParser

from engine import Engine, RuleError
from engine.datalog import loader, rulesets
from engine.evaluators.pydatalog.build import build as build_clauses

GOOD = "ok_D: ok(1)\nok2_D: ok2(X) <= ok(X)\n"      # lines 1-2; the hostile line is line 3

# (id, line 3 of zz.dl with {M} the marker path, words of the refusal, does exec'ing it make M?)
HOSTILE = [
    ("import-call", "x_D: __import__('pathlib').Path({M}).touch()", "attribute access", True),
    ("import", "import pathlib; pathlib.Path({M}).touch()", "import", True),
    ("from-import", "from pathlib import Path as x_D", "import", False),
    ("open-in-body", "x_D: p(X) <= q(X) & (X == open({M}, 'w'))", "a call is not allowed", True),
    ("open-as-literal", "x_D: p(X) <= open({M}, 'w')", "reserved", True),
    ("exec-statement", "exec(\"open({M}, 'w')\")", "expression without a label", True),
    ("eval-in-fact", "x_D: p(eval(\"open({M}, 'w')\"))", "a call is not allowed", True),
    ("lambda", "x_D: p(X) <= q(lambda: open({M}, 'w'))", "lambda", False),
    ("lambda-called", "x_D: p(X) <= q(X) & (X == (lambda: open({M}, 'w'))())", "a call is not allowed", True),
    ("lambda-order-by", "x_D: (f[X] == min_(X, order_by=lambda: open({M}, 'w'))) <= q(X)", "variable", False),
    ("assignment", "x = open({M}, 'w')", "assignment", True),
    ("annotated-value", "x_D: p(1) = open({M}, 'w')", "label: clause", True),
    ("walrus", "x_D: p(X) <= q(X) & (Y := open({M}, 'w'))", "assignment", True),
    ("comprehension", "x_D: p(X) <= q(X) & (X == [open({M}, 'w') for _ in 'a'])", "comprehension", True),
    ("f-string", "x_D: p(X) <= q(X) & (X == f\"{{open({M}, 'w')}}\")", "f-string", True),
    ("def", "def f(): open({M}, 'w')", "a def", False),
    ("class", "class C: x = open({M}, 'w')", "a class", True),
    ("with", "with open({M}, 'w'): pass", "With", True),
    ("decorated-label", "(x_D): p(open({M}, 'w'))", "label: clause", True),
    ("attribute-label", "x.y: p(open({M}, 'w'))", "label: clause", False),
    ("dunder-name", "x_D: p(X) <= q(X) & (X == __builtins__)", "dunder", False),
    ("dunder-variable", "x_D: p(__X) <= q(__X)", "dunder", False),
    ("pyD-name", "x_D: p(X) <= _pyD_class(X)", "dunder or reserved", False),
    ("attribute", "x_D: p(X) <= q(X) & (Y == X.__class__)", "attribute access", False),
    ("method-call", "x_D: p(X) <= q(X) & X.foo(1)", "attribute access", False),
    ("ask", "x_D: ask(q(1))", "reserved", False),
    ("concat", "x_D: p(X) <= concat(X)", "reserved", False),
    ("rank", "x_D: p(X) <= rank(X)", "reserved", False),
    ("aggregate-as-literal", "x_D: p(X) <= sum_(X)", "not a predicate name", False),
    ("range-as-literal", "x_D: p(X) <= range_(X)", "not a predicate name", False),
    ("builtin-predicate", "x_D: print(1)", "reserved", False),
    ("format-string", "x_D: p(Y) <= q(X) & (Y == '{{0.__class__.__mro__}}' % X)", "string is not allowed", False),
    ("string-repeat", "x_D: p(Y) <= q(X) & (Y == 'a' * 999999999999)", "string is not allowed", False),
    ("string-minus", "x_D: p(Y) <= q(X) & (Y == -'a')", "string is not allowed", False),
    ("string-minus-fact", "x_D: p(-'a')", "string is not allowed", False),
    ("huge-int", "x_D: p(" + "9" * 40 + ")", "too large", False),
    ("huge-int-digits", "x_D: p(" + "9" * 5000 + ")", "syntax error", False),
    ("infinite", "x_D: p(1e999)", "finite", False),
    ("true", "x_D: p(True)", "not a number or a string", False),
    ("none", "x_D: p(None)", "not a number or a string", False),
    ("bytes", "x_D: p(b'x')", "not a number or a string", False),
    ("ellipsis", "x_D: p(...)", "not a number or a string", False),
    ("complex", "x_D: p(1j)", "not a number or a string", False),
    ("anonymous-string", "x_D: p('??')", "something else", False),
    ("constants-compared", "x_D: p(X) <= q(X) & (1 == 1)", "two constants", False),
    ("keywords", "x_D: p(X) <= q(X, **{{'a': 1}})", "keyword", False),
    ("starred", "x_D: p(X) <= q(*X)", "starred", False),
    ("slice", "x_D: p(X) <= q(X) & (X == f[1:2])", "Slice", False),
    ("subscript-call", "x_D: p(X) <= q(X) & (X == f[X](1))", "a call is not allowed", False),
    ("bad-aggregate", "x_D: (f[X] == open({M}, 'w')) <= q(X)", "expected an aggregate", True),
    ("aggregate-keyword", "x_D: (f[X] == len_(X, sep=X)) <= q(X)", "keyword 'sep'", False),
    ("and", "x_D: p(X) <= q(X) and r(X)", "and/or", False),
    ("conditional", "x_D: p(X) <= q(X) if r(X) else s(X)", "conditional expression", False),
    ("in", "x_D: p(X) <= q(X) & (X in (1, 2))", "one operator", False),
    ("chained", "x_D: p(X) <= q(X) & (1 < X < 3)", "one operator", False),
    ("negated-comparison", "x_D: p(X) <= q(X) & ~(X == 1)", "negation", False),
    ("await", "x_D: await p(1)", "await", False),
    ("yield", "x_D: (yield)", "yield", False),
    ("fullwidth-predicate", "x_D: \uff50(1)", "not ASCII", False),
    ("greek-variable", "x_D: p(\u03a9) <= q(\u03a9)", "not ASCII", False),
    ("fullwidth-label", "\uff58_D: p(1)", "not ASCII", False),
    ("dunder-label", "x__y: p(1)", "not a label", False),
    ("syntax-error", "x_D: p(X <= q(X)", "syntax error", False),
    ("too-deep", "x_D: p(X) <= " + " & ".join(["q(X)"] * 120), "nested too deeply", False),
    ("too-long", "x_D: p(X) <= q(X) & (X == " + "-" * 5000 + "1)", "too long", False),
    ("parser-recursion", "x_D: p(X) <= " + " & ".join(["q(X)"] * 4000), "too long", False),
]


def write(directory: Path, name: str, text: str | bytes) -> Path:
    path = directory / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("line, words, live", [pytest.param(*h[1:], id=h[0]) for h in HOSTILE])
def test_hostile_file_is_refused_naming_file_and_line_and_nothing_runs(tmp_path, line, words, live):
    marker = tmp_path / "MARKER"
    rules = tmp_path / "rules"
    rules.mkdir()
    write(rules, "a.dl", GOOD.replace("ok", "base"))
    write(rules, "zz.dl", GOOD + line.format(M=repr(str(marker))) + "\n")
    with pytest.raises(RuleError, match=rf"zz\.dl:3: .*{words}") as info:
        Engine(rules)
    assert isinstance(info.value, ValueError)
    assert str(rules / "zz.dl") in str(info.value)
    with pytest.raises(RuleError, match=r"zz\.dl:3: "):
        loader.parse_file(rules / "zz.dl")
    assert not marker.exists()


def test_the_hostile_files_are_live_python(tmp_path):
    """Control: the files marked live do create their marker when Python execs them."""
    live = [(h[0], h[1]) for h in HOSTILE if h[3]]
    script = []
    for name, line in live:
        marker = tmp_path / f"MARKER-{name}"
        source = GOOD + line.format(M=repr(str(marker))) + "\n"
        script.append(f"try:\n    exec(compile({source!r}, 'zz.dl', 'exec'), {{'ok': abs, 'ok2': abs, "
                      f"'p': abs, 'q': abs, 'X': 1, 'f': {{1: 1}}}})\nexcept Exception:\n    pass\n")
    subprocess.run([sys.executable, "-c", "\n".join(script)], cwd=tmp_path, check=True,
                   capture_output=True, timeout=60)
    made = {name for name, _ in live if (tmp_path / f"MARKER-{name}").exists()}
    assert made == {name for name, _ in live}


@pytest.mark.parametrize("data, words", [
    pytest.param(GOOD.encode() + b"x_D: p('caf\xe9')\n", "not UTF-8", id="latin-1"),
    pytest.param(GOOD.encode() + b"x_D: p(\x001)\n", "NUL", id="nul"),
    pytest.param(GOOD.encode() + b"\xff\xfe", "not UTF-8", id="utf-16-bom-late"),
])
def test_unreadable_bytes_name_file_and_line(tmp_path, data, words):
    path = write(tmp_path, "zz.dl", data)
    with pytest.raises(RuleError, match=rf"zz\.dl:3: .*{words}"):
        loader.parse_file(path)


def test_a_huge_file_is_refused_before_parsing(tmp_path):
    path = write(tmp_path, "zz.dl", "# padding\n" * 200_000)
    with pytest.raises(RuleError, match=r"zz\.dl:1: a rule file is at most"):
        loader.parse_file(path)


def test_pyDatalog_string_formatting_reads_no_attributes(tmp_path):
    """pyDatalog computes `S % X` as S.format(*X) for a string S; the loader builds `%` otherwise."""
    path = write(tmp_path, "fmt.dl", "fmt_D: fmt('{0.__class__.__mro__}')\narg_D: arg('a')\n"
                                     "num_D: num(7)\nnum_D: num(-7)\nnum_D: num(7.5)\n"
                                     "out_D: out(Y) <= fmt(F) & arg(A) & (Y == F % A)\n"
                                     "mod_D: mod(X, Y, Z) <= num(X) & (Y == X % 3) & (Z == X % -4)\n")
    answers = _in_fresh_logic(loader.parse_file(path), [("out", 1), ("mod", 3)])
    assert not any("class" in repr(row) for row in answers["out"])
    assert sorted(answers["mod"]) == sorted((x, x % 3, x % -4) for x in (7, -7, 7.5))


def _in_fresh_logic(clauses: list[loader.Clause], queries: list[tuple[str, int]]) -> dict:
    """Build clauses in a Logic of a thread of its own (engines keep theirs untouched)."""
    out: dict = {}

    def build(T) -> None:
        build_clauses(clauses, why=False)
        for name, arity in queries:
            out[name] = list(T(name)(*(T(f"V{i}") for i in range(arity))).ask() or [])
    _in_fresh_logic_raw(build)
    return out


def test_build_checks_a_hand_made_clause_again(tmp_path):
    """A Clause made by Python code, not parsed, still cannot smuggle a lambda or a call."""
    marker = tmp_path / "MARKER"
    payload = ast.parse("p(1)", mode="eval").body
    payload.args[0] = ast.Constant(value=lambda: marker.touch(), lineno=1, col_offset=2)
    call = ast.parse(f"p(open({str(marker)!r}, 'w'))", mode="eval").body
    for node in (payload, call):
        clause = loader.Clause("x_D", tmp_path / "hand.dl", 1, "p", node, "p(...)")
        with pytest.raises(RuleError, match=r"hand\.dl:1"):
            _in_fresh_logic_raw(lambda T: (build_clauses([clause]), T("p")(T("X")).ask()))
    assert not marker.exists()


# ---- labels cannot shadow -------------------------------------------------------------------

def test_a_label_given_in_two_files_of_a_directory_is_refused(tmp_path):
    write(tmp_path, "a.dl", "same_D: p(1)\n")
    write(tmp_path, "b.dl", "other_D: q(1)\n\nsame_D: p(2)\n")
    with pytest.raises(RuleError, match=r"b\.dl:3: label 'same_D' is used already at .*a\.dl:1"):
        rulesets.resolve(tmp_path)


def test_a_label_that_recurs_apart_in_one_file_is_refused(tmp_path):
    write(tmp_path, "a.dl", "same_D: p(1)\nother_D: q(1)\nsame_D: p(2)\n")
    with pytest.raises(RuleError, match=r"a\.dl:3: label 'same_D'"):
        rulesets.resolve(tmp_path)


def test_a_variant_replaces_every_clause_of_a_label_and_cannot_split_one(tmp_path, monkeypatch):
    base = tmp_path / "rules"
    v = base / "variants" / "v"
    v.mkdir(parents=True)
    write(base, "a.dl", "kind_D: kind(1)\nkind_D: kind(2)\nkind_D: kind(3)\nkeep_D: keep(1)\n")
    write(v, "variant.toml", 'extends = "standard"\n')
    write(v, "a.dl", "kind_D: kind(9)\n")
    monkeypatch.setattr(rulesets, "RULES_DIR", base)
    variant = rulesets.resolve("v")
    assert [(c.label, c.text) for c in variant.clauses] == [("kind_D", "kind(9)"), ("keep_D", "keep(1)")]
    write(v, "b.dl", "new_D: new(1)\nkind_D: kind(8)\n")
    with pytest.raises(RuleError, match=r"b\.dl:2: label 'kind_D' is used already"):
        rulesets.resolve("v")


def test_copying_eventb_beside_the_standard_files_is_refused(tmp_path):
    """A directory is loaded as it is: a variant's files beside the base ones give labels twice."""
    for f in rulesets.rule_files(rulesets.RULES_DIR):
        write(tmp_path, f.name, f.read_text(encoding="utf-8"))
    eventb = rulesets.RULES_DIR / "variants" / "eventb" / "ranking.dl"
    write(tmp_path, "zz_eventb.dl", eventb.read_text(encoding="utf-8"))
    with pytest.raises(RuleError, match=r"zz_eventb\.dl:\d+: label 'Rank_D' is used already"):
        rulesets.resolve(tmp_path)


# ---- valid edge cases still load ------------------------------------------------------------

EDGE = (
    "\ufeff# a BOM, CRLF line ends, tabs, a form feed, unicode in comments: ♥ ♦ ♣ ♠ 日本\r\n"
    "\x0c\r\n"
    "sym_F:\tsym('♥', 'os.system', '__import__', '{0.__class__}', 'X', '%s', '')\r\n"
    "num_F: num(-1, 2.5, 0, 1000000000000000000)\r\n"
    "span_F: span(X, Y) <= (num(X, A, B, C)   # a clause over lines, a comment inside\r\n"
    "                       & (Y == (X * 3 - 4) // 2 % 5))\r\n"
    "two_F: two(1); three_F: three(3)\r\n"
    "anon_F: anon(X) <= num(X, A1, Bb, C_d)\r\n"
    "count_F: (count[X] == len_(Y)) <= num(X, Y, B, C)\r\n"
    "least_F: (least[X] == min_(Y, order_by=-Y)) <= sym(X, Y, B, C, D, E, F)\r\n"
    "not_F: lone(X) <= num(X, A, B, C) & ~two(X) & (X != 2)\r\n"
)


def test_valid_edge_cases_still_load_and_answer(tmp_path):
    path = write(tmp_path, "edge.dl", EDGE)
    clauses = loader.parse_file(path)
    assert [(c.label, c.line) for c in clauses] == [
        ("sym_F", 3), ("num_F", 4), ("span_F", 5), ("two_F", 7), ("three_F", 7), ("anon_F", 8),
        ("count_F", 9), ("least_F", 10), ("not_F", 11)]
    assert clauses[3].text == "two(1)" and clauses[4].text == "three(3)"
    answers = _in_fresh_logic(clauses, [("sym", 7), ("span", 2), ("anon", 1), ("three", 1), ("lone", 1)])
    assert answers["sym"] == [("♥", "os.system", "__import__", "{0.__class__}", "X", "%s", "")]
    assert answers["span"] == [(-1, ((-1 * 3 - 4) // 2) % 5)]
    assert answers["anon"] == [(-1,)] and answers["three"] == [(3,)] and answers["lone"] == [(-1,)]


def test_the_shipped_rule_sets_load_unchanged():
    for name in rulesets.available():
        rs = rulesets.resolve(name)
        assert rs.clauses and all(c.text and c.line > 0 for c in rs.clauses)


# ---- what pyDatalog itself makes of the forms the grammar refuses -----------------------------

def test_what_pydatalog_makes_of_the_forms_the_loader_refuses():
    """pyDatalog 0.22.4 asked directly (its own objects, no loader): the reasons the grammar
    (docs/evaluation.md) gives for refusing lower-case names, _ and head terms that are not a
    variable or a constant, and functions in negated literals.  The compiled evaluators would read
    each otherwise."""
    out: dict = {}

    def build(T) -> None:
        q, r, m, X, Y, K = T("q"), T("r"), T("m"), T("X"), T("Y"), T("K")
        for row in ((1, "suit"), (2, "x"), (3, 3)):
            +q(*row)
        for x in (1, 2, 3):
            +r(x)
        T("low")(X) <= q(X, T("suit"))                  # suit: the string 'suit', no variable
        T("plus")(X + 1) <= r(X)                        # an expression in a head: no row
        T("neg")(-X) <= r(X)
        (m[X + 0] == T("len_")(K)) <= q(X, K)           # an expression as an aggregate's key
        T("keyed")(X, Y) <= r(X) & (m[X] == Y)
        T("under")(X) <= q(X, T("_")) & r(T("_"))        # two _ of a clause: one variable
        (T("h")[X] == T("len_")(K)) <= q(X, K) & (X > 1)     # h has no value for 1
        T("notq")(X) <= r(X) & ~q(X, T("h")[X] + 0)     # the look-up negated with q
        +T("d")(1, "a", 5)
        +T("d")(1, "b", 5)
        (T("s")[X] == T("sum_")(Y, for_each=K, key=T("J"))) <= T("d")(X, T("J"), Y) & (K == 0)
        (T("n")[X] == T("len_")(Y, order_by=K)) <= T("d")(X, K, Y)       # order_by ignored
        T("summed")(X, Y) <= r(X) & (T("s")[X] == Y)
        T("counted")(X, Y) <= r(X) & (T("n")[X] == Y)
        for name, n in (("low", 1), ("plus", 1), ("neg", 1), ("keyed", 2), ("under", 1), ("notq", 1),
                        ("summed", 2), ("counted", 2)):
            out[name] = sorted(T(name)(*(T(f"V{i}") for i in range(n))).ask() or [])
        (T("g")[X] == T("len_")(K)) <= q(X, K)
        try:
            T("fn")(X, T("g")[X]) <= r(X)               # a function in a head: not built
            out["fn"] = T("fn")(X, Y).ask()
        except Exception as exc:      # noqa: BLE001 - what pyDatalog does is the finding
            out["fn"] = f"{type(exc).__name__}: {exc}"
    _in_fresh_logic_raw(build)
    assert out["low"] == [(1,)]                       # only the row whose argument is 'suit'
    assert out["plus"] == out["neg"] == out["keyed"] == []
    assert out["under"] == [(3,)]                     # q(X, _) & r(_): the same _
    assert (1,) in out["notq"]                        # ~q(1, h[1]) holds: h has no value for 1
    assert out["summed"] == [(1, 5)]                  # 5 once: key= beside for_each= is ignored
    assert out["counted"] == [(1, 1)]                 # one distinct Y: order_by= is ignored
    for missing in ("sum_", "min_"):                  # sum_ and min_ cannot be built without
        with pytest.raises(Exception):
            _in_fresh_logic_raw(lambda T: (T("z")[T("X")] == T(missing)(T("Y"))) <= T("q")(T("X"), T("Y")))
    assert isinstance(out["fn"], str), out["fn"]      # raised: pyDatalog cannot build it


def _in_fresh_logic_raw(build) -> None:
    """Run build(pyParser.Term) in a Logic of a thread of its own; raise what it raised."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            Logic()
            build(pyParser.Term)
        except BaseException as exc:      # noqa: BLE001 - raised again in the test's thread
            errors.append(exc)
    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
