"""What the build state's key reads, kept between processes (:class:`KeyCache`)."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from standgen.buildstate import RACY_NS, hash_files, tree_hash

KEY_CACHE = "build-key.json"  # in the user's cache folder (:class:`KeyCache`)
_QUIET_LIMIT = 20_000  # files kept as quiet; more (many archives): only this build's


class KeyCache:
    """What the build state's key reads, kept in the user's cache folder between
    processes by the files' signatures (each file's size, inode, modification and change
    time: the rule of the event folders' signatures, :func:`folder_signature`, since a
    write moves a file's change time):

    - :meth:`tree_hash` of standgen's own trees (its code, help pages and templates):
      hashing them read 400 files, 0.03 CPU s of every build;
    - the ``event.toml`` files known not to mention ``lists_public`` (:meth:`quiet`):
      the key's army-list moments read only the others, not 1,000 files of an archive.

    A file changed within two seconds of the look is never kept (git's "racily clean"
    files). Either way the key is the same: a kept hash is the hash, and a kept quiet
    file is one whose text is the text read before. A cache that cannot be read or
    written is ignored; ``folder`` None (``STANDGEN_CACHE=off``) keeps nothing.
    """

    def __init__(self, path: Path | None, kept: Mapping[str, object] | None = None,
                 now_ns: int | None = None) -> None:
        self.path = path
        kept = kept or {}
        self._trees = _trees_of(kept.get("trees"))
        self._quiet = _quiet_of(kept.get("quiet"))
        self._seen: set[str] = set()
        self._changed = False
        try:
            self._here = os.getcwd()
        except OSError:  # the working folder was removed: paths are kept as given
            self._here = ""
        self._now = time.time_ns() if now_ns is None else now_ns

    @classmethod
    def open(cls, folder: Path | None) -> KeyCache:
        """Read what is kept in the cache ``folder`` (None: keep nothing)."""
        if folder is None:
            return cls(None)
        path = folder / KEY_CACHE
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            loaded = {}
        return cls(path, loaded if isinstance(loaded, dict) else {})

    def tree_hash(self, folder: Path, suffixes: tuple[str, ...] = ()) -> str:
        """Return :func:`tree_hash` of ``folder``, kept when its signature is."""
        if self.path is None or not folder.is_dir():
            return tree_hash(folder, suffixes)
        files = [f for f in _tree_files(str(folder), ())
                 if not suffixes or os.path.splitext(f[0][-1])[1] in suffixes]
        name = f"{folder.resolve()}\0{' '.join(suffixes)}"
        signature = self._tree_signature(files)
        if signature and self._trees.get(name, [""])[0] == signature:
            return self._trees[name][1]
        digest = hashlib.sha256()
        hash_files([Path(where) for _, where, _ in files], folder, digest)
        found = digest.hexdigest()
        if signature:
            self._trees[name] = [signature, found]
            self._changed = True
        return found

    def _tree_signature(self, files: Sequence[tuple[tuple[str, ...], str, os.stat_result]]
                        ) -> str:
        digest = hashlib.sha256()
        for parts, _, st in files:
            sign = self._file_signature(st)
            if not sign:
                return ""
            digest.update(f"{'/'.join(parts)}\0{sign}\0".encode())
        return digest.hexdigest()

    def _file_signature(self, st: os.stat_result) -> str:
        if max(st.st_mtime_ns, st.st_ctime_ns) > self._now - RACY_NS:
            return ""
        return f"{st.st_size}:{st.st_ino}:{st.st_dev}:{st.st_mtime_ns}:{st.st_ctime_ns}"

    def quiet(self, path: str, st: os.stat_result | None) -> bool:
        """Return whether the file ``path`` (``st``: its stat a moment ago) is known not
        to mention the words looked for: its text was read, without them, and it has not
        been written since."""
        if self.path is None or st is None:
            return False
        where = self._absolute(path)
        sign = self._file_signature(st)
        if sign and self._quiet.get(where) == sign:
            self._seen.add(where)
            return True
        return False

    def heard(self, path: str, st: os.stat_result | None, mentions: bool) -> None:
        """Keep what reading ``path`` (``st``: its stat before it was read) found."""
        if self.path is None or st is None:
            return
        where = self._absolute(path)
        sign = self._file_signature(st)
        if mentions or not sign:
            self._changed |= self._quiet.pop(where, None) is not None
            return
        self._seen.add(where)
        if self._quiet.get(where) != sign:
            self._quiet[where] = sign
            self._changed = True

    def _absolute(self, path: str) -> str:
        return path if os.path.isabs(path) or not self._here else os.path.join(self._here, path)

    def save(self) -> None:
        """Write what is kept, atomically, when something new was learned."""
        if self.path is None or not self._changed:
            return
        if len(self._quiet) > _QUIET_LIMIT:
            self._quiet = {k: v for k, v in self._quiet.items() if k in self._seen}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            partial = self.path.with_name(f".{self.path.name}.{os.getpid()}")
            partial.write_text(json.dumps({"trees": self._trees, "quiet": self._quiet},
                                          sort_keys=True), encoding="utf-8")
            os.replace(partial, self.path)
            self._changed = False
        except OSError:
            pass  # a read-only home: the next build reads them again


def _trees_of(found: object) -> dict[str, list[str]]:
    """Return the kept tree hashes read (name: [signature, hash]), the well-formed ones."""
    if not isinstance(found, dict):
        return {}
    return {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, list)
            and len(v) == 2 and all(isinstance(x, str) for x in v)}


def _quiet_of(found: object) -> dict[str, str]:
    """Return the kept quiet files read (path: signature), the well-formed ones."""
    if not isinstance(found, dict):
        return {}
    return {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, str)}


def _tree_files(folder: str, parts: tuple[str, ...]
                ) -> list[tuple[tuple[str, ...], str, os.stat_result]]:
    """Return (parts below the tree, path, stat) of every file below ``folder`` in the
    order :func:`tree_hash` hashes them: as ``rglob("*")`` finds them (symbolic links to
    folders not followed, ``__pycache__`` left out), sorted as paths sort."""
    found: list[tuple[tuple[str, ...], str, os.stat_result]] = []
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except OSError:
        return found
    for entry in entries:
        below = (*parts, entry.name)
        try:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    found.extend(_tree_files(entry.path, below))
            elif entry.is_file():
                found.append((below, entry.path, entry.stat()))
        except OSError:
            continue
    found.sort(key=lambda f: f[0])
    return found
