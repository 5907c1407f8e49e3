"""The files of an event: which entries of a folder are input, which are litter, which are
refused (data contract section 1, "The files of an event"; issue #15 items 3 and 6).

``check``, ``build``, ``watch`` and the build state all list an event's files here, so
they agree on what an event is made of:

- names are compared case-insensitively: ``round-5.CSV``, ``Players.csv``,
  ``Event.toml`` are read as ``round-5.csv``, ``players.csv``, ``event.toml``, with a
  warning to rename them; two names for one file (``round-5.csv`` and ``round-5.CSV``)
  are an error naming both;
- editor and system litter (:func:`is_litter`) is skipped everywhere;
- every input must be a regular file (``lists/`` a folder), found with ``stat`` before it
  is opened: a pipe (FIFO), socket or device is never opened, because opening a FIFO for
  reading blocks until someone writes to it (the hang of issue #15 item 3).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from standgen.errors import Problem
from standgen.load.files import FILE, FOLDER, SLUG, display, kind_of

# Editor swap, backup and lock files and operating-system litter, never input:
# vim (.x.swp, .x.swx, x~, its 4913 write test), emacs (.#x: a symbolic link to nothing,
# and #x#), LibreOffice (.~lock.x#), Microsoft Office (~$x), macOS (._x AppleDouble
# resource forks written on FAT/exFAT/network drives, .DS_Store), Windows (Thumbs.db,
# desktop.ini), Chrome's .crswap and temporary .tmp files. Every name starting with "."
# is hidden and skipped too.
_LITTER = re.compile(r"(\..*|.*~|4913|#.*#|~\$.*|.*\.sw[a-z]|.*\.tmp|.*\.crswap|thumbs\.db"
                     r"|desktop\.ini)\Z", re.IGNORECASE)
ROUND_NAME = re.compile(r"round-([1-9][0-9]{0,2})\.csv\Z", re.IGNORECASE)
# a team event's team pairings of a round (docs/teams.md, "Team matches")
TEAM_ROUND_NAME = re.compile(r"teams-round-([1-9][0-9]{0,2})\.csv\Z", re.IGNORECASE)
EVENT_TOML, EVENT_MD, PLAYERS_CSV, LISTS = "event.toml", "event.md", "players.csv", "lists"
TEAMS_CSV = "teams.csv"  # optional: the event's teams (docs/teams.md)
SEASON_TOML = "season.toml"

BROKEN = "a symbolic link to nothing"


def is_litter(name: str) -> bool:
    """Return whether a file name is editor or system litter (never input).

    The one list of litter: the loader, the build state and ``watch`` all skip these.
    Folders are skipped only when hidden (their name starts with "."), see :func:`scan`.
    """
    return bool(_LITTER.match(name))


@dataclass(frozen=True)
class Entry:
    """One entry of a folder: its path (as a string, see :attr:`path`), its path below
    the event folder (``rel``, POSIX), its name, its kind (:func:`kind_of`, or BROKEN),
    whether it is a symbolic link, and its ``stat`` (following links; None when BROKEN)."""

    where: str
    rel: str
    name: str
    kind: str
    link: bool
    st: os.stat_result | None = field(compare=False, repr=False)

    @property
    def path(self) -> Path:
        """Return the entry's path."""
        return Path(self.where)


def scan(folder: Path, below: str = "") -> tuple[list[Entry], Problem | None]:
    """Return the entries of ``folder`` that are not litter, sorted by name, and a problem
    if the folder cannot be listed; ``below`` prefixes their ``rel`` ("lists/").

    Files are skipped when :func:`is_litter`, folders when hidden. Nothing is opened: each
    entry is ``stat``'ed, which never blocks, even on a FIFO.
    """
    try:
        with os.scandir(folder) as listing:
            found = list(listing)
    except OSError as exc:
        return [], Problem(display(folder), 1, f"folder cannot be read ({exc.strerror}); "
                           "check its permissions")
    entries: list[Entry] = []
    for item in sorted(found, key=lambda e: e.name):
        if item.name.startswith("."):
            continue
        link = item.is_symlink()
        try:
            st: os.stat_result | None = os.stat(item.path)
        except OSError:
            if not link:
                continue  # removed since the listing
            st = None
        kind = BROKEN if st is None else kind_of(st.st_mode)
        if kind != FOLDER and is_litter(item.name):
            continue
        entries.append(Entry(item.path, below + item.name, item.name, kind, link, st))
    return entries, None


def wrong_kind(entry: Entry, canonical: str, want: str = FILE) -> Problem | None:
    """Return the problem with an entry named ``canonical`` that is not ``want``, or None."""
    if entry.kind == want:
        return None
    where = display(entry.path)
    if entry.kind == BROKEN:
        return Problem(where, 1, "is a symbolic link to nothing; replace it with the real "
                       + ("folder" if want == FOLDER else "file"))
    if want == FOLDER:
        return Problem(where, 1, f"is {entry.kind}, not a folder; {canonical}/ must be a "
                       "folder: rename or remove it")
    if entry.kind == FOLDER:
        return Problem(where, 1, f"is a folder, not a file; {canonical} must be a file: "
                       "rename or remove the folder")
    return Problem(where, 1, f"is not a regular file ({entry.kind}); remove it")


def rename_warning(entry: Entry, canonical: str) -> Problem | None:
    """Return the warning for an input named ``canonical`` in another case, or None."""
    if entry.name == canonical:
        return None
    return Problem(display(entry.path), 1, f"file name '{entry.name}' is read as {canonical}; "
                   f"rename it {canonical} (other tools and case-sensitive disks tell them "
                   "apart)", warning=True)


def inside(root: Path | None, entry: Entry, problems: list[Problem]) -> bool:
    """Return whether an entry stays inside the events root (symbolic links may not lead
    out); record the problem when it does not. Without a root, every entry stays inside."""
    if root is not None and entry.link:
        try:
            entry.path.resolve().relative_to(root.resolve())
        except (ValueError, OSError):
            problems.append(Problem(display(entry.path), 1, "is a symbolic link leading outside "
                                    "the events folder; replace it with the real file"))
            return False
    return True


def pick(
    entries: Iterable[Entry], canonical: str, problems: list[Problem], want: str = FILE
) -> Entry | None:
    """Return the one entry named ``canonical`` in any case, recording the problems:
    two such entries (an error naming both), the wrong kind, another case (a warning).

    Returns the entry only when it is of the wanted kind, so a FIFO is never opened.
    """
    named = [e for e in entries if e.name.lower() == canonical]
    if not named:
        return None
    if len(named) > 1:
        names = " and ".join(e.name for e in named)
        problems.append(Problem(display(named[-1].path), 1, f"{names} are both {canonical}; "
                                "keep one and delete the other"))
        return None
    entry = named[0]
    trouble = wrong_kind(entry, canonical, want)
    if trouble is not None:
        problems.append(trouble)
        return None
    warning = rename_warning(entry, canonical)
    if warning is not None:
        problems.append(warning)
    return entry


def is_event_file(name: str) -> bool:
    """Return whether a name belongs in an event folder only: players.csv, event.md, a
    round file or any other CSV file (compared case-insensitively)."""
    low = name.lower()
    return low in (PLAYERS_CSV, EVENT_MD) or low.endswith(".csv")


@dataclass(frozen=True)
class EventFiles:
    """The input files of an event folder, classified (see :func:`event_files`).

    A role is None when its file is absent or refused (the problem says which).
    ``entries`` is everything the loader looks at (:func:`event_entries`), litter left
    out: the event folder's own entries and those of its folders. The build state
    fingerprints exactly these: each by name and kind, those in ``reads`` by content.
    """

    folder: Path
    config: Path | None
    description: Path | None
    players: Path | None
    rounds: Mapping[int, Path]
    named_rounds: frozenset[int]  # every round number some entry is named after
    lists_folder: Path | None
    lists: Mapping[str, Path]  # army lists by player id
    entries: tuple[Entry, ...]
    reads: frozenset[str]  # the ``where`` of every entry the loader reads
    problems: tuple[Problem, ...]
    teams: Path | None = None  # teams.csv, optional
    team_rounds: Mapping[int, Path] = field(default_factory=dict)  # teams-round-N.csv

    def inputs(self) -> tuple[Path, ...]:
        """Return every file the loader reads, by path."""
        found = [self.config, self.description, self.players, self.teams,
                 *self.rounds.values(), *self.team_rounds.values(), *self.lists.values()]
        return tuple(p for p in found if p is not None)


@dataclass(frozen=True)
class Listing:
    """An event folder's entries (litter left out) and those of each of its folders, by
    folder name, with the problem of a folder that cannot be listed."""

    folder: Path
    top: tuple[Entry, ...]
    below: Mapping[str, tuple[Entry, ...]]
    troubles: Mapping[str, Problem]  # "" for the event folder itself

    def entries(self) -> tuple[Entry, ...]:
        """Return every entry, the event folder's first."""
        return self.top + tuple(e for name in sorted(self.below) for e in self.below[name])


def event_entries(folder: Path, listed: Sequence[Entry] | None = None) -> Listing:
    """Return every entry the loader looks at in an event folder: its own entries and
    those of its folders (``lists/``, and any other folder, for an event put inside it).

    Only ``stat`` is used, never ``open``. The build state's signature covers exactly
    these entries; :func:`event_files` classifies them. ``listed``: the folder's own
    entries as :func:`scan` gave them a moment ago (the walk that found the event), not
    listed again; its folders are.
    """
    top, trouble = scan(folder) if listed is None else (list(listed), None)
    troubles = {"": trouble} if trouble is not None else {}
    below: dict[str, tuple[Entry, ...]] = {}
    for entry in top:
        if entry.kind == FOLDER:
            inner, trouble = scan(entry.path, f"{entry.name}/")
            below[entry.name] = tuple(inner)
            if trouble is not None:
                troubles[entry.name] = trouble
    return Listing(folder, tuple(top), below, troubles)


def event_files(folder: Path, root: Path | None = None) -> EventFiles:
    """Return the input files of the event in ``folder`` and the problems with them.

    The rules (data contract section 1): names compare case-insensitively (another case is
    read with a warning, two names for one file are an error); litter is skipped; every
    input is a regular file and ``lists/`` a folder, or an error names it; any other pipe,
    socket or device is an error too; unknown ``.csv``/``.toml`` files and misnamed army
    lists are errors; an event inside the event's folder is an error; with ``root``,
    symbolic links leading outside it are refused.
    """
    listing = event_entries(folder)
    problems: list[Problem] = []
    if "" in listing.troubles:
        problems.append(listing.troubles[""])
    by_name: dict[str, list[Entry]] = {}
    for entry in listing.top:
        by_name.setdefault(entry.name.lower(), []).append(entry)

    reads: set[str] = set()

    def take(canonical: str, want: str = FILE) -> Entry | None:
        entry = pick(by_name.get(canonical, ()), canonical, problems, want)
        if entry is None or not inside(root, entry, problems):
            return None
        if want == FILE:
            reads.add(entry.where)
        return entry

    def path(entry: Entry | None) -> Path | None:
        return entry.path if entry is not None else None

    config = path(take(EVENT_TOML))
    if EVENT_TOML not in by_name:
        problems.append(Problem(display(folder / EVENT_TOML), 1, "event.toml is missing; "
                                "create it with name, date and format"))
    description = path(take(EVENT_MD))
    players = path(take(PLAYERS_CSV))
    if PLAYERS_CSV not in by_name:
        problems.append(Problem(display(folder / PLAYERS_CSV), 1, "players.csv is missing; "
                                "create it with the header id,name,faction"))
    teams = path(take(TEAMS_CSV)) if TEAMS_CSV in by_name else None
    numbers = _round_numbers(by_name, listing, folder, problems)
    rounds: dict[int, Path] = {}
    for number in sorted(numbers):
        found = path(take(f"round-{number}.csv"))
        if found is not None:
            rounds[number] = found
    team_rounds: dict[int, Path] = {}
    for low in sorted(by_name):
        match = TEAM_ROUND_NAME.fullmatch(low)
        found = path(take(f"teams-round-{int(match.group(1))}.csv")) if match else None
        if match and found is not None:
            team_rounds[int(match.group(1))] = found
    chosen = take(LISTS, FOLDER)
    lists: dict[str, Entry] = {}
    if chosen is not None:
        if chosen.name in listing.troubles:
            problems.append(listing.troubles[chosen.name])
        _army_lists(listing.below.get(chosen.name, ()), root, lists, problems)
    reads.update(entry.where for entry in lists.values())
    return EventFiles(folder, config, description, players, rounds, frozenset(numbers),
                      path(chosen), {pid: e.path for pid, e in lists.items()},
                      listing.entries(), frozenset(reads), tuple(problems), teams,
                      team_rounds)


def _round_numbers(
    by_name: Mapping[str, list[Entry]], listing: Listing, folder: Path, problems: list[Problem]
) -> set[int]:
    """Return the numbers of the round files among an event folder's entries (``by_name``:
    by lower-case name), recording each entry that is no input (data contract section 1):
    an unknown ``.csv``/``.toml`` file, a pipe, socket or device, or an event inside the
    event's folder."""
    numbers: set[int] = set()
    for low, named in sorted(by_name.items()):
        match = ROUND_NAME.fullmatch(low)
        if match:
            numbers.add(int(match.group(1)))
        elif TEAM_ROUND_NAME.fullmatch(low):
            continue
        elif low in (EVENT_TOML, EVENT_MD, PLAYERS_CSV, LISTS, TEAMS_CSV):
            continue
        elif low.endswith((".csv", ".toml")):
            problems.extend(Problem(display(e.path), 1, f"unexpected file '{e.name}'; round "
                                    "files are named round-1.csv, round-2.csv, ...")
                            for e in named)
        else:
            for entry in named:
                if entry.kind not in (FILE, FOLDER, BROKEN):
                    problems.append(Problem(display(entry.path), 1, f"is not a regular file "
                                            f"({entry.kind}); remove it"))
                elif any(e.name.lower() == EVENT_TOML
                         for e in listing.below.get(entry.name, ())):
                    problems.append(Problem(display(entry.path), 1, "is an event inside the "
                                            f"event {folder.name}, which is never read; move "
                                            "it out of that event's folder"))
    return numbers


def _army_lists(
    entries: Iterable[Entry], root: Path | None, lists: dict[str, Entry], problems: list[Problem]
) -> None:
    """Fill ``lists`` with the army lists ``lists/<player-id>.md`` by player id."""
    by_id: dict[str, list[Entry]] = {}
    for entry in entries:
        pid = entry.name[:-3]
        if entry.name.lower().endswith(".md") and SLUG.match(pid):
            by_id.setdefault(pid, []).append(entry)
        else:
            problems.append(Problem(display(entry.path), 1, "army lists are named "
                                    "<player-id>.md"))
    for pid, named in sorted(by_id.items()):
        chosen = pick(named, f"{pid}.md", problems)
        if chosen is not None and inside(root, chosen, problems):
            lists[pid] = chosen
