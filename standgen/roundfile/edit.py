"""Writing a round file: the editors' and processes' locks, compare-and-swap, the
atomic write (see :mod:`standgen.roundfile`)."""


from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from standgen.errors import Problem
from standgen.formats.base import Format
from standgen.load.files import (
    display,
)
from standgen.model import Round, TeamRound
from standgen.roundfile.read import RoundFile, RoundRow, read_round_file
from standgen.roundfile.text import (
    Form,
    RoundFileRefused,
    boards_csv,
    encode,
    render,
    round_rows,
    team_round_csv,
)


def editor_lock(path: Path) -> Path | None:
    """Return an editor's lock or swap file for ``path`` if one exists (the file is open in
    LibreOffice, Vim, Emacs or Office), else None."""
    name = path.name
    for candidate in (f".~lock.{name}#", f".{name}.swp", f".{name}.swo", f".#{name}",
                      f"~${name}", f"~${name[2:]}"):
        lock = path.with_name(candidate)
        if os.path.lexists(lock):
            return lock
    return None


def _locked_problem(path: Path, lock: Path) -> Problem:
    return Problem(display(path), 1, f"is open in an editor ({lock.name} exists); nothing "
                   "was written: save and close the file there (so that the editor does not "
                   "save over this entry), then enter it again")


# ----- writing ------------------------------------------------------------------------

_THREAD_LOCKS: dict[str, threading.Lock] = {}
_THREAD_LOCKS_GUARD = threading.Lock()


def _thread_lock(path: Path) -> threading.Lock:
    key = os.path.abspath(path)
    with _THREAD_LOCKS_GUARD:
        return _THREAD_LOCKS.setdefault(key, threading.Lock())


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Hold an OS lock on the round file at ``path`` (``flock``; none on Windows). The
    lock is on the file, which a write replaces: once held, the file must still be the
    one at the path, else the lock is taken again on the new one."""
    if sys.platform == "win32" or not path.exists():
        yield
        return
    import fcntl

    for _ in range(100):
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except OSError:
                same = False
            if same:
                try:
                    yield
                finally:
                    fcntl.flock(fd, fcntl.LOCK_UN)
                return
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)
    yield  # replaced a hundred times meanwhile: the compare-and-swap still guards


@dataclass
class Editing:
    """A round file held for one change: ``current`` as read under the lock, ``write``."""

    path: Path
    fmt: Format
    current: RoundFile | None
    problems: list[Problem] = field(default_factory=list)
    written: bytes | None = None

    def write(self, text: str) -> bool:
        """Write ``text`` over the file in its own form, atomically; return False when it
        is what the file already holds (nothing written). Raise :class:`RoundFileRefused`
        while an editor has the file open, when the form cannot hold ``text``, or when the
        file changed since ``current`` was read."""
        where = display(self.path)
        form = self.current.form if self.current is not None else Form()
        data = encode(text, form, where)
        lock = editor_lock(self.path)
        if lock is not None:
            raise RoundFileRefused("locked", [_locked_problem(self.path, lock)])
        if self.current is not None:
            if text == self.current.text:
                return False
            try:
                st = os.stat(self.path)
                now = (st.st_ino, st.st_size, st.st_mtime_ns)
            except OSError:
                now = (0, 0, 0)
            if now != self.current.identity:
                raise RoundFileRefused("changed", [Problem(where, 1, "changed while this "
                                       "entry was being saved; nothing was written: check "
                                       "the file and enter it again")])
        _write_bytes(self.path, data)
        self.written = data
        return True


@contextmanager
def editing(path: Path, fmt: Format, missing_ok: bool = False) -> Iterator[Editing]:
    """Hold ``path`` for one change (a thread lock and an OS lock) and yield an
    :class:`Editing` with the file as read now. Raise :class:`RoundFileRefused`
    (``unreadable``) when it cannot be read, unless ``missing_ok`` and it does not exist
    (then ``current`` is None: a new file is written in the default form)."""
    with _thread_lock(path), _file_lock(path):
        if missing_ok and not os.path.lexists(path):
            yield Editing(path, fmt, None)
            return
        if os.path.islink(path):
            raise RoundFileRefused("form", [Problem(display(path), 1, "is a symbolic link; "
                                   "standgen writes plain files only: edit this round in "
                                   "the file it points to")])
        problems: list[Problem] = []
        current = read_round_file(path, fmt, problems)
        if current is None:
            raise RoundFileRefused("unreadable", [p for p in problems if not p.warning]
                                   or [Problem(display(path), 1, "cannot be read")])
        yield Editing(path, fmt, current, problems)


def _write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` aside and rename it over ``path`` (the old file or the new one,
    never half), keeping the old file's permission bits."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = 0o644
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass


@dataclass(frozen=True)
class Change:
    """What a row edit did: the row's cells before and after (``new`` is empty for a
    removed row) and whether the file changed."""

    old: Mapping[str, str]
    new: Mapping[str, str]
    changed: bool
    line: int


def _expect(edit: Editing, table: int, expect: str | None,
            expect_file: str | None) -> tuple[RoundFile, RoundRow]:
    current = edit.current
    assert current is not None
    where = display(edit.path)
    if expect_file is not None and expect_file != current.tag:
        raise RoundFileRefused("changed", [Problem(where, 1, "changed since it was read; "
                               "nothing was written: check it and enter it again")])
    row = current.row(table)
    if row is None:
        current._only(table)  # raises with the reason
        raise AssertionError
    if expect is not None and expect != row.tag:
        raise RoundFileRefused("changed", [Problem(where, row.line, f"table {table} changed "
                               f"since it was read (it now reads '{row.text}'); nothing was "
                               "written: check it and enter it again")])
    return current, row


def replace_row(path: Path, fmt: Format, table: int, cells: Mapping[str, str],
                expect: str | None, expect_file: str | None = None) -> Change:
    """Set ``cells`` (column -> value) in ``table``'s row of the round file at ``path``
    and write the file back in its own form; return the :class:`Change`.

    A compare-and-swap: ``expect`` is :attr:`RoundRow.tag` of the row as the caller read
    it (None: any), ``expect_file`` :attr:`RoundFile.tag` of the whole file (None: any).
    Raise :class:`RoundFileRefused` when the row or file no longer reads so, when there is
    no such table, while an editor has the file open, or when it cannot be written in its
    form. Values are stripped; nothing is written when nothing changes."""
    with editing(path, fmt) as edit:
        current, row = _expect(edit, table, expect, expect_file)
        new = {**row.cells, **{k: v.strip() for k, v in cells.items() if k in current.header}}
        changed = edit.write(current.with_row(table, new))
        return Change(dict(row.cells), new, changed, row.line)


def remove_row(path: Path, fmt: Format, table: int, expect: str | None,
               expect_file: str | None = None) -> Change:
    """Remove ``table``'s row from the round file at ``path`` (compare-and-swap as
    :func:`replace_row`; every other line stays as it is); return the :class:`Change`."""
    with editing(path, fmt) as edit:
        current, row = _expect(edit, table, expect, expect_file)
        edit.write(current.without_row(table))
        return Change(dict(row.cells), {}, True, row.line)


def write_round(path: Path, fmt: Format, rnd: Round, expect_file: str | None = None) -> str:
    """Write a whole round (``pair``, ``pair --redo``) to ``path``; return the text.

    A file already there is replaced in its own form (separator, line ends, BOM,
    encoding), and only if it still reads as :attr:`RoundFile.tag` ``expect_file`` says
    (None: any); a new file is written as comma-separated UTF-8 with LF line ends. Raise
    :class:`RoundFileRefused` as :meth:`Editing.write` does."""
    if fmt.seats > 2:
        return _write_new(path, boards_csv(rnd))
    with editing(path, fmt, missing_ok=True) as edit:
        if edit.current is not None and expect_file is not None \
                and edit.current.tag != expect_file:
            raise RoundFileRefused("changed", [Problem(display(path), 1, "changed since it "
                                   "was read; nothing was written: run the command again")])
        form = edit.current.form if edit.current is not None else Form()
        text = render(*round_rows(fmt, rnd), form)
        edit.write(text)
        return text



# ----- team pairings (teams-round-N.csv) ----------------------------------------------


def write_team_round(path: Path, rnd: TeamRound) -> str:
    """Write a team event's round of team matches to ``path`` (docs/teams.md, "Team
    matches"), the one writer of ``teams-round-N.csv``; return the text. Atomic, and
    refused (:class:`RoundFileRefused`) while an editor has the file open."""
    return _write_new(path, team_round_csv(rnd))


def _write_new(path: Path, text: str) -> str:
    """Write ``text`` to ``path`` as UTF-8, whole and atomically, unless an editor has
    the file open (:class:`RoundFileRefused`); return the text."""
    lock = editor_lock(path)
    if lock is not None:
        raise RoundFileRefused("locked", [_locked_problem(path, lock)])
    with _thread_lock(path), _file_lock(path):
        _write_bytes(path, text.encode("utf-8"))
    return text
