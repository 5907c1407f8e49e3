"""The OpenGotha pairing options of an event, checked."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from standgen.pairing.gotha.players import DUDD_MODES, ORDER_CRITERIA, SEED_SYSTEMS

RANK_TEXT = re.compile(r"([1-9]|[12][0-9]|30)[kK]|[1-9][dDpP]\Z")


def option_problems(option: Callable[[Any, str], Any], config: Any) -> list[str]:
    """Return what is wrong with the OpenGotha pairing options of an event, in words."""
    out: list[str] = []
    allowed = {"seeding": ("", *SEED_SYSTEMS), "seeding_first": SEED_SYSTEMS,
               "seeding_later": SEED_SYSTEMS, "seeding_first_order": ORDER_CRITERIA,
               "seeding_later_order": ORDER_CRITERIA, "draw_down_position": DUDD_MODES,
               "draw_up_position": DUDD_MODES}
    for key, values in allowed.items():
        if option(config, key) not in values:
            shown = ", ".join(f'"{v}"' for v in values)
            out.append(f"option '{key}' must be one of {shown}")
    for key in ("secondary_rank", "handicap_threshold"):
        text = option(config, key)
        if text and not RANK_TEXT.fullmatch(str(text)):
            out.append(f"option '{key}' = '{text}' is not a Go rank (e.g. \"1d\" or \"5k\")")
    if not 1 <= option(config, "seeding_first_rounds") <= 99:
        out.append("option 'seeding_first_rounds' must be a round number, 1 or more")
    for key in ("geo_country", "geo_club"):
        if not 0 <= option(config, key) <= 99:
            out.append(f"option '{key}' must be 0 or more (MMS points)")
    return out
