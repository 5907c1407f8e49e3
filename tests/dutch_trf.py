"""A TRF file's round paired through the product's one adapter into the Dutch engine
(issue #30, "one adapter"): the file cut to the rounds before it, imported as an event
folder (``standgen import-trf``), loaded, and turned into the engine's input from the
event's records by :func:`standgen.pairing.dutch_swiss.pairing_state`, the swiss
format's own bridge, the one every ``standgen pair`` of a Swiss event goes through.

The cut follows the corpus README (shared/dutch-corpus/, and
tests/data/dutch-generated/README.md): the first r-1 rounds are the history; of round r
only the absences are kept (``0000`` with ``H``, ``F``, ``Z`` or ``-``: known before the
pairing, so they reach the event as byes asked for or absences); ``XXR`` gives the
planned rounds (the file's own, else its round columns), and ``XXC`` the initial colour
when the file has none (:func:`standgen.trf.inferred_initial_colour` of the whole file:
round 1's colours, which a cut before round 1 no longer holds).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from standgen.build import import_trf
from standgen.load import load_tree
from standgen.model import Event
from standgen.pairing.dutch import WHITE, DutchPairing, PairingState, pair_dutch
from standgen.pairing.dutch_swiss import pairing_state
from standgen.standings import compute_standings, pairing_input
from standgen.trf import Tournament, inferred_initial_colour, parse_trf

ABSENCES = "HFZ-"  # a round's result codes of a player not paired (0000 opponent)
BLOCK = 10  # the columns of a round block of a 001 line
FIRST_BLOCK = 91  # where round 1's block starts (0-based; column 92 of TRF16)


def planned_rounds(tournament: Tournament) -> int:
    """Return the rounds the file plans: ``XXR``, else its round columns."""
    return tournament.planned or max((len(p.rounds) for p in tournament.players), default=0)


def cut(text: str, rounds_done: int, planned: int, initial: str = "",
        absences: bool = True) -> str:
    """Return the file cut to its first ``rounds_done`` rounds, with ``XXR planned``, the
    next round's absences (unless ``absences`` is false) and ``XXC initial`` (``white1``
    or ``black1``; none when empty); CR line ends, as bbpPairings writes them."""
    lines = []
    for line in text.splitlines():
        if line.startswith("001"):
            end = FIRST_BLOCK + BLOCK * rounds_done
            block = line[end:end + BLOCK].split()
            if (absences and len(block) == 3 and block[0] == "0000"
                    and block[2] in ABSENCES):
                end += BLOCK
            line = line[:end].rstrip()
        lines.append(line)
    extra = [f"XXR {planned}"] + ([f"XXC {initial}"] if initial else [])
    return "\r".join([*lines, *extra]) + "\r"


def imported_event(text: str, rounds_done: int, folder: Path) -> Event:
    """Return the file cut to its first ``rounds_done`` rounds (:func:`cut`), imported
    into ``folder`` by ``standgen import-trf`` and loaded as an event."""
    tournament = parse_trf(text, "in.trf")
    initial = "" if tournament.initial else (
        "white1" if inferred_initial_colour(tournament) == WHITE else "black1")
    (folder / "in.trf").write_text(cut(text, rounds_done, planned_rounds(tournament),
                                       initial), newline="")
    import_trf(folder / "in.trf", folder / "events" / "cut", folder / "events")
    (event,) = load_tree(folder / "events").events
    return event


def state_from_trf(text: str, number: int) -> PairingState:
    """Return the Dutch engine's input for round ``number`` of a TRF file, through the
    product's adapter (:func:`imported_event`, then
    :func:`standgen.pairing.dutch_swiss.pairing_state`)."""
    with tempfile.TemporaryDirectory() as tmp:
        event = imported_event(text, number - 1, Path(tmp))
    return pairing_state(event, pairing_input(compute_standings(event)), number)


def pair_from_trf(text: str, number: int) -> DutchPairing:
    """Return the Dutch engine's pairing of round ``number`` of a TRF file from the rounds
    before it (:func:`state_from_trf`); the players are the file's start ranks."""
    return pair_dutch(state_from_trf(text, number))
