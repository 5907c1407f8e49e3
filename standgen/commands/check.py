"""``standgen check``: every problem of the events, the rules' warnings included."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from standgen.audit import audit, deviations, over_before_paired_round, stale_pairing
from standgen.errors import Problem
from standgen.eventday import is_one_event, load
from standgen.load import load_tree
from standgen.load.files import display
from standgen.model import EventsTree
from standgen.standings import compute_standings


def check(events: Path) -> EventsTree:
    """Validate ``events`` (the events root, or one event folder); raise InputError
    listing every problem."""
    if is_one_event(events):
        event, warnings = load(events)
        tree = EventsTree(root=display(events), events=(event,),
                          warnings=tuple(p for p in warnings if p.warning))
    else:
        tree = load_tree(events)
    found: list[Problem] = []
    unneeded: set[str] = set()  # paired rounds the event no longer needs
    for event in tree.events:
        compute_standings(event)
        found.extend(audit(event))
        found.extend(deviations(event))  # check only: the Dutch engine is slow on large fields
        found.extend(stale_pairing(event))  # check only: it pairs the last round again
        if over_before_paired_round(event):
            unneeded.add(event.rounds[-1].source.path)
    # a round the event no longer needs: its one warning says what to do; the loader's
    # "run pair --redo" (which refuses while the event is over) would mislead (issue #27)
    kept = tuple(p for p in tree.warnings if p.path not in unneeded or "--redo" not in p.message)
    return replace(tree, warnings=(*kept, *found))
