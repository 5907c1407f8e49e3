"""A Go team event's rounds (issue #34; docs/teams.md, "Go team events"): the team Swiss
on team points, and each match's boards in a board order fixed by rank, colours by
nigiri on board 1 and alternating down the boards, even games.

What the Go team tournaments publish (sources read for issue #34):

- European Go Congress 2015, "Team Tournament" (egc2015.cz/rules/team): "The players of
  a team are seated on 4 boards in order of decreasing ranks"; "A team wins due to a
  higher number of board wins or ties in case of the same number of wins as the
  opposing team. A team gets 1 / 0.5 / 0 winning points if it wins / ties / loses";
  "The qualifications are a 4 rounds handpaired swiss tournaments depending on winning
  points with SOS and SODOS used for tie breakers."
- Pandanet Go European Team Championship (the EGF's national-team league; its rule set at
  pandanet-igs.com/communities/euroteamchamps/4), as the South African Go Association
  explains it to its players (sagoclubs.co.za, "Pandanet European Team Championship"):
  the team's order "is fixed for the entire duration of the tournament ... board one
  will always be the highest ranked player in the team".
- Belgian Go Federation, "Team Championship" (gofed.be/node/654, 2012): "first table
  (sorted by rank - 1st being the strongest) makes nigiri, the next table reverses the
  colours and so on" (the European Shogi Championship 2018's team tournament,
  shogi2018.eu, seats and colours its boards the same way, furigoma on board 1).

So standgen:

1. pairs the teams by a team Swiss on team points (the match points, ``[teams]
   match_points``, 2/1/0 by default; the EGC's 1/0.5/0 halves them, the same order):
   score groups from the top, a random draw inside each from the event's ``seed`` (the
   EGC's Swiss is hand-paired; no text says how), no two teams meeting twice while any
   pairing avoids it, the bye to the lowest-ranked team (by the Go team standings: team
   points, SOS, SODOS, board points) without one (:func:`standgen.teams.pairing.swiss`);
2. seats each team's players by rank, strongest first (``rank`` in players.csv as the
   McMahon format reads it: ``5k``, ``3d``, ``1p``; equal ranks, and a rank left empty
   or unreadable, last, in players.csv order), the first ``[teams] size`` of those in
   the event that round and not on a requested bye, so the order stays fixed all event;
3. draws board 1's colours by lot from the event's ``seed`` (the nigiri) and alternates
   them down the boards; round files put White first (player_1, as the McMahon format's
   round files do);
4. writes even games: ``handicap`` 0 (the EGC 2015 side event gave handicaps by rank
   difference; a national-team championship plays even, which is what a TO running a
   team cup expects; type a handicap into the round file to play one), ``komi`` left to
   the event's rules of play.

A board a team leaves empty is forfeited (the opponent's player has a BYE row won,
``1-0``); the bye team's players each have a BYE row (the format's bye points).
"""

from __future__ import annotations

from standgen.formats.mcmahon import MIN_RANK, RANK, rank_value
from standgen.model import Event, Game, GameKind, Outcome, Player, Round, Seat, TeamMatch, TeamRound
from standgen.pairing.common import rng
from standgen.teams.pairing import TeamPairing, had_bye, met_before, search_notes, swiss
from standgen.teams.ranking import team_standings

SYSTEM = "go"  # Format.team_pairing of a Go team event
EVEN = {"handicap": 0.0}  # the per-game columns of an even game


def strength(player: Player) -> int:
    """Return a player's rank as a number to seat by (OpenGotha's: 30k = -30, 1d = 0,
    9d = 8); an empty or unreadable rank sits below every rank."""
    rank = player.rank.strip()
    return rank_value(rank) if RANK.fullmatch(rank) else MIN_RANK - 1


def lineup(event: Event, team: str, number: int) -> list[Player]:
    """Return a team's players on boards 1, 2 ... in round ``number``: strongest rank
    first (players.csv order among equals), those in the event that round and not on a
    requested bye, the first ``[teams] size``."""
    size = event.config.teams.size or 0
    present = [p for p in event.players if p.team == team and p.active_in(number)
               and number not in p.byes]
    order = sorted(range(len(present)), key=lambda k: (-strength(present[k]), k))
    return [present[k] for k in order][:size]


def pair_go(event: Event, number: int) -> TeamPairing:
    """Return round ``number``'s team matches: the team Swiss on team points (see the
    module docstring), with notes for the TO."""
    standings = team_standings(event, (), upto=number - 1)
    draw = rng(event, number, "go-team-swiss")
    groups: dict[float, list[str]] = {}
    for row in standings.rows:
        groups.setdefault(row.score, []).append(row.team.id)
    order: list[str] = []
    for score in sorted(groups, reverse=True):
        group = sorted(groups[score])
        draw.shuffle(group)
        order.extend(group)
    ranked = [row.team.id for row in standings.rows]
    pairs, bye, rematches, complete = swiss(order, ranked, met_before(event, number),
                                            had_bye(event, number))
    matches = [TeamMatch(k, a, b) for k, (a, b) in enumerate(pairs, start=1)]
    if bye:
        matches.append(TeamMatch(len(matches) + 1, bye, ""))
    names = {t.id: t.name for t in event.teams}
    notes = [f"Round {number}: Go team Swiss on team points, random draw inside each "
             "score group from the event's seed; no two teams meet twice while avoidable. "
             "Boards by rank, strongest first; board 1's colours by nigiri from the seed, "
             "then alternating; even games.", *search_notes(names, bye, rematches, complete)]
    return TeamPairing(TeamRound(number, tuple(matches)), tuple(notes))


def first_white(event: Event, number: int, match: int) -> bool:
    """Return whether ``team_1``'s board-1 player has White in match ``match`` of round
    ``number``: the nigiri, drawn by lot from the event's seed."""
    return rng(event, number, f"go-nigiri-{match}").random() < 0.5


def board_round(event: Event, rnd: TeamRound) -> Round:
    """Return the round's games: each match board by board (tables 1, 2 ... in match
    order), board 1's colours by nigiri and alternating down the boards, White first,
    even games; a board one team leaves empty is the other's BYE row won; the bye team's
    players each a BYE row (the format's bye)."""
    size = event.config.teams.size or 0
    games: list[Game] = []
    for match in rnd.matches:
        first = lineup(event, match.team_1, rnd.number)
        if not match.team_2:
            games += [Game(rnd.number, table, (Seat(p.id),), GameKind.BYE)
                      for table, p in enumerate(first, start=len(games) + 1)]
            continue
        second = lineup(event, match.team_2, rnd.number)
        white_first = first_white(event, rnd.number, match.number)
        for board in range(size):
            a, b = first[board:board + 1], second[board:board + 1]
            table = len(games) + 1
            if a and b:
                white = white_first == (board % 2 == 0)
                pair = (a[0], b[0]) if white else (b[0], a[0])
                games.append(Game(rnd.number, table, (Seat(pair[0].id), Seat(pair[1].id)),
                                  extra=EVEN))
            elif a or b:
                games.append(Game(rnd.number, table, (Seat((a or b)[0].id, Outcome.WIN),),
                                  GameKind.BYE))
    return Round(rnd.number, tuple(games))
