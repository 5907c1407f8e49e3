"""What formats add through their hooks (standgen.formats.base.Format), made ready to print.

Formats never write HTML: they return :mod:`standgen.tables` values and the site
escapes every cell. A cell's ``href`` is relative to the event folder; here it becomes
a link relative to the page that shows it. The tiebreak lab page (:mod:`standgen.site.lab`)
renders the same way, at ``<event>/lab/index.html``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from standgen.pipeline import EventReport
from standgen.site import links
from standgen.site.contexts import Frame, Link, Site, frame, web_url
from standgen.site.formats import views_of
from standgen.site.i18n import _, decimal
from standgen.site.lab import lab_page
from standgen.tables import Page, Table

LAB_SLUG = "lab"
# folder names an event's pages already use; a format's page or download may not take them
_TAKEN = ("players", "standings.json", "standings.csv", "feed.xml", "index.html")


@dataclass(frozen=True)
class CellView:
    text: str
    href: str
    numeric: bool


@dataclass(frozen=True)
class TableView:
    """A format's table, every link relative to the page showing it."""

    id: str  # the caption's anchor, unique on the page
    caption: str
    headers: tuple[str, ...]
    numeric: tuple[bool, ...]  # per column: right-aligned when every cell is numeric
    rows: tuple[tuple[CellView, ...], ...]
    note: str


def table_view(table: Table, page: Frame, event_dir: Sequence[str], anchor: str) -> TableView:
    """Return ``table`` ready for the page at ``page.path``."""

    def href(cell_href: str | None) -> str:
        if not cell_href:
            return ""
        if ":" in cell_href.split("/", 1)[0]:
            return web_url(cell_href)
        target = posixpath.normpath(posixpath.join(*event_dir, cell_href)) if event_dir else (
            posixpath.normpath(cell_href))
        return page.href(target)

    rows = tuple(
        tuple(CellView(decimal(c.text) if c.numeric else c.text, href(c.href), c.numeric)
              for c in row) for row in table.rows
    )
    width = len(table.headers)
    numeric = tuple(
        bool(rows) and all(len(r) > i and r[i].numeric for r in rows) for i in range(width)
    )
    # a format writes its captions, headers and notes in English, shown in the page's
    return TableView(anchor, _(table.caption), tuple(_(h) for h in table.headers), numeric,
                     rows, _(table.note))


def table_views(
    tables: Sequence[Table], page: Frame, event_dir: Sequence[str], prefix: str
) -> tuple[TableView, ...]:
    """Return several tables with anchors ``<prefix>-1``, ``<prefix>-2`` ..."""
    return tuple(
        table_view(t, page, event_dir, f"{prefix}-{i}") for i, t in enumerate(tables, start=1)
    )


@dataclass(frozen=True)
class ExtraPage:
    """A format's extra page of an event (or the tiebreak lab)."""

    frame: Frame
    title: str
    intro: str
    event_href: str
    tables: tuple[TableView, ...]


def extra_pages(report: EventReport) -> list[Page]:
    """Return the event's extra pages: the format's, then the tiebreak lab."""
    fmt = report.standings.format
    views = views_of(fmt)
    pages = list(views.pages(report)) if views.pages is not None else []
    pages.append(lab_page(report))
    seen: set[str] = set()
    for extra in pages:
        if (extra.slug in _TAKEN or extra.slug.startswith("round-") or extra.slug in seen
                or not links.is_slug(extra.slug)):
            raise ValueError(f"format {fmt.id}: page slug {extra.slug!r} is not free")
        seen.add(extra.slug)
    return pages


def extra_page(site: Site, report: EventReport, extra: Page, crumbs: list[tuple[str, str]],
               stamp: str) -> ExtraPage:
    """Return the context of one extra page at ``<event>/<slug>/index.html``."""
    event = report.event
    path = links.page(*event.path, extra.slug)
    page = frame(path, f"{_(extra.title)} · {event.config.name}", "extra", crumbs)
    page = Frame(**{**page.__dict__, "stamp": stamp})
    return ExtraPage(
        frame=page,
        title=_(extra.title),
        intro=_(extra.intro),
        event_href=page.href(links.event_page(event)),
        tables=table_views(extra.tables, page, event.path, extra.slug),
    )


def format_downloads(report: EventReport) -> Mapping[str, bytes]:
    """Return the format's download files by name, checked to stay in the event folder."""
    fmt = report.standings.format
    views = views_of(fmt)
    files = dict(views.downloads(report)) if views.downloads is not None else {}
    for name in files:
        if "/" in name or "\\" in name or name.startswith(".") or name in _TAKEN:
            raise ValueError(f"format {fmt.id}: download name {name!r} is not allowed")
    return dict(sorted(files.items()))


def download_links(page: Frame, event_dir: Sequence[str], names: Sequence[str]) -> tuple[Link, ...]:
    """Return links from ``page`` to files in the event folder."""
    return tuple(Link(name, page.href("/".join((*event_dir, name)))) for name in names)
