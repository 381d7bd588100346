"""`poker judge` and `poker history` of many files (several files, a folder, a glob): each file's
output written into ``--out-dir``, one after another here or on a Dask cluster (``--cluster``),
with the same bytes either way (engine.cluster runs the jobs; :func:`judge_file` is a job)."""

from __future__ import annotations

import argparse
import functools
import hashlib
import io
import json
import os
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from engine import cluster
from engine.cli import history, judging
from engine.cli.common import (
    CommandError,
    clear_progress,
    load_engine,
    one_line,
    progress,
    reload_engine,
    rules_key,
)
from engine.io import fights as batch
from engine.io.results import dumps, write_results
from engine.judge import Judge
from engine.judging.table import rules_digest
from engine.version import version

FIGHT_EXTENSIONS = tuple(batch.EXTENSIONS)
PHH_EXTENSIONS = history.EXTENSIONS
ERRORS = 10                 # files' errors printed; the rest counted
OUTPUT_EXTENSIONS = {"yaml": ".yaml", "json": ".json", "jsonl": ".jsonl"}
AUDIT_SUFFIX = ".history.txt"


def register(commands: dict[str, argparse.ArgumentParser]) -> None:
    """Give `poker judge` and `poker history` more inputs, --out-dir and --cluster: with them,
    :func:`run_many`; else the command as it was."""
    for name in ("judge", "history"):
        parser = commands[name]
        add_options(parser)
        parser.set_defaults(run=functools.partial(_either, name, parser.get_default("run")))


def _either(command: str, one: Any, args: argparse.Namespace) -> int:
    if many(args):
        return run_many(args, command, judging.output_format(args) if command == "judge" else "text")
    return int(one(args) or 0)


def add_options(p: argparse.ArgumentParser) -> None:
    """More input files, --out-dir and --cluster, on `poker judge` and `poker history`."""
    p.add_argument("more", nargs="*", metavar="FILE",
                   help="more files, folders (their batch files, below them too) or glob patterns ('day*/*.phhs'): "
                        "each file's output goes into --out-dir")
    p.add_argument("--out-dir", metavar="DIR",
                   help="write each file's output here, named after it (a.phhs: a.results.yaml, or .jsonl with "
                        "--format jsonl; poker history: a.history.txt), atomically and in order; a run stopped "
                        "midway resumes where it stopped")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="judge the files on a Dask cluster: tcp://HOST:8786, or local:N (N processes here); "
                        "pip install 'poker-engine[cluster]'")


def many(args: argparse.Namespace) -> bool:
    """Whether the command judges many files into --out-dir (else the one file, as ever)."""
    return bool(args.more or args.out_dir or args.cluster or
                (args.file != "-" and Path(args.file).is_dir()))


@dataclass(frozen=True)
class Spec:
    """What a job needs to judge a file the way the client would: the command, the options, and
    the engine version and rules digest every worker must have."""
    command: str                    # judge, history
    rules: str | None
    form: str                       # the output format (judge)
    strict: bool = False
    plain: bool = False
    no_table: bool = False
    explain: bool = False
    version: str = ""
    digest: str = ""

    def key(self) -> str:
        """What outputs depend on besides their input (the journal's key)."""
        return hashlib.sha256(json.dumps(vars(self), sort_keys=True).encode()).hexdigest()[:32]

    def namespace(self) -> argparse.Namespace:
        return argparse.Namespace(rules=self.rules, explain=self.explain)


def run_many(args: argparse.Namespace, command: str, form: str = "yaml") -> int:
    """Judge every file of the command's inputs into --out-dir; a bad file's one-line error is
    its output, and the others go on.  Exit 0, or 2 when a file failed."""
    if getattr(args, "output", None) not in (None, "-"):
        raise CommandError("-o names one output: with many files, give --out-dir")
    if not args.out_dir:
        raise CommandError("many files are judged into a folder: give --out-dir DIR")
    out_dir = Path(args.out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise CommandError(f"{out_dir}: cannot write: not a folder")
    extensions = PHH_EXTENSIONS if command == "history" else FIGHT_EXTENSIONS + PHH_EXTENSIONS
    suffix = AUDIT_SUFFIX if command == "history" else ".results" + OUTPUT_EXTENSIONS[form]
    start = time.perf_counter()
    try:
        jobs = cluster.plan([args.file, *args.more], out_dir, suffix, extensions)
        out_dir.mkdir(parents=True, exist_ok=True)
    except cluster.ClusterError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"{out_dir}: cannot write: {exc.strerror or exc}") from None
    if not os.access(out_dir, os.W_OK | os.X_OK):
        raise CommandError(f"{out_dir}: cannot write: the folder is not writable")
    try:
        with cluster.writing_into(out_dir):
            return _run_into(args, command, form, out_dir, jobs, start)
    except cluster.ClusterError as exc:              # (the folder held by another run)
        raise CommandError(str(exc)) from None


def _run_into(args: argparse.Namespace, command: str, form: str, out_dir: Path, jobs: list[cluster.Job],
              start: float) -> int:
    """run_many's work, the output folder held."""
    engine = load_engine(args)               # the rules' faults show here, once, before any file
    spec = Spec(command, rules_key(args), form, strict=getattr(args, "strict", False),
                plain=getattr(args, "plain", False), no_table=getattr(args, "no_table", False),
                explain=getattr(args, "explain", False), version=version(), digest=rules_digest(engine))
    journal = cluster.Journal(out_dir, spec.key())
    todo, skipped = [], []
    for job in jobs:
        (skipped if journal.finished(job) else todo).append(job)
    totals: dict[str, int] = {}
    failed: list[str] = [journal.entries[j.output]["error"] for j in skipped if journal.entries[j.output].get("error")]
    for line in failed[:ERRORS]:
        print(f"poker: {one_line(line)} (finished before)", file=sys.stderr)
    tick = progress(len(todo), "judging", "file")

    def done(job: cluster.Job, outcome: cluster.Outcome, stamp: list[int] | None) -> None:
        if stamp is not None:                       # (a bad file: its error is its output)
            cluster.write_output(out_dir, job, outcome, journal, stamp)
        for k, x in outcome.counts.items():
            totals[k] = totals.get(k, 0) + x
        if outcome.error:
            failed.append(outcome.error)
            if len(failed) <= ERRORS:
                clear_progress()
                print(f"poker: {one_line(outcome.error)}", file=sys.stderr)
        if tick is not None:
            tick(1)

    where = ["here"]

    def started(description: str) -> None:
        where[0] = description

    try:
        cluster.run_jobs(todo, judge_file, spec, done, cluster=args.cluster, started=started)
    except cluster.ClusterError as exc:
        raise CommandError(str(exc)) from None
    clear_progress()
    if len(failed) > ERRORS:
        print(f"poker: {len(failed) - ERRORS} more files failed (each output holds its error)", file=sys.stderr)
    counted = ", ".join(f"{k}: {x}" for k, x in sorted(totals.items()))
    print(f"files: {len(jobs)}, judged: {len(todo)}, finished before: {len(skipped)}, failed: {len(failed)}"
          + (f", {counted}" if counted else "") + f", time: {time.perf_counter() - start:.2f} s ({where[0]})",
          file=sys.stderr)
    return 2 if failed else 0


# ---- a job: one file, here or on a worker --------------------------------------------------

_one_at_a_time = threading.Lock()       # a worker's engines serve one file at a time
_set_up = False


def judge_file(spec: Spec, name: str, source: "bytes | Path", on_cluster: bool) -> cluster.Outcome:
    """Judge one file (its bytes, or its path here) as `poker judge FILE` or `poker history FILE`
    would: the output's text, its counts, and for a bad file its one-line error as its output.
    On a cluster's worker the engines are loaded once (this process's, engine.cli.common) and
    checked against the client's version and rules digest (loaded again when the rules' files
    changed since: a worker outlives a run); the worker judges with one database
    and no processes of its own (the cluster is the parallelism)."""
    global _set_up
    with _one_at_a_time:
        if on_cluster and not _set_up:
            os.environ["POKER_WORKERS"] = "1"
            _set_up = True
        try:
            if on_cluster:
                _same_engine(spec)
            return _judge(spec, name, source)
        except CommandError as exc:
            return _failed(spec, str(exc))
        except batch.BatchError as exc:
            return _failed(spec, str(exc))
        except UnicodeDecodeError as exc:
            return _failed(spec, f"{name}: not UTF-8 text ({exc.reason})")
        except OSError as exc:
            return _failed(spec, f"{name}: cannot read: {exc.strerror or exc}")


def _same_engine(spec: Spec) -> None:
    """A worker must judge with the client's engine version and rules (else every file would
    differ from what the client gives): a RuntimeError saying so (the cluster's failure)."""
    if version() != spec.version:
        raise RuntimeError(f"the worker runs poker-engine {version()}, the client {spec.version}: "
                           "install the same version on every machine")
    digest = rules_digest(load_engine(spec.namespace()))
    if digest != spec.digest:       # the rule files changed since this worker loaded them: again
        digest = rules_digest(reload_engine(rules_key(spec.namespace())))
    if digest != spec.digest:
        raise RuntimeError(f"the worker's rules {spec.rules or 'standard'} are not the client's "
                           f"(digest {digest[:12]} against {spec.digest[:12]}): give every machine the same rules")


def _failed(spec: Spec, error: str) -> cluster.Outcome:
    text = f"error: {one_line(error)}\n" if spec.command == "history" else dumps({"error": error}) + "\n"
    return cluster.Outcome(text, {}, error)


def _stream(name: str, source: "bytes | Path") -> IO[bytes]:
    """The file's bytes as a stream named ``name``; here, the file itself opened by that name
    (the path as found: what errors and results name, as `poker judge FILE` does)."""
    if not isinstance(source, bytes):
        return open(name, "rb")
    stream: Any = io.BytesIO(source)
    stream.name = name
    return stream


def _judge(spec: Spec, name: str, source: "bytes | Path") -> cluster.Outcome:
    phh = spec.command == "history" or Path(name).suffix.lower() in PHH_EXTENSIONS
    with _stream(name, source) as raw:
        if phh:
            text = io.TextIOWrapper(raw, encoding="utf-8-sig")
            judge, hands = history.histories(spec.namespace(), name, history._Bounded(text, name), dumped=True)
            if spec.command == "history":
                lines = history.audit(judge, hands, name)
                return cluster.Outcome("\n".join(lines) + "\n", _phh_counts(judge.counts))
            out = io.StringIO()
            write_results(out, judge.judge(hands, name=name), spec.form)
            return cluster.Outcome(out.getvalue(), _phh_counts(judge.counts))
        return _fights(spec, name, raw)


def _phh_counts(counts: dict[str, int]) -> dict[str, int]:
    return {"hands": counts["hands"], "hands invalid": counts["invalid"]}


def _fights(spec: Spec, name: str, raw: IO[bytes]) -> cluster.Outcome:
    """A batch of fights, as `poker judge FILE --format FORM` writes it (its warnings counted)."""
    fights = batch.read_fights(raw, batch.format_of(name))
    engine = load_engine(spec.namespace())
    counts = {"fights": 0, "fights invalid": 0, "warnings": 0}

    def warn(line: str) -> None:
        counts["warnings"] += 1

    judge = Judge(engine, engine.reference if spec.plain else None, table=False if spec.no_table else None,
                  strict=spec.strict, warn=warn)

    def results() -> Any:
        for r in judge.judge(fights):
            counts["fights"] += 1
            counts["fights invalid"] += bool(r.error)
            yield r.as_dict()

    out = io.StringIO()
    write_results(out, results(), spec.form)
    return cluster.Outcome(out.getvalue(), counts)
