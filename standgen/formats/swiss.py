"""Chess-style Swiss: 1 / ½ / 0, White for ``player_1``, FIDE tiebreaks, TRF download.

Rule sources: FIDE Handbook C.04.1 (basic rules for Swiss systems), C.04.3 (Dutch
system), C.07 (tie-break regulations), C.04 Annex 2 (TRF16).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import TypeGuard

from standgen.errors import Problem
from standgen.formats.base import Format, Option, Proposal, number_problem
from standgen.model import Event, EventConfig, Game, GameKind, Outcome, Seat
from standgen.pairing import dutch_swiss
from standgen.pairing import swiss as swiss_pairing
from standgen.pairing.acceleration import ACCELERATIONS
from standgen.pairing.state import PairingInput
from standgen.results import SHARE
from standgen.tiebreaks.fide import EDITIONS, FIDE_POLICY, round_robin_policy

BYE_POINTS = (0.0, 0.5, 1.0)


def points(seat: Seat, game: Game, config: EventConfig) -> float:
    """Return a seat's chess points: 1 for a win, ½ for a draw, 0 for a loss.

    FIDE C.04.1 e: a forfeit win scores as a win; the pairing-allocated bye scores
    ``[options] bye_points`` (1 by default, "usually the same as a win", TRF16 points
    field) when its result is left empty or 1-0.
    """
    if seat.outcome is None:
        return 0.0
    if game.kind is GameKind.BYE and seat.outcome is Outcome.WIN:
        return float(SWISS.option(config, "bye_points"))
    return SHARE[seat.outcome]


def planned_rounds(players: int, config: EventConfig) -> int:
    """Return the planned rounds: ceil(log2(players)) + 1, at most players - 1.

    FIDE sets no number of rounds; log2 of the field is the fewest rounds that can
    leave one player with a perfect score, and one more round separates the leaders.
    A round robin plays n - 1 rounds (n even) or n (odd): standgen.formats.roundrobin.
    """
    if players < 3:
        return 1
    return max(1, min(math.ceil(math.log2(players)) + 1, players - 1))


ROUND_ROBIN_POLICY = round_robin_policy(FIDE_POLICY)
ROUND_ROBIN_TIEBREAKS = ("direct", "wins", "sb", "koya")


def in_round_robin(fmt: Format) -> Format:
    """Return the Swiss format as a round robin pairs it (``[options] pairing =
    "round-robin"``, standgen.formats.roundrobin): FIDE C.07 art. 15.2 (forfeits count as
    games) and, as default tiebreaks, direct encounter, wins, Sonneborn-Berger, Koya:
    art. 8 says Buchholz "must not be used in round-robins" (the chain FIDE's round-robin
    events commonly use)."""
    return replace(fmt, policy=ROUND_ROBIN_POLICY, default_tiebreaks=ROUND_ROBIN_TIEBREAKS)


def pair(event: Event, state: PairingInput, round_number: int) -> Proposal:
    """Return the proposed Swiss round: by default the FIDE Dutch system (C.04.3, 2025;
    standgen.pairing.dutch), ``[options] pairing_engine = "standgen"`` for the earlier
    engine (standgen.pairing.swiss).
    """
    return dutch_swiss.pair(event, state, round_number)


def forbidden_problems(event: Event, where: str) -> list[Problem]:
    """Return problems with ``[options] forbidden``: each entry a list of two or more ids
    of players of the event, or ``{ players = [...], rounds = [first, last] }`` for some
    rounds only (a TRF ``260`` record)."""
    groups = event.config.options.get("forbidden", [])
    shape = ("option 'forbidden' must be a list of lists of player ids, such as "
             "[[\"ann\", \"bob\"], [\"cy\", \"dee\", \"eli\"]], or of tables such as "
             "{ players = [\"ann\", \"bob\"], rounds = [3, 5] }")
    if not isinstance(groups, list):
        return [Problem(where, 1, shape)]
    problems: list[Problem] = []
    for entry in groups:
        players = entry.get("players") if isinstance(entry, dict) else entry
        rounds = entry.get("rounds", [1, 99]) if isinstance(entry, dict) else [1, 99]
        if not _forbidden_shape(players, entry):
            problems.append(Problem(where, 1, shape))
            continue
        if not _round_span(rounds):
            problems.append(Problem(where, 1, "option 'forbidden': 'rounds' must be the "
                                    "first and last round, 1 to 99, such as [3, 5]"))
        problems += [Problem(where, 1, f"option 'forbidden' names '{pid}', who is not in "
                             "players.csv; use the players' ids")
                     for pid in players if pid not in {p.id for p in event.players}]
    return problems


def _forbidden_shape(players: object, entry: object) -> TypeGuard[list[str]]:
    """Return whether a ``forbidden`` entry is two or more ids, alone or as a table's
    ``players`` (with ``rounds`` the table's only other key)."""
    if not isinstance(players, list) or len(players) < 2:
        return False
    if not all(isinstance(pid, str) for pid in players):
        return False
    return not (isinstance(entry, dict) and set(entry) - {"players", "rounds"})


def _round_span(rounds: object) -> bool:
    """Return whether ``rounds`` is a first and a last round, 1 to 99, in order."""
    return (isinstance(rounds, list) and len(rounds) == 2
            and not any(number_problem(r, 1, 99, integer=True) for r in rounds)
            and rounds[0] <= rounds[1])


# a chess team Swiss's pairing score (FIDE C.04.6 1.2) and colour preferences (1.7)
TEAM_PAIRING_SCORES = ("mp", "gp")
TEAM_COLOUR_PREFERENCES = ("A", "B", "none")


def _team_option_problems(options: Mapping[str, object], where: str) -> list[Problem]:
    """Return problems with the options of a chess team Swiss (standgen.teams.c046)."""
    problems = []
    if options.get("team_pairing_score", "mp") not in TEAM_PAIRING_SCORES:
        problems.append(Problem(where, 1, "option 'team_pairing_score' must be \"mp\" "
                                "(match points, the default) or \"gp\" (game points): "
                                "the score a chess team Swiss is paired on (FIDE C.04.6 1.2)"))
    if options.get("team_colour_preferences", "A") not in TEAM_COLOUR_PREFERENCES:
        problems.append(Problem(where, 1, "option 'team_colour_preferences' must be \"A\" "
                                "(the default), \"B\" or \"none\": the colour preferences "
                                "of a chess team Swiss (FIDE C.04.6 1.7)"))
    return problems


def validate_event(event: Event, where: str) -> list[Problem]:
    """Return problems with the Swiss options (values outside their choices)."""
    options = event.config.options
    problems: list[Problem] = []
    if options.get("bye_points", 1.0) not in BYE_POINTS:
        problems.append(Problem(where, 1, "option 'bye_points' must be 1, 0.5 or 0 (points for "
                                "the pairing-allocated bye)"))
    if options.get("initial_colour", "") not in swiss_pairing.INITIAL_COLOURS:
        problems.append(Problem(where, 1, "option 'initial_colour' must be \"white\" or "
                                "\"black\" (or left out: drawn by lot with the seed)"))
    if options.get("start_order", "rating") not in swiss_pairing.START_ORDERS:
        problems.append(Problem(where, 1, "option 'start_order' must be \"rating\" or "
                                "\"file\" (players.csv order)"))
    if options.get(dutch_swiss.ENGINE_OPTION, dutch_swiss.DUTCH) not in dutch_swiss.ENGINES:
        problems.append(Problem(where, 1, "option 'pairing_engine' must be \"dutch\" (FIDE "
                                "C.04.3, the default) or \"standgen\" (the earlier engine)"))
    if options.get("acceleration", "") not in ACCELERATIONS:
        problems.append(Problem(where, 1, "option 'acceleration' must be \"baku\" (FIDE "
                                "C.04.5.1) or left out (no acceleration)"))
    problems += forbidden_problems(event, where)
    problems += _team_option_problems(options, where)
    if str(options.get("fide_edition", "2026")) not in EDITIONS:
        problems.append(Problem(where, 1, "option 'fide_edition' must be \"2023\" or \"2026\" "
                                "(the FIDE C.07 edition for unplayed rounds)"))
    return problems


SWISS = Format(
    id="swiss",
    label="Swiss (chess)",
    help="formats/swiss",
    points=points,
    planned_rounds=planned_rounds,
    pair=pair,
    policy=FIDE_POLICY,  # C.07 art. 16: unplayed rounds, dummy opponents
    in_round_robin=in_round_robin,  # C.07 art. 15.2; no Buchholz (art. 8)
    colours=True,  # player_1 White, player_2 Black (C.04)
    player_columns=("id", "name", "club", "country", "rating"),
    dutch_deviation_check=True,  # issue #17
    ratings="fide",
    default_tiebreaks=("sos-cut1", "sos", "sb", "cumulative", "direct", "wins"),
    # a team event: match points, then the FIDE TEC team sample's 202 order (EMGSB, BH:MP)
    # without its EDET and cuts, then game points (docs/teams.md, "Chess team standings")
    team_tiebreaks=("emgsb", "bh-mp", "gp"),
    team_pairing="c046",  # a team event's matches: FIDE C.04.6 (docs/teams.md)
    options=(
        Option("bye_points", float, 1.0,
               "Points for the pairing-allocated bye: 1 (default), 0.5 or 0."),
        Option("initial_colour", str, "",
               "Colour of the top seed in round 1: \"white\" or \"black\"; empty: by lot."),
        Option("start_order", str, "rating",
               "Pairing numbers: \"rating\" (highest first) or \"file\" (players.csv order)."),
        Option("pairing_engine", str, "dutch",
               "Swiss pairing: \"dutch\" (FIDE Dutch system C.04.3, 2025, as bbpPairings) or "
               "\"standgen\" (the earlier min-cost engine); left out: dutch."),
        Option("acceleration", str, "",
               "Accelerated pairings: \"baku\" (FIDE C.04.5.1: the top half of the field "
               "gets virtual points in the first half of the rounds); empty: none."),
        Option("forbidden", list, [],
               "Players who must not be paired with each other (a family, a club in a "
               "junior event): a list of lists of player ids, e.g. [[\"ann\", \"bob\"]]."),
        Option("fide_edition", (str, int), "2026",
               "FIDE tie-break regulations edition for unplayed rounds: \"2023\" or \"2026\"."),
        Option("team_pairing_score", str, "mp",
               "A team event's pairing score (FIDE C.04.6 1.2): \"mp\" (match points, "
               "default) or \"gp\" (game points); the other is the secondary score."),
        Option("team_colour_preferences", str, "A",
               "A team event's colour preferences (FIDE C.04.6 1.7): \"A\" (Type A, "
               "default), \"B\" (Type B: strong and mild) or \"none\"."),
    ),
    validate_event=validate_event,
    score_label="Points",
    score_short="Pts",
    # a requested bye is the half-point bye of most chess regulations (FIDE C.04.1: byes
    # "as the regulations of the event" say; the FIDE Handbook's open events give 0.5)
    requested_bye=Outcome.DRAW,
)
