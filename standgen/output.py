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
from collections.abc import Iterable, Mapping
from pathlib import Path

from standgen import perf

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


def exchange_into(staging: Path, output: Path, background: bool = False) -> None:
    """Put the complete folder ``staging`` in place of ``output`` (same parent), atomically
    where the system can; ``staging`` is gone or holds the old site afterwards.

    The old site is removed before this returns, or with ``background`` (a large site)
    by a process of its own (:func:`remove_later`).
    """
    if output.exists() and not output.is_dir():
        raise FileExistsError(f"{output} exists and is not a folder")
    if output.exists() and _exchange(staging, output):
        _remove_old(staging, output, background)  # staging now holds the old site
        return
    if output.exists():
        old = output.parent / f".{output.name}.old-{os.getpid()}"
        os.replace(output, old)
        os.replace(staging, output)
        _remove_old(old, output, background)
    else:
        os.replace(staging, output)


def _remove_old(old: Path, output: Path, background: bool) -> None:
    if not background:
        shutil.rmtree(old)
        return
    gone = output.parent / f".{output.name}.gone-{os.getpid()}-{time.time_ns()}"
    os.replace(old, gone)
    remove_later(gone)


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


def apply_changes(output: Path, writes: Mapping[str, bytes], removes: Iterable[str]) -> int:
    """Change a few files of the live site in ``output`` as one unit; return how many.

    An incremental build changes a handful of pages in place, too few to rebuild and swap
    the whole folder. Every new page is first written next to the one it replaces, the
    list of changes is recorded in the journal (a hidden sibling of ``output``), then
    each page is renamed over its old version and the journal deleted. A page is always
    whole. Killed before the journal says "commit", the site is the old one (the next
    build removes the new files); killed after, the next build finishes the renames
    first (:func:`recover`), so the site becomes the new one.
    """
    removes = sorted(set(removes) - set(writes))
    if not writes and not removes:
        return 0
    journal = journal_file(output)
    entry = {"writes": sorted(writes), "removes": removes}
    write_atomic(journal, json.dumps({"state": "prepare", **entry}))
    for rel in sorted(writes):
        target = output / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.with_name(target.name + _NEW).write_bytes(writes[rel])
    write_atomic(journal, json.dumps({"state": "commit", **entry}))
    _finish(output, entry, commit=True)
    journal.unlink()
    return len(writes) + len(removes)


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
    if not commit:
        return
    for rel in entry["removes"]:
        if not _safe_rel(rel):
            continue
        target = output / rel
        if target.is_file():
            target.unlink()
        folder = target.parent
        while folder != output and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent


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
