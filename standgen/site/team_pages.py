"""The page of each team of a team-vs-team event (docs/teams.md, "Team matches"): its
roster and each match with each board; the ``team`` page type of the registry."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import standgen.site.links as links
from standgen.pipeline import EventReport
from standgen.site.contexts import Frame, Link, Site, shown_names_of
from standgen.site.event_contexts import event_frame
from standgen.site.jsonout import listed
from standgen.site.numbers import display_number
from standgen.site.team_matches import MatchView, match_views, team_page_path
from standgen.standings import format_of
from standgen.teams.matches import team_match_standings


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
    wins: str
    record: str
    roster: tuple[RosterRow, ...]
    unlisted: int
    matches: tuple[MatchView, ...]


def team_pages(site: Site, report: EventReport) -> Iterator[tuple[str, TeamPage]]:
    """Yield the page of each team of a team event (none for any other event)."""
    event = report.event
    if not event.config.teams.matches:
        return
    stat_ids = tuple(s.id for s in format_of(event).stats)
    standing = {row.team.id: row for row in team_match_standings(event, stat_ids)}
    names = shown_names_of(event)
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
            wins=display_number(row.wins) if row else "0",
            record="-".join(str(n) for n in row.record) if row else "0-0-0",
            roster=tuple(RosterRow(Link(names[p.id], page.href(links.player_page(event, p.id))),
                                   p.faction) for p in members if listed(p, event)),
            unlisted=sum(1 for p in members if not listed(p, event)),
            matches=match_views(report, page, team=team.id))
