"""Writing the site: into a temporary folder, then swapped in whole.

MkDocs' serve loop builds into a temporary directory and swaps; here the swap is one
atomic ``renameat2(RENAME_EXCHANGE)`` on Linux, so ``output/`` is always either the old
site or the new one, complete, even if the build is killed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from standgen import perf
from standgen.errors import InputError, Problem

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths; return False where the system cannot."""
    import ctypes  # only here: most runs never swap a site

    try:
        libc = ctypes.CDLL(None, use_errno=True)  # the C library the interpreter uses
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return bool(result == 0)


def write_tree(files: Mapping[str, bytes], folder: Path, previous: Path | None = None) -> int:
    """Write every file (relative POSIX path -> bytes) below ``folder``; return how many
    were written.

    With ``previous`` (the site being replaced), a file whose bytes are unchanged there is
    hard-linked instead of written: the swap stays atomic, and an unchanged page keeps
    its file (and modification time), so a rebuild rewrites only the pages it touches.
    """
    made: set[Path] = set()
    written = 0
    reuse = previous is not None and previous.is_dir() and perf.enabled()
    for rel in sorted(files):
        target = folder / rel
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        data = files[rel]
        if reuse and previous is not None and link_same(previous / rel, target, data):
            continue
        target.write_bytes(data)
        written += 1
    return written


def link_same(old: Path, target: Path, data: bytes) -> bool:
    """Hard-link ``old`` to ``target`` when it holds exactly ``data``; return whether it did."""
    try:
        if old.stat().st_size != len(data) or old.read_bytes() != data:
            return False
        os.link(old, target)
    except OSError:
        return False
    return True


def publish(files: Mapping[str, bytes], output: Path) -> int:
    """Replace ``output`` with exactly ``files``; on any failure the old site stays.

    Return how many files were written (unchanged files are linked from the old site).
    """
    output = output.absolute()
    parent = output.parent
    parent.mkdir(parents=True, exist_ok=True)
    clean_stale(parent, output.name)
    staging = parent / f".{output.name}.tmp-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staging.mkdir()
        written = write_tree(files, staging, output if output.is_dir() else None)
        exchange_into(staging, output)
        return written
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def exchange_into(staging: Path, output: Path, background: bool = False) -> bool:
    """Put the complete folder ``staging`` in place of ``output`` (same parent), atomically
    where the system can; ``staging`` is gone or holds the old site afterwards.

    The old site is removed before this returns, or with ``background`` (a large site)
    by a process of its own (:func:`remove_later`). Return False when the new site is
    live but the old one could not be removed (a warning, not a failure: the next build
    removes what is left). Any failure before the swap leaves ``output`` as it was.
    """
    if output.exists() and not output.is_dir():
        raise FileExistsError(f"{output} exists and is not a folder")
    if output.exists() and _exchange(staging, output):
        return _remove_old(staging, output, background)  # staging now holds the old site
    if output.exists():
        old = output.parent / f".{output.name}.old-{os.getpid()}"
        os.replace(output, old)
        try:
            os.replace(staging, output)
        except OSError:
            os.replace(old, output)  # put the old site back (after a kill: clean_stale)
            raise
        return _remove_old(old, output, background)
    os.replace(staging, output)
    return True


def _remove_old(old: Path, output: Path, background: bool) -> bool:
    """Remove the replaced site ``old``; return False (the new site is live all the same)
    when it could not be removed: the next build's :func:`clean_stale` tries again."""
    try:
        if not background:
            shutil.rmtree(old)
            return True
        gone = output.parent / f".{output.name}.gone-{os.getpid()}-{time.time_ns()}"
        os.replace(old, gone)
        remove_later(gone)
    except OSError:
        return False
    return True


def remove_later(folder: Path) -> None:
    """Remove ``folder`` in a background process, so the build returns without waiting.

    Deleting the old site of a large archive (170,000 files) takes a build 15 s on an
    ext4 disk, and nothing after the swap needs it gone: the folder is renamed out of
    the way (``.<output>.gone-*``, never the live site) and ``rm -rf`` runs detached
    (its own session: closing the terminal does not stop it; ``sh`` starts it and
    exits at once, so no process is left for this one to reap). A build that finds a
    ``.gone-*`` folder (the removal was killed) starts its removal again. Where there is
    no POSIX shell, or starting it fails, the folder is removed here and now.
    """
    if os.name == "posix":
        try:
            subprocess.run(
                ["sh", "-c", 'rm -rf -- "$1" </dev/null >/dev/null 2>&1 &', "sh", str(folder)],
                check=True, start_new_session=True, stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30,
            )
            return
        except (OSError, subprocess.SubprocessError):
            pass
    shutil.rmtree(folder, ignore_errors=True)


def clean_stale(parent: Path, name: str) -> None:
    """Remove staging folders left by a killed build (or put back a site a killed build
    had moved aside); an old site left by a removal that was killed gets a new one (one
    still under way meanwhile is harmless: both ``rm -rf`` skip what the other took)."""
    for stale in parent.glob(f".{name}.tmp-*"):
        shutil.rmtree(stale, ignore_errors=True)
    # write_atomic's temporaries of the journal and the state (``..output.standgen-*``)
    for stale in parent.glob(f"..{name}.standgen-*.tmp-*"):
        stale.unlink(missing_ok=True)
    for gone in parent.glob(f".{name}.gone-*"):
        remove_later(gone)
    for stale in parent.glob(f".{name}.old-*"):
        if (parent / name).exists():
            shutil.rmtree(stale, ignore_errors=True)
        else:
            os.replace(stale, parent / name)


def journal_file(output: Path) -> Path:
    """Return the journal of changes to the live site in ``output`` (a hidden sibling)."""
    output = output.absolute()
    return output.parent / f".{output.name}.standgen-journal"


_NEW = ".standgen-new"  # suffix of a changed file written next to the page it replaces
_OLD = ".standgen-old"  # suffix of a replaced or removed page kept until the change is done


def apply_changes(output: Path, writes: Mapping[str, bytes], removes: Iterable[str]) -> int:
    """Change a few files of the live site in ``output`` as one unit; return how many.

    An incremental build changes a handful of pages in place, too few to rebuild and swap
    the whole folder. Every new page is first written next to the one it replaces, the
    list of changes is recorded in the journal (a hidden sibling of ``output``), then
    each old page is kept aside (a hard link ``<page>.standgen-old``), the new one is
    renamed over it, and at the end the kept pages and the journal are deleted. A page is
    always whole. Any error (a full disk, a read-only folder) undoes what was done, so
    the folder is exactly the old site again, with nothing extra in it, and the error is
    raised. Killed before the journal says "commit", the site is the old one (the next
    build removes the new files); killed after, the next build finishes the renames
    first (:func:`recover`), so the site becomes the new one.
    """
    removes = sorted(set(removes) - set(writes))
    if not writes and not removes:
        return 0
    journal = journal_file(output)
    entry = {"writes": sorted(writes), "removes": removes}
    try:
        write_atomic(journal, json.dumps({"state": "prepare", **entry}))
        for rel in sorted(writes):
            target = output / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.with_name(target.name + _NEW).write_bytes(writes[rel])
        write_atomic(journal, json.dumps({"state": "commit", **entry}))
    except BaseException:
        _undo_or_leave(output, entry, [], journal)
        raise
    done: list[tuple[str, bool]] = []  # (page, whether an old version was kept aside)
    try:
        for rel in entry["writes"]:
            target = output / rel
            done.append((rel, _keep_aside(target, link=True)))
            os.replace(target.with_name(target.name + _NEW), target)
        for rel in entry["removes"]:
            target = output / rel
            done.append((rel, _keep_aside(target, link=False)))
    except BaseException:
        _undo_or_leave(output, entry, done, journal)
        raise
    try:
        _finish(output, entry, commit=True)
        journal.unlink(missing_ok=True)
    except OSError:
        pass  # the new site is live; the next build's recover() deletes what is left
    return len(writes) + len(removes)


def _keep_aside(target: Path, link: bool) -> bool:
    """Keep the page ``target`` as ``<page>.standgen-old`` (a hard link where ``link``,
    so the live page stays in place until it is replaced; else moved out of the site);
    return whether there was one."""
    old = target.with_name(target.name + _OLD)
    if target.is_dir():  # a folder where a page goes: moved aside whole
        os.replace(target, old)
        return True
    if not target.exists():
        return False
    if link:
        old.unlink(missing_ok=True)
        try:
            os.link(target, old)
        except OSError:  # no hard links here: a copy does
            shutil.copy2(target, old)
    else:
        os.replace(target, old)
    return True


def _undo_or_leave(output: Path, entry: Mapping[str, list[str]], done: list[tuple[str, bool]],
                   journal: Path) -> None:
    """Undo a change that failed; if even that fails, the journal stays for the next
    build's :func:`recover`."""
    try:
        _undo(output, entry, done)
        journal.unlink(missing_ok=True)
    except OSError:
        pass


def _undo(output: Path, entry: Mapping[str, list[str]], done: list[tuple[str, bool]]) -> None:
    """Put back what :func:`apply_changes` did so far: the old pages in place, no new
    file, no folder it made."""
    for rel, kept in reversed(done):
        target = output / rel
        old = target.with_name(target.name + _OLD)
        if kept:
            if old.is_dir() and not target.is_dir():
                target.unlink(missing_ok=True)  # the new page that took a folder's place
            os.replace(old, target)
        elif rel in entry["writes"]:
            target.unlink(missing_ok=True)
    for rel in [*entry["writes"], *entry["removes"]]:
        if _safe_rel(rel):
            target = output / rel
            target.with_name(target.name + _NEW).unlink(missing_ok=True)
            _drop(target.with_name(target.name + _OLD))  # a link or copy left half-made
            _prune(output, target.parent)


def _prune(output: Path, folder: Path) -> None:
    """Remove ``folder`` and its parents below ``output`` while they are empty."""
    while folder != output and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def recover(output: Path) -> None:
    """Finish (or undo) the changes of an incremental build that was killed: what every
    build does first."""
    journal = journal_file(output)
    try:
        entry = json.loads(journal.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        journal.unlink(missing_ok=True)
        return
    _finish(output.absolute(), entry, commit=entry.get("state") == "commit")
    journal.unlink(missing_ok=True)


def _finish(output: Path, entry: Mapping[str, list[str]], commit: bool) -> None:
    """Complete the journal's changes (``commit``) or drop its new files; either way
    delete the pages kept aside."""
    for rel in entry["writes"]:
        if not _safe_rel(rel):
            continue
        target = output / rel
        new = target.with_name(target.name + _NEW)
        if commit and new.exists():
            if target.is_dir():
                shutil.rmtree(target)
            os.replace(new, target)
        elif not commit:
            new.unlink(missing_ok=True)
            _prune(output, target.parent)
        _drop(target.with_name(target.name + _OLD))
    if not commit:
        return
    for rel in entry["removes"]:
        if not _safe_rel(rel):
            continue
        target = output / rel
        if target.is_file():
            target.unlink()
        _drop(target.with_name(target.name + _OLD))
        _prune(output, target.parent)


def _drop(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _safe_rel(rel: str) -> bool:
    """Return whether a journal path stays inside the site (no ``..``, not absolute)."""
    parts = rel.split("/")
    return bool(rel) and not rel.startswith("/") and ".." not in parts and "" not in parts


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
