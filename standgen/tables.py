"""Plain tables a format or tiebreak hands to the site: no HTML, the site renders them.

A format's extra views (Diplomacy power statistics, awards, MCS per-game scores,
Old World result bands) are :class:`Table` values; the site escapes every cell.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cell:
    """A table cell: text, an optional link relative to the event folder, numeric alignment.

    ``href`` is relative to the event's folder, e.g. ``players/anna-k/index.html``.
    """

    text: str
    href: str | None = None
    numeric: bool = False


@dataclass(frozen=True)
class Table:
    """A captioned table; ``note`` is plain text under it."""

    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: str = ""


@dataclass(frozen=True)
class Page:
    """An extra page of an event at ``<event-path>/<slug>/index.html``."""

    slug: str  # a validated slug, e.g. "powers"
    title: str
    tables: tuple[Table, ...]
    intro: str = ""  # plain text
