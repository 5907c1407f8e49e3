"""Changing a few files of the live site as one unit, through a journal beside it: a
page is always whole, and a build killed half-way is finished or undone by the next.

A change may also put a few bytes right inside a page, in place (a :data:`Patch`: the
page's place in a rating list, which moves for hundreds of pages after a round): the
bytes are written over the page's old ones, of the same length, instead of the whole
page written next to it and renamed over it. The journal holds the old and the new
bytes, so a killed build's change is finished (or undone) as any other.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from standgen.output.place import write_atomic


def journal_file(output: Path) -> Path:
    """Return the journal of changes to the live site in ``output`` (a hidden sibling)."""
    output = output.absolute()
    return output.parent / f".{output.name}.standgen-journal"


_NEW = ".standgen-new"  # suffix of a changed file written next to the page it replaces
_OLD = ".standgen-old"  # suffix of a replaced or removed page kept until the change is done

# bytes of a page put right in place: (offset, the old bytes there, the new ones, as long)
Patch = tuple[int, bytes, bytes]

_CHUNK = 512  # :func:`patch_of` looks for the differences in steps of this many bytes
# a patch goes in place only within one block of this many bytes: the system copies it
# into the page's cached block in one step, so a reader sees the old bytes or the new
_PAGE = 4096


def patch_of(old: bytes, new: bytes) -> Patch | None:
    """Return the patch that turns the page ``old`` into ``new``: the one short run of
    bytes where they differ, when they are as long and differ within ``2 * _CHUNK``
    bytes (a page whose place in a rating list alone moved); else None."""
    if len(old) != len(new) or old == new:
        return None
    start = 0
    while old[start:start + _CHUNK] == new[start:start + _CHUNK]:
        start += _CHUNK
    stop = start + 2 * _CHUNK
    if not new.endswith(old[stop:]):  # (a copy of one side's rest, not of both)
        return None
    was, now = old[start:stop], new[start:stop]
    diff = int.from_bytes(was, "big") ^ int.from_bytes(now, "big")
    first = len(was) - 1 - (diff.bit_length() - 1) // 8  # the bytes' order: big-endian
    last = len(was) - 1 - ((diff & -diff).bit_length() - 1) // 8
    return start + first, was[first:last + 1], now[first:last + 1]


def apply_changes(output: Path, writes: Mapping[str, bytes], removes: Iterable[str],
                  patches: Mapping[str, tuple[Patch, bytes | None]] | None = None) -> int:
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

    ``patches``: pages put right in place (:data:`Patch`, :func:`patch_of`), after the
    renames; each with its whole new page when known. A page that has another hard link
    (a backup made with links would change with it), or whose patch straddles two 4 KiB
    blocks, is written whole instead (as ``writes``: the page given, or the page as it
    is with the patch applied). One that does not hold the old bytes where its patch
    says (changed by someone else since the build read it) is an error: nothing changes.
    """
    writes, in_place = _patched_or_whole(output, writes, patches or {})
    removes = sorted(set(removes) - set(writes) - set(in_place))
    if not writes and not removes and not in_place:
        return 0
    journal = journal_file(output)
    entry = {"writes": sorted(writes), "removes": removes}
    rows = {"patches": [[rel, offset, old.hex(), new.hex()]
                        for rel, (offset, old, new) in sorted(in_place.items())]}
    try:
        write_atomic(journal, json.dumps({"state": "prepare", **entry, **rows}))
        for rel in sorted(writes):
            target = output / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.with_name(target.name + _NEW).write_bytes(writes[rel])
        write_atomic(journal, json.dumps({"state": "commit", **entry, **rows}))
    except BaseException:
        _undo_or_leave(output, entry, [], journal)
        raise
    done: list[tuple[str, bool]] = []  # (page, whether an old version was kept aside)
    patched: list[str] = []  # pages put right in place so far
    try:
        for rel in entry["writes"]:
            target = output / rel
            done.append((rel, _keep_aside(target, link=True)))
            os.replace(target.with_name(target.name + _NEW), target)
        for rel in entry["removes"]:
            target = output / rel
            done.append((rel, _keep_aside(target, link=False)))
        for rel in sorted(in_place):
            offset, _old, new = in_place[rel]
            patched.append(rel)
            _put(output / rel, offset, new)
    except BaseException:
        if _unpatch(output, in_place, patched):  # else the journal stays: recover() finishes
            _undo_or_leave(output, entry, done, journal)
        raise
    try:
        _finish(output, entry, commit=True)
        journal.unlink(missing_ok=True)
    except OSError:
        pass  # the new site is live; the next build's recover() deletes what is left
    return len(writes) + len(removes) + len(in_place)


def _unpatch(output: Path, patches: Mapping[str, Patch], patched: Sequence[str]) -> bool:
    """Put back the old bytes of the pages ``patched``; return whether it could."""
    try:
        for rel in reversed(patched):
            offset, old, _new = patches[rel]
            _put(output / rel, offset, old)
    except OSError:
        return False
    return True


def _patched_or_whole(output: Path, writes: Mapping[str, bytes],
                      patches: Mapping[str, tuple[Patch, bytes | None]]
                      ) -> tuple[Mapping[str, bytes], dict[str, Patch]]:
    """Return the writes and the patches to apply: each patch whose page holds its old
    bytes where it says, of the same length as the new, within one block, and is the
    page's only link; the others' whole pages join the writes."""
    if not patches:
        return writes, {}
    whole = dict(writes)
    kept: dict[str, Patch] = {}
    for rel, ((offset, old, new), page) in patches.items():
        if rel in whole:
            raise ValueError(f"two outputs at {rel}")
        target = output / rel
        if (len(old) == len(new) and offset // _PAGE == (offset + len(new) - 1) // _PAGE
                and _holds(target, offset, old)):
            kept[rel] = (offset, old, new)
            continue
        if page is None:
            data = target.read_bytes()
            if data[offset:offset + len(old)] != old:
                raise ValueError(f"{rel} changed while the site was being built")
            page = data[:offset] + new + data[offset + len(old):]
        whole[rel] = page
    return whole, kept


def _holds(target: Path, offset: int, old: bytes) -> bool:
    """Return whether ``target`` is a regular file, its only link, with ``old`` at
    ``offset``."""
    try:
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        found = os.fstat(fd)
        return (stat.S_ISREG(found.st_mode) and found.st_nlink == 1
                and os.pread(fd, len(old), offset) == old)
    finally:
        os.close(fd)


def _put(target: Path, offset: int, data: bytes) -> None:
    """Write ``data`` over a page's bytes at ``offset`` (the page keeps its length)."""
    fd = os.open(target, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        if os.pwrite(fd, data, offset) != len(data):
            raise OSError(f"{target}: a short write")
    finally:
        os.close(fd)


def _apply_patches(output: Path, patches: Sequence[Sequence[object]]) -> None:
    """Put the journal's patches right again (a killed build's, after its commit): the
    new bytes over the old or over themselves, the same either way."""
    for rel, offset, _old, new in patches:
        if isinstance(rel, str) and _safe_rel(rel) and isinstance(offset, int):
            target = output / rel
            if target.is_file():
                _put(target, offset, bytes.fromhex(str(new)))


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
    commit = entry.get("state") == "commit"
    _finish(output.absolute(), entry, commit=commit)
    if commit:
        _apply_patches(output.absolute(), entry.get("patches", []))
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


