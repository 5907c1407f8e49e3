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
    and files to remove, applied together at the end (:func:`standgen.output.apply_changes`).

    A file this build read as it was (:meth:`current`: a rating page whose place in the
    list alone moved, put right from the page the last build wrote) and writes again
    with a few bytes changed, as long as before, is put right in place: those bytes
    written over the old ones (:func:`standgen.output.journal.patch_of`), not the whole
    page next to it and renamed (off under :func:`standgen.perf.whole_pages`)."""

    def __init__(self, output: Path) -> None:
        self.output = output
        self.writes: dict[str, bytes] = {}
        self.removes: set[str] = set()
        self.patches: dict[str, tuple[Patch, bytes]] = {}  # with the whole new page
        self.read: dict[str, bytes] = {}  # files :meth:`current` read from the site
        self.committed: set[str] = set()  # files written or removed by earlier commits
        self.count = 0  # how many, over every commit

    def write(self, files: Iterable[tuple[str, bytes]]) -> set[str]:
        wrote: set[str] = set()
        for rel, data in files:
            if rel in wrote or rel in self.writes or rel in self.patches:
                raise ValueError(f"two outputs at {rel}")
            wrote.add(rel)
            old = self.read.pop(rel, None)
            if old is not None:  # read by this build: no need to read it again
                patch = patch_of(old, data) if perf.in_place() else None
                if patch is not None:
                    self.patches[rel] = (patch, data)
                elif old != data:
                    self.writes[rel] = data
                continue
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
        if rel in self.patches:
            return self.patches[rel][1]
        if rel in self.removes:
            return None
        try:
            data = read_regular(self.output / rel)
        except OSError:
            return None
        self.read[rel] = data
        return data

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
        self.writes, self.removes, self.patches, self.read = {}, set(), {}, {}
        return count

    def changed(self) -> tuple[str, ...]:
        """Return every file written or removed, committed or not, sorted."""
        return tuple(sorted(self.committed | self.writes.keys() | self.removes
                            | self.patches.keys()))


def _safe(path: EventPath) -> EventPath:
    if not path or not all(SLUG.match(part) for part in path):
        raise ValueError(f"not an event path: {path!r}")
    return path


