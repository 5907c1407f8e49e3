"""Go McMahon's scoring: McMahon score (MMS) from rank, bar and floor; OpenGotha's
scoring, tiebreak policy and options (the format is :mod:`standgen.formats.mcmahon`).

Sources: OpenGotha (github.com/lucvannier/opengotha, ``Player.smms``,
``Player.convertKDPToInt``, ``GeneralParameterSet.initForMM``, ``Tournament``'s
``fillBaseScoringInfo`` and ``gameBetween``, ``HandicapParameterSet.initForMM``), and
seed 003 (Sensei's Library, "SODOS") for the origin problem of SODOS.
"""

from __future__ import annotations

import math
import re
from typing import Any

from standgen.errors import Problem
from standgen.formats.base import Option, option_value
from standgen.model import Event, EventConfig, Game, GameKind, Outcome, Player, Seat
from standgen.pairing.gotha import option_problems
from standgen.records import Entry, Record
from standgen.results import SHARE
from standgen.tiebreaks.base import Adjustment, Context, TiebreakPolicy

RANK = re.compile(r"([1-9]|[12][0-9]|30)[kK]|[1-9][dDpP]\Z")
MIN_RANK, MAX_RANK = -30, 8  # OpenGotha Gotha.MIN_RANK (30k), Gotha.MAX_RANK (9d)
UNPLAYED_VALUES = (0.0, 0.5, 1.0)


def rank_value(rank: str) -> int:
    """Return a Go rank as OpenGotha's integer: 30k = -30 ... 1k = -1, 1d = 0 ... 9d = 8.

    OpenGotha ``Player.convertKDPToInt``: ``k`` is ``-n``, ``d`` is ``n - 1``; a
    professional rank counts as 7d (1p-3p), 8d (4p-6p) or 9d (7p-9p).
    """
    number, kind = int(rank[:-1]), rank[-1].lower()
    if kind == "k":
        value = -number
    elif kind == "d":
        value = number - 1
    else:
        value = 6 if number <= 3 else 7 if number <= 6 else 8
    return max(MIN_RANK, min(MAX_RANK, value))


def rank_name(value: int) -> str:
    """Return OpenGotha's rank string for an integer rank (``Player.convertIntToKD``)."""
    return f"{value + 1}d" if value >= 0 else f"{-value}k"


def _rank_option(config: EventConfig, key: str) -> int | None:
    text = option(config, key)
    if not text or not RANK.fullmatch(str(text)):
        return None
    return rank_value(str(text))


def mms_zero(config: EventConfig) -> int:
    """Return the rank whose starting MMS is 0 (``[options] mms_zero``, default 30k).

    OpenGotha ``GeneralParameterSet.genMMZero`` is fixed at -30 (30k), so 20k starts on
    10 and 1d on 30; seed 003 shows the UK scale (zero at 1d) and a European one (zero at
    20k: 1d = 20, 1k = 19).
    """
    zero = _rank_option(config, "mms_zero")
    return MIN_RANK if zero is None else zero


def initial_mms(player: Player, config: EventConfig) -> float:
    """Return the player's starting McMahon score.

    OpenGotha ``Player.smms``: ``rank - zero``, raised to ``floor - zero`` and lowered to
    ``bar - zero``, plus the manual correction (players.csv ``mms_correction``).
    """
    zero = mms_zero(config)
    score = rank_value(player.rank) - zero if player.rank else 0
    floor, bar = _rank_option(config, "floor"), _rank_option(config, "bar")
    if floor is not None:
        score = max(score, floor - zero)
    if bar is not None:
        score = min(score, bar - zero)
    return float(score + player.mms_correction)


def points(seat: Seat, game: Game, config: EventConfig) -> float:
    """Return the McMahon points of one round: win 1, jigo ½, loss 0; bye and absence by option.

    OpenGotha ``Tournament.fillBaseScoringInfo``: a win adds 1 (``mmsX2 + 2``), a jigo ½,
    a forfeit counts as its result; an unpaired round (``BYE``) adds ``genMMS2ValueBye``
    (default 1) and an absence ``genMMS2ValueAbsent`` (default ½), here ``[options]
    bye_points`` and ``absent_points``. A result written on a ``BYE`` / ``ABSENT`` row
    other than the format's default (``1-0`` on a bye, ``draw`` on an absence) overrides it.
    """
    if seat.outcome is None:
        return 0.0
    if game.kind is GameKind.BYE and seat.outcome is BYE_OUTCOME:
        return float(option(config, "bye_points"))
    if game.kind is GameKind.ABSENT and seat.outcome is ABSENT_OUTCOME:
        return float(option(config, "absent_points"))
    return SHARE[seat.outcome]


def total_mms(record: Record, config: EventConfig) -> float:
    """Return the McMahon score: starting MMS plus points, bye / absence points rounded down.

    OpenGotha ``fillBaseScoringInfo`` with ``genRoundDownNBWMMS`` (default true): the
    points of all unpaired and absent rounds so far are summed and rounded down to a whole
    number (``(nbPtsMMS2AbsentOrBye / 2) * 2``), so one absence at ½ adds 0 and two add 1.
    ``[options] round_down = false`` keeps the halves.
    """
    played = sum(e.points for e in record.entries if e.kind not in _UNPAIRED)
    unpaired = sum(e.points for e in record.entries if e.kind in _UNPAIRED)
    if option(config, "round_down"):
        unpaired = float(math.floor(unpaired + 1e-9))
    return initial_mms(record.player, config) + played + unpaired


_UNPAIRED = (GameKind.BYE, GameKind.ABSENT)


def unplayed_sos(ctx: Context, player: str, entry: Entry) -> float:
    """Return what an unpaired round adds to SOS: the player's own starting MMS.

    OpenGotha ``fillBaseScoringInfo`` 4.2: ``if (sp.getParticipation(rr) != PAIRED)
    osmX2[rr] = 2 * sp.smms(gps)`` (a bye or an absence counts as a game against a
    virtual opponent on the player's starting MMS). Forfeits are paired games there, so
    their opponent counts.
    """
    return initial_mms(ctx.records[player].player, ctx.event.config)


def unplayed_sosos(ctx: Context, player: str, entry: Entry) -> float:
    """Return what an unpaired round adds to SOSOS: starting MMS times the rounds counted.

    OpenGotha ``fillBaseScoringInfo`` 5: ``sososmX2 += 2 * sp.smms(gps) * (r + 1)``.
    """
    return unplayed_sos(ctx, player, entry) * ctx.rounds_counted


def handicap_adjustment(ctx: Context, player: str, entry: Entry) -> Adjustment | None:
    """Return the handicap correction of the opponent's MMS in this game's SOS term.

    OpenGotha ``Tournament.fillBaseScoringInfo`` 4.2 (SOSM, SOSMM1, SOSMM2, SODOSM,
    SOSTS), for a paired game::

        if (g.getWhitePlayer().hasSameKeyString(sp)) osmX2[rr] += 2 * g.getHandicap();
        else                                          osmX2[rr] -= 2 * g.getHandicap();
        dosmX4[rr] = osmX2[rr] * getWX2(g, sp);

    White gave the stones, so for White the opponent counts ``handicap`` higher, for
    Black that much lower. No parameter gates it: every game with a non-zero
    ``handicap`` column counts, whether or not ``[options] handicap`` paired it (the
    same code in github.com/lucvannier/opengotha before and after its
    ``genCountNotPlayedGamesAsHalfPoint`` option was added). Forfeits are paired
    games there and are corrected too; byes and absences (the virtual opponent on the
    player's starting MMS) are not. The NBW-based sums (4.1) are not corrected, and SOSOS
    (5) adds the opponents' corrected ``sosmX2`` without a further correction.
    ``player_1`` has White (the round file's layout).
    """
    stones = entry.game.extra.get("handicap", 0.0)
    if not stones:
        return None
    if entry.game.seats[0].player == player:
        return Adjustment(stones, "handicap as White")
    return Adjustment(-stones, "handicap as Black")


def start_mms(ctx: Context, player: str) -> float:
    """Return the player's starting MMS, where OpenGotha's cumulative score (CUSSM) starts.

    OpenGotha ``fillBaseScoringInfo``: ``cuswX2`` / ``cussmX2`` add the running McMahon
    score after each round, starting score included.
    """
    return initial_mms(ctx.records[player].player, ctx.event.config)


def planned_rounds(players: int, config: EventConfig) -> int:
    """Return the default number of rounds: 5 (OpenGotha's default), fewer in a tiny field."""
    return max(1, min(5, players - 1))


def _value_problems(config: EventConfig, path: str) -> list[Problem]:
    """Return the options that are not a Go rank (``mms_zero``, ``bar``, ``floor``) or
    not 0, ½ or 1 (``bye_points``, ``absent_points``) though they must be."""
    problems = [Problem(path, 1, f"option '{key}' = '{text}' is not a Go rank; "
                        "use 30k ... 1k, 1d ... 9d, e.g. \"20k\" or \"3d\"")
                for key in ("mms_zero", "bar", "floor")
                if (text := option(config, key)) and not RANK.fullmatch(str(text))]
    problems += [Problem(path, 1, f"option '{key}' must be 0, 0.5 or 1")
                 for key in ("bye_points", "absent_points")
                 if float(option(config, key)) not in UNPLAYED_VALUES]
    return problems


def _floor_above_bar(config: EventConfig, path: str) -> list[Problem]:
    """Return a problem when the floor is above the bar."""
    floor, bar = _rank_option(config, "floor"), _rank_option(config, "bar")
    if floor is None or bar is None or floor <= bar:
        return []
    return [Problem(path, 1, f"the floor ({rank_name(floor)}) is above the bar "
                    f"({rank_name(bar)}); lower the floor or raise the bar")]


def _player_problems(player: Player) -> list[Problem]:
    """Return a player's problems for McMahon: no Go rank, and (a warning) a country that
    is not the two-letter code the EGD results file needs."""
    problems = []
    if not player.rank:
        problems.append(Problem(player.source.path, player.source.line, f"player "
                                f"'{player.id}' has no rank; McMahon needs a Go rank "
                                "such as 15k or 2d in the 'rank' column"))
    if player.country and not re.fullmatch(r"[A-Za-z]{2}", player.country):
        problems.append(Problem(player.source.path, player.source.line, f"country "
                                f"'{player.country}' is not a two-letter code; the EGD "
                                "results file needs one such as FR or GB", warning=True))
    return problems


def validate_event(event: Event, path: str) -> list[Problem]:
    """Return the McMahon checks: every player has a rank, options are valid, SODOS warning.

    Seed 003: SODOS "should not be used in McMahon tournaments ... You can only use SODOS
    as a tie breaker if your tournament is so small that you only have one McMahon group".
    """
    config = event.config
    problems = _value_problems(config, path)
    problems += [Problem(path, 1, text) for text in option_problems(option, config)]
    # the numbers' ranges (Option bounds) are checked when event.toml is loaded
    problems += _floor_above_bar(config, path)
    for player in event.players:
        problems += _player_problems(player)
    if problems:
        return problems
    chain = config.tiebreaks or DEFAULT_TIEBREAKS
    groups = {initial_mms(p, config) for p in event.players}
    if "sodos" in chain and len(groups) > 1:
        problems.append(Problem(path, 1, f"tiebreak 'sodos' with {len(groups)} McMahon "
                                "groups: SODOS changes with the MMS origin (see the SODOS "
                                "help page); use sos first, or a single group", warning=True))
    return problems


POLICY = TiebreakPolicy(
    bye_is_opponent=True, forfeit_is_opponent=True, dummy_opponent=True,
    unplayed_opponent_score=unplayed_sos, unplayed_opponent_sos=unplayed_sosos,
    missing_rounds_unplayed=False,
    # OpenGotha's SODOS adds 0 for a bye or an absence (no defeated opponent)
    defeated_counts_unplayed=False,
    start_score=start_mms,
    # OpenGotha's SOS reads the opponent's MMS plus the handicap White gave
    game_adjustment=handicap_adjustment,
)
DEFAULT_TIEBREAKS = ("sos", "sosos")
BYE_OUTCOME = Outcome.WIN
ABSENT_OUTCOME = Outcome.DRAW
OPTIONS: tuple[Option, ...] = (
    Option("mms_zero", str, "30k", "Rank whose starting McMahon score is 0."),
    Option("bar", str, "", "Players at or above this rank start on the bar's MMS."),
    Option("floor", str, "", "Players below this rank start on the floor's MMS."),
    Option("bye_points", (int, float), 1.0, "MMS points for a bye (0, 0.5 or 1).",
           bounds=(0, 1)),
    Option("absent_points", (int, float), 0.5, "MMS points for an absence (0, 0.5 or 1).",
           bounds=(0, 1)),
    Option("round_down", bool, True,
           "Round the bye and absence points down to a whole number (OpenGotha)."),
    Option("seeding", str, "", "Inside an MMS group in every round: \"fold\", \"slip\" "
           "or \"random\"; empty: seeding_first, then seeding_later."),
    Option("seeding_first", str, "random", "Seeding of the first rounds (OpenGotha "
           "paiMaSeedSystem1): \"random\", \"fold\" or \"slip\"."),
    Option("seeding_first_rounds", int, 2, "Last round seeded by seeding_first (OpenGotha "
           "'Earlier rounds up to round', paiMaLastRoundForSeedSystem1 + 1)."),
    Option("seeding_first_order", str, "rating", "Order inside a group after the "
           "placement criteria, first rounds: \"rating\", \"rank\" or \"\"."),
    Option("seeding_later", str, "slip", "Seeding after the first rounds (OpenGotha "
           "paiMaSeedSystem2)."),
    Option("seeding_later_order", str, "", "Order inside a group, later rounds."),
    Option("pairing_random", bool, False, "Add OpenGotha's deterministic random "
           "(paiBaRandom) to every pair."),
    Option("colour_balance", bool, True, "Prefer pairs owed opposite colours "
           "(paiBaBalanceWB)."),
    Option("draw_down_position", str, "middle", "Who of the upper group is drawn down: "
           "\"top\", \"middle\" or \"bottom\" (paiMaDUDDUpperMode)."),
    Option("draw_up_position", str, "middle", "Who of the lower group is drawn up "
           "(paiMaDUDDLowerMode)."),
    Option("dudd_compensate", bool, True, "Reward drawing a player back the other way "
           "(paiMaCompensateDUDD)."),
    Option("geo_country", int, 1, "MMS difference preferred to two compatriots "
           "(paiSePreferMMSDiffRatherThanSameCountry)."),
    Option("geo_club", int, 3, "MMS difference preferred to two club mates "
           "(paiSePreferMMSDiffRatherThanSameClub)."),
    Option("minimize_handicap", bool, False, "Secondary criterion: minimise handicap "
           "(paiSeMinimizeHandicap)."),
    Option("secondary_bar", bool, True, "No handicap criterion for players at the bar "
           "(paiSeBarThresholdActive)."),
    Option("secondary_rank", str, "1d", "No handicap criterion from this rank up "
           "(paiSeRankThreshold)."),
    Option("secondary_wins", bool, False, "No handicap criterion after winning half "
           "the rounds (paiSeNbWinsThresholdActive)."),
    Option("handicap_by_mms", bool, True, "Handicap from MMS, not rank (hdBasedOnMMS)."),
    Option("handicap_threshold", str, "", "Even games from this rank up "
           "(hdNoHdRankThreshold); empty: the bar."),
    Option("handicap", bool, False, "Handicap games below the bar."),
    Option("handicap_correction", int, 1, "Stones taken off the MMS difference.",
           bounds=(-1, 3)),
    Option("handicap_ceiling", int, 9, "Most handicap stones.", bounds=(0, 9)),
    Option("komi", (int, float), 7.5, "Komi of even games.", bounds=(-100, 100)),
    Option("handicap_komi", (int, float), 0.5, "Komi of handicap games.",
           bounds=(-100, 100)),
    Option("egd_class", str, "", "EGD tournament class (A, B, C or D) for the .h9 file."),
    Option("time_minutes", int, 0, "Adjusted thinking time in minutes for the .h9 file.",
           bounds=(0, 1440)),  # at most a day
)


def option(config: EventConfig, key: str) -> Any:
    """Return the event's value of McMahon option ``key``, or its default."""
    return option_value(OPTIONS, config, key)
