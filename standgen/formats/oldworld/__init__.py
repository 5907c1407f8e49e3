"""Warhammer: The Old World matched play (seed 002, "The Pairing of Players").

Scoring: each game records both sides' victory points (``vp_1,vp_2``); the VP difference
falls in a band of the event's band table (Draw ... Crushing victory), which gives the
result and each side's tournament points (TP). Pairing: round 1 at random, then 1 v 2,
3 v 4 ... with seed 002's downward swap on a rematch (:mod:`standgen.pairing.adjacent`);
the spare player always meets the bottom of the standings.
"""

from __future__ import annotations

from standgen.formats.base import Format, Option, Stat
from standgen.formats.oldworld.bands import (
    BAND_KEYS,
    DEFAULT_BANDS,
    MAX_BANDS,
    MAX_TP,
    MAX_VP,
    REFERENCE_SIZE,
    Band,
    band_for,
    band_name,
    bands_of,
    crushing,
    default_bands,
    game_size,
    outcome_from_stats,
    parse_bands,
    points,
    seat_stats,
)
from standgen.formats.oldworld.checks import (
    validate_event,
    validate_game,
)
from standgen.formats.oldworld.pairing import (
    pair,
    planned_rounds,
    top_tables,
)
from standgen.tiebreaks.base import TiebreakPolicy

OLD_WORLD = Format(
    id="old-world",
    label="Warhammer: The Old World",
    help="formats/old-world",
    player_columns=("id", "name", "faction", "club", "spare"),
    final_round_rematches=True,  # seed 002
    points=points,
    planned_rounds=planned_rounds,
    pair=pair,
    policy=TiebreakPolicy(bye_is_opponent=False, forfeit_is_opponent=True),
    default_tiebreaks=("wins", "vp-diff", "sos"),
    stats=(Stat("vp", "Victory points"),),
    options=(
        Option("game_size", int, REFERENCE_SIZE,
               "The points size of the games: a bye or concession scores this many VP, and "
               "the default band table scales with it.", bounds=(1, MAX_VP)),
        Option("bands", list, [dict(row) for row in DEFAULT_BANDS],
               "The band table: VP difference -> result and TP per side."),
        Option("top_tables_percent", (int, float), 10,
               "In the final round the tables of this top share of the field never swap.",
               bounds=(0, 100)),
    ),
    outcome_from_stats=outcome_from_stats,
    validate_game=validate_game,
    validate_event=validate_event,
    seat_stats=seat_stats,
    score_label="Tournament points",
    score_short="TP",
)

__all__ = [
    "BAND_KEYS",
    "Band",
    "DEFAULT_BANDS",
    "MAX_BANDS",
    "MAX_TP",
    "MAX_VP",
    "OLD_WORLD",
    "REFERENCE_SIZE",
    "band_for",
    "band_name",
    "bands_of",
    "crushing",
    "default_bands",
    "game_size",
    "outcome_from_stats",
    "pair",
    "parse_bands",
    "planned_rounds",
    "points",
    "seat_stats",
    "top_tables",
    "validate_event",
    "validate_game",
]
