"""Writing output files: atomically, with the permissions a plain write would give.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     out = pathlib.Path(folder) / "results.yaml"
...     check_writable(out)             # the directory exists and takes new files: no error
...     atomic_write(out, "results: []\\n")
...     with atomic_writer(out) as stream:      # written as it comes, replaced at the end
...         _ = stream.write("results:\\n- {}\\n")
...     out.read_text()
'results:\\n- {}\\n'

An output path that is a symbolic link is written through: its target is replaced and the link
stays.  While a temporary file exists, SIGTERM (like Ctrl-C) removes it before the process ends
(:func:`terminate_cleanly`); one left by a run killed outright is removed by the next write to
the same path (:func:`remove_leftovers`).  Files a run hands between its processes live in its own
temporary directory (:func:`run_directory`), removed at its end, or after a kill by the next run.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator, TextIO

from engine.limits import Terminated, answer_signals

__all__ = ["atomic_write", "atomic_writer", "check_writable", "remove_leftovers", "target_of",
           "terminate_cleanly", "Terminated", "umask", "run_directory", "remove_run_directory", "remove_stale_runs"]

TEMPORARY_SUFFIX = ".tmp"


def umask() -> int:
    """The process's umask, read without changing it where the system tells it (Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)          # elsewhere: set and restore (not thread-safe, but brief)
    os.umask(mask)
    return mask


def target_of(path: Path | str) -> Path:
    """The file a write to ``path`` should replace: ``path`` itself, or the end of its chain of
    symbolic links (a link is written through, not replaced by a regular file)."""
    path = Path(path)
    if not path.is_symlink():
        return path
    return Path(os.path.realpath(path))


terminate_cleanly = answer_signals        # the name it had here (SIGTERM raises Terminated)


@contextlib.contextmanager
def atomic_writer(path: Path | str, encoding: str = "utf-8") -> Iterator[TextIO]:
    """A text stream whose content replaces ``path`` only when the block ends without error.

    The text goes to a temporary file beside the target, which then replaces it, so a reader sees
    the old content or the new, never half of it.  A new file gets the permissions the umask gives
    (``0o666 & ~umask``, as ``open(path, "w")`` would), and a file that exists keeps its mode.  On
    any failure, Ctrl-C or SIGTERM the old file stays as it was and the temporary file is removed.
    A symbolic link is written through (:func:`target_of`).  A device or a FIFO (``/dev/null``,
    ``/dev/stdout``) cannot be replaced: it is written directly.
    """
    try:
        info = os.stat(path)
    except OSError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
        with open(path, "w", encoding=encoding) as direct:
            yield direct
        return
    target = target_of(path)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~umask()
    with replacing(target, mode, encoding) as f:
        yield f


@contextlib.contextmanager
def replacing(target: Path, mode: int, encoding: str | None = None) -> Iterator[Any]:
    """A new file (text with ``encoding``, else binary) that replaces ``target`` itself (a link
    there is replaced, not followed) when the block ends without error, with ``mode``.

    It is written beside the target, flushed and synced, then renamed over it; on any failure,
    Ctrl-C or SIGTERM the temporary file is removed and the target stays as it was.  Its name,
    ``.NAME.PID.XXXXXXXX.tmp``, says whose it is: a run killed outright (SIGKILL) leaves it
    behind, and the next write to ``target`` removes it (:func:`remove_leftovers`).
    """
    remove_leftovers(target)
    with terminate_cleanly():
        fd, tmp = tempfile.mkstemp(dir=str(target.parent), prefix=f".{target.name}.{os.getpid()}.",
                                   suffix=TEMPORARY_SUFFIX)
        try:
            with (os.fdopen(fd, "w", encoding=encoding) if encoding else os.fdopen(fd, "wb")) as f:
                yield f
                f.flush()
                os.fchmod(f.fileno(), mode)     # mkstemp made it 0600
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def remove_leftovers(target: Path) -> list[Path]:
    """Remove the temporary files that killed writers of ``target`` left beside it; return them.

    Only what is unmistakably such a file goes: named as :func:`replacing` names them (the
    target's name, a process id, mkstemp's eight characters), a regular file of this user, and
    its writer's process gone.  A file of a live process, or of another user, stays.
    """
    pattern = re.compile(re.escape(f".{target.name}.") + r"(\d+)\.[a-z0-9_]{8}"
                         + re.escape(TEMPORARY_SUFFIX))
    removed: list[Path] = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        found = pattern.fullmatch(entry.name)
        if not found or int(found.group(1)) == os.getpid() or _alive(int(found.group(1))):
            continue
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid():
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (one of another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):     # another user's, or no process id at all
        return True
    return True


# ---- a run's own temporary directory --------------------------------------------------------

LEGACY_AGE = 86400.0        # seconds: a hand-off file of an older version (no process id) left this long goes


def run_directory(what: str) -> Path:
    """A new private directory of this run, ``$TMPDIR/poker-WHAT-PID-XXXXXXXX`` (mode 0700), for
    files the run hands between its processes; :func:`remove_run_directory` removes it at the
    end.  Those that runs killed outright left are removed first (:func:`remove_stale_runs`)."""
    remove_stale_runs(what)
    return Path(tempfile.mkdtemp(prefix=f"poker-{what}-{os.getpid()}-", dir=tempfile.gettempdir()))


def remove_stale_runs(what: str) -> list[str]:
    """Remove the directories ``$TMPDIR/poker-WHAT-PID-XXXXXXXX`` that runs killed outright left
    (this user's, their process gone), and an older version's ``poker-WHAT-XXXXXXXX.pickle``
    files (no process id in the name) a day old; return their names.  A live run's stay."""
    base = Path(tempfile.gettempdir())
    removed: list[str] = []
    pattern = re.compile(re.escape(f"poker-{what}-") + r"(\d+)-[a-z0-9_]{8}")
    legacy = re.compile(re.escape(f"poker-{what}-") + r"[a-z0-9_]{8}\.pickle")  # an older version's: no pid
    try:
        entries = list(os.scandir(base))
    except OSError:
        entries = []
    for entry in entries:
        found = pattern.fullmatch(entry.name)
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if info.st_uid != os.getuid():
                continue
            if found and stat.S_ISDIR(info.st_mode) and not _alive(int(found.group(1))):
                shutil.rmtree(entry.path, ignore_errors=True)
                removed.append(entry.name)
            elif legacy.fullmatch(entry.name) and stat.S_ISREG(info.st_mode) \
                    and time.time() - info.st_mtime > LEGACY_AGE:
                os.unlink(entry.path)
                removed.append(entry.name)
    return removed


def remove_run_directory(path: Path | str | None) -> None:
    """Remove a run's directory and what it holds (nothing when it is gone already)."""
    if path is not None:
        shutil.rmtree(path, ignore_errors=True)


def atomic_write(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` atomically (see :func:`atomic_writer`)."""
    with atomic_writer(path) as f:
        f.write(text)


def check_writable(path: Path | str) -> None:
    """Raise OSError (with ``filename`` set to ``path``) when ``path`` cannot be written.

    Checks what :func:`atomic_write` needs: the directory exists and takes new files, and
    ``path`` is not a directory or a file that may not be written (for a symbolic link: its
    target; a device such as ``/dev/null`` is written directly, so only its permission counts).
    Call it before long work, so that a typo in an output path shows at once.
    """
    shown = str(path)
    try:
        kind = os.stat(path).st_mode
    except OSError:
        kind = None
    if kind is not None and not stat.S_ISREG(kind) and not stat.S_ISDIR(kind):
        if not os.access(path, os.W_OK):
            raise PermissionError(13, "it may not be written", shown)
        return
    path = target_of(path)
    parent = path.parent
    if not parent.exists():
        raise FileNotFoundError(2, f"no directory {str(parent)!r}", shown)
    if not parent.is_dir():
        raise NotADirectoryError(20, f"{str(parent)!r} is not a directory", shown)
    if path.is_dir():
        raise IsADirectoryError(21, "it is a directory", shown)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise PermissionError(13, f"the directory {str(parent)!r} is not writable", shown)
    if path.exists() and not os.access(path, os.W_OK):
        raise PermissionError(13, "the file is not writable", shown)

