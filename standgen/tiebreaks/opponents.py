"""Opponent-based tiebreaks: strength of schedule (SoS, Buchholz) and its large-event form."""

from __future__ import annotations

from collections.abc import Callable

from standgen.model import GameKind
from standgen.records import Entry
from standgen.tiebreaks.base import Context, Part, Tiebreak, Value, summed


def opponent_parts(ctx: Context, player: str, of: Callable[[str], float]) -> list[Part]:
    """Return one part per round: ``of(opponent)`` for each opponent met, 0 for no opponent.

    The format's policy decides what a bye, an absence or a forfeit contributes.
    """
    parts: list[Part] = []
    for entry in ctx.records[player].entries:
        parts.extend(_entry_parts(ctx, entry, of))
    return parts


def _entry_parts(ctx: Context, entry: Entry, of: Callable[[str], float]) -> list[Part]:
    if entry.kind in (GameKind.BYE, GameKind.ABSENT):
        return [Part(entry.round, None, 0.0, note=entry.kind.value, counted=True)]
    if entry.kind is GameKind.FORFEIT and not ctx.policy.forfeit_is_opponent:
        return [Part(entry.round, opp, 0.0, note="forfeit") for opp in entry.opponents]
    note = "forfeit" if entry.kind is GameKind.FORFEIT else ""
    return [Part(entry.round, opp, of(opp), note=note) for opp in entry.opponents]


def sos(ctx: Context, player: str) -> Value:
    """Return the sum of opponents' scores, with one part per opponent.

    Seed 004, "Strength of Schedule System": "adding the tournament score of all of the
    opponents each faced". A bye is not an opponent and adds 0 (the player "sits out");
    a dropped opponent's points keep counting.
    """
    return summed(opponent_parts(ctx, player, ctx.score))


def rounds_in_event(ctx: Context, player: str) -> int:
    """Return the rounds a player took part in (games and byes, not absences)."""
    return sum(1 for e in ctx.records[player].entries if e.kind is not GameKind.ABSENT)


def large_event_share(ctx: Context, opponent: str) -> float:
    """Return an opponent's score per round played; 0 points count as 1 / the event's rounds.

    Seed 000, "Large-Event Scoring": "Opponent 1-B would be given 1TP divided by the
    number of total games (6)"; the others' scores are divided by the rounds they played.
    """
    score = ctx.score(opponent)
    if score <= 0:
        return 1.0 / max(ctx.rounds_counted, 1)
    return score / max(rounds_in_event(ctx, opponent), 1)


def sos_large(ctx: Context, player: str) -> Value:
    """Return Steamroller large-event SoS: the sum of each opponent's score per round played.

    Seed 000: "(.17 + .33 + .5 + .66 + .83 + .83) ... a final Strength of Schedule of 3.33".
    """
    return summed(opponent_parts(ctx, player, lambda o: large_event_share(ctx, o)))


SOS = Tiebreak("sos", "Strength of schedule (sum of opponents' scores)", "SoS", sos)
SOS_LARGE = Tiebreak("sos-large", "Large-event strength of schedule", "SoS-L", sos_large)
