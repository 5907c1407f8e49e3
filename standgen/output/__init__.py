"""Writing the site: into a temporary folder, then swapped in whole.

MkDocs' serve loop builds into a temporary directory and swaps; here the swap is one
atomic ``renameat2(RENAME_EXCHANGE)`` on Linux, so ``output/`` is always either the old
site or the new one, complete, even if the build is killed. An incremental build changes a
few files of the live site through a journal (:mod:`standgen.output.journal`); where a
site may go and the one-writer lock are :mod:`standgen.output.place`.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from standgen import perf
from standgen.output.journal import apply_changes, journal_file, recover
from standgen.output.place import lock_file, place_problems, write_atomic, writing

__all__ = [
    "apply_changes", "clean_stale", "exchange_into", "journal_file", "link_same", "lock_file",
    "place_problems", "publish", "recover", "remove_later", "write_atomic", "write_tree",
    "writing",
]

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


