"""The 95 % Wilson score interval of a score share (Wilson 1927; the interval Brown, Cai and
DasGupta 2001 recommend for small samples): the meta's tables and pages read it."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the standard normal quantile of 0.975


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval (low, high) of a proportion ``successes / n``.

    Wilson (1927): ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``; (0, 1) for
    no games.
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)
