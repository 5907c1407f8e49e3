"""The rating history chart of a player (issue #20): inline SVG drawn at build time, as the
site's other charts (:mod:`standgen.site.charts`: the same classes, so the same styles;
no JavaScript library, no external file).

The chart has a text alternative (``role="img"``, an ``aria-label`` and a ``<title>`` per
point) and sits beside a table with the same numbers; every text is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from markupsafe import Markup, escape

from standgen.site.i18n import _, ngettext
from standgen.site.numbers import display_number, display_numbers


class RatingPoint(NamedTuple):
    """A player's rating at one point of their history (the x axis counts games; a named
    tuple: a long history's chart has a thousand)."""

    label: str  # "Spring open, round 3 (2026-03-14)", for the point's title
    rating: float


@lru_cache(maxsize=4096)  # the same events' labels on the charts of a round's players
def _escaped(label: str) -> str:
    return str(escape(label))


def rating_chart(points: Sequence[RatingPoint], caption: str, unit: str = "game") -> Markup:
    """Return a line chart of a player's rating: before their first rated game, then
    after each one.

    The y axis spans the player's own lowest and highest ratings and 0 (a new player's
    OpenSkill ordinal); the x axis is one step per point (``unit``: a game, or an event
    for long histories), at most 48 px, and the whole chart at most 296 px wide: a 320-px
    phone shows it at full size, its labels at 12 px.
    """
    if not points:
        return Markup("")
    left, right, top_pad, bottom_pad, plot_h = 56, 14, 10, 26, 140
    steps = max(len(points) - 1, 1)
    step = min(48.0, (296 - left - right) / steps)
    width = left + right + round(step * steps)
    height = top_pad + plot_h + bottom_pad
    values = [p.rating for p in points]
    ceiling, floor = max(*values, 0.0), min(*values, 0.0)
    if ceiling == floor:
        ceiling = floor + 1.0

    def y(value: float) -> float:
        return round(top_pad + plot_h * (ceiling - value) / (ceiling - floor), 1)

    def x(i: int) -> float:
        return round(left + step * i, 1)

    parts = [
        f'<svg class="chart chart-line chart-rating" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(caption)}">',
        f"<title>{escape(caption)}</title>",
    ]
    for value in sorted({ceiling, floor, 0.0}):
        css = "axis" if value == 0 else "grid"
        parts += [f'<line class="{css}" x1="{left}" y1="{y(value)}" x2="{width - right}" '
                  f'y2="{y(value)}"/>',
                  f'<text x="{left - 6}" y="{y(value) + 4}" text-anchor="end">'
                  f"{display_number(value)}</text>"]
    # each point's place once, for the line and its dot: a long history has a thousand
    # points, and a new round draws the charts of all its players (the expressions are
    # x() and y() written out, the same operations in the same order)
    xs = [round(left + step * i, 1) for i in range(len(points))]
    span = ceiling - floor
    ys = [round(top_pad + plot_h * (ceiling - p.rating) / span, 1) for p in points]
    if len(points) > 1:
        line = " ".join([f"{cx},{cy}" for cx, cy in zip(xs, ys, strict=True)])
        parts.append(f'<polyline class="line" points="{line}"/>')
    radius = 4 if step >= 12 else 2 if step >= 4 else 1
    parts += [f"<g><title>{_escaped(point.label)}: {shown}</title>"
              f'<circle class="dot" cx="{cx}" cy="{cy}" r="{radius}"/></g>'
              for point, shown, cx, cy in zip(points, display_numbers([p.rating for p in points]),
                                              xs, ys, strict=True)]
    count = len(points) - 1
    counted = (ngettext("{n} game", "{n} games", count) if unit == "game" else
               ngettext("{n} event", "{n} events", count)).format(n=count)
    parts += [f'<text x="{left}" y="{height - 6}">{escape(_("start"))}</text>',
              f'<text x="{x(count)}" y="{height - 6}" text-anchor="end">'
              f"{escape(counted)}</text>" if count > 1 else ""]
    parts.append("</svg>")
    return Markup("".join(parts))
