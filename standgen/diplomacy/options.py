"""The Diplomacy options of ``event.toml`` (``[options]``) with their defaults and ranges
(bounds checked when event.toml is loaded: standgen.load.values; docs/formats/diplomacy.md)."""

from __future__ import annotations

from typing import Any

from standgen.diplomacy.scoring import ScoringSystem
from standgen.diplomacy.systems import SYSTEMS
from standgen.model import EventConfig
from standgen.options import Option, option_value

OPTIONS: tuple[Option, ...] = (
    Option("scoring", str, "mcs",  # seed 001
           "Game scoring system: " + ", ".join(SYSTEMS) + "."),
    Option("pot", (int, float), 420.0,  # seed 001: "A solo scores 420 pts"
           "Draw-size and MCS pot: a solo takes it, a draw splits it (seed 001: 420).",
           bounds=(1, 1_000_000)),
    Option("best", int, 0,  # every game counts
           "Count only the best N games (0: every game; not with mcs).", bounds=(0, 99)),
    Option("sitout_score", (int, float), 0.0,
           "Game score of a sit-out (not mcs).", bounds=(-1_000_000, 1_000_000)),
    Option("final_round", int, 0,  # no final board; event.toml ``rounds`` is 1 to 99
           "The round whose board 1 is the final (0: no final).", bounds=(0, 99)),
    Option("final_weight", (int, float), 1.0,  # 2: doubled, seed 001
           "How many times the final board's game counts (seed 001 doubles it: 2).",
           bounds=(0, 100)),
    Option("final_order", str, "total",  # finalists ordered by tournament score (seed 001)
           "Finalists ordered by tournament score (total) or by the final board (board)."),
    Option("weights", list, [],  # every game counts once; [1, 0.8, 0.4]: WDC 2019
           "Weights of the best, second best ... games (WDC 2019: [1, 0.8, 0.4])."),
    Option("sit_out", dict, {},
           "Players the TO sits out, by round: { 2 = [\"ann\"] }."),
    Option("two_boards", dict, {},
           "Players who play two boards, by round."),
)
WEIGHT_BOUNDS = (0.0, 100.0)  # each number of ``weights``
FINAL_ORDERS = ("total", "board")


def options_of(config: EventConfig) -> dict[str, Any]:
    """Return every Diplomacy option of the event, defaults filled in."""
    return {option.key: option_value(OPTIONS, config, option.key) for option in OPTIONS}


def system_of(config: EventConfig) -> ScoringSystem:
    """Return the event's game scoring system (``[options] scoring``; load checks the id)."""
    return SYSTEMS[str(options_of(config)["scoring"])]
