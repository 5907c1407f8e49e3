"""OpenGotha's pair cost (``Tournament.costValue``), handicap and colours
(``Tournament.gameBetween``), criterion by criterion, exactly as OpenGotha computes them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from standgen.pairing.gotha.java import _jdiv, det_random
from standgen.pairing.gotha.players import (
    AVOID_DUPLICATE,
    MIN_RANK,
    NX1,
    SCORE_DIFFERENCE,
    SEEDING,
    SMMS_CORR_MAX,
    Gamer,
    Settings,
)

SEED_LABELS = {"random": "split and random", "fold": "split and fold", "slip": "split and slip"}


def concave(weight: int, x: float) -> int:
    """Return ``(long) (weight × (1 − x) × (1 + k·x))``, OpenGotha's concave benefit.

    OpenGotha ``Tournament.costValue`` (main criteria 1, 2, secondary 1 and geography):
    ``k`` is ``paiStandardNX1Factor`` = 0.5, so two short mismatches cost less than one
    twice as long.
    """
    return int(weight * (1.0 - x) * (1.0 + NX1 * x))


def handicap(s: Settings, p1: Gamer, p2: Gamer) -> int:
    """Return the handicap of a game between ``p1`` and ``p2``, positive if ``p1`` gives it.

    OpenGotha ``Tournament.gameBetween``: pseudo ranks are the players' MMS read as a
    rank (``hdBasedOnMMS``) or their rank, each capped at ``hdNoHdRankThreshold``; the
    difference is brought ``hdCorrection`` stones towards 0 (not across it) and capped
    at ``hdCeiling``.
    """
    if s.hd_by_mms:
        r1, r2 = p1.mms2 // 2 + MIN_RANK, p2.mms2 // 2 + MIN_RANK
    else:
        r1, r2 = p1.rank, p2.rank
    hd = min(r1, s.hd_threshold) - min(r2, s.hd_threshold)
    if hd > 0:
        hd = max(0, hd - s.hd_correction)
    elif hd < 0:
        hd = min(0, hd + s.hd_correction)
    return max(-s.hd_ceiling, min(s.hd_ceiling, hd))


def game_between(s: Settings, p1: Gamer, p2: Gamer) -> tuple[Gamer, Gamer, int, str]:
    """Return (White, Black, handicap, why) for a game; ``p1`` comes first in score order.

    OpenGotha ``Tournament.gameBetween``: with a handicap the stronger (higher pseudo
    rank) takes White; an even game gives Black to the player with the greater
    ``wbBalance`` (whites minus blacks in even games so far) and, at equal balance,
    White to ``p1`` when ``Pairing.detRandom(1, p1, p2)`` is 0.
    """
    hd = handicap(s, p1, p2)
    if hd > 0:
        return p1, p2, hd, "handicap"
    if hd < 0:
        return p2, p1, -hd, "handicap"
    if p1.wb > p2.wb:
        return p2, p1, 0, "balance"
    if p1.wb < p2.wb:
        return p1, p2, 0, "balance"
    if det_random(1, p1, p2) == 0:
        return p1, p2, 0, "toss"
    return p2, p1, 0, "toss"


@dataclass(frozen=True)
class Field:
    """What every pair's cost reads besides the two players: settings and the round."""

    settings: Settings
    round0: int  # OpenGotha's 0-based round number being paired
    groups: int  # ScoredPlayer.numberOfGroups

    @property
    def seed_system(self) -> str:
        """The seeding system of this round (``costValue`` main criterion 4)."""
        s = self.settings
        return s.seed_system1 if self.round0 <= s.last_round_system1 else s.seed_system2

    @property
    def seed_system_label(self) -> str:
        """The seeding system in words."""
        return SEED_LABELS[self.seed_system]


CRITERIA = ("duplicate", "random", "colour", "score", "dudd", "seeding", "handicap", "geo")


def cost_parts(f: Field, p1: Gamer, p2: Gamer) -> dict[str, int]:
    """Return each criterion's share of a pair's cost (higher is better), as OpenGotha.

    OpenGotha ``Tournament.costValue``, in its order (the sum plus 1 is the pair's cost;
    categories are not used, one category):

    - base 1, avoid duplicates: ``paiBaAvoidDuplGame`` if the two have not met;
    - base 2, random: ``Pairing.detRandom(paiBaRandom, p1, p2)``;
    - base 3, colour balance (not if the game would have a handicap): the full
      ``paiBaBalanceWB`` when the two balances have opposite signs, half when one is 0
      and the other at least 2;
    - main 2, score difference: concave in ``|group1 − group2| / numberOfGroups``;
    - main 3, draw-up / draw-down (groups less than 4 apart): the position term of each
      side (``PAIMA_DUDD_TOP`` / ``MID`` / ``BOT``) plus 0 to 4 fifths of the weight by
      scenario: 2 normally, 1 less for each player drawn again the way they were drawn
      before, 1 more for each player drawn back the other way (``paiMaCompensateDUDD``);
    - main 4, seeding inside a group: split and random (upper half against lower half,
      minus ``detRandom`` up to a fifth of the weight), split and fold, or split and slip;
    - secondary 1, minimise handicap (weight 0 by default in McMahon), on pseudo MMS
      raised to the top for players above the thresholds (bar, rank, wins);
    - secondary 2-4, geography: ``paiMaMinimizeScoreDifference`` minus the concave
      ``paiSeAvoidSameGeo`` of a ratio that is 0 for club mates and compatriots, else
      built from ``paiSePreferMMSDiffRatherThanSameCountry`` (per group) and
      ``...SameClub`` (× 1.2, no club groups here), capped at ``paiSeAvoidSameGeo``.
    """
    s = f.settings
    parts = dict.fromkeys(CRITERIA, 0)
    if not p1.met.get(p2.id):
        parts["duplicate"] = AVOID_DUPLICATE
    parts["random"] = det_random(s.random, p1, p2)
    if handicap(s, p1, p2) == 0:
        wb1, wb2 = p1.wb, p2.wb
        if wb1 * wb2 < 0:
            parts["colour"] = s.balance_wb
        elif (wb1 == 0 and abs(wb2) >= 2) or (wb2 == 0 and abs(wb1) >= 2):
            parts["colour"] = s.balance_wb // 2
    gap = abs(p1.group - p2.group)
    parts["score"] = concave(SCORE_DIFFERENCE, gap / f.groups)
    if 0 < gap < 4:
        parts["dudd"] = _dudd(s, p1, p2)
    if gap == 0:
        parts["seeding"] = _seeding(f, p1, p2)
    parts["handicap"] = _handicap_cost(f, p1, p2)
    parts["geo"] = _geo(f, p1, p2)
    return parts


def cost(f: Field, p1: Gamer, p2: Gamer) -> int:
    """Return OpenGotha's cost of the pair (``Tournament.costValue``): 1 + every part."""
    return 1 + sum(cost_parts(f, p1, p2).values())


def pair_costs(f: Field, group: Sequence[Gamer]) -> list[tuple[int, int, int]]:
    """Return ``(i, j, cost)`` for every pair ``i < j`` of ``group``: :func:`cost`, faster.

    The same sum as :func:`cost_parts` (tests hold them equal), with what depends on
    few values computed once: the score part per group gap, the geography part per
    (same club, same country), each player's capped pseudo rank for the handicap test.
    """
    s = f.settings
    by_gap = _score_parts(f, group)
    geo = _geo_parts(f)
    pseudo = _pseudo_ranks(s, group)
    clubs = [p.club.lower() for p in group]
    countries = [p.country.lower() for p in group]
    even = max(0, s.hd_correction) if s.hd_ceiling else None  # |difference| giving 0 stones
    random_on = s.random != 0
    out: list[tuple[int, int, int]] = []
    for i, p1 in enumerate(group):
        met, g1, wb1, r1, club1, country1 = (p1.met, p1.group, p1.wb, pseudo[i], clubs[i],
                                             countries[i])
        for j in range(i + 1, len(group)):
            p2 = group[j]
            c = 1 + by_gap[abs(g1 - p2.group)]
            c += geo[club1 == clubs[j], country1 == countries[j]]
            if not met.get(p2.id):
                c += AVOID_DUPLICATE
            if even is None or abs(r1 - pseudo[j]) <= even:
                wb2 = p2.wb
                if wb1 * wb2 < 0:
                    c += s.balance_wb
                elif (wb1 == 0 and abs(wb2) >= 2) or (wb2 == 0 and abs(wb1) >= 2):
                    c += s.balance_wb // 2
            gap = g1 - p2.group
            if gap == 0:
                c += _seeding(f, p1, p2)
            elif -4 < gap < 4:
                c += _dudd(s, p1, p2)
            if random_on:
                c += det_random(s.random, p1, p2)
            if s.minimize_handicap:
                c += _handicap_cost(f, p1, p2)
            out.append((i, j, c))
    return out


def _score_parts(f: Field, group: Sequence[Gamer]) -> list[int]:
    """Return the score part (main criterion 4) for each gap between the groups of
    ``group``'s players, from 0 to the widest."""
    spread = max((p.group for p in group), default=0) - min((p.group for p in group), default=0)
    return [concave(SCORE_DIFFERENCE, gap / f.groups) for gap in range(spread + 1)]


def _geo_parts(f: Field) -> dict[tuple[bool, bool], int]:
    """Return the geography part by (same club, same country), as :func:`_geo` gives it
    for two players who differ only there."""
    geo = {}
    for same_club in (False, True):
        for same_country in (False, True):
            a = Gamer("a", "a", "", 0, 0.0, "x", "x", 0, 0, ())
            b = Gamer("b", "b", "", 0, 0.0, "x" if same_club else "y",
                      "x" if same_country else "y", 0, 0, ())
            geo[same_club, same_country] = _geo(f, a, b)
    return geo


def _pseudo_ranks(s: Settings, group: Sequence[Gamer]) -> list[int]:
    """Return each player's rank for the handicap test (from the MMS with
    ``hd_by_mms``), capped at the handicap threshold."""
    return [min(p.mms2 // 2 + MIN_RANK if s.hd_by_mms else p.rank, s.hd_threshold)
            for p in group]


def _dudd(s: Settings, p1: Gamer, p2: Gamer) -> int:
    """Return the draw-up / draw-down part (``Tournament.costValue`` main criterion 3).

    The scenario starts at 2, one less for each player drawn again the way they were
    drawn before, then (unless 0) one more for each player drawn back the other way; it
    weighs ``dudd_weight / 5`` that many times (twice above 2 without compensation).
    Inline, not a helper: it runs for every pair of neighbouring groups."""
    scenario = 2
    for p, q in ((p1, p2), (p2, p1)):
        if p.du > 0 and p.group > q.group:
            scenario -= 1
        if p.dd > 0 and p.group < q.group:
            scenario -= 1
    for p, q in ((p1, p2), (p2, p1)):
        if scenario != 0 and p.du > 0 and p.dd < p.du and p.group < q.group:
            scenario += 1
        if scenario != 0 and p.dd > 0 and p.du < p.dd and p.group > q.group:
            scenario += 1
    weight = s.dudd_weight // 5
    upper, lower = (p1, p2) if p1.group < p2.group else (p2, p1)
    value = _position(s.dudd_upper, weight, upper) + _position(s.dudd_lower, weight, lower)
    if scenario > 2 and not s.compensate_dudd:
        return value + 2 * weight
    return value + (scenario * weight if 1 <= scenario <= 4 else 0)


def _position(mode: str, weight: int, p: Gamer) -> int:
    """Return the term for where in its group the drawn player sits (top, middle, bottom).

    OpenGotha ``costValue``: ``duddWeight / 2 × position term / groupSize``, Java integer
    arithmetic left to right.
    """
    size, inner = p.group_size, p.inner
    if mode == "top":
        term = size - 1 - inner
    elif mode == "middle":
        term = size - 1 - abs(2 * inner - size + 1)
    else:
        term = inner
    return _jdiv(weight // 2 * term, size)


def _seeding(f: Field, p1: Gamer, p2: Gamer) -> int:
    """Return the seeding part of two players of one group (``costValue`` criterion 4).

    Split and random: upper half against lower half is worth the weight minus
    ``detRandom(weight × 0.2)``, any other pair 0. Split and fold: best when the places
    add up to ``groupSize − 1``. Split and slip: best when they are half a group apart.
    """
    weight = SEEDING
    size, c1, c2 = p1.group_size, p1.inner, p2.inner
    system = f.seed_system
    if system == "random":
        if (2 * c1 < size) != (2 * c2 < size):
            return weight - det_random(int(weight * 0.2), p1, p2)
        return 0
    if system == "fold":
        x = c1 + c2 - (size - 1)
        return weight - _jdiv(_jdiv(weight * x, size - 1) * x, size - 1)
    x = 2 * abs(c1 - c2) - size
    return weight - _jdiv(_jdiv(weight * x, size) * x, size)


def _handicap_cost(f: Field, p1: Gamer, p2: Gamer) -> int:
    """Return the minimise-handicap part (``costValue`` secondary criterion 1).

    A player with many wins (``paiSeNbWinsThresholdActive``: half the rounds), a rank
    plus wins at or above ``paiSeRankThreshold``, or a starting MMS at the bar
    (``paiSeBarThresholdActive``) counts at the top MMS.
    """
    s = f.settings
    if not s.minimize_handicap:
        return 0
    wins2 = s.rounds if s.wins_threshold else 2 * s.rounds
    bar = s.bar - MIN_RANK
    top = s.bar + SMMS_CORR_MAX - MIN_RANK + f.round0
    pseudo = []
    for p in (p1, p2):
        strong = (2 * p.rank + p.wins2 >= 2 * s.rank_threshold or p.wins2 >= wins2
                  or (p.smms >= bar and s.bar_threshold))
        pseudo.append(top if strong else p.mms2 // 2)
    return concave(s.minimize_handicap, abs(pseudo[0] - pseudo[1]) / f.groups)


def _geo(f: Field, p1: Gamer, p2: Gamer) -> int:
    """Return the geography part (``costValue`` secondary criteria 2-4)."""
    s = f.settings
    groups = f.groups
    country = 0.0
    if p1.country.lower() != p2.country.lower() and s.country_factor:
        country = min(1.0, s.country_factor / groups)
    club = 0.0
    if p1.club.lower() != p2.club.lower() and s.club_factor:
        club = min(1.0, s.club_factor * 1.2 / groups)
    ratio = max(country, club) + min(country, club) / 2.0
    if ratio > 0.0:
        ratio += 0.5 / groups
    value = (float(s.avoid_same_geo) * (1.0 - ratio)) * (1.0 + NX1 * ratio)
    return min(s.avoid_same_geo, SCORE_DIFFERENCE - int(value))
