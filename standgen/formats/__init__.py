"""The format registry: ``format`` in event.toml -> :class:`Format`.

Adding a format is one module and one line here (its views, if any, are one module and
one line in :mod:`standgen.site.formats`).
"""

from __future__ import annotations

from collections.abc import Mapping

from standgen.formats.base import Format
from standgen.formats.diplomacy import DIPLOMACY
from standgen.formats.mcmahon import MCMAHON
from standgen.formats.oldworld import OLD_WORLD
from standgen.formats.roundrobin import round_robin, uses_round_robin
from standgen.formats.steamroller import STEAMROLLER
from standgen.formats.swiss import SWISS
from standgen.model import Event

FORMATS: Mapping[str, Format] = {
    f.id: f for f in (STEAMROLLER, OLD_WORLD, MCMAHON, SWISS, DIPLOMACY)
}

# the round-robin form of each two-player format (``[options] pairing = "round-robin"``)
ROUND_ROBIN_FORMATS: Mapping[str, Format] = {
    f.id: round_robin(f) for f in FORMATS.values() if f.seats == 2
}


def format_of(event: Event) -> Format:
    """Return the event's format (load has validated the id), in its round-robin form
    when the event asks for one: the one place that decides it."""
    if uses_round_robin(event) and event.config.format in ROUND_ROBIN_FORMATS:
        return ROUND_ROBIN_FORMATS[event.config.format]
    return FORMATS[event.config.format]


__all__ = ["FORMATS", "Format", "format_of"]
