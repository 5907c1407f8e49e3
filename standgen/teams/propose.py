"""The team round a team event's format pairs (issue #34): FIDE C.04.6 for a chess team
Swiss (``Format.team_pairing`` "c046", :mod:`standgen.teams.c046_event`), the team Swiss
on Wins for the wargames (:mod:`standgen.teams.pairing`). ``standgen pair`` writes it;
``standgen check`` compares a paired round with it (a result corrected after the next
round was paired)."""

from __future__ import annotations

from standgen.model import Event
from standgen.standings import format_of
from standgen.teams import c046
from standgen.teams.c046_event import pair_c046
from standgen.teams.pairing import TeamPairing, pair_teams


def propose_team_round(event: Event, number: int) -> TeamPairing:
    """Return team round ``number`` of ``event`` (its rounds before it only) as its
    format pairs it; raise :class:`standgen.teams.c046.NoLegalPairing` when C.04.6 finds
    no pairing meeting its absolute criteria (C.04.6 3.3.3)."""
    fmt = format_of(event)
    if fmt.team_pairing == c046.SYSTEM:
        return pair_c046(event, number)
    return pair_teams(event, number, tuple(s.id for s in fmt.stats))
