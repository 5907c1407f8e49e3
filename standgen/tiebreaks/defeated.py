"""Tiebreaks over the opponents a player scored against: SODOS, Sonneborn-Berger, Koya."""

from __future__ import annotations

from typing import TYPE_CHECKING

from standgen import perf
from standgen.model import GameKind
from standgen.tiebreaks.base import Context, Part, Tiebreak, Value, result_share, summed_lazily
from standgen.tiebreaks.cuts import Contribution, Key, cut, cut_note, cut_value
from standgen.tiebreaks.opponents import is_unplayed_for, unplayed_note

if TYPE_CHECKING:
    from standgen.records import Entry


def defeated_contributions(ctx: Context, player: str) -> list[Contribution]:
    """Return :func:`compute_defeated`'s contributions, computed once per context
    (SODOS, Sonneborn-Berger and its cut share them)."""
    return ctx.shared("defeated-contributions", player, compute_defeated)


def defeated_keys(ctx: Context, player: str) -> list[Key]:
    """Return :func:`compute_defeated`'s contributions as cut keys, computed once per
    context: (opponent score, contribution, voluntary), the same values in the same
    order, without building a part (ranking reads values only)."""
    return ctx.shared("defeated-keys", player, _compute_defeated_keys)


def _compute_defeated_keys(ctx: Context, player: str) -> list[Key]:
    keys: list[Key] = []
    append = keys.append
    policy = ctx.policy
    adjust = policy.game_adjustment
    unplayed = policy.unplayed_opponent_score if policy.defeated_counts_unplayed else None
    forfeit_counts = policy.forfeit_is_opponent
    for entry in ctx.entries(player):
        share = result_share(policy, entry)
        kind = entry.game.kind
        if kind is GameKind.BYE or kind is GameKind.ABSENT or (
            kind is GameKind.FORFEIT and not forfeit_counts
        ):  # is_unplayed_for, inlined
            score = unplayed(ctx, player, entry) if unplayed is not None else None
            if score is None:
                append((0.0, 0.0, policy.voluntary(entry)))
            else:
                append((score, score * share, policy.voluntary(entry)))
            continue
        change = adjust(ctx, player, entry) if adjust is not None else None
        for opp in entry.opponents:
            score = ctx.opponent_value(opp)
            if change is not None:
                score += change.value
            append((score, score * share, False))
    return keys


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
    adjust = ctx.policy.game_adjustment
    for entry in ctx.entries(player):
        share = result_share(ctx.policy, entry)
        if is_unplayed_for(ctx, entry):
            voluntary = ctx.policy.voluntary(entry)
            unplayed = (ctx.policy.unplayed_opponent_score
                        if ctx.policy.defeated_counts_unplayed else None)
            score = unplayed(ctx, player, entry) if unplayed is not None else None
            note = unplayed_note(entry)
            if score is None:
                part = Part(entry.round, None, 0.0, note=note)
                score = 0.0
            else:
                part = Part(entry.round, None, score * share,
                            note=f"{note}: virtual opponent {_fmt(score)} × {_fmt(share)}")
            contributions.append(Contribution(part, score, voluntary))
            continue
        change = adjust(ctx, player, entry) if adjust is not None else None
        for opp in entry.opponents:
            score = ctx.opponent_value(opp)
            if change is None:
                note = _result_note(entry, score, share)
            else:
                note = _result_note(entry, score, share, f"({change.text(score)})")
                score += change.value
            part = Part(entry.round, opp, score * share, note=note)
            contributions.append(Contribution(part, score))
    return contributions


_FORMATTED: dict[float, str] = {}


def _fmt(number: float) -> str:
    """Return ``f"{number:g}"``, shared across calls (scores repeat across thousands of parts).

    Zero is formatted each time: 0.0 and -0.0 are equal keys but print differently.
    """
    if number == 0 or not perf.enabled():
        return f"{number:g}"
    text = _FORMATTED.get(number)
    if text is None:
        if len(_FORMATTED) > 65536:
            _FORMATTED.clear()
        text = _FORMATTED[number] = f"{number:g}"
    return text


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
    return summed_lazily(
        lambda: sum(key[1] for key in defeated_keys(ctx, player)),
        lambda: [c.part for c in defeated_contributions(ctx, player)],
    )


def sonneborn_berger_cut1(ctx: Context, player: str) -> Value:
    """Return Sonneborn-Berger without the least significant value.

    FIDE C.07 art. 14.1: the contribution of the opponent with the lowest score is cut
    (the lowest such contribution where several share it); art. 16.5: with the policy's
    ``cut_unplayed_first`` a voluntary unplayed round worth at least as much goes first.
    """
    first = ctx.policy.cut_unplayed_first
    if not perf.enabled():
        return cut(defeated_contributions(ctx, player), 1, 0, first)
    return Value(
        cut_value(defeated_keys(ctx, player), 1, 0, first), note=cut_note(1, 0),
        build=lambda: cut(defeated_contributions(ctx, player), 1, 0, first).parts,
    )


def koya(ctx: Context, player: str) -> Value:
    """Return the points scored against opponents with at least half the maximum score.

    FIDE C.07 art. 9.2 (Koya, KS): "the number of points achieved against all opponents
    who have achieved 50 % or more of the maximum possible score". The maximum is the
    format's win points times the rounds counted; games decided by forfeit count (a round
    robin treats them as played); byes have no opponent and add nothing.
    """
    mark = ctx.policy.win_points * ctx.rounds_counted / 2
    scores = ctx.scores
    entries = ctx.records[player].entries

    def value() -> float:
        return sum(e.points for e in entries
                   if (opp := e.opponent) is not None and scores[opp] + 1e-9 >= mark)

    def parts() -> list[Part]:
        made: list[Part] = []
        for entry in entries:
            opp = entry.opponent
            if opp is not None:
                strong = ctx.score(opp) + 1e-9 >= mark
                note = f"opponent {_fmt(ctx.score(opp))} {'≥' if strong else '<'} {_fmt(mark)}"
                made.append(Part(entry.round, opp, entry.points, note=note, counted=strong))
        return made

    return summed_lazily(value, parts, note=f"against opponents with at least {_fmt(mark)}")


SODOS = Tiebreak("sodos", "Sum of defeated opponents' scores (SODOS)", "SODOS", sodos)
SB = Tiebreak("sb", "Sonneborn-Berger", "SB", sonneborn_berger)
SB_CUT1 = Tiebreak("sb-cut1", "Sonneborn-Berger cut-1", "SB-C1", sonneborn_berger_cut1)
KOYA = Tiebreak("koya", "Koya (points against the upper half)", "Koya", koya)
