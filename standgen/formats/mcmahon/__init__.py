"""Go McMahon: McMahon score (MMS) from rank, bar and floor; OpenGotha's scoring, tiebreaks
and pairing.

A package: :mod:`.scoring` (ranks, MMS, the options, the tiebreak policy, the checks)
and :mod:`.pairing` (OpenGotha's McMahon pairing over :mod:`standgen.pairing.gotha`);
this module puts them together as the format. Sources are cited in each module.
"""

from __future__ import annotations

from standgen.formats.base import Format
from standgen.formats.mcmahon.pairing import pair_round
from standgen.formats.mcmahon.scoring import (
    ABSENT_OUTCOME,
    BYE_OUTCOME,
    DEFAULT_TIEBREAKS,
    MAX_RANK,
    MIN_RANK,
    OPTIONS,
    POLICY,
    RANK,
    handicap_adjustment,
    initial_mms,
    mms_zero,
    option,
    planned_rounds,
    points,
    rank_name,
    rank_value,
    start_mms,
    total_mms,
    unplayed_sos,
    unplayed_sosos,
    validate_event,
)

MCMAHON = Format(
    id="mcmahon",
    label="Go McMahon",
    help="formats/mcmahon",
    points=points,
    planned_rounds=planned_rounds,
    pair=pair_round,
    policy=POLICY,
    default_tiebreaks=DEFAULT_TIEBREAKS,
    game_columns=("handicap", "komi"),
    colours=True,  # player_1 White, player_2 Black (the data contract's round files)
    player_columns=("id", "name", "club", "country", "rank", "mms_correction"),
    ratings="go",
    starting_score=initial_mms,
    options=OPTIONS,
    score_label="McMahon score",
    score_short="MMS",
    bye_outcome=BYE_OUTCOME,
    absent_outcome=ABSENT_OUTCOME,
    validate_event=validate_event,
    total_score=total_mms,
    # a team event (docs/teams.md, "Go team events"; sources in standgen.teams.go): team
    # points, then SOS and SODOS of team points (the EGC 2015 team tournament's
    # tie-breaks), then board points
    team_tiebreaks=("sos", "sodos", "gp"),
    team_labels={"score": ("TP", "Team points"), "gp": ("BP", "Board points"),
                 "heading": ("", "Teams by team points"),
                 "note": ("", "A team scores team points for each match it wins, draws or "
                          "loses on board wins (European Go Congress team tournament). "
                          "Ties are split by, in order:")},
    team_pairing="go",  # the Go team Swiss; pair seats the boards by rank (teams.go)
)

__all__ = [
    "MAX_RANK", "MCMAHON", "MIN_RANK", "RANK", "handicap_adjustment", "initial_mms",
    "mms_zero", "option", "rank_name", "rank_value", "start_mms", "total_mms",
    "unplayed_sos", "unplayed_sosos",
]
