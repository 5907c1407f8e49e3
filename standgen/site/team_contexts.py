"""The teams table of an event page and the ``"teams"`` rows of standings.json
(docs/teams.md): the team standings of :mod:`standgen.teams`, formatted; standings.json's
``"teams"`` is :func:`standgen.site.jsonout.teams_document`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import standgen.site.links as links
from standgen.site.contexts import Frame, Link
from standgen.site.jsonout import listed
from standgen.site.numbers import display_number
from standgen.standings import Standings
from standgen.teams import team_standings


@dataclass(frozen=True)
class TeamMember:
    """One member on a team's row: their page, score, and whether it counts."""

    player: Link
    score: str
    counted: bool


@dataclass(frozen=True)
class TeamRow:
    """One row of the teams table, every value formatted."""

    rank: int
    name: str
    score: str
    all: str  # the sum over every member (the first tiebreak)
    members: tuple[TeamMember, ...]  # best placed first, those published in full
    unlisted: int = 0  # members not published in full: counted, never named


def team_rows(standings: Standings, page: Frame,
              names: Mapping[str, str]) -> tuple[TeamRow, ...]:
    """Return the teams table of an event page; () for an event without teams.
    ``names`` are the players' names as the site shows them."""
    event = standings.event
    rows = []
    for team in team_standings(standings):
        counted = {row.player.id for row in team.counted}
        rows.append(TeamRow(
            rank=team.rank, name=team.team.name, score=display_number(team.score),
            all=display_number(team.all),
            members=tuple(TeamMember(
                Link(names[row.player.id],
                     page.href(links.player_page(event, row.player.id))),
                display_number(row.score), row.player.id in counted)
                for row in team.members if listed(row.player, event)),
            unlisted=sum(1 for row in team.members if not listed(row.player, event))))
    return tuple(rows)
