"""OpenGotha's McMahon pairing model: its pair cost, bye, colours and handicap.

Read from OpenGotha V3.51.02 (github.com/lucvannier/opengotha, ``Tournament``,
``Pairing``, ``PairingParameterSet``, ``HandicapParameterSet``), rewritten here. Each
function cites the method it follows. OpenGotha pairs a round by:

1. the players to pair in score order (``JFrGamesPair.scoreSortedPlayers``: placement
   criteria, then name and first name), the bye taken out first
   (``Tournament.chooseAByePlayer``);
2. score groups, inner placement and draw-up / draw-down counts of every registered
   player (``Tournament.fillPairingInfo``);
3. the cost of every pair (``Tournament.costValue``), maximised by a maximum-weight
   matching (``WeightedMatchLong``; here rustworkx's, exact on Python integers);
4. colours and handicap of each game (``Tournament.gameBetween``).

Costs are integers exactly as OpenGotha computes them, Java's ``double`` arithmetic
being Python's ``float`` in the same operation order and ``(long)`` a truncation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# OpenGotha PairingParameterSet constants
AVOID_DUPLICATE = 500_000_000_000_000  # PAIBA_MAX_AVOIDDUPLGAME, 5·10^14
MAX_RANDOM = 1_000_000_000  # PAIBA_MAX_RANDOM
BALANCE_WB = 1_000_000  # PAIBA_MAX_BALANCEWB
SCORE_DIFFERENCE = 100_000_000_000  # PAIMA_MAX_MINIMIZE_SCORE_DIFFERENCE, 10^11
DUDD_WEIGHT = SCORE_DIFFERENCE // 1000  # PAIMA_MAX_DUDD_WEIGHT
SEEDING = SCORE_DIFFERENCE // 20000  # PAIMA_MAX_MAXIMIZE_SEEDING, 5·10^6
NX1 = 0.5  # PairingParameterSet.paiStandardNX1Factor
SMMS_CORR_MAX, SMMS_CORR_MIN = 2, -1  # PlacementParameterSet.PLA_SMMS_CORR_MAX / _MIN
MIN_RANK, MAX_RANK = -30, 8  # Gotha.MIN_RANK (30k), Gotha.MAX_RANK (9d)
GROUP_MIN, GROUP_MAX = 200, 600  # Pairing.PAIRING_GROUP_MIN_SIZE / _MAX_SIZE

SEED_SYSTEMS = ("random", "fold", "slip")
DUDD_MODES = ("top", "middle", "bottom")
ORDER_CRITERIA = ("", "rating", "rank")


@dataclass(frozen=True)
class Settings:
    """OpenGotha's pairing parameters (``PairingParameterSet.initForMM`` defaults).

    Bar and floor are OpenGotha ranks (``genMMBar``, ``genMMFloor``: 9d and 30k when the
    event has none), ``zero`` the rank whose MMS is 0 in standgen's scale (OpenGotha's
    is fixed at 30k; its scores are shifted accordingly).
    """

    bar: int = 8
    floor: int = MIN_RANK
    zero: int = MIN_RANK
    rounds: int = 5  # GeneralParameterSet.numberOfRounds
    random: int = 0  # paiBaRandom (0 or PAIBA_MAX_RANDOM), always deterministic here
    balance_wb: int = BALANCE_WB  # paiBaBalanceWB
    dudd_weight: int = DUDD_WEIGHT  # paiMaDUDDWeight
    compensate_dudd: bool = True  # paiMaCompensateDUDD
    dudd_upper: str = "middle"  # paiMaDUDDUpperMode: who of the upper group is drawn down
    dudd_lower: str = "middle"  # paiMaDUDDLowerMode: who of the lower group is drawn up
    last_round_system1: int = 1  # paiMaLastRoundForSeedSystem1 (0-based round numbers)
    seed_system1: str = "random"  # paiMaSeedSystem1
    seed_system2: str = "slip"  # paiMaSeedSystem2
    order_system1: str = "rating"  # paiMaAdditionalPlacementCritSystem1
    order_system2: str = ""  # paiMaAdditionalPlacementCritSystem2
    bar_threshold: bool = True  # paiSeBarThresholdActive
    rank_threshold: int = 0  # paiSeRankThreshold (1d)
    wins_threshold: bool = False  # paiSeNbWinsThresholdActive
    minimize_handicap: int = 0  # paiSeMinimizeHandicap (paiSeDefSecCrit when on)
    avoid_same_geo: int = SCORE_DIFFERENCE  # paiSeAvoidSameGeo
    country_factor: int = 1  # paiSePreferMMSDiffRatherThanSameCountry
    club_factor: int = 3  # paiSePreferMMSDiffRatherThanSameClub
    hd_by_mms: bool = True  # HandicapParameterSet.hdBasedOnMMS
    hd_threshold: int = 0  # hdNoHdRankThreshold
    hd_correction: int = 1  # hdCorrection
    hd_ceiling: int = 9  # hdCeiling


@dataclass
class Gamer:
    """One registered player as OpenGotha's ``ScoredPlayer`` sees it before the round.

    ``mms2`` is twice the McMahon score on OpenGotha's scale (0 at 30k), ``history`` the
    integer MMS before each earlier round (``fillPairingInfo``'s ``scoreBefore``).
    """

    id: str
    name: str  # OpenGotha Player.name
    first_name: str  # OpenGotha Player.firstName
    rank: int
    rating: float
    club: str
    country: str
    smms: int  # starting MMS on OpenGotha's scale (Player.smms)
    mms2: int
    placement: tuple[float, ...]  # placement criteria, higher is better
    wins2: int = 0  # NBW x 2
    byes: int = 0
    wb: int = 0  # Pairing.wbBalance
    met: dict[str, int] = field(default_factory=dict)  # opponent -> games so far
    opponents: list[tuple[int, str]] = field(default_factory=list)  # (round, opponent)
    history: dict[int, int] = field(default_factory=dict)  # round -> integer MMS before it
    group: int = 0
    group_size: int = 1
    inner: int = 0
    du: int = 0
    dd: int = 0
    hash_terms: tuple[list[int], int, int] | None = None  # det_random's, computed once

    @property
    def key(self) -> str:
        """The string ``Pairing.detRandom`` reads: name then first name."""
        return self.name + self.first_name


def rating_from_rank(rank: int) -> float:
    """Return OpenGotha's rating for a rank, given to a player registered without one.

    OpenGotha ``Player.ratingFromRank``: ``(rank + 30) × 100 − 900`` (1d = 2100, 1k = 2000).
    """
    return float((rank - MIN_RANK) * 100 - 900)


def split_name(full: str) -> tuple[str, str]:
    """Return OpenGotha's (name, first name) of a players.csv name: first word, the rest.

    OpenGotha keeps them apart; standgen has one ``name`` column, read as
    "Surname Firstname" (the corpus and EGD order).
    """
    parts = full.split(None, 1)
    if not parts:
        return "", ""
    return parts[0], parts[1] if len(parts) > 1 else ""


def _java_long(value: int) -> int:
    """Return ``value`` wrapped to a Java ``long`` (64-bit two's complement)."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


def _jdiv(a: int, b: int) -> int:
    """Return Java's integer division (truncation towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def det_random(maximum: int, p1: Gamer, p2: Gamer) -> int:
    """Return OpenGotha's deterministic "random" number in ``0..maximum`` for a pair.

    OpenGotha ``Pairing.detRandom``: the two players' name + first name strings in
    alphabetical order (Java ``String.compareTo``: UTF-16 code units) are concatenated,
    ``char × (position + 1)`` is summed over the characters, multiplied by 1234567 and
    taken modulo ``maximum + 1``; if the players had to be swapped, ``maximum`` minus it.
    """
    if maximum == 0:
        return 0  # any number modulo 1, and 0 minus it
    units1, weighted1, sum1 = _hash_terms(p1)
    units2, weighted2, sum2 = _hash_terms(p2)
    inverse = units1 > units2  # Java compareTo: code units in order, then length
    if inverse:
        units1, weighted1, units2, weighted2, sum2 = units2, weighted2, units1, weighted1, sum1
    # sum of char × (position + 1) over first + second, the second shifted by len(first)
    total = _java_long(weighted1 + weighted2 + len(units1) * sum2)
    value = _jrem(_java_long(total * 1234567), maximum + 1)
    return maximum - value if inverse else value


def _hash_terms(p: Gamer) -> tuple[list[int], int, int]:
    """Return a player's UTF-16 code units, sum of unit × (position + 1), sum of units."""
    if p.hash_terms is None:
        units = _utf16(p.key)
        p.hash_terms = (units, sum(u * (k + 1) for k, u in enumerate(units)), sum(units))
    return p.hash_terms


def _jrem(a: int, b: int) -> int:
    """Return Java's remainder (the dividend's sign)."""
    return a - b * _jdiv(a, b)


def _utf16(text: str) -> list[int]:
    data = text.encode("utf-16-be")
    return [int.from_bytes(data[k:k + 2], "big") for k in range(0, len(data), 2)]


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
    spread = max((p.group for p in group), default=0) - min((p.group for p in group), default=0)
    by_gap = [concave(SCORE_DIFFERENCE, gap / f.groups) for gap in range(spread + 1)]
    geo = {}
    for same_club in (False, True):
        for same_country in (False, True):
            a = Gamer("a", "a", "", 0, 0.0, "x", "x", 0, 0, ())
            b = Gamer("b", "b", "", 0, 0.0, "x" if same_club else "y",
                      "x" if same_country else "y", 0, 0, ())
            geo[same_club, same_country] = _geo(f, a, b)
    pseudo = [min(p.mms2 // 2 + MIN_RANK if s.hd_by_mms else p.rank, s.hd_threshold)
              for p in group]
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


def _dudd(s: Settings, p1: Gamer, p2: Gamer) -> int:
    """Return the draw-up / draw-down part (``Tournament.costValue`` main criterion 3)."""
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
    if scenario == 1:
        value += weight
    elif scenario == 2 or (scenario > 2 and not s.compensate_dudd):
        value += 2 * weight
    elif scenario == 3:
        value += 3 * weight
    elif scenario == 4:
        value += 4 * weight
    return value


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


COLOUR_WHY = {
    "handicap": "the stronger on MMS takes White and gives the handicap",
    "balance": "White to the player who has had fewer Whites",
    "toss": "equal colour history, OpenGotha's name hash decides",
}

SEED_LABELS = {"random": "split and random", "fold": "split and fold", "slip": "split and slip"}


CRITERION_WORDS = {
    "duplicate": "avoiding a rematch",
    "random": "OpenGotha's random term",
    "colour": "colour balance",
    "score": "MMS difference",
    "dudd": "the choice of who is drawn up or down",
    "seeding": "seeding",
    "handicap": "handicap",
    "geo": "avoiding club mates and compatriots",
}

NEIGHBOURS = 8  # tables either side compared with each table


def explain(f: Field, pairs: Sequence[tuple[Gamer, Gamer]],
            position: Mapping[str, int]) -> list[str]:
    """Return, per table, in a TO's words what the table is and which criterion decided it.

    OpenGotha shows the cost of a pair criterion by criterion (``JFrGamesPair``); here
    each table ``a``-``b`` is set against the other way to pair it with a nearby table
    ``c``-``d`` (``a``-``c`` and ``b``-``d``, or ``a``-``d`` and ``b``-``c``; the
    ``NEIGHBOURS`` tables either side in score order). The alternative losing least is
    the closest call, and the most important criterion (``costValue``'s order) on which
    it loses is the one that decided the table. ``position`` is each player's place in
    the score order (``costValue`` takes the earlier player first).
    """
    parts = [cost_parts(f, a, b) for a, b in pairs]
    out = []
    for t, (a, b) in enumerate(pairs):
        text = _describe(f, a, b, parts[t])
        best: tuple[int, str, int] | None = None
        tie: int | None = None
        for u in range(max(0, t - NEIGHBOURS), min(len(pairs), t + NEIGHBOURS + 1)):
            if u == t:
                continue
            c, d = pairs[u]
            for x, y in (((a, c), (b, d)), ((a, d), (b, c))):
                alt = [cost_parts(f, *_ordered(x, position)),
                       cost_parts(f, *_ordered(y, position))]
                loss = {k: parts[t][k] + parts[u][k] - alt[0][k] - alt[1][k] for k in CRITERIA}
                total = sum(loss.values())
                if total == 0 and tie is None:
                    tie = u
                elif total > 0 and (best is None or total < best[0]):
                    decider = next(k for k in _IMPORTANCE if loss[k] > 0)
                    best = (total, decider, u)
        if best is not None:
            text += (f"; decided by {CRITERION_WORDS[best[1]]} (the closest alternative, "
                     f"swapping partners with table {best[2] + 1}, is worse on it)")
        if tie is not None:
            text += (f"; swapping partners with table {tie + 1} would cost exactly the same "
                     "(either is OpenGotha's best)")
        out.append(text)
    return out


# costValue's criteria, most important (heaviest) first
_IMPORTANCE = ("duplicate", "score", "geo", "handicap", "random", "dudd", "seeding", "colour")


def _ordered(pair: tuple[Gamer, Gamer], position: Mapping[str, int]) -> tuple[Gamer, Gamer]:
    """Return a pair as ``costValue`` takes it: the earlier player in score order first."""
    x, y = pair
    return (x, y) if position[x.id] < position[y.id] else (y, x)


def _describe(f: Field, p1: Gamer, p2: Gamer, parts: dict[str, int]) -> str:
    """Return what a table is: a rematch, a float, a pairing inside a group."""
    if not parts["duplicate"]:
        return "a rematch, which no other pairing avoided"
    words: list[str] = []
    gap = abs(p1.group - p2.group)
    if gap:
        upper, lower = (p1, p2) if p1.group < p2.group else (p2, p1)
        words.append(f"a float across {gap} MMS ({upper.id} drawn down, {lower.id} drawn up)")
        if parts["dudd"] >= 3 * (f.settings.dudd_weight // 5):
            words.append("it reverses an earlier draw")
    else:
        words.append(f"same MMS group, {SEED_LABELS[f.seed_system]} seeding "
                     f"(places {p1.inner + 1} and {p2.inner + 1} of {p1.group_size})")
    same = [what for what, a, b in (("club", p1.club, p2.club),
                                     ("country", p1.country, p2.country))
            if a and a.lower() == b.lower()]
    if same and f.settings.avoid_same_geo:
        words.append(f"same {' and '.join(same)} accepted")
    return "; ".join(words)


RANK_TEXT = re.compile(r"([1-9]|[12][0-9]|30)[kK]|[1-9][dDpP]\Z")


def option_problems(option: Callable[[Any, str], Any], config: Any) -> list[str]:
    """Return what is wrong with the OpenGotha pairing options of an event, in words."""
    out: list[str] = []
    allowed = {"seeding": ("", *SEED_SYSTEMS), "seeding_first": SEED_SYSTEMS,
               "seeding_later": SEED_SYSTEMS, "seeding_first_order": ORDER_CRITERIA,
               "seeding_later_order": ORDER_CRITERIA, "draw_down_position": DUDD_MODES,
               "draw_up_position": DUDD_MODES}
    for key, values in allowed.items():
        if option(config, key) not in values:
            shown = ", ".join(f'"{v}"' for v in values)
            out.append(f"option '{key}' must be one of {shown}")
    for key in ("secondary_rank", "handicap_threshold"):
        text = option(config, key)
        if text and not RANK_TEXT.fullmatch(str(text)):
            out.append(f"option '{key}' = '{text}' is not a Go rank (e.g. \"1d\" or \"5k\")")
    if not 1 <= option(config, "seeding_first_rounds") <= 99:
        out.append("option 'seeding_first_rounds' must be a round number, 1 or more")
    for key in ("geo_country", "geo_club"):
        if not 0 <= option(config, key) <= 99:
            out.append(f"option '{key}' must be 0 or more (MMS points)")
    return out
