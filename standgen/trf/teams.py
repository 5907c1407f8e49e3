"""TRF-2026 team records (FIDE C.04 Annex 2, TRF-2026; docs/trf.md, "Team events"): a
team file read into a team-vs-team event's files, and nothing else of the format.

Read: ``310`` (a team: number 5-7, name 9-40, federation 42-46, then its players' start
ranks from 74, 5 columns each, in board order), ``362`` (``TW 2.0 TD 1.0 TL 0.0``: the
match points of a match won, drawn, lost) and ``320`` (the pairing-allocated bye: its
match points 5-8, game points 10-13, then the bye team's number round by round, 4
columns a round from 14) and ``330`` (a forfeited match: ``+-``, ``-+`` or ``--``, the
round, the white and the black team). The team matches of each round are the pairs of
teams whose players met, and the forfeited matches; a team's players without an opponent
in a round sit out (a reserve), except the bye team's first ``size`` players, who get the
bye's ``BYE`` rows, and a player with a board won by forfeit (``0000 - +``: the other
team fielded nobody there), who gets a ``BYE`` row won (``1-0``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from standgen.load.files import unique_slugs
from standgen.model import TeamMatch, TeamRound
from standgen.roundfile import Form, render, team_round_csv

Bad = Callable[[str], None]


@dataclass(frozen=True)
class TrfTeam:
    """One ``310`` line."""

    number: int
    name: str
    federation: str
    players: tuple[int, ...]  # start ranks in board order


@dataclass
class TeamRecords:
    """The team records of a file as read (one parse)."""

    teams: list[TrfTeam]
    match_points: tuple[float, float, float] | None = None
    pab_game_points: float | None = None
    pab: dict[int, int] | None = None  # round -> the bye team's number
    # 330: the forfeited matches, round -> (white team, black team) numbers; the winner's
    # boards are its players' "0000 - +" (a board won by forfeit)
    forfeits: dict[int, list[tuple[int, int]]] | None = None


def read_310(records: TeamRecords, line: str, bad: Bad) -> None:
    """Read a ``310`` line into ``records``."""
    number = line[4:7].strip()
    if not number.isdigit() or int(number) < 1:
        bad(f"310: team number '{number}' (columns 5-7) must be a number from 1")
        return
    players = []
    for start in range(73, len(line), 5):
        cell = line[start:start + 4].strip()
        if cell and not cell.isdigit():
            bad(f"310: start rank '{cell}' (columns {start + 1}-{start + 4}) must be a "
                "number")
            return
        if cell and int(cell):
            players.append(int(cell))
    records.teams.append(TrfTeam(int(number), line[8:40].strip() or f"Team {number}",
                                 line[41:46].strip(), tuple(players)))


def read_362(records: TeamRecords, rest: str, bad: Bad) -> None:
    """Read ``362``: the match points of a match won (TW), drawn (TD), lost (TL)."""
    found = dict(re.findall(r"\b(T[WDL])\s+([0-9]+(?:\.[0-9]+)?)", rest.upper()))
    if set(found) != {"TW", "TD", "TL"}:
        bad(f"362 '{rest}' must give TW, TD and TL, such as 'TW 2.0   TD 1.0   TL 0.0'")
        return
    records.match_points = (float(found["TW"]), float(found["TD"]), float(found["TL"]))


def read_320(records: TeamRecords, line: str, bad: Bad) -> None:
    """Read ``320``: the team bye's game points and the bye team of each round."""
    try:
        records.pab_game_points = float(line[9:13])
    except ValueError:
        bad(f"320: game points '{line[9:13].strip()}' (columns 10-13) must be a number")
        return
    records.pab = {}
    for k, start in enumerate(range(13, len(line), 4), start=1):
        cell = line[start:start + 4].strip()
        if cell.isdigit() and int(cell):
            records.pab[k] = int(cell)


def read_330(records: TeamRecords, line: str, bad: Bad) -> None:
    """Read ``330``, a forfeited match: result (``+-``, ``-+``, ``--``), round, the white
    and the black team's numbers (``330 +-   4  23  33``)."""
    parts = line[4:].split()
    if len(parts) != 4 or parts[0] not in ("+-", "-+", "--") or not all(
            p.isdigit() for p in parts[1:]):
        bad(f"330 '{line[4:].strip()}' must be a forfeit (+-, -+ or --), a round and two "
            "team numbers, such as '+-   4  23  33'")
        return
    forfeits = records.forfeits if records.forfeits is not None else {}
    forfeits.setdefault(int(parts[1]), []).append((int(parts[2]), int(parts[3])))
    records.forfeits = forfeits


TEAM_RECORDS: Mapping[str, Callable[[TeamRecords, str, Bad], None]] = {
    "310": read_310, "320": read_320, "330": read_330, "362": read_362}


def team_ids(teams: list[TrfTeam]) -> dict[int, str]:
    """Return a unique slug id per team number, from the names."""
    return unique_slugs(((t.number, t.name) for t in teams), "team", set(), width=40)


def teams_csv(teams: list[TrfTeam], ids: Mapping[int, str]) -> str:
    return render(["id", "name", "country"],
                  [[ids[t.number], t.name, t.federation] for t in teams], Form())


def team_rounds(rows: Mapping[int, list[list[str]]], team_of: Mapping[str, str],
                pab: Mapping[int, str], forfeited: Mapping[int, list[tuple[str, str]]]
                ) -> dict[int, list[tuple[str, str]]]:
    """Return each round's team matches (team_1, team_2; the bye ``(team, "")`` last)
    from its game rows ``[player_1, player_2, result]``: the pairs of teams whose
    players met, in table order, team_1 the team of the first game's White; then the
    round's forfeited matches (330)."""
    out: dict[int, list[tuple[str, str]]] = {}
    for number, games in rows.items():
        matches: list[tuple[str, str]] = []
        seen: set[frozenset[str]] = set()
        pairs = [(team_of[g[0]], team_of[g[1]]) for g in games if g[1] not in ("BYE", "ABSENT")]
        for pair in [*pairs, *forfeited.get(number, ())]:
            if frozenset(pair) not in seen:
                seen.add(frozenset(pair))
                matches.append(pair)
        if number in pab:
            matches.append((pab[number], ""))
        out[number] = matches
    return out


def team_of_ranks(records: TeamRecords) -> dict[int, str]:
    """Return each start rank's team id (players.csv's ``team`` column)."""
    tids = team_ids(records.teams)
    return {rank: tids[t.number] for t in records.teams for rank in t.players}


def _unpaired_rows(games: list[list[str]], alone: list[list[str]],
                   team_of: Mapping[str, str], board: Mapping[str, int], size: int,
                   bye: str, forfeited: list[tuple[str, str]]) -> list[list[str]]:
    """Return a round's rows of players without an opponent as a team event has them: the
    bye team's first ``size`` players' ``BYE`` rows, and a ``BYE`` row won (``1-0``) for
    each board won by forfeit in a team's match (``0000 - +``); reserves left out."""
    sitting = sorted((row for row in alone if bye and team_of.get(row[0]) == bye),
                     key=lambda row: board[row[0]])[:size]
    return [*([row[0], "BYE", ""] for row in sitting),
            *([row[0], "BYE", "1-0"] for row in _won_boards(games, alone, team_of, bye,
                                                            forfeited))]


def _won_boards(games: list[list[str]], alone: list[list[str]], team_of: Mapping[str, str],
                bye: str, forfeited: list[tuple[str, str]]) -> list[list[str]]:
    """Return the rows of players who won a board by forfeit in their team's match."""
    playing = {team_of.get(p) for g in games for p in g[:2]}
    playing.update(t for pair in forfeited for t in pair)
    playing.discard(bye)
    return [row for row in alone if team_of.get(row[0]) in playing and row[2] == "1-0"]


def team_files(records: TeamRecords, files: Mapping[str, str],
               round_rows: dict[int, tuple[list[list[str]], list[list[str]]]],
               ids: Mapping[int, str]) -> dict[str, str]:
    """Return the files a team file adds or changes: teams.csv, event.toml with
    ``[teams]``, each ``teams-round-N.csv`` (players.csv's ``team`` column:
    :func:`team_of_ranks`); the round
    rows of players without an opponent (``round_rows``' second lists) are made the bye
    team's ``BYE`` rows and the boards won by forfeit, the others (reserves sitting out)
    left out (:func:`_unpaired_rows`)."""
    tids = team_ids(records.teams)
    team_of = {ids[rank]: tids[t.number] for t in records.teams for rank in t.players
               if rank in ids}
    board = {ids[rank]: k for t in records.teams for k, rank in enumerate(t.players)
             if rank in ids}
    size = max((sum(1 for g in games for p in g[:2] if team_of.get(p) == team)
                for games, _ in round_rows.values() for team in set(team_of.values())),
               default=0) or max((len(t.players) for t in records.teams), default=0)
    pab = {rnd: tids[n] for rnd, n in (records.pab or {}).items() if n in tids}
    forfeited = {rnd: [(tids[a], tids[b]) for a, b in pairs if a in tids and b in tids]
                 for rnd, pairs in (records.forfeits or {}).items()}
    for number, (games, alone) in round_rows.items():
        alone[:] = _unpaired_rows(games, alone, team_of, board, size, pab.get(number, ""),
                                  forfeited.get(number, []))
    out = {"teams.csv": teams_csv(records.teams, tids)}
    matches = team_rounds({n: games for n, (games, _) in round_rows.items()}, team_of, pab,
                          forfeited)
    for number, pairs in matches.items():
        out[f"teams-round-{number}.csv"] = team_round_csv(TeamRound(number, tuple(
            TeamMatch(k, a, b) for k, (a, b) in enumerate(pairs, start=1))))
    toml = files["event.toml"]
    if records.pab_game_points is not None and size and "bye_points" not in toml:
        toml = toml.replace("[options]\n", f"[options]\nbye_points = "
                            f"{records.pab_game_points / size}\n", 1)
    toml += f"\n[teams]\nmatches = true\nsize = {size}\n"
    if records.match_points is not None and records.match_points != (2.0, 1.0, 0.0):
        toml += "match_points = [" + ", ".join(str(v) for v in records.match_points) + "]\n"
    out["event.toml"] = toml
    return out
