"""The page of each team of a team-vs-team event (docs/teams.md, "Team matches"): its
roster and each match with each board; the ``team`` page type of the registry."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import standgen.site.links as links
from standgen.model import Event
from standgen.pipeline import EventReport
from standgen.site.contexts import Frame, Link, Site, shown_names_of
from standgen.site.event_contexts import event_frame
from standgen.site.jsonout import listed
from standgen.site.numbers import display_number
from standgen.site.team_matches import (
    MatchView,
    TeamColumn,
    event_team_standings,
    match_views,
    score_column,
    team_columns,
    team_page_path,
)
from standgen.standings import format_of
from standgen.teams.matches import match_results
from standgen.teams.ranking import TeamRow, TeamStandings
from standgen.teams.tiebreaks import TEAM_TIEBREAKS, team_table


@dataclass(frozen=True)
class RosterRow:
    """A member of a team on its page."""

    player: Link
    faction: str


@dataclass(frozen=True)
class TeamPage:
    """A team's page in a team event: roster and matches."""

    frame: Frame
    event_name: str
    event_href: str
    name: str
    country: str
    rank: int
    wins: str  # the score: Wins, or a chess team event's match points
    record: str
    roster: tuple[RosterRow, ...]
    unlisted: int
    matches: tuple[MatchView, ...]
    # the team's tiebreaks explained: (short, title, value, how it is summed)
    tiebreaks: tuple[tuple[str, str, str, str], ...] = ()
    score: TeamColumn = TeamColumn("", "")  # the score's heading: Wins, or MP


def _explained_c07(event: Event, team: str, standings: TeamStandings,
                   columns: tuple[TeamColumn, ...]) -> tuple[tuple[str, str, str, str], ...]:
    """Return a chess team's C.07 tie-breaks with each sum's terms, round by round
    (BH:MP 2 + 4 = 6; EMGSB 2 × 3 + 4 × 2.5 = 16); DE without terms."""
    row = next((r for r in standings.rows if r.team.id == team), None)
    if row is None:
        return ()
    table = team_table(event)
    out = []
    for column, tid, value in zip(columns, standings.ids, row.values, strict=True):
        terms = TEAM_TIEBREAKS[tid].terms
        out.append((column.short, column.label, display_number(value),
                    _summed(terms(table, team) if terms is not None else ())))
    return tuple(out)


def _summed(parts: tuple[tuple[float, ...], ...]) -> str:
    """Return a sum's terms as a team's page shows them (``2 × 1 + 2 × 3``); "" for a
    single plain term (nothing to explain)."""
    if len(parts) < 2 and all(len(t) < 2 for t in parts):
        return ""
    return " + ".join(" × ".join(display_number(f) for f in term) for term in parts)


def _explained(event: Event, team: str, standing: Mapping[str, TeamRow],
               columns: tuple[TeamColumn, ...]) -> tuple[tuple[str, str, str, str], ...]:
    """Return the team's tiebreaks with how each is summed: SoS as each opponent's Wins
    (1 + 2 = 3), the others as each finished match's share (3 + 2 = 5)."""
    row = standing.get(team)
    if row is None:
        return ()
    sos: list[float] = []
    own: list[list[float]] = [[] for _ in columns[1:]]
    stat_ids = tuple(s.id for s in format_of(event).stats)
    for result in match_results(event):
        if not result.finished or team not in (result.match.team_1, result.match.team_2):
            continue
        side = result.side_of(team)
        other = result.match.team_2 if side == 1 else result.match.team_1
        if other:
            sos.append(standing[other].score if other in standing else 0.0)
        stats = result.stats_1 if side == 1 else result.stats_2
        values = (result.points_1 if side == 1 else result.points_2,
                  *(stats.get(s, 0.0) for s in stat_ids))
        for k, value in enumerate(values):
            own[k].append(value)
    parts = [sos, *own]
    return tuple((c.short, c.label, display_number(v), " + ".join(
        display_number(x) for x in part) if len(part) > 1 else "")
        for c, v, part in zip(columns, row.values, parts, strict=True))


def team_pages(site: Site, report: EventReport) -> Iterator[tuple[str, TeamPage]]:
    """Yield the page of each team of a team event (none for any other event)."""
    event = report.event
    if not event.config.teams.matches:
        return
    standings = event_team_standings(event)
    standing = {row.team.id: row for row in standings.rows}
    names = shown_names_of(event)
    columns = team_columns(event, standings)
    for team in event.teams:
        path = team_page_path(event, team.id)
        page = event_frame(site, report, path, f"{team.name} · {event.config.name}", "team",
                           site.event_crumbs(event))
        members = [p for p in event.players if p.team == team.id]
        row = standing.get(team.id)
        yield path, TeamPage(
            frame=page, event_name=event.config.name,
            event_href=page.href(links.event_page(event)), name=team.name,
            country=team.country, rank=row.rank if row else 0,
            wins=display_number(row.score) if row else "0",
            record="-".join(str(n) for n in row.record) if row else "0-0-0",
            roster=tuple(RosterRow(Link(names[p.id], page.href(links.player_page(event, p.id))),
                                   p.faction) for p in members if listed(p, event)),
            unlisted=sum(1 for p in members if not listed(p, event)),
            matches=match_views(report, page, team=team.id),
            tiebreaks=(_explained_c07(event, team.id, standings, columns)
                       if standings.by_match_points
                       else _explained(event, team.id, standing, columns)),
            score=score_column(standings, event))
