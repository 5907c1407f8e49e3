"""The tiebreak registry: id (data contract section 4) -> :class:`Tiebreak`.

Adding a tiebreak is its module (building a :class:`Tiebreak`), one line here and its
help page, ``docs/tiebreaks/<id>.md``, listed in docs/tiebreaks/index.md and the data
contract's "Tiebreak ids" (``tests/test_tiebreak_docs.py`` checks both tables against
this registry). A fast path, if any, is registered on the tiebreak itself
(``Tiebreak(..., fast=columns.<function>)``) and checked against the rule by
``tests/test_tiebreak_columns.py``, which reads this registry.
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
