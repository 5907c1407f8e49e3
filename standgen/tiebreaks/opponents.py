"""Opponent-based tiebreaks: strength of schedule (SoS, SOS, Buchholz), its cut and median
forms, its large-event form, and SOSOS."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from standgen.model import GameKind
from standgen.tiebreaks import columns
from standgen.tiebreaks.base import (
    Context,
    GameAdjustmentFn,
    Part,
    Tiebreak,
    UnplayedFn,
    Value,
    is_withdrawn,
)
from standgen.tiebreaks.cuts import Contribution, cut, summed_contributions

if TYPE_CHECKING:
    from standgen.records import Entry


def unplayed_note(entry: Entry) -> str:
    """Return how a part's breakdown names an unplayed round."""
    if is_withdrawn(entry):
        return "withdrawn"
    return entry.kind.value


_ALONE = frozenset((GameKind.BYE, GameKind.ABSENT))
_ALONE_OR_FORFEIT = _ALONE | {GameKind.FORFEIT}


def alone_kinds(forfeit_is_opponent: bool) -> frozenset[GameKind]:
    """Return the kinds of game with no opponent to count under the policy: a bye, an
    absence (a withdrawn round too), and a forfeit unless the policy counts its opponent."""
    return _ALONE if forfeit_is_opponent else _ALONE_OR_FORFEIT


def opponent_contributions(
    ctx: Context,
    player: str,
    of: Callable[[str], float],
    unplayed: UnplayedFn | None = None,
    adjust: GameAdjustmentFn | None = None,
) -> list[Contribution]:
    """Return one contribution per round and opponent: ``of(opponent)``.

    A round without an opponent to count (the policy decides: bye, absence, withdrawn
    round, forfeit) adds ``unplayed(ctx, player, entry)``, or 0 when that is None. A
    round with opponents adds ``adjust(ctx, player, entry)`` (the policy's
    ``game_adjustment``; OpenGotha's handicap correction) to each opponent's value, and
    its part's note shows the sum (``32 + 2 handicap as White``, :func:`opponent_part`);
    cuts order by the adjusted value, as OpenGotha's SOS-1 / SOS-2 do.
    """
    contributions: list[Contribution] = []
    append = contributions.append
    alone = alone_kinds(ctx.policy.forfeit_is_opponent)
    voluntary = ctx.policy.voluntary
    for entry in ctx.entries(player):
        if entry.game.kind in alone:
            virtual = unplayed(ctx, player, entry) if unplayed is not None else None
            value = 0.0 if virtual is None else virtual
            append(Contribution(value, value, voluntary(entry), entry, None, virtual))
            continue
        change = adjust(ctx, player, entry) if adjust is not None else None
        for opp in entry.opponents:
            score = of(opp)
            value = score if change is None else score + change.value
            append(Contribution(value, value, False, entry, opp, score, change))
    return contributions


def opponent_part(c: Contribution) -> Part:
    """Return a contribution of :func:`opponent_contributions` as the breakdown shows it."""
    entry = c.entry
    if c.opponent is None:
        note = unplayed_note(entry)
        if c.base is None:
            return Part(entry.round, None, 0.0, note=note)
        return Part(entry.round, None, c.value, note=f"{note}: virtual opponent")
    note = "forfeit" if entry.game.kind is GameKind.FORFEIT else ""
    if c.change is None or c.base is None:
        return Part(entry.round, c.opponent, c.value, note)
    shown = c.change.text(c.base)
    return Part(entry.round, c.opponent, c.value, f"{note}; {shown}" if note else shown)


def opponent_sum(
    ctx: Context, player: str, of: Callable[[str], float], unplayed: UnplayedFn | None = None
) -> Value:
    """Return the sum of :func:`opponent_contributions`, its breakdown built when read."""
    return summed_contributions(opponent_contributions(ctx, player, of, unplayed),
                                opponent_part)


def sos(ctx: Context, player: str) -> Value:
    """Return the sum of opponents' scores, with one part per opponent.

    Seed 004, "Strength of Schedule System": "adding the tournament score of all of the
    opponents each faced". Under Steamroller's policy a bye is not an opponent and adds
    0 (the player "sits out"); a dropped opponent's points keep counting. FIDE C.07 art.
    8.1 (Buchholz) with art. 16: the format's policy supplies the virtual opponent of an
    unplayed round and the adjusted score of a withdrawn opponent. A policy's
    ``game_adjustment`` changes the opponent's score per game (McMahon: OpenGotha
    ``Tournament.fillBaseScoringInfo`` 4.2 adds the handicap when the player was White,
    subtracts it when Black).
    """
    return summed_contributions(_sos_contributions(ctx, player), opponent_part)


def _sos_contributions(ctx: Context, player: str) -> list[Contribution]:
    """Return the SoS contributions, computed once per context (SoS and its cuts share them)."""
    return ctx.shared("sos-contributions", player, _compute_sos_contributions)


def _compute_sos_contributions(ctx: Context, player: str) -> list[Contribution]:
    return opponent_contributions(
        ctx, player, ctx.opponent_value, ctx.policy.unplayed_opponent_score,
        ctx.policy.game_adjustment,
    )


def sos_cut(low: int, high: int = 0) -> Callable[[Context, str], Value]:
    """Return SoS without the ``low`` lowest and ``high`` highest contributions.

    FIDE C.07 art. 14.1 (Cut-1), 14.2 (Cut-2), 14.3 (Median-1) and art. 16.5: with the
    policy's ``cut_unplayed_first`` a voluntary unplayed round is cut first.
    """

    def compute(ctx: Context, player: str) -> Value:
        return cut(_sos_contributions(ctx, player), opponent_part, low, high,
                   ctx.policy.cut_unplayed_first)

    compute.__doc__ = f"Return SoS with the lowest {low} and highest {high} contributions cut."
    return compute


def sosos(ctx: Context, player: str) -> Value:
    """Return the sum of opponents' SoS, one part per opponent.

    Data contract section 4 (``sosos``); OpenGotha's SOSOS. An unplayed round adds the
    policy's ``unplayed_opponent_sos`` (0 when the policy has none). The game itself
    adjusts nothing here: each opponent's SoS already carries that opponent's own
    per-game adjustments (OpenGotha ``fillBaseScoringInfo`` 5 sums the opponents'
    ``sosmX2``, handicap-corrected in 4.2).
    """
    values = ctx.every("sos", sos)
    return opponent_sum(ctx, player, values.__getitem__, ctx.policy.unplayed_opponent_sos)


def dropped_before_end(ctx: Context, player: str) -> bool:
    """Return whether a player dropped before the last counted round (missed rounds)."""
    after = ctx.records[player].player.dropped_after
    return after is not None and after < ctx.rounds_counted


def large_event_share(ctx: Context, opponent: str) -> float:
    """Return an opponent's large-event share: their TP divided by the event's games so
    far; a dropped opponent counts 1 TP, whatever they scored before dropping.

    Seed 000, "Large-Event Scoring": "Opponent 1-B would be given 1TP divided by the
    number of total games (6) to provide a Large Event Strength of Schedule of .17 then
    that would be added to his other opponents Large Event scores (.33 + .5 + .66 + .83
    + .83)": 1-B went 0-2 and dropped; the others are their TP over the same 6. The
    number of total games is the rounds counted so far (the event's rounds once it is
    over). An opponent who played every round on 0 TP adds 0.
    """
    games = max(ctx.rounds_counted, 1)
    if dropped_before_end(ctx, opponent):
        return 1.0 / games
    return ctx.score(opponent) / games


def sos_large(ctx: Context, player: str) -> Value:
    """Return Steamroller large-event SoS: the sum of each opponent's large-event share.

    Seed 000: "a final Strength of Schedule of 3.33" for Player B (see
    :func:`large_event_share`).
    """
    return opponent_sum(ctx, player, _large_event_shares(ctx))


def _large_event_shares(ctx: Context) -> Callable[[str], float]:
    """Return each opponent's :func:`large_event_share` (what the fast path sums too)."""
    return lambda opponent: large_event_share(ctx, opponent)


SOS = Tiebreak("sos", "Strength of schedule (sum of opponents' scores)", "SoS", sos,
              fast=columns.sos)
SOS_LARGE = Tiebreak("sos-large", "Large-event strength of schedule", "SoS-L", sos_large,
                     fast=columns.opponent_sum(_large_event_shares))
SOS_CUT1 = Tiebreak("sos-cut1", "Buchholz cut-1 (SoS without the lowest)", "SoS-C1", sos_cut(1),
                    fast=columns.sos_cut(1))
SOS_CUT2 = Tiebreak(
    "sos-cut2", "Buchholz cut-2 (SoS without the two lowest)", "SoS-C2", sos_cut(2),
    fast=columns.sos_cut(2),
)
SOS_MEDIAN = Tiebreak(
    "sos-median", "Median Buchholz (SoS without the lowest and highest)", "SoS-M",
    sos_cut(1, 1), fast=columns.sos_cut(1, 1),
)
SOSOS = Tiebreak("sosos", "Sum of opponents' SoS", "SOSOS", sosos, fast=columns.sosos)
