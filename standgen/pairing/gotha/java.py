"""Java's integer arithmetic as OpenGotha's code relies on it (``long`` wrap-around,
division and remainder towards zero, UTF-16 strings) and its deterministic random
(``Pairing.detRandom``)."""

from __future__ import annotations

from standgen.pairing.gotha.players import Gamer


def _java_long(value: int) -> int:
    """Return ``value`` wrapped to a Java ``long`` (64-bit two's complement)."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


def _jdiv(a: int, b: int) -> int:
    """Return Java's integer division (truncation towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def det_random(maximum: int, p1: Gamer, p2: Gamer) -> int:
    """Return OpenGotha's deterministic "random" number in ``0..maximum`` for a pair.

    OpenGotha ``Pairing.detRandom``: the two players' name + first name strings in
    alphabetical order (Java ``String.compareTo``: UTF-16 code units) are concatenated,
    ``char × (position + 1)`` is summed over the characters, multiplied by 1234567 and
    taken modulo ``maximum + 1``; if the players had to be swapped, ``maximum`` minus it.
    """
    if maximum == 0:
        return 0  # any number modulo 1, and 0 minus it
    units1, weighted1, sum1 = _hash_terms(p1)
    units2, weighted2, sum2 = _hash_terms(p2)
    inverse = units1 > units2  # Java compareTo: code units in order, then length
    if inverse:
        units1, weighted1, units2, weighted2, sum2 = units2, weighted2, units1, weighted1, sum1
    # sum of char × (position + 1) over first + second, the second shifted by len(first)
    total = _java_long(weighted1 + weighted2 + len(units1) * sum2)
    value = _jrem(_java_long(total * 1234567), maximum + 1)
    return maximum - value if inverse else value


def _hash_terms(p: Gamer) -> tuple[list[int], int, int]:
    """Return a player's UTF-16 code units, sum of unit × (position + 1), sum of units."""
    if p.hash_terms is None:
        units = _utf16(p.key)
        p.hash_terms = (units, sum(u * (k + 1) for k, u in enumerate(units)), sum(units))
    return p.hash_terms


def _jrem(a: int, b: int) -> int:
    """Return Java's remainder (the dividend's sign)."""
    return a - b * _jdiv(a, b)


def _utf16(text: str) -> list[int]:
    data = text.encode("utf-16-be")
    return [int.from_bytes(data[k:k + 2], "big") for k in range(0, len(data), 2)]
