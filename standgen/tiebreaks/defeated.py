"""Tiebreaks over the opponents a player scored against: SODOS, Sonneborn-Berger, Koya."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from standgen.memo import Memo
from standgen.model import GameKind
from standgen.tiebreaks import columns
from standgen.tiebreaks.base import Context, Part, Tiebreak, Value, result_share
from standgen.tiebreaks.cuts import Contribution, cut, summed_contributions
from standgen.tiebreaks.opponents import alone_kinds, unplayed_note

if TYPE_CHECKING:
    from standgen.records import Entry


def defeated_contributions(ctx: Context, player: str) -> list[Contribution]:
    """Return :func:`compute_defeated`'s contributions, computed once per context
    (SODOS, Sonneborn-Berger and its cut share them)."""
    return ctx.shared("defeated-contributions", player, compute_defeated)


def compute_defeated(ctx: Context, player: str) -> list[Contribution]:
    """Return one contribution per round: the opponent's score times the share scored.

    A win adds the opponent's whole score, a draw half of it, a loss nothing. An unplayed
    round weighs the policy's virtual opponent (``unplayed_opponent_score``, 0 without
    one) by the share it awarded. Each contribution is ordered by the opponent's score,
    which FIDE C.07 art. 14.1 makes the least significant value for Sonneborn-Berger.
    Only an unplayed round can be a voluntary unplayed round (art. 16.1.2), cut first by
    art. 16.5: a forfeit the policy counts as a game (a round robin, art. 15.2) is a game
    like any other.
    A policy's ``game_adjustment`` changes the opponent's score for that game before it
    is weighed (McMahon: OpenGotha ``Tournament.fillBaseScoringInfo`` 4.2,
    ``dosmX4[rr] = osmX2[rr] * getWX2(g, sp)`` with ``osmX2`` handicap-corrected).
    """
    contributions: list[Contribution] = []
    append = contributions.append
    policy = ctx.policy
    adjust = policy.game_adjustment
    unplayed = policy.unplayed_opponent_score if policy.defeated_counts_unplayed else None
    alone = alone_kinds(policy.forfeit_is_opponent)  # as in opponent_contributions
    for entry in ctx.entries(player):
        share = result_share(policy, entry)
        if entry.game.kind in alone:
            virtual = unplayed(ctx, player, entry) if unplayed is not None else None
            append(_unplayed(virtual, share, policy.voluntary(entry), entry))
            continue
        change = adjust(ctx, player, entry) if adjust is not None else None
        for opp in entry.opponents:
            base = ctx.opponent_value(opp)
            score = base if change is None else base + change.value
            append(Contribution(score, score * share, False, entry, opp, base, change))
    return contributions


def _unplayed(virtual: float | None, share: float, voluntary: bool,
              entry: Entry) -> Contribution:
    """Return an unplayed round's contribution: the virtual opponent's score weighed by
    the share awarded, or nothing without one."""
    if virtual is None:
        return Contribution(0.0, 0.0, voluntary, entry, None, None)
    return Contribution(virtual, virtual * share, voluntary, entry, None, virtual)


def defeated_part(share: float, c: Contribution) -> Part:
    """Return a contribution of :func:`compute_defeated` as the breakdown shows it
    (``won: 32 × 1``); ``share`` is the round's share scored."""
    entry = c.entry
    if c.opponent is None:
        note = unplayed_note(entry)
        if c.base is None:
            return Part(entry.round, None, 0.0, note=note)
        return Part(entry.round, None, c.value, note=f"{note}: virtual opponent "
                    f"{_fmt(c.base)} × {_fmt(share)}")
    if c.change is None or c.base is None:
        note = _result_note(entry, c.opponent_score, share)
    else:
        note = _result_note(entry, c.base, share, f"({c.change.text(c.base)})")
    return Part(entry.round, c.opponent, c.value, note=note)


def _part_maker(ctx: Context) -> Callable[[Contribution], Part]:
    policy = ctx.policy
    return lambda c: defeated_part(result_share(policy, c.entry), c)


_FORMATTED: Memo[float, str] = Memo(65536)


def _fmt(number: float) -> str:
    """Return ``f"{number:g}"``, shared across calls (scores repeat across thousands of parts).

    Zero is formatted each time: 0.0 and -0.0 are equal keys but print differently.
    """
    if number == 0:
        return f"{number:g}"
    return _FORMATTED.get(number, lambda: f"{number:g}")


def _result_note(entry: Entry, score: float, share: float, shown: str = "") -> str:
    """Return ``won: 32 × 1``; ``shown`` replaces the score (``(32 + 2 handicap as White)``)."""
    word = {1.0: "won", 0.5: "drew", 0.0: "lost"}.get(share, "scored")
    forfeit = " by forfeit" if entry.kind is GameKind.FORFEIT else ""
    return f"{word}{forfeit}: {shown or _fmt(score)} × {_fmt(share)}"


def sodos(ctx: Context, player: str) -> Value:
    """Return the sum of defeated opponents' scores (a drawn opponent's counts half).

    Seed 003, "SODOS": "Sum of Defeated opponents' McMahon scores ... If you lose all
    your games then your SODOS is zero. If you beat two others then it is the sum of two
    scores." The score is the format's primary score (MMS for McMahon). Draws (jigo)
    count half, as in Sonneborn-Berger; unplayed rounds follow the format's policy.
    """
    return _defeated_sum(ctx, player)


def sonneborn_berger(ctx: Context, player: str) -> Value:
    """Return the Sonneborn-Berger score: each opponent's score times the points scored.

    FIDE C.07 art. 9.1 (SB): "the sum of the scores of the opponents a participant has
    defeated and half the scores of the opponents with whom they drew"; with art. 16 the
    policy supplies the virtual opponent of an unplayed round (weighted by its result)
    and the adjusted score of a withdrawn opponent.
    """
    return _defeated_sum(ctx, player)


def _defeated_sum(ctx: Context, player: str) -> Value:
    return summed_contributions(defeated_contributions(ctx, player), _part_maker(ctx))


def sonneborn_berger_cut1(ctx: Context, player: str) -> Value:
    """Return Sonneborn-Berger without the least significant value.

    FIDE C.07 art. 14.1: the contribution of the opponent with the lowest score is cut
    (the lowest such contribution where several share it); art. 16.5: with the policy's
    ``cut_unplayed_first`` a voluntary unplayed round worth at least as much goes first.
    """
    return cut(defeated_contributions(ctx, player), _part_maker(ctx), 1, 0,
               ctx.policy.cut_unplayed_first)


def koya(ctx: Context, player: str) -> Value:
    """Return the points scored against opponents with at least half the maximum score.

    FIDE C.07 art. 9.2 (Koya, KS): "the number of points achieved against all opponents
    who have achieved 50 % or more of the maximum possible score". The maximum is the
    format's win points times the rounds counted; games decided by forfeit count (a round
    robin treats them as played); byes have no opponent and add nothing.
    """
    mark = koya_mark(ctx)
    scores = ctx.scores
    games = [(entry, opp, scores[opp] + 1e-9 >= mark)
             for entry in ctx.records[player].entries if (opp := entry.opponent) is not None]

    def parts() -> list[Part]:
        return [Part(entry.round, opp, entry.points, counted=strong,
                     note=f"opponent {_fmt(scores[opp])} {'≥' if strong else '<'} {_fmt(mark)}")
                for entry, opp, strong in games]

    return Value(sum(entry.points for entry, _, strong in games if strong),
                 note=f"against opponents with at least {_fmt(mark)}", build=parts)


def koya_mark(ctx: Context) -> float:
    """Return Koya's 50 % mark: the format's win points times the rounds counted, halved."""
    return ctx.policy.win_points * ctx.rounds_counted / 2


SODOS = Tiebreak("sodos", "Sum of defeated opponents' scores (SODOS)", "SODOS", sodos,
                 fast=columns.defeated)
SB = Tiebreak("sb", "Sonneborn-Berger", "SB", sonneborn_berger, fast=columns.defeated)
SB_CUT1 = Tiebreak("sb-cut1", "Sonneborn-Berger cut-1", "SB-C1", sonneborn_berger_cut1,
                   fast=columns.sb_cut1)
KOYA = Tiebreak("koya", "Koya (points against the upper half)", "Koya", koya,
                fast=columns.koya(koya_mark))
