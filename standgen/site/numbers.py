"""The one place numbers become text: for pages (2 decimals) and for JSON (4 decimals)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from standgen.site.i18n import decimal


def json_number(value: float) -> int | float:
    """Return ``value`` as a JSON number: an int when integral, else rounded to 4 decimals.

    Data contract section 3: "fractions are given exactly as decimals rounded to 4 places
    at most". ``-0`` becomes ``0`` so equal standings give equal bytes.
    """
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    rounded = round(value, 4)
    if rounded == int(rounded):
        return int(rounded)
    return rounded


def display_number(value: float) -> str:
    """Return ``value`` for a page: no ``.0`` on whole numbers, at most 2 decimals
    otherwise, with the decimal sign of the page's language (standgen.site.i18n)."""
    if type(value) is int:  # most points and counts: the digits as they are
        return str(value)
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    rounded = round(value, 2)
    if rounded == int(rounded):
        return str(int(rounded))
    return decimal(f"{rounded:.2f}".rstrip("0"))  # "0.5", "0,5" on a German page


def display_numbers(values: Sequence[float]) -> list[str]:
    """Return :func:`display_number` of each of ``values`` (a chart's thousand points):
    the same texts, the language's decimal sign looked up once (test_numbers.py)."""
    point = decimal(".")
    out = []
    for value in values:
        if type(value) is int or not math.isfinite(value):
            out.append(display_number(value))
            continue
        rounded = round(value, 2)
        text = (str(int(rounded)) if rounded == int(rounded)
                else f"{rounded:.2f}".rstrip("0"))
        out.append(text if point == "." else text.replace(".", point))
    return out
