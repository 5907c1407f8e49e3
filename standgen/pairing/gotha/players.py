"""OpenGotha's parameters and players: the pairing constants and settings
(``PairingParameterSet``, ``PlacementParameterSet``, ``HandicapParameterSet``) and a
player as the McMahon pairing sees them (``ScoredPlayer``)."""

from __future__ import annotations

from dataclasses import dataclass, field

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
