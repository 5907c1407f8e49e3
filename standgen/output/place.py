"""Where a site may go (never over the events, the help pages, templates or a
repository), one writer at a time, and files written whole."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from standgen.errors import InputError, Problem


def write_atomic(path: Path, text: str) -> None:
    """Write a text file so that it is either the old content or the new, never half."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


# ----- where a site may go, and one writer at a time --------------------------------------

def place_problems(output: Path, keep: Sequence[Path]) -> list[Problem]:
    """Return why ``output`` may not be replaced by a site (an empty list when it may).

    The site folder is replaced whole, so it must not be, contain or lie inside any
    folder of ``keep`` (the events folder, help pages, templates) or a repository's
    ``.git``; it must be a folder (or not exist yet); and a folder that is not empty must
    hold a site already (its ``index.html`` or the build state of an earlier build), so
    that ``-o ~/Documents`` is refused instead of deleted. Issue #15 item 1.
    """
    where = output.as_posix()
    out = output.resolve()
    guarded = [(p.as_posix(), p.resolve()) for p in keep]
    for folder in [*keep, Path.cwd()]:
        git = _repository_git(folder.resolve())
        if git is not None:
            guarded.append((git.as_posix(), git))
    if ".git" in out.parts:
        return [Problem(where, 1, "is inside a repository's .git folder; choose another "
                        "folder for the site with -o")]
    for name, folder in guarded:
        if out == folder or folder.is_relative_to(out) or out.is_relative_to(folder):
            how = ("is" if out == folder else "holds" if folder.is_relative_to(out)
                   else "is inside")
            return [Problem(where, 1, f"{how} {name}, which the site would replace; "
                            "choose another folder for the site with -o (e.g. output)")]
    if output.exists() and not output.is_dir():
        return [Problem(where, 1, "is a file, not a folder; name a folder for the site with "
                        "-o (it is replaced whole)")]
    if (output.is_dir() and not (output / "index.html").is_file()
            and not _state_of(output).is_file() and any(output.iterdir())):
        return [Problem(where, 1, "is not empty and holds no site; choose a new or empty "
                        "folder with -o (its content would be replaced)")]
    return []


def _state_of(output: Path) -> Path:
    output = output.absolute()
    return output.parent / f".{output.name}.standgen-state.sqlite"


def _repository_git(folder: Path) -> Path | None:
    """Return the ``.git`` of the repository holding ``folder``, if any."""
    for parent in (folder, *folder.parents):
        if (parent / ".git").exists():
            return parent / ".git"
    return None


def lock_file(output: Path) -> Path:
    """Return the lock file of an output folder: a hidden sibling, like the build state."""
    output = output.absolute()
    return output.parent / f".{output.name}.standgen-lock"


@contextmanager
def writing(output: Path) -> Iterator[None]:
    """Hold the one-writer lock of ``output`` while the block runs; raise InputError
    naming the other process when a build or ``standgen watch`` already writes it.

    The lock is the operating system's (``flock``) on a hidden sibling file that holds
    the writer's pid: it is released when its process ends however it ends, so the lock
    of a killed build is taken over by the next one without a stale-lock guess. The file
    is deleted when the lock is released (a lock taken on a file deleted meanwhile is
    dropped and taken again on the new one). Issue #15 item 2.
    """
    path = lock_file(output)
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        handle = open(path, "a+", encoding="utf-8")  # held for the block
        if not _try_lock(handle):
            handle.seek(0)
            pid = handle.read().strip() or "unknown"
            handle.close()
            raise InputError([Problem(output.as_posix(), 1, f"another build is writing "
                                      f"{output.as_posix()} (pid {pid}); wait for it to "
                                      "finish, or stop it (standgen watch writes its folder "
                                      "until it stops), then run this again")])
        try:
            same = os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        handle.close()  # its holder deleted it as we opened it: lock the new one
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        yield
    finally:
        path.unlink(missing_ok=True)  # while still held: no one locks a deleted file
        handle.close()  # closing the file releases the lock


def _try_lock(handle: IO[str]) -> bool:
    """Take an exclusive lock on an open file without waiting; return whether it did."""
    fileno = handle.fileno()
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fileno, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fileno, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
