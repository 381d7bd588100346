"""The 10,000 Pluribus hands (six-max no-limit hold'em, Pluribus against five professionals) as
one bulk hand-history file, for bench/bench_real.py.

The hands are not part of this repository: pokerkit's repository held them as
``data/pluribus/<session>/<n>.phh`` (until its commit df30bd0).  This helper reads them from a
pokerkit git directory (``git cat-file``, no work tree needed) or from a folder of ``.phh`` files
and writes them, in a stable order (session, then hand number), as sections ``[1]``, ``[2]`` …
of one ``.phhs`` file in a cache directory outside the repository ($POKER_CACHE_DIR, else
~/.cache/poker-engine), written atomically and made once.

    .venv/bin/python bench/pluribus.py /path/to/pokerkit/.git        # or a folder of .phh files
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REVISION = "df30bd0^"          # the last commit of pokerkit's that holds data/pluribus
FOLDER = "data/pluribus"


def cache_dir() -> Path:
    """Where fetched data goes: $POKER_CACHE_DIR, else ~/.cache/poker-engine (never the repository)."""
    root = os.environ.get("POKER_CACHE_DIR")
    return Path(root) if root else Path.home() / ".cache" / "poker-engine"


def _order(name: str) -> tuple:
    """Session, then hand number, numbers compared as numbers ('100b/9' before '100b/10')."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def from_git(gitdir: Path) -> list[tuple[str, str]]:
    """(name, text) of every .phh under data/pluribus at REVISION of a pokerkit git directory."""
    names = subprocess.run(["git", "-C", str(gitdir), "ls-tree", "-r", "--name-only", REVISION, FOLDER],
                           check=True, capture_output=True, text=True).stdout.split()
    names = sorted((n for n in names if n.endswith(".phh")), key=_order)
    query = "".join(f"{REVISION}:{n}\n" for n in names).encode()
    out = subprocess.run(["git", "-C", str(gitdir), "cat-file", "--batch"], input=query,
                         check=True, capture_output=True).stdout
    texts, at = [], 0
    for _ in names:                         # "<sha> blob <size>\n<bytes>\n" a file
        eol = out.index(b"\n", at)
        size = int(out[at:eol].split()[2])
        texts.append(out[eol + 1:eol + 1 + size].decode())
        at = eol + 1 + size + 1
    return list(zip(names, texts))


def from_folder(folder: Path) -> list[tuple[str, str]]:
    """(name, text) of every .phh under a folder, in the same order."""
    paths = sorted(folder.rglob("*.phh"), key=lambda p: _order(p.relative_to(folder).as_posix()))
    return [(p.relative_to(folder).as_posix(), p.read_text()) for p in paths]


def write(hands: list[tuple[str, str]], path: Path) -> None:
    """The hands as sections [1] … [N] of one .phhs file, written atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(f"[{i}]\n{text.strip()}\n\n" for i, (_, text) in enumerate(hands, 1))
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".pluribus-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(body)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def pluribus(source: Path | None = None) -> Path:
    """The bulk file (made from ``source`` once: a pokerkit git directory or a folder of .phh; a
    .phhs file given is taken as it is)."""
    path = cache_dir() / "pluribus.phhs"
    if path.exists():
        return path
    if source is None:
        raise SystemExit(f"{path} is not made yet: give a pokerkit git directory or a folder of .phh files")
    if source.is_file() and source.suffix == ".phhs":        # made already, elsewhere
        return source
    if not source.is_dir():
        raise SystemExit(f"{source}: not a pokerkit git directory, a folder of .phh files or a .phhs file")
    try:
        hands = from_folder(source) if any(source.rglob("*.phh")) else from_git(source)
    except subprocess.CalledProcessError as exc:
        raise SystemExit(f"{source}: git could not read {FOLDER} at {REVISION}: "
                         f"{(exc.stderr or '').strip().splitlines()[-1:] or exc}") from None
    if not hands:
        raise SystemExit(f"{source}: no .phh files found (nor {FOLDER} at {REVISION})")
    write(hands, path)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a pokerkit git directory, or a folder of .phh files")
    args = parser.parse_args()
    path = pluribus(args.source)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
