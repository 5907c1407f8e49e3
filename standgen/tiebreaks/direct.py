"""Direct encounter: the games among the players still tied decide between them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from standgen.model import GameKind
from standgen.tiebreaks.base import Context, Part, Tiebreak, Value


def _counts(ctx: Context, kind: GameKind) -> bool:
    return kind is GameKind.PLAYED or (
        kind is GameKind.FORFEIT and ctx.policy.forfeit_is_opponent
    )


def encounter_points(ctx: Context, player: str, group: Sequence[str]) -> dict[str, float]:
    """Return the player's points against each member of ``group`` they met.

    FIDE C.07 art. 6.1: games among the tied players; players who met more than once
    count the average of their results (6.1.2). Forfeits count only when the policy makes
    a forfeit's opponent an opponent: art. 6.1.1 excludes forfeits "not covered by
    Article 15.2", which makes a round robin's forfeits regular games.
    """
    results: dict[str, list[float]] = {}
    for entry in ctx.records[player].entries:
        if not _counts(ctx, entry.kind):
            continue
        for opp in entry.opponents:
            if opp in group and opp != player:
                results.setdefault(opp, []).append(entry.points)
    return {opp: sum(points) / len(points) for opp, points in sorted(results.items())}


def direct_tiers(ctx: Context, group: Sequence[str]) -> list[list[str]]:
    """Return the tied group split into tiers, best first, by direct encounter.

    FIDE C.07 art. 6.2: when every tied player met every other, their points in those
    games order them; players still level are compared again among themselves, on their
    games with each other only. Art. 6.3: when some did not meet, the top player is
    placed first only if they scored more than any other tied player could have with
    every missing game won; the rest are then compared again among themselves; otherwise
    the group stays tied. FIDE writes 6.3 for Swiss tournaments; standgen applies it to
    any event (a finished round robin's tied players have all met, unless a player left).
    """
    members = sorted(group)
    if len(members) < 2:
        return [members]
    table = {p: encounter_points(ctx, p, members) for p in members}
    points = {p: sum(table[p].values()) for p in members}
    all_met = all(len(table[p]) == len(members) - 1 for p in members)
    if all_met:
        tiers = _split(members, points)
        if len(tiers) == 1:
            return tiers
        return [sub for tier in tiers for sub in direct_tiers(ctx, tier)]
    return _not_all_met(ctx, members, table, points)


def _not_all_met(ctx: Context, members: list[str], table: Mapping[str, Mapping[str, float]],
                 points: Mapping[str, float]) -> list[list[str]]:
    """Return the tiers of a tied group where some did not meet (FIDE C.07 art. 6.3):
    the top player first only if they scored more than any other could have with every
    missing game won, the rest compared again; else the group stays tied."""
    most = {p: points[p] + (len(members) - 1 - len(table[p])) * ctx.policy.win_points
            for p in members}
    order = sorted(members, key=lambda p: (-points[p], p))
    top, rest = order[0], order[1:]
    if all(points[top] > most[p] + 1e-9 for p in rest):
        return [[top], *direct_tiers(ctx, rest)]
    return [members]


def _split(members: list[str], points: Mapping[str, float]) -> list[list[str]]:
    tiers: list[list[str]] = []
    for pid in sorted(members, key=lambda p: (-round(points[p], 9), p)):
        if tiers and round(points[tiers[-1][0]], 9) == round(points[pid], 9):
            tiers[-1].append(pid)
        else:
            tiers.append([pid])
    return tiers


def direct(ctx: Context, player: str, group: frozenset[str]) -> Value:
    """Return how many tied players the player outranks by direct encounter.

    FIDE C.07 art. 6 (DE), see :func:`direct_tiers`. The parts are the player's games
    against the other tied players (points scored); the value is the number of tied
    players ranked below by those games, so a higher value ranks higher.
    """
    if player not in group or len(group) < 2:
        return Value(0.0, note="not tied")
    key = "direct:" + ",".join(sorted(group))
    if key not in ctx.memo:
        ctx.memo[key] = _ranked_below(direct_tiers(ctx, sorted(group)), len(group))
    members = sorted(group)
    parts = [Part(entry.round, opp, entry.points,
                  note="forfeit" if entry.kind is GameKind.FORFEIT else "")
             for entry in ctx.records[player].entries if _counts(ctx, entry.kind)
             for opp in entry.opponents if opp in group and opp != player]
    value = ctx.memo[key][player]
    others = len(members) - 1
    scored = sum(encounter_points(ctx, player, members).values())
    note = (f"{scored:g} points against the tied players; ranks above {value:g} "
            f"of the {others} others by direct encounter")
    return Value(value, tuple(parts), note)


def _ranked_below(tiers: list[list[str]], size: int) -> dict[str, float]:
    """Return, for each player of the tiers (best first), how many of the ``size`` tied
    players rank below them."""
    below: dict[str, float] = {}
    remaining = size
    for tier in tiers:
        remaining -= len(tier)
        for pid in tier:
            below[pid] = float(remaining)
    return below


def _direct_alone(ctx: Context, player: str) -> Value:
    """Return 0: direct encounter is only defined among tied players (see :func:`direct`)."""
    return Value(0.0, note="not tied")


DIRECT = Tiebreak(
    "direct", "Direct encounter", "DE", _direct_alone, compute_group=direct,
)
