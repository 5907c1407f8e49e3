"""What the pages above events need of each event, small enough to keep for a whole archive.

The home page, season pages, the archive and player histories read every event. They
read an :class:`EventSummary`, not the event's full report (standings with every
tiebreak's breakdown, for every round): a summary is a few kilobytes, so an archive of a
thousand events fits in memory, a build can render events one at a time (or in worker
processes) and drop each report once its pages are written, and the build state
(:mod:`standgen.buildstate`) can keep the summaries of unchanged events between builds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from standgen.model import EventConfig, Outcome
from standgen.pipeline import EventReport
from standgen.site.charts import FactionResult, faction_results
from standgen.site.event_contexts import status_text
from standgen.site.i18n import Text
from standgen.site.stamp import note_text

_COLUMN = {Outcome.WIN: 0, Outcome.DRAW: 1, Outcome.LOSS: 2}


@dataclass(frozen=True)
class PlayerLine:
    """A player's part in one event: what their history page and the leaderboard show."""

    id: str
    name: str
    faction: str
    rank: int | None  # None for a spare (unranked) player
    score: float  # the sum of the player's points (as the history page shows it)
    counts: tuple[int, int, int]  # finished games won, drawn, lost
    # (opponent id, opponent's name in this event, 0 win / 1 draw / 2 loss), in round order
    meetings: tuple[tuple[str, str, int], ...]


@dataclass(frozen=True)
class EventSummary:
    """An event as the pages above events see it."""

    path: tuple[str, ...]
    config: EventConfig
    format_label: str
    status: Text  # "Finished: 5 of 5 rounds played." ... (event_contexts.status_text)
    note: Text  # what its pages include (stamp.note_text), in the language it is shown in
    field: int  # ranked players
    players: tuple[PlayerLine, ...]  # in players.csv order
    ranking: tuple[tuple[str, str, int], ...]  # (id, name, rank) in standings order
    factions: tuple[FactionResult, ...]  # faction results of the event's games

    def head(self) -> EventSummary:
        """Return the summary without its per-player parts: what home and archive read."""
        return replace(self, players=(), ranking=(), factions=())


def summarise(report: EventReport) -> EventSummary:
    """Return the summary of an event's report, as published (docs/privacy.md)."""
    report = report.public
    event, standings = report.event, report.standings
    ranks = {row.player.id: row.rank for row in standings.rows}
    names = {p.id: p.name for p in event.players}
    lines = []
    for player in event.players:
        record = standings.records.get(player.id)
        counts = [0, 0, 0]
        meetings: list[tuple[str, str, int]] = []
        for entry in record.entries if record is not None else ():
            column = _COLUMN[entry.outcome]
            counts[column] += 1
            meetings.extend((opponent, names.get(opponent, opponent), column)
                            for opponent in entry.opponents)
        lines.append(PlayerLine(
            id=player.id,
            name=player.name,
            faction=player.faction,
            rank=ranks.get(player.id),
            score=record.score if record is not None else 0.0,
            counts=(counts[0], counts[1], counts[2]),
            meetings=tuple(meetings),
        ))
    return EventSummary(
        path=event.path,
        config=event.config,
        format_label=standings.format.label,
        status=status_text(event, standings, report.proposal),
        note=note_text(report),
        field=len(standings.rows),
        players=tuple(lines),
        ranking=tuple((row.player.id, row.player.name, row.rank) for row in standings.rows),
        factions=faction_results([event]),
    )


def merged_factions(parts: Iterable[Sequence[FactionResult]]) -> tuple[FactionResult, ...]:
    """Return the faction results of several events together (the counts add up), ordered
    as :func:`~standgen.site.charts.faction_results` orders them."""
    totals: dict[str, list[int]] = {}
    for results in parts:
        for result in results:
            row = totals.setdefault(result.faction, [0, 0, 0, 0])
            row[0] += result.games
            row[1] += result.wins
            row[2] += result.draws
            row[3] += result.losses
    merged = [FactionResult(name, *row) for name, row in totals.items()]
    merged.sort(key=lambda r: (-r.games, r.faction.casefold(), r.faction))
    return tuple(merged)
