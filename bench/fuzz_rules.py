"""A longer run of the differential fuzzer of rule sets (tests/rulefuzz.py): generated rule sets
asked of pyDatalog, the compiled program in-process and on DuckDB, every answer compared.

Prints the counts (cases, agreements, refusals, rejections, disagreements), the failures every
evaluator agreed on, the compiler's reasons for refusing, and each distinct disagreement shrunk to
the smallest program (or set of edits) that still shows it.

Run: .venv/bin/python bench/fuzz_rules.py [--cases N] [--seed S] [--features arith,edits,...]
     [--group K] [--shrink SECONDS] [--no-shrink] [--raw]
Features: arith sides negation aggregates functions case floats big53 big63 div_body div_caller
strings unsafe mixed edits (the default: all of them, the cases dealt round-robin).  --raw turns
off the Engine's fallback (a world whose compiled run fails is answered by pyDatalog), to see
where the compiled program itself fails.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import rulefuzz as F  # noqa: E402

ALL = (*F.FEATURES, F.MIXED, "edits")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=200, help="generated cases (default 200)")
    parser.add_argument("--seed", type=int, default=1000, help="the first seed (default 1000)")
    parser.add_argument("--features", default=",".join(ALL), help="comma-separated (default: all)")
    parser.add_argument("--group", type=int, default=24, help="programs per rule set (default 24)")
    parser.add_argument("--shrink", type=float, default=300.0,
                        help="seconds to shrink each distinct disagreement (default 300)")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--raw", action="store_true",
                        help="compare the compiled program itself (no failed world answered by pyDatalog)")
    args = parser.parse_args()
    features = [f.strip() for f in args.features.split(",") if f.strip()]
    unknown = sorted(set(features) - set(ALL))
    if unknown:
        parser.error(f"unknown features {unknown} (known: {', '.join(ALL)})")
    F.RAW = args.raw
    started = time.perf_counter()
    cases = [F.make_case(features[i % len(features)], args.seed + i // len(features))
             for i in range(args.cases)]
    tally = F.Tally()
    by_feature: dict[str, F.Tally] = {}
    for feature in features:
        mine = [c for c in cases if c.feature == feature]
        t = time.perf_counter()
        by_feature[feature] = part = F.run_cases(mine, group=args.group)
        print(f"{feature:>10}: {part.cases} cases, {part.agree} agree, {part.refused} refused, "
              f"{part.rejected} rejected, {len(part.disagree)} disagree ({part.rule_sets} rule sets, "
              f"{time.perf_counter() - t:.1f} s)", flush=True)
        _merge(tally, part)
    print()
    print(f"cases: {tally.cases}  agreements: {tally.agree}  refusals: {tally.refused}  "
          f"rejections: {tally.rejected}  disagreements: {len(tally.disagree)}")
    print(f"rule sets loaded: {tally.rule_sets}  answer rows compared: {tally.rows}  "
          f"time: {time.perf_counter() - started:.1f} s")
    if tally.errors:
        agreed = ", ".join(f"{k} ({v})" for k, v in sorted(tally.errors.items()))
        print(f"failures every evaluator agreed on: {agreed}")
    if tally.refusals:
        print("refused by the compiler (pyDatalog alone answers):")
        for reason, n in sorted(tally.refusals.items(), key=lambda x: -x[1]):
            print(f"  {n:4}  {reason}")
    if tally.rejections:
        print("rejected by the loader (a generator's fault, but for sides' expression == X):")
        for reason in tally.rejections[:10]:
            print(f"  {reason[:200]}")
    distinct: dict[tuple, tuple[F.Case, F.Result]] = {}
    for case, result in tally.disagree:
        key = (case.feature.split("+")[0], tuple(sorted(result.signature)))
        distinct.setdefault(key, (case, result))
    if distinct:
        print(f"\n{len(distinct)} distinct disagreements (by feature and by which evaluator disagrees how):")
    for (feature, signature), (case, result) in distinct.items():
        print()
        if not args.no_shrink:
            t = time.perf_counter()
            case, result = F.shrink(case, result, budget=args.shrink)
            print(f"(shrunk in {time.perf_counter() - t:.0f} s)")
        print(F.describe(case, result))
    return 1 if tally.disagree else 0


def _merge(into: F.Tally, part: F.Tally) -> None:
    into.cases += part.cases
    into.agree += part.agree
    into.refused += part.refused
    into.rejected += part.rejected
    into.disagree += part.disagree
    into.rejections += part.rejections
    into.rule_sets += part.rule_sets
    into.rows += part.rows
    for mine, theirs in ((into.errors, part.errors), (into.refusals, part.refusals)):
        for k, v in theirs.items():
            mine[k] = mine.get(k, 0) + v


if __name__ == "__main__":
    sys.exit(main())
