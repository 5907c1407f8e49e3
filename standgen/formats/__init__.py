"""The format registry: ``format`` in event.toml -> :class:`Format`.

Adding a format is one module and one line here.
"""

from __future__ import annotations

from collections.abc import Mapping

from standgen.formats.base import Format
from standgen.formats.diplomacy import DIPLOMACY
from standgen.formats.mcmahon import MCMAHON
from standgen.formats.oldworld import OLD_WORLD
from standgen.formats.steamroller import STEAMROLLER
from standgen.formats.swiss import SWISS

FORMATS: Mapping[str, Format] = {
    f.id: f for f in (STEAMROLLER, OLD_WORLD, MCMAHON, SWISS, DIPLOMACY)
}

__all__ = ["FORMATS", "Format"]
