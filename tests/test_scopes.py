"""The build's scopes (standgen.builder.scopes): one loop over them makes full and
incremental builds, and a new scope is one class and its pages (docs/architecture.md,
"Adding a scope": this test builds that worked example)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

import standgen.site.links as links
from standgen.builder import build as build_site
from standgen.builder import scopes
from standgen.builder.run import Run, Scope
from standgen.builder.writers import Changes
from standgen.load.files import slugify
from standgen.site import pages
from standgen.site.contexts import Frame, Site, frame
from standgen.site.scopes import PageType
from standgen.site.summary import EventSummary

PROJECT = Path(__file__).resolve().parent.parent
TEMPLATES = PROJECT / "site_templates"
DOCS = PROJECT / "docs"
MOVED = Path("2026", "club-swiss", "event.toml")

# ----- the worked example: a page per venue (event.toml's location) ----------------------
# its pages (a site module: inputs, context, context function) ...


@dataclass(frozen=True)
class VenueInputs:
    site: Site
    location: str
    events: Sequence[EventSummary]  # the heads of the events held there


@dataclass(frozen=True)
class VenuePage:
    frame: Frame
    location: str
    events: tuple[tuple[str, str], ...]  # (name, date), in the events' order


def venue_path(location: str) -> str:
    return links.page("venues", slugify(location))


def venue_pages(inputs: VenueInputs) -> Iterator[tuple[str, VenuePage]]:
    path = venue_path(inputs.location)
    yield path, VenuePage(frame(path, inputs.location, "venues"), inputs.location,
                          tuple((e.config.name, e.config.date.isoformat())
                                for e in inputs.events))


VENUE_HTML = """{% extends "base.html" %}
{% block content %}
<h1>{{ page.location }}</h1>
<ul>{% for name, date in page.events %}<li>{{ name }} ({{ date }})</li>{% endfor %}</ul>
{% endblock %}
"""


# ... and its scope (one class in standgen/builder/scopes.py and its line in SCOPES)
class Venues(Scope):
    """A page per venue: stale when an event held there is added, removed, or changes
    its head (its name, date or location: the state keeps every event's head)."""

    name = "venues"
    reads = frozenset({"events"})

    def whole(self, run: Run) -> None:
        self._write(run, None)

    def update(self, run: Run) -> None:
        stale = {s.config.location for s in run.summaries.values()}
        stale |= {run.stored[p].head.config.location
                  for p in (*run.summaries, *run.removed) if p in run.stored}
        self._write(run, stale)

    @staticmethod
    def _write(run: Run, only: set[str] | None) -> None:
        held: dict[str, list[EventSummary]] = {}
        for summary in run.listing():
            if slugify(summary.config.location):
                held.setdefault(summary.config.location, []).append(summary.head())
        for location in sorted(held if only is None else only):
            if location in held:
                inputs = VenueInputs(run.renderer.site, location, held[location])
                run.writer.write(run.renderer.scope_files("venues", inputs))
            elif isinstance(run.writer, Changes) and slugify(location):
                run.writer.remove_file(venue_path(location))  # no event left there


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_new_scope_is_one_class_and_its_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Registered in a test, the venues scope is made by full and incremental builds
    alike, and an incremental build makes again only the venues a change touched."""
    monkeypatch.setattr(scopes, "SCOPES", (*scopes.SCOPES, Venues()))
    monkeypatch.setattr(pages, "PAGES", (*pages.PAGES,
                                         PageType("venue", "venues", venue_pages, "venue")))
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    (templates / "venue.html").write_text(VENUE_HTML)
    events = Path(shutil.copytree(PROJECT / "events", tmp_path / "events"))
    site = tmp_path / "site"
    build_site(events, site, DOCS, templates)
    york = site / venue_path("Riverside Chess Club, York")
    leeds = venue_path("The Iron Tavern, Leeds")
    assert "<h1>Riverside Chess Club, York</h1>" in york.read_text()
    assert (site / leeds).is_file()

    toml = events / MOVED  # the club Swiss moves from York to Harrogate
    toml.write_text(toml.read_text().replace('location = "Riverside Chess Club, York"',
                                             'location = "Harrogate Chess Club"'))
    built = build_site(events, site, DOCS, templates)
    assert built.incremental
    harrogate = venue_path("Harrogate Chess Club")
    assert harrogate in built.changed and str(york.relative_to(site)) in built.changed
    assert leeds not in built.changed  # a venue the change did not touch
    assert not york.exists()
    build_site(events, tmp_path / "full", DOCS, templates, full=True)
    assert files_of(site) == files_of(tmp_path / "full")


def test_the_scopes_cover_every_page_type() -> None:
    """Every page type of the registry belongs to a scope the build makes."""
    made = {"events": "EVENT", "help": "HELP", "lists": "SITE", "seasons": "SEASON",
            "histories": "PLAYER", "club": "CLUB"}
    assert scopes.scope_names() == list(made)
    assert {p.depends.name for p in pages.PAGES if not isinstance(p.depends, str)} \
        <= set(made.values())


def test_a_scope_reads_only_scopes_made_before_it() -> None:
    seen: set[str] = set()
    for scope in scopes.SCOPES:
        assert scope.reads <= seen, scope.name
        seen.add(scope.name)
