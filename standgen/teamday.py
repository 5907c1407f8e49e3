"""``standgen pair`` of a team-vs-team event (docs/teams.md, "Team matches").

A team round has two steps: ``pair`` writes ``teams-round-N.csv`` (the team matches, by
:func:`standgen.teams.pairing.pair_teams`) and, when a team has the team bye, the BYE
rows of its players in ``round-N.csv``; the captains draft each match and the TO types
the drafted games into ``round-N.csv`` (one row per game, as in any round file). The
next ``pair`` waits until every match of the round has its games and their results.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from standgen.errors import InputError, Problem
from standgen.load.files import display
from standgen.load.team_rounds import team_round_name
from standgen.model import Event, Game, GameKind, Round, Seat, TeamMatch, TeamRound
from standgen.roundfile import RoundFileRefused, write_round, write_team_round
from standgen.standings import format_of
from standgen.teams import c046
from standgen.teams.matches import match_results
from standgen.teams.pairing import (
    TeamPairing,
    before_round,
    pairing_bye,
    pending,
    requested_byes,
)
from standgen.teams.propose import board_games, boards_said, propose_team_round, writes_boards


@dataclass(frozen=True)
class TeamPaired:
    """What ``pair`` wrote for a team round: the team pairings' file and text, the
    round's BYE rows (written to ``round-N.csv`` when a team has the bye), the notes and
    the lines the TO reads out."""

    path: Path
    text: str
    round: Round
    notes: tuple[str, ...]
    said: tuple[str, ...]


def pair_team_round(event_dir: Path, event: Event, force: bool = False,
                    redo: int | None = None) -> TeamPaired:
    """Write the next team round of the team event in ``event_dir``; with ``redo`` pair
    round ``redo`` again (the last team round, before any game of it is typed in). Raise
    InputError saying why not. A last team round holding only byes teams asked for (the
    TO wrote them before pairing) is the round to pair: its rows are kept and those
    teams left out of the pairing.

    A chess team event (``Format.team_pairing`` "c046") is paired by FIDE C.04.6 and its
    round file gets every match's boards and colours at once; any other pairs the team
    Swiss on Wins and waits for the captains' draft."""
    fmt = format_of(event)
    chess = writes_boards(fmt)  # chess or Go: pair writes the boards (teams.propose)
    number, event = _round_to_pair(event_dir, event, force, redo, chess)
    pairing = _pair(event_dir, event, number)
    _check_asked_kept(event_dir, event, pairing.round)
    games = (board_games(event, pairing.round) if chess
             else _bye_round(event, pairing.round.matches, number))
    target = event_dir / team_round_name(number)
    round_path = event_dir / f"round-{number}.csv"
    try:
        text = write_team_round(target, pairing.round)
        if games.games:
            write_round(round_path, fmt, games)
        elif redo is not None and round_path.exists():
            os.unlink(round_path)  # only the old bye's rows were in it (see _typed)
    except RoundFileRefused as exc:
        raise InputError(exc.problems) from exc
    return TeamPaired(target, text, games, pairing.notes,
                      tuple(_said(event, pairing.round, chess)))


def _round_to_pair(event_dir: Path, event: Event, force: bool, redo: int | None,
                   chess: bool) -> tuple[int, Event]:
    """Return the number of the team round to pair and the event as it stands before it;
    raise InputError when it cannot be paired (a redo of a round under way, the last
    round's matches not complete without ``force``, the planned rounds all paired)."""
    where = display(event_dir / "event.toml")
    last = event.team_rounds[-1] if event.team_rounds else None
    number = (last.number if last else 0) + 1
    if redo is not None:
        _check_redo(where, event, redo, chess)
        number, event = redo, before_round(event, redo)
    elif last is not None and pending(last) and not _typed(event, last.number):
        # the TO wrote the byes teams asked for before pairing: pair round N around them
        number, event = last.number, before_round(event, last.number)
        previous = event.team_rounds[-2] if len(event.team_rounds) > 1 else None
        if previous is not None and not force:
            _check_complete(event, previous)
    elif last is not None and not force:
        _check_complete(event, last)
    planned = event.config.rounds or 0
    if number > planned:
        raise InputError([Problem(where, 1, f"the event is over: its {planned} planned team "
                                  "rounds are paired; raise 'rounds' in event.toml to play "
                                  "on")])
    return number, event


def _check_redo(where: str, event: Event, redo: int, chess: bool) -> None:
    """Raise InputError unless team round ``redo`` is the last and nothing of it is typed
    in (see :func:`_typed`)."""
    last = event.team_rounds[-1] if event.team_rounds else None
    if last is None or redo != last.number or _typed(event, redo, chess):
        raise InputError([Problem(where, 1, f"--redo {redo}: only the last team round "
                                  "can be paired again, and only before any "
                                  f"{'result' if chess else 'drafted game'} of it is "
                                  "typed into its round file")])


def _check_complete(event: Event, last: TeamRound) -> None:
    """Raise InputError when a match of team round ``last`` lacks games or results."""
    open_matches = [r for r in match_results(event) if r.round == last.number
                    and not r.finished]
    if open_matches:
        listed = ", ".join(str(r.match.number) for r in open_matches)
        raise InputError([Problem(last.source.path, 1, f"round {last.number}'s matches "
                                  f"{listed} do not have all their games and results "
                                  f"yet; type them into round-{last.number}.csv first, "
                                  "or use --force to pair anyway")])


def _pair(event_dir: Path, event: Event, number: int) -> TeamPairing:
    """Return round ``number``'s team matches by the format's team pairing; raise
    InputError when C.04.6 finds no pairing meeting its absolute criteria."""
    try:
        return propose_team_round(event, number)
    except c046.NoLegalPairing:
        raise InputError([Problem(display(event_dir / "event.toml"), 1, "no pairing of "
                                  f"round {number} meets FIDE C.04.6's absolute criteria (no "
                                  "two teams meet twice; the bye only to a team without "
                                  "one): the Chief Arbiter decides (C.04.6 3.3.3); write "
                                  f"{team_round_name(number)} and round-{number}.csv by "
                                  "hand")]) from None


def _check_asked_kept(event_dir: Path, event: Event, rnd: TeamRound) -> None:
    """Raise InputError when the format's team pairing does not leave out the teams that
    asked for a bye in the round (and keep their rows), rather than lose the requests."""
    kept = {m.team_1 for m in rnd.matches if not m.team_2 and m.result}
    lost = [m.team_1 for m in requested_byes(event, rnd.number) if m.team_1 not in kept]
    if lost:
        names = {t.id: t.name for t in event.teams}
        raise InputError([Problem(display(event_dir / team_round_name(rnd.number)), 1,
                                  f"this format's team pairing does not leave out the "
                                  f"teams that asked for a bye yet "
                                  f"({', '.join(str(names.get(t, t)) for t in lost)}): take "
                                  "their rows out, pair, then put each back in place of its "
                                  "team's match by hand")])


def _typed(event: Event, number: int, chess: bool = False) -> bool:
    """Return whether round ``number`` has a game other than a team bye's BYE rows (a
    chess team round, whose boards ``pair`` writes: a game with a result)."""
    return any(g.kind is not GameKind.BYE
               and (not chess or any(s.outcome is not None for s in g.seats))
               for r in event.rounds if r.number == number for g in r.games)


def _bye_round(event: Event, matches: tuple[TeamMatch, ...], number: int) -> Round:
    """Return the BYE rows of the team bye's players (tables after the matches' games),
    each scored by the format's bye rule (an empty result)."""
    size = event.config.teams.size or 0
    bye = pairing_bye(matches)
    members = [p for p in event.players if bye and p.team == bye and p.active_in(number)]
    start = sum(1 for m in matches if m.team_2) * size
    games = tuple(Game(number, start + k, (Seat(p.id),), GameKind.BYE)
                  for k, p in enumerate(members, start=1))
    return Round(number, games)


def _said(event: Event, rnd: TeamRound, chess: bool = False) -> list[str]:
    """Return the team round as the TO reads it out: one line a match."""
    names = {t.id: t.name for t in event.teams}
    lines = [f"Round {rnd.number}, team matches:"]
    for match in rnd.matches:
        if match.team_2:
            lines.append(f"  match {match.number}: {names.get(match.team_1)} v "
                         f"{names.get(match.team_2)}")
        elif match.result:
            lines.append(f"  bye asked for ({match.result}): {names.get(match.team_1)}")
        else:
            lines.append(f"  team bye: {names.get(match.team_1)}")
    if chess:
        lines.append(boards_said(event, rnd.number))
    else:
        lines.append(f"Captains draft each match; type the games into "
                     f"round-{rnd.number}.csv.")
    return lines


def _team_round_complete(event_dir: Path, event: Event, number: int) -> list[str]:
    """Return :func:`team_status`'s line on a team round whose matches are complete: the
    event is over once its planned team rounds are played, else the next is to be paired."""
    name = event.config.name
    if number >= (event.config.rounds or 0):
        return [f"{name}: round {number}'s matches are complete and the event is over "
                f"(its {event.config.rounds} planned team rounds are played)"]
    return [f"{name}: round {number}'s matches are complete; run standgen pair "
            f"{display(event_dir)} for round {number + 1}"]


def _pending_status(event_dir: Path, event: Event, rnd: TeamRound) -> list[str]:
    """Return :func:`team_status`'s line on a team round holding only byes asked for."""
    names = {t.id: t.name for t in event.teams}
    asked = ", ".join(str(names.get(m.team_1)) for m in rnd.matches)
    return [f"{event.config.name}: round {rnd.number} is not paired yet, byes asked for: "
            f"{asked}; run standgen pair {display(event_dir)} to pair it without them"]


def team_status(event_dir: Path, event: Event) -> list[str]:
    """Return ``standgen status``'s lines on a team event: the last team round's matches
    still waiting for drafted games or results, or what to run next."""
    name = event.config.name
    if not event.team_rounds:
        return [f"{name}: no team round paired yet; run standgen pair {display(event_dir)}"]
    number = event.team_rounds[-1].number
    names = {t.id: t.name for t in event.teams}
    if pending(event.team_rounds[-1]) and not _typed(event, number):
        return _pending_status(event_dir, event, event.team_rounds[-1])
    waiting = [r for r in match_results(event) if r.round == number and not r.finished]
    if not waiting:
        return _team_round_complete(event_dir, event, number)
    lines = [f"{name}: round {number}, {len(waiting)} match(es) not complete "
             f"(round-{number}.csv):"]
    for result in waiting:
        open_games = sum(1 for g in result.games if not g.finished)
        lines.append(f"  match {result.match.number}: {names.get(result.match.team_1)} v "
                     f"{names.get(result.match.team_2)}: {len(result.games)} of "
                     f"{result.expected} games typed in, {open_games} without a result")
    return lines
