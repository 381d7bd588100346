"""Many batch files, each judged into an output file of its own: one after another in this
process, or on a Dask cluster (``tcp://HOST:8786``, or ``local:N``: N worker processes here).

What a file gives is the work of a function (``work(spec, name, source, on_cluster)``: the text
of its output and a few counts) that runs the same way here and on a worker, so that a user gets
the same bytes either way.  The client plans the jobs (output names derived from input names),
ships each file's bytes to the cluster (no shared file system is needed), and writes each output
atomically, in input order, as soon as it and those before it are done; at most a few files a
worker are in flight, so that memory stays bounded.  A journal in the output folder
(:data:`JOURNAL`) says what is finished: an output is skipped by a later run when the journal has
it for the same input (size and modification time), the same options (``key``) and the output's
own SHA-256, so that an interrupted run resumes where it stopped and a partial or altered output
is judged again.  A worker judges one file at a time and keeps its engines (and their tables)
for every later file (engine.cli.batches).
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import glob
import hashlib
import json
import logging
import os
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from engine.io.atomic import atomic_writer, remove_run_directory, run_directory

__all__ = ["ClusterError", "Job", "Journal", "Outcome", "plan", "run_jobs", "write_output", "dask_setup", "JOURNAL",
           "WINDOW", "MAX_SHIPPED"]

JOURNAL = ".poker-done.jsonl"     # in the output folder: one line a finished output
WINDOW = 4                        # files in flight (or done, waiting for one before them) a worker
MAX_SHIPPED = 1 << 30             # bytes of one file shipped to a cluster (split larger ones)
SCATTER_AFTER = 1 << 20           # bytes of a file sent ahead to a worker rather than with its task
LOCAL = "local:"                  # --cluster local:N
CONNECT_TIMEOUT = 30              # seconds to reach a scheduler


class ClusterError(Exception):
    """A one-line error about the files, the output folder or the cluster."""


@contextlib.contextmanager
def writing_into(out_dir: Path) -> Iterator[None]:
    """The output folder held by this run alone: an exclusive ``flock`` on the folder itself (no
    lock file is left behind; the kernel lets it go when the process ends, however it ends).  A
    second run into the same folder would interleave its outputs and journal lines with this
    one's: it is refused at once, in one line."""
    try:
        fd = os.open(out_dir, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise ClusterError(f"{out_dir}: cannot write: {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ClusterError(f"{out_dir}: another poker run is writing into this folder; wait for it to "
                               "end, or give another --out-dir") from None
        yield
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Job:
    """One input file and the output it gives: ``name`` is the input as shown in messages,
    ``output`` the output's path relative to the output folder."""
    index: int
    source: Path
    name: str
    output: str


@dataclass
class Outcome:
    """What a file gave: the output's text, its counts, and its one-line error (a bad file)."""
    text: str
    counts: dict[str, int] = field(default_factory=dict)
    error: str | None = None


# ---- the plan: files in, output names out ----------------------------------------------------

def _is_pattern(text: str) -> bool:
    return any(c in text for c in "*?[")


def plan(inputs: Iterable[str], out_dir: Path, suffix: str, extensions: tuple[str, ...]) -> list[Job]:
    """The jobs of ``inputs`` (files, folders: the files below them with one of ``extensions``,
    in sorted order; glob patterns, ``**`` included), each output named after its input: the
    folder's relative path kept, the input's extension replaced by ``suffix``
    (``day1/a.phhs`` -> ``day1/a.results.jsonl``).  Hidden files and anything inside ``out_dir``
    are left out.  A missing input, no file at all, or two inputs with one output name is a
    ClusterError naming them."""
    out = out_dir.resolve()
    found: list[tuple[Path, str, Path]] = []      # (path, shown name, output relative path)
    for given in inputs:
        path = Path(given)
        if path.is_dir():
            below = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in extensions
                           and not any(part.startswith(".") for part in p.relative_to(path).parts))
            found += [(p, str(p), p.relative_to(path)) for p in below]
        elif path.is_file():
            found.append((path, given, Path(path.name)))
        elif _is_pattern(given):
            matched = sorted(Path(p) for p in glob.glob(given, recursive=True) if Path(p).is_file())
            if not matched:
                raise ClusterError(f"{given}: no file matches")
            found += [(p, str(p), Path(p.name)) for p in matched]
        else:
            raise ClusterError(f"{given}: no such file or folder")
    jobs: list[Job] = []
    seen: dict[str, str] = {}
    for path, shown, relative in found:
        if _inside(path.resolve(), out):
            continue
        output = str(relative.with_name(relative.stem + suffix))
        if output in seen:
            if Path(seen[output]).resolve() == path.resolve():
                continue                            # the same file given twice: judged once
            raise ClusterError(f"{seen[output]} and {shown} would both write {output}: judge them into "
                               "separate folders (--out-dir)")
        seen[output] = shown
        jobs.append(Job(len(jobs), path, shown, output))
    if not jobs:
        raise ClusterError("no batch file to judge (a folder is searched for "
                           f"{', '.join(extensions)}; the output folder's files are left out)")
    return jobs


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


# ---- the journal: what is finished ---------------------------------------------------------

class Journal:
    """The output folder's record of finished outputs (:data:`JOURNAL`, JSON Lines, appended and
    synced after each output is in place; a line cut short by a kill is ignored).  ``key``
    identifies what the outputs depend on besides the input (engine version, rules digest,
    options)."""

    def __init__(self, out_dir: Path, key: str):
        self.path, self.key, self.out_dir = out_dir / JOURNAL, key, out_dir
        self.entries: dict[str, dict] = {}
        with contextlib.suppress(FileNotFoundError):
            with self.path.open(encoding="utf-8", errors="replace") as f:
                for line in f:
                    with contextlib.suppress(ValueError, TypeError, KeyError):
                        entry = json.loads(line)
                        self.entries[str(entry["output"])] = entry

    def finished(self, job: Job) -> dict | None:
        """The journal's entry when ``job``'s output is finished: same input, same key, and the
        file's bytes those recorded (else None: the output is judged again)."""
        entry = self.entries.get(job.output)
        if entry is None or entry.get("key") != self.key or entry.get("input") != _stamp(job.source):
            return None
        try:
            data = (self.out_dir / job.output).read_bytes()
        except OSError:
            return None
        return entry if hashlib.sha256(data).hexdigest() == entry.get("sha256") else None

    def record(self, job: Job, stamp: list[int], data: bytes, outcome: Outcome) -> None:
        entry = {"output": job.output, "input": stamp, "key": self.key,
                 "sha256": hashlib.sha256(data).hexdigest(), "counts": outcome.counts, "error": outcome.error}
        line = json.dumps(entry, ensure_ascii=True) + "\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            os.write(fd, line.encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        self.entries[job.output] = entry


def _stamp(path: Path) -> list[int] | None:
    """What says an input changed: its size and modification time (as make and rsync judge)."""
    try:
        info = path.stat()
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns]


def write_output(out_dir: Path, job: Job, outcome: Outcome, journal: Journal, stamp: list[int] | None) -> None:
    """Put a file's output in place atomically, then record it as finished."""
    target = out_dir / job.output
    target.parent.mkdir(parents=True, exist_ok=True)
    data = outcome.text.encode("utf-8")
    with atomic_writer(target) as stream:
        stream.write(outcome.text)
    if stamp is not None:
        journal.record(job, stamp, data, outcome)


# ---- running the jobs ------------------------------------------------------------------------

Work = Callable[[Any, str, "bytes | Path", bool], Outcome]


def run_jobs(jobs: list[Job], work: Work, spec: Any, done: Callable[[Job, Outcome, "list[int] | None"], None],
             cluster: str | None = None, started: Callable[[str], None] | None = None) -> None:
    """Judge each job's file with ``work`` and hand ``done`` its outcome (and the input's stamp,
    taken before it was read), in the jobs' order: here, one after another (``cluster`` None),
    or on the Dask cluster ``cluster`` names.  ``started(description)`` when the cluster is up.
    A failure of the cluster itself (a worker lost, a task that raised) is that file's outcome
    with the error, never written as finished.  Ctrl-C, SIGTERM or a budget stop the cluster
    (a local one's processes end with it) and propagate."""
    if cluster is None:
        for job in jobs:
            stamp = _stamp(job.source)
            try:
                open(job.source, "rb").close()
            except OSError as exc:      # not the file's content: reported, not finished
                done(job, Outcome("", error=f"{job.name}: cannot read: {exc.strerror or exc}"), None)
                continue
            done(job, work(spec, job.name, job.source, False), stamp)
        return
    with _connected(cluster) as connection:     # [client, description], emptied as it closes
        if started is not None:
            started(connection[1])
        _run_on(connection[0], jobs, work, spec, done)


def _run_on(client: Any, jobs: list[Job], work: Work, spec: Any,
            done: Callable[[Job, Outcome, "list[int] | None"], None]) -> None:
    from asyncio import CancelledError  # (imported with distributed: not at start-up)

    from distributed import as_completed
    workers = max(1, sum(client.nthreads().values()))
    window = WINDOW * workers
    todo = iter(jobs)
    waiting: dict[int, tuple[Job, Outcome, list[int] | None]] = {}   # done, waiting for those before
    flight: dict[Any, tuple[Job, list[int] | None]] = {}
    following = 0                                    # the next job to hand to ``done``
    run = os.urandom(6).hex()                        # this run's tasks' keys (one scheduler, many clients)
    pending = as_completed(loop=client.loop)

    def submit() -> bool:
        job = next(todo, None)
        if job is None:
            return False
        stamp = _stamp(job.source)
        shipped = _ship(job)
        if isinstance(shipped, Outcome):        # not the file's content: reported, not finished
            waiting[job.index] = (job, shipped, None)
            return True
        # the bytes go ahead to a worker (a large argument would be sent through the scheduler,
        # with a warning); the task runs where they are
        data = client.scatter(shipped, hash=False) if len(shipped) > SCATTER_AFTER else shipped
        # pure=False: a file judged again (another run) is a new task, never a cached result
        future = client.submit(work, spec, job.name, data, True, pure=False, priority=-job.index,
                               key=f"poker-{run}-{job.index}")
        flight[future] = (job, stamp)
        pending.add(future)
        return True

    try:
        while len(flight) + len(waiting) < window and submit():
            pass
        while flight or waiting:
            if following not in waiting:
                future = next(pending)
                job, stamp = flight.pop(future)
                try:
                    outcome = future.result()
                except (Exception, CancelledError) as exc:   # the cluster's failure, not the file's
                    outcome = Outcome("", error=f"{job.name}: not judged: {_one_line(exc)}")
                    stamp = None
                future.release()
                waiting[job.index] = (job, outcome, stamp)
            while following in waiting:
                done(*waiting.pop(following))
                following += 1
            while len(flight) + len(waiting) < window and submit():
                pass
    finally:
        for future in flight:
            future.cancel()


def _ship(job: Job) -> "bytes | Outcome":
    """The file's bytes, to send to a worker; or its one-line error."""
    try:
        size = job.source.stat().st_size
        if size > MAX_SHIPPED:
            return Outcome("", error=f"{job.name}: {size} bytes: too large to ship to a cluster "
                                     f"(at most {MAX_SHIPPED}: split it)")
        return job.source.read_bytes()
    except OSError as exc:
        return Outcome("", error=f"{job.name}: cannot read: {exc.strerror or exc}")


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]


@contextlib.contextmanager
def _connected(address: str) -> Iterator[list[Any]]:
    """A Dask client of the scheduler at ``address``, or of a new local cluster of N processes
    (``local:N``, one thread each, scratch space in this run's own temporary directory); closed,
    and a local cluster's processes ended, however the block ends."""
    try:
        import dask
        import distributed
    except ImportError:
        raise ClusterError("--cluster needs Dask's distributed: pip install 'poker-engine[cluster]'") from None
    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)   # its warnings are not the user's lines
    local = None
    folder = None
    if address.startswith(LOCAL):
        count = address[len(LOCAL):]
        if not (count.isascii() and count.isdigit() and 1 <= int(count) <= 256):
            raise ClusterError(f"--cluster {address}: local:N takes a number of processes (1 to 256)")
        folder = run_directory("cluster")
        try:
            _quiet_resource_tracker()       # in the try: a Ctrl-C held over its fork is raised here
            with dask.config.set({"temporary-directory": str(folder)}):
                local = distributed.LocalCluster(n_workers=int(count), threads_per_worker=1, processes=True,
                                                 dashboard_address=None, worker_dashboard_address=None,
                                                 silence_logs=logging.CRITICAL, local_directory=str(folder),
                                                 preload=[__name__],
                                                 # the scheduler's HTTP server (health routes, no
                                                 # dashboard) on a free local port: on 8787, its
                                                 # default, a second cluster at once warned on stderr
                                                 scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
        except BaseException:
            remove_run_directory(folder)
            raise
        target: Any = local
        description = f"a local cluster of {count} processes"
    elif "://" in address or ":" in address:
        target, description = address, f"the cluster at {address}"
    else:
        raise ClusterError(f"--cluster {address}: give a scheduler's address (tcp://HOST:8786) or local:N")
    client = None
    connection: list[Any] = []
    early = False
    try:
        try:
            client = distributed.Client(target, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"--cluster {address}: cannot reach the scheduler ({_one_line(exc)})") from None
        if local is None:
            try:
                client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError):
                raise ClusterError(f"--cluster {address}: no worker joined the scheduler in "
                                   f"{CONNECT_TIMEOUT} s") from None
        connection = [client, description]
        yield connection
    except BaseException as exc:
        early = True
        # the frames the exception left hold the client (and so the cluster): let them go, so
        # that what the cluster holds is released when it is closed (not reported at the exit)
        traceback.clear_frames(exc.__traceback__)
        raise
    finally:
        connection.clear()
        held, client, local, target = [client, local], None, None, None
        _closed(held, early, folder)


# multiprocessing's tracker process reports the semaphores a process left at its exit, as a
# warning on the stderr it shares with `poker`, and unlinks them.
_TRACKER_WARNINGS = "ignore::UserWarning:multiprocessing.resource_tracker"


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (before the local cluster's queues and events
    need it) with its leak report off.  After a stop the command gives the cluster a second to
    close and ends at once: under load the close can run past it, and the tracker then unlinked
    what the cluster still held and printed its warnings under the command's one line.  It is
    started with the interpreter's -W options (``sys.warnoptions``): the filter is added for
    that start only.  A tracker already running (started by the program) is left as it is."""
    from multiprocessing import resource_tracker
    sys.warnoptions.append(_TRACKER_WARNINGS)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(_TRACKER_WARNINGS)


def dask_setup(worker: Any) -> None:
    """Dask's hook in a module a worker preloads (a local cluster's workers preload this one):
    Ctrl-C at a terminal reaches every process of the group, and the workers leave it to the
    client, which stops them (else each would print its traceback)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _closed(held: list[Any], early: bool, folder: Path | None) -> None:
    """Close the client and the local cluster (``held``) and remove the run's directory, in a
    thread of its own while this one waits: after a signal, the main thread is interrupted again
    every second until the command ends (engine.limits), and closing takes about that long."""
    finished = threading.Event()

    def close() -> None:
        try:
            _close(*held, early)
            held.clear()
            gc.collect()        # their semaphores released now, not reported leaked at the exit
            _remove(folder)
        finally:
            finished.set()
    threading.Thread(target=close, name="closing the cluster", daemon=True).start()
    while True:
        try:
            if finished.wait(0.05):
                break
        except BaseException:       # the signal raised again, a second Ctrl-C: still wait
            continue


def _remove(folder: Path | None) -> None:
    """Remove the run's directory, again while a worker process ending meanwhile removes its own
    part of it (a second's worth at most)."""
    for _ in range(20):
        remove_run_directory(folder)
        if folder is None or not folder.exists():
            return
        time.sleep(0.05)


def _close(client: Any, local: Any, early: bool = False) -> None:
    """Close the client, then the local cluster (its worker processes ended, waited for), then
    kill what is left of its processes.  ``early`` (an error, a signal, a budget): waited for a
    second at most each."""
    processes = _local_processes(local) if local is not None else []
    for step in (client, local):
        if step is not None:
            with contextlib.suppress(Exception):
                step.close(timeout=1 if early else 10)
    _kill(processes)


def _kill(processes: list[Any]) -> None:
    for process in processes:
        if process.is_alive():
            with contextlib.suppress(Exception):
                process.kill()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(2)


def _local_processes(local: Any) -> list[Any]:
    """The worker processes of a local cluster still alive (its nannies' children)."""
    found = []
    for nanny in list(getattr(local, "workers", {}).values()):
        process = getattr(getattr(nanny, "process", None), "process", None)
        inner = getattr(process, "_process", None)
        if inner is not None and inner.is_alive():
            found.append(inner)
    return found
