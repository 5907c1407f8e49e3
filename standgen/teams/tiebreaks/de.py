"""DE, direct encounter among teams (FIDE C.07 art. 6, applied to match points): inside
each group of teams still equal on every tie-break before it, the match points the
teams scored in their matches against each other decide (a pair that met twice counts
its average).

When not every team of the group has met every other (a Swiss), a team is placed ahead
only when its points against the group exceed what any team below it could still
reach, each unplayed pairing counted as a match won (art. 6.2); from the first team that
cannot be separated so, the rest of the group shares the place. The split groups are
decided again the same way, until nothing changes. The value is the team's place inside
its group (1, 2 ...; lower is better), or 0 for every team of a group it does not split.
"""

from __future__ import annotations

from collections.abc import Mapping

from standgen.teams.tiebreaks.base import TeamTiebreak
from standgen.teams.tiebreaks.table import TeamTable


def _split(table: TeamTable, group: list[str], place: Mapping[str, int]) -> dict[str, int]:
    """Return new places for one group of teams sharing a place."""
    members = set(group)
    scored: dict[str, float] = {}
    most: dict[str, float] = {}
    met_all = True
    for team in group:
        against: dict[str, list[float]] = {}
        for entry in table.entries.get(team, ()):
            if entry.played and entry.opponent in members:
                against.setdefault(entry.opponent, []).append(entry.mp)
        scored[team] = sum(sum(v) / len(v) for v in against.values())
        unmet = len(group) - 1 - len(against)
        met_all = met_all and unmet == 0
        most[team] = scored[team] + unmet * table.won_mp
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


def compute_tied(table: TeamTable, before: Mapping[str, tuple[float, ...]]
                 ) -> Mapping[str, float]:
    """Return each team's DE among the teams equal on ``before`` (each team's values of
    the tie-breaks before DE, higher better), in the standings order they give."""
    order = sorted(table.entries, key=lambda t: tuple(-v for v in before[t]))
    place: dict[str, int] = {}
    for k, team in enumerate(order):
        same = k and before[order[k - 1]] == before[team]
        place[team] = place[order[k - 1]] if same else k + 1
    first = dict(place)
    for _ in range(30):
        groups: dict[tuple[int, int], list[str]] = {}
        for team in order:
            groups.setdefault((first[team], place[team]), []).append(team)
        changed = False
        for group in groups.values():
            if len(group) > 1:
                new = _split(table, group, place)
                changed = changed or any(new[t] != place[t] for t in group)
                place.update(new)
        if not changed:
            break
    out: dict[str, float] = {}
    for team in order:
        group = [t for t in order if first[t] == first[team]]
        split = len({place[t] for t in group}) > 1
        out[team] = place[team] - first[team] + 1 if split else 0
    return out


TIEBREAK = TeamTiebreak("de", "DE", "Direct encounter", lambda table: {}, compute_tied,
                        lower_first=True)
