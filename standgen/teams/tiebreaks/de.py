"""DE, direct encounter among teams (FIDE C.07 art. 6, applied to match points): inside
each group of teams still equal on every tie-break before it, the match points the
teams scored in their matches against each other decide (a pair that met twice counts
its average). In a Swiss a match not played (forfeited whole) is no encounter (FIDE TEC,
*Exercises in tie-breaking*, 2023, ch. 11: "in Swiss-system tournaments, unplayed
matches are all ignored").

When not every team of the group has met every other (a Swiss), a team is placed ahead
only when its points against the group exceed what any team below it could still
reach, each unplayed pairing counted as a match won (art. 6.2); from the first team that
cannot be separated so, the rest of the group shares the place. The split groups are
decided again the same way, until nothing changes. The value is the team's place inside
its group (1, 2 ...; lower is better), or 0 for every team of a group it does not split.

:func:`resolve` is the one engine of DE and of the extended direct encounters (EDE,
EDET: :mod:`standgen.teams.tiebreaks.ede`), which apply such steps in turn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from standgen.teams.tiebreaks.base import TeamTiebreak
from standgen.teams.tiebreaks.table import TeamRoundEntry, TeamTable


@dataclass(frozen=True)
class Step:
    """One direct-encounter step: the points a team scored in a round against the group
    (match points, game points, one board's result), what a pairing not played could
    still bring (a match won: its match points, every game, the board), and whether it
    decides only a group of exactly two teams (C.07 art. 13.3.2's board tie-breaks)."""

    points: Callable[[TeamRoundEntry], float]
    most: Callable[[TeamTable], float]
    pairs_only: bool = False


MATCH_POINTS = Step(lambda e: e.mp, lambda table: table.won_mp)


def _split(table: TeamTable, group: list[str], place: Mapping[str, int],
           step: Step) -> dict[str, int]:
    """Return new places for one group of teams sharing a place, by ``step``."""
    members = set(group)
    scored: dict[str, float] = {}
    most: dict[str, float] = {}
    met_all = True
    for team in group:
        against: dict[str, list[float]] = {}
        for entry in table.entries.get(team, ()):
            if entry.played and not entry.forfeited and entry.opponent in members:
                against.setdefault(entry.opponent, []).append(step.points(entry))
        scored[team] = sum(sum(v) / len(v) for v in against.values())
        unmet = len(group) - 1 - len(against)
        met_all = met_all and unmet == 0
        most[team] = scored[team] + unmet * step.most(table)
    order = sorted(group, key=lambda t: (-scored[t], -most[t], group.index(t)))
    start = place[order[0]]
    out = {order[0]: start}
    current, previous, unique = start, scored[order[0]], True
    for k in range(1, len(order)):
        team = order[k]
        if met_all:
            if scored[team] != previous:
                current = start + k
        elif unique and previous > max(most[t] for t in order[k:]):
            current = start + k
        else:
            unique = False
        out[team] = current
        previous = scored[team]
    return out


def _pass(table: TeamTable, order: Sequence[str], first: Mapping[str, int],
          place: dict[str, int], step: Step) -> bool:
    """Apply ``step`` once to every group still sharing a place; return whether a
    place changed."""
    groups: dict[tuple[int, int], list[str]] = {}
    for team in order:
        groups.setdefault((first[team], place[team]), []).append(team)
    changed = False
    for group in groups.values():
        if (len(group) == 2) if step.pairs_only else (len(group) > 1):
            new = _split(table, group, place, step)
            changed = changed or any(new[t] != place[t] for t in group)
            place.update(new)
    return changed


def resolve(table: TeamTable, before: Mapping[str, tuple[float, ...]],
            steps: Sequence[Step]) -> Mapping[str, float]:
    """Return each team's place inside its group of teams equal on ``before`` (each
    team's values of the tie-breaks before, higher better), 0 in a group left equal.

    The steps are applied in turn to every group still sharing a place: a step is
    applied again as long as it splits a group, then the next (after the last, the first
    again), until none of them splits any group: as FIDE TEC's TieBreakServer
    (commit 14a34a2) runs DE, EDE and EDET."""
    order = sorted(table.entries, key=lambda t: tuple(-v for v in before[t]))
    place: dict[str, int] = {}
    for k, team in enumerate(order):
        same = k and before[order[k - 1]] == before[team]
        place[team] = place[order[k - 1]] if same else k + 1
    first = dict(place)
    current, quiet = 0, 0
    # each split adds a place, so at most len(order) passes change anything
    for _ in range((len(order) + 1) * len(steps)):
        if _pass(table, order, first, place, steps[current]):
            quiet = 0
            continue
        quiet += 1
        if quiet == len(steps):
            break
        current = (current + 1) % len(steps)
    out: dict[str, float] = {}
    for team in order:
        group = [t for t in order if first[t] == first[team]]
        split = len({place[t] for t in group}) > 1
        out[team] = place[team] - first[team] + 1 if split else 0
    return out


def compute_tied(table: TeamTable, before: Mapping[str, tuple[float, ...]]
                 ) -> Mapping[str, float]:
    """Return each team's DE among the teams equal on ``before`` (each team's values of
    the tie-breaks before DE, higher better), in the standings order they give."""
    return resolve(table, before, (MATCH_POINTS,))


TIEBREAK = TeamTiebreak("de", "DE", "Direct encounter", lambda table: {}, compute_tied,
                        lower_first=True)
