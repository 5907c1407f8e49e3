"""What every page context shares: links, the page frame, and the site's help pages.

Page contexts are frozen dataclasses holding text ready to print: every number is
formatted and every link is computed here, so templates only lay things out.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol, TypeVar
from urllib.parse import urlsplit

import standgen.site.links as links
from standgen.model import Event, EventConfig, EventsTree, Player, Season
from standgen.site.i18n import _, current


def _hidden_name(player: Player) -> str:
    """Return a player's name; a hidden player's "Player 17" (standgen.privacy) in the
    page's language."""
    if player.publish == "hidden" and player.name.startswith("Player "):
        return _("Player {number}").format(number=player.name.removeprefix("Player "))
    return player.name


def shown_names(event: Event) -> dict[str, str]:
    """Return each player's name as the event's pages show it: players who share a name
    (two "Oliver Smith"s) are told apart by their club, else their rank or rating, else
    their id: "Oliver Smith (Leeds)", "Oliver Smith (Dublin)"."""
    by_name: dict[str, list[Player]] = {}
    for player in event.players:
        by_name.setdefault(player.name, []).append(player)
    shown = {p.id: _hidden_name(p) for p in event.players}
    for name, same in by_name.items():
        if len(same) < 2:
            continue
        for hint in (lambda p: p.club, lambda p: p.rank,
                     lambda p: "" if p.rating is None else f"{p.rating:g}", lambda p: p.id):
            values = [hint(p) for p in same]
            if all(values) and len(set(values)) == len(values):
                for player, value in zip(same, values, strict=True):
                    shown[player.id] = f"{name} ({value})"
                break
    return shown


# docs/ pages for the people who work on standgen: kept in the repository, never published
# in the site's help (which is for players and organisers).
DEVELOPER_DOCS = frozenset({"architecture", "performance", "reliability"})

_SHOWN: dict[tuple[int, str], tuple[tuple[Player, ...], dict[str, str]]] = {}


def shown_names_of(event: Event) -> dict[str, str]:
    """Return :func:`shown_names` of ``event``, kept for the few events being rendered
    (every page of an event asks; the players tuple is held, so its id stays its own)."""
    key = (id(event.players), current())  # a hidden player's name is the page language's
    found = _SHOWN.get(key)
    if found is None or found[0] is not event.players:
        if len(_SHOWN) >= 16:
            _SHOWN.pop(next(iter(_SHOWN)))
        found = (event.players, shown_names(event))
        _SHOWN[key] = found
    return found[1]


@dataclass(frozen=True)
class Link:
    """A relative link and its text."""

    label: str
    href: str


@dataclass(frozen=True)
class Frame:
    """The parts of a page around its content: title, stylesheet, home and help links."""

    path: str  # output path of the page, from the site root
    title: str
    root: str  # "", "../", "../../" ...
    stylesheet: str
    home: str
    help: str
    crumbs: tuple[Link, ...]  # the trail from home to the page's parent
    kind: str  # "home", "season", "event", "round", "player", "help": a CSS hook
    script: str = ""  # the site's small script (progressive enhancement only)
    archive: str = ""
    stamp: str = ""  # "Last updated: round 3 complete" (standgen.site.stamp)
    feed: str = ""  # the event's Atom feed, on an event's pages

    def href(self, to_path: str) -> str:
        """Return the relative link from this page to the output file ``to_path``."""
        return links.relative(self.path, to_path)


def frame(path: str, title: str, kind: str, crumbs: Sequence[tuple[str, str]] = ()) -> Frame:
    """Return the frame of the page at ``path``; ``crumbs`` are (label, output path) pairs."""
    return Frame(
        path=path,
        title=title,
        root=links.root_of(path),
        stylesheet=links.relative(path, links.STYLESHEET),
        home=links.relative(path, links.INDEX),
        help=links.relative(path, links.help_page("index")),
        crumbs=tuple(Link(label, links.relative(path, target)) for label, target in crumbs),
        kind=kind,
        script=links.relative(path, links.SCRIPT),
        archive=links.relative(path, links.page("archive")),
    )


@dataclass(frozen=True)
class HelpDoc:
    """A Markdown file under ``docs/``: its slug (path without ``.md``), title and text."""

    slug: str
    title: str
    text: str
    source: str = ""  # a translation's own slug (``de/players``) shown at ``slug``'s page

    @property
    def path(self) -> str:
        return links.help_page(self.slug)


@dataclass(frozen=True)
class Site:
    """What every page may link to: the events tree's seasons and the help pages."""

    tree: EventsTree
    docs: Mapping[str, HelpDoc]  # slug -> doc
    images: frozenset[str] = frozenset()  # PNG/JPEG files under docs/ (help pages show them)
    built: dt.datetime | None = None  # SOURCE_DATE_EPOCH, when set (standgen.site.stamp)
    # the quicker ways to the same bytes (the builder passes ``standgen.perf.enabled()``;
    # tests/test_performance_equivalence.py builds both ways)
    fast: bool = True

    @property
    def site_url(self) -> str:
        return self.tree.site.site_url

    def help_path(self, slug: str) -> str | None:
        """Return the output path of the help page ``slug``, or None when there is none."""
        doc = self.docs.get(slug)
        return doc.path if doc is not None else None

    def season_of(self, event: links.Located) -> Season | None:
        """Return the innermost season folder holding the event, if any."""
        if self.fast:  # the folders holding it, innermost first (the home page: 1,000 events)
            by_path, path = self._seasons, tuple(event.path)
            for end in range(len(path) - 1, -1, -1):
                found = by_path.get(path[:end])
                if found is not None:
                    return found
            return None
        holding = [s for s in self.tree.seasons if _below(event.path, s.path)]
        return max(holding, key=lambda s: len(s.path), default=None)

    @cached_property
    def _seasons(self) -> dict[tuple[str, ...], Season]:
        found: dict[tuple[str, ...], Season] = {}
        for season in self.tree.seasons:
            found.setdefault(tuple(season.path), season)  # max() keeps the first
        return found

    def event_crumbs(self, event: Event) -> list[tuple[str, str]]:
        """Return the breadcrumb trail down to (and including) the event page."""
        crumbs: list[tuple[str, str]] = []
        season = self.season_of(event)
        if season is not None:
            crumbs.append((season.name, links.season_page(season.path)))
        crumbs.append((event.config.name, links.event_page(event)))
        return crumbs


def _below(path: Sequence[str], folder: Sequence[str]) -> bool:
    return len(path) > len(folder) and tuple(path[: len(folder)]) == tuple(folder)


def web_url(url: str) -> str:
    """Return ``url`` if it is an http(s) address, else ``""`` (never a ``javascript:`` link)."""
    url = url.strip()
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        return ""
    return url if scheme in ("http", "https") else ""


class Dated(Protocol):
    """An event, or its summary: what :func:`newest_first` sorts by."""

    @property
    def path(self) -> tuple[str, ...]: ...

    @property
    def config(self) -> EventConfig: ...


D = TypeVar("D", bound=Dated)


def newest_first(events: Sequence[D]) -> list[D]:
    """Return events by date, newest first, then by name and path."""
    return sorted(
        events, key=lambda e: (-e.config.date.toordinal(), e.config.name.casefold(), e.path)
    )


def help_title(slug: str, text: str) -> str:
    """Return a help page's title: its first ``# `` heading, else its slug."""
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return slug.rsplit("/", 1)[-1].replace("-", " ").capitalize()


def stat_heading(stat_id: str) -> str:
    """Return a stat's column heading: ``cp`` -> ``CP``, ``centres`` -> ``Centres``."""
    return stat_id.upper() if len(stat_id) <= 3 else stat_id.capitalize()
