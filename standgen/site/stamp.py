"""The "last updated" stamp: derived from the input, never from the wall clock.

Same input, same bytes: a page says what it includes ("round 3 complete", "round 4 in
progress: 5 of 8 results in"). When the ``SOURCE_DATE_EPOCH`` environment variable is
set (the reproducible-builds convention; the Pages workflow may set it to the commit
time), the time it names is added as the build time.
"""

from __future__ import annotations

import datetime as dt
import os

from standgen.pipeline import EventReport
from standgen.site.i18n import Text, _, date


def build_time(environ: dict[str, str] | None = None) -> dt.datetime | None:
    """Return ``SOURCE_DATE_EPOCH`` as a UTC time, or None when unset or not a number."""
    value = (os.environ if environ is None else environ).get("SOURCE_DATE_EPOCH", "").strip()
    if not value.isdigit():
        return None
    return dt.datetime.fromtimestamp(int(value), tz=dt.UTC)


def built_note(built: dt.datetime | None) -> str:
    """Return ``built 2026-03-14 15:02 UTC``, or ``""`` without a build time."""
    return f"built {built:%Y-%m-%d %H:%M} UTC" if built is not None else ""


def event_note(report: EventReport) -> str:
    """Return what an event's pages include: the newest round and how many results are in."""
    return str(note_text(report))


def note_text(report: EventReport) -> Text:
    """Return :func:`event_note` as text shown in the language active when shown."""
    rounds = report.event.rounds
    if not rounds:
        if report.proposal is not None:
            return Text.of("round {number} pairings proposed",
                           number=report.proposal.round.number)
        return Text.of("no rounds yet")
    last = rounds[-1]
    if last.finished:
        note = Text.of("round {number} complete", number=last.number)
        if report.proposal is not None:
            note += Text.of(", round {number} proposed", number=report.proposal.round.number)
        return note
    games = [g for g in last.games if len(g.seats) > 1]
    done = sum(1 for g in games if g.finished)
    if done == 0:
        return Text.of("round {number} pairings published", number=last.number)
    return Text.of("round {number} in progress: {done} of {games} results in",
                   number=last.number, done=done, games=len(games))


def stamp(note: str, built: dt.datetime | None) -> str:
    """Return the footer's stamp: ``Last updated 2026-03-14 15:02 UTC: round 3 complete``.

    The date and time are ``SOURCE_DATE_EPOCH`` (the Pages workflow sets it to the time of
    the commit that holds the round files), never the clock; without it only the note.
    """
    if built is None:
        return _("Last updated: {note}").format(note=note) if note else ""
    when = _("Last updated {date} at {time} UTC").format(date=date(built.date(),
                                                                   f"{built:%Y-%m-%d}"),
                                                        time=f"{built:%H:%M}")
    return f"{when}: {note}" if note else when
