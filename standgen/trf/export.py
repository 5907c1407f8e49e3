"""Writing a TRF16 file of an event (FIDE Handbook C.04 Annex 2, with the JaVaFo /
bbpPairings extensions ``XXR``, ``XXC``, ``XXS PAB=``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from standgen import perf
from standgen.model import Event, Game, GameKind, Outcome, Player
from standgen.pairing import acceleration
from standgen.pairing.common import ALL_ROUNDS, forbidden_entries, team_entries
from standgen.pairing.dutch_swiss import virtual_points
from standgen.pairing.swiss import initial_colour, start_ranks
from standgen.records import counted_rounds
from standgen.standings import Standing, Standings, compute_standings, format_of
from standgen.teams.matches import match_results
from standgen.teams.pairing import pending
from standgen.teams.ranking import team_standings
from standgen.teams.tiebreaks import team_table
from standgen.trf.read import NEWLINE, ROUND_ROBIN_TYPE, SWISS_TYPE

if TYPE_CHECKING:
    from standgen.pipeline import EventReport

def _put(line: list[str], first: int, last: int, text: str, right: bool = False) -> None:
    """Write ``text`` into 1-based columns ``first..last`` of ``line`` (TRF16 positions)."""
    width = last - first + 1
    text = text[:width]
    text = text.rjust(width) if right else text.ljust(width)
    line[first - 1:last] = list(text)


def _number(value: float) -> str:
    return f"{value:.1f}"


def round_block(game: Game | None, player: str, ranks: Mapping[str, int]
                ) -> tuple[str, str, str]:
    """Return one round's (opponent, colour, result) for ``player``; TRF16 positions 92-99.

    Played: ``1`` / ``=`` / ``0``; forfeit: ``+`` / ``-``; pairing-allocated bye ``U``
    (``H`` or ``Z`` if it was scored as a draw or nothing); absent: ``F`` full-point,
    ``H`` half-point, ``Z`` zero-point bye; not in the round (dropped): blank.
    """
    if game is None:
        return "    ", " ", " "
    outcome = game.seat_of(player).outcome
    if len(game.seats) == 1:
        if game.kind is GameKind.BYE and outcome is Outcome.WIN:
            return "0000", "-", "U"
        return "0000", "-", _UNPLAYED_CODE.get(outcome, "Z")
    colour = "w" if game.seats[0].player == player else "b"
    opponent = f"{ranks[game.opponents_of(player)[0]]:4d}"
    if game.kind is GameKind.FORFEIT:
        return opponent, colour, "+" if outcome is Outcome.WIN else "-"
    return opponent, colour, _PLAYED_CODE.get(outcome, "0")


# TRF16 result codes by outcome; any other (a loss, no result) is the default: a
# zero-point bye, a lost game
_UNPLAYED_CODE: dict[Outcome | None, str] = {Outcome.WIN: "F", Outcome.DRAW: "H"}  # else "Z"
_PLAYED_CODE: dict[Outcome | None, str] = {Outcome.WIN: "1", Outcome.DRAW: "="}  # else "0"


def export_event(event: Event, standings: Standings | None = None) -> str:
    """Return the event's complete rounds as TRF16 text (FIDE C.04 Annex 2).

    Points and ranks are those after the last complete round (``standings``, when the
    caller has them); a round in progress is left out. Sex, title, FIDE number and birth
    date are blank: players.csv has no columns for them.
    """
    complete = counted_rounds(event)
    if standings is None:
        standings = compute_standings(event, upto=complete)
    ranks = start_ranks(event)
    fmt = format_of(event)
    bye_points = float(fmt.option(event.config, "bye_points")) if any(
        o.key == "bye_points" for o in fmt.options) else 1.0
    config = event.config
    lines = [f"012 {config.name}"]
    if config.location:
        lines.append(f"022 {config.location}")
    lines.append(f"042 {config.date.strftime('%Y/%m/%d')}")
    lines.append(f"062 {len(event.players)}")
    lines.append(f"092 {ROUND_ROBIN_TYPE if format_of(event).round_robin else SWISS_TYPE}")
    row_of = {row.player.id: row for row in standings.rows}
    games = _games_by_round(event, complete)
    conceded = conceded_boards(event, complete)
    sitting = sitting_out(event, games, complete)
    team_event = event.config.teams.matches
    lines += [_player_line(player, ranks, row_of.get(player.id), games, complete, conceded,
                           sitting, team_event)
              for player in sorted(event.players, key=lambda p: ranks[p.id])]
    lines.append(f"XXR {standings.planned_rounds}")
    lines.append(f"XXC {'white1' if initial_colour(event) == 'w' else 'black1'}")
    if bye_points != 1.0:
        lines.append(f"XXS PAB={_number(bye_points)}")
    lines += team_lines(event, ranks, complete)
    lines += _xxa_lines(event, ranks, standings.planned_rounds)
    apart = [] if event.config.teams.matches else team_entries(event)  # matches: implied
    lines += _forbidden_lines([*forbidden_entries(event), *apart], ranks)
    return NEWLINE.join(lines) + NEWLINE


def conceded_boards(event: Event, upto: int) -> set[tuple[int, str]]:
    """Return (round, player) of each board won because the other team fielded nobody
    there: a BYE row in a team match that is not the team bye (TRF ``0000 - +``)."""
    if not event.config.teams.matches:
        return set()
    return {(r.round, g.players[0]) for r in match_results(event, upto) if not r.bye
            for g in r.games if len(g.seats) == 1}


def sitting_out(event: Event, games: Mapping[tuple[int, str], Game], upto: int
                ) -> set[tuple[int, str]]:
    """Return (round, player) of each player of a team-vs-team event in the event but
    without a game in a round (a reserve, a player of a team with a bye it asked for or
    in a double forfeit) or with the team bye's BYE row, whom TRF-2026 writes
    ``0000 - -`` as the FIDE TEC team sample does: a team's bye is its 240 or 320
    record, not its players'."""
    if not event.config.teams.matches:
        return set()
    members = [p for p in event.players if p.team]
    return _pab_players(event, upto) | {
        (number, p.id) for number in range(1, upto + 1)
        for p in members if p.active_in(number) and (number, p.id) not in games}


def _pab_players(event: Event, upto: int) -> set[tuple[int, str]]:
    """Return (round, player) of each BYE row of the pairing's team bye."""
    return {(r.round, p) for r in match_results(event, upto) if r.pab
            for g in r.games for p in g.players}


def _lineup_lines(event: Event, ranks: Mapping[str, int], upto: int) -> list[str]:
    """Return TRF-2026's ``300`` records of the matches with a board forfeited: the
    round, the team that left a board empty, its opponent, then its players by board
    (the match's games in table order), 0 for each empty board; a match forfeited whole
    has both teams' (the forfeiting team's all 0); and of each team whose boards are not
    in its players.csv order (its ``310`` line's)."""
    number = {t.id: k for k, t in enumerate(event.teams, start=1)}
    teams = {p.id: p.team for p in event.players}
    order = {p.id: k for k, p in enumerate(event.players)}
    lines = []
    for result in match_results(event, upto):
        games = sorted(result.games, key=lambda g: g.table)
        one, two = result.match.team_1, result.match.team_2
        short = _short_sides(result.bye, games, one, two, teams)
        listed = (*short, *(t for t in _out_of_order(result.bye, games, (one, two), teams,
                                                      order) if t not in short))
        for team in sorted(listed, key=(one, two).index):
            board = [next((ranks[p] for p in g.players if teams.get(p) == team), 0)
                     for g in games]
            lines.append(f"300 {result.round:3d} {number[team]:3d} "
                         f"{number[two if team == one else one]:3d}"
                         + "".join(f" {r:4d}" for r in board))
    return lines


def _out_of_order(bye: bool, games: list[Game], sides: tuple[str, str],
                  teams: Mapping[str, str], order: Mapping[str, int]) -> tuple[str, ...]:
    """Return the teams of a played match whose boards (its games in table order) are
    not in its players' players.csv order, the order of its ``310`` line: their ``300``
    line-ups give another program the boards (TieBreakServer reads them so)."""
    if bye:
        return ()
    out = []
    for team in sides:
        mine = [order[p] for g in games for p in g.players if teams.get(p) == team]
        if mine != sorted(mine):
            out.append(team)
    return tuple(out)


def _short_sides(bye: bool, games: list[Game], one: str, two: str,
                 teams: Mapping[str, str]) -> tuple[str, ...]:
    """Return the teams of a match whose line-up a ``300`` record gives: none when every
    board was played (or the team bye), both when the match was forfeited whole, else
    the team that left a board empty (its opponent has the BYE rows)."""
    alone = {teams.get(g.players[0]) for g in games if len(g.seats) == 1}
    if bye or not alone:
        return ()
    if len(alone) == len(games) or all(len(g.seats) == 1 for g in games):
        return (one, two)
    return (two,) if one in alone else (one,)


def _forfeit_lines(event: Event, upto: int) -> list[str]:
    """Return TRF-2026's ``330`` records: each match one team forfeited whole (it fielded
    nobody; the other team's players won every board by forfeit): ``+-`` or ``-+``, or
    both (a double forfeit, ``--``), the round, the two teams' numbers."""
    number = {t.id: k for k, t in enumerate(event.teams, start=1)}
    lines = []
    for result in match_results(event, upto):
        if result.bye or not result.finished or any(len(g.seats) > 1 for g in result.games):
            continue
        code = ("--" if result.double_forfeit else
                "+-" if result.points_1 > result.points_2 else "-+")
        lines.append(f"330 {code} {result.round:3d} {number[result.match.team_1]:3d} "
                     f"{number[result.match.team_2]:3d}")
    return lines


def team_lines(event: Event, ranks: Mapping[str, int], upto: int) -> list[str]:
    """Return a team-vs-team event's TRF-2026 team records (docs/trf.md, "Team events"):
    ``362`` (the match points of a match won, drawn, lost) and a ``310`` line per team:
    team number (teams.csv order), name, country, average rating, match points, game
    points, rank, then its players' start ranks in board order (players.csv order)."""
    if not event.config.teams.matches:
        return []
    won, drawn, lost = event.config.teams.match_points
    lines = [f"362 TW {won:3.1f}   TD {drawn:3.1f}   TL {lost:3.1f}"]
    table = team_table(event, upto)
    rank = {row.team.id: row.rank for row in team_standings(event, (), upto).rows}
    for number, team in enumerate(event.teams, start=1):
        members = [p for p in event.players if p.team == team.id]
        rated = [p.rating for p in members if p.rating]
        line = [" "] * (72 + 5 * len(members))
        _put(line, 1, 3, "310")
        _put(line, 5, 7, str(number), right=True)
        _put(line, 9, 40, team.name)
        _put(line, 42, 46, team.country.upper())
        if rated:
            _put(line, 48, 53, str(round(sum(rated) / len(rated))), right=True)
        _put(line, 55, 60, _number(table.total(team.id, "mp")), right=True)
        _put(line, 62, 67, _number(table.total(team.id, "gp")), right=True)
        _put(line, 69, 71, str(rank.get(team.id, 0)), right=True)
        for k, player in enumerate(members):
            _put(line, 74 + 5 * k, 77 + 5 * k, str(ranks[player.id]), right=True)
        lines.append("".join(line).rstrip())
    return (lines + _requested_lines(event, upto) + _pab_line(event, upto)
            + _forfeit_lines(event, upto) + _lineup_lines(event, ranks, upto))


# a requested team bye's TRF-2026 240 code by its teams-round-N.csv result
_REQUESTED_CODES = {"1-0": "F", "draw": "H", "0-1": "Z"}


def _requested_lines(event: Event, upto: int) -> list[str]:
    """Return TRF-2026's ``240`` records of a team event: the byes teams asked for, by
    round and kind (``F`` a full point, ``H`` half, ``Z`` none), then the teams'
    numbers; the next round's too while it holds nothing else (asked for before it is
    paired, as TRF-2026 writes requests)."""
    number = {t.id: k for k, t in enumerate(event.teams, start=1)}
    byes: dict[tuple[int, str], list[int]] = {}
    for result in match_results(event, upto):
        if result.bye and not result.pab:
            code = _REQUESTED_CODES[result.match.result]
            byes.setdefault((result.round, code), []).append(number[result.match.team_1])
    for rnd, code, team in _asked_before_pairing(event, upto):
        byes.setdefault((rnd, code), []).append(number[team])
    return [f"240 {code} {rnd:3d}" + "".join(f" {n:4d}" for n in teams)
            for (rnd, code), teams in sorted(byes.items())]


def _asked_before_pairing(event: Event, upto: int) -> list[tuple[int, str, str]]:
    """Return (round, 240 code, team) of the byes asked for in round ``upto`` + 1 while
    its file holds nothing else (it is not paired yet)."""
    following = next((r for r in event.team_rounds if r.number == upto + 1), None)
    if following is None or not pending(following):
        return []
    return [(following.number, _REQUESTED_CODES[m.result], m.team_1)
            for m in following.matches]


def _pab_line(event: Event, upto: int) -> list[str]:
    """Return TRF-2026's ``320`` record of a team event with team byes: the match and
    game points of the team's pairing-allocated bye (a match won, its players' BYE rows),
    then the bye team's number round by round."""
    number = {t.id: k for k, t in enumerate(event.teams, start=1)}
    byes = {r.round: r for r in match_results(event, upto) if r.pab and r.finished}
    if not byes:
        return []
    first = next(iter(byes.values()))
    table = team_table(event, upto)
    mp, points = next((e.mp, e.gp) for e in table.entries[first.match.team_1]
                      if e.round == first.round)
    line = f"320 {mp:4.1f} {points:4.1f}"
    for rnd in range(1, max(byes) + 1):
        bye = byes.get(rnd)
        line += f" {number[bye.match.team_1]:3d}" if bye else "    "
    return [line.rstrip()]


def _games_by_round(event: Event, complete: int) -> dict[tuple[int, str], Game]:
    """Return each player's game in each of the first ``complete`` rounds."""
    games: dict[tuple[int, str], Game] = {}
    for rnd in event.rounds:
        if rnd.number > complete:
            break
        for game in rnd.games:
            for pid in game.players:
                games[(rnd.number, pid)] = game
    return games


def _player_line(player: Player, ranks: Mapping[str, int], row: Standing | None,
                 games: Mapping[tuple[int, str], Game], complete: int,
                 conceded: AbstractSet[tuple[int, str]] = frozenset(),
                 sitting: AbstractSet[tuple[int, str]] = frozenset(),
                 team_event: bool = False) -> str:
    """Return a player's ``001`` line: start rank, name, rating, federation, points, rank
    and a block per complete round (FIDE C.04 Annex 2's columns); a board in ``conceded``
    (the other team left it empty) is won by forfeit, ``0000 - +``; a round in
    ``sitting`` (a team event's player without a game) is ``0000 - -``. A team event's
    player has the points of the line's blocks: a team's bye is not its players'."""
    line = [" "] * (91 + 10 * complete)
    _put(line, 1, 3, "001")
    _put(line, 5, 8, str(ranks[player.id]), right=True)
    _put(line, 15, 47, player.name)
    if player.rating:
        _put(line, 49, 52, str(round(player.rating)), right=True)
    if re.fullmatch(r"[A-Za-z]{3}", player.country):
        _put(line, 54, 56, player.country.upper())
    if row is not None:
        _put(line, 86, 89, str(row.rank), right=True)
    scored = 0.0
    for number in range(1, complete + 1):
        opponent, colour, result = _team_block(number, player.id, games, ranks, conceded,
                                               sitting)
        scored += 1.0 if result in "1+FU" else 0.5 if result in "=H" else 0.0
        start = 92 + 10 * (number - 1)
        _put(line, start, start + 3, opponent)
        _put(line, start + 5, start + 5, colour)
        _put(line, start + 7, start + 7, result)
    points = scored if team_event else row.score if row else 0.0
    _put(line, 81, 84, _number(points), right=True)
    return "".join(line).rstrip()


def _team_block(number: int, player: str, games: Mapping[tuple[int, str], Game],
                ranks: Mapping[str, int], conceded: AbstractSet[tuple[int, str]],
                sitting: AbstractSet[tuple[int, str]]) -> tuple[str, str, str]:
    """Return a round's block (:func:`round_block`) as a team event writes it: a board
    won because the other team left it empty ``+``, a player without a game (or with
    the team bye's BYE row) ``0000 - -``."""
    if (number, player) in sitting:
        return "0000", "-", "-"
    opponent, colour, result = round_block(games.get((number, player)), player, ranks)
    if (number, player) in conceded and result in "UF":
        result = "+"
    return opponent, colour, result


def _forbidden_lines(entries: Sequence[tuple[frozenset[str], tuple[int, int]]],
                     ranks: Mapping[str, int]) -> list[str]:
    """Return ``[options] forbidden`` and the teams kept apart (docs/teams.md) as TRF
    records: ``XXP`` (JaVaFo, bbpPairings) for a
    group kept apart in every round, TRF-2026's ``260`` (first and last round, then the
    start ranks) for one kept apart in some rounds."""
    lines = []
    for group, (first, last) in entries:
        numbers = sorted(ranks[pid] for pid in group)
        if len(numbers) < 2:
            continue
        if (first, last) == ALL_ROUNDS:
            lines.append("XXP " + " ".join(str(n) for n in numbers))
        else:
            lines.append(f"260 {first:3d} {last:3d}" + "".join(f" {n:4d}" for n in numbers))
    return lines


def _xxa_lines(event: Event, ranks: Mapping[str, int], planned: int) -> list[str]:
    """Return an ``XXA`` line per player with virtual points (``[options] acceleration``,
    FIDE C.04.5.1), as JaVaFo and bbpPairings read them: each player's points before
    rounds 1, 2 ... of the accelerated rounds."""
    _, accelerated = acceleration.accelerated_rounds(planned)
    virtual = virtual_points(event, ranks, planned, accelerated)
    return [f"XXA {ranks[pid]:4d}" + "".join(f" {v:4.1f}" for v in points)
            for pid, points in sorted(virtual.items(), key=lambda item: ranks[item[0]])
            if any(points)]


def export_trf(report: EventReport) -> str:
    """Return the report's event as TRF16 text (see :func:`export_event`), with the
    report's standings after the last complete round when it has them."""
    event = report.event
    complete = counted_rounds(event)
    finished = [rnd.number for rnd in event.rounds if rnd.finished]
    standings = None
    if perf.enabled() and complete and finished[:complete] == list(range(1, complete + 1)):
        standings = report.by_round[complete - 1]  # compute_standings(event, upto=complete)
    return export_event(event, standings)
