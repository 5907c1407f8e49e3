"""Writing the site: into a temporary folder, then swapped in whole.

MkDocs' serve loop builds into a temporary directory and swaps; here the swap is one
atomic ``renameat2(RENAME_EXCHANGE)`` on Linux, so ``output/`` is always either the old
site or the new one, complete, even if the build is killed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from standgen import perf

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths; return False where the system cannot."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
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
        if reuse and previous is not None and _link_same(previous / rel, target, data):
            continue
        target.write_bytes(data)
        written += 1
    return written


def _link_same(old: Path, target: Path, data: bytes) -> bool:
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
    _clean_stale(parent, output.name)
    staging = parent / f".{output.name}.tmp-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staging.mkdir()
        written = write_tree(files, staging, output if output.is_dir() else None)
        if output.exists() and not output.is_dir():
            raise FileExistsError(f"{output} exists and is not a folder")
        if output.exists() and _exchange(staging, output):
            shutil.rmtree(staging)  # now holds the old site
            return written
        if output.exists():
            old = parent / f".{output.name}.old-{os.getpid()}"
            os.replace(output, old)
            os.replace(staging, output)
            shutil.rmtree(old)
        else:
            os.replace(staging, output)
        return written
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _clean_stale(parent: Path, name: str) -> None:
    """Remove staging folders left by a killed build."""
    for stale in parent.glob(f".{name}.tmp-*"):
        shutil.rmtree(stale, ignore_errors=True)
    for stale in parent.glob(f".{name}.old-*"):
        if (parent / name).exists():
            shutil.rmtree(stale, ignore_errors=True)
        else:
            os.replace(stale, parent / name)


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
