"""The cut-1 team tie-breaks (FIDE C.07 art. 14.1, Cut-1, with art. 16.5 for unplayed
rounds): BH:MP/C1, BH:GP/C1, EMGSB/C1 and EMMSB/C1, as the FIDE TEC team sample's 202
record asks (``EMGSB/C1/P, BH:MP/C1/P``): the sum of :mod:`bh_mp`, :mod:`bh_gp`,
:mod:`emgsb`, :mod:`sb_mp` without its least significant term.

The least significant term is the one of the team met with the lowest score (the
lowest such term where several share it); a voluntary unplayed round of the team's own
(art. 16.2: a half- or zero-point bye, an absence, a match lost by forfeit) is cut
first, as long as its term is not lower (art. 16.5.1). The choice is the players' cut's
(:func:`standgen.tiebreaks.cuts.choose_cuts`), one rule for both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, cast

from standgen.teams.tiebreaks import bh_gp, bh_mp, emgsb, sb_mp
from standgen.teams.tiebreaks.base import TeamTiebreak, opponent_score
from standgen.teams.tiebreaks.table import TeamTable
from standgen.tiebreaks.cuts import choose_cuts

if TYPE_CHECKING:
    from standgen.tiebreaks.cuts import Contribution


def cut_one(base: TeamTiebreak, kind: str) -> TeamTiebreak:
    """Return ``base`` (a sum of one product per round, its first factor the team met's
    score of ``kind``) with its least significant term cut."""
    terms = base.terms
    assert terms is not None

    def compute(table: TeamTable) -> Mapping[str, float]:
        out: dict[str, float] = {}
        for team, entries in table.entries.items():
            keys = []
            for entry, term in zip(entries, terms(table, team), strict=True):
                value = 1.0
                for factor in term:
                    value *= factor
                unplayed = entry.voluntary and not (entry.played and not entry.forfeited)
                keys.append((opponent_score(table, team, entry, kind), value, unplayed))
            # choose_cuts reads a contribution as its first three fields: these
            cut = dict(choose_cuts(cast("Sequence[Contribution]", keys), 1,
                                   unplayed_first=True))
            out[team] = sum(k[1] for i, k in enumerate(keys) if i not in cut)
        return out

    return TeamTiebreak(f"{base.id}-c1", f"{base.code}/C1", base.label, compute)


CUTS: tuple[TeamTiebreak, ...] = tuple(
    cut_one(t.TIEBREAK, kind) for t, kind in
    ((bh_mp, "mp"), (bh_gp, "gp"), (emgsb, "mp"), (sb_mp, "mp")))
