"""OpenGotha's order of play: the players in score order
(``JFrGamesPair.scoreSortedPlayers``), the bye (``Tournament.chooseAByePlayer``), score
groups and draw-up / draw-down counts (``Tournament.fillPairingInfo``) and the pairing
groups of a round."""

from __future__ import annotations

from collections.abc import Sequence

from standgen.pairing.gotha.java import _utf16
from standgen.pairing.gotha.players import (
    GROUP_MAX,
    GROUP_MIN,
    MIN_RANK,
    SMMS_CORR_MAX,
    SMMS_CORR_MIN,
    Gamer,
    Settings,
)


def score_order(players: Sequence[Gamer]) -> list[Gamer]:
    """Return the players in OpenGotha's score order.

    OpenGotha ``Tournament.orderedScoredPlayersList`` with ``ScoredPlayerComparator``:
    placement criteria (MMS, then the tiebreaks) best first, then name, then first name.
    """
    return sorted(players, key=lambda p: (tuple(-v for v in p.placement),
                                          _utf16(p.name), _utf16(p.first_name)))


def fill_pairing_info(s: Settings, everyone: Sequence[Gamer], round0: int) -> int:
    """Set group, group size, inner place, draw-ups and draw-downs; return the group count.

    OpenGotha ``Tournament.fillPairingInfo``: groups are the integer MMS values from
    ``bar + 2 + round`` down to ``floor − 1`` (on its 30k-based scale), numbered from the
    top, empty ones counted; inside a group players are sorted by the placement criteria
    then the round's additional criterion (``paiMaAdditionalPlacementCritSystem1/2``),
    then name. A draw-up (draw-down) is a game, in an earlier round, against an opponent
    whose integer MMS before that round was higher (lower).
    """
    top = s.bar + SMMS_CORR_MAX + round0 - MIN_RANK
    bottom = s.floor + SMMS_CORR_MIN - MIN_RANK
    extra = s.order_system1 if round0 <= s.last_round_system1 else s.order_system2
    by_score: dict[int, list[Gamer]] = {}
    for p in everyone:
        by_score.setdefault(p.mms2 // 2, []).append(p)
    for score, members in by_score.items():
        members.sort(key=lambda p: (tuple(-v for v in p.placement), -_extra(extra, p),
                                    _utf16(p.name), _utf16(p.first_name)))
        for k, p in enumerate(members):
            p.group, p.group_size, p.inner = top - score, len(members), k
    by_id = {p.id: p for p in everyone}
    for p in everyone:
        p.du = p.dd = 0
        for rnd, opp in p.opponents:
            other = by_id.get(opp)
            if other is None:
                continue
            mine, theirs = p.history.get(rnd, 0), other.history.get(rnd, 0)
            p.du += mine < theirs
            p.dd += mine > theirs
    return top - bottom + 1


def _extra(criterion: str, p: Gamer) -> float:
    if criterion == "rating":
        return p.rating
    if criterion == "rank":
        return p.rank
    return 0.0


def bye_candidates(players: Sequence[Gamer]) -> list[Gamer]:
    """Return ``players`` (given in score order) in OpenGotha's order of preference for
    the bye, its choice first.

    OpenGotha ``Tournament.chooseAByePlayer``: weight = rank + 2 × MMS + 1000 × byes so
    far; the least weight, and the later player in the list on equal weight.
    """
    ranked = sorted(enumerate(players),
                    key=lambda kp: (kp[1].rank + kp[1].mms2 + 1000 * kp[1].byes, -kp[0]))
    return [p for _, p in ranked]


def choose_bye(players: Sequence[Gamer]) -> Gamer:
    """Return OpenGotha's bye among ``players`` (score order): :func:`bye_candidates`' first."""
    return bye_candidates(players)[0]


def pairing_groups(players: Sequence[Gamer], round0: int, s: Settings) -> list[list[Gamer]]:
    """Return the player lists OpenGotha matches separately (one unless over 600).

    OpenGotha ``Tournament.makeAutomaticPairing``: while more than
    ``PAIRING_GROUP_MAX_SIZE`` players remain, take players by main score from the top
    until an even group of at least ``PAIRING_GROUP_MIN_SIZE`` (or the maximum size, or
    too few left), and pair it alone.
    """
    remaining = list(players)
    out: list[list[Gamer]] = []
    top = s.bar + SMMS_CORR_MAX + round0 - MIN_RANK
    bottom = s.floor + SMMS_CORR_MIN - MIN_RANK
    while len(remaining) > GROUP_MAX:
        group: list[Gamer] = []
        ready = False
        for score in range(top, bottom - 1, -1):
            for p in list(remaining):
                if p.mms2 // 2 < score:
                    continue
                group.append(p)
                remaining.remove(p)
                if len(group) >= GROUP_MAX or len(remaining) <= GROUP_MIN:
                    ready = True
                    break
            if len(group) >= GROUP_MIN and len(group) % 2 == 0:
                ready = True
            if ready:
                break
        out.append(group)
    out.append(remaining)
    return out
