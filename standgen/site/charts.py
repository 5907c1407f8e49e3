"""Pictures drawn at build time as inline SVG: no JavaScript library, no external file.

Every chart has a text alternative (``role="img"`` with an ``aria-label``, a ``<title>``
per mark) and sits next to a table with the same numbers, so nothing is only a picture.
Every text is escaped: names are untrusted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from standgen.model import Event, GameKind, Outcome
from standgen.site.i18n import _
from standgen.site.numbers import display_number


@dataclass(frozen=True)
class FactionResult:
    """A faction's (or Diplomacy power's) games over the board, and their outcomes."""

    faction: str
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def rate_text(self) -> str:
        return f"{round(100 * self.win_rate)}%"


def faction_results(events: Sequence[Event]) -> tuple[FactionResult, ...]:
    """Return per-faction results of the finished games played over the board.

    A seat's faction is its Diplomacy power when it has one, else the player's faction;
    byes, absences and forfeits are not games the faction played and are left out. Most
    games first, then by name.
    """
    counts: dict[str, list[int]] = {}
    for event in events:
        factions = {p.id: p.faction for p in event.players}
        for rnd in event.rounds:
            for game in rnd.games:
                if game.kind is not GameKind.PLAYED or not game.finished or len(game.seats) < 2:
                    continue
                for seat in game.seats:
                    faction = seat.power or factions.get(seat.player, "")
                    if not faction:
                        continue
                    row = counts.setdefault(faction, [0, 0, 0, 0])
                    row[0] += 1
                    row[_COLUMN[seat.outcome or Outcome.LOSS]] += 1
    results = [FactionResult(name, *row) for name, row in counts.items()]
    results.sort(key=lambda r: (-r.games, r.faction.casefold(), r.faction))
    return tuple(results)


_COLUMN = {Outcome.WIN: 1, Outcome.DRAW: 2, Outcome.LOSS: 3}
_ROW_H = 34  # a faction's name and numbers on one line, its bar under them
_CHART_W = 296  # as wide as the smallest phone's content: labels keep their 12 px there


def after(number: int, score: float) -> str:
    """Return a point's title on a score chart: ``After round 3: 2.5``."""
    return _("After round {number}: {score}").format(number=number, score=display_number(score))


def faction_chart(results: Sequence[FactionResult], caption: str) -> Markup:
    """Return a bar chart of each faction's win rate: per faction its name and ``3/5
    (60%)`` on a line, the bar under them. Narrow enough for a 320-px phone, so the
    labels are never scaled below their 12 px."""
    if not results:
        return Markup("")
    width, height = _CHART_W, _ROW_H * len(results) + 4
    parts = [
        f'<svg class="chart chart-bars" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{escape(caption)}">',
        f"<title>{escape(caption)}</title>",
    ]
    for i, r in enumerate(results):
        y = 2 + i * _ROW_H
        bar = round(width * r.win_rate, 1)
        label = _("{faction}: {wins} wins in {games} games ({rate})").format(
            faction=r.faction, wins=r.wins, games=r.games, rate=r.rate_text)
        parts += [
            f'<g><title>{escape(label)}</title>',
            f'<text x="2" y="{y + 13}">{escape(_short(r.faction, 26))}</text>',
            f'<text x="{width}" y="{y + 13}" text-anchor="end">{r.wins}/{r.games} '
            f"({r.rate_text})</text>",
            f'<rect class="track" x="0" y="{y + 18}" width="{width}" height="10"/>',
            f'<rect class="bar" x="0" y="{y + 18}" width="{bar}" height="10"/></g>',
        ]
    parts.append("</svg>")
    return Markup("".join(parts))


def _short(name: str, limit: int = 22) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def score_chart(
    scores: Sequence[tuple[int, float]], top: float, caption: str, bottom: float = 0.0
) -> Markup:
    """Return a line chart of a player's running score after each round.

    ``scores`` are (round, running score) pairs in round order; ``top`` and ``bottom`` are
    the y-axis range (the event's best and worst scores, so charts of one event compare
    at a glance; formats such as Diplomacy MCS have negative scores).
    """
    if not scores:
        return Markup("")
    left, right, top_pad, bottom_pad = 56, 14, 10, 26
    steps = max(len(scores) - 1, 1)
    step = min(48, (_CHART_W - left - right) // steps)  # 12-px labels on a 320-px phone
    width = left + right + step * steps
    plot_h = 120
    height = top_pad + plot_h + bottom_pad
    values = [s for _, s in scores]
    ceiling = max(top, *values, 0.0)
    floor = min(bottom, *values, 0.0)
    if ceiling == floor:
        ceiling = floor + 1.0

    def y(value: float) -> float:
        return round(top_pad + plot_h * (ceiling - value) / (ceiling - floor), 1)

    def x(i: int) -> int:
        return left + step * i

    points = " ".join(f"{x(i)},{y(s)}" for i, (_, s) in enumerate(scores))
    parts = [
        f'<svg class="chart chart-line" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{escape(caption)}">',
        f"<title>{escape(caption)}</title>",
        f'<line class="grid" x1="{left}" y1="{y(ceiling)}" x2="{width - right}" '
        f'y2="{y(ceiling)}"/>',
        f'<line class="axis" x1="{left}" y1="{y(0)}" x2="{width - right}" y2="{y(0)}"/>',
        f'<text x="{left - 6}" y="{y(0) + 4}" text-anchor="end">0</text>',
        f'<text x="{left - 6}" y="{y(ceiling) + 4}" text-anchor="end">'
        f"{display_number(ceiling)}</text>",
    ]
    if floor < 0:
        parts += [
            f'<line class="grid" x1="{left}" y1="{y(floor)}" x2="{width - right}" '
            f'y2="{y(floor)}"/>',
            f'<text x="{left - 6}" y="{y(floor) + 4}" text-anchor="end">'
            f"{display_number(floor)}</text>",
        ]
    if len(scores) > 1:
        parts.append(f'<polyline class="line" points="{points}"/>')
    for i, (number, score) in enumerate(scores):
        parts += [
            f'<g><title>{escape(after(number, score))}</title>',
            f'<circle class="dot" cx="{x(i)}" cy="{y(score)}" r="4"/>',
            f'<text x="{x(i)}" y="{height - 6}" text-anchor="middle">R{number}</text></g>',
        ]
    parts.append("</svg>")
    return Markup("".join(parts))
