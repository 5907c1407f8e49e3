"""TRF-2026 team records (FIDE C.04 Annex 2, TRF-2026; docs/trf.md, "Team events"): a
team file read into a team-vs-team event's files, and nothing else of the format.

Read: ``310`` (a team: number 5-7, name 9-40, federation 42-46, then its players' start
ranks from 74, 5 columns each, in board order), ``362`` (``TW 2.0 TD 1.0 TL 0.0``: the
match points of a match won, drawn, lost), ``320`` (the pairing-allocated bye: its
match points 5-8, game points 10-13, then the bye team's number round by round, 4
columns a round from 14), ``330`` (a forfeited match: ``+-``, ``-+`` or ``--``, the
round, the white and the black team) and ``240`` (the byes teams asked for: ``F``,
``H`` or ``Z``, the round, the teams). The team matches of each round are the pairs of
teams whose players met, and the forfeited matches; a double forfeit (``--``) and a
requested bye are rows of ``teams-round-N.csv`` with their result; a team's players
without an opponent in a round sit out (a reserve), except the bye team's first
``size`` players, who get the bye's ``BYE`` rows, and a player with a board won by
forfeit (``0000 - +``: the other team fielded nobody there), who gets a ``BYE`` row
won (``1-0``).
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
    # 330 --: the double forfeits (neither team fielded anybody), round -> team pairs
    doubles: dict[int, list[tuple[int, int]]] | None = None
    # 240: the byes teams asked for, round -> (team number, F / H / Z)
    requested: dict[int, list[tuple[int, str]]] | None = None
    # 300: a team's line-up in a round, (round, team number) -> start ranks by board (0 an
    # empty board); the board order of its match
    lineups: dict[tuple[int, int], tuple[int, ...]] | None = None


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
    if parts[0] == "--":
        doubles = records.doubles if records.doubles is not None else {}
        doubles.setdefault(int(parts[1]), []).append((int(parts[2]), int(parts[3])))
        records.doubles = doubles
        return
    forfeits = records.forfeits if records.forfeits is not None else {}
    forfeits.setdefault(int(parts[1]), []).append((int(parts[2]), int(parts[3])))
    records.forfeits = forfeits


# TRF-2026's 240 bye codes -> a teams-round-N.csv bye row's result
REQUESTED_RESULTS = {"F": "1-0", "H": "draw", "Z": "0-1"}


def read_240(records: TeamRecords, line: str, bad: Bad) -> None:
    """Read ``240``, the byes teams asked for in a round: the bye (``F`` a full point,
    ``H`` half, ``Z`` none; column 5), the round (columns 7-9), then team numbers (4
    columns each, from column 11): ``240 H   2    7   39``."""
    code, rnd, teams = line[4:5].upper(), line[6:9].strip(), line[9:].split()
    if code not in REQUESTED_RESULTS or not rnd.isdigit() or not all(
            t.isdigit() for t in teams):
        bad(f"240 '{line[4:].strip()}' must be a bye (F, H or Z), a round and team numbers, "
            "such as 'H   2    7   39'")
        return
    requested = records.requested if records.requested is not None else {}
    requested.setdefault(int(rnd), []).extend((int(t), code) for t in teams if int(t))
    records.requested = requested


def read_300(records: TeamRecords, line: str, bad: Bad) -> None:
    """Read ``300``, a team's line-up in a round (TRF-2026): the round, the team, its
    opponent, then its players' start ranks by board, 0 for an empty board
    (``300   5  23   2   97   95  106    0``)."""
    parts = line[4:].split()
    if len(parts) < 4 or not all(p.isdigit() for p in parts):
        bad(f"300 '{line[4:].strip()}' must be a round, a team, its opponent and start "
            "ranks by board, such as '5  23   2   97   95  106    0'")
        return
    lineups = records.lineups if records.lineups is not None else {}
    lineups[(int(parts[0]), int(parts[1]))] = tuple(int(p) for p in parts[3:])
    records.lineups = lineups


TEAM_RECORDS: Mapping[str, Callable[[TeamRecords, str, Bad], None]] = {
    "240": read_240, "300": read_300, "310": read_310, "320": read_320, "330": read_330,
    "362": read_362}


def team_ids(teams: list[TrfTeam]) -> dict[int, str]:
    """Return a unique slug id per team number, from the names."""
    return unique_slugs(((t.number, t.name) for t in teams), "team", set(), width=40)


def teams_csv(teams: list[TrfTeam], ids: Mapping[int, str]) -> str:
    return render(["id", "name", "country"],
                  [[ids[t.number], t.name, t.federation] for t in teams], Form())


def _size(records: TeamRecords, round_rows: Mapping[int, tuple[list[list[str]],
                                                               list[list[str]]]],
          team_of: Mapping[str, str]) -> int:
    """Return the games of a match: the most players a team fielded in a round (the
    most a team has, when no game was played)."""
    fielded: dict[tuple[int, str], int] = {}
    for number, (games, _) in round_rows.items():
        for player in (p for g in games for p in g[:2] if p in team_of):
            key = (number, team_of[player])
            fielded[key] = fielded.get(key, 0) + 1
    return max(fielded.values(), default=0) or max(
        (len(t.players) for t in records.teams), default=0)


@dataclass(frozen=True)
class _Ids:
    """A team file's teams and players as the event's files name them."""

    team: Mapping[int, str]  # team number -> team id
    team_of: Mapping[str, str]  # player id -> team id
    board: Mapping[str, int]  # player id -> board order in the team (0 first)
    size: int  # the games of a match: the most players a team fielded in a round

    @classmethod
    def of(cls, records: TeamRecords, ids: Mapping[int, str],
           round_rows: Mapping[int, tuple[list[list[str]], list[list[str]]]]) -> _Ids:
        tids = team_ids(records.teams)
        members = [(ids[rank], tids[t.number], k) for t in records.teams
                   for k, rank in enumerate(t.players) if rank in ids]
        team_of = {player: team for player, team, _ in members}
        board = {player: k for player, _, k in members}
        return cls(tids, team_of, board, _size(records, round_rows, team_of))

    def pairs(self, records: Mapping[int, list[tuple[int, int]]] | None
              ) -> dict[int, list[tuple[str, str]]]:
        """Return round -> team id pairs of records given by team numbers."""
        return {rnd: [(self.team[a], self.team[b]) for a, b in pairs
                      if a in self.team and b in self.team]
                for rnd, pairs in (records or {}).items()}


def team_rounds(rows: Mapping[int, list[list[str]]], team_of: Mapping[str, str],
                pab: Mapping[int, str], forfeited: Mapping[int, list[tuple[str, str]]],
                settled: Mapping[int, list[tuple[str, str, str]]] | None = None,
                ) -> dict[int, list[tuple[str, str, str]]]:
    """Return each round's team matches (team_1, team_2, result; the bye ``(team, "",
    "")`` last) from its game rows ``[player_1, player_2, result]``: the pairs of teams
    whose players met, in table order, team_1 the team of the first game's White; then
    the round's forfeited matches (330 ``+-``, ``-+``); then the matches and byes whose
    result the team round gives (``settled``: 330 ``--``, 240)."""
    out: dict[int, list[tuple[str, str, str]]] = {}
    for number, games in rows.items():
        matches: list[tuple[str, str, str]] = []
        seen: set[frozenset[str]] = set()
        pairs = [(team_of[g[0]], team_of[g[1]]) for g in games if g[1] not in ("BYE", "ABSENT")]
        for pair in [*pairs, *forfeited.get(number, ())]:
            if frozenset(pair) not in seen:
                seen.add(frozenset(pair))
                matches.append((*pair, ""))
        busy = {team for pair in seen for team in pair} | {pab.get(number, "")}
        matches += _free((settled or {}).get(number, []), busy)
        if number in pab:
            matches.append((pab[number], "", ""))
        out[number] = matches
    return out


def _free(rows: list[tuple[str, str, str]], busy: set[str]) -> list[tuple[str, str, str]]:
    """Return the settled rows (a double forfeit, a requested bye) of teams not ``busy``
    in the round: a team paired or given the pairing's bye keeps its match or bye."""
    out = []
    for row in rows:
        if not busy & set(row[:2]) - {""}:
            busy.update(row[:2])
            out.append(row)
    return out


def team_of_ranks(records: TeamRecords) -> dict[int, str]:
    """Return each start rank's team id (players.csv's ``team`` column)."""
    tids = team_ids(records.teams)
    return {rank: tids[t.number] for t in records.teams for rank in t.players}


def _unpaired_rows(games: list[list[str]], alone: list[list[str]], names: _Ids,
                   bye: str, forfeited: list[tuple[str, str]]) -> list[list[str]]:
    """Return a round's rows of players without an opponent as a team event has them: the
    bye team's first ``size`` players' ``BYE`` rows, and a ``BYE`` row won (``1-0``) for
    each board won by forfeit in a team's match (``0000 - +``); reserves left out, and
    the players of a team with a bye it asked for or in a double forfeit."""
    sitting = sorted((row for row in alone if bye and names.team_of.get(row[0]) == bye),
                     key=lambda row: names.board[row[0]])[:names.size]
    return [*([row[0], "BYE", ""] for row in sitting),
            *([row[0], "BYE", "1-0"] for row in _won_boards(games, alone, names.team_of,
                                                            bye, forfeited))]


def _won_boards(games: list[list[str]], alone: list[list[str]], team_of: Mapping[str, str],
                bye: str, forfeited: list[tuple[str, str]]) -> list[list[str]]:
    """Return the rows of players who won a board by forfeit in their team's match."""
    playing = {team_of.get(p) for g in games for p in g[:2]}
    playing.update(t for pair in forfeited for t in pair)
    playing.discard(bye)
    return [row for row in alone if team_of.get(row[0]) in playing and row[2] == "1-0"]


def _settled(records: TeamRecords, names: _Ids) -> dict[int, list[tuple[str, str, str]]]:
    """Return round -> the team round rows whose result the file's team records give: the
    double forfeits (330 ``--``: result ``--``) and the byes teams asked for (240)."""
    out: dict[int, list[tuple[str, str, str]]] = {}
    for rnd, pairs in names.pairs(records.doubles).items():
        out.setdefault(rnd, []).extend((a, b, "--") for a, b in pairs)
    for rnd, byes in (records.requested or {}).items():
        out.setdefault(rnd, []).extend((names.team[n], "", REQUESTED_RESULTS[code])
                                       for n, code in byes if n in names.team)
    return out


def team_files(records: TeamRecords, files: Mapping[str, str],
               round_rows: dict[int, tuple[list[list[str]], list[list[str]]]],
               ids: Mapping[int, str]) -> dict[str, str]:
    """Return the files a team file adds or changes: teams.csv, event.toml with
    ``[teams]``, each ``teams-round-N.csv`` (players.csv's ``team`` column:
    :func:`team_of_ranks`); the round rows of players without an opponent
    (``round_rows``' second lists) are made the bye team's ``BYE`` rows and the boards
    won by forfeit, the others (reserves sitting out, a team's requested bye, a double
    forfeit) left out (:func:`_unpaired_rows`)."""
    names = _Ids.of(records, ids, round_rows)
    pab = {rnd: names.team[n] for rnd, n in (records.pab or {}).items() if n in names.team}
    forfeited = names.pairs(records.forfeits)
    for number, (games, alone) in round_rows.items():
        alone[:] = _unpaired_rows(games, alone, names, pab.get(number, ""),
                                  forfeited.get(number, []))
    out = {"teams.csv": teams_csv(records.teams, names.team)}
    matches = team_rounds({n: games for n, (games, _) in round_rows.items()},
                          names.team_of, pab, forfeited, _settled(records, names))
    for number, rows in matches.items():
        if number in round_rows:
            _by_boards(round_rows[number], rows, names, _lineups(records, names, ids,
                                                                 number))
        out[f"teams-round-{number}.csv"] = team_round_csv(TeamRound(number, tuple(
            TeamMatch(k, a, b, result=r) for k, (a, b, r) in enumerate(rows, start=1))))
    following = max(round_rows, default=0) + 1
    asked = [(names.team[n], "", REQUESTED_RESULTS[code])
             for n, code in (records.requested or {}).get(following, ()) if n in names.team]
    if asked:  # byes asked for the round not paired yet: pair completes the file
        out[f"teams-round-{following}.csv"] = team_round_csv(TeamRound(following, tuple(
            TeamMatch(k, a, b, result=r) for k, (a, b, r) in enumerate(asked, start=1))))
    out["event.toml"] = _teams_toml(records, files["event.toml"], names.size)
    return out


def _lineups(records: TeamRecords, names: _Ids, ids: Mapping[int, str], number: int
             ) -> dict[str, list[str]]:
    """Return round ``number``'s ``300`` line-ups: team id -> player ids by board ("" an
    empty board)."""
    return {names.team[team]: [ids.get(rank, "") for rank in ranks]
            for (rnd, team), ranks in (records.lineups or {}).items()
            if rnd == number and team in names.team}


def _by_boards(rows: tuple[list[list[str]], list[list[str]]],
               matches: list[tuple[str, str, str]], names: _Ids,
               lineups: Mapping[str, list[str]]) -> None:
    """Put a round's rows in board order, match after match (``rows``: its games and its
    rows without an opponent, rewritten in place: each match's games and boards won by
    forfeit first, then the rest): the order of a team's ``300`` line-up when the file
    has one for either team, else of ``team_1``'s players in its ``310`` line, as
    TieBreakServer orders a match's boards."""
    games, alone = rows
    left = games + alone
    ordered: list[list[str]] = []
    for first, second, result in matches:
        if not second or result:
            continue
        mine = [r for r in left if _row_teams(r, names) <= {first, second}]
        ordered += _match_boards(mine, first, second, names, lineups)
        left = [r for r in left if all(r is not m for m in mine)]
    games[:] = ordered
    alone[:] = left


def _row_teams(row: list[str], names: _Ids) -> set[str | None]:
    """Return the teams of a round row's players (a BYE row: its player's)."""
    return {names.team_of.get(p) for p in row[:2] if p != "BYE"}


def _match_boards(rows: list[list[str]], first: str, second: str, names: _Ids,
                  lineups: Mapping[str, list[str]]) -> list[list[str]]:
    """Return one match's rows by board (see :func:`_by_boards`)."""
    team, other = (second, first) if second in lineups and first not in lineups else (
        first, second)

    def player(row: list[str], side: str) -> str:
        return next((p for p in row[:2] if names.team_of.get(p) == side), "")

    own = sorted((r for r in rows if player(r, team)),
                 key=lambda r: names.board.get(player(r, team), 0))
    others = sorted((r for r in rows if not player(r, team)),
                    key=lambda r: names.board.get(player(r, other), 0))
    line = lineups.get(team)
    if line is None:
        return own + others
    out: list[list[str]] = []
    for member in line:
        found = next((r for r in own if player(r, team) == member), None) if member else (
            others.pop(0) if others else None)
        if found is not None:
            out.append(found)
    return out + [r for r in own if r not in out] + others


def _teams_toml(records: TeamRecords, toml: str, size: int) -> str:
    """Return event.toml with the team file's ``[teams]`` (and the team bye's points)."""
    if records.pab_game_points is not None and size and "bye_points" not in toml:
        toml = toml.replace("[options]\n", f"[options]\nbye_points = "
                            f"{records.pab_game_points / size}\n", 1)
    toml += f"\n[teams]\nmatches = true\nsize = {size}\n"
    if records.match_points is not None and records.match_points != (2.0, 1.0, 0.0):
        toml += "match_points = [" + ", ".join(str(v) for v in records.match_points) + "]\n"
    return toml
