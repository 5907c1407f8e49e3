"""The Swiss format's Dutch pairing: an event's rounds to a :class:`PairingState`, and the
engine's pairing (standgen.pairing.dutch) back to a proposed round.

``[options] pairing_engine`` of the swiss format: ``"dutch"`` (the default, FIDE C.04.3
as amended in 2025) or ``"standgen"`` (the earlier min-cost engine, standgen.pairing.swiss).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from standgen.model import Event, Game, GameKind, Proposal, Round, Seat
from standgen.pairing import acceleration
from standgen.pairing import swiss as standgen_swiss
from standgen.pairing.common import forbidden_groups, players_for_round
from standgen.pairing.state import PairingInput
from standgen.records import Entry

if TYPE_CHECKING:  # the engine is imported where it pairs: a build of events that pair
    # nothing by the Dutch system (no Swiss event) does without it
    from standgen.pairing.dutch import DutchPairing, PairingState, RoundEntry

ENGINE_OPTION = "pairing_engine"
ACCELERATION_OPTION = "acceleration"
DUTCH, STANDGEN = "dutch", "standgen"
ENGINES = (DUTCH, STANDGEN)


def round_entry(entry: Entry, numbers: dict[str, int]) -> RoundEntry:
    """Return a player's finished round as the engine sees it.

    C.04.3 (2025) art. 1.4.3 and C.04.1: a forfeit is paired but not played (no colour,
    the two may meet again); the pairing-allocated bye (``BYE``) has no opponent and
    scores ``bye_points``; an absence (``ABSENT``) was not paired.
    """
    from standgen.pairing.dutch import RoundEntry

    opponent = entry.opponent
    number = numbers.get(opponent) if opponent is not None else None
    if entry.kind is GameKind.PLAYED and number is not None:
        colour = "w" if entry.game.seats[0].player == entry.seat.player else "b"
        return RoundEntry(number, colour, entry.points)
    if entry.kind is GameKind.FORFEIT:
        return RoundEntry(number, None, entry.points)
    if entry.kind is GameKind.BYE:
        return RoundEntry(None, None, entry.points, bye=True)
    return RoundEntry(None, None, entry.points, paired=False)


def virtual_points(event: Event, numbers: Mapping[str, int], planned: int, round_number: int
                   ) -> dict[str, tuple[float, ...]]:
    """Return each player's virtual points before rounds 1 .. ``round_number`` under
    ``[options] acceleration`` (FIDE C.04.5.1, Baku; none: empty)."""
    if event.config.options.get(ACCELERATION_OPTION, "") != acceleration.BAKU:
        return {}
    first = [p.id for p in players_for_round(event, 1)]
    group = acceleration.group_a(numbers, first)
    return {pid: acceleration.accelerations(pid in group, round_number, planned)
            for pid in numbers}


def accelerated(event: Event, state: PairingInput, round_number: int) -> PairingInput:
    """Return ``state`` with each player's virtual points for ``round_number`` in his
    score (the pairing score of FIDE C.04.5.1), for the standgen engine."""
    virtual = virtual_points(event, standgen_swiss.start_ranks(event), state.planned_rounds,
                             round_number)
    if not any(v[-1] for v in virtual.values() if v):
        return state
    scores = {pid: score + (virtual[pid][-1] if virtual.get(pid) else 0.0)
              for pid, score in state.scores.items()}
    return replace(state, scores=scores)


def pairing_state(event: Event, state: PairingInput, round_number: int) -> PairingState:
    """Return the state before ``round_number``: every player's rounds 1 to
    ``round_number - 1`` (an empty, unpaired round where a player has none), the
    pairing numbers (``[options] start_order``), planned rounds and initial colour."""
    from standgen.pairing.dutch import Entrant, PairingState, RoundEntry

    numbers = standgen_swiss.start_ranks(event)
    active = {p.id for p in players_for_round(event, round_number)}
    records = state.records
    virtual = virtual_points(event, numbers, state.planned_rounds, round_number)
    entrants = []
    for player in event.players:
        record = records.get(player.id)
        by_round = {e.round: e for e in record.entries} if record is not None else {}
        history = tuple(
            round_entry(by_round[k], numbers) if k in by_round
            else RoundEntry(None, None, 0.0, paired=False)
            for k in range(1, round_number))
        entrants.append(Entrant(numbers[player.id], history, player.id in active,
                                virtual.get(player.id, ())))
    return PairingState(tuple(entrants), max(state.planned_rounds, round_number),
                        standgen_swiss.initial_colour(event),
                        forbidden=tuple(frozenset(numbers[pid] for pid in group)
                                        for group in forbidden_groups(event, round_number)))


def to_round(event: Event, round_number: int, pairing: DutchPairing) -> Round:
    """Return the engine's pairing as a round: tables in its board order, White first,
    the bye last."""
    ids = {n: pid for pid, n in standgen_swiss.start_ranks(event).items()}
    source = event.round_source(round_number)
    games = [Game(round=round_number, table=table, seats=(Seat(ids[w]), Seat(ids[b])),
                  source=source)
             for table, (w, b) in enumerate(pairing.pairs, start=1)]
    if pairing.bye is not None:
        games.append(Game(round=round_number, table=len(games) + 1,
                          seats=(Seat(ids[pairing.bye]),), kind=GameKind.BYE, source=source))
    return Round(number=round_number, games=tuple(games), source=source)


def pair(event: Event, state: PairingInput, round_number: int) -> Proposal:
    """Return the proposed round by the engine ``[options] pairing_engine`` names
    (left out: the Dutch engine).

    The Dutch engine's round is the FIDE C.04.3 (2025) pairing; when no pairing meets
    its absolute criteria (C.04.3 C.1-C.3: e.g. everyone has met), the standgen engine,
    which allows a rematch as a last resort, proposes the round, and a note says so.
    """
    from standgen.pairing.dutch import NoValidPairing, pair_dutch

    chosen = event.config.options.get(ENGINE_OPTION)
    if chosen == STANDGEN:
        return standgen_swiss.pair(event, accelerated(event, state, round_number),
                                   round_number)
    try:
        made = pair_dutch(pairing_state(event, state, round_number))
    except NoValidPairing:
        fallback = standgen_swiss.pair(event, accelerated(event, state, round_number),
                                       round_number)
        return Proposal(fallback.round, (
            "No pairing meets the Dutch system's absolute criteria (FIDE C.04.3: no "
            "rematch, no second bye, no clash of absolute colour preferences); the "
            "standgen engine paired this round.", *fallback.notes))
    return Proposal(to_round(event, round_number, made), (
        "Swiss pairing by the FIDE Dutch system (C.04.3, 2025), as bbpPairings pairs it "
        "(see the Swiss help page).",))


def first_difference(rules: Round, written: Round, event: Event) -> str:
    """Return the first difference between the Dutch system's round and the file's, in
    an arbiter's words ("table 7: the rules pair 12-31; the file pairs 12-29"), or ""."""
    numbers = standgen_swiss.start_ranks(event)

    def pair_text(game: Game) -> str:
        return "-".join(str(numbers.get(p, p)) for p in game.players)

    file_pairs = [g for g in written.games if g.kind in (GameKind.PLAYED, GameKind.FORFEIT)
                  and len(g.seats) == 2]
    by_player = {p: g for g in file_pairs for p in g.players}
    for game in rules.games:
        if game.kind is GameKind.BYE:
            pid = game.players[0]
            given = [g.players[0] for g in written.games if g.kind is GameKind.BYE]
            if given != [pid]:
                other = f"the file gives it to {numbers.get(given[0])}" if given else (
                    "the file gives no bye")
                return f"the rules give the bye to {numbers.get(pid)}; {other}"
            continue
        white, black = game.players
        actual = by_player.get(white)
        if actual is None or set(actual.players) != {white, black}:
            shown = pair_text(actual) if actual is not None else f"{numbers.get(white)} unpaired"
            return (f"table {game.table}: the rules pair {pair_text(game)}; the file pairs "
                    f"{shown}")
        if actual.players[0] != white:
            return (f"table {game.table}: the rules give White to {numbers.get(white)} in "
                    f"{pair_text(game)}; the file gives it to {numbers.get(black)}")
    return ""
