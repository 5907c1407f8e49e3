"""``standgen build``: validate the events, render the site and put it in place."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from standgen import perf
from standgen.builder import Built
from standgen.builder import build as build_site
from standgen.eventday import events_root_of, is_one_event
from standgen.model import EventsTree
from standgen.pipeline import EventReport, report
from standgen.site.renderer import render_site

PACKAGE = Path(__file__).resolve().parent.parent  # standgen/
PROJECT = PACKAGE.parent


def shipped(name: str) -> Path:
    """Return the folder ``name`` (``site_templates`` or ``docs``): inside the installed
    package (a wheel carries both as ``standgen/_data/``, see setup.py), else at the top
    of the source tree (a checkout, an editable install)."""
    inside = PACKAGE / "_data" / name
    return inside if inside.is_dir() else PROJECT / name


TEMPLATES = shipped("site_templates")
DOCS = shipped("docs")


Progress = Callable[[str, int, int], None]  # (stage, done, total) -> None


def render(tree: EventsTree, progress: Progress | None = None) -> dict[str, bytes]:
    """Return every file of the site for a loaded tree.

    ``progress`` is told ("standings", k, n) after each event's report and ("pages", 0, 1)
    before the site is rendered.
    """
    total = len(tree.events)
    done: list[EventReport] = []
    for event in tree.events:
        done.append(report(event))
        if progress is not None:
            progress("standings", len(done), total)
    if progress is not None:
        progress("pages", 0, 1)
    return render_site(tree, tuple(done), DOCS, TEMPLATES, fast=perf.enabled())


def build(
    events: Path, output: Path, progress: Progress | None = None, full: bool = False,
    jobs: int | None = None,
) -> Built:
    """Validate ``events``, render the site and put it in ``output``.

    Raises InputError (nothing written) on bad input. A full build renders on every core
    into a staging folder swapped in whole; with the build state of the last build and a
    few event folders changed, only what they touch is rendered and rewritten
    (:mod:`standgen.builder`). ``full`` forces a full build. ``progress`` hears each stage:
    ("events", k, n) after each event, ("pages", 0, 1), ("writing", 0, 1), ("done", 1, 1).
    """
    events = tree_root(events)
    return build_site(events, output, DOCS, TEMPLATES, progress, full=full, jobs=jobs)


def tree_root(path: Path) -> Path:
    """Return the events root for a command that works on the whole tree: ``path``
    itself, or the root that holds it when ``path`` is an event folder (issue #27 item 2:
    every command takes the events root or an event folder)."""
    return (events_root_of(path) or path) if is_one_event(path) else path
