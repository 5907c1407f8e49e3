"""Weng and Lin's Plackett-Luce update of two-player games, as ``openskill`` computes it,
without its objects and a round's games at once: the fast path of
:func:`standgen.clubs.ratings.openskill_ratings`.

openskill 6's ``PlackettLuce.rate`` (Weng and Lin 2011, Algorithm 4, with the package's
tau and gamma defaults; the openskill.py documentation) costs about 39 µs a game in its
object model, so a 1,000-event archive spent 14 s there. This module performs the same
floating-point operations in the same order for two teams of one player (a win, or a
draw), so its results equal the package's bit for bit; ``tests/test_clubs.py`` checks
that on random ratings and every outcome against the package itself, and the whole
rating list with the fast path on and off. Games of more seats (Diplomacy boards) go to
the package.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads for a round of many games, not for a build's few
    import numpy as np

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


def rate_pair(first: Rating, second: Rating, draw: bool) -> tuple[Rating, Rating]:
    """Return the new ratings of both seats of one two-player game, the first seat the
    winner (or, with ``draw``, the two drew): :func:`rate_pairs`' operations on one game,
    in Python floats (IEEE 754 as numpy's; ``tests/test_clubs.py`` holds the two and the
    package equal bit for bit). The club pages' summaries rate with it, without numpy."""
    tau_squared = TAU * TAU
    a_sigma = math.sqrt(first[1] * first[1] + tau_squared)
    b_sigma = math.sqrt(second[1] * second[1] + tau_squared)
    ss_a, ss_b = a_sigma**2, b_sigma**2
    beta_squared = BETA**2
    c = math.sqrt((ss_a + beta_squared) + (ss_b + beta_squared))
    e_a, e_b = math.exp(first[0] / c), math.exp(second[0] / c)
    both = e_a + e_b
    x, y = e_a / both, e_b / both
    if draw:
        delta_a = x * (1 - x) / 2 + x * (1 - x) / 2
        omega_a = (1 - x) / 2 - x / 2
        delta_b = y * (1 - y) / 2 + y * (1 - y) / 2
        omega_b = -(y / 2) + (1 - y) / 2
    else:
        alone = e_b / e_b  # the second place's own sum holds only itself
        delta_a = x * (1 - x)
        omega_a = 1 - x
        delta_b = y * (1 - y) + alone * (1 - alone)
        omega_b = -y + (1 - alone)
    c_squared = c**2
    return (_step(first[0], a_sigma, ss_a, c, c_squared, omega_a, delta_a),
            _step(second[0], b_sigma, ss_b, c, c_squared, omega_b, delta_b))


def _step(mu: float, sigma: float, ss: float, c: float, c_squared: float, omega: float,
          delta: float) -> Rating:
    """:func:`_steps` of one seat."""
    omega = omega * (ss / c)
    delta = delta * (ss / c_squared)
    delta = delta * (math.sqrt(ss) / c)
    share = ss / ss
    return mu + share * omega, sigma * math.sqrt(max(1 - share * delta, KAPPA))


def rate_pairs(first_mu: np.ndarray, first_sigma: np.ndarray, second_mu: np.ndarray,
               second_sigma: np.ndarray, draw: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return the new (mu, sigma) of both seats of many two-player games at once: the
    first seat won (or, where ``draw``, the two drew), as
    ``PlackettLuce().rate([[first], [second]], ranks=[0, 1])`` (a draw: ``[0, 0]``)
    computes each; the package sorts the winner first, so a caller passes the winner as
    the first seat.

    The same floating-point operations as the package, element by element: additions,
    products, quotients and square roots in numpy (IEEE 754, correctly rounded, as
    Python's), the powers and exponentials by Python's own ``**`` and ``math.exp`` on
    each element (numpy's may differ in the last bit). Identities of the package's
    arithmetic that change no bit (``0.0 + v``, ``v * 1.0``, ``v / 1``) are left out.
    """
    import numpy as np

    tau_squared = TAU * TAU
    a_sigma = np.sqrt(first_sigma * first_sigma + tau_squared)
    b_sigma = np.sqrt(second_sigma * second_sigma + tau_squared)
    ss_a, ss_b = _squares(a_sigma), _squares(b_sigma)
    beta_squared = BETA**2
    c = np.sqrt((ss_a + beta_squared) + (ss_b + beta_squared))
    e_a, e_b = _exps(first_mu / c), _exps(second_mu / c)
    both = e_a + e_b
    x, y = e_a / both, e_b / both
    alone = e_b / e_b  # the second place's own sum holds only itself
    with np.errstate(all="ignore"):
        delta_a = np.where(draw, x * (1 - x) / 2 + x * (1 - x) / 2, x * (1 - x))
        omega_a = np.where(draw, (1 - x) / 2 - x / 2, 1 - x)
        delta_b = np.where(draw, y * (1 - y) / 2 + y * (1 - y) / 2,
                           y * (1 - y) + alone * (1 - alone))
        omega_b = np.where(draw, -(y / 2) + (1 - y) / 2, -y + (1 - alone))
    c_squared = _squares(c)
    new_a = _steps(first_mu, a_sigma, ss_a, c, c_squared, omega_a, delta_a)
    new_b = _steps(second_mu, b_sigma, ss_b, c, c_squared, omega_b, delta_b)
    return new_a[0], new_a[1], new_b[0], new_b[1]


def _steps(mu: np.ndarray, sigma: np.ndarray, ss: np.ndarray, c: np.ndarray,
           c_squared: np.ndarray, omega: np.ndarray, delta: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray]:
    """The package's update of one seat from its omega and delta, on arrays (with the
    default gamma, sqrt(sigma squared) / c; ``sigma**2`` is ``ss``: the same power of the
    same value)."""
    import numpy as np

    omega = omega * (ss / c)
    delta = delta * (ss / c_squared)
    delta = delta * (np.sqrt(ss) / c)
    share = ss / ss
    return mu + share * omega, sigma * np.sqrt(np.maximum(1 - share * delta, KAPPA))


def _squares(values: np.ndarray) -> np.ndarray:
    import numpy as np

    return np.array([v**2 for v in values.tolist()], dtype="float64")


def _exps(values: np.ndarray) -> np.ndarray:
    import numpy as np

    return np.array([math.exp(v) for v in values.tolist()], dtype="float64")


def rate_game(olds: list[Rating], ranks: list[float]) -> list[Rating]:
    """Return the seats' new ratings after one game by the package's own
    ``PlackettLuce().rate`` (a Diplomacy board; ``ranks``: each seat's place, 0 best)."""
    from openskill.models import PlackettLuce  # the package: only for a board's game

    model = PlackettLuce()
    teams = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma in olds],
                       ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in teams]


def places(values: list[float]) -> list[float]:
    """Return each seat's place at its table (0 best; ties share a place) from its value:
    a two-player game's outcome (1, 0.5, 0), a Diplomacy board's points."""
    ordered = sorted(set(values), reverse=True)
    return [float(ordered.index(v)) for v in values]
