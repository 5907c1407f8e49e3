"""The tiebreak registry: id (data contract section 4) -> :class:`Tiebreak`.

Adding a tiebreak is one module and one line here.
"""

from __future__ import annotations

from collections.abc import Mapping

from standgen.tiebreaks.base import Context, Part, Tiebreak, TiebreakPolicy, Value
from standgen.tiebreaks.opponents import SOS, SOS_LARGE
from standgen.tiebreaks.progress import CUMULATIVE, CUMULATIVE_SOS
from standgen.tiebreaks.results import APD, CP, SCORE, WINS

TIEBREAKS: Mapping[str, Tiebreak] = {
    t.id: t
    for t in (
        SCORE,
        WINS,
        SOS,
        SOS_LARGE,
        CUMULATIVE,
        CUMULATIVE_SOS,
        CP,
        APD,
    )
}

__all__ = ["TIEBREAKS", "Context", "Part", "Tiebreak", "TiebreakPolicy", "Value"]
