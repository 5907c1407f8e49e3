"""The team round a team event's format pairs (issue #34): FIDE C.04.6 for a chess team
Swiss (``Format.team_pairing`` "c046", :mod:`standgen.teams.c046_event`), the Go team
Swiss on team points (``"go"``, :mod:`standgen.teams.go`), the team Swiss on Wins for the
wargames (:mod:`standgen.teams.pairing`). ``standgen pair`` writes it; ``standgen
check`` compares a paired round with it (a result corrected after the next round was
paired). A chess or Go team round's boards follow from its matches (:func:`board_games`):
there is no captains' draft."""

from __future__ import annotations

from standgen.formats.base import Format
from standgen.model import Event, Round, TeamRound
from standgen.standings import format_of
from standgen.teams import c046, go
from standgen.teams.c046_event import board_round as c046_boards
from standgen.teams.c046_event import pair_c046
from standgen.teams.pairing import TeamPairing, pair_teams


def propose_team_round(event: Event, number: int) -> TeamPairing:
    """Return team round ``number`` of ``event`` (its rounds before it only) as its
    format pairs it; raise :class:`standgen.teams.c046.NoLegalPairing` when C.04.6 finds
    no pairing meeting its absolute criteria (C.04.6 3.3.3)."""
    fmt = format_of(event)
    if fmt.team_pairing == c046.SYSTEM:
        return pair_c046(event, number)
    if fmt.team_pairing == go.SYSTEM:
        return go.pair_go(event, number)
    return pair_teams(event, number, tuple(s.id for s in fmt.stats))


def writes_boards(fmt: Format) -> bool:
    """Return whether ``pair`` writes each match's boards for a team event of ``fmt``
    (chess, Go: a fixed board order) rather than waiting for the captains' draft."""
    return fmt.team_pairing in (c046.SYSTEM, go.SYSTEM)


def board_games(event: Event, rnd: TeamRound) -> Round:
    """Return the boards of team round ``rnd`` as its format seats them (see
    :func:`writes_boards`): C.04.6's players.csv order and colours, or Go's rank order
    and nigiri."""
    if format_of(event).team_pairing == go.SYSTEM:
        return go.board_round(event, rnd)
    return c046_boards(event, rnd)


def boards_said(event: Event, number: int) -> str:
    """Return the line ``pair`` says about a round whose boards it wrote."""
    if format_of(event).team_pairing == go.SYSTEM:
        return (f"The boards are in round-{number}.csv (by rank, strongest first; White "
                "first, board 1 by nigiri, then alternating; even games); type the "
                "results there.")
    return (f"The boards are in round-{number}.csv (team_1 White on board 1 and the odd "
            "boards); type the results there.")
