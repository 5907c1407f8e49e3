"""The page registry (:mod:`standgen.site.pages`): every registered page type is rendered,
and rendered alike by a full build, an incremental build and ``standgen watch``.

The demo events are built in full; then an event is renamed (its head changes, so every
scope is touched: its own pages, the home page and archive, its season's page, its
players' histories) and the site is built again incrementally, by ``watch`` (which
watched the edit happen) and in full. Each registered type is checked on its own files,
generated from the registry: a new page type is tested here by its registry line.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from standgen import build as lib
from standgen.build import DOCS, TEMPLATES
from standgen.load import load_tree
from standgen.pipeline import report
from standgen.site.pages import PAGES
from standgen.site.renderer import SiteRenderer, render_site
from standgen.site.scopes import Depends, PageType
from standgen.watch import Watch

PROJECT = Path(__file__).resolve().parent.parent
RENAMED = Path("2026", "spring-steamroller", "event.toml")


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@dataclass(frozen=True)
class Builds:
    kinds: dict[str, str]  # output path -> the name of the page type that made it
    event_paths: tuple[str, ...]  # each event's folder, "2026/spring-steamroller/"
    full: dict[str, bytes]
    incremental: dict[str, bytes]
    watched: dict[str, bytes]
    before: dict[str, bytes]  # the full build before the edit


def kinds_of(events: Path) -> dict[str, str]:
    """Return which registered page type renders each file of the site of ``events``."""
    kinds: dict[str, str] = {}
    real = SiteRenderer._render

    def recording(self: SiteRenderer, page_type: PageType, inputs: object
                  ) -> Iterator[tuple[str, bytes]]:
        for path, data in real(self, page_type, inputs):
            kinds[path] = page_type.name
            yield path, data

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SiteRenderer, "_render", recording)
        tree = load_tree(events)
        render_site(tree, [report(e) for e in tree.events], DOCS, TEMPLATES)
    return kinds


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Builds]:
    root = tmp_path_factory.mktemp("pages")
    events = root / "events"
    shutil.copytree(PROJECT / "events", events)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", "1790000000")
        kinds = kinds_of(events)
        lib.build(events, root / "incremental")
        before = files_of(root / "incremental")
        with Watch(events, port=0, output=root / "watched", debounce=0.05) as watch:
            generation = watch.generation
            toml = events / RENAMED
            edited = toml.read_text().replace('name = "', 'name = "Renamed ', 1)
            tmp = toml.with_name(".event.toml.swp")
            tmp.write_text(edited)
            os.replace(tmp, toml)
            end = time.monotonic() + 60
            while watch.generation == generation or watch.pending or watch.building:
                assert time.monotonic() < end, "watch did not rebuild"
                time.sleep(0.05)
            assert not watch.problems and not watch.internal_error
            watched = files_of(watch.output)
        built = lib.build(events, root / "incremental")
        assert built.incremental and built.rebuilt == 1
        lib.build(events, root / "full", full=True)
        tree = load_tree(events)
        yield Builds(kinds, tuple("/".join(e.path) + "/" for e in tree.events),
                     files_of(root / "full"), files_of(root / "incremental"), watched, before)


def test_the_three_builds_make_the_same_files(builds: Builds) -> None:
    assert builds.incremental == builds.full
    assert builds.watched == builds.full
    assert set(builds.kinds) == set(builds.full)  # every file comes from a registered type
    assert builds.full != builds.before  # the edit changed the site


@pytest.mark.parametrize("page_type", PAGES, ids=[p.name for p in PAGES])
def test_each_page_type_is_rendered_alike_by_every_build(
    builds: Builds, page_type: PageType
) -> None:
    mine = sorted(path for path, kind in builds.kinds.items() if kind == page_type.name)
    assert mine, f"the demo has no {page_type.name} file: give it one to test this type"
    for path in mine:
        assert builds.incremental[path] == builds.full[path], path
        assert builds.watched[path] == builds.full[path], path
    if page_type.depends is Depends.EVENT:  # an incremental build replaces the folder
        assert all(path.startswith(builds.event_paths) for path in mine)
    if page_type.depends in (Depends.SITE, Depends.SEASON, Depends.PLAYER):
        # the renamed event shows on these pages: the incremental build rendered them
        assert any(builds.full[path] != builds.before[path] for path in mine)
    if page_type.template is not None:
        assert (TEMPLATES / f"{page_type.template}.html").is_file()


# ----- a new page type: its module, its template, one registry line ------------------------

LARGEST_HTML = """{% extends "base.html" %}
{% block content %}
<h1>Largest events</h1>
<ol>{% for name, field in page.events %}<li>{{ name }}: {{ field }}</li>{% endfor %}</ol>
{% endblock %}
"""


def test_a_new_site_wide_page_type_is_one_registry_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worked example of :mod:`standgen.site.pages`' docstring, registered in a test:
    nothing in the builder names it, yet full and incremental builds both render it."""
    from collections.abc import Iterator as Iter
    from dataclasses import dataclass as data

    import standgen.site.links as links
    import standgen.site.pages as pages
    from standgen.builder import build as build_site
    from standgen.site.contexts import Frame, frame
    from standgen.site.scopes import ListInputs

    @data(frozen=True)
    class LargestPage:
        frame: Frame
        events: tuple[tuple[str, int], ...]

    def largest_pages(inputs: ListInputs) -> Iter[tuple[str, LargestPage]]:
        path = links.page("largest")
        events = sorted(inputs.events, key=lambda e: (-e.field, e.path))[:10]
        yield path, LargestPage(frame(path, "Largest events", "largest"),
                                tuple((e.config.name, e.field) for e in events))

    monkeypatch.setattr(pages, "PAGES", (*pages.PAGES, PageType(
        "largest", Depends.SITE, largest_pages, "largest")))
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    (templates / "largest.html").write_text(LARGEST_HTML)
    events = tmp_path / "events"
    shutil.copytree(PROJECT / "events", events)
    build_site(events, tmp_path / "site", DOCS, templates)
    page = (tmp_path / "site" / "largest" / "index.html").read_text()
    assert "<h1>Largest events</h1>" in page and "Renamed" not in page
    toml = events / RENAMED
    toml.write_text(toml.read_text().replace('name = "', 'name = "Renamed ', 1))
    built = build_site(events, tmp_path / "site", DOCS, templates)
    assert built.incremental and "largest/index.html" in built.changed
    build_site(events, tmp_path / "full", DOCS, templates, full=True)
    assert files_of(tmp_path / "site") == files_of(tmp_path / "full")
    assert "Renamed" in (tmp_path / "site" / "largest" / "index.html").read_text()
