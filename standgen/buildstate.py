"""The build state: what the last build of an output folder knew, so the next one can skip
what did not change (Lektor's idea: content hashes, not modification times).

It lives in one SQLite file next to the output folder (``.output.standgen-state.sqlite``
for ``output/``), never inside it, so it is never published. It holds, for each event,
the hash of every file in its folder, its problems (warnings), its summary (what the pages
above events read) and each player's line (what history pages read); for the club's
pages, each event's summary and ratings, and per scope the folds over every event but
the newest (:class:`standgen.clubs.folds.Folded`). A key over
everything else a page depends on (standgen's own code, templates, help pages, seasons,
``site.toml``, ``SOURCE_DATE_EPOCH``) guards it: when that key changes, or the output
folder is not the one the state describes, the next build is a full one.

Losing the file is harmless: the next build is a full build and writes it again.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from standgen.clubs.folds import Folded
from standgen.clubs.summary import (
    ClubEvent,
    ClubKept,
    EventRatings,
    RatingScope,
    Seat,
    SeatDigest,
)
from standgen.errors import Problem
from standgen.load.files import read_regular
from standgen.load.inputs import Entry, event_entries, event_files
from standgen.site.summary import EventSummary, PlayerLine

VERSION = "2"  # 2: the club pages' summaries and ratings per scope and format (issue #33)
EventPath = tuple[str, ...]


def state_file(output: Path) -> Path:
    """Return the state file of an output folder: a hidden sibling of it."""
    output = output.absolute()
    return output.parent / f".{output.name}.standgen-state.sqlite"


def clean_new(output: Path) -> None:
    """Remove new state files a killed full build left (:meth:`BuildState.replace`)."""
    path = state_file(output)
    for left in path.parent.glob(f"{path.name}.new-*"):
        left.unlink(missing_ok=True)


def hash_files(paths: Iterable[Path], base: Path, digest: hashlib._Hash) -> None:
    """Add each file's path (relative to ``base``) and content to ``digest``; a file that
    is not a regular one (a FIFO swapped in) is never read, it counts as unreadable."""
    for path in paths:
        digest.update(path.relative_to(base).as_posix().encode() + b"\0")
        try:
            digest.update(hashlib.sha256(read_regular(path)).digest())
        except OSError:
            digest.update(b"unreadable")


def _entry_key(entry: Entry) -> str:
    """Return what names an entry of an event folder: its path below the folder, its kind
    and, for a symbolic link, where it leads (a link retargeted outside changes a build)."""
    target = ""
    if entry.link:
        try:
            target = os.readlink(entry.where)
        except OSError:
            target = "?"
    return f"{entry.rel}\0{entry.kind}\0{target}\0"


def folder_fingerprint(folder: Path) -> str:
    """Return a hash of an event folder's files: the names and kinds of every entry the
    loader looks at, and the contents of its input files.

    The entries are :func:`~standgen.load.inputs.event_files`' (the one definition of an
    event's files that ``check``, ``build`` and ``watch`` share): litter is left out, as
    the loader skips it; an unexpected file counts by its name, as the loader reports it;
    a pipe or device is never opened (reading a FIFO blocks for ever).
    """
    digest = hashlib.sha256()
    files = event_files(folder)
    for entry in files.entries:
        digest.update(_entry_key(entry).encode())
        if entry.where in files.reads:
            try:
                digest.update(hashlib.sha256(read_regular(entry.where)).digest())
            except OSError:
                digest.update(b"unreadable")
    return digest.hexdigest()


RACY_NS = 2_000_000_000  # a file changed this close to the look is hashed next time too


def folder_signature(folder: Path, now_ns: int, listed: Sequence[Entry] | None = None) -> str:
    """Return a hash of the name, kind, size, inode and times of every entry of an event
    folder that :func:`folder_fingerprint` covers, or "" when one changed less than two
    seconds before ``now_ns``.

    When the signature equals the last build's, no file was written, replaced, added or
    removed since (a write changes a file's ctime, which no tool can set back), so the
    stored content fingerprint still holds and the files need not be read: 7,000 files
    of a 1,000-event archive are hashed in a third of a second, stat'ed in a twentieth.
    A file written within two seconds of the look might change again within the same
    timestamp tick (git's "racily clean" files): its folder gets no signature, so the
    next build hashes it. ``listed``: the folder's own entries, listed a moment ago (by
    the walk that found it; :func:`~standgen.load.inputs.event_entries`).
    """
    digest = hashlib.sha256()
    for entry in event_entries(folder, listed).entries():
        st = entry.st
        if st is None:
            digest.update(_entry_key(entry).encode())
            continue
        if max(st.st_mtime_ns, st.st_ctime_ns) > now_ns - RACY_NS:
            return ""
        digest.update(f"{_entry_key(entry)}{st.st_size}:{st.st_ino}:{st.st_dev}:"
                      f"{st.st_mtime_ns}:{st.st_ctime_ns}\0".encode())
    return digest.hexdigest()


def tree_hash(folder: Path, suffixes: tuple[str, ...] = ()) -> str:
    """Return a hash of every file below ``folder`` (with one of ``suffixes``, if given)."""
    digest = hashlib.sha256()
    if folder.is_dir():
        found = sorted(p for p in folder.rglob("*") if p.is_file()
                       and (not suffixes or p.suffix in suffixes)
                       and "__pycache__" not in p.parts)
        hash_files(found, folder, digest)
    return digest.hexdigest()


def output_identity(output: Path) -> str:
    """Return what identifies the site in ``output``: its folder's inode and its home page.

    A folder replaced, emptied or rebuilt by someone else no longer matches the state.
    """
    try:
        inode = output.stat().st_ino
        home = hashlib.sha256((output / "index.html").read_bytes()).hexdigest()
    except OSError:
        return ""
    return f"{inode}:{home}"


@dataclass(frozen=True)
class Stored:
    """An event as the state holds it."""

    fingerprint: str
    head: EventSummary  # the summary without players, ranking or factions
    warnings: tuple[Problem, ...]


class BuildState:
    """The state file, open. Use :meth:`open`; writes happen in :meth:`save`, one
    transaction, after the site is written."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self.db = connection

    @classmethod
    def open(cls, path: Path) -> BuildState:
        """Open (or create) the state file; a corrupt or foreign file is started afresh."""
        try:
            return cls._open(path)
        except (sqlite3.DatabaseError, OSError):
            path.unlink(missing_ok=True)
            return cls._open(path)

    @classmethod
    def _open(cls, path: Path, journal: str = "DELETE") -> BuildState:
        db = sqlite3.connect(path, isolation_level=None)
        db.executescript(
            f"PRAGMA journal_mode={journal};"
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);"
            "CREATE TABLE IF NOT EXISTS events (path TEXT PRIMARY KEY, fingerprint TEXT,"
            " head BLOB, season BLOB, warnings BLOB);"
            "CREATE TABLE IF NOT EXISTS lines (pid TEXT, path TEXT, line BLOB,"
            " PRIMARY KEY (pid, path));"
            "CREATE INDEX IF NOT EXISTS lines_by_path ON lines (path);"
            "CREATE TABLE IF NOT EXISTS signatures (path TEXT PRIMARY KEY, signature TEXT);"
            "CREATE TABLE IF NOT EXISTS games (path TEXT PRIMARY KEY, part BLOB);"
            "CREATE TABLE IF NOT EXISTS club (path TEXT PRIMARY KEY);"
            "CREATE TABLE IF NOT EXISTS club_events (path TEXT PRIMARY KEY, part BLOB);"
            "CREATE TABLE IF NOT EXISTS club_ratings (scope TEXT, path TEXT, part BLOB,"
            " PRIMARY KEY (scope, path));"
            "CREATE TABLE IF NOT EXISTS seats (pid TEXT, path TEXT, part BLOB,"
            " PRIMARY KEY (pid, path));"
            "CREATE INDEX IF NOT EXISTS seats_by_path ON seats (path);"
            "CREATE TABLE IF NOT EXISTS club_lists (scope TEXT PRIMARY KEY, part BLOB);"
            "CREATE TABLE IF NOT EXISTS club_folds (scope TEXT PRIMARY KEY, part BLOB);"
            "CREATE TABLE IF NOT EXISTS seat_digests (pid TEXT PRIMARY KEY, part BLOB,"
            " stale TEXT);"
        )
        return cls(path, db)

    @classmethod
    def replace(cls, path: Path, write: Callable[[BuildState], None]) -> None:
        """Write a new state file in place of ``path`` (a full build): ``write`` fills a
        fresh file beside it, which then replaces the old one in one rename.

        Deleting an archive's state row by row made SQLite copy every old page into its
        rollback journal (150 MB written and synced for 1,000 events, 20 s); a fresh
        file needs no journal. It is synced once before the rename: killed before that,
        the old file stays (marked stale, so the next build is a full one), and a
        leftover ``.new-`` file is removed by the next build (:func:`clean_new`).
        """
        new = path.with_name(f"{path.name}.new-{os.getpid()}")
        new.unlink(missing_ok=True)
        try:
            state = cls._open(new, journal="OFF")
            try:
                state.db.execute("PRAGMA synchronous=OFF")
                write(state)
            finally:
                state.close()
            with new.open("rb") as done:
                os.fsync(done.fileno())
            # a hot rollback journal of the old file (an incremental save killed
            # half-way) would be played back into the new file once it has its name
            for left in ("-journal", "-wal", "-shm"):
                path.with_name(path.name + left).unlink(missing_ok=True)
            os.replace(new, path)
        except BaseException:
            new.unlink(missing_ok=True)
            raise

    def close(self) -> None:
        self.db.close()

    def invalidate(self) -> None:
        """Mark the state as describing no site: done before a build changes the output
        folder, so a build killed half-way (its journal finished by the next build, or
        its swap done) is never mistaken for one the state describes."""
        self.db.execute("DELETE FROM meta WHERE key = 'output'")

    def meta(self, key: str) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else ""

    def events(self) -> dict[EventPath, Stored]:
        """Return every stored event by path."""
        found: dict[EventPath, Stored] = {}
        for path, fingerprint, head, warnings in self.db.execute(
            "SELECT path, fingerprint, head, warnings FROM events"
        ):
            found[_path(path)] = Stored(fingerprint, pickle.loads(head), pickle.loads(warnings))
        return found

    def games(self, paths: Iterable[EventPath] | None = None) -> dict[EventPath, object]:
        """Return each event's part of the club's games table (issue #20), or only the
        parts of ``paths``."""
        if paths is not None:
            found = {}
            for path in paths:
                row = self.db.execute("SELECT part FROM games WHERE path = ?",
                                      (_key(path),)).fetchone()
                if row is not None:
                    found[path] = pickle.loads(row[0])
            return found
        return {_path(path): pickle.loads(part)
                for path, part in self.db.execute("SELECT path, part FROM games")}

    def club_events(self) -> dict[EventPath, ClubEvent]:
        """Return every event's summary for the club pages (issue #33)."""
        return {_path(path): pickle.loads(part)
                for path, part in self.db.execute("SELECT path, part FROM club_events")}

    def club_ratings(self, scope: RatingScope, paths: Iterable[EventPath] | None = None
                     ) -> dict[EventPath, EventRatings]:
        """Return what rating each event of a scope (its folder and format) gave, seats
        aside (only the events of ``paths``, when given)."""
        if paths is None:
            return {_path(path): pickle.loads(part) for path, part in self.db.execute(
                "SELECT path, part FROM club_ratings WHERE scope = ?", (_scope_key(scope),))}
        found = {}
        for path in set(paths):
            row = self.db.execute("SELECT part FROM club_ratings WHERE scope = ? AND path = ?",
                                  (_scope_key(scope), _key(path))).fetchone()
            if row is not None:
                found[path] = pickle.loads(row[0])
        return found

    def club_folds(self, scope: RatingScope) -> Folded | None:
        """Return the folds a build kept of a scope (its folder and format; see
        :class:`standgen.clubs.folds.Folded`), None when none."""
        row = self.db.execute("SELECT part FROM club_folds WHERE scope = ?",
                              (_scope_key(scope),)).fetchone()
        return None if row is None else pickle.loads(row[0])

    def seats_of(self, pid: str) -> dict[EventPath, tuple[Seat, ...]]:
        """Return a player's rated seats in each event (the site's ratings)."""
        return {_path(path): pickle.loads(part) for path, part in self.db.execute(
            "SELECT path, part FROM seats WHERE pid = ?", (pid,))}

    def digest_of(self, pid: str) -> SeatDigest | None:
        """Return what a build kept of a player's rated seats for their rating page
        (:mod:`standgen.clubs.seat_digest`), with the events their seats changed in
        since (``stale``), None when none."""
        row = self.db.execute("SELECT part, stale FROM seat_digests WHERE pid = ?",
                              (pid,)).fetchone()
        if row is None:
            return None
        digest: SeatDigest = pickle.loads(row[0])
        return digest._replace(stale=_stale(row[1]))

    def seats_in(self, path: EventPath) -> dict[str, tuple[Seat, ...]]:
        """Return each player's rated seats in one event (the site's ratings)."""
        return {pid: pickle.loads(part) for pid, part in self.db.execute(
            "SELECT pid, part FROM seats WHERE path = ?", (_key(path),))}

    def club_list(self, scope: EventPath) -> tuple[str, ...] | None:
        """Return a scope's rating list (ids, best first) at the last build."""
        row = self.db.execute("SELECT part FROM club_lists WHERE scope = ?",
                              (_key(scope),)).fetchone()
        return None if row is None else tuple(pickle.loads(row[0]))

    def club_files(self) -> set[str]:
        """Return the club pages' files the last build wrote (issue #20)."""
        return {row[0] for row in self.db.execute("SELECT path FROM club")}

    def signatures(self) -> dict[EventPath, str]:
        """Return each event folder's file signature at the last build (see
        :func:`folder_signature`)."""
        return {_path(path): signature for path, signature
                in self.db.execute("SELECT path, signature FROM signatures")}

    def season_parts(self, paths: Iterable[EventPath]) -> dict[EventPath, tuple[object, object]]:
        """Return (ranking, factions) of the stored events ``paths``."""
        found: dict[EventPath, tuple[object, object]] = {}
        for path in paths:
            row = self.db.execute("SELECT season FROM events WHERE path = ?",
                                  (_key(path),)).fetchone()
            if row is not None:
                found[path] = pickle.loads(row[0])
        return found

    def lines_of(self, pid: str) -> dict[EventPath, PlayerLine]:
        """Return a player's stored line in each event they played."""
        return {
            _path(path): pickle.loads(line)
            for path, line in self.db.execute("SELECT path, line FROM lines WHERE pid = ?",
                                              (pid,))
        }

    def lines_in(self, path: EventPath) -> dict[str, PlayerLine]:
        """Return every player's stored line in one event."""
        return {
            pid: pickle.loads(line)
            for pid, line in self.db.execute("SELECT pid, line FROM lines WHERE path = ?",
                                             (_key(path),))
        }

    def save(
        self,
        meta: Mapping[str, str],
        put: Sequence[tuple[str, EventSummary, Sequence[Problem]]],
        remove: Iterable[EventPath],
        full: bool,
        signatures: Mapping[EventPath, str] | None = None,
        games: Mapping[EventPath, object] | None = None,
        club: Iterable[str] | None = None,
        kept: ClubKept | None = None,
    ) -> None:
        """Record a build: ``put`` (fingerprint, summary, warnings) for each event built,
        ``remove`` for events gone; ``full`` starts the state afresh; ``signatures``
        replaces every folder's file signature (none kept where it is "")."""
        db = self.db
        db.execute("BEGIN")
        try:
            self._save_signatures(signatures or {}, full)
            if full:
                for table in ("events", "lines", "games", "club_events", "club_ratings",
                              "seats", "club_lists", "club_folds", "seat_digests"):
                    db.execute(f"DELETE FROM {table}")
            for path in remove:
                db.execute("DELETE FROM events WHERE path = ?", (_key(path),))
                db.execute("DELETE FROM lines WHERE path = ?", (_key(path),))
                db.execute("DELETE FROM games WHERE path = ?", (_key(path),))
                db.execute("DELETE FROM club_events WHERE path = ?", (_key(path),))
            if kept is not None:
                _save_club(db, kept)
            if club is not None:  # the club pages' files, when rendered
                db.execute("DELETE FROM club")
                db.executemany("INSERT INTO club VALUES (?)", ((rel,) for rel in sorted(club)))
            db.executemany("INSERT OR REPLACE INTO games VALUES (?, ?)",
                           ((_key(path), _dump(part)) for path, part in (games or {}).items()))
            for fingerprint, summary, warnings in put:
                key = _key(summary.path)
                db.execute("DELETE FROM lines WHERE path = ?", (key,))
                db.execute(
                    "INSERT OR REPLACE INTO events VALUES (?, ?, ?, ?, ?)",
                    (key, fingerprint, _dump(summary.head()),
                     _dump((summary.ranking, summary.factions)), _dump(tuple(warnings))),
                )
                db.executemany(
                    "INSERT OR REPLACE INTO lines VALUES (?, ?, ?)",
                    ((line.id, key, _dump(line)) for line in summary.players),
                )
            db.execute("DELETE FROM meta")
            db.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # a failed COMMIT (a full disk) may have rolled back
                try:
                    db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the error that matters is the one being raised
            raise


    def _save_signatures(self, signatures: Mapping[EventPath, str], full: bool) -> None:
        """Replace every folder's signature by ``signatures`` (none kept where it is ""):
        an incremental build writes only the rows that changed (1,000 folders' rows
        written again each build were a tenth of its saving)."""
        db = self.db
        new = {_key(path): sig for path, sig in signatures.items() if sig}
        if full:
            db.execute("DELETE FROM signatures")
            db.executemany("INSERT INTO signatures VALUES (?, ?)", sorted(new.items()))
            return
        old = dict(db.execute("SELECT path, signature FROM signatures").fetchall())
        db.executemany("DELETE FROM signatures WHERE path = ?",
                       sorted((key,) for key in old.keys() - new.keys()))
        db.executemany("INSERT OR REPLACE INTO signatures VALUES (?, ?)",
                       sorted((key, sig) for key, sig in new.items() if old.get(key) != sig))


def _save_club(db: sqlite3.Connection, kept: ClubKept) -> None:
    """Record the club pages' summaries a build made (see :class:`ClubKept`)."""
    db.executemany("INSERT OR REPLACE INTO club_events VALUES (?, ?)",
                   ((_key(path), _dump(event)) for path, event in sorted(kept.events.items())))
    _save_digests(db, kept)
    for path in sorted(kept.dropped):
        db.execute("DELETE FROM club_ratings WHERE path = ?", (_key(path),))
        db.execute("DELETE FROM seats WHERE path = ?", (_key(path),))
    for scope, made in sorted(kept.ratings.items()):
        db.executemany("INSERT OR REPLACE INTO club_ratings VALUES (?, ?, ?)",
                       ((_scope_key(scope), _key(rated.path), _dump(rated)) for rated in made))
    for path, players in sorted(kept.seats.items()):
        db.execute("DELETE FROM seats WHERE path = ?", (_key(path),))
        db.executemany("INSERT INTO seats VALUES (?, ?, ?)",
                       ((pid, _key(path), _dump(seats)) for pid, seats in sorted(players.items())))
    if kept.listing is not None:
        db.execute("INSERT OR REPLACE INTO club_lists VALUES (?, ?)",
                   (_key(()), _dump(kept.listing)))
    # a scope's folds over events of which one changed or went no longer hold
    keep = {_scope_key(scope) for scope in kept.holding}
    for (key,) in db.execute("SELECT scope FROM club_folds").fetchall():
        folder = tuple(part for part in str(key).split("|")[0].split("/") if part)
        if key not in keep and any(path[:len(folder)] == folder for path in kept.dropped):
            db.execute("DELETE FROM club_folds WHERE scope = ?", (key,))
    db.executemany("INSERT OR REPLACE INTO club_folds VALUES (?, ?)",
                   ((_scope_key(scope), _dump(folded))
                    for scope, folded in sorted(kept.folds.items())))


def _save_digests(db: sqlite3.Connection, kept: ClubKept) -> None:
    """Record the players' seat digests a build made, and mark each other digest with the
    events its player's seats change in (before the seats are written)."""
    moved: dict[str, set[str]] = {}
    for path in kept.dropped | kept.seats.keys():
        for (pid,) in db.execute("SELECT pid FROM seats WHERE path = ?", (_key(path),)):
            moved.setdefault(pid, set()).add(_key(path))
    for path, players in kept.seats.items():
        for pid in players:
            moved.setdefault(pid, set()).add(_key(path))
    for pid in sorted(moved.keys() - kept.digests.keys()):
        row = db.execute("SELECT stale FROM seat_digests WHERE pid = ?", (pid,)).fetchone()
        if row is not None:
            paths = {_key(path) for path in _stale(row[0])} | moved[pid]
            db.execute("UPDATE seat_digests SET stale = ? WHERE pid = ?",
                       ("\n".join(sorted(paths)), pid))
    db.executemany("INSERT OR REPLACE INTO seat_digests VALUES (?, ?, NULL)",
                   ((pid, _dump(digest._replace(stale=frozenset())))
                    for pid, digest in sorted(kept.digests.items())))


def _stale(text: str | None) -> frozenset[EventPath]:
    """Return the events of a digest's ``stale`` column (folders, a line each)."""
    return frozenset(_path(key) for key in text.split("\n")) if text else frozenset()


def _dump(value: object) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def _key(path: EventPath) -> str:
    return "/".join(path)


def _scope_key(scope: RatingScope) -> str:
    """Return a rating scope's key: its folder, and ``|`` and the format when it has one
    (folders are slugs: no ``|`` in them)."""
    folder, fmt = scope
    return f"{_key(folder)}|{fmt}" if fmt else _key(folder)


@functools.lru_cache(maxsize=8192)  # a player's seats name the same events again and again
def _path(key: str) -> EventPath:
    return tuple(key.split("/"))


def iter_files(folder: Path) -> Iterator[str]:
    """Yield the relative POSIX path of every file below ``folder``."""
    for base, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            yield Path(base, name).relative_to(folder).as_posix()
