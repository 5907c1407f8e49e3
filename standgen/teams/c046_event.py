"""A chess team Swiss's round from the event (docs/teams.md, "Pairing a chess team
Swiss"): each team's C.04.6 state from the team rounds played, the round's team pairing
(:func:`standgen.teams.c046.pair_round`) and the board games that follow from it.

- TPN (C.04.6 1.1): a team's place in ``event.teams`` (teams.csv's order, or the order
  of the teams' first players in players.csv).
- Scores (1.2): match points (``[teams] match_points``, 2/1/0) or game points, the
  finished matches' (:func:`standgen.teams.tiebreaks.table.team_table`), whichever
  ``[options] team_pairing_score`` names primary; the other is the secondary score.
- A team's colour in a match (1.6.1): its board-1 player's, read from the round file
  (board k of a match is its k-th game by table; seat 1 plays White); a match forfeited
  whole gives no colour and is no meeting for [C1] (C.04.2 3.5: participants who did
  not play their match may meet later), but its winner may not have the PAB ([C2]).
- The board pairings (not in C.04.6, which pairs teams): each team's fixed board order
  is the order of its players in players.csv, the players in the event that round and
  not on a requested bye, the first ``[teams] size`` of them; board k of the first-named
  team (``team_1``, White on board 1) meets board k of the other, and colours alternate
  by board, the first-named team White on the odd boards, as team regulations (the
  Olympiad's among them) do with the board-1 colour C.04.6 gives the team. A board a
  team leaves empty is forfeited: the opponent's player has a BYE row won (``1-0``).
- A team that asked for a bye in the round (its row written before the round is paired:
  :func:`standgen.teams.pairing.requested_byes`) is not available and not paired: the
  C.04.6 preface applies C.04.1 mutatis mutandis, whose c pairs "the players to be
  paired"; the pairing-allocated bye goes to a team present ([C2] does not bar a team
  for a bye it asked for: it is no PAB and no forfeit win). TPNs stay as given.
"""

from __future__ import annotations

from collections.abc import Sequence

from standgen.model import Event, Game, GameKind, Outcome, Player, Round, Seat, TeamMatch, TeamRound
from standgen.pairing.common import rng
from standgen.teams.c046 import (
    BLACK,
    COLOUR_OPTION,
    SCORE_OPTION,
    WHITE,
    RoundPairing,
    Settings,
    TeamState,
    pair_round,
)
from standgen.teams.matches import MatchResult, match_results, team_of_players
from standgen.teams.pairing import (
    TeamPairing,
    asked_notes,
    had_bye,
    met_before,
    requested_byes,
    with_requested,
)
from standgen.teams.tiebreaks.table import TeamRoundEntry, TeamTable, team_table


def settings_of(event: Event, number: int) -> Settings:
    """Return the C.04.6 settings of round ``number``: the colour preference type (1.7,
    ``[options] team_colour_preferences``, Type A by default), the initial-colour (4.1:
    ``[options] initial_colour``, else drawn by lot from the event's seed) and where the
    round is among the planned ones."""
    options = event.config.options
    initial = str(options.get("initial_colour", ""))
    colour = {"white": WHITE, "black": BLACK}.get(initial)
    if colour is None:
        colour = rng(event, 1, "c046-initial-colour").choice((WHITE, BLACK))
    planned = event.config.rounds or 0
    return Settings(str(options.get(COLOUR_OPTION, "A")), colour, number >= planned,
                    number >= planned - 1)


def _board_colours(result: MatchResult, teams: dict[str, str]) -> dict[str, str]:
    """Return each team's colour in a played match (1.6.1): its board-1 player's, from
    the first game between the two teams (board k White for seat 1, k by table)."""
    games = sorted(result.games, key=lambda g: g.table)
    for board, game in enumerate(games, start=1):
        if len(game.seats) == 2:
            first = teams.get(game.seats[0].player, "")
            colour = WHITE if board % 2 else BLACK
            other = result.match.team_2 if first == result.match.team_1 else result.match.team_1
            return {first: colour, other: BLACK if colour == WHITE else WHITE}
    return {}


def _colours(event: Event, number: int) -> dict[str, dict[int, str]]:
    """Return each team's colour by round in the matches played before ``number``."""
    teams = team_of_players(event)
    out: dict[str, dict[int, str]] = {t.id: {} for t in event.teams}
    for result in match_results(event, number - 1):
        if result.bye:
            continue
        for team, colour in _board_colours(result, teams).items():
            if team in out:
                out[team][result.round] = colour
    return out


def _score(entries: Sequence[TeamRoundEntry], kind: str, before: int | None = None) -> float:
    return sum(e.mp if kind == "mp" else e.gp for e in entries
               if before is None or e.round < before)


def _floater(table: TeamTable, team: str, number: int, primary: str) -> bool:
    """Return whether a team was a floater in round ``number`` - 1 (C.04.6 1.5): it met
    an opponent whose score before that round was not its own."""
    entries = table.entries.get(team, ())
    return any(_score(entries, primary, e.round)
               != _score(table.entries.get(e.opponent, ()), primary, e.round)
               for e in entries if e.round == number - 1 and e.opponent)


def _opponents(event: Event, table: TeamTable, number: int) -> dict[str, set[str]]:
    """Return the teams each team met before round ``number`` ([C1]): every team round's
    matches but those forfeited whole (C.04.2 3.5)."""
    forfeited = {frozenset((team, e.opponent)) for team, entries in table.entries.items()
                 for e in entries if e.forfeited}
    out: dict[str, set[str]] = {t.id: set() for t in event.teams}
    for pair in met_before(event, number) - forfeited:
        a, b = sorted(pair)
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def team_states(event: Event, number: int) -> list[TeamState]:
    """Return every team's C.04.6 state before round ``number`` (see the docstring)."""
    primary = str(event.config.options.get(SCORE_OPTION, "mp"))
    secondary = "gp" if primary == "mp" else "mp"
    table = team_table(event, number - 1)
    colours = _colours(event, number)
    opponents = _opponents(event, table, number)
    byes = had_bye(event, number)
    states = []
    for tpn, team in enumerate(event.teams, start=1):
        entries = table.entries.get(team.id, ())
        won_by_forfeit = any(e.forfeited and e.mp == table.won_mp for e in entries)
        states.append(TeamState(
            team.id, tpn, _score(entries, primary), _score(entries, secondary),
            colours.get(team.id, {}), frozenset(opponents.get(team.id, ())),
            team.id in byes or won_by_forfeit, sum(1 for e in entries if e.played
                                                   and not e.forfeited),
            _floater(table, team.id, number, primary)))
    return states


def pair_c046(event: Event, number: int) -> TeamPairing:
    """Return round ``number``'s team matches by FIDE C.04.6, ``team_1`` the team with
    White on board 1; raise :class:`standgen.teams.c046.NoLegalPairing` when no pairing
    meets the absolute criteria (3.3.3)."""
    settings = settings_of(event, number)
    asked = requested_byes(event, number)
    away = {m.team_1 for m in asked}
    states = [s for s in team_states(event, number) if s.id not in away]
    pairing = pair_round(states, settings)
    return TeamPairing(with_requested(number, pairing.matches, pairing.bye, asked),
                       tuple(_notes(event, number, settings, pairing, asked)))


def _notes(event: Event, number: int, settings: Settings, pairing: RoundPairing,
           asked: Sequence[TeamMatch]) -> list[str]:
    """Return the notes of a C.04.6 round for the TO: the system, the teams not paired
    (their byes asked for), the PAB, the upfloaters."""
    names = {t.id: t.name for t in event.teams}
    primary = str(event.config.options.get(SCORE_OPTION, "mp"))
    kind = "none" if settings.colour_type == "none" else f"Type {settings.colour_type}"
    notes = [f"Round {number}: FIDE C.04.6 team Swiss on "
             f"{'match points' if primary == 'mp' else 'game points'}, colour preferences "
             f"{kind}; team_1 has White on board 1 and the odd boards."]
    notes.extend(asked_notes(names, asked))
    if pairing.bye:
        notes.append(f"Pairing-allocated bye (C.04.6 3.4): {names.get(pairing.bye)}.")
    notes.extend("Upfloaters (C.04.6 3.5) into the bracket of "
                 f"{', '.join(names.get(t, t) for t in residents)}: "
                 f"{', '.join(names.get(t, t) for t in ups)}."
                 for residents, ups in pairing.brackets if ups)
    return notes


def lineup(event: Event, team: str, number: int) -> list[Player]:
    """Return a team's players on boards 1, 2 ... in round ``number``: its players in
    players.csv order who are in the event that round and did not ask for a bye, the
    first ``[teams] size``."""
    size = event.config.teams.size or 0
    return [p for p in event.players if p.team == team and p.active_in(number)
            and number not in p.byes][:size]


def board_round(event: Event, rnd: TeamRound) -> Round:
    """Return the round's games: each match board by board (tables 1, 2 ... in match
    order), team_1's player White on the odd boards; a board one team leaves empty is
    the other's BYE row won; the PAB's players each a BYE row (the format's bye); a bye
    a team asked for no row (its players sit the round out)."""
    size = event.config.teams.size or 0
    games: list[Game] = []
    for match in rnd.matches:
        if match.result:  # a bye the team asked for, or a double forfeit: no games
            continue
        first = lineup(event, match.team_1, rnd.number)
        if not match.team_2:
            games += [Game(rnd.number, table, (Seat(p.id),), GameKind.BYE)
                      for table, p in enumerate(first, start=len(games) + 1)]
            continue
        second = lineup(event, match.team_2, rnd.number)
        for board in range(size):
            game = _board_game(first[board:board + 1], second[board:board + 1], board + 1)
            if game is not None:
                games.append(Game(rnd.number, len(games) + 1, game[0], game[1]))
    return Round(rnd.number, tuple(games))


def _board_game(first: list[Player], second: list[Player],
                board: int) -> tuple[tuple[Seat, ...], GameKind] | None:
    """Return the seats and kind of one board: White first (team_1's player on the odd
    boards); a player without an opponent wins by forfeit (a BYE row, 1-0); None when
    both teams leave the board empty."""
    if first and second:
        white, black = (first[0], second[0]) if board % 2 else (second[0], first[0])
        return (Seat(white.id), Seat(black.id)), GameKind.PLAYED
    present = first or second
    if present:
        return (Seat(present[0].id, Outcome.WIN),), GameKind.BYE
    return None
