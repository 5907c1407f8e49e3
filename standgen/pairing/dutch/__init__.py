"""FIDE Dutch system (C.04.3 as amended in 2025, in force 2026): one round's pairing.

A pure function, :func:`pair_dutch`, over a small pairing state (:class:`PairingState`):
each player's pairing number and round-by-round history (opponent, colour, points,
whether the game was played over the board, the pairing-allocated bye). Nothing here
knows about events, files or standings.

Where the text needs an interpretation this package follows bbpPairings 6.0.0 (a
FIDE-endorsed engine) and says so; its behaviour was learnt from its published source,
and the model is the one it uses: the pairing of the whole field is a maximum-weight
matching whose edge weights hold the quality criteria one above the other, so that a
heavier matching is always a better pairing by C.04.3 (the criteria compared in
their order, art. C.4-C.21). The brackets are then fixed from the top (art. A.3, B),
one decision at a time, each decision kept for the later ones: which moved-down
players are paired (B.3 / C.6), their opponents, the number of exchanges and who is
exchanged (D.2-D.3), then each pair (D.1, in transposition order). Every decision is
taken with a fresh matching of all the players not yet paired, so the rest of the
field can always be completed (C.4, the completion criterion).

Article numbers: the section letters (A definitions, B the pairing of a bracket, D
transpositions and exchanges, E colour allocation) and the criterion numbers C.1-C.21
are those bbpPairings' source uses for the 2025 rules (C.1-C.3 absolute, C.4
completion, C.5-C.21 quality; the 2017 text had C.1-C.19, before the bye assignee's
unplayed games, C.9, came in). The 2025 handbook text numbers its sections 1, 2, ...;
where cited here, those numbers were checked (1.2 order, 1.3 brackets, 1.4 floats).
"""

from __future__ import annotations

from standgen.pairing.dutch.engine import _Engine
from standgen.pairing.dutch.state import (
    BLACK,
    DOWN,
    NONE,
    UP,
    WHITE,
    DutchPairing,
    Entrant,
    NoValidPairing,
    PairingState,
    RoundEntry,
    _Player,
    colour_facts,
)

__all__ = [
    "BLACK", "DOWN", "NONE", "UP", "WHITE", "DutchPairing", "Entrant", "NoValidPairing",
    "PairingState", "RoundEntry", "_Engine", "_Player", "colour_facts", "pair_dutch",
]


def pair_dutch(state: PairingState) -> DutchPairing:
    """Return the Dutch-system pairing of the next round (FIDE C.04.3, 2025).

    Raise :class:`NoValidPairing` when no pairing satisfies the absolute criteria.
    """
    return _Engine(state).run()
