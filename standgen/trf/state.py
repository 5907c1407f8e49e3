"""A parsed TRF16 file as the Dutch engine's input: pairing straight from a file, as
bbpPairings does (docs/trf.md, "Pairing from a TRF file")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from standgen.pairing.dutch import Entrant, PairingState, RoundEntry
from standgen.trf.read import Tournament, TrfRound, _block, _points, inferred_initial_colour

if TYPE_CHECKING:
    pass

# ----- pairing state (the Dutch engine's input) -----------------------------------------


def round_entry(block: TrfRound, bye_points: float = 1.0) -> RoundEntry:
    """Return one TRF round block as the Dutch engine's :class:`RoundEntry`.

    FIDE C.04 Annex 2 (TRF-2026 as bbpPairings reads it): a game is played over the
    board when it has an opponent, a colour and a result other than a forfeit (``+`` /
    ``-``); ``0000 - U`` is the pairing-allocated bye. A forfeit keeps its opponent and
    colour in the file but counts for neither (C.04.3 art. A.6, C.1).
    """
    played = block.opponent != 0 and block.colour in "wb" and block.result not in "+-"
    return RoundEntry(
        opponent=block.opponent or None,
        colour=block.colour if played else None,
        points=_points(block.result, bye_points),
        bye=block.opponent == 0 and block.result == "U",
        paired=block.opponent != 0 or block.result in "U+",
    )


def pairing_state(tournament: Tournament, rounds_done: int) -> PairingState:
    """Return the state before round ``rounds_done + 1``: every player's first
    ``rounds_done`` rounds, the planned rounds (``XXR``, else the file's rounds) and
    the initial colour (:func:`inferred_initial_colour`).

    Of the round to pair, only absences are read (as bbpPairings reads a file entered
    ahead): ``0000`` with ``H``, ``F``, ``Z`` or ``-`` leaves the player out of the
    pairing; anything else there (a pairing already made, a blank) is ignored.
    """
    total = max((len(p.rounds) for p in tournament.players), default=0)
    entrants = []
    for player in tournament.players:
        history = tuple(round_entry(_block(player, k), tournament.bye_points)
                        for k in range(1, rounds_done + 1))
        upcoming = _block(player, rounds_done + 1)
        absent = upcoming.opponent == 0 and upcoming.result in "HFZ-"
        entrants.append(Entrant(player.start_rank, history, not absent,
                                tournament.accelerations.get(player.start_rank, ())))
    return PairingState(tuple(entrants), tournament.planned or total,
                        inferred_initial_colour(tournament),
                        forbidden=tuple(frozenset(group) for group, (first, last)
                                        in tournament.forbidden
                                        if first <= rounds_done + 1 <= last))
