"""Where a build's files go: a full build's staging folder (swapped in whole), or an
incremental build's changes to the live site (applied together through a journal)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path

from standgen import perf
from standgen.buildstate import EventPath, iter_files
from standgen.load.files import SLUG, read_regular
from standgen.output import apply_changes, link_same
from standgen.output.journal import Patch, patch_of


class StagingWriter:
    """Writes files into the staging folder, linking those unchanged in the old site."""

    def __init__(self, staging: Path, previous: Path | None, track: bool = False) -> None:
        self.staging = staging
        self.previous = previous
        self.track = track
        self.changed: list[str] = []  # with ``track``: the files written
        self.made: set[Path] = set()
        self.seen: set[str] = set()
        self.written = 0
        self.files = 0  # written or linked, here and (when added up) in the workers

    def write(self, files: Iterable[tuple[str, bytes]]) -> int:
        count = 0
        for rel, data in files:
            if rel in self.seen:
                raise ValueError(f"two outputs at {rel}")
            self.seen.add(rel)
            self.files += 1
            target = self.staging / rel
            if target.parent not in self.made:
                target.parent.mkdir(parents=True, exist_ok=True)
                self.made.add(target.parent)
            if target.exists():
                raise ValueError(f"two outputs at {rel}")
            if self.previous is not None and link_same(self.previous / rel, target, data):
                continue
            target.write_bytes(data)
            count += 1
            if self.track:
                self.changed.append(rel)
        self.written += count
        return count


class Changes:
    """The changes to the live site an incremental build makes: files whose bytes differ
    and files to remove, applied together at the end (:func:`standgen.output.apply_changes`);
    and files put right in place (:meth:`patch`: a few bytes of a page written over the
    old ones, not the whole page)."""

    def __init__(self, output: Path) -> None:
        self.output = output
        self.writes: dict[str, bytes] = {}
        self.removes: set[str] = set()
        self.patches: dict[str, tuple[Patch, bytes | None]] = {}
        self.committed: set[str] = set()  # files written or removed by earlier commits
        self.count = 0  # how many, over every commit

    def write(self, files: Iterable[tuple[str, bytes]]) -> set[str]:
        wrote: set[str] = set()
        for rel, data in files:
            if rel in wrote or rel in self.writes or rel in self.patches:
                raise ValueError(f"two outputs at {rel}")
            wrote.add(rel)
            target = self.output / rel
            try:
                if target.stat().st_size == len(data) and target.read_bytes() == data:
                    continue
            except OSError:
                pass
            self.writes[rel] = data
        return wrote

    def current(self, rel: str) -> bytes | None:
        """Return a file of the site as this build has it so far (written, or as it
        was), None when there is none."""
        if rel in self.writes:
            return self.writes[rel]
        if rel in self.removes:
            return None
        try:
            data = read_regular(self.output / rel)
        except OSError:
            return None
        if rel in self.patches:
            (offset, old, new), _page = self.patches[rel]
            data = data[:offset] + new + data[offset + len(old):]
        return data

    def head(self, rel: str, size: int) -> bytes | None:
        """Return the first ``size`` bytes of a file of the site as it was, None when it
        is not there or this build wrote, removed or put it right already."""
        if rel in self.writes or rel in self.removes or rel in self.patches:
            return None
        try:
            return read_regular(self.output / rel, size - 1)[:size]
        except OSError:
            return None

    def patch(self, rel: str, old: bytes, new: bytes) -> bool:
        """Put the first bytes of the site's file ``rel``, ``old`` (read by :meth:`head`),
        right as ``new`` in place when the changes are applied: the one short run of
        bytes where they differ (:func:`standgen.output.journal.patch_of`), not the
        whole file written again. Return False (nothing recorded: write the file whole)
        when they differ in length or more widely, or :func:`standgen.perf.in_place` is
        off."""
        if rel in self.writes or rel in self.removes or rel in self.patches:
            return False
        found = patch_of(old, new) if perf.in_place() else None
        if found is None:
            return old == new
        self.patches[rel] = (found, None)
        return True

    def replace_folder(self, path: EventPath, files: Iterable[tuple[str, bytes]],
                       written: Collection[str] = ()) -> None:
        """Write an event's files; remove the files of its folder it no longer has (nor
        ``written`` before, perhaps by an earlier commit of the same build)."""
        kept = self.write(files) | set(written)
        prefix = "/".join(path) + "/"
        for rel in iter_files(self.output.joinpath(*_safe(path))):
            if prefix + rel not in kept:
                self.removes.add(prefix + rel)

    def remove_folder(self, path: EventPath) -> None:
        prefix = "/".join(path) + "/"
        self.removes.update(prefix + rel for rel in iter_files(self.output.joinpath(*_safe(path))))

    def remove_file(self, rel: str) -> None:
        if (self.output / rel).is_file():
            self.removes.add(rel)

    def commit(self) -> int:
        """Apply the changes gathered since the last commit as one unit; return how many
        files they were. A build may commit in parts (``standgen watch`` serves an
        event's own pages before the pages above events are made)."""
        count = apply_changes(self.output, self.writes, self.removes, self.patches)
        self.committed |= self.writes.keys() | self.removes | self.patches.keys()
        self.count += count
        self.writes, self.removes, self.patches = {}, set(), {}
        return count

    def changed(self) -> tuple[str, ...]:
        """Return every file written or removed, committed or not, sorted."""
        return tuple(sorted(self.committed | self.writes.keys() | self.removes
                            | self.patches.keys()))


def _safe(path: EventPath) -> EventPath:
    if not path or not all(SLUG.match(part) for part in path):
        raise ValueError(f"not an event path: {path!r}")
    return path


