"""`poker cache`: the five-card tables kept on disk (engine.judging.table's cache), listed or cleared."""

from __future__ import annotations

import argparse
import contextlib
import time
from typing import Any

from engine.cli.common import add_json_option, print_json
from engine.core import Engine
from engine.datalog import rulesets
from engine.judging.table import rules_digest
from engine.judging.tablecache import cache_dir, cache_entries, prune_cache


def register(sub: Any) -> None:
    p = sub.add_parser("cache", help="list the five-card tables kept on disk and the files kept beside them "
                                     "and the rule files parsed and checked (which rule set, size, last used), or clear them")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--clear", action="store_true", help="remove every cached table")
    how.add_argument("--prune", action="store_true",
                     help="remove what is pruned after every table build: tables of no named rule set "
                          "unused for 30 days, and the oldest of them while the cache holds more than 1 GiB")
    add_json_option(p, '{"directory", "bytes", "entries": [{"file", "kind", "rules", "bytes", "used"}]}')
    p.set_defaults(run=run_cache)


def _named_digests() -> dict[str, str]:
    """The digest of each named rule set's table (standard, the variants): what the files are of."""
    out = {}
    for name in rulesets.available():
        with contextlib.suppress(Exception):            # a rule set that cannot load names no file
            out[rules_digest(Engine(name))] = name
    return out


def run_cache(args: argparse.Namespace) -> int:
    folder = cache_dir()
    if args.clear or args.prune:
        gone = prune_cache(keep=(), max_age_days=0, max_bytes=0) if args.clear else \
            prune_cache(keep=_named_digests())
        freed = sum(e.bytes for e in gone)
        if args.json:
            print_json({"directory": str(folder), "removed": [e.path.name for e in gone], "bytes": freed})
        else:
            print(f"{folder}: removed {len(gone)} file{'s' * (len(gone) != 1)} ({freed / 2 ** 20:.1f} MB)")
        return 0
    names = _named_digests()
    entries = cache_entries()
    rows = [{"file": e.path.name, "kind": e.kind, "rules": names.get(e.digest), "bytes": e.bytes,
             "used": time.strftime("%Y-%m-%d %H:%M", time.localtime(e.used))} for e in entries]
    total = sum(e.bytes for e in entries)
    if args.json:
        print_json({"directory": str(folder), "bytes": total, "entries": rows})
        return 0
    print(f"{folder}: {len(entries)} file{'s' * (len(entries) != 1)}, {total / 2 ** 20:.1f} MB")
    for r in rows:
        what = "a lock file of an older version" if r["kind"] == "lock" else \
            r["rules"] or "other rules (an edit, a directory)"
        if r["kind"] in ("parsed", "checked"):
            what = "a rule file, parsed" if r["kind"] == "parsed" else "a rule set, checked"
        if r["kind"] in ("verified", "proofs"):      # kept beside the table of the same name
            what = f"{what}: {'its verified record' if r['kind'] == 'verified' else 'its proofs'}"
        print(f"  {r['used']}  {r['bytes'] / 2 ** 20:6.1f} MB  {what:<36} {r['file']}")
    return 0


__all__ = ["register", "run_cache"]
