"""Tiebreaks over a player's own results: the primary score, wins, and stat sums."""

from __future__ import annotations

from standgen.model import Outcome
from standgen.tiebreaks.base import ComputeFn, Context, Part, Tiebreak, Value, summed


def score(ctx: Context, player: str) -> Value:
    """Return the format's primary score, one part per round (contract section 4, ``score``)."""
    return summed(
        [
            Part(e.round, e.opponent, e.points, note=e.kind.value if not e.played else "")
            for e in ctx.records[player].entries
        ]
    )


def wins(ctx: Context, player: str) -> Value:
    """Return the rounds scored as wins, played or not (FIDE C.07 art. 7.1, WIN).

    Seed 004 scores a bye as a win (1 TP), so it counts here; so does a forfeit win.
    """
    return summed(
        [
            Part(e.round, e.opponent, 1.0, note=e.kind.value if not e.played else "")
            for e in ctx.records[player].entries
            if e.outcome is Outcome.WIN
        ]
    )


def stat_sum(stat: str) -> ComputeFn:
    """Return a tiebreak function summing a per-seat stat column over the player's games."""

    def compute(ctx: Context, player: str) -> Value:
        return summed(
            [
                Part(e.round, e.opponent, float(e.stats.get(stat, 0.0)),
                     note=e.kind.value if not e.played else "")
                for e in ctx.records[player].entries
            ]
        )

    compute.__doc__ = f"Return the sum of the player's ``{stat}`` over every game."
    return compute


SCORE = Tiebreak("score", "Score", "Pts", score)
WINS = Tiebreak("wins", "Wins (played or not)", "W", wins)
CP = Tiebreak("cp", "Control points", "CP", stat_sum("cp"))
APD = Tiebreak("apd", "Army points destroyed", "APD", stat_sum("apd"))
