"""The registry of game scoring systems: ``[options] scoring`` id -> :class:`ScoringSystem`.

One module per system (the first five live in ``standgen.diplomacy.scoring``), one line
here, one help page ``docs/scoring/<id>.md`` with the source and its worked example.
"""

from __future__ import annotations

from collections.abc import Mapping

from standgen.diplomacy.scoring import (
    C_DIPLO,
    CARNAGE,
    DRAW_SIZE,
    MCS,
    SUM_OF_SQUARES,
    ScoringSystem,
)
from standgen.diplomacy.systems.bangkok import BANGKOK_2022
from standgen.diplomacy.systems.c_diplo_namur import C_DIPLO_NAMUR
from standgen.diplomacy.systems.carnage_dead_equal import CARNAGE_DEAD_EQUAL
from standgen.diplomacy.systems.carnhik import CARNHIK
from standgen.diplomacy.systems.detour import DETOUR
from standgen.diplomacy.systems.dixiecon import DIXIECON
from standgen.diplomacy.systems.goff import GOFF
from standgen.diplomacy.systems.manorcon import MANORCON
from standgen.diplomacy.systems.open_tribute import OPEN_TRIBUTE
from standgen.diplomacy.systems.tribute import TRIBUTE
from standgen.diplomacy.systems.world_classic import WORLD_CLASSIC

SYSTEMS: Mapping[str, ScoringSystem] = {s.id: s for s in (
    MCS,
    DRAW_SIZE,
    SUM_OF_SQUARES,
    CARNAGE,
    CARNAGE_DEAD_EQUAL,
    CARNHIK,
    C_DIPLO,
    C_DIPLO_NAMUR,
    DIXIECON,
    TRIBUTE,
    OPEN_TRIBUTE,
    WORLD_CLASSIC,
    BANGKOK_2022,
    GOFF,
    MANORCON,
    DETOUR,
)}
