"""What the site shows of a Go McMahon event: each seat's colour on round pages (who
takes Black), and the EGD results file (``results.h9``)."""

from __future__ import annotations

from collections.abc import Mapping

from standgen.egd import export_h9
from standgen.pipeline import EventReport
from standgen.site.formats.base import FormatViews, colour_cells


def downloads(report: EventReport) -> Mapping[str, bytes]:
    """Return the EGD results file (``results.h9``) of the event's complete rounds."""
    return {"results.h9": export_h9(report).encode("utf-8")}


VIEWS = FormatViews(downloads=downloads, seat_headers=("Colour",), seat_cells=colour_cells)
