"""Weng and Lin's Plackett-Luce update for one two-player game, as ``openskill`` computes
it, without its objects: the fast path of :func:`standgen.clubs.ratings.openskill_ratings`.

openskill 6's ``PlackettLuce.rate`` (Weng and Lin 2011, Algorithm 4, with the package's
tau and gamma defaults) costs about 39 µs a game in its object model, so a 1,000-event
archive spends 14 s there. This module performs the same floating-point operations in
the same order for two teams of one player (a win, or a draw), so its results equal the
package's bit for bit; ``tests/test_clubs.py`` checks that on random ratings and every
outcome against the package itself. Games of more seats (Diplomacy boards) go to the
package.
"""

from __future__ import annotations

import math

# openskill's PlackettLuce defaults (its documented model parameters)
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0

Rating = tuple[float, float]  # (mu, sigma)


def ordinal(rating: Rating) -> float:
    """Return the package's ordinal of a rating: alpha((mu - z sigma) + target/alpha),
    with z = 3, alpha = 1, target = 0."""
    mu, sigma = rating
    return 1 * ((mu - 3.0 * sigma) + (0 / 1))


def rate_two(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Return both players' new ratings after one game: ``score`` 1 if the first won,
    0.5 a draw, 0 if the second won (``PlackettLuce().rate([[a], [b]], ranks=...)``)."""
    tau_squared = TAU * TAU
    a = (first[0], math.sqrt(first[1] * first[1] + tau_squared))
    b = (second[0], math.sqrt(second[1] * second[1] + tau_squared))
    if score == 0:
        new_b, new_a = _ranked(b, a, draw=False)  # the package sorts the winner first
        return new_a, new_b
    return _ranked(a, b, draw=score == 0.5)


def _ranked(a: Rating, b: Rating, draw: bool) -> tuple[Rating, Rating]:
    """Return the update of ``a`` (first place) and ``b`` (second, or tied)."""
    ss_a, ss_b = (a[1] * 1.0) ** 2, (b[1] * 1.0) ** 2  # the teams' summed sigma squared
    beta_squared = BETA**2
    total = 0.0
    total += ss_a + beta_squared
    total += ss_b + beta_squared
    c = math.sqrt(total)
    e_a, e_b = math.exp(a[0] / c), math.exp(b[0] / c)
    both = e_a
    both += e_b
    if draw:  # one rank of two teams: every sum over both, each term halved
        x = e_a / both
        omega_a = delta_a = 0.0
        delta_a += x * (1 - x) / 2
        omega_a += (1 - x) / 2
        delta_a += x * (1 - x) / 2
        omega_a -= x / 2
        y = e_b / both
        omega_b = delta_b = 0.0
        delta_b += y * (1 - y) / 2
        omega_b -= y / 2
        delta_b += y * (1 - y) / 2
        omega_b += (1 - y) / 2
    else:
        x = e_a / both
        omega_a = delta_a = 0.0
        delta_a += x * (1 - x) / 1
        omega_a += (1 - x) / 1
        y = e_b / both
        omega_b = delta_b = 0.0
        delta_b += y * (1 - y) / 1
        omega_b -= y / 1
        alone = e_b / e_b  # the second place's own sum holds only itself
        delta_b += alone * (1 - alone) / 1
        omega_b += (1 - alone) / 1
    return _step(a, ss_a, c, omega_a, delta_a), _step(b, ss_b, c, omega_b, delta_b)


def _step(rating: Rating, ss: float, c: float, omega: float, delta: float) -> Rating:
    mu, sigma = rating
    omega *= ss / c
    delta *= ss / c**2
    delta *= math.sqrt(ss) / c  # the default gamma: sqrt(sigma squared) / c
    if omega >= 0:
        mu += (sigma**2 / ss) * omega * 1.0
        sigma *= math.sqrt(max(1 - (sigma**2 / ss) * delta * 1.0, KAPPA))
    else:
        mu += (sigma**2 / ss) * omega / 1.0
        sigma *= math.sqrt(max(1 - (sigma**2 / ss) * delta / 1.0, KAPPA))
    return mu, sigma
