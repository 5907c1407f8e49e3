"""The history pages' and the season page's rows written in Python
(``standgen.site.table_rows``) are the bytes the templates' own row loops write: in
every language of the catalogues, with real and hostile names, players of the same
name, factions or none, spare players (no placing), a season of few events (a column
per event) and a long one (a cell of events per row)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import pytest
from markupsafe import Markup

from standgen.site import i18n
from standgen.site.contexts import Link, frame
from standgen.site.history import HeadToHead, HistoryEvent, HistoryPage
from standgen.site.index_contexts import (
    EventItem,
    HomePage,
    LeaderCell,
    LeaderEntry,
    LeaderRow,
    SeasonPage,
)
from standgen.site.render import Templates
from standgen.site.table_rows import (
    event_items,
    head_to_head_rows,
    history_rows,
    leaderboard_rows,
)
from tests.realnames import FACTIONS, field

REPO = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", *sorted(p.name for p in (REPO / "standgen" / "locale").iterdir()
                           if p.is_dir()))
HOSTILE = ("<script>alert(1)</script>", 'Zoë "Z" O\'Neill & co', "a&amp;b", "{{ 7*7 }}",
           "100% <b>", "")
T = TypeVar("T")
DATES = ("2026-04-11", "2019-12-31", "2024-02-29", "")


def _name(rng: random.Random, name: str) -> str:
    return rng.choice(HOSTILE[:-1]) if rng.random() < 0.15 else name


def _event(rng: random.Random, index: int) -> Link:
    label = _name(rng, f"Łódź Open {index} & Co — “Wiśniewska” Cup")
    return Link(label, f"../../archive/{2000 + index % 30}/e-{index}/index.html?a=1&b=<2>")


def _history(rng: random.Random, factions: bool) -> HistoryPage:
    page = frame("players/p-1/index.html", "History", "history")
    events = []
    for index in range(rng.randint(0, 40)):
        field_size = rng.randint(4, 48)
        place = None if rng.random() < 0.2 else rng.randint(1, field_size)
        rank = "–" if place is None else i18n.gettext("{rank} of {field}").format(
            rank=place, field=field_size)
        faction = (rng.choice((*FACTIONS, *HOSTILE)) if factions and rng.random() < 0.7
                   else "")
        counts = [rng.randint(0, 6) for _ in range(3)]
        events.append(HistoryEvent(
            _event(rng, index), f"../../archive/e-{index}/players/p-1.html",
            rng.choice(DATES), faction, rank, rng.choice(("4", "3.5", "0", "12.25", "-1")),
            "-".join(map(str, counts)), place))
    people = field(rng, rng.randint(0, 30))
    opponents = tuple(
        HeadToHead(Link(_name(rng, person.name), f"../{person.id}/index.html"),
                   rng.randint(1, 30), f"{rng.randint(0, 9)}-{rng.randint(0, 9)}-0",
                   person.name.casefold())
        for person in people)
    return HistoryPage(page, _name(rng, "Zoë O'Neill"), tuple(events), "3-1-2", opponents,
                       "../../ratings/players/p-1.html")


def _three_ways(name: str, language: str, plain: T, write: Callable[[T], T]) -> bytes:
    """Render ``plain`` (its rows left to the template), ``write(plain)`` (its rows written
    in Python) and ``plain`` with the straightforward templates (gettext called, not
    folded) in ``language``; require the same bytes and return them."""
    templates = Templates(REPO / "site_templates", fast=True)
    reference = Templates(REPO / "site_templates", fast=False)
    with i18n.active(language):
        by_template = templates.render(name, plain)
        by_python = templates.render(name, write(plain))
        straightforward = reference.render(name, plain)
    assert by_python == by_template == straightforward
    assert b"<script>alert" not in by_template
    return by_template


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", range(4))
def test_python_history_rows_are_the_templates_rows(language: str, seed: int) -> None:
    rng = random.Random(f"history-{language}-{seed}")
    with i18n.active(language):
        plain = _history(rng, factions=seed % 2 == 0)
    page = _three_ways("history", language, plain, lambda p: replace(
        p, events_html=history_rows(p.events, any(e.faction for e in p.events)),
        opponents_html=head_to_head_rows(p.opponents)))
    assert page.count(b"<tr>") == len(plain.events) + len(plain.opponents) + 1 + (
        1 if plain.opponents else 0)
    marked = Templates(REPO / "site_templates").render("history", replace(
        plain, events_html=Markup("<tr>e</tr>"), opponents_html=Markup("<tr>o</tr>")))
    assert b"<tr>e</tr></tbody>" in marked
    assert (b"<tr>o</tr></tbody>" in marked) == bool(plain.opponents)


def _cell(rng: random.Random, name: str) -> LeaderCell:
    rank = rng.randint(1, 48)
    title = i18n.gettext("{name}: placed {rank}").format(name=name, rank=rank)
    counted = rng.random() < 0.7
    if not counted:
        title += i18n.gettext(", not among the best results counted")
    return LeaderCell(rng.choice(("25", "18", "0", "2.5", "1")), title, counted)


def _season(rng: random.Random, matrix: bool) -> SeasonPage:
    page = frame("archive/2026/index.html", "Season 2026", "season")
    columns = tuple(_event(rng, index) for index in range(rng.randint(1, 12 if matrix else 40)))
    people = field(rng, rng.randint(0, 60))
    leaders = []
    for rank, person in enumerate(people, start=1):
        played = sorted(rng.sample(range(len(columns)), rng.randint(1, len(columns))))
        cells = tuple(
            _cell(rng, columns[index].label) if index in played
            else LeaderCell("", i18n.gettext("did not play"), True)
            for index in range(len(columns))) if matrix else ()
        entries = () if matrix else tuple(
            LeaderEntry(columns[index], _cell(rng, columns[index].label)) for index in played)
        leaders.append(LeaderRow(
            rank, Link(_name(rng, person.name), f"../../players/{person.id}/index.html"),
            rng.choice(("125", "3.5", "0", "18")), len(played), cells, entries))
    events = tuple(
        EventItem(link.label, link.href, rng.choice(DATES), "Swiss", "Finished", "2026")
        for link in columns)
    return SeasonPage(page, _name(rng, "Season 2026"), Markup("<p>Welcome</p>"), events,
                      columns if matrix else (), tuple(leaders), "1st 25, 2nd 18", (),
                      Markup(""), "ratings/index.html", matrix)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", range(4))
def test_python_leaderboard_rows_are_the_templates_rows(language: str, seed: int) -> None:
    rng = random.Random(f"season-{language}-{seed}")
    matrix = seed % 2 == 0
    with i18n.active(language):
        plain = _season(rng, matrix)
    page = _three_ways("season", language, plain, lambda p: replace(
        p, leaders_html=leaderboard_rows(p.leaders, p.columns if matrix else None)))
    if plain.leaders:
        assert page.count(b"<tr>") == len(plain.leaders) + 1
    marked = Templates(REPO / "site_templates").render(
        "season", replace(plain, leaders_html=Markup("<tr>l</tr>")))
    assert (b"<tr>l</tr></tbody>" in marked) == bool(plain.leaders)


def _items(rng: random.Random) -> tuple[EventItem, ...]:
    from standgen.formats import FORMATS

    labels = [f.label for f in FORMATS.values()]
    return tuple(
        EventItem(link.label, link.href, rng.choice(DATES),
                  rng.choice((*labels, *HOSTILE)),
                  rng.choice(("Finished: 5 of 5 rounds played.", "Round 3 of 5", *HOSTILE)),
                  rng.choice(("", "Saison 2026", *HOSTILE)))
        for link in (_event(rng, index) for index in range(rng.randint(0, 60))))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", range(3))
def test_python_event_items_are_the_templates_items(language: str, seed: int) -> None:
    """The home page lists every event, a season page its own (``_events.html``)."""
    rng = random.Random(f"events-{language}-{seed}")
    with i18n.active(language):
        items = _items(rng)
        home = HomePage(frame("index.html", "Club", "home"), (), items)
        season = replace(_season(rng, seed % 2 == 0), events=items)
    page = _three_ways("home", language, home,
                       lambda p: replace(p, events_html=event_items(p.events)))
    assert page.count(b"<li>") >= len(items)
    _three_ways("season", language, season,
                lambda p: replace(p, events_html=event_items(p.events)))
    marked = Templates(REPO / "site_templates").render(
        "home", replace(home, events_html=Markup("<li>x</li>")))
    assert (b'<ul class="items">\n<li>x</li></ul>' in marked) == bool(items)


def test_a_site_writes_the_rows_in_python_only_when_fast(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build writes the history and season rows in Python, and under
    ``perf.straightforward()`` leaves them to the templates: the same site."""
    from benchmarks.synth import write_archive
    from standgen import build as lib
    from standgen import perf
    from standgen.load import load_tree
    from standgen.site import history, index_contexts

    events = write_archive(tmp_path / "events", events=4, seed=2, low=8, high=12)
    calls: list[str] = []
    for module, name in ((history, "history_rows"), (history, "head_to_head_rows"),
                         (index_contexts, "leaderboard_rows"), (index_contexts, "event_items")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *args, _real=real, _name=name: (
            calls.append(_name), _real(*args))[1])
    fast = lib.render(load_tree(events))
    assert {"history_rows", "head_to_head_rows", "leaderboard_rows",
            "event_items"} <= set(calls)
    calls.clear()
    with perf.straightforward():
        slow = lib.render(load_tree(events))
    assert calls == []
    assert fast == slow
    assert any(path.startswith("players/") for path in fast)
