"""Site-wide pages across events: each player's history (by id) with head-to-head
records, and the archive of every event by year."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from markupsafe import Markup

import standgen.site.links as links
from standgen.site.club_scopes import player_ratings_path
from standgen.site.contexts import Frame, Link, frame, newest_first
from standgen.site.i18n import _
from standgen.site.numbers import display_number
from standgen.site.summary import EventSummary, PlayerLine
from standgen.site.table_rows import head_to_head_rows, history_rows


def history_page_path(player: str) -> str:
    """Return the output path of a player's history page (ids are validated slugs)."""
    return links.page("players", player)


class HistoryEvent(NamedTuple):  # made by the thousand: a tuple is made fastest
    """One event of a player's history."""

    event: Link
    player_page: str  # the player's page in that event
    date: str
    faction: str
    rank: str  # "3 of 16" in the page's language, or "–" for a spare player
    score: str
    record: str  # W-D-L
    place: int | None = None  # the rank alone, what the Placing column sorts by


class HeadToHead(NamedTuple):  # made by the thousand: a tuple is made fastest
    """The player's record against one opponent over every event."""

    opponent: Link
    games: int
    record: str  # W-D-L from the player's side
    sort_key: str


@dataclass(frozen=True)
class HistoryPage:
    """A player's history across all events."""

    frame: Frame
    name: str
    events: tuple[HistoryEvent, ...]
    record: str
    opponents: tuple[HeadToHead, ...]
    ratings: str = ""  # the player's rating history (issue #20)
    # the two tables' rows as the template writes them (Site.fast), or None
    events_html: Markup | None = None
    opponents_html: Markup | None = None


Appearance = tuple[EventSummary, PlayerLine]  # an event (its summary) and the player's line


def history_page(pid: str, appearances: Sequence[Appearance], fast: bool = False
                 ) -> HistoryPage:
    """Return the history page of player ``pid`` from their line in each of their events
    (the event summaries may be light: only the event's head is read); ``fast``
    (``Site.fast``): with the tables' rows written in Python
    (:mod:`standgen.site.table_rows`), else the template writes them."""
    line_of = {summary.path: line for summary, line in appearances}
    ordered = newest_first([summary for summary, _ in appearances])
    path = history_page_path(pid)
    newest = line_of[ordered[0].path]
    page = frame(path, _("{name} · history").format(name=newest.name), "history")
    totals = [0, 0, 0]
    meetings: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    rows = []
    for summary in ordered:
        line = line_of[summary.path]
        for opponent, name, column in line.meetings:
            names.setdefault(opponent, name)
            meetings.setdefault(opponent, [0, 0, 0])[column] += 1
        totals = [a + b for a, b in zip(totals, line.counts, strict=True)]
        rows.append(event_row(page, summary, line, pid))
    history_of = links.pages_in(path, "players")  # history_page_path(o), from this page
    opponents = tuple(
        sorted(
            (
                HeadToHead(
                    opponent=Link(names.get(o, o), history_of(o)),
                    games=sum(counts),
                    record=wdl(counts),
                    sort_key=names.get(o, o).casefold(),
                )
                for o, counts in meetings.items()
            ),
            key=lambda h: (-h.games, h.sort_key, h.opponent.href),
        )
    )
    return HistoryPage(
        page, newest.name, tuple(rows), wdl(totals), opponents,
        page.href(player_ratings_path(pid)),
        history_rows(rows, any(row.faction for row in rows)) if fast else None,
        head_to_head_rows(opponents) if fast else None)


def event_row(page: Frame, summary: EventSummary, line: PlayerLine, pid: str) -> HistoryEvent:
    """Return the row of the events table of ``pid``'s history page (``page``) for their
    ``line`` in the event ``summary``."""
    return HistoryEvent(
        event=Link(summary.config.name, page.href(links.event_page(summary))),
        player_page=page.href(links.player_page(summary, pid)),
        date=summary.config.date.isoformat(),
        faction=line.faction,
        rank=(_("{rank} of {field}").format(rank=line.rank, field=summary.field)
              if line.rank is not None else "–"),
        score=display_number(line.score),
        record=wdl(line.counts),
        place=line.rank,
    )


def wdl(counts: Sequence[int]) -> str:
    """Return wins, draws and losses as the pages write them: ``3-1-2``."""
    return f"{counts[0]}-{counts[1]}-{counts[2]}"


@dataclass(frozen=True)
class ArchiveYear:
    """The events of one year, newest first."""

    year: int
    events: tuple[Link, ...]
    dates: tuple[str, ...]


@dataclass(frozen=True)
class ArchivePage:
    """Every event, grouped by the year it began in, newest year first."""

    frame: Frame
    years: tuple[ArchiveYear, ...]


ARCHIVE = links.page("archive")


def archive_reads(summary: EventSummary) -> object:
    """Return what :func:`archive_page` reads of an event's head (its ``reads``)."""
    return summary.path, summary.config.name, summary.config.date


def archive_page(summaries: Sequence[EventSummary]) -> ArchivePage:
    """Return the archive page: events by year (from each event's date), newest first."""
    page = frame(ARCHIVE, _("Archive"), "archive")
    years: dict[int, list[tuple[Link, str]]] = {}
    for event in newest_first(summaries):
        years.setdefault(event.config.date.year, []).append(
            (Link(event.config.name, page.href(links.event_page(event))),
             event.config.date.isoformat())
        )
    return ArchivePage(
        page,
        tuple(
            ArchiveYear(year, tuple(link for link, _ in items), tuple(d for _, d in items))
            for year, items in sorted(years.items(), reverse=True)
        ),
    )
