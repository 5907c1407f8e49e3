"""``standgen check`` of a team-vs-team event (docs/teams.md, "Team matches"): the games
of each ``round-N.csv`` against the matches of its ``teams-round-N.csv``.

Each problem is ``path:line: what is wrong, what to do``: a game between players of
teams not matched that round, team-mates against each other, a player without a team, a
BYE row of a team that has no bye, a match with more games than ``[teams] size`` (an
error) or fewer (a warning while the captains' draft is typed in), a round file without
its team pairings, team pairings with gaps or past the planned rounds. A player in two
games of a round is the round file's own check (:mod:`standgen.load.rounds`).
"""

from __future__ import annotations

from standgen.errors import Problem
from standgen.model import Event, Game, GameKind, Round, TeamRound
from standgen.teams.matches import match_results, team_of_players


def team_match_problems(event: Event, team_sources: dict[int, str]) -> list[Problem]:
    """Return the problems of a team event's rounds; ``team_sources`` names where each
    round's ``teams-round-N.csv`` is (or would be) for messages."""
    problems: list[Problem] = []
    by_number = {t.number: t for t in event.team_rounds}
    for team_round in event.team_rounds:
        if team_round.number > 1 and team_round.number - 1 not in by_number:
            problems.append(Problem(team_round.source.path, 1, f"teams-round-"
                                    f"{team_round.number - 1}.csv is missing; team rounds "
                                    "run 1, 2, 3 ... without gaps"))
        planned = event.config.rounds
        if planned is not None and team_round.number > planned:
            problems.append(Problem(team_round.source.path, 1, f"event.toml plans {planned} "
                                    "rounds; raise 'rounds' or remove this file"))
    for rnd in event.rounds:
        paired = by_number.get(rnd.number)
        if paired is None:
            problems.append(Problem(rnd.source.path, 1, f"round {rnd.number} has no team "
                                    f"pairings: {team_sources.get(rnd.number, '')} is "
                                    "missing; run standgen pair for the team matches first, "
                                    "then type the drafted games here"))
            continue
        problems.extend(_round_problems(event, rnd, paired))
    if not problems:
        problems.extend(_short_matches(event))
    return problems


def _round_problems(event: Event, rnd: Round, team_round: TeamRound) -> list[Problem]:
    """Return the problems of one round's games against its team matches."""
    teams = team_of_players(event)
    opponent: dict[str, str] = {}
    line_of: dict[str, int] = {}
    for match in team_round.matches:
        opponent[match.team_1] = match.team_2
        line_of[match.team_1] = match.source.line
        if match.team_2:
            opponent[match.team_2] = match.team_1
            line_of[match.team_2] = match.source.line
    size = event.config.teams.size or 0
    active: dict[str, int] = {}
    for player in event.players:
        if player.team and player.active_in(rnd.number):
            active[player.team] = active.get(player.team, 0) + 1
    fielded: dict[str, int] = {}
    for game in rnd.games:
        for pid in game.players if len(game.seats) > 1 else ():
            fielded[teams.get(pid, "")] = fielded.get(teams.get(pid, ""), 0) + 1
    # short of players (dropped), or fielding fewer than size this round (a board left
    # empty: a forfeited board, TRF's "0000 - +"): its opponents' BYE rows are its
    # conceded boards
    short = {team for team in opponent
             if min(active.get(team, 0), fielded.get(team, 0)) < size}
    problems: list[Problem] = []
    for game in rnd.games:
        message = _game_problem(game, rnd.number, teams, opponent, line_of,
                                team_round.source.path, short)
        if message:
            problems.append(Problem(game.source.path, game.source.line, message))
    return problems


def _game_problem(game: Game, number: int, teams: dict[str, str], opponent: dict[str, str],
                  line_of: dict[str, int], where: str, short: set[str]) -> str:
    """Return what is wrong with one game of a team round ("" when nothing is)."""
    missing = [p for p in game.players if p not in teams]
    if missing:
        return (f"player '{missing[0]}' has no team; in a team event every player is in a "
                "team: fill in their team cell in players.csv")
    if game.kind is GameKind.ABSENT:
        return ("ABSENT has no place in a team match; a drafted game not played is a "
                "forfeit: write both players and the result +- or -+")
    own = teams[game.players[0]]
    if len(game.seats) == 1:
        if own not in opponent or (opponent[own] and opponent[own] not in short):
            return (f"a BYE row for '{game.players[0]}' of team '{own}', which has no team "
                    f"bye in round {number} ({where}) and meets a full team; only the bye "
                    "team's players, and the players a team short of players cannot meet, "
                    "get BYE rows: pair this player with a player of the team they meet")
        return ""
    other = teams[game.players[1]]
    if own == other:
        return (f"'{game.players[0]}' and '{game.players[1]}' are team-mates (team "
                f"'{own}'); a game of a team match pairs players of its two teams")
    if opponent.get(own) != other:
        return (f"'{game.players[0]}' (team '{own}') and '{game.players[1]}' (team "
                f"'{other}') are not in one match: {_meets(own, opponent, line_of, where)}; "
                "pair each game inside one match, or correct the team pairings")
    return ""


def _meets(team: str, opponent: dict[str, str], line_of: dict[str, int], where: str) -> str:
    """Return whom ``team`` meets in a round, for a message."""
    if team not in opponent:
        return f"team '{team}' has no match in {where}"
    if not opponent[team]:
        return f"team '{team}' has the team bye ({where}:{line_of[team]})"
    return f"{where}:{line_of[team]} matches '{team}' with '{opponent[team]}'"


def _short_matches(event: Event) -> list[Problem]:
    """Return a problem for each match of a round file with the wrong number of games:
    more than ``[teams] size`` is an error, fewer a warning (the draft is being typed)."""
    played = {r.number for r in event.rounds}
    problems: list[Problem] = []
    for result in match_results(event):
        if result.settled or result.round not in played:
            continue
        name = (f"match {result.match.number} ({result.match.team_1} v "
                f"{result.match.team_2})")
        count, size = len(result.games), result.expected
        if count > size:
            extra = result.games[size]
            problems.append(Problem(extra.source.path, extra.source.line, f"{name} has "
                                    f"{count} games, more than [teams] size {size}; a team "
                                    "match is one game per player: remove a game or raise "
                                    "size"))
        elif count < size:
            problems.append(Problem(result.match.source.path, result.match.source.line,
                                    f"{name} has {count} of its {size} games in round-"
                                    f"{result.round}.csv; type the other {size - count} "
                                    "drafted games there", warning=True))
    return problems
