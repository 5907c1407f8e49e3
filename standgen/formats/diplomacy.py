"""Diplomacy: seven-seat boards, game scoring systems, MCS (seed 001), board seeding.

The pieces live in ``standgen.diplomacy``; this module declares the format and seats
the boards of a round.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from standgen.diplomacy.games import SITOUT
from standgen.diplomacy.options import (
    FINAL_ORDERS,
    OPTIONS,
    WEIGHT_BOUNDS,
    options_of,
)
from standgen.diplomacy.points import event_points, final_groups, seat_points
from standgen.diplomacy.scoring import POWERS
from standgen.diplomacy.seeding import (
    SEATS,
    History,
    assign_powers,
    choose_sitouts,
    group_boards,
    history,
    meeting_cost,
    round_choices,
)
from standgen.diplomacy.systems import SYSTEMS
from standgen.errors import Problem
from standgen.formats.base import Format, InRoundFinal, Stat
from standgen.model import Event, EventConfig, Game, GameKind, Proposal, Round, Seat, Source
from standgen.pairing.common import kept_apart, players_for_round, rng
from standgen.pairing.state import PairingInput
from standgen.tiebreaks import TIEBREAKS
from standgen.tiebreaks.base import TiebreakPolicy

WANTED_TIEBREAKS = ("centres", "best-game", "solos", "draws")
ROUND_KEY = re.compile(r"[1-9][0-9]?")  # a key of [options.sit_out]: rounds are 1 to 99


def planned_rounds(players: int, config: EventConfig) -> int:
    """Return the planned rounds: three, or the final round when that is later."""
    return max(3, int(options_of(config)["final_round"]))


def pair(event: Event, state: PairingInput, round_number: int) -> Proposal:
    """Return the proposed boards of ``round_number`` (see ``standgen.diplomacy.rounds``)."""
    options = options_of(event.config)
    return seat_round(
        event, state, round_number, final_round=int(options["final_round"]),
        sit_out=round_choices(options["sit_out"], round_number),
        two_boards=round_choices(options["two_boards"], round_number),
    )


def seat_round(
    event: Event, state: PairingInput, round_number: int, final_round: int = 0,
    sit_out: Sequence[str] = (), two_boards: Sequence[str] = (),
) -> Proposal:
    """Return the proposed boards of ``round_number``.

    The issue's seeding rules: round 1 at random (seeded); later rounds least repeat
    meetings, then least-played powers; the TO's sit-outs and two-board players first,
    then proposed sit-outs "among those who sat out least, lowest ranked first". On the
    final round (``[options] final_round``) board 1 seats the top seven of the standings
    (seed 001, "If the player managed to qualify for the final").
    """
    active = [p.id for p in players_for_round(event, round_number)]
    past = history([r for r in event.rounds if r.number < round_number])
    position = state.ranks
    notes: list[str] = []
    resting = [p for p in active if p in set(sit_out)]
    doubles = [p for p in active if p in set(two_boards) and p not in resting]
    final: list[str] = []
    if round_number == final_round:
        final = _final_board(active, position, resting, notes)
    pool = [p for p in active if p not in resting and p not in final]
    slots = pool + [p for p in doubles if p not in final]
    chosen = _proposed_sitouts(event, round_number, pool, doubles, len(slots), past,
                               position, notes)
    resting += chosen
    slots = [p for p in slots if p not in chosen]
    boards = _boards(event, round_number, slots, past, position, len(active) + 1, notes)
    if final:
        boards.insert(0, final)
    source = event.round_source(round_number)
    games = [Game(round_number, number, _seats(board, past.powers,
                                              rng(event, round_number, f"powers-{number}")),
                  source=source)
             for number, board in enumerate(boards, start=1)]
    games += _sitouts(round_number, sorted(resting, key=lambda p: active.index(p)),
                      len(boards), source)
    return Proposal(Round(round_number, tuple(games), source), tuple(notes))


def _proposed_sitouts(event: Event, round_number: int, pool: Sequence[str],
                      doubles: Sequence[str], slots: int, past: History,
                      position: Mapping[str, int], notes: list[str]) -> list[str]:
    """Return who sits out so the ``slots`` fill whole boards: "among those who sat out
    least, lowest ranked first", never a two-board player; noted."""
    extra = slots % SEATS if slots >= SEATS else slots
    if not extra:
        return []
    candidates = [p for p in pool if p not in doubles]
    chosen = choose_sitouts(candidates, extra, past.sitouts, position,
                            rng(event, round_number, "sit-out"))
    notes.append(f"{len(chosen)} player(s) sit out: those who sat out least, lowest "
                 "ranked first.")
    return chosen


def _sitouts(round_number: int, resting: Sequence[str], boards: int,
             source: Source) -> list[Game]:
    """Return a one-seat sit-out row for each resting player, after the last board."""
    return [Game(round_number, boards + k, (Seat(pid, result=SITOUT),), kind=GameKind.BYE,
                 source=source)
            for k, pid in enumerate(resting, start=1)]


def _final_board(active: Sequence[str], position: Mapping[str, int], resting: Sequence[str],
                 notes: list[str]) -> list[str]:
    """Return the final's board (the top seven of the standings, seed 001), noted, or
    none when fewer than seven who do not sit out are left."""
    rank_order = sorted(active, key=lambda p: (position.get(p, len(active) + 1), p))
    final = [p for p in rank_order if p not in resting][:SEATS]
    if len(final) != SEATS:
        return []
    notes.append("Board 1 is the final: the top seven of the standings (seed 001).")
    return final


def _boards(event: Event, round_number: int, slots: list[str], past: History,
            position: Mapping[str, int], unranked: int, notes: list[str]) -> list[list[str]]:
    """Return the boards of ``slots``: round 1 as the seeded shuffle drew them (unless a
    two-board player drew both seats on one board), later rounds for the fewest repeat
    meetings, ordered by their best-ranked player; noted."""
    apart = kept_apart(event, round_number)  # team-mates (docs/teams.md): as if met once
    seating = {pair: past.met.get(pair, 0) + (pair in apart) for pair in {*past.met, *apart}}
    boards = group_boards(slots, seating, rng(event, round_number, "boards"))
    if round_number == 1:
        notes.append("Round 1: boards drawn at random from the event's seed.")
        return boards
    boards.sort(key=lambda b: min(position.get(p, unranked) for p in b))
    notes.append("Boards seated for the fewest repeat meetings (cost "
                 f"{meeting_cost(boards, past.met)}: the sum over boards of times "
                 "met, squared); powers not played before, or played least.")
    return boards


def _seats(board: Sequence[str], powers_played: Mapping[str, Mapping[str, int]],
           draw: random.Random) -> tuple[Seat, ...]:
    """Return a board's seats in the powers' order, each player given a power."""
    powers = assign_powers(board, powers_played, draw)
    return tuple(sorted((Seat(pid, power=power) for pid, power in zip(board, powers,
                                                                      strict=True)),
                        key=lambda s: POWERS.index(s.power)))


def validate_event(event: Event, where: str) -> list[Problem]:
    """Return what is wrong with the event's Diplomacy options."""
    problems: list[Problem] = []
    options = options_of(event.config)

    def bad(message: str) -> None:
        problems.append(Problem(where, 1, message))

    if options["scoring"] not in SYSTEMS:
        bad(f"[options] scoring '{options['scoring']}' is unknown; use one of: "
            + ", ".join(SYSTEMS))
    # pot, best, sitout_score and final_round are in range (Option bounds, checked on loading)
    if options["scoring"] == "mcs" and options["best"]:
        bad("[options] best does not apply to mcs (MCS divides by the rounds played); "
            "remove it")
    problems += _aggregation_problems(options, where)
    ids = {p.id for p in event.players}
    for key in ("sit_out", "two_boards"):
        for rnd, listed in sorted(options[key].items()):
            for message in _round_list_problems(key, rnd, listed, ids):
                bad(message)
    return problems


def _round_list_problems(key: str, rnd: str, listed: object, ids: set[str]) -> list[str]:
    """Return what is wrong with one round's list of ``[options.sit_out]`` or
    ``[options.two_boards]``: its shape, or each unknown player id."""
    if (not ROUND_KEY.fullmatch(rnd) or not isinstance(listed, list)
            or not all(isinstance(pid, str) for pid in listed)):
        return [f"[options.{key}] maps a round number (1 to 99) to a list of player ids "
                f"in quotes, e.g. {key} = {{ 2 = [\"ann\"] }}"]
    return [f"[options.{key}] round {rnd}: unknown player id '{pid}'"
            for pid in listed if pid not in ids]


def _aggregation_problems(options: Mapping[str, Any], where: str) -> list[Problem]:
    """Return what is wrong with ``weights``, ``final_weight`` and ``final_order``."""
    problems: list[Problem] = []

    def bad(message: str) -> None:
        problems.append(Problem(where, 1, message))

    weights = options["weights"]
    low, high = WEIGHT_BOUNDS
    if not _weights_ok(weights):
        bad(f"[options] weights is a list of numbers from {low:g} to {high:g}, the best game's "
            "first, e.g. weights = [1, 0.8, 0.4]")
    elif weights and options["best"]:
        bad("[options] weights and best both choose the games that count; keep one "
            "(best = 3 is weights = [1, 1, 1])")
    if options["scoring"] == "mcs" and (weights or float(options["final_weight"]) != 1):
        bad("[options] weights and final_weight do not apply to mcs (seed 001 averages "
            "over the rounds played and doubles a drawn final itself); remove them")
    for message in _final_problems(options):
        bad(message)
    return problems


def _final_problems(options: Mapping[str, Any]) -> list[str]:
    """Return what is wrong with ``final_order``, and a final's options without a final."""
    found = []
    if options["final_order"] not in FINAL_ORDERS:
        found.append(f"[options] final_order '{options['final_order']}' is unknown; use "
                     + " or ".join(f'"{o}"' for o in FINAL_ORDERS))
    if not int(options["final_round"]) and (
            float(options["final_weight"]) != 1 or options["final_order"] != "total"):
        found.append("[options] final_weight and final_order need a final: set final_round "
                     "to the round whose board 1 is the final")
    return found


def _weights_ok(weights: object) -> bool:
    """Return whether ``weights`` is a list of numbers within ``WEIGHT_BOUNDS``."""
    low, high = WEIGHT_BOUNDS
    return isinstance(weights, list) and all(
        isinstance(w, (int, float)) and not isinstance(w, bool) and low <= w <= high
        for w in weights)


TOP_BOARD = InRoundFinal(
    "Top board", 7,
    'Seed 001: "If the player managed to qualify for the final ... they could still win the '
    'tournament by winning the game"; "The entrants who played in the final would have a '
    'separate top seven table for themselves".',
    lambda config, planned: int(options_of(config)["final_round"]),
)

DIPLOMACY = Format(
    id="diplomacy",
    label="Diplomacy",
    help="formats/diplomacy",
    player_columns=("id", "name", "club", "country"),
    faction_label="Power",
    points=seat_points,
    event_points=event_points,
    rank_groups=final_groups,
    in_round_final=TOP_BOARD,
    planned_rounds=planned_rounds,
    pair=pair,
    policy=TiebreakPolicy(bye_is_opponent=False, forfeit_is_opponent=False),
    # the Diplomacy tiebreaks count once registered in standgen.tiebreaks.TIEBREAKS
    default_tiebreaks=tuple(t for t in WANTED_TIEBREAKS if t in TIEBREAKS),
    stats=(Stat("centres", "Supply centres"),),
    seats=7,
    options=OPTIONS,
    validate_event=validate_event,
    score_label="Points",
    score_short="Pts",
)
