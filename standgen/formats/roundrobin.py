"""A round robin of any two-player format, decided in one place (``[options] pairing``).

``pairing = "round-robin"`` in event.toml pairs every round by Berger tables (FIDE C.05
Annex 1, :mod:`standgen.pairing.roundrobin`) instead of the format's own rule. Everything
that changes with it is here, as one wrapper of the event's :class:`Format`
(:func:`standgen.formats.format_of` returns it): the pairing, the planned rounds
(n - 1, or n for an odd field), no early end (a round robin plays every round), and
what the format itself declares in ``Format.in_round_robin`` (chess: FIDE C.07 art. 15.2
and art. 8). Nothing else asks which pairing an event uses.
"""

from __future__ import annotations

from dataclasses import replace

from standgen.formats.base import Format, Option
from standgen.model import Event, EventConfig
from standgen.pairing import roundrobin as berger

ROUND_ROBIN = "round-robin"
PAIRING_CHOICES = ("format", ROUND_ROBIN)
PAIRING_OPTION = Option(
    "pairing", str, "format",
    "How rounds are paired: \"format\" (the format's own rule) or \"round-robin\" "
    "(Berger tables: everyone meets everyone once).",
)


def uses_round_robin(event: Event) -> bool:
    """Return whether the event asks for Berger-table pairing (``pairing = "round-robin"``)."""
    return event.config.options.get(PAIRING_OPTION.key) == ROUND_ROBIN


def _planned_rounds(players: int, config: EventConfig) -> int:
    return berger.planned_rounds(players)


def round_robin(fmt: Format) -> Format:
    """Return the round-robin form of a two-player format."""
    wrapped = replace(fmt, pair=berger.pair, planned_rounds=_planned_rounds, finished=None,
                      round_robin=True, in_round_robin=None)
    return fmt.in_round_robin(wrapped) if fmt.in_round_robin is not None else wrapped
