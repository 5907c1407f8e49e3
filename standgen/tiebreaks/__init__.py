"""The tiebreak registry: id (data contract section 4) -> :class:`Tiebreak`.

Adding a tiebreak is one module and one line here.
"""

from __future__ import annotations

from collections.abc import Mapping

from standgen.tiebreaks.base import Context, Part, Tiebreak, TiebreakPolicy, Value
from standgen.tiebreaks.defeated import KOYA, SB, SB_CUT1, SODOS
from standgen.tiebreaks.diplomacy import BEST_GAME, DRAWS, SOLOS
from standgen.tiebreaks.direct import DIRECT
from standgen.tiebreaks.fide import FIDE_POLICY, edition_of, fide_policy
from standgen.tiebreaks.opponents import SOS, SOS_CUT1, SOS_CUT2, SOS_LARGE, SOS_MEDIAN, SOSOS
from standgen.tiebreaks.progress import CUMULATIVE, CUMULATIVE_SOS
from standgen.tiebreaks.ratings import ARO, TPR
from standgen.tiebreaks.results import APD, CENTRES, CP, SCORE, VP, VP_DIFF, WINS, WON

TIEBREAKS: Mapping[str, Tiebreak] = {
    t.id: t
    for t in (
        SCORE,
        WINS,
        WON,
        SOS,
        SOS_LARGE,
        SOS_CUT1,
        SOS_CUT2,
        SOS_MEDIAN,
        SOSOS,
        SODOS,
        SB,
        SB_CUT1,
        CUMULATIVE,
        CUMULATIVE_SOS,
        CP,
        APD,
        VP,
        VP_DIFF,
        DIRECT,
        ARO,
        TPR,
        KOYA,
        CENTRES,
        BEST_GAME,
        SOLOS,
        DRAWS,
    )
}

__all__ = [
    "FIDE_POLICY",
    "TIEBREAKS",
    "Context",
    "Part",
    "Tiebreak",
    "TiebreakPolicy",
    "Value",
    "edition_of",
    "fide_policy",
]
