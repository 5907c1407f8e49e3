"""``standgen export``: the club's tables of every event, for a spreadsheet."""

from __future__ import annotations

from pathlib import Path

from standgen import perf
from standgen.commands.check import check
from standgen.errors import InputError, Problem
from standgen.load.files import display


def export_club(events: Path, target: Path) -> list[Path]:
    """Write the club's tables (games, standings, ratings, meta) of ``events`` to
    ``target`` (:mod:`standgen.clubs.export`); refuse a target inside ``events``."""
    from standgen.clubs.export import club_tables, export  # loads pandas: tests DEFERRED

    if target.resolve().is_relative_to(events.resolve()):
        raise InputError([Problem(display(target), 1, "is inside the events folder; write "
                                  "the export somewhere else")])
    tree = check(events)
    with perf.collector_paused():  # the games table's rows live until the export ends
        return export(club_tables(tree, fast=perf.enabled()), target)
