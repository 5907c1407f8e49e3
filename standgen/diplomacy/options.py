"""The Diplomacy options of ``event.toml`` (``[options]``) with their defaults."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import ScoringSystem
from standgen.diplomacy.systems import SYSTEMS
from standgen.model import EventConfig

DEFAULTS: Mapping[str, Any] = {
    "scoring": "mcs",  # seed 001
    "pot": 420.0,  # seed 001: "A solo scores 420 pts"
    "best": 0,  # every game counts
    "sitout_score": 0.0,
    "final_round": 0,  # no final board
    "final_weight": 1.0,  # the final board's game counts once (2: doubled, seed 001)
    "final_order": "total",  # finalists ordered by tournament score (seed 001)
    "weights": [],  # every game counts once; [1, 0.8, 0.4]: WDC 2019's best rounds
    "sit_out": {},
    "two_boards": {},
}
# the numbers' lowest and highest values, checked when event.toml is loaded
# (standgen.load.values; docs/formats/diplomacy.md)
BOUNDS: Mapping[str, tuple[float, float]] = {
    "pot": (1, 1_000_000),
    "best": (0, 99),
    "sitout_score": (-1_000_000, 1_000_000),
    "final_round": (0, 99),  # event.toml ``rounds`` is 1 to 99
    "final_weight": (0, 100),
}
WEIGHT_BOUNDS = (0.0, 100.0)  # each number of ``weights``
FINAL_ORDERS = ("total", "board")


def options_of(config: EventConfig) -> dict[str, Any]:
    """Return every Diplomacy option of the event, defaults filled in."""
    return {key: config.options.get(key, default) for key, default in DEFAULTS.items()}


def system_of(config: EventConfig) -> ScoringSystem:
    """Return the event's game scoring system (``[options] scoring``; load checks the id)."""
    return SYSTEMS[str(options_of(config)["scoring"])]
