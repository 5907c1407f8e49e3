"""A player's rating chart (``standgen.site.club_charts.rating_chart``): each point's dot
sits on the line at the point's place, left to right in order, higher ratings higher up,
with one titled dot per point; every text is escaped."""

from __future__ import annotations

import random
import re

import pytest

from standgen.site import i18n
from standgen.site.club_charts import RatingPoint, rating_chart
from tests.test_table_rows import HOSTILE, LANGUAGES

DOT = re.compile(r'<circle class="dot" cx="([-\d.]+)" cy="([-\d.]+)" r="\d"/>')
LINE = re.compile(r'<polyline class="line" points="([^"]*)"/>')


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_dot_is_on_the_line_in_order(language: str) -> None:
    rng = random.Random(language)
    for _ in range(40):
        points = [RatingPoint(rng.choice((*HOSTILE, "Łódź Open, round 3 (2026-03-14)")),
                              round(rng.uniform(-20, 60), rng.choice((0, 1, 2, 4))))
                  for _ in range(rng.randint(1, 900))]
        with i18n.active(language):
            chart = str(rating_chart(points, HOSTILE[0], rng.choice(("game", "event"))))
        dots = [(float(x), float(y)) for x, y in DOT.findall(chart)]
        assert len(dots) == len(points) == chart.count("<g><title>")
        line = LINE.search(chart)
        if len(points) > 1:
            assert line is not None
            assert [tuple(map(float, p.split(","))) for p in line.group(1).split()] == dots
        xs = [x for x, _ in dots]
        assert xs == sorted(xs)
        for (_, y1), (_, y2), a, b in zip(dots, dots[1:], points, points[1:], strict=False):
            assert (y1 - y2) * (b.rating - a.rating) >= 0  # higher rating, higher up
        assert "<script>" not in chart


def _reference_chart(points: list[RatingPoint], caption: str, unit: str) -> str:
    """The chart written the plain way: a function per coordinate, each number and label
    made as any page makes it (the chart before it computed each point's place once)."""
    from markupsafe import escape

    from standgen.site.i18n import _, ngettext
    from standgen.site.numbers import display_number

    if not points:
        return ""
    left, right, top_pad, bottom_pad, plot_h = 56, 14, 10, 26, 140
    steps = max(len(points) - 1, 1)
    step = min(48.0, (296 - left - right) / steps)
    width, height = left + right + round(step * steps), top_pad + plot_h + bottom_pad
    values = [p.rating for p in points]
    ceiling, floor = max(*values, 0.0), min(*values, 0.0)
    if ceiling == floor:
        ceiling = floor + 1.0

    def y(value: float) -> float:
        return round(top_pad + plot_h * (ceiling - value) / (ceiling - floor), 1)

    def x(i: int) -> float:
        return round(left + step * i, 1)

    out = (f'<svg class="chart chart-line chart-rating" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" role="img" aria-label="{escape(caption)}">'
           f"<title>{escape(caption)}</title>")
    for value in sorted({ceiling, floor, 0.0}):
        out += (f'<line class="{"axis" if value == 0 else "grid"}" x1="{left}" '
                f'y1="{y(value)}" x2="{width - right}" y2="{y(value)}"/>'
                f'<text x="{left - 6}" y="{y(value) + 4}" text-anchor="end">'
                f"{display_number(value)}</text>")
    if len(points) > 1:
        out += ('<polyline class="line" points="'
                + " ".join(f"{x(i)},{y(p.rating)}" for i, p in enumerate(points)) + '"/>')
    radius = 4 if step >= 12 else 2 if step >= 4 else 1
    for i, point in enumerate(points):
        out += (f"<g><title>{escape(point.label)}: {display_number(point.rating)}</title>"
                f'<circle class="dot" cx="{x(i)}" cy="{y(point.rating)}" r="{radius}"/></g>')
    count = len(points) - 1
    counted = (ngettext("{n} game", "{n} games", count) if unit == "game" else
               ngettext("{n} event", "{n} events", count)).format(n=count)
    out += f'<text x="{left}" y="{height - 6}">{escape(_("start"))}</text>'
    if count > 1:
        out += (f'<text x="{x(count)}" y="{height - 6}" text-anchor="end">'
                f"{escape(counted)}</text>")
    return out + "</svg>"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_chart_is_the_plain_ways_bytes(language: str) -> None:
    """Each point's place computed once, labels escaped once per build and numbers made
    together give the bytes of the plain way (hostile labels, flat and long histories)."""
    rng = random.Random(f"plain {language}")
    for _ in range(60):
        n = rng.choice((1, 2, 3, 12, 200, 201, 900))
        flat = rng.random() < 0.1
        points = [RatingPoint(rng.choice((*HOSTILE, "Łódź Open (2026-03-14)")),
                              5.0 if flat else round(rng.uniform(-20, 60),
                                                     rng.choice((0, 1, 2, 4))))
                  for _ in range(n)]
        unit = rng.choice(("game", "event"))
        with i18n.active(language):
            assert str(rating_chart(points, HOSTILE[1], unit)) == _reference_chart(
                points, HOSTILE[1], unit)
