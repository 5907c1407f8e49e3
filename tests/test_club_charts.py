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
