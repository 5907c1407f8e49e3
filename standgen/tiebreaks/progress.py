"""Cumulative (progressive) score and cumulative strength of schedule."""

from __future__ import annotations

from standgen.tiebreaks import columns
from standgen.tiebreaks.base import Context, Part, Tiebreak, Value, from_items
from standgen.tiebreaks.opponents import opponent_sum


def cumulative(ctx: Context, player: str) -> Value:
    """Return the running score summed over rounds, one part per round.

    Seed 000, "The Cumulative Hybrid System": "rd1:(0) + rd2:(0+1) + rd3:(0+1+1) +
    rd4:(0+1+1+1) = 6"; Player B "1+2+3+4+4+4=18". A round with no game (not yet
    entered, dropped) adds the running score unchanged. A policy's ``start_score`` is
    the running score before round 1 (OpenGotha's CUSSM: the starting McMahon score).
    """
    return from_items(list(enumerate(_running(ctx, player), start=1)), _second,
                      lambda item, running: Part(item[0], None, running, note="running score"))


def _second(item: tuple[int, float]) -> float:
    return item[1]


def _running(ctx: Context, player: str) -> list[float]:
    """Return the player's running score after each counted round (start score included)."""
    by_round = {e.round: e.points for e in ctx.records[player].entries}
    start = ctx.policy.start_score
    running = start(ctx, player) if start is not None else 0.0
    totals = []
    for rnd in range(1, ctx.rounds_counted + 1):
        running += by_round.get(rnd, 0.0)
        totals.append(running)
    return totals


def cumulative_sos(ctx: Context, player: str) -> Value:
    """Return the sum of opponents' cumulative scores.

    Seed 000: "each player's opponents' cumulative scores are added together to create a
    cumulative Strength of Schedule".
    """
    values = ctx.every("cumulative", cumulative)
    return opponent_sum(ctx, player, values.__getitem__)


CUMULATIVE = Tiebreak("cumulative", "Cumulative (progressive) score", "Cum", cumulative,
                      fast=columns.cumulative)
CUMULATIVE_SOS = Tiebreak(
    "cumulative-sos", "Cumulative strength of schedule", "CumSoS", cumulative_sos,
    fast=columns.cumulative_sos,
)
