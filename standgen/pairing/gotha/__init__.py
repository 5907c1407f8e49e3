"""OpenGotha's McMahon pairing model: its pair cost, bye, colours and handicap.

Read from OpenGotha V3.51.02 (github.com/lucvannier/opengotha, ``Tournament``,
``Pairing``, ``PairingParameterSet``, ``HandicapParameterSet``), rewritten here. Each
function cites the method it follows. OpenGotha pairs a round by:

1. the players to pair in score order (``JFrGamesPair.scoreSortedPlayers``: placement
   criteria, then name and first name), the bye taken out first
   (``Tournament.chooseAByePlayer``);
2. score groups, inner placement and draw-up / draw-down counts of every registered
   player (``Tournament.fillPairingInfo``);
3. the cost of every pair (``Tournament.costValue``), maximised by a maximum-weight
   matching (``WeightedMatchLong``; here rustworkx's, exact on Python integers);
4. colours and handicap of each game (``Tournament.gameBetween``).

Costs are integers exactly as OpenGotha computes them, Java's ``double`` arithmetic
being Python's ``float`` in the same operation order and ``(long)`` a truncation.
"""

from __future__ import annotations

from standgen.pairing.gotha.costs import (
    CRITERIA,
    SEED_LABELS,
    Field,
    _dudd,
    concave,
    cost,
    cost_parts,
    game_between,
    handicap,
    pair_costs,
)
from standgen.pairing.gotha.explain import (
    COLOUR_WHY,
    CRITERION_WORDS,
    NEIGHBOURS,
    explain,
)
from standgen.pairing.gotha.groups import (
    bye_candidates,
    choose_bye,
    fill_pairing_info,
    pairing_groups,
    score_order,
)
from standgen.pairing.gotha.java import det_random
from standgen.pairing.gotha.options import RANK_TEXT, option_problems
from standgen.pairing.gotha.players import (
    AVOID_DUPLICATE,
    BALANCE_WB,
    DUDD_MODES,
    DUDD_WEIGHT,
    GROUP_MAX,
    GROUP_MIN,
    MAX_RANDOM,
    MAX_RANK,
    MIN_RANK,
    NX1,
    ORDER_CRITERIA,
    SCORE_DIFFERENCE,
    SEED_SYSTEMS,
    SEEDING,
    SMMS_CORR_MAX,
    SMMS_CORR_MIN,
    Gamer,
    Settings,
    rating_from_rank,
    split_name,
)

__all__ = [
    "AVOID_DUPLICATE",
    "BALANCE_WB",
    "COLOUR_WHY",
    "CRITERIA",
    "CRITERION_WORDS",
    "DUDD_MODES",
    "DUDD_WEIGHT",
    "Field",
    "GROUP_MAX",
    "GROUP_MIN",
    "Gamer",
    "MAX_RANDOM",
    "MAX_RANK",
    "MIN_RANK",
    "NEIGHBOURS",
    "NX1",
    "ORDER_CRITERIA",
    "RANK_TEXT",
    "SCORE_DIFFERENCE",
    "SEEDING",
    "SEED_LABELS",
    "SEED_SYSTEMS",
    "SMMS_CORR_MAX",
    "SMMS_CORR_MIN",
    "Settings",
    "_dudd",
    "bye_candidates",
    "choose_bye",
    "concave",
    "cost",
    "cost_parts",
    "det_random",
    "explain",
    "fill_pairing_info",
    "game_between",
    "handicap",
    "option_problems",
    "pair_costs",
    "pairing_groups",
    "rating_from_rank",
    "score_order",
    "split_name",
]
