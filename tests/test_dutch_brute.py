"""The Dutch engine against an enumeration of every pairing of small random fields.

On fields of 4 to 11 players with random histories (draws, forfeits, byes), the engine's
round is checked against the best values any pairing reaches on the criteria that come
first in C.04.3: the absolute criteria (C.1-C.3), the bye at the lowest possible score
(C.2, C.4) and, in the top bracket, as many pairs as possible (C.5).
"""

from __future__ import annotations

import random

import pytest

from standgen.pairing.dutch import (
    DutchPairing,
    Entrant,
    NoValidPairing,
    PairingState,
    RoundEntry,
    _Engine,
    _Player,
    pair_dutch,
)
from tests.pairing_brute import pairings


def random_state(seed: int) -> PairingState:
    """Return a field of 4-11 players after 1-4 rounds paired by the engine, with
    random results (a tenth of the games forfeited)."""
    rnd = random.Random(seed)
    n = rnd.randint(4, 11)
    rounds = rnd.randint(1, 4)
    history: dict[int, list[RoundEntry]] = {k: [] for k in range(1, n + 1)}
    for _ in range(rounds):
        state = PairingState(tuple(Entrant(k, tuple(h)) for k, h in history.items()),
                             rounds + 1)
        try:
            made = pair_dutch(state)
        except NoValidPairing:
            break
        play(made, history, rnd, 0.1)
    return PairingState(tuple(Entrant(k, tuple(h)) for k, h in history.items()), rounds + 1)


def play(made: DutchPairing, history: dict[int, list[RoundEntry]], rnd: random.Random,
         forfeits: float) -> None:
    """Add a round's random results to ``history``: a share ``forfeits`` of the games
    forfeited (paired, not played), the rest won, drawn or lost; the bye a point."""
    for white, black in made.pairs:
        roll = rnd.random()
        if roll < forfeits:
            history[white].append(RoundEntry(black, None, 1.0))
            history[black].append(RoundEntry(white, None, 0.0))
            continue
        points = 1.0 if roll < 0.45 else 0.5 if roll < 0.7 else 0.0
        history[white].append(RoundEntry(black, "w", points))
        history[black].append(RoundEntry(white, "b", 1.0 - points))
    if made.bye is not None:
        history[made.bye].append(RoundEntry(None, None, 1.0, bye=True))


def valid(engine: _Engine, pairs: tuple[tuple[int, int], ...], bye: int | None) -> bool:
    """C.1-C.3: no rematch of a played game, an eligible bye, no absolute colour clash
    (but for topscorers in the last round)."""
    players = engine.players
    if bye is not None and not players[bye].eligible:
        return False
    return all(engine.compatible(players[i], players[j]) for i, j in pairs)


def top_pairs(players: list[_Player], pairs: tuple[tuple[int, int], ...]) -> int:
    top = players[0].score
    return sum(1 for i, j in pairs if players[i].score == players[j].score == top)


@pytest.mark.parametrize("seed", range(60))
def test_first_criteria_are_the_best_any_pairing_reaches(seed: int) -> None:
    state = random_state(seed)
    engine = _Engine(state)  # the players in Dutch order (score, pairing number)
    players = engine.players
    position = {p.number: k for k, p in enumerate(players)}
    candidates = [(pairs, bye) for pairs, bye in pairings(len(players))
                  if valid(engine, pairs, bye)]
    try:
        made = pair_dutch(state)
    except NoValidPairing:
        assert not candidates  # C.1-C.3 cannot all hold
        return
    got_pairs = tuple((position[w], position[b]) for w, b in made.pairs)
    got_bye = None if made.bye is None else position[made.bye]
    seated = [k for pair in got_pairs for k in pair] + ([] if got_bye is None else [got_bye])
    assert sorted(seated) == list(range(len(players)))
    assert valid(engine, got_pairs, got_bye)
    if got_bye is not None:
        lowest = min(players[bye].score for _, bye in candidates if bye is not None)
        assert players[got_bye].score == lowest
        candidates = [(p, b) for p, b in candidates
                      if b is not None and players[b].score == lowest]
    assert top_pairs(players, got_pairs) == max(top_pairs(players, p) for p, _ in candidates)


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_incremental_and_fresh_matchings_pair_alike(seed: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine repairs one matching between its decisions; computing each one afresh
    (the plain blossom algorithm) gives the same round."""
    from standgen.pairing.dutch import weights

    state = random_state(seed)
    try:
        repaired = pair_dutch(state)
    except NoValidPairing:
        repaired = None
    monkeypatch.setattr(weights, "INCREMENTAL", False)
    try:
        fresh = pair_dutch(state)
    except NoValidPairing:
        fresh = None
    assert repaired == fresh
