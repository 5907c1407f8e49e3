"""When army lists appear on the site (event.toml ``lists_public``; docs/data-contract.md).

A TO collects lists in ``lists/<id>.md`` before the event and checks them (players.csv
``list_check``). Until the event's moment the site holds no list and no check state;
from it, each player's list is on their player page and the round pages show the lists
of each table's players. The moment is ``event-start`` (the event's date, 00:00 UTC),
``round-1`` (round 1 is paired: its file exists), an ISO date and time, or ``never``;
without ``lists_public`` a list is public as soon as its file is there (as before).
"""

from __future__ import annotations

import datetime as dt
import tomllib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from standgen.clock import parse_moment
from standgen.model import Event


def moment(lists_public: str, date: dt.date) -> dt.datetime | None:
    """Return the time a time-set ``lists_public`` makes lists public, or None for the
    words that set no time ("", ``round-1``, ``never``)."""
    if lists_public == "event-start":
        return dt.datetime.combine(date, dt.time(0), dt.UTC)
    if lists_public in ("", "round-1", "never"):
        return None
    return parse_moment(lists_public)


def lists_shown(event: Event, now: dt.datetime) -> bool:
    """Return whether the event's army lists (and their check states) are public at
    ``now``."""
    when = event.config.lists_public
    if when == "":
        return True
    if when == "never":
        return False
    if when == "round-1":
        return any(rnd.number == 1 for rnd in event.rounds)
    at = moment(when, event.config.date)
    return at is not None and now >= at


def moments_key(folders: Iterable[Path], now: dt.datetime,
                tomls: Iterable[Sequence[Path]] | None = None,
                heard: Callable[[Path, bool], None] | None = None) -> str:
    """Return which of the events' time-set list moments have passed at ``now``: a build
    whose key holds it renders again every event once one of them passes, though no file
    changed. Reads only each ``event.toml`` that mentions ``lists_public``. ``tomls``:
    each folder's ``event.toml`` (in any case) as a listing a moment ago found it; else
    each folder is listed here. ``heard(path, mentions)`` is told what each file read
    holds."""
    passed: list[str] = []
    folders = list(folders)
    found = (_tomls(folder) for folder in folders) if tomls is None else tomls
    for folder, paths in zip(folders, found, strict=True):
        for path in paths:
            try:
                text = path.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError):
                continue
            if heard is not None:
                heard(path, "lists_public" in text)
            if "lists_public" not in text:
                continue
            try:
                data = tomllib.loads(text)
            except (tomllib.TOMLDecodeError, RecursionError):
                continue
            value, date = data.get("lists_public"), data.get("date")
            if isinstance(value, dt.datetime):
                value = value.isoformat()
            if isinstance(value, str) and isinstance(date, dt.date):
                at = moment(value, date)
                if at is not None and now >= at:
                    passed.append(f"{folder.as_posix()}@{at.isoformat()}")
    return "\n".join(passed)


def _tomls(folder: Path) -> list[Path]:
    try:
        return [entry for entry in folder.iterdir() if entry.name.lower() == "event.toml"]
    except OSError:
        return []
