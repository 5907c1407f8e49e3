"""Warmachine & Hordes Steamroller (seed 004, Steamroller 2010; tiebreak essay seed 000).

A package: :mod:`.options` and :mod:`.pairing`; this module holds the format itself, its
rounds and its end (the clear winner).
"""

from __future__ import annotations

from standgen.errors import Problem
from standgen.formats.base import Format, InRoundFinal, Stat, TiebreakSwap, standard_points
from standgen.formats.steamroller.options import OPTIONS, option
from standgen.formats.steamroller.pairing import drawn_bye, pair, pile_order
from standgen.model import Event, EventConfig
from standgen.pairing.state import PairingInput
from standgen.tiebreaks.base import TiebreakPolicy


def planned_rounds(players: int, config: EventConfig) -> int:
    """Return the rounds for a field of ``players``.

    Seed 004, "Steamroller Rules": 8 or fewer players 3 rounds, 9-16 4, 17-32 5; later
    Steamroller texts continue the doubling: 33-64 6, 65-128 7, more 8.
    """
    for limit, rounds in ((8, 3), (16, 4), (32, 5), (64, 6), (128, 7)):
        if players <= limit:
            return rounds
    return 8


def clear_winner(state: PairingInput, rounds: int, config: EventConfig) -> bool:
    """Return whether exactly one player has more tournament points than everyone else.

    Seed 004: "The event will run until there is a clear winner ... Once a clear winner
    emerges, the event ends without additional matches"; Steamroller 2017: "until one
    player has more tournament points than any other player at the end of a round".
    ``[options] clear_winner = false`` plays every planned round.
    """
    if not option(config, "clear_winner"):
        return False
    scores = sorted(state.ordered_scores(), reverse=True)
    return len(scores) == 1 or (len(scores) > 1 and scores[0] > scores[1])


PILE_ORDERS = ("standings", "random")


def validate_event(event: Event, path: str) -> list[Problem]:
    """Return the Steamroller option checks: ``pile_order`` is one of :data:`PILE_ORDERS`."""
    if option(event.config, "pile_order") in PILE_ORDERS:
        return []
    return [Problem(path, 1, "option 'pile_order' must be \"standings\" (standings order "
                    "inside a TP pile) or \"random\" (shuffled with the event's seed)")]


TOP_TWO_FINAL = InRoundFinal(
    "Final: the top two", 2,
    'Seed 004: "The top two players will be paired during the final round of the '
    'tournament to determine the overall winner."',
    lambda config, planned: planned,
)

STEAMROLLER = Format(
    id="steamroller",
    label="Warmachine & Hordes Steamroller",
    help="formats/steamroller",
    points=standard_points(win=1.0, draw=0.0, loss=0.0),
    planned_rounds=planned_rounds,
    pair=pair,
    policy=TiebreakPolicy(bye_is_opponent=False, forfeit_is_opponent=True),
    default_tiebreaks=("sos", "cp", "apd"),
    stats=(Stat("cp", "Control points"), Stat("apd", "Army points destroyed")),
    options=OPTIONS,
    finished=clear_winner,
    in_round_final=TOP_TWO_FINAL,
    validate_event=validate_event,
    score_label="Tournament points",
    score_short="TP",
    lab_swaps=(TiebreakSwap("SoS-L for SoS", "large-event strength of schedule (\"Life "
                            "Isn't Fair to Losers\") in place of SoS", "sos", "sos-large"),),
)

__all__ = ["STEAMROLLER", "drawn_bye", "pair", "pile_order", "planned_rounds", "validate_event"]
