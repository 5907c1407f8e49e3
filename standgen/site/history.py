"""Site-wide pages across events: each player's history (by id) with head-to-head
records, and the archive of every event by year."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from standgen.model import Outcome
from standgen.pipeline import EventReport
from standgen.site import links
from standgen.site.contexts import Frame, Link, Site, frame, newest_first
from standgen.site.numbers import display_number


def history_page_path(player: str) -> str:
    """Return the output path of a player's history page (ids are validated slugs)."""
    return links.page("players", player)


@dataclass(frozen=True)
class HistoryEvent:
    """One event of a player's history."""

    event: Link
    player_page: str  # the player's page in that event
    date: str
    faction: str
    rank: str  # "3 of 16", or "–" for a spare player
    score: str
    record: str  # W-D-L


@dataclass(frozen=True)
class HeadToHead:
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


def player_histories(site: Site, reports: Sequence[EventReport]) -> list[HistoryPage]:
    """Return every player's history page, by id.

    Data contract section 1: ids are stable across a season, so games under one id join
    up. Events newest first. Head-to-head counts finished games: a win, draw or loss as
    the player's own seat scored it (on a multi-seat board, the player's result in the
    game they shared).
    """
    by_id: dict[str, list[EventReport]] = {}
    for report in reports:
        for player in report.event.players:
            by_id.setdefault(player.id, []).append(report)
    pages = []
    for pid in sorted(by_id):
        played = {r.event.path: r for r in by_id[pid]}
        ordered = [played[e.path] for e in newest_first([r.event for r in by_id[pid]])]
        path = history_page_path(pid)
        newest = ordered[0].event.player_by_id[pid]
        page = frame(path, f"{newest.name} · history", "history")
        totals = [0, 0, 0]
        meetings: dict[str, list[int]] = {}
        names: dict[str, str] = {}
        rows = []
        for report in ordered:
            event = report.event
            player = event.player_by_id[pid]
            for other in event.players:
                names.setdefault(other.id, other.name)
            record = report.standings.records.get(pid)
            standing = report.standings.row(pid)
            counts = [0, 0, 0]
            for entry in record.entries if record is not None else ():
                column = {Outcome.WIN: 0, Outcome.DRAW: 1, Outcome.LOSS: 2}[entry.outcome]
                counts[column] += 1
                for opponent in entry.opponents:
                    meeting = meetings.setdefault(opponent, [0, 0, 0])
                    meeting[column] += 1
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
            field = len(report.standings.rows)
            rows.append(
                HistoryEvent(
                    event=Link(event.config.name, page.href(links.event_page(event))),
                    player_page=page.href(links.player_page(event, pid)),
                    date=event.config.date.isoformat(),
                    faction=player.faction,
                    rank=f"{standing.rank} of {field}" if standing is not None else "–",
                    score=display_number(record.score if record is not None else 0.0),
                    record="-".join(str(c) for c in counts),
                )
            )
        opponents = tuple(
            sorted(
                (
                    HeadToHead(
                        opponent=Link(names.get(o, o), page.href(history_page_path(o))),
                        games=sum(wdl),
                        record="-".join(str(c) for c in wdl),
                        sort_key=names.get(o, o).casefold(),
                    )
                    for o, wdl in meetings.items()
                ),
                key=lambda h: (-h.games, h.sort_key, h.opponent.href),
            )
        )
        pages.append(
            HistoryPage(page, newest.name, tuple(rows), "-".join(str(c) for c in totals),
                        opponents)
        )
    return pages


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


def archive_page(reports: Sequence[EventReport]) -> ArchivePage:
    """Return the archive page: events by year (from each event's date), newest first."""
    page = frame(ARCHIVE, "Archive", "archive")
    years: dict[int, list[tuple[Link, str]]] = {}
    for event in newest_first([r.event for r in reports]):
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
