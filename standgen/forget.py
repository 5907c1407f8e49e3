"""``standgen forget PLAYER``: remove a person from every event of the archive
(docs/privacy.md).

The person's id is replaced, in every event they played, by one new anonymous id
(``forgotten-`` and random hex digits), the same everywhere, so the others' standings,
tiebreaks and club ratings add up as before. In players.csv their name, club, country and
pseudonym are emptied or replaced and ``publish`` becomes ``pseudonym`` with the
pseudonym "Anonymous" and the id's digits: the site shows neither the rating nor the rank
kept for the tiebreaks. Round files are changed through :mod:`standgen.roundfile` (each
row written back in the file's own form, under its editors' lock), players.csv through
:func:`standgen.eventday.edit_player` (a team captain's cell of teams.csv through
:func:`standgen.eventday.edit_cells`); the person's army lists are deleted. Text a TO
wrote (``event.md``, notes) is not edited: the files that still hold the name are named.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from standgen.errors import InputError, Problem, errors_only
from standgen.eventday import edit_cells, edit_player
from standgen.formats import FORMATS
from standgen.formats.base import Format
from standgen.load import find_events, load_event
from standgen.load.files import display
from standgen.load.inputs import event_files
from standgen.load.teams import COLUMNS as TEAM_COLUMNS
from standgen.model import Event
from standgen.output import write_atomic
from standgen.roundfile import RoundFileRefused, editing, line_text

PLAYER_COLUMNS = ("player_1", "player_2", "player")
# event.toml [options] keys that list player ids (Diplomacy)
ID_OPTIONS = ("sit_out", "two_boards")


@dataclass(frozen=True)
class Forgotten:
    """What :func:`forget` did: the new id, the files changed, and the files it left that
    still hold the person's name (text a TO wrote)."""

    old_id: str
    new_id: str
    changed: tuple[Path, ...]
    still_named: tuple[Path, ...]


def _events(root: Path) -> list[tuple[Path, Event]]:
    found = find_events(root)
    loaded: list[tuple[Path, Event]] = []
    problems: list[Problem] = list(found.problems)
    for folder, slugs in found.folders:
        event = load_event(folder, slugs, problems, root)
        if event is not None:
            loaded.append((folder, event))
    if errors_only(problems):
        raise InputError([p for p in problems if not p.warning])
    return loaded


def _who(events: list[tuple[Path, Event]], text: str) -> str:
    """Return the id ``text`` names: an id, or a name only one id has in the archive."""
    ids = {p.id for _, e in events for p in e.players}
    if text in ids:
        return text
    named = sorted({p.id for _, e in events for p in e.players
                    if p.name.casefold() == text.casefold()})
    if len(named) == 1:
        return named[0]
    if named:
        raise InputError([Problem(text, 1, f"{len(named)} ids have the name '{text}' ("
                                  + ", ".join(named) + "); name one by id")])
    raise InputError([Problem(text, 1, "no player with this id or name in any event")])


def new_id(events: list[tuple[Path, Event]]) -> str:
    """Return a fresh anonymous id, used by no event."""
    taken = {p.id for _, e in events for p in e.players}
    while True:
        made = "forgotten-" + secrets.token_hex(4)
        if made not in taken:
            return made


def forget(root: Path, player: str) -> Forgotten:
    """Replace ``player`` (an id, or a name only one id has) in every event under
    ``root``; raise InputError (nothing written) when the archive has errors or names
    no such player."""
    events = _events(root)
    old = _who(events, player)
    new = new_id(events)
    names = {p.name for _, e in events for p in e.players if p.id == old}
    changed: list[Path] = []
    for folder, event in events:
        if old not in event.player_by_id:
            continue
        changed.extend(_forget_in(folder, root, event, old, new))
    return Forgotten(old, new, tuple(changed), tuple(_still_named(root, names, old)))


def _forget_in(folder: Path, root: Path, event: Event, old: str, new: str) -> list[Path]:
    """Replace ``old`` by ``new`` in one event folder; return the files changed."""
    files = event_files(folder, root)
    fmt = FORMATS[event.config.format]
    changed: list[Path] = []
    for number in sorted(files.rounds):
        path = files.rounds[number]
        if _replace_in_round(path, fmt, old, new):
            changed.append(path)
    if files.config is not None and _replace_in_config(files.config, old, new):
        changed.append(files.config)
    tail = new.removeprefix("forgotten-")
    cells = {"name": f"Forgotten {tail}", "club": "", "country": "", "publish": "pseudonym",
             "pseudonym": f"Anonymous {tail.upper()}"}
    path = folder / "players.csv"
    for column, value in cells.items():
        path = edit_player(folder, old, column, _to(value))
    edit_player(folder, old, "id", _to(new))
    changed.append(path)
    if files.teams is not None and any(t.captain == old for t in event.teams):
        edit_cells(files.teams, ("id", "name"), TEAM_COLUMNS, "captain", old, "captain",
                   _to(new))
        changed.append(files.teams)
    listed = files.lists.get(old)
    if listed is not None:
        listed.unlink()
        changed.append(listed)
    return changed


def _to(value: str) -> Callable[[str], str]:
    """Return the change that sets a cell to ``value``."""
    return lambda _: value


def _replace_in_round(path: Path, fmt: Format, old: str, new: str) -> bool:
    """Replace the player's id in a round file's player cells, through the one round-file
    writer; return whether the file changed."""
    try:
        with editing(path, fmt) as edit:
            current = edit.current
            assert current is not None
            lines = list(current.lines)
            for row in current.rows:
                if not any(row.cells.get(c) == old for c in PLAYER_COLUMNS):
                    continue
                values = [new if name in PLAYER_COLUMNS and row.cells.get(name) == old
                          else row.cells.get(name, "") for name in current.header]
                line = lines[row.line - 1]
                lines[row.line - 1] = line_text(values, current.form) + line[
                    len(line.rstrip("\r\n")):]
            return edit.write("".join(lines))
    except RoundFileRefused as refused:
        raise InputError(refused.problems) from None


def _replace_in_config(path: Path, old: str, new: str) -> bool:
    """Replace the id where event.toml lists it in quotes (Diplomacy's ``sit_out`` and
    ``two_boards``); return whether the file changed."""
    text = path.read_text(encoding="utf-8")
    changed = re.sub(rf"([\"']){re.escape(old)}\1", rf"\g<1>{new}\g<1>", text)
    if changed == text:
        return False
    write_atomic(path, changed)
    return True


def _still_named(root: Path, names: set[str], old: str) -> list[Path]:
    """Return the text files under ``root`` (and the venue's folder beside it) that still
    hold one of the person's names or their old id."""
    words = [n.casefold() for n in names if n] + [old]
    venue = root.parent / f".{root.name}.standgen-venue"
    found: list[Path] = []
    for base in (root, venue):
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if not path.is_file() or path.stat().st_size > 5_000_000:
                continue
            try:
                text = path.read_text(encoding="utf-8", errors="replace").casefold()
            except OSError:
                continue
            if any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text) for w in words):
                found.append(path)
    return found


def report_lines(done: Forgotten) -> list[str]:
    """Return what ``standgen forget`` prints."""
    lines = [f"'{done.old_id}' is now '{done.new_id}' in every event; changed:"]
    lines += [f"  {display(path)}" for path in done.changed]
    if done.still_named:
        lines.append("still named in (text standgen does not edit; edit or delete it):")
        lines += [f"  {display(path)}" for path in done.still_named]
    lines.append("build and publish the site again; the old pages stay in the published "
                 "site's history until you remove it (docs/privacy.md)")
    return lines
