"""What the site shows of a chess Swiss: each seat's colour on round pages, a player's
colour history, and the event as a FIDE TRF16 file (C.04 Annex 2) to download."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from standgen.pairing import acceleration
from standgen.pairing import swiss as swiss_pairing
from standgen.pairing.common import players_for_round
from standgen.pairing.dutch_swiss import ACCELERATION_OPTION
from standgen.pipeline import EventReport
from standgen.site.formats.base import FormatViews, colour_cells
from standgen.site.i18n import _
from standgen.tables import Cell, Table


def player_tables(report: EventReport, player: str) -> Sequence[Table]:
    """Return the player's colour history and next colour preference (FIDE C.04.3 A.6)."""
    record = report.standings.records.get(player)
    if record is None:
        return ()
    colours = swiss_pairing.colour_history(record)
    if not colours:
        return ()
    colour, strength = swiss_pairing.preference(colours)
    difference = colours.count("w") - colours.count("b")
    words = {"w": "White", "b": "Black"}
    row = (
        Cell(" ".join(_(words[c])[0] for c in colours)),
        Cell(f"{difference:+d}", numeric=True),
        Cell(f"{_(words[colour])} ({_(swiss_pairing.STRENGTH_WORDS[strength])})" if colour
             else ""),
    )
    return (Table("Colours", ("Played colours", "Difference", "Next preference"), (row,),
                  note="Games not played over the board do not count (FIDE C.04.2 D.5)."),)


def round_note(report: EventReport, number: int) -> str:
    """Return the round page's note on an accelerated round: who had virtual points for
    its pairing, and how many (FIDE C.04.5.1, Baku acceleration; ``[options]
    acceleration``). Empty for any other round."""
    event = report.event
    if event.config.options.get(ACCELERATION_OPTION, "") != acceleration.BAKU:
        return ""
    planned = report.standings.planned_rounds
    points = acceleration.virtual_points(True, number, planned)
    if not points:
        return ""
    numbers = swiss_pairing.start_ranks(event)
    group = acceleration.group_a(numbers, [p.id for p in players_for_round(event, 1)])
    if not group:
        return ""
    last = max(numbers[pid] for pid in group)
    full, accelerated = acceleration.accelerated_rounds(planned)
    shown = "1 virtual point" if points == 1 else "½ virtual point"
    halves = f", then {accelerated - full} with ½" if accelerated > full else ""
    return (f"Accelerated round (FIDE C.04.5.1, Baku acceleration): the {len(group)} players "
            f"of group A (pairing numbers 1 to {last}) were paired with {shown} added to "
            f"their score. {accelerated} of the {planned} rounds are accelerated ({full} "
            f"with 1 point{halves}); virtual points count only for pairing, never in the "
            "standings.")


def downloads(report: EventReport) -> Mapping[str, bytes]:
    """Return the event as a FIDE TRF16 file (C.04 Annex 2): ``results.trf``."""
    # imported here: a build that makes no Swiss event's pages does without the TRF
    # modules (reading, teams, the round files' editor)
    from standgen.trf import export_trf

    return {"results.trf": export_trf(report).encode("utf-8")}


VIEWS = FormatViews(player_tables=player_tables, downloads=downloads,
                    seat_headers=("Colour",), seat_cells=colour_cells, round_note=round_note)
