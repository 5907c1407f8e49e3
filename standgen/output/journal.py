"""Changing a few files of the live site as one unit, through a journal beside it: a
page is always whole, and a build killed half-way is finished or undone by the next."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path

from standgen.output.place import write_atomic


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


