"""teams.csv and players.csv's ``team`` column: an event's teams (docs/teams.md).

A player's ``team`` cell names their team. With a ``teams.csv`` (``id,name`` and
optionally ``country``, ``captain``), the cell is a team's id or its name (any case);
without one, the cell is the team's name as the site shows it, and its id is the name
made a slug (``"Drużyna Wrocław"`` -> ``druzyna-wroclaw``), so a TO can type team names
straight into players.csv. Every problem names the line and says what to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from standgen.errors import Problem
from standgen.load.files import SLUG, display, read_csv, slugify, suggest
from standgen.model import Player, Source, Team

COLUMNS = ("id", "name", "country", "captain")
# letters Unicode does not decompose to a plain letter and an accent
_PLAIN = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D",
                        "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th",
                        "Þ": "Th", "ı": "i", "ð": "d", "Ð": "D"})


def team_slug(name: str) -> str:
    """Return the id a team name gives without teams.csv: ``"Drużyna Łódź"`` ->
    ``druzyna-lodz`` (accents dropped, at most 64 characters); "" when no letter or digit
    of the Latin alphabet is left."""
    return slugify(name.translate(_PLAIN))[:64].strip("-")


def load_teams(path: Path, problems: list[Problem]) -> tuple[Team, ...] | None:
    """Return the teams of ``teams.csv``, or None if the file cannot be used."""
    table = read_csv(path, ("id", "name"), COLUMNS, problems)
    if table is None:
        return None
    _, rows = table
    where = display(path)
    teams: list[Team] = []
    seen: dict[str, int] = {}
    names: dict[str, int] = {}
    start = len(problems)
    for row in rows:
        tid, name = row.get("id"), row.get("name")
        if not SLUG.match(tid) or len(tid) > 64:
            problems.append(Problem(where, row.line, f"team id '{tid}' must be a slug: "
                                    "lower-case letters, digits and hyphens (e.g. "
                                    f"'{team_slug(name) or 'team-1'}')"))
        elif tid in seen:
            problems.append(Problem(where, row.line, f"team id '{tid}' is already used on "
                                    f"line {seen[tid]}; team ids must be unique"))
        if not name:
            problems.append(Problem(where, row.line, f"team '{tid}' has no name; fill in "
                                    "the 'name' column"))
        elif name.casefold() in names:
            problems.append(Problem(where, row.line, f"team name '{name}' is already used "
                                    f"on line {names[name.casefold()]}; give each team its "
                                    "own name"))
        seen.setdefault(tid, row.line)
        names.setdefault(name.casefold(), row.line)
        teams.append(Team(tid, name, row.get("country"), row.get("captain"),
                          Source(where, row.line)))
    if len(problems) > start:
        return None
    return tuple(teams)


def resolve_teams(
    players: Sequence[Player], teams: Sequence[Team] | None, problems: list[Problem],
) -> tuple[tuple[Player, ...], tuple[Team, ...]]:
    """Return the players with their ``team`` cell made a team id, and the event's teams
    (teams.csv's, in its order; else one per team name, in order of first mention).
    ``teams`` is None when the event has no teams.csv."""
    if teams is None:
        return _teams_from_names(players, problems)
    by_id = {t.id: t for t in teams}
    by_name = {t.name.casefold(): t for t in teams}
    out: list[Player] = []
    for player in players:
        cell = player.team
        if not cell:
            out.append(player)
            continue
        team = by_id.get(cell) or by_name.get(cell.casefold())
        if team is None:
            near = suggest(cell, [*by_id, *(t.name for t in teams)])
            problems.append(Problem(player.source.path, player.source.line,
                                    f"team '{cell}' is not in teams.csv{near}; add a row for "
                                    "it to teams.csv or correct the 'team' cell"))
            out.append(replace(player, team=""))
            continue
        out.append(replace(player, team=team.id))
    ids = {p.id for p in players}
    for team in teams:
        if team.captain and team.captain not in ids:
            problems.append(Problem(team.source.path, team.source.line, f"captain "
                                    f"'{team.captain}' of team '{team.id}' is no player id in "
                                    "players.csv; write the captain's id or leave it empty"))
    return tuple(out), tuple(teams)


def _teams_from_names(
    players: Sequence[Player], problems: list[Problem],
) -> tuple[tuple[Player, ...], tuple[Team, ...]]:
    """Return the players and the teams their ``team`` cells name (no teams.csv)."""
    found: dict[str, Team] = {}
    out: list[Player] = []
    for player in players:
        cell = player.team
        if not cell:
            out.append(player)
            continue
        tid = team_slug(cell)
        if not tid or not SLUG.match(tid):
            problems.append(Problem(player.source.path, player.source.line,
                                    f"team '{cell}' gives no web address (a slug); add "
                                    "teams.csv with a row 'id,name' for it, e.g. "
                                    f"'team-1,{cell}', and write the id or the name here"))
            out.append(replace(player, team=""))
            continue
        known = found.get(tid)
        if known is not None and known.name.casefold() != cell.casefold():
            problems.append(Problem(player.source.path, player.source.line,
                                    f"team '{cell}' and team '{known.name}' "
                                    f"({known.source}) both make the address '{tid}'; write "
                                    "one name the same way on every row, or add teams.csv "
                                    "with an id for each"))
            out.append(replace(player, team=""))
            continue
        if known is None:
            found[tid] = Team(tid, cell, source=player.source)
        out.append(replace(player, team=tid))
    return tuple(out), tuple(found.values())
