"""teams-round-N.csv: the team matches of a team event's round (docs/teams.md, "Team
matches"; data contract section 1).

``standgen pair`` writes the file (:func:`standgen.roundfile.write_team_round`) before
the captains draft the games; the loader reads it here, with the tolerant reading of
every CSV file (:func:`standgen.load.files.read_csv`). Columns: ``match`` (1, 2, ...),
``team_1``, ``team_2`` (a team's id or name; ``team_2`` empty for a team bye), and the
optional ``result``: on a bye row a bye the team asked for (``1-0`` a full point,
``draw`` half, ``0-1`` none: TRF-2026's 240), on a match row ``--``, a double forfeit.
Every problem names the line and says what to do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from standgen.errors import Problem
from standgen.load.files import display, parse_int, read_csv, suggest
from standgen.model import Outcome, Source, Team, TeamMatch, TeamRound
from standgen.results import UNPLAYED_RESULTS, normalise_result
from standgen.teams.matches import DOUBLE_FORFEIT

REQUIRED = ("match", "team_1", "team_2")
OPTIONAL = ("result",)


def team_round_name(number: int) -> str:
    """Return the file name of round ``number``'s team matches (the one place that
    spells it besides the loader's pattern)."""
    return f"teams-round-{number}.csv"


def load_team_round(
    path: Path, number: int, teams: Sequence[Team], problems: list[Problem],
) -> TeamRound | None:
    """Return ``teams-round-N.csv`` as a TeamRound, or None after recording its problems:
    an unknown team, a team matched twice, a team against itself, a match number used
    twice, more than one team bye."""
    table = read_csv(path, REQUIRED, OPTIONAL, problems)
    if table is None:
        return None
    _, rows = table
    where = display(path)
    start = len(problems)
    by_id = {t.id: t for t in teams}
    by_name = {t.name.casefold(): t for t in teams}
    seen: dict[str, int] = {}
    numbers: dict[int, int] = {}
    byes: list[int] = []
    matches: list[TeamMatch] = []

    def bad(line: int, message: str) -> None:
        problems.append(Problem(where, line, message))

    def team_of(cell: str, column: str, line: int) -> str:
        team = by_id.get(cell) or by_name.get(cell.casefold())
        if team is None:
            near = suggest(cell, [*by_id, *(t.name for t in teams)])
            bad(line, f"{column} '{cell}' is no team of this event{near}; write a team id "
                "of teams.csv (or a team name of players.csv's team column)")
            return ""
        if seen.get(team.id, line) != line:  # the same line: matched against itself, below
            bad(line, f"team '{team.id}' is already matched on line {seen[team.id]}; a team "
                "plays one match a round")
        seen.setdefault(team.id, line)
        return team.id

    for row in rows:
        match = parse_int(row.get("match"))
        if match is None or match < 1:
            bad(row.line, f"match '{row.get('match')}' must be a whole number of 1 or more")
            continue
        if match in numbers:
            bad(row.line, f"match {match} is already on line {numbers[match]}; number each "
                "match once")
        numbers.setdefault(match, row.line)
        if not row.get("team_1"):
            bad(row.line, "team_1 is empty; put a team id there (a team bye leaves team_2 "
                "empty)")
            continue
        one = team_of(row.get("team_1"), "team_1", row.line)
        two = team_of(row.get("team_2"), "team_2", row.line) if row.get("team_2") else ""
        result = _result(row.get("result") or "", bool(two), row.line, bad)
        if not row.get("team_2") and not result:
            byes.append(row.line)
        if one and one == two:
            bad(row.line, f"team '{one}' is matched against itself; name two teams")
        matches.append(TeamMatch(match, one, two, Source(where, row.line), result))
    if len(byes) > 1:
        bad(byes[1], f"a second team bye (the first is on line {byes[0]}); a round has at "
            "most one: match the two teams with each other (a bye a team asked for has "
            "its result: 1-0, draw or 0-1)")
    if not rows:
        bad(1, "teams-round file has no matches; add one row per match or remove the file")
    if len(problems) > start:
        return None
    return TeamRound(number, tuple(sorted(matches, key=lambda m: m.number)), Source(where))


def _result(cell: str, match: bool, line: int, bad: Callable[[int, str], None]) -> str:
    """Return a row's ``result`` cell in its canonical spelling, or "" after recording
    what is wrong: a match row takes ``--`` (a double forfeit: neither team fielded
    anybody), a bye row ``1-0``, ``draw`` or ``0-1`` (a bye the team asked for)."""
    if not cell:
        return ""
    code = normalise_result(cell)
    if match and code == DOUBLE_FORFEIT:
        return code
    if not match and code in UNPLAYED_RESULTS:
        return "draw" if UNPLAYED_RESULTS[code] is Outcome.DRAW else code
    what = ("'--' (both teams forfeited the match), or nothing: the games go in the round "
            "file" if match else "1-0 (a full-point bye), draw (half a point), 0-1 (none), "
            "or nothing (the pairing's team bye)")
    bad(line, f"result '{cell}' must be {what}")
    return ""
