"""The site's view of each format, by format id: adding a format's views is one module
here and one line in :data:`VIEWS` (a format without a line has none)."""

from __future__ import annotations

from collections.abc import Mapping

from standgen.formats.base import Format
from standgen.site.formats import diplomacy, mcmahon, oldworld, swiss
from standgen.site.formats.base import NO_VIEWS, FormatViews

VIEWS: Mapping[str, FormatViews] = {
    "swiss": swiss.VIEWS,
    "mcmahon": mcmahon.VIEWS,
    "old-world": oldworld.VIEWS,
    "diplomacy": diplomacy.VIEWS,
}


def views_of(fmt: Format) -> FormatViews:
    """Return the views of ``fmt`` (none registered: no extra views)."""
    return VIEWS.get(fmt.id, NO_VIEWS)


__all__ = ["VIEWS", "FormatViews", "views_of"]
