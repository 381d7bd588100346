"""Rule sets: where the rule files are, and which clauses a rule set is made of.

The rule files are the package data of ``engine.rules`` (the folder ``rules/`` of the repository,
mapped there by pyproject.toml), found with :mod:`importlib.resources`, so they travel with every
install: wheel, sdist or editable.  The layout::

    rules/*.dl                          the standard rule set (the default)
    rules/variants/NAME/variant.toml    a variant: the rule set it extends and a description
    rules/variants/NAME/*.dl            its clauses, laid over the set it extends
    rules/board/board.dl                the House of Games board's invariant (engine.board);
                                        not part of any poker rule set

A variant's ``variant.toml`` reads::

    extends = "standard"                # or another variant
    description = "one line"
    removes = ["getRank_Royal"]         # optional: labels of that set this game has no use for

Each label a variant gives replaces **all** the clauses of that label in the set it extends,
where the label stood; a label new to that set is added at the end; a label it ``removes`` goes
(a lowball game has no royal flush).  A removed label must be one the set it extends has, and
not one the variant also gives.  A variant may extend another variant; a chain that comes back
on itself is a RuleError.

A rule set may also carry the published tables of its game, ``expected.toml`` beside its rules
(:class:`Published`), which `poker check` holds the rules to; a variant without one inherits the
tables of the set it extends, and a directory given as a path has none unless it holds one.

A directory given as a path (``Engine(rules=PATH)``, ``--rules PATH``) loads every ``*.dl``
directly in it, as it is; when it holds a ``variant.toml`` it is a variant of the set it names.

Nothing here parses Datalog: :mod:`engine.datalog.loader` reads and checks the files.
"""

from __future__ import annotations

import ast
import os
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Callable, Mapping, Sequence

from engine import interface as I
from engine.datalog.loader import (
    Clause,
    RuleError,
    check_program,
    parse_file,
    read_rule_file,
)
from engine.interface import INPUTS

RULES_PACKAGE = "engine.rules"
DEFAULT_RULES = "standard"
VARIANTS = "variants"              # the folder of the named variants, under the rules
VARIANT_FILE = "variant.toml"
VARIANT_KEYS = {"extends", "description", "removes"}
PUBLISHED_FILE = "expected.toml"
PUBLISHED_KEYS = {"hands", "distinct", "frequencies", "sevens"}
MAX_VARIANT_BYTES = 64 * 1024
# What the engine asks of every poker rule set (name: arity); a set without one of them would
# answer nothing, e.g. every fight -1, rather than fail.
REQUIRED = {I.CARD_ID: 3, I.VALUE_SYMBOL: 3, I.SUIT_SYMBOL: 3, I.CATEGORY_NAME: 2, I.IS_HAND: 1,
            I.GET_RANK: 2, I.BEAT: 3, I.WINNER: 2}
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")


def _locate() -> Path:
    """The folder of the installed rule files (``rules/`` in the repository).

    When the package is not installed (a checkout put on sys.path by hand), ``engine.rules`` is not
    importable; then the checkout's ``rules/`` beside ``engine/`` is used.  A missing folder is not
    an error here: ``resolve`` names it when a rule set is asked for.
    """
    try:
        root = resources.files(RULES_PACKAGE)
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "rules"
    # Installed on a file system (wheel, sdist, editable), it is a Path; from a zip it is not,
    # and the str is then no folder, so resolve() reports it.
    return root if isinstance(root, Path) else Path(str(root))


RULES_DIR: Path = _locate()


@dataclass
class RuleSet:
    """The clauses of a rule set, in load order, after variants replaced their labels."""
    name: str
    files: list[Path]
    clauses: list[Clause] = field(default_factory=list)
    extends: str | None = None      # the rule set a variant is laid over
    description: str = ""
    published: "Published | None" = None   # the game's published tables (expected.toml)
    # What the loaded clauses may not mean as their author meant, in one line each, said on stderr
    # by the command line (a variant that renumbers getRank but keeps the base's names of ranks).
    notes: list[str] = field(default_factory=list)

    def labels(self) -> list[str]:
        return list(dict.fromkeys(c.label for c in self.clauses))

    def predicates(self) -> list[str]:
        return sorted({c.head for c in self.clauses})

    def published_from(self) -> str | None:
        """Where the published tables that `poker check` holds these rules to come from, in words
        (None: there are none): the file, and whether it is inherited from the set extended."""
        if self.published is None:
            return None
        if self.published.owner in ("", self.name):
            return self.published.source
        return (f"{self.published.source}, inherited from {self.published.owner}: {self.name} has no "
                f"{PUBLISHED_FILE} of its own")


@dataclass(frozen=True)
class Variant:
    """A variant's ``variant.toml``."""
    extends: str
    description: str
    removes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    """A published table of a game's hands: how many there are, how many distinct values they
    take, and how many fall in each category (category name -> count).  Any part may be absent.

    >>> Table(10, 3, {"pair": 4, "high card": 6}).frequencies["pair"]
    4
    """
    hands: int | None = None
    distinct: int | None = None
    frequencies: dict[str, int] | None = None


@dataclass(frozen=True)
class Published:
    """What is published about a game (a rule set's ``expected.toml``), which `poker check`
    holds its rules to: the table of its five-card hands and, where it applies, of the best
    five of seven cards (``[sevens]``).  A reader can set each number beside its source."""
    five: Table
    sevens: Table | None = None
    source: str = ""
    owner: str = ""             # the rule set whose expected.toml it is (a variant may inherit it)


def rule_files(directory: Path) -> list[Path]:
    """Every ``*.dl`` entry directly in a folder, sorted by name, whatever it is: one that is no
    readable file (a dangling link, a FIFO, a device, a directory named ``x.dl``) is refused by
    the loader with its name, never skipped."""
    return sorted(p for p in directory.glob("*.dl") if not p.name.startswith("."))


MAX_CHAIN = 32        # variants extending one another, at most (each is read, checked and laid over)


def variants_dir() -> Path:
    return RULES_DIR / VARIANTS


def available() -> list[str]:
    """The named rule sets: ``standard`` and every folder of rules/variants/ with a variant.toml."""
    folder = variants_dir()
    names = sorted(p.name for p in folder.iterdir()
                   if p.is_dir() and NAME.match(p.name) and _exists(p / VARIANT_FILE)
                   and p.name != DEFAULT_RULES) if folder.is_dir() else []
    return [DEFAULT_RULES] + names


Parse = Callable[[Path], list[Clause]]
Check = Callable[[list[Clause], Mapping[str, Sequence[str]]], None]


def resolve(rules: str | Path | None = None, parse: Parse = parse_file, check: Check = check_program) -> RuleSet:
    """The rule set ``rules``: a name (``standard``, a variant) or a directory of *.dl files.
    ``parse`` reads each rule file and ``check`` checks the whole set (loader.parse_file and
    loader.check_program, or what remembers their answers: engine.judging.rulecache).

    A RuleError names what is wrong: an unknown name, a folder without rule files, a variant.toml
    that cannot be read, a cycle of variants, or a rule set without clauses.  Never an empty set.
    """
    rules = DEFAULT_RULES if rules is None else rules
    text = str(rules)
    try:
        candidate = Path(text).expanduser()
    except RuntimeError:            # ~name of no user: pathlib cannot tell the home directory
        raise RuleError(f"{text}: not a directory of rule files (no home directory for "
                        f"{text.split('/')[0]!r})") from None
    if isinstance(rules, Path) or "/" in text or text.startswith(".") or (candidate.is_dir() and not _is_named(text)):
        if not candidate.is_dir():
            raise RuleError(f"{text}: not a directory of rule files")
        if _exists(candidate / VARIANT_FILE):
            return _checked(_variant(str(candidate), candidate, (), parse), check)
        try:
            return _checked(_plain(str(candidate), candidate, parse), check)
        except RuleError as exc:
            if "defined nowhere" not in str(exc):
                raise
            raise RuleError(f"{exc}; {variant_hint(candidate)}") from None
    if not _is_named(text):
        names = ", ".join(available())
        raise RuleError(f"unknown rule set {text!r} (available: {names}; or give a directory)")
    return _checked(_named(text, (), parse), check)


def _is_named(text: str) -> bool:
    return text == DEFAULT_RULES or (NAME.match(text) is not None and (variants_dir() / text).is_dir())


def _plain(name: str, directory: Path, parse: Parse = parse_file) -> RuleSet:
    """Every *.dl directly in a folder, as it is (the standard set, or a directory given)."""
    files = rule_files(directory)
    if not files:
        if name == DEFAULT_RULES:
            raise RuleError(f"{directory}: no *.dl rule files for the {DEFAULT_RULES} rule set "
                            f"(is the package {RULES_PACKAGE} installed with its rules?)")
        raise RuleError(f"{directory}: no *.dl rule files in it")
    return RuleSet(name, files, _combine([parse(f) for f in files], []),
                   published=read_published(directory, name))


def _named(name: str, chain: tuple[str, ...], parse: Parse = parse_file) -> RuleSet:
    if name == DEFAULT_RULES:
        return _plain(DEFAULT_RULES, RULES_DIR, parse)
    folder = variants_dir() / name
    if not folder.is_dir():
        names = ", ".join(available())
        raise RuleError(f"unknown rule set {name!r} (available: {names})")
    return _variant(name, folder, chain, parse)


def _variant(name: str, folder: Path, chain: tuple[str, ...], parse: Parse = parse_file) -> RuleSet:
    """A variant: the set it extends, with its own clauses laid over."""
    meta = read_variant(folder)
    where = folder / VARIANT_FILE
    if meta.extends == name or meta.extends in chain:
        raise RuleError(f"{where}: a cycle of rule sets, each extending the next: "
                        f"{' -> '.join(chain + (name, meta.extends))}")
    if len(chain) >= MAX_CHAIN:
        raise RuleError(f"{where}: a chain of more than {MAX_CHAIN} rule sets, each extending the next "
                        f"({' -> '.join(chain[:3])} -> …): extend one nearer the standard")
    if not _is_named(meta.extends):
        raise RuleError(f"{where}: extends {meta.extends!r}, which is no rule set "
                        f"(available: {', '.join(available())})")
    base = _named(meta.extends, chain + (name,), parse)
    files = rule_files(folder)
    if not files:
        raise RuleError(f"{folder}: no *.dl rule files in the variant {name!r}")
    given = [parse(f) for f in files]
    clauses = _combine([base.clauses], given, meta.removes, where)
    published = read_published(folder, name) or base.published
    notes = base.notes + _renamed_ranks(base.clauses, [c for f in given for c in f])
    return RuleSet(name, base.files + files, clauses, meta.extends, meta.description, published, notes)


def _renamed_ranks(base: list[Clause], given: list[Clause]) -> list[str]:
    """A note when a variant gives a getRank label another rank number than the base's but no
    categoryName: the base's names then go with the new numbers (Manila's full house, renumbered
    6, printed "flush (rank 6)").  Empty when the variant names its ranks, or renumbers none."""
    if any(c.head == I.CATEGORY_NAME for c in given):
        return []
    old = {c.label: _constant(c, 1) for c in base if c.head == I.GET_RANK}
    moved = [(c, old[c.label], _constant(c, 1)) for c in given
             if c.head == I.GET_RANK and c.label in old and _constant(c, 1) != old[c.label]]
    if not moved:
        return []
    names = {_constant(c, 0): (_constant(c, 1), c) for c in base if c.head == I.CATEGORY_NAME}
    kept = [f"{new} is {names[new][0]!r} ({names[new][1].label}, {names[new][1].where})"
            for _, _, new in moved if new in names]
    return [f"{c.where}: {c.label} gives rank {new} (the base: {was}), but this variant names no rank "
            f"(categoryName): " + "; ".join(kept) + "; give every rank's name here (Rank_D)"
            for c, was, new in moved[:1]] if kept else []


def _constant(c: Clause, i: int) -> object:
    """The i-th argument of a clause's head when it is a constant, else None."""
    head = _head(c)
    args = head.args if isinstance(head, ast.Call) else []
    return args[i].value if i < len(args) and isinstance(args[i], ast.Constant) else None


def read_variant(folder: Path) -> Variant:
    """Read a variant's variant.toml (``extends``, ``description``); RuleError names the file."""
    path = folder / VARIANT_FILE
    if not _exists(path):
        raise RuleError(f"{path}: missing; a variant names the rule set it extends "
                        f"(extends = \"{DEFAULT_RULES}\")")
    raw = read_rule_file(path, MAX_VARIANT_BYTES)      # a regular file, read without blocking
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RuleError(f"{path}: not TOML: {exc}") from None
    unknown = sorted(set(data) - VARIANT_KEYS)
    if unknown:
        raise RuleError(f"{path}: unknown key {unknown[0]!r} (a variant has {', '.join(sorted(VARIANT_KEYS))})")
    extends, description = data.get("extends"), data.get("description", "")
    if not isinstance(extends, str) or not NAME.match(extends):
        raise RuleError(f"{path}: `extends` must name a rule set ({', '.join(available())}), "
                        f"not {extends!r}")
    if not isinstance(description, str):
        raise RuleError(f"{path}: `description` must be a string")
    removes = data.get("removes", [])
    if not isinstance(removes, list) or not all(isinstance(r, str) for r in removes):
        raise RuleError(f"{path}: `removes` must be a list of labels, such as [\"getRank_Royal\"]")
    return Variant(extends, description.strip(), tuple(removes))


def read_published(folder: Path, owner: str = "") -> Published | None:
    """A rule set's published tables (``expected.toml`` in its folder), None when it has none;
    RuleError names the file and the key when one is not a count."""
    path = folder / PUBLISHED_FILE
    if not _exists(path):
        return None
    raw = read_rule_file(path, MAX_VARIANT_BYTES)
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RuleError(f"{path}: not TOML: {exc}") from None
    five = _table(path, data, "")
    sevens = _table(path, data["sevens"], "sevens.") if isinstance(data.get("sevens"), dict) else None
    if "sevens" in data and sevens is None:
        raise RuleError(f"{path}: `sevens` must be a table ([sevens])")
    return Published(five, sevens, str(path), owner)


def _table(path: Path, data: dict, prefix: str) -> Table:
    allowed = PUBLISHED_KEYS - ({"sevens"} if prefix else set())
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise RuleError(f"{path}: unknown key {prefix + unknown[0]!r} (an expected.toml has "
                        f"{', '.join(sorted(PUBLISHED_KEYS))})")

    def count(key: str, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RuleError(f"{path}: `{prefix}{key}` must be a count (a whole number >= 0), not {value!r}")
        return value
    freq = data.get("frequencies")
    if freq is not None and not isinstance(freq, dict):
        raise RuleError(f"{path}: `{prefix}frequencies` must be a table of category = count")
    return Table(None if data.get("hands") is None else count("hands", data["hands"]),
                 None if data.get("distinct") is None else count("distinct", data["distinct"]),
                 None if freq is None else {str(k): count(f"frequencies.{k}", v) for k, v in freq.items()})


def _exists(path: Path) -> bool:
    """Whether there is an entry at ``path`` at all (a dangling link or a FIFO counts)."""
    return os.path.lexists(path)


def _checked(rs: RuleSet, check: Check = check_program) -> RuleSet:
    """A rule set that has clauses, defines every predicate it uses and computes no strings."""
    if not rs.clauses:
        raise RuleError(f"rule set {rs.name!r} has no clauses (files: {', '.join(map(str, rs.files))})")
    check(rs.clauses, INPUTS)
    return rs


def variant_hint(folder: Path) -> str:
    """What to say when a folder without variant.toml lacks clauses: it may be a variant's."""
    return (f"{folder} has no {VARIANT_FILE}, so it is read as a whole rule set; if it holds only what "
            f"a variant changes, add {folder / VARIANT_FILE} naming the set it extends "
            f"(extends = \"{DEFAULT_RULES}\")")


def check_required(rs: RuleSet) -> RuleSet:
    """The rule set, when it defines every predicate the poker engine asks (:data:`REQUIRED`);
    else a RuleError naming them and the folders, rather than a judge that marks every fight -1."""
    defined = {(c.head, len(_head(c).args)) for c in rs.clauses if isinstance(_head(c), ast.Call)}
    missing = [f"{name}/{n}" for name, n in REQUIRED.items() if (name, n) not in defined]
    if missing:
        folders = ", ".join(sorted({str(f.parent) for f in rs.files}))
        folder = rs.files[0].parent if rs.files else None
        hint = " (is a rule file missing?)" + (
            f"; {variant_hint(folder)}" if rs.extends is None and folder is not None and folder != RULES_DIR
            and not _exists(folder / VARIANT_FILE) else "")
        raise RuleError(f"rule set {rs.name!r} ({folders}): no clause defines {', '.join(missing)}, "
                        f"which the engine asks{hint}")
    return rs


def _head(c: Clause) -> ast.expr:
    return c.node if isinstance(c.node, ast.Call) else c.node.left


def _combine(base: list[list[Clause]], overrides: list[list[Clause]], removes: tuple[str, ...] = (),
             where: Path | None = None) -> list[Clause]:
    """The base clauses, with every label that the overrides give replaced by their clauses, and
    every label of ``removes`` gone (``where``: the variant.toml that names them, for errors).

    In the base and in the overrides alike, the clauses of one label stand together (one run in one
    file), so that a label cannot be shadowed by a second, distant group of the same name.  The
    overriding clauses stand where the base's first clause of the label stood; labels new to the
    base come last.
    """
    clauses, seen = _grouped(base)
    _grouped(overrides)
    replaced: dict[str, list[Clause]] = {}
    for file_clauses in overrides:
        for c in file_clauses:
            replaced.setdefault(c.label, []).append(c)
    for label in removes:
        if label not in seen:
            raise RuleError(f"{where}: removes {label!r}, a label the rule set it extends does not have")
        if label in replaced:
            raise RuleError(f"{where}: removes {label!r} and gives clauses of it too ({replaced[label][0].where})")
    clauses = [c for c in clauses if c.label not in removes]
    if not replaced:
        return clauses
    out: list[Clause] = []
    for c in clauses:
        if c.label in replaced:                              # every base clause of the label goes;
            if seen[c.label] is c:                           # the variant's stand where its first stood
                out.extend(replaced[c.label])
            continue
        out.append(c)
    for label, new in replaced.items():                      # labels the base does not have
        if label not in seen:
            out.extend(new)
    return out


def _grouped(files: list[list[Clause]]) -> tuple[list[Clause], dict[str, Clause]]:
    """All clauses in order and the first clause of each label; RuleError if a label recurs apart."""
    clauses: list[Clause] = []
    seen: dict[str, Clause] = {}
    for file_clauses in files:
        previous = None
        for c in file_clauses:
            if c.label in seen and previous != c.label:
                first = seen[c.label]
                raise RuleError(f"{c.where}: label {c.label!r} is used already at {first.where}; "
                                "the clauses of one label stand together")
            seen.setdefault(c.label, c)
            previous = c.label
            clauses.append(c)
    return clauses, seen
