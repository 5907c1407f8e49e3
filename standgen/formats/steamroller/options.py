"""Steamroller's ``[options]`` (seed 004 and standgen's own), read by the format and its
pairing alike."""

from __future__ import annotations

from typing import Any

from standgen.formats.base import Option, option_value
from standgen.model import EventConfig

OPTIONS: tuple[Option, ...] = (
    Option("clear_winner", bool, True,
           "End the event early when one player has more TP than everyone else."),
    Option("pile_order", str, "standings",
           'Order inside a TP pile: "standings" or "random" (from the seed).'),
    Option("avoid_same_faction", bool, False,
           "After round 1, avoid same-faction games inside the TP piles."),
    Option("avoid_repeat_faction", bool, False,
           "After round 1, avoid a player meeting the same faction again."),
)


def option(config: EventConfig, key: str) -> Any:
    """Return the event's value of Steamroller option ``key``, or its default."""
    return option_value(OPTIONS, config, key)
